// Package tui is evalview's terminal browser: a header with the dataset's
// facts and metrics, the record list, a tabbed detail of the selected
// record, a status bar and a help line, and sheets over the body. It
// renders model values only; it never parses files, reads records through
// model.Index in commands, and decides nothing by format: what differs is
// the dataset's Presentation and Scoring.
//
// The root Model holds what the rooms share (the datasets, the focus, the
// sheet stack, the open line) and routes messages to its rooms, each a
// package whose state it cannot reach: the header (tui/header), the list
// (tui/list), the detail (tui/detail) and the sheets (tui/sheets/...),
// all ui.Components sharing a *ui.Common. Rooms offer their keys as
// ui.Actions and report what the user chose with messages; after each
// message the root derives the rest (derive). Layout is one pure function
// (ComputeLayout). docs/architecture.md draws the whole picture.
package tui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/crash"
	"evalview/tui/opening"
	"evalview/tui/ui"
)

// Options configures the browser.
type Options struct {
	// Theme is "auto" (the default: dark or light from the terminal's
	// background), "dark" or "light".
	Theme string
	// Filter preselects an lm-eval filter by name ("" = the dataset's
	// first).
	Filter string
	// Threshold is the run zips' starting high-score threshold (the
	// site's high-score list: average weighted score at or above it);
	// 0 uses each run's scores_map pass_threshold, else 8.5.
	Threshold float64
	// Notes opens a dataset's error-analysis notes (`l`, `a`); nil turns
	// notes off. The browser calls it once per dataset, when first needed.
	Notes func(ds *model.Dataset) NoteStore
	// Export writes records rows of ds (in list order) to path, JSONL or
	// CSV by the path's extension, as `evalview export` does, and returns
	// how many it wrote; nil turns `w` off. filter is the list's lm-eval
	// filter; threshold, for a scored dataset (model.Scoring), the one
	// the list's statuses are read at (t, +, -), which the exported
	// statuses follow (nil for other datasets).
	Export func(path string, ds *model.Dataset, rows []int, filter int, threshold *float64) (int, error)
	// Reopen loads a dataset again from its files (`r`); nil turns reload
	// off.
	Reopen func(ds *model.Dataset) (*model.Dataset, error)
	// Follow starts in follow mode (`--follow`, ctrl+r): the current
	// dataset's file or folder is watched and reloaded as it grows.
	Follow bool
	// Stat is how follow mode looks at a path (nil: os.Stat). The command
	// gives the loaders' own, which reads a remote object's size and
	// version tag (an info whose Sys() is a fmt.Stringer gives the tag).
	Stat func(path string) (fs.FileInfo, error)
	// ReadDir is how follow mode lists a followed folder (nil: a walk of
	// the local folder); the command gives the loaders' own, which lists
	// a remote prefix (s3://, hf://).
	ReadDir func(path string) ([]fs.DirEntry, error)
	// Keys overrides key bindings by name ("tools.sort": ["s"]), from the
	// config file; unknown names are reported by ApplyKeyOverrides.
	Keys map[string][]string
	// Overview shows the overview of tasks by models first when more
	// than one dataset is open (the command sets it; T opens it anyway).
	Overview bool
	// Discovery is what the folders opened held (loaders.Options.Found):
	// the status bar says it (model.DiscoveryLine) until another dataset
	// is shown.
	Discovery []model.Discovery
	// Open, when set, opens the paths once the browser is on its way to
	// the screen, on a goroutine of its own (tui/opening): it hands
	// each dataset to o as it is opened, after those given to New, and
	// tells o what each folder held and each file it comes to. ctx ends
	// when the browser does; the browser does not wait for Open to
	// return. Its error is shown in the status bar; it ends the browser
	// (Run returns it) when nothing was opened, or when it is End's.
	Open func(ctx context.Context, o *Opening) error
	// FilterRequired ends the browser with UnknownFilter's error when no
	// dataset has the --filter name once every path is opened and every
	// index complete (the command's usage error); without it the status
	// bar says so.
	FilterRequired bool
	// State is the file the browser remembers its layout in between runs
	// (the list/detail split: StatePath); "" remembers nothing.
	State string
}

// Opening is what Options.Open tells the browser as it opens the paths
// (tui/opening): Add each dataset once it is opened, Found what each
// folder held, Reading each file it comes to.
type Opening = opening.Opening

// End marks an error of Options.Open that ends the browser, whatever was
// opened: Run returns err.
func End(err error) error { return opening.End(err) }

// UnknownFilter is the error of a --filter name no dataset has; names are
// the filters there are.
func UnknownFilter(name string, names []string) error {
	if len(names) == 0 {
		return fmt.Errorf("--filter %q: these datasets have no filters", name)
	}
	return fmt.Errorf("--filter %q: no such filter; the filters are %s", name, strings.Join(names, ", "))
}

// Run builds the program, runs it until the user quits, and restores the
// terminal. A panic anywhere in the browser ends it cleanly (alternate
// screen left, cursor shown) and Run returns an error naming the crash log
// it wrote to os.TempDir().
func Run(datasets []*model.Dataset, opts Options) (err error) {
	m := New(datasets, opts)
	m.opening.Start(m.opts.Open) // beside the program's start-up
	defer m.opening.Stop()
	// Bubble Tea writes frames on a ticker: at its default 60 per second
	// a frame waits up to 17 ms to reach the terminal; 120 (its most)
	// halves that. An unchanged view costs a comparison per tick. The
	// first frame does not wait: Init paints it (see prepaint).
	popts := append([]tea.ProgramOption{tea.WithFPS(120)}, signalOptions()...)
	if m.painter = newPainter(); m.painter != nil {
		popts = append(popts, tea.WithOutput(m.painter))
	}
	p := tea.NewProgram(m, popts...)
	m.program = p
	armTestPanic(p) // only when EVALVIEW_TEST_PANIC is set
	defer func() {
		// Last resort: a panic that escaped Bubble Tea's own recovery.
		if r := recover(); r != nil {
			crash.RestoreTerminal()
			err = crash.Error(&crash.Info{Value: r, Stack: debug.Stack()})
		}
	}()
	capture := crash.CaptureStderr() // for panics Bubble Tea recovers itself
	// SIGINT, SIGTERM, SIGHUP and SIGQUIT end the program cleanly, from
	// before Run (watchSignals).
	stopSignals := watchSignals(p, &m.external)
	_, runErr := p.Run()
	if runErr != nil && m.painter != nil && m.painter.painted {
		crash.RestoreTerminal() // Bubble Tea may have failed before it took the screen over
	}
	stopSignals()
	firstFrameDrawn() // when it never came
	printed := capture.Stop()
	m.deep.cancel() // a deep pass may still run in the background
	if m.crash != nil {
		return crash.Error(m.crash)
	}
	if m.opening.Ended() != nil && runErr == nil {
		return m.opening.Ended()
	}
	if errors.Is(runErr, tea.ErrProgramPanic) {
		if path, werr := crash.WriteLog(&crash.Info{Value: "recovered by Bubble Tea", Stack: []byte(printed)}, time.Now()); werr == nil {
			return fmt.Errorf("evalview crashed (the stack was printed above); the crash log is %s (please attach it to a bug report)", path)
		}
		return fmt.Errorf("the browser crashed (the stack was printed above): %w", runErr)
	}
	return runErr
}

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
