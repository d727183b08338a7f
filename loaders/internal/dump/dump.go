// Package dump renders a dataset, its list and every record's detail, as
// text for golden files, so that loader tests compare what the panes
// would be given, field by field.
package dump

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/model"
)

// Dataset renders a dataset's list and every record's detail as text, the
// way the golden files show them (read them like code).
func Dataset(t testing.TB, ds *model.Dataset) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "kind=%s task=%s title=%q filters=%q main=%s\n", ds.Kind, ds.Task, ds.Title, ds.Filters, ds.MainMetric)
	for _, f := range ds.Facts {
		fmt.Fprintf(&b, "fact %s: %s\n", f.Key, f.Value)
	}
	for _, m := range ds.Metrics {
		fmt.Fprintf(&b, "metric %s/%s = %v stderr=%v(%v)\n", m.Filter, m.Name, m.Value, m.Stderr, m.HasStderr)
	}
	for _, is := range ds.Issues {
		fmt.Fprintf(&b, "issue %s %s\n", is.Code, is)
	}
	for i := 0; i < ds.Records.Len(); i++ {
		s := ds.Records.Summary(i)
		fmt.Fprintf(&b, "\n== row %s %q status=%s score=%v(%v) attempts=%d/%d scored=%d errors=%d warnings=%d labels=%v\n",
			s.ID, s.Title, s.Status, s.Score, s.HasScore, s.Attempts, s.AttemptsWanted, s.ScoredAttempts, s.Errors, s.Warnings, s.Labels)
		for fi, o := range s.Outcomes {
			fmt.Fprintf(&b, "   outcome %q present=%v answer=%q status=%s score=%v metrics=%v\n", ds.Filters[fi], o.Present, o.Answer, o.Status, o.Score, o.Metrics)
		}
		r, err := ds.Records.Record(i)
		if err != nil {
			fmt.Fprintf(&b, "   record error: %v\n", err)
			continue
		}
		fmt.Fprintf(&b, "   target=%q refs=%q\n", r.Target, r.References)
		for _, m := range r.Messages {
			fmt.Fprintf(&b, "   msg %s %s: %q\n", m.Role, m.Label, m.Text())
		}
		for _, a := range r.Attempts {
			fmt.Fprintf(&b, "   attempt %d status=%s(%s) text=%q weighted=%v(%v) judge=%q error=%q limit=%q scores=%v facts=%v\n",
				a.Index, a.Status, a.StatusText, a.Text, a.Weighted, a.HasWeighted, a.Judge, a.Error, a.ErrorType, a.Scores, a.Facts)
			for _, m := range a.Messages {
				var segs []string
				for _, sg := range m.Segments {
					segs = append(segs, fmt.Sprintf("%s:%q%s%s%v", sg.Type, sg.Text, sg.ToolName, sg.Arguments, sg.Meta))
				}
				fmt.Fprintf(&b, "      %s %s %s\n", m.Role, m.ToolCallID, strings.Join(segs, " | "))
			}
		}
		for _, sec := range r.Sections {
			fmt.Fprintf(&b, "   section %q tab=%q folded=%v\n", sec.Title, sec.Tab, sec.Folded)
			if sec.Table != nil {
				for _, row := range sec.Table.Rows {
					fmt.Fprintf(&b, "      %q\n", row)
				}
			}
			for _, l := range strings.Split(sec.Text, "\n") {
				if l != "" {
					fmt.Fprintf(&b, "      | %s\n", l)
				}
			}
		}
		for _, p := range r.Raw {
			fmt.Fprintf(&b, "   raw %q %s bytes=%d omitted=%d\n", p.Label, p.File, len(p.JSON), p.Omitted)
		}
		for _, is := range r.Issues {
			fmt.Fprintf(&b, "   issue %s %s\n", is.Code, is)
		}
	}
	return b.String()
}

// Datasets renders every dataset as Dataset does, each followed by a
// blank line: one golden of all that a path opens.
func Datasets(t testing.TB, dss []*model.Dataset) string {
	t.Helper()
	var b strings.Builder
	for _, ds := range dss {
		b.WriteString(Dataset(t, ds))
		b.WriteString("\n")
	}
	return b.String()
}

// Check compares got with testdata/<test name>/<name>.golden, or
// rewrites the file when update is set.
func Check(t testing.TB, update bool, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", t.Name(), name+".golden")
	if update {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from %s (run with -update and read the diff)\n%s", name, p, got)
	}
}
