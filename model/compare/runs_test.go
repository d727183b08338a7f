package compare

import (
	"math"
	"reflect"
	"testing"

	"evalview/model"
)

// runDataset builds a run-zip-like dataset: ids, titles and scores (NaN:
// unscored), pass from 8.5 up.
func runDataset(source string, ids, titles []string, scores []float64) *model.Dataset {
	var recs []*model.Record
	for i, id := range ids {
		s := model.Summary{ID: id, Title: titles[i]}
		if !math.IsNaN(scores[i]) {
			s.Score, s.HasScore = scores[i], true
			s.Status = model.StatusFail
			if scores[i] >= 8.5 {
				s.Status = model.StatusPass
			}
		}
		recs = append(recs, &model.Record{Summary: s})
	}
	ds := &model.Dataset{Kind: model.KindRun, Records: model.NewMemIndex(recs)}
	if source != "" {
		ds.Facts = []model.Fact{{Key: "source file", Value: source}}
	}
	return ds
}

func TestRunsLMEval(t *testing.T) {
	a := lmDataset([]string{"x"}, []string{"p", "p", "f", "f", "p"}, nil) // ids 0..4
	b := lmDataset([]string{"x"}, []string{"f", "p", "p", "f"}, nil)      // ids 0..3
	tab, pairs := Runs(a, b, 0, 0)
	if want := (Table{Both: 1, OnlyA: 1, OnlyB: 1, Neither: 1, Missing: 1}); tab != want {
		t.Errorf("table %+v, want %+v", tab, want)
	}
	var keys []string
	for _, p := range pairs {
		keys = append(keys, p.Key)
	}
	// |Delta| 1 first (0: 1->0, 2: 0->1), then the rest by id.
	if want := []string{"0", "2", "1", "3", "4"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("order %v, want %v", keys, want)
	}
	if p := pairs[0]; p.A != 0 || p.B != 0 || p.Delta != -1 || p.Cell != OnlyA || !p.HasA || !p.HasB {
		t.Errorf("pair 0: %+v", p)
	}
	if p := pairs[4]; p.A != 4 || p.B != -1 || p.Cell != Missing || p.HasB || p.Delta != 0 {
		t.Errorf("unpaired: %+v", p)
	}
	flips := Flips(pairs)
	if len(flips) != 2 || flips[0].Key != "0" || flips[1].Key != "2" || flips[1].Cell != OnlyB {
		t.Errorf("flips %+v", flips)
	}
}

func TestRunsRunZips(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name     string
		a, b     *model.Dataset
		wantKeys []string
		want     Table
	}{
		{"same source: by sample_index",
			runDataset("src.jsonl", []string{"1", "2", "3"}, []string{"t1", "t2", "t3"}, []float64{9, 5, nan}),
			runDataset("src.jsonl", []string{"3", "2", "1"}, []string{"x3", "x2", "x1"}, []float64{9, 9, 4}),
			[]string{"src.jsonl#1", "src.jsonl#2", "src.jsonl#3"}, Table{OnlyA: 1, OnlyB: 1, Missing: 1}},
		{"different sources: by rendering name",
			runDataset("a.jsonl", []string{"1", "2"}, []string{"alpha", "beta"}, []float64{9, 5}),
			runDataset("b.jsonl", []string{"7", "8"}, []string{"beta", "alpha"}, []float64{5, 9}),
			[]string{"alpha", "beta"}, Table{Both: 1, Neither: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tab, pairs := Runs(c.a, c.b, -1, -1)
			if tab != c.want {
				t.Errorf("table %+v, want %+v", tab, c.want)
			}
			var keys []string
			for _, p := range pairs {
				keys = append(keys, p.Key)
			}
			// Order: |Delta| desc, then key; check as a set plus the lead.
			if len(keys) != len(c.wantKeys) {
				t.Fatalf("keys %v, want %v", keys, c.wantKeys)
			}
			seen := map[string]bool{}
			for _, k := range keys {
				seen[k] = true
			}
			for _, k := range c.wantKeys {
				if !seen[k] {
					t.Errorf("key %q missing from %v", k, keys)
				}
			}
		})
	}
	// Same source: 1 goes 9 -> 4 (delta -5), 2 goes 5 -> 9 (+4).
	_, pairs := Runs(cases[0].a, cases[0].b, -1, -1)
	if pairs[0].Key != "src.jsonl#1" || pairs[0].Delta != -5 || pairs[1].Delta != 4 || pairs[0].B != 2 {
		t.Errorf("pairs %+v", pairs)
	}
}

func TestRunsDuplicateKeys(t *testing.T) {
	a := lmDataset([]string{"x"}, []string{"p"}, nil)
	b := lmDataset([]string{"x"}, []string{"p", "f"}, nil)
	b.Records.(*model.MemIndex).Recs[1].ID = "0" // a second doc 0 in run B
	_, pairs := Runs(a, b, 0, 0)
	if len(pairs) != 2 || pairs[0].B != 0 || pairs[1].A != -1 || pairs[1].B != 1 {
		t.Errorf("pairs %+v", pairs)
	}
}

// TestPartnerSameTask: formats whose record ids are numbered per task
// (lm-eval docs, lighteval rows, Inspect samples) pair only datasets of
// the same task: arc_challenge's row 0 is not gsm8k's row 0. Run zips of
// other prompts still pair, by prompt.
func TestPartnerSameTask(t *testing.T) {
	ds := func(k model.Kind, task string) *model.Dataset {
		// As the loaders describe them (lmeval, lighteval and inspect's
		// Presentation).
		return &model.Dataset{Kind: k, Task: task, Records: model.NewMemIndex(nil),
			Presentation: model.Presentation{IDsPerTask: k != model.KindRun}}
	}
	for _, k := range []model.Kind{model.KindLMEval, model.KindLighteval, model.KindInspect} {
		dss := []*model.Dataset{ds(k, "arc_challenge"), ds(k, "gsm8k")}
		if p := Partner(dss, 0, -1); p != -1 {
			t.Errorf("%s: arc_challenge pairs with dataset %d (gsm8k)", k, p)
		}
		dss = append(dss, ds(k, "arc_challenge"))
		if p := Partner(dss, 0, -1); p != 2 {
			t.Errorf("%s: arc_challenge pairs with %d, want the other arc_challenge (2)", k, p)
		}
	}
	runs := []*model.Dataset{ds(model.KindRun, "run-a"), ds(model.KindRun, "run-b")}
	if p := Partner(runs, 0, -1); p != 1 {
		t.Errorf("two runs: partner %d, want 1", p)
	}
}
