package sample

import (
	"errors"
	"path/filepath"

	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// errStop ends a scan early without an error.
var errStop = errors.New("stop")

// openFile indexes one Sample JSONL file into a dataset.
func openFile(path string) (*model.Dataset, error) {
	dir := source.Dir(path) // a remote file's media are named relative to it
	if !source.IsRemote(path) {
		var err error
		if dir, err = filepath.Abs(dir); err != nil {
			return nil, err
		}
	}
	f, err := source.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	name := datasetName(path)
	ds := &model.Dataset{Kind: model.KindSample, Path: path, Title: name, Task: name, Presentation: Presentation()}
	// Records are parsed again from their line when asked for, so files
	// with large raw responses are never held in memory whole.
	idx := &jsonl.LineIndex{Path: path, Build: func(e jsonl.LineEntry, data []byte) *model.Record {
		rec, _ := parseLine(path, dir, e.Sum.Line, data, false)
		return rec
	}}
	st := newStats()
	firstLine := map[string]int{}
	var ends jsonl.LineEnds
	err = jsonl.ScanLinesMax(f, maxLine, func(l jsonl.Line) error {
		ends.Note(l)
		if l.N == 1 && jsonl.IsLFSPointer(l.Data) {
			ds.Issues = append(ds.Issues, jsonl.LFSIssue(path))
			return errStop
		}
		if l.Cut {
			ds.Issues = append(ds.Issues, jsonl.LineTooLong(path, l, "a Sample record", maxLine))
			return nil
		}
		if jsonl.IsBlank(l.Data) {
			return nil
		}
		rec, lineIssue := parseLine(path, dir, l.N, l.Data, true)
		if lineIssue != nil {
			ds.Issues = append(ds.Issues, *lineIssue)
			return nil
		}
		e := jsonl.LineEntry{Off: l.Offset, Size: len(l.Data)}
		if first, dup := firstLine[rec.ID]; dup {
			e.Extra = append(e.Extra, model.Errorf("duplicate-id", path, l.N, rec.ID, "id %q repeats the record on line %d", rec.ID, first))
			rec.Issues = append(rec.Issues, e.Extra...)
			rec.Errors, rec.Warnings = model.CountIssues(rec.Issues)
		} else {
			firstLine[rec.ID] = l.N
		}
		e.Sum = rec.Summary
		st.add(rec)
		idx.Recs = append(idx.Recs, e)
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		ds.Issues = append(ds.Issues, model.Errorf("read-error", path, 0, "", "reading stopped: %v", err))
	}
	if len(idx.Recs) == 0 && len(ds.Issues) == 0 {
		ds.Issues = append(ds.Issues, model.Warnf("empty-file", path, 0, "", "file holds no records"))
	}
	ds.Issues = append(ds.Issues, ends.Issues(path)...)
	ds.Records = idx
	ds.Facts = st.facts()
	if st.scored > 0 {
		ds.MainMetric = "score"
	}
	return ds, nil
}

// maxLine bounds a record's line (a variable, so tests can lower it):
// it is parsed whole, and read again
// whole when the record is opened (a 2 GB line took 12 GB as plain JSON
// Lines before plain ones were walked as streams).
var maxLine = 128 << 20
