// Package plain opens JSON Lines files that no artifact format claims as
// plain records (kind jsonl): one record per line, so that no JSONL file
// is refused; and JSON documents, whose records are the elements of the
// list they hold (document.go), whatever their size. Nothing is known of the records' meaning, so nothing is
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
//
// and for a JSON document (document.go):
//
//	bad-json          an element of the records' list is not JSON
//	                  (error; no record), or the document breaks: cut
//	                  short, a bad token, more after its end (error; the
//	                  records before it are kept)
//	duplicate-id      a record's id an earlier one gives (warning; this
//	                  record is named by its place in the list)
//	document-records  the document holds several lists of objects, or
//	                  none, or its array's elements are not objects (note)
package plain

import (
	"bytes"
	"encoding/json"
	"errors"
	"evalview/loaders/internal/intern"
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
// lines after it (a JSON document, or one that breaks after a first line
// of a bracket alone): JSON of some kind, which the other formats,
// scoring first, may claim.
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
		if json.Valid(t) || !cut || bracketAlone(t) {
			return 1 // a bracket alone starts a pretty-printed document, broken or not
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

// fieldLists keeps one copy of each "fields" fact (intern).
var fieldLists intern.Table

// maxBadLines bounds the bad-json issues a file lists one by one; the
// lines past it are counted in one more.
const maxBadLines = 1000

// openFile indexes one file into a dataset.
func openFile(path string) (*model.Dataset, error) { return scanFile(path, nil) }

// scanFile indexes one file into a dataset; g, when set, is told each
// record as it is indexed (openFileBackground's early rows) and can stop
// the scan.
func scanFile(path string, g *growing) (*model.Dataset, error) {
	f, err := jsonl.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	ds := &model.Dataset{Kind: model.KindJSONL, Path: path, Title: name, Task: name}
	if head, err := folder.ReadHead(path); err == nil && isDocument(head, st.Size()) {
		doc := &model.Dataset{Kind: model.KindJSONL, Path: path, Title: name, Task: name}
		open := openDocument
		if st.Size() > maxDocument {
			open = openDocumentStream
		}
		switch err := open(path, doc); {
		case err == nil:
			return doc, nil
		case !errors.Is(err, errNotDocument):
			ds.Issues = append(ds.Issues, model.Errorf("read-error", path, 0, "", "reading it as a JSON document stopped: %v; it is read line by line", err))
		}
		// JSON Lines after all (a first line longer than the head): read
		// line by line.
	}
	x := &index{id: indexes.Add(1), path: path, size: st.Size()}
	ids := newIDSet()
	var keys keyList
	var ends jsonl.LineEnds
	bad, firstBad := 0, 0
	err = jsonl.ScanLinesMax(f, longLine, func(l jsonl.Line) error {
		ends.Note(l)
		if l.N == 1 && jsonl.IsLFSPointer(l.Data) {
			ds.Issues = append(ds.Issues, jsonl.LFSIssue(path))
			return errStop
		}
		if !l.Cut && jsonl.IsBlank(l.Data) {
			return nil
		}
		rec, is := x.build(l, false)
		if is != nil {
			if bad++; bad <= maxBadLines {
				ds.Issues = append(ds.Issues, *is)
			} else if bad == maxBadLines+1 {
				firstBad = l.N
			}
			return nil
		}
		if g != nil && g.stop.Load() {
			return errStop // before the record: an index holds it whole or not at all
		}
		x.add(l.Offset, l.N)
		if g != nil {
			g.offer(x, l, rec)
		}
		ids.add(rec.ID)
		for _, fl := range rec.Fields {
			keys.add(fl.Name)
		}
		x.keep(rec)
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		ds.Issues = append(ds.Issues, model.Errorf("read-error", path, 0, "", "reading stopped: %v", err))
	}
	if bad > maxBadLines {
		ds.Issues = append(ds.Issues, model.Errorf("bad-json", path, firstBad, "", "%d more lines from here on are not JSON (the first %d are listed)", bad-maxBadLines, maxBadLines))
	}
	x.settle()
	if x.n == 0 && len(ds.Issues) == 0 {
		ds.Issues = append(ds.Issues, model.Warnf("empty-file", path, 0, "", "file holds no records"))
	}
	ds.Issues = append(ds.Issues, ends.Issues(path)...)
	if dups := ids.repeated(); len(dups) > 0 {
		ds.Issues = append(ds.Issues, x.markDups(dups, ids.seed)...)
	}
	ds.Records = x
	ds.Facts = make([]model.Fact, 2, 3) // a folder of many files holds a slice per file
	ds.Facts[0] = model.Fact{Key: "format", Value: "JSON Lines, shown as plain records"}
	ds.Facts[1] = model.Fact{Key: "records", Value: strconv.Itoa(x.n)}
	if len(keys.order) > 0 {
		ds.Facts = append(ds.Facts, model.Fact{Key: "fields", Value: fieldLists.Of(keys.String())})
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
	more  bool // keys past maxKeys were left out
}

// maxKeys bounds the keys a keyList gathers: records of a million keys
// each would otherwise keep them all.
const maxKeys = 10_000

func (k *keyList) add(key string) {
	if k.seen[key] {
		return
	}
	if len(k.order) >= maxKeys {
		k.more = true
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
	more := ""
	if k.more {
		more = "+" // and others not counted
	}
	if len(k.order) <= 20 && !k.more {
		return strings.Join(k.order, ", ")
	}
	return strings.Join(k.order[:min(20, len(k.order))], ", ") + fmt.Sprintf(" and %d%s more", len(k.order)-min(20, len(k.order)), more)
}
