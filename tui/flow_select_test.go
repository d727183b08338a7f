package tui

import (
	"strconv"
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
	tm.Send(keyMsg("L"))
	waitFor("add labels to 2 selected records")
	tm.Type("extraction bug")
	tm.Send(keyMsg("enter"))
	waitFor("labelled 2 records")
	tm.Send(keyMsg("w"))
	waitFor("export 2 selected records to")
	tm.Send(keyMsg("enter"))
	waitFor("exported 2 records")
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(30*time.Second))
	for _, id := range []string{"3", "4"} {
		if l, _ := store.Get(id); strings.Join(l, "|") != "extraction bug" {
			t.Errorf("labels of %s: %v", id, l)
		}
	}
	if len(exported) != 2 {
		t.Errorf("exported %v, want the 2 wrong answers", exported)
	}
}

// TestFlowSixtyWrongAnswersFromTheOverview is issue 18's "done when" on
// a folder of several models, as a program at 80 columns: from the
// overview, x opens a task's wrong answers (64 of 80, more than a
// screen), * selects them all, l labels them, w exports them: six keys
// and the label's text, from "which answers are wrong" to 64 labelled
// and exported failure cases.
func TestFlowSixtyWrongAnswersFromTheOverview(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	right := strings.Repeat("+----", 16) // one in five right: 64 wrong
	var dss []*model.Dataset
	for _, m := range []ovModel{
		{"org/base-7b", "2025-06-01T10-00-00.000001", map[string]string{"arith": strings.Repeat("+", 80)}, nil},
		{"org/tuned-7b", "2025-06-02T10-00-00.000001", map[string]string{"arith": right}, nil},
	} {
		dss = append(dss, ovDataset(m, "arith"))
	}
	wrong := strings.Count(right, "-")
	store := newMemNotes()
	var exported []int
	m := New(dss, Options{Theme: "dark", Overview: true,
		Notes: func(*model.Dataset) NoteStore { return store },
		Export: func(path string, ds *model.Dataset, rows []int, filter int, _ *float64) (int, error) {
			exported = append([]int(nil), rows...)
			return len(rows), nil
		}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	waitFor := waiter(t, tm)
	waitFor("[tuned-7b]")
	tm.Send(keyMsg("x"))
	waitFor(strconv.Itoa(wrong) + " of 80")
	tm.Send(keyMsg("*"))
	waitFor(strconv.Itoa(wrong) + " selected")
	tm.Send(keyMsg("L"))
	waitFor("add labels to " + strconv.Itoa(wrong) + " selected records")
	tm.Type("off by one")
	tm.Send(keyMsg("enter"))
	waitFor("labelled " + strconv.Itoa(wrong) + " records")
	tm.Send(keyMsg("w"))
	waitFor("export " + strconv.Itoa(wrong) + " selected records to")
	tm.Send(keyMsg("enter"))
	waitFor("exported " + strconv.Itoa(wrong) + " records")
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(30*time.Second))
	labelled := 0
	for i, c := range right {
		l, _ := store.Get(strconv.Itoa(i))
		if got := strings.Join(l, "|"); (c == '-') != (got == "off by one") {
			t.Errorf("record %d (%c) labelled %q", i, c, got)
		}
		if len(l) > 0 {
			labelled++
		}
	}
	if len(exported) != wrong || labelled != wrong || wrong < 60 {
		t.Errorf("%d exported, %d labelled, want the %d wrong answers", len(exported), labelled, wrong)
	}
}
