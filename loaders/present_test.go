package loaders

import (
	"reflect"
	"testing"

	"evalview/model"
)

// TestNewFormatsPresented: the formats whose loaders leave the
// presentation zero get their own from the registry, by Open and Each
// alike: lighteval's list shows the gold answer and starts raw, Inspect's
// epochs are scored (not "weighted"), and plain JSON Lines list their
// common short fields instead of an empty score column.
func TestNewFormatsPresented(t *testing.T) {
	check := func(name string, ds *model.Dataset) {
		t.Helper()
		p := ds.Presentation
		switch ds.Kind {
		case model.KindLighteval:
			if !reflect.DeepEqual(p.Columns, []string{"id", "title", "target", "score"}) || !p.RawText || !p.CompareByFlips {
				t.Errorf("%s %s: %+v", name, ds.Path, p)
			}
		case model.KindInspect:
			if p.AttemptScore != "score" || p.QueryHint == "" {
				t.Errorf("%s %s: %+v", name, ds.Path, p)
			}
		case model.KindJSONL:
			// model_output, multi-line on q2, is no default column: it
			// would show q2 with no value (q1's and q3's are short).
			if want := []string{"id", "title", "lang", "labels.answer", "correct"}; !reflect.DeepEqual(p.Columns, want) || !p.FieldLabels {
				t.Errorf("%s %s: columns %v, want %v", name, ds.Path, p.Columns, want)
			}
		}
	}
	paths := []string{"../testdata/lighteval/output", "../testdata/inspect/capitals.json", "../testdata/jsonl/quiz_log.jsonl"}
	seen := map[model.Kind]bool{}
	dss, err := Open(paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range dss {
		seen[ds.Kind] = true
		check("Open", ds)
	}
	if err := Each(paths, Options{}, func(ds *model.Dataset) error { check("Each", ds); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 {
		t.Errorf("kinds opened: %v", seen)
	}
}
