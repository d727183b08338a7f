//go:build unix

package tui

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// signalOptions turns Bubble Tea's own watch of SIGINT and SIGTERM off:
// watchSignals does it, from before Run. Bubble Tea starts its watch on a
// goroutine of its own, which may not have run yet when the browser
// paints its first frame (Init, a millisecond into Run): a SIGTERM then
// took its default action and killed the process with the terminal raw
// and the alternate screen on.
func signalOptions() []tea.ProgramOption {
	return []tea.ProgramOption{tea.WithoutSignalHandler()}
}

// watchSignals ends p as Bubble Tea would on SIGINT (an interrupt) and
// SIGTERM (quit), and on the signals Bubble Tea leaves at their default,
// which kill the process with the terminal as it was: SIGHUP (an SSH
// connection that drops, a terminal window closed, tmux's kill-session)
// and SIGQUIT; each then restores the terminal (raw mode off, alternate
// screen left, mouse reporting off, cursor shown). While external is set
// (a pager or editor has the terminal) signals are the program's, and are
// ignored here, as Bubble Tea ignores them. The watch is in place when
// watchSignals returns; it returns the function that stops it.
func watchSignals(p *tea.Program, external *atomic.Bool) func() {
	sigs := []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT}
	if !signal.Ignored(syscall.SIGHUP) {
		// Under nohup a hangup must stay ignored: Notify would undo it.
		sigs = append(sigs, syscall.SIGHUP)
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-ch:
				if external.Load() {
					continue
				}
				if s == syscall.SIGINT {
					p.Send(tea.InterruptMsg{})
				} else {
					p.Quit()
				}
				return
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
