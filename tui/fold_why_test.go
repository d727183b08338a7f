package tui

import (
	"strings"
	"testing"

	"evalview/model"
)

// z on a prompt where no few-shot examples were told apart, and u where
// the question is already the first turn, say why they do nothing in the
// status bar instead of nothing at all.
func TestFoldKeysSayWhy(t *testing.T) {
	rec := &model.Record{Messages: []model.Message{model.TextMessage(model.RoleUser, "Question: 1+1?\nAnswer: 2\nQuestion: 2+2?\nAnswer:", "prompt")}}
	rec.ID, rec.Title = "0", "Question: 2+2?"
	ds := &model.Dataset{Kind: model.KindJSONL, Title: "plain", Records: &model.MemIndex{Recs: []*model.Record{rec}},
		Facts: []model.Fact{{Key: "n-shot", Value: "1"}}}
	m := newTestModel(t, []*model.Dataset{ds}, 120, 30)
	press(m, "tab") // detail, Prompt tab
	if m.detail.CanFold() {
		t.Fatalf("tab %s: something to fold", m.detail.TabName())
	}
	press(m, "z")
	if s := screen(m); !strings.Contains(s, "z: 1-shot, but the examples are not told from the question") {
		t.Errorf("z said nothing:\n%s", s)
	}
	press(m, "u")
	if s := screen(m); !strings.Contains(s, "u: the question is the first turn shown") && !strings.Contains(s, "u: no user turn") {
		t.Errorf("u said nothing:\n%s", s)
	}
}
