//go:build !unix

package tui

import (
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
)

// signalOptions: Bubble Tea handles the interrupt here.
func signalOptions() []tea.ProgramOption { return nil }

// watchSignals: there is no SIGHUP or SIGQUIT to watch here.
func watchSignals(*tea.Program, *atomic.Bool) func() { return func() {} }
