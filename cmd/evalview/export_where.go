package main

import (
	"encoding/json"
	"fmt"
	"io"

	"evalview/model"
	"evalview/model/query"
)

// exportLine is an export row with the user's labels and note on the
// record (JSON fields user_labels and user_note, CSV columns of the same
// names; also under their first names, note_labels and note, which
// scripts read).
type exportLine struct {
	model.ExportRow
	NoteLabels []string `json:"note_labels,omitempty"`
	Note       string   `json:"note,omitempty"`
}

// MarshalJSON writes the row (model.ExportRow's own JSON, which spells
// NaN and infinities as strings) followed by the user's labels and note.
func (l exportLine) MarshalJSON() ([]byte, error) {
	base, err := json.Marshal(l.ExportRow)
	if err != nil || len(l.NoteLabels) == 0 && l.Note == "" {
		return base, err
	}
	notes, err := json.Marshal(struct {
		UserLabels []string `json:"user_labels,omitempty"`
		UserNote   string   `json:"user_note,omitempty"`
		NoteLabels []string `json:"note_labels,omitempty"`
		Note       string   `json:"note,omitempty"`
	}{l.NoteLabels, l.Note, l.NoteLabels, l.Note})
	if err != nil {
		return nil, err
	}
	return append(append(base[:len(base)-1], ','), notes[1:]...), nil
}

// noteGetter reads a record's notes; artifactNotes and tui.NoteStore
// have it.
type noteGetter interface {
	Get(id string) (labels []string, note string)
}

// exportSet is what to export of one dataset: rows (record indexes in
// output order), nil for every record.
type exportSet struct {
	ds    *model.Dataset
	rows  []int
	notes noteGetter
	// threshold, when set, is the pass threshold a scored dataset's
	// statuses are written at (model.Scoring.RecordAt): export's
	// --threshold, or the browser's; nil writes them as loaded.
	threshold *float64
}

// writeExport writes the sets as JSONL or CSV and returns how many rows
// it wrote. Records that cannot be read are reported on stderr and
// skipped.
func writeExport(w, stderr io.Writer, format string, sets []exportSet) (int, error) {
	var csvRows []exportLine
	n := 0
	for _, set := range sets {
		err := eachExportLine(set, stderr, func(line exportLine) error {
			n++
			if format == "csv" {
				csvRows = append(csvRows, line)
				return nil
			}
			return writeJSONL(w, line)
		})
		if err != nil {
			return n, err
		}
	}
	if format == "csv" {
		return n, writeCSV(w, csvRows)
	}
	return n, nil
}

// eachExportLine hands fn the export line of each record of set, in
// order. Records that cannot be read are reported on stderr and skipped;
// fn's error stops it.
func eachExportLine(set exportSet, stderr io.Writer, fn func(exportLine) error) error {
	// Every record, unless --where chose some: counted, not listed (a
	// list of 10 million record numbers took 80 MB).
	n := len(set.rows)
	if set.rows == nil {
		n = set.ds.Records.Len()
	}
	for k := range n {
		i := k
		if set.rows != nil {
			i = set.rows[k]
		}
		rec, err := set.ds.Records.Record(i)
		if err != nil {
			fmt.Fprintln(stderr, "evalview:", err)
			continue
		}
		if set.threshold != nil {
			rec = set.ds.Scoring.RecordAt(rec, *set.threshold)
		}
		line := exportLine{ExportRow: model.NewExportRow(set.ds, rec)}
		if set.notes != nil {
			line.NoteLabels, line.Note = set.notes.Get(rec.ID)
		}
		if err := fn(line); err != nil {
			return err
		}
	}
	return nil
}

// whereRows returns the records of ds matching the query line where, in
// file order. A query that does not parse, or names a field or filter ds
// lacks, is an error naming the column of the bad term.
// Labels and notes come from notes (may be nil).
func whereRows(ds *model.Dataset, where string, notes noteGetter, threshold *float64) ([]int, error) {
	q, err := query.Values(ds).Parse(where)
	if err != nil {
		return nil, fmt.Errorf("--where: %w", err)
	}
	env := query.Env{Dataset: ds, Filter: defaultFilter(ds), Threshold: threshold}
	if notes != nil {
		env.Notes = notes.Get
	}
	rows := query.Filter(env, q)
	if rows == nil {
		rows = []int{}
	}
	return rows, nil
}

// defaultFilter is the lm-eval filter a query's status and score refer to
// without a filter= term: the first, as in the browser.
func defaultFilter(ds *model.Dataset) int {
	if len(ds.Filters) == 0 {
		return -1
	}
	return 0
}
