package jsonl

import (
	"fmt"

	"evalview/loaders/source"
	"evalview/model"
)

// LineIndex is the model.Index of a file of one record per line: every
// record's list row and where its line is. A record is parsed again from
// its line when asked for, so files with large lines are never held in
// memory whole. It is safe for concurrent use.
type LineIndex struct {
	Path string
	Recs []LineEntry
	// Build parses an entry's line (data) into its record again; nil when
	// the line no longer holds one.
	Build func(e LineEntry, data []byte) *model.Record
}

// LineEntry is one indexed record.
type LineEntry struct {
	Sum  model.Summary
	Off  int64
	Size int
	// Extra are issues that need the whole file to find (a repeated id):
	// parsing the line alone cannot find them again.
	Extra []model.Issue
}

// Len returns the number of records.
func (x *LineIndex) Len() int { return len(x.Recs) }

// Summary returns record i's list row.
func (x *LineIndex) Summary(i int) model.Summary { return x.Recs[i].Sum }

// Done is always true: the file is indexed before it is handed over.
func (x *LineIndex) Done() bool { return true }

// Record reads record i's line again and builds it, with its Extra issues.
func (x *LineIndex) Record(i int) (*model.Record, error) {
	if i < 0 || i >= len(x.Recs) {
		return nil, fmt.Errorf("record %d out of range (0..%d)", i, len(x.Recs)-1)
	}
	e := x.Recs[i]
	buf, err := readAt(x.Path, e.Off, e.Size)
	if err != nil {
		return nil, fmt.Errorf("%s: line %d: cannot read it again (file changed since it was opened?): %v", x.Path, e.Sum.Line, err)
	}
	rec := x.Build(e, buf)
	if rec == nil {
		return nil, fmt.Errorf("%s: line %d no longer holds a record (file changed since it was opened?)", x.Path, e.Sum.Line)
	}
	rec.Issues = append(rec.Issues, e.Extra...)
	rec.Errors, rec.Warnings = model.CountIssues(rec.Issues)
	return rec, nil
}

func readAt(path string, off int64, size int) ([]byte, error) {
	f, err := source.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, size)
	if n, err := f.ReadAt(buf, off); n < size {
		if err == nil {
			err = fmt.Errorf("short read")
		}
		return nil, err
	}
	return buf, nil
}
