// Package plain opens JSON Lines files that no artifact format claims as
// plain records (kind jsonl): one record per line, so that no JSONL file
// is refused. Nothing is known of the records' meaning, so nothing is
// guessed: every top-level field is listed as it is written (the detail's
// fields, the record search), short scalar fields are also labels (queries
// and facets: `:lang=en`), the others labels without a value that queries
// read from the record (Presentation.FieldLabels: `:model_output~six`),
// the line is the record's raw JSON, and no record has a status or a
// score.
//
// The ID is the record's "id" when it is a string or a number, else
// "line N". The title is the first line of the first text field with a
// usual name (title, name, question, prompt, input...), else of the first
// text field, else the record's JSON.
//
// Issue codes, as for the other line-based formats:
//
//	bad-json        a line is not JSON (error; no record)
//	duplicate-id    an id given by an earlier line (warning; this record's
//	                ID gets its line number)
//	duplicate-key   a key given twice in one object (warning; the last
//	                value wins, as in encoding/json)
//	read-error      the file could not be read to the end (error)
//	empty-file      no record at all (warning)
//	bom, crlf       a byte-order mark, Windows line ends (warnings)
package plain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/internal/jsonhead"
	"evalview/loaders/jsonl"
	"evalview/model"
)

var bom = []byte("\xef\xbb\xbf")

// SniffFile scores a file 1 when its first line (after blank lines) is a
// JSON object or array, or starts one that runs past the head or over the
// lines after it (a JSON document): JSON of some kind, which the other
// formats, scoring first, may claim.
func SniffFile(_ string, head []byte) int {
	head = bytes.TrimPrefix(head, bom)
	head0 := head
	for len(head) > 0 {
		line, rest, cut := bytes.Cut(head, []byte("\n"))
		head = rest
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if t[0] != '{' && t[0] != '[' {
			return 0
		}
		if json.Valid(t) || !cut {
			return 1
		}
		// A JSON document over several lines (pretty-printed): its first
		// line opens it, and what follows is JSON as far as the head goes.
		if v := jsonhead.Parse(head0, 0); v != nil && !v.Bad {
			return 1
		}
		return 0
	}
	return 0
}

// format is the plain loader as a folder sees it: the .jsonl files of the
// folder and its subfolders whose first line is JSON.
var format = folder.Format{
	Kind:     model.KindJSONL,
	What:     "JSON Lines files",
	Depth:    1,
	Sniff:    SniffFile,
	OpenFile: openFile,
	Title:    filepath.Base,
}

// maxSniffFiles bounds how many .jsonl files SniffDir reads.
const maxSniffFiles = 50

// SniffDir scores a folder 1 when it holds a .jsonl file SniffFile takes.
func SniffDir(dir string, names []string) int { return format.SniffDir(dir, names, maxSniffFiles) }

// Open opens a JSON Lines file, or every one in a folder and its
// subfolders, one dataset each.
func Open(path string) ([]*model.Dataset, error) { return format.Open(path) }

// Each is Open handing each dataset to fn as soon as it is loaded, for
// callers that need one at a time (see loaders.Each).
func Each(path string, fn func(*model.Dataset) error) error { return format.Each(path, fn) }

var errStop = errors.New("stop")

// openFile indexes one file into a dataset.
func openFile(path string) (*model.Dataset, error) {
	f, err := jsonl.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	name := filepath.Base(path)
	ds := &model.Dataset{Kind: model.KindJSONL, Path: path, Title: name, Task: name}
	if head, err := folder.ReadHead(path); err == nil {
		if st, err := f.Stat(); err == nil && isDocument(head, st.Size()) {
			doc := &model.Dataset{Kind: model.KindJSONL, Path: path, Title: name, Task: name}
			if openDocument(path, doc) == nil {
				return doc, nil
			}
			// Not one document after all (several values, one broken):
			// read line by line, each bad line said.
		}
	}
	// A record is built again from its line when asked for, named as
	// indexing named it (a repeated id gets its line).
	x := &jsonl.LineIndex{Path: path, Build: func(e jsonl.LineEntry, data []byte) *model.Record {
		rec, bad := build(path, e.Sum.Line, data)
		if bad != nil {
			return nil
		}
		rename(rec, e.Sum.ID)
		return rec
	}}
	firstLine := map[string]int{}
	var keys keyList
	var ends jsonl.LineEnds
	err = jsonl.ScanLines(f, func(l jsonl.Line) error {
		ends.Note(l)
		if l.N == 1 && jsonl.IsLFSPointer(l.Data) {
			ds.Issues = append(ds.Issues, jsonl.LFSIssue(path))
			return errStop
		}
		if jsonl.IsBlank(l.Data) {
			return nil
		}
		rec, bad := build(path, l.N, l.Data)
		if bad != nil {
			ds.Issues = append(ds.Issues, *bad)
			return nil
		}
		e := jsonl.LineEntry{Off: l.Offset, Size: len(l.Data)}
		if first, dup := firstLine[rec.ID]; dup {
			id := rec.ID + " (line " + strconv.Itoa(l.N) + ")"
			e.Extra = append(e.Extra, model.Warnf("duplicate-id", path, l.N, id, "id %q is also the id of line %d; this record is named by its line", rec.ID, first))
			rename(rec, id)
			rec.Issues = append(rec.Issues, e.Extra...)
			rec.Errors, rec.Warnings = model.CountIssues(rec.Issues)
		} else {
			firstLine[rec.ID] = l.N
		}
		for _, fl := range rec.Fields {
			keys.add(fl.Name)
		}
		e.Sum = rec.Summary
		x.Recs = append(x.Recs, e)
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		ds.Issues = append(ds.Issues, model.Errorf("read-error", path, 0, "", "reading stopped: %v", err))
	}
	if len(x.Recs) == 0 && len(ds.Issues) == 0 {
		ds.Issues = append(ds.Issues, model.Warnf("empty-file", path, 0, "", "file holds no records"))
	}
	ds.Issues = append(ds.Issues, ends.Issues(path)...)
	ds.Records = x
	ds.Facts = []model.Fact{
		{Key: "format", Value: "JSON Lines, shown as plain records"},
		{Key: "records", Value: strconv.Itoa(len(x.Recs))},
	}
	if len(keys.order) > 0 {
		ds.Facts = append(ds.Facts, model.Fact{Key: "fields", Value: keys.String()})
	}
	return ds, nil
}

// rename gives rec another ID, and its issues with it.
func rename(rec *model.Record, id string) {
	for i := range rec.Issues {
		if rec.Issues[i].Record == rec.ID {
			rec.Issues[i].Record = id
		}
	}
	rec.ID = id
}

// keyList gathers the top-level keys of a file's records, in first-seen
// order.
type keyList struct {
	seen  map[string]bool
	order []string
}

func (k *keyList) add(key string) {
	if k.seen[key] {
		return
	}
	if k.seen == nil {
		k.seen = map[string]bool{}
	}
	k.seen[key] = true
	k.order = append(k.order, key)
}

// String lists the keys, at most 20, then how many more.
func (k *keyList) String() string {
	if len(k.order) <= 20 {
		return strings.Join(k.order, ", ")
	}
	return strings.Join(k.order[:20], ", ") + fmt.Sprintf(" and %d more", len(k.order)-20)
}
