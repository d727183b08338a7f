package loaders

import (
	"reflect"
	"testing"

	"evalview/model"
	"evalview/model/compare"
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

// TestIDsPerTask: the formats whose record ids are numbered per task say
// so (Presentation.IDsPerTask), so that C does not pair two tasks' rows
// because they share numbers: two lm-eval tasks, lighteval's two tasks
// and two Inspect logs of one task pair as they should; run zips, which
// pair by prompt, do not claim it.
func TestIDsPerTask(t *testing.T) {
	for _, c := range []struct {
		paths []string
		per   bool
		pairs bool
	}{
		{[]string{"../testdata/lmeval/ifeval", "../testdata/lmeval/translation_bleu"}, true, false},
		// The details alone: their stored names are percent-encoded
		// (lighteval/fixtures_test.go), so that the output folder's
		// results file names other tasks, shown beside them.
		{[]string{"../testdata/lighteval/output/details"}, true, false},
		{[]string{"../testdata/inspect/capitals_zstd.eval", "../testdata/inspect/capitals.json"}, true, true},
		{[]string{"../testdata/run/valid", "../testdata/run/valid"}, false, true},
	} {
		dss, err := Open(c.paths, Options{})
		if err != nil || len(dss) != 2 {
			t.Fatalf("%v: %d datasets, %v", c.paths, len(dss), err)
		}
		for _, ds := range dss {
			if ds.Presentation.IDsPerTask != c.per {
				t.Errorf("%s %s: IDsPerTask %v, want %v", ds.Kind, ds.Path, ds.Presentation.IDsPerTask, c.per)
			}
		}
		if got := compare.Partner(dss, 0, -1) == 1; got != c.pairs {
			t.Errorf("%v (tasks %q, %q): pair %v, want %v", c.paths, dss[0].Task, dss[1].Task, got, c.pairs)
		}
	}
}
