package tui

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/ui"
)

// The deep pass (Dataset.Deep: lm-eval's filter pipelines re-applied to
// every repeat) runs in the background once a dataset's index is complete,
// one dataset at a time (the current one first) so it never takes more
// than its share of a small machine. Its report feeds the comparison
// sheet; the status bar shows its progress.

// deepPoll is how often the status bar's progress is redrawn.
const deepPoll = 200 * time.Millisecond

// deepRun is one dataset's deep pass: running, finished or failed.
type deepRun struct {
	done, total atomic.Int64
	finished    bool
	report      *model.DeepReport
	err         error
	// cancel stops the pass (its dataset was reloaded) and frees its
	// context once it is over.
	cancel context.CancelFunc
}

// deepState is the browser's deep passes, per dataset. The zero value is
// ready to use.
type deepState struct {
	runs map[*model.Dataset]*deepRun
	ctx  context.Context
	stop context.CancelFunc
	// gate pauses the passes while the user waits on a search or a
	// record (model.Pause): on two cores they would halve its speed.
	gate    *model.Gate
	running bool
	ticking bool
}

// deepDoneMsg reports a finished deep pass.
type deepDoneMsg struct {
	ds     *model.Dataset
	report *model.DeepReport
	err    error
}

// deepTickMsg redraws the progress while a pass runs.
type deepTickMsg struct{}

// start starts the next pending deep pass: the current dataset's (cur
// of datasets), else, once every index is complete (growing is false),
// the first other dataset's. It does nothing while a pass runs (done
// starts the next). Other datasets wait for the indexes: a folder of 600
// samples files is read for the overview, and their passes would take
// half the cores from it.
func (d *deepState) start(datasets []*model.Dataset, cur int, growing bool) tea.Cmd {
	if d.running || len(datasets) == 0 {
		return nil
	}
	if d.runs == nil {
		d.runs = map[*model.Dataset]*deepRun{}
		d.ctx, d.stop = context.WithCancel(model.WithGate(context.Background(), d.foreground()))
	}
	order := append([]*model.Dataset{datasets[cur]}, datasets...)
	if growing {
		order = order[:1]
	}
	for _, ds := range order {
		if ds.Deep == nil || d.runs[ds] != nil || !ds.Records.Done() {
			continue
		}
		run := &deepRun{}
		d.runs[ds], d.running = run, true
		ctx, cancel := context.WithCancel(d.ctx)
		run.cancel = cancel
		deep := ds.Deep
		work := ui.SafeCmd(func() tea.Msg {
			rep, err := deep(ctx, func(done, total int) {
				run.done.Store(int64(done))
				run.total.Store(int64(total))
			})
			return deepDoneMsg{ds: ds, report: rep, err: err}
		})
		return tea.Batch(work, d.tick())
	}
	return nil
}

// tick schedules the next progress redraw, once.
func (d *deepState) tick() tea.Cmd {
	if d.ticking {
		return nil
	}
	d.ticking = true
	return tea.Tick(deepPoll, func(time.Time) tea.Msg { return deepTickMsg{} })
}

// handleTick keeps redrawing while a pass runs.
func (d *deepState) handleTick() tea.Cmd {
	d.ticking = false
	if !d.running {
		return nil
	}
	return d.tick()
}

// done keeps a pass's report; it reports whether the next pass is to
// start (the browser is not quitting).
func (d *deepState) done(msg deepDoneMsg) (next bool) {
	d.running = false
	if run := d.runs[msg.ds]; run != nil {
		run.finished, run.report, run.err = true, msg.report, msg.err
		run.cancel()
	}
	return d.ctx == nil || d.ctx.Err() == nil
}

// report returns ds's finished deep report, nil while it is pending,
// running, failed or when ds has no deep pass.
func (d *deepState) report(ds *model.Dataset) *model.DeepReport {
	if run := d.runs[ds]; run != nil && run.finished && run.err == nil {
		return run.report
	}
	return nil
}

// status is a note on ds's pass: "re-extracting 45%" while it runs, why
// it failed after, else "".
func (d *deepState) status(ds *model.Dataset) string {
	run := d.runs[ds]
	switch {
	case run == nil:
		return ""
	case run.finished && run.err != nil && run.err != context.Canceled:
		return "re-extraction failed: " + run.err.Error()
	case run.finished:
		return ""
	}
	pct := 0
	if t := run.total.Load(); t > 0 {
		pct = int(run.done.Load() * 100 / t)
	}
	return "re-extracting " + strconv.Itoa(pct) + "%"
}

// drop forgets ds's deep pass, cancelling it if it runs: ds was
// replaced by a reload. Its done message still comes, for no run, and
// starts the next pass.
func (d *deepState) drop(ds *model.Dataset) {
	if run := d.runs[ds]; run != nil {
		run.cancel()
		delete(d.runs, ds)
	}
}

// cancel cancels the running pass (the browser is quitting).
func (d *deepState) cancel() {
	if d.stop != nil {
		d.stop()
	}
}

// foreground returns the gate the deep passes pause at.
func (d *deepState) foreground() *model.Gate {
	if d.gate == nil {
		d.gate = model.NewGate()
	}
	return d.gate
}

// holding runs cmd with the deep passes paused (the user waits on it).
func holding(g *model.Gate, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		release := g.Hold()
		defer release()
		return cmd()
	}
}
