package compare

import (
	"reflect"
	"testing"

	"evalview/model"
)

// runOf is an lm-eval-like dataset of one task whose docs pass where
// verdicts says "+", fail on "-", and are unscored on ".".
func runOf(verdicts string) *model.Dataset {
	var recs []*model.Record
	for i, v := range verdicts {
		s := model.Summary{ID: string(rune('0' + i)), Title: "q" + string(rune('0'+i))}
		switch v {
		case '+':
			s.Status = model.StatusPass
		case '-':
			s.Status = model.StatusFail
		}
		recs = append(recs, &model.Record{Summary: s})
	}
	return &model.Dataset{Kind: model.KindLMEval, Task: "t", Records: model.NewMemIndex(recs)}
}

func TestMany(t *testing.T) {
	dss := []*model.Dataset{runOf("++-."), runOf("+--+"), runOf("+-+-+")}
	tab := Many(dss, nil)
	var glyphs []string
	for _, d := range tab.Docs {
		g := ""
		for _, v := range d.Verdicts {
			g += map[Verdict]string{NoVerdict: ".", Right: "+", Wrong: "-"}[v]
		}
		glyphs = append(glyphs, g)
	}
	if want := []string{"+++", "+--", "--+", ".+-", "..+"}; !reflect.DeepEqual(glyphs, want) {
		t.Errorf("verdicts %v, want %v", glyphs, want)
	}
	if tab.Docs[4].Recs[0] != -1 || tab.Docs[4].Recs[2] != 4 {
		t.Errorf("doc only in run 3: %+v", tab.Docs[4])
	}
	flips := []int{tab.Docs[0].Flips, tab.Docs[1].Flips, tab.Docs[2].Flips, tab.Docs[3].Flips}
	if want := []int{0, 1, 1, 1}; !reflect.DeepEqual(flips, want) {
		t.Errorf("flips per doc %v", flips)
	}
	if !reflect.DeepEqual(tab.Flips, []int{1, 2}) {
		t.Errorf("flips between neighbours %v", tab.Flips)
	}
	if !reflect.DeepEqual(tab.Right, []int{2, 2, 3}) || !reflect.DeepEqual(tab.Scored, []int{3, 4, 5}) {
		t.Errorf("right %v scored %v", tab.Right, tab.Scored)
	}
	// Runs 1 and 3 both judge docs 0..2: they agree on doc 0 only.
	if tab.Placed[0][2] != 3 || tab.Agree[0][2] != 1 || tab.Agree[2][0] != 1 {
		t.Errorf("agreement 1-3: %d of %d", tab.Agree[0][2], tab.Placed[0][2])
	}
	if tab.Agree[1][1] != 4 || tab.Placed[1][1] != 4 {
		t.Errorf("a run agrees with itself on its scored docs: %d/%d", tab.Agree[1][1], tab.Placed[1][1])
	}
}
