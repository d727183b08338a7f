package testset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// line is one line of a testset file, kept for the whole load: testsets are
// small, and multi-line records need to look ahead.
type line struct {
	n    int
	data []byte
}

// maxSpan bounds how many lines a pretty-printed record may span.
const maxSpan = 100_000

// loader holds the state of one file's load.
type loader struct {
	file    string
	lines   []line
	recs    []*model.Record
	issues  []model.Issue
	comment int
	// firstLine maps each id to the line of the record that first used it.
	firstLine map[string]int
	// noGather is set once a record opened on its own line never closed:
	// looking for more such records would rescan the rest of the file.
	noGather bool
}

// load reads a testset from r. name is the path issues and the dataset
// carry. It fails only when nothing can be read; every problem of the
// content becomes an issue.
func load(name string, r io.Reader) *model.Dataset {
	l := &loader{file: name, firstLine: map[string]int{}}
	var ends jsonl.LineEnds
	err := jsonl.ScanLinesMax(r, maxLine, func(ln jsonl.Line) error {
		ends.Note(ln)
		if ln.Cut {
			// Kept empty: its line number stays, its bytes are not read.
			l.issues = append(l.issues, jsonl.LineTooLong(name, ln, "a test case", maxLine))
			l.lines = append(l.lines, line{n: ln.N})
			return nil
		}
		l.lines = append(l.lines, line{n: ln.N, data: append([]byte(nil), ln.Data...)})
		return nil
	})
	if err != nil {
		l.issues = append(l.issues, model.Errorf("read-error", name, len(l.lines)+1, "", "reading stopped: %v", err))
	}
	base := filepath.Base(name)
	d := &model.Dataset{Kind: model.KindTestset, Path: name, Title: base, Task: base, Presentation: Presentation()}
	if len(l.lines) > 0 && jsonl.IsLFSPointer(l.lines[0].data) {
		d.Issues = append(l.issues, jsonl.LFSIssue(name))
		d.Records = model.NewMemIndex(nil)
		return d
	}
	l.scan()
	if len(l.recs) == 0 {
		l.issues = append(l.issues, model.Errorf("no-records", name, 0, "", "no test cases in the file; Prompt Lab refuses an empty testset"))
	}
	d.Issues = append(l.issues, ends.Issues(name)...)
	d.Facts = l.facts()
	d.Records = model.NewMemIndex(l.recs)
	return d
}

// scan walks the lines: blank lines and // comments are skipped, each JSON
// object is a record, anything else is a dataset issue.
func (l *loader) scan() {
	for i := 0; i < len(l.lines); i++ {
		ln := l.lines[i]
		t := bytes.TrimSpace(ln.data)
		switch {
		case len(t) == 0:
			continue
		case bytes.HasPrefix(t, []byte("//")):
			l.comment++
			continue
		case json.Valid(t):
			l.value(ln.n, ln.n, t)
			continue
		}
		if q, n := jsonl.QuoteNonFinite(t); n > 0 && json.Valid(q) {
			l.value(ln.n, ln.n, q) // Python's NaN and Infinity, read as strings
			continue
		}
		if end, ok := l.gather(i); ok {
			i = end
			continue
		}
		lead := len(ln.data) - len(bytes.TrimLeft(ln.data, " \t"))
		l.issues = append(l.issues, model.Errorf("bad-json", l.file, ln.n, "", "line is %s", syntaxMessage(t, lead)))
	}
}

// value handles one JSON value found on lines first..last.
func (l *loader) value(first, last int, t []byte) {
	if jsonl.KindOf(t) != jsonl.KindObject {
		l.issues = append(l.issues, model.Errorf("not-object", l.file, first, "", "line holds %s, not a test case object", jsonl.KindOf(t)))
		return
	}
	members, dups, err := parseObject(t)
	if err != nil {
		l.issues = append(l.issues, model.Errorf("bad-json", l.file, first, "", "not valid JSON: %v", err))
		return
	}
	rec, idOK := buildCase(l.file, first, last, t, members, dups)
	if !utf8.Valid(t) {
		addIssue(rec, model.Errorf("bad-utf8", l.file, first, rec.ID, "record is not valid UTF-8; Prompt Lab reads testsets as UTF-8 and would fail"))
	}
	if idOK {
		if prev, dup := l.firstLine[rec.ID]; dup {
			is := model.Errorf("duplicate-id", l.file, first, rec.ID, "id %q is already used by the record on line %d", rec.ID, prev)
			is.Path = "$.id"
			addIssue(rec, is)
		} else {
			l.firstLine[rec.ID] = first
		}
	}
	l.recs = append(l.recs, rec)
}

// addIssue adds an issue found after the record was built.
func addIssue(r *model.Record, is model.Issue) {
	r.Issues = append(r.Issues, is)
	r.Errors, r.Warnings = model.CountIssues(r.Issues)
}

