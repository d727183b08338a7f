package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"evalview/model"
)

// TestFlowLabelAndExportTheWrongAnswers runs the error analysis the help
// line leads to, as a program at 80 columns: wrong answers only (x),
// select them all (*), label them (l), export them (w): six keys and the
// label's text, whatever the number of wrong answers.
func TestFlowLabelAndExportTheWrongAnswers(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	store := newMemNotes()
	var exported []int
	m := New([]*model.Dataset{lmevalFixture()}, Options{Theme: "dark",
		Notes: func(*model.Dataset) NoteStore { return store },
		Export: func(path string, ds *model.Dataset, rows []int, filter int, _ *float64) (int, error) {
			exported = append([]int(nil), rows...)
			return len(rows), nil
		}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	waitFor := waiter(t, tm)
	waitFor("v filters")
	tm.Send(keyMsg("x"))
	waitFor("2 of 6")
	tm.Send(keyMsg("*"))
	waitFor("2 selected")
	tm.Send(keyMsg("l"))
	waitFor("add labels to 2 selected records")
	tm.Type("extraction bug")
	tm.Send(keyMsg("enter"))
	waitFor("labelled 2 records")
	tm.Send(keyMsg("w"))
	waitFor("export 2 selected records to")
	tm.Send(keyMsg("enter"))
	waitFor("exported 2 records")
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	for _, id := range []string{"3", "4"} {
		if l, _ := store.Get(id); strings.Join(l, "|") != "extraction bug" {
			t.Errorf("labels of %s: %v", id, l)
		}
	}
	if len(exported) != 2 {
		t.Errorf("exported %v, want the 2 wrong answers", exported)
	}
}
