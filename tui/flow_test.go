package tui

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestFlow runs the browser as a program: open, move down, switch tab,
// show only wrong answers, search, quit.
func TestFlow(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	tm := teatest.NewTestModel(t, New(allFixtures(), Options{Theme: "dark"}), teatest.WithInitialTermSize(100, 30))
	waitFor := waiter(t, tm)
	waitFor("gsm8k")
	tm.Send(keyMsg("j"))   // move down to doc 1
	tm.Send(keyMsg("tab")) // into the detail
	tm.Send(keyMsg("3"))   // Filters tab
	waitFor("Target: 3")
	tm.Send(keyMsg("tab")) // back to the list
	tm.Send(keyMsg("x"))   // wrong answers only: docs 3 and 4
	waitFor("wrong only")
	tm.Send(keyMsg("/"))
	tm.Type("payload")
	tm.Send(keyMsg("enter"))
	waitFor("1/1 in list")
	tm.Send(keyMsg("q"))

	fm, ok := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(*Model)
	if !ok {
		t.Fatal("final model is not a *Model")
	}
	if i, _ := fm.list.Selected(); i != 4 || !fm.list.WrongOnly() || fm.list.Query() != "payload" {
		t.Errorf("final state: record %d wrong-only %v query %q", i, fm.list.WrongOnly(), fm.list.Query())
	}
	if fm.detail.Record() == nil || fm.detail.Record().ID != "4" || fm.detail.TabName() != "Filters" {
		t.Errorf("detail shows %v on %q, want doc 4 on Filters", fm.detail.Record(), fm.detail.TabName())
	}
	s := screen(fm)
	for _, want := range []string{"2/2 of 6", "wrong only", "/payload 1/1 in list", "[3 Filters]", "Target: 42", "41"} {
		if !strings.Contains(s, want) {
			t.Errorf("final screen lacks %q:\n%s", want, s)
		}
	}
	out, _ := io.ReadAll(tm.FinalOutput(t))
	if bytes.Contains(out, []byte("\x1b]2;pwned")) {
		t.Error("a window-title payload reached the terminal")
	}
}

// TestFlowSheetsReportUpward runs sheets in a program, where what a sheet
// chooses reaches the root as a message, after the key: the facets sheet
// sets the list's query, `?` opens over a sheet and closes back to it,
// and the slices sheet pins the list.
func TestFlowSheetsReportUpward(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	tm := teatest.NewTestModel(t, New(allFixtures(), Options{Theme: "dark"}), teatest.WithInitialTermSize(100, 30))
	waitFor := waiter(t, tm)
	waitFor("gsm8k")
	tm.Send(keyMsg("F"))
	waitFor("Facets of 6 records")
	tm.Send(keyMsg("?"))
	waitFor("(? or esc closes")
	tm.Send(keyMsg("esc"))
	waitFor("Facets of 6 records")
	tm.Send(keyMsg("j")) // fail
	tm.Send(keyMsg("enter"))
	waitFor(":status=fail")
	tm.Send(keyMsg("V"))
	waitFor("Slices")
	tm.Send(keyMsg("enter"))
	waitFor("pinned:")
	tm.Send(keyMsg("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(*Model)
	if fm.sheets.top() != nil || fm.list.Where() != "status=fail" || !fm.list.Pinned() {
		t.Errorf("final state: sheet %v, query %q, pin %v", fm.sheets.top(), fm.list.Where(), fm.list.Pinned())
	}
}

// waiter returns a function that waits until the program's screen shows
// a text.
func waiter(t *testing.T, tm *teatest.TestModel) func(what string) {
	return func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			return bytes.Contains([]byte(ansi.Strip(string(b))), []byte(what))
		}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
}
