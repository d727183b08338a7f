package tui

import (
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/tui/ui"
)

// testPanicEnv names the environment variable that makes the browser panic
// on purpose a moment after it starts, so that crash handling can be
// checked end to end with the real binary in a real terminal:
//
//   - "update": inside Update (the model's own recovery);
//   - "command": inside a command wrapped by safeCmd;
//   - "tea": inside a bare command, left to Bubble Tea's recovery.
//
// It exists for tests only; nothing happens when it is unset.
const testPanicEnv = "EVALVIEW_TEST_PANIC"

// testPanicMsg panics where it is told to once it is applied in Update.
type testPanicMsg struct{ where string }

func (t testPanicMsg) applyTo(*Model) tea.Cmd {
	switch t.where {
	case "command":
		return ui.SafeCmd(func() tea.Msg { panic(testPanicEnv + " in a command") })
	case "tea":
		return func() tea.Msg { panic(testPanicEnv + " outside the browser's recovery") }
	}
	panic(testPanicEnv + " in Update")
}

// armTestPanic sends the panic message once the first screen is up, when
// testPanicEnv asks for it.
func armTestPanic(p *tea.Program) {
	where := os.Getenv(testPanicEnv)
	if where == "" {
		return
	}
	go func() {
		time.Sleep(time.Second)
		p.Send(testPanicMsg{where})
	}()
}
