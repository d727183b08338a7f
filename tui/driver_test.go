package tui

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"evalview/model"
)

// Test driver: runs the model without a program, executing the commands
// it returns (record loads, renders, searches) synchronously. Timer
// commands (the spinner, the index poll) are dropped: tests send the
// messages they need themselves.

// newTestModel opens datasets at w x h with colors off.
func newTestModel(t *testing.T, datasets []*model.Dataset, w, h int) *Model {
	t.Helper()
	t.Setenv("NO_COLOR", "1")
	m := New(datasets, Options{Theme: "dark"})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// send delivers msg and runs the commands that follow.
func send(m *Model, msg tea.Msg) {
	_, cmd := m.Update(msg)
	drive(m, cmd)
}

// press sends key presses: "j", "tab", "enter", "esc", "G", "ctrl+d"...
func press(m *Model, keys ...string) {
	for _, k := range keys {
		send(m, keyMsg(k))
	}
}

// typeText sends each rune of s as a key press.
func typeText(m *Model, s string) {
	for _, r := range s {
		send(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	special := map[string]tea.KeyPressMsg{
		"tab":        {Code: tea.KeyTab},
		"shift+tab":  {Code: tea.KeyTab, Mod: tea.ModShift},
		"enter":      {Code: tea.KeyEnter},
		"esc":        {Code: tea.KeyEscape},
		"up":         {Code: tea.KeyUp},
		"down":       {Code: tea.KeyDown},
		"left":       {Code: tea.KeyLeft},
		"right":      {Code: tea.KeyRight},
		"pgdown":     {Code: tea.KeyPgDown},
		"pgup":       {Code: tea.KeyPgUp},
		"backspace":  {Code: tea.KeyBackspace},
		"ctrl+d":     {Code: 'd', Mod: tea.ModCtrl},
		"ctrl+u":     {Code: 'u', Mod: tea.ModCtrl},
		"ctrl+c":     {Code: 'c', Mod: tea.ModCtrl},
		"ctrl+left":  {Code: tea.KeyLeft, Mod: tea.ModCtrl},
		"ctrl+right": {Code: tea.KeyRight, Mod: tea.ModCtrl},
	}
	if m, ok := special[k]; ok {
		return m
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// drive runs cmd and everything it leads to.
func drive(m *Model, cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0 && steps < 1000; steps++ {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg, ok := runQuick(c)
		if !ok || msg == nil {
			continue
		}
		switch msg := msg.(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// runQuick runs c unless it is a timer, giving up after a generous wait.
func runQuick(c tea.Cmd) (tea.Msg, bool) {
	if isTimer(c) {
		return nil, false
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- c() }()
	select {
	case msg := <-ch:
		return msg, true
	case <-time.After(5 * time.Second):
		return nil, false
	}
}

// isTimer recognizes the commands that sleep: spinner ticks and tea.Tick.
func isTimer(c tea.Cmd) bool {
	name := runtime.FuncForPC(reflect.ValueOf(c).Pointer()).Name()
	return strings.Contains(name, "bubbles/v2/spinner") || strings.Contains(name, "bubbletea/v2.Tick") ||
		strings.Contains(name, "tui/opening.(*State).Wait") // it sleeps, then waits for Open: tests take in with takeIn
}

// screen is the rendered screen without styles.
func screen(m *Model) string {
	return ansi.Strip(m.View().Content)
}

// checkFits fails when a line of the screen is wider than w or the screen
// has another number of lines than h.
func checkFits(t *testing.T, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		t.Errorf("screen has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d cells wide (> %d): %q", i+1, lw, w, l)
		}
	}
}

// cursorRow is the list row under the cursor, from 0.
func cursorRow(m *Model) int {
	pos, _ := m.list.Position()
	return pos - 1
}

// picked reports whether the user chose the list's columns (`c`).
func picked(m *Model) bool {
	_, p := m.list.Fields()
	return p
}

// shownFields are the fields the list shows.
func shownFields(m *Model) []string {
	f, _ := m.list.Fields()
	return f
}

// prompt is the open prompt, nil when none (or the search) is open.
func prompt(m *Model) *lineInput {
	if m.input == nil || m.input.search {
		return nil
	}
	return m.input
}
