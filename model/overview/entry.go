// Package overview lines datasets up as a sheet of tasks by models: one
// row per task (groups as parents of their subtasks, with the group's
// aggregate), one column per model or run, each cell the task's main
// figure as the writer reports it, beside the value recomputed from the
// samples. The browser's overview sheet and `summary --format` read it.
//
// It is pure: Entry keeps what it needs of one dataset (a few figures,
// so that a command can hold one per file of a folder of 100,000), Build
// lines the entries up, and View (view.go) sorts, filters and folds the
// rows for display.
package overview

import (
	"strconv"

	"evalview/model"
	"evalview/model/runstats"
)

// Figure is one metric of one task of one dataset.
type Figure struct {
	Name, Filter string
	// Value is the writer's reported value when there is one (Reported
	// set), else the value evalview computed (from the samples, the
	// writer's way, or as Note says).
	Value    float64
	HasValue bool
	Reported bool
	// Recomputed is the value recomputed from the samples, beside a
	// reported one; Differs when the two disagree beyond rounding.
	Recomputed    float64
	HasRecomputed bool
	Differs       bool
	Stderr        float64
	HasStderr     bool
	// N counts the rows (or subtasks, for a group) the recomputed value
	// rests on.
	N int
	// LowerIsBetter is set for metrics where less is better (perplexity),
	// as the writer says, else as the harness's metric registry does.
	LowerIsBetter bool
	// Note says what the value rests on, or why there is none.
	Note string
	// Site is a scored dataset's mean as the site computes it (runstats:
	// each sample's average, their mean rounded half up), whatever Value
	// shows: a scores_map's global mean is rounded half to even from
	// other per-sample figures, so two runs' delta compares their Site
	// means when only one of them reports (Table.Delta).
	Site    float64
	HasSite bool
}

// Key names the figure's metric as the harness does: "acc,none".
func (f Figure) Key() string {
	if f.Filter == "" {
		return f.Name
	}
	return f.Name + "," + f.Filter
}

// Task is one task of one dataset.
type Task struct {
	Name string
	// Group marks a group's own aggregate reported as a task (a results
	// file alone).
	Group bool
	// Groups are the groups the task sits under, outermost first.
	Groups []string
	// Record is the record that shows the task in its dataset; -1 for
	// the dataset as a whole (its list).
	Record int
	// Figures are the task's metrics, the main one first.
	Figures []Figure
	// Config are the task's own settings in its run (n-shot:
	// model.Origin.TaskConfig), which tell columns apart only where a
	// model ran the task with different values.
	Config []model.Fact
}

// Entry is what the overview keeps of one dataset.
type Entry struct {
	// Dataset is the caller's index of the dataset.
	Dataset int
	// Kind, Model, Run and Note are the dataset's (model.OriginOf).
	Kind       model.Kind
	Model, Run string
	Note       string
	Path       string
	// Config are the run's settings that tell configurations of its
	// model apart (model.Origin.Config).
	Config []model.Fact
	// Records counts the dataset's records.
	Records int
	Tasks   []Task
	// Groups are the group aggregates the dataset carries (lm-eval).
	Groups []model.GroupComparison
	// Pending is set while the dataset's index still grows: the figures
	// recomputed from its samples are still to come.
	Pending bool
}

// EntryOf keeps what the overview shows of ds, the caller's dataset i:
// comps are its metrics recomputed beside the reported ones
// (model.RecomputeMetrics), or only the reported ones while its index
// grows. It reads every summary once for a dataset without metrics of
// its own (a run's mean score, a Sample file's scores).
func EntryOf(i int, ds *model.Dataset, comps []model.MetricComparison) Entry {
	o := model.OriginOf(ds)
	e := Entry{
		Dataset: i, Kind: ds.Kind, Model: o.Model, Run: o.Run, Note: o.Note, Path: ds.Path, Config: o.Config,
		Records: ds.Records.Len(), Groups: ds.Groups, Pending: !ds.Records.Done(),
	}
	if len(ds.Tasks) > 0 {
		for _, t := range ds.Tasks {
			e.Tasks = append(e.Tasks, Task{Name: t.Task, Group: t.Group, Groups: t.Groups, Record: t.Record,
				Figures: reportedFigures(t.Metrics), Config: t.Config})
		}
		return e
	}
	t := Task{Name: o.Task, Groups: o.Groups, Record: -1, Config: o.TaskConfig}
	if !e.Pending || len(comps) > 0 {
		t.Figures = figuresOf(ds, comps, e.Pending)
	}
	e.Tasks = []Task{t}
	return e
}

// reportedFigures are a results file's metrics of one task, as reported.
func reportedFigures(ms []model.Metric) []Figure {
	out := make([]Figure, 0, len(ms))
	for _, m := range ms {
		out = append(out, Figure{
			Name: m.Name, Filter: m.Filter, Value: m.Value, HasValue: true, Reported: true,
			Stderr: m.Stderr, HasStderr: m.HasStderr, LowerIsBetter: model.LowerIsBetter(m.Name, m.HigherIsBetter),
		})
	}
	return out
}