// gather handles a record pretty-printed over several lines, as the spec
// prints its examples: line i holds just "{" and a later line closes it. A
// span that parses becomes a record (with an error, since the file is then
// not JSONL). A span that does not parse, or never closes, becomes one
// bad-json issue, unless one of its lines is a record by itself: a good
// record is never swallowed. It returns the last line it handled and
// whether it handled line i.
func (l *loader) gather(i int) (int, bool) {
	if l.noGather || string(bytes.TrimSpace(l.lines[i].data)) != "{" {
		return 0, false
	}
	end, how := l.spanEnd(i)
	if how == spanBroken {
		return 0, false
	}
	first, last := l.lines[i].n, l.lines[end].n
	if how == spanClosed {
		var buf bytes.Buffer
		for j := i; j <= end; j++ {
			if j > i {
				buf.WriteByte('\n')
			}
			buf.Write(l.lines[j].data)
		}
		joined := bytes.TrimSpace(buf.Bytes())
		if json.Valid(joined) {
			l.value(first, last, joined)
			return end, true
		}
		if l.holdsRecord(i+1, end) {
			return 0, false
		}
		l.issues = append(l.issues, model.Errorf("bad-json", l.file, first, "",
			"lines %d-%d hold an object that is not valid JSON (%s)", first, last, spanError(joined, first)))
		return end, true
	}
	// The object never closes. Rescanning from later lines would cost
	// as much again, so this is the last attempt in the file.
	l.noGather = true
	if l.holdsRecord(i+1, end) {
		return 0, false
	}
	l.issues = append(l.issues, model.Errorf("bad-json", l.file, first, "",
		"the object opened on line %d never closes (lines %d-%d)", first, first, last))
	return end, true
}

// holdsRecord reports whether one of lines from..to is a JSON object by
// itself.
func (l *loader) holdsRecord(from, to int) bool {
	for j := from; j <= to; j++ {
		t := bytes.TrimSpace(l.lines[j].data)
		if jsonl.KindOf(t) == jsonl.KindObject && json.Valid(t) {
			return true
		}
	}
	return false
}

// How a span of lines opened by "{" ends.
const (
	spanClosed = iota // a later line closes it, with nothing after
	spanOpen          // the file (or maxSpan) ends first
	spanBroken        // it cannot be one pretty-printed object
)

// spanEnd finds the line that closes the object opened on line i, by
// counting brackets outside strings. It returns spanBroken when a string
// runs past a line end (JSON strings cannot), a comment line interrupts,
// brackets close too often or something follows the closing bracket; and
// spanOpen, with the last line looked at, when the object never closes.
func (l *loader) spanEnd(i int) (end, how int) {
	depth := 0
	j := i
	for ; j < len(l.lines) && j-i < maxSpan; j++ {
		data := l.lines[j].data
		if j > i && bytes.HasPrefix(bytes.TrimSpace(data), []byte("//")) {
			return 0, spanBroken
		}
		inString, escaped := false, false
		for k, c := range data {
			switch {
			case inString && escaped:
				escaped = false
			case inString && c == '\\':
				escaped = true
			case inString && c == '"':
				inString = false
			case inString:
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				depth--
				if depth == 0 {
					if len(bytes.TrimSpace(data[k+1:])) > 0 || j == i {
						return 0, spanBroken
					}
					return j, spanClosed
				}
				if depth < 0 {
					return 0, spanBroken
				}
			}
		}
		if inString {
			return 0, spanBroken
		}
	}
	return j - 1, spanOpen
}

// spanError describes a JSON error in a multi-line span, naming the line.
func spanError(joined []byte, first int) string {
	var v json.RawMessage
	err := json.Unmarshal(joined, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := int(se.Offset)
		if off > len(joined) {
			off = len(joined)
		}
		n := first + bytes.Count(joined[:off], []byte("\n"))
		return fmt.Sprintf("line %d: %s", n, se.Error())
	}
	if err != nil {
		return err.Error()
	}
	return "unknown error"
}

// kindOrder is the order the "kinds" fact lists kinds in.
var kindOrder = []string{KindSimple, KindMultiStep, KindBatch, KindAggregation, KindFull}

// facts are the dataset's header facts: record counts by version and kind,
// comment lines, distinct step ids and batch items.
func (l *loader) facts() []model.Fact {
	versions := map[string]int{}
	kinds := map[string]int{}
	steps := map[string]bool{}
	items := 0
	for _, r := range l.recs {
		versions[r.Labels.Get("version")]++
		kinds[r.Labels.Get("kind")]++
		n, _ := strconv.Atoi(r.Labels.Get("batch_items"))
		items += n
		for _, s := range r.Sections {
			if s.Title == SectionSteps && s.Table != nil {
				for _, row := range s.Table.Rows {
					steps[row[0]] = true
				}
			}
		}
	}
	facts := []model.Fact{{Key: "records", Value: strconv.Itoa(len(l.recs))}}
	for _, v := range []string{VersionV1, VersionV2} {
		if versions[v] > 0 {
			facts = append(facts, model.Fact{Key: v + " records", Value: strconv.Itoa(versions[v])})
		}
	}
	var ks []string
	for _, k := range kindOrder {
		if kinds[k] > 0 {
			ks = append(ks, fmt.Sprintf("%s %d", k, kinds[k]))
		}
	}
	if len(ks) > 0 {
		facts = append(facts, model.Fact{Key: "kinds", Value: strings.Join(ks, ", ")})
	}
	facts = append(facts, model.Fact{Key: "comment lines", Value: strconv.Itoa(l.comment)})
	if len(steps) > 0 {
		facts = append(facts, model.Fact{Key: "step ids", Value: strconv.Itoa(len(steps))})
	}
	if items > 0 {
		facts = append(facts, model.Fact{Key: "batch items", Value: strconv.Itoa(items)})
	}
	return facts
}

// maxLine bounds a test case's line (a variable, so tests can lower
// it): a testset is held whole, and a
// Prompt Lab case is a few KB.
var maxLine = 128 << 20
