package ui

import (
	"runtime/debug"

	tea "charm.land/bubbletea/v2"
)

// CrashMsg reports a panic inside a command run through SafeCmd: the
// root quits cleanly and writes a crash log with its value and stack.
type CrashMsg struct {
	Value any
	Stack []byte
}

// SafeCmd runs cmd and turns a panic into a CrashMsg, so the browser can
// quit cleanly and write a crash log instead of leaving the terminal raw.
// Every room's background work runs through it.
func SafeCmd(cmd func() tea.Msg) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = CrashMsg{Value: r, Stack: debug.Stack()}
			}
		}()
		return cmd()
	}
}