// figuresOf are a dataset's figures, its main metric first: the
// reported metrics beside the recomputed ones (a scored run's mean score
// the way the site computes it leads), else the mean of the records'
// scores or their pass rate, which evalview computes and says so.
func figuresOf(ds *model.Dataset, comps []model.MetricComparison, pending bool) []Figure {
	higher := map[string]*bool{}
	for _, m := range ds.Metrics {
		higher[m.Name] = m.HigherIsBetter
	}
	var out []Figure
	for _, c := range model.MainFirst(comps, ds.MainMetric) {
		f := Figure{
			Name: c.Name, Filter: c.Filter, Stderr: c.Stderr, HasStderr: c.HasStderr, N: c.N,
			Differs: c.Differs(), Note: c.Note, LowerIsBetter: model.LowerIsBetter(c.Name, higher[c.Name]),
		}
		switch {
		case c.HasReport:
			f.Value, f.HasValue, f.Reported = c.Reported, true, true
		case c.HasSamples:
			f.Value, f.HasValue = c.Samples, true
			if f.Note == "" {
				f.Note = "recomputed from " + strconv.Itoa(c.N) + " rows (" + c.Aggregation + "): the writer reports none"
			}
		}
		if c.HasSamples {
			f.Recomputed, f.HasRecomputed = c.Samples, true
		}
		out = append(out, f)
	}
	if ds.Scoring != nil && !pending {
		out = scoredFigure(ds, out)
	}
	if len(out) == 0 && !pending {
		if f, ok := recordFigure(ds); ok {
			out = append(out, f)
		}
	}
	return out
}

// scoredFigure is a scored dataset's figure: its mean score, the one its
// writer reports under the main metric (a scores_map's global mean)
// beside the one the loader recomputed the writer's way
// (Dataset.Recomputed, as `summary` compares them), else the mean of the
// scored samples as runstats computes it (the site's way). Its other
// metrics are a run's progress counters (total_categories...), no
// figure of the task: a run without a score has no figure.
func scoredFigure(ds *model.Dataset, figs []Figure) []Figure {
	st := runstats.Compute(ds, 0)
	for _, f := range figs {
		if f.Name != ds.MainMetric || !f.Reported {
			continue
		}
		if !f.HasRecomputed && st.HasMean {
			// Nothing recomputed the writer's way: the site's mean is
			// shown beside it, not compared (the two round apart).
			f.Recomputed, f.HasRecomputed, f.N = st.Mean, true, st.Scored
			f.Note = "the site's mean of the " + strconv.Itoa(st.Scored) + " scored samples is " + model.FormatFloat(st.Mean, 2) + ", rounded its own way"
		}
		f.Site, f.HasSite = st.Mean, st.HasMean
		return []Figure{f}
	}
	if !st.HasMean {
		return nil
	}
	name := ds.MainMetric
	if name == "" {
		name = "score"
	}
	return []Figure{{Name: name, Value: st.Mean, HasValue: true, N: st.Scored, Site: st.Mean, HasSite: true,
		Note: "mean of the " + strconv.Itoa(st.Scored) + " scored samples' averages, as the site computes it"}}
}

// recordFigure is the figure of a dataset that reports none: the mean
// of its records' scores, else the share of its scored records that
// pass; ok is false when no record is scored.
func recordFigure(ds *model.Dataset) (Figure, bool) {
	var sum float64
	scored, pass, judged := 0, 0, 0
	for i := 0; i < ds.Records.Len(); i++ {
		s := ds.Records.Summary(i)
		if s.HasScore {
			sum += s.Score
			scored++
		}
		switch s.Status {
		case model.StatusPass:
			pass++
			judged++
		case model.StatusFail:
			judged++
		}
	}
	switch {
	case scored > 0:
		name := ds.MainMetric
		if name == "" {
			name = "score"
		}
		return Figure{Name: name, Value: sum / float64(scored), HasValue: true, N: scored,
			Note: "mean of " + strconv.Itoa(scored) + " records' scores, computed by evalview: the file reports no aggregate"}, true
	case judged > 0:
		return Figure{Name: "pass rate", Value: float64(pass) / float64(judged), HasValue: true, N: judged,
			Note: strconv.Itoa(pass) + " of " + strconv.Itoa(judged) + " judged records pass, counted by evalview: the file reports no aggregate"}, true
	}
	return Figure{}, false
}

// RerunMark follows the value of a task its column ran more than once
// (the latest run's value is shown; Table.CellRuns lists them all).
const RerunMark = "↻"

// ValueText writes the cell's value as the overview shows it: four
// decimals (inf and nan as Python writes them), ± the stderr when
// stderr is set and there is one, then ≠ when the samples recompute
// another value, * when the cell shows another metric than its row's
// and ↻ when the column ran the task more than once; "…" while the
// figures are still to come, "N unscored" for a dataset of N records
// without any score (a testset's cases), "–" without one.
func (c Cell) ValueText(stderr bool) string {
	if !c.HasFigure {
		switch {
		case c.Pending:
			return "…"
		case c.Unscored > 0:
			return strconv.Itoa(c.Unscored) + " unscored"
		}
		return "–"
	}
	t := model.FormatFloat(c.Figure.Value, 4)
	if stderr && c.Figure.HasStderr {
		t += "±" + model.FormatFloat(c.Figure.Stderr, 4)
	}
	if c.Figure.Differs {
		t += "≠"
	}
	if c.Other {
		t += "*"
	}
	if len(c.Runs) > 1 {
		t += RerunMark
	}
	return t
}

// DeltaText writes a delta with its sign ("+0.0210", "−0.0310").
func DeltaText(d float64) string {
	switch {
	case d > 0:
		return "+" + model.FormatFloat(d, 4)
	case d < 0:
		return "−" + model.FormatFloat(-d, 4)
	}
	return model.FormatFloat(0, 4)
}
