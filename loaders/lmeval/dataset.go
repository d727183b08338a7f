package lmeval

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"evalview/loaders/source"
	"evalview/model"
)

// samplesDataset starts indexing one samples file in the background and
// returns its dataset, joined with its run's results file when there is
// one. Filters, the main metric and the dataset issues that need every row
// are filled in by SyncDataset: at once when the caller waits for the
// index, else when the browser polls it.
//
// With deep set, the index prepares the deep check as it goes
// (reextract_pre.go).
func samplesDataset(path string, r *results, deep bool) (*model.Dataset, error) {
	return samplesDatasetOf(path, r, nil, "", openMode{deep: deep})
}

// samplesDatasetOf is samplesDataset for a samples file whose run's
// results file, when r is nil, may be there but unreadable (broken), and
// whose task, when not "", its content told (pairByContent). In the
// background mode, the scan is deferred (deferScan): the caller starts
// it with startDeferred.
func samplesDatasetOf(path string, r *results, broken *brokenResults, task string, mode openMode) (*model.Dataset, error) {
	if task == "" {
		task = taskOf(path, r)
	}
	var reported []model.Metric
	if r != nil {
		reported = r.Metrics[task]
	}
	x := &index{task: task, res: r}
	rules, known := metricRules(r, task)
	start := startScan
	if mode.background {
		start = deferScan
	}
	_, err := start(path, reported, func(s *scanned) {
		x.s = s
		s.known = known
		s.inferred, s.inferWhy = configFilterNames(r, task)
		if r == nil && broken != nil {
			s.inferWhy = noResultsWhy(broken)
		}
		if mode.deep {
			s.prepare = x.preparer()
		}
	})
	if err != nil {
		return nil, err
	}
	ds := &model.Dataset{
		Kind: model.KindLMEval, Path: path, Task: task, Title: task,
		Records: x, MetricRules: rules,
	}
	ds.Presentation = Presentation()
	ds.Origin = origin(path, task, r)
	if r != nil {
		ds.Facts = r.taskFacts(task)
		ds.Metrics = r.Metrics[task]
		ds.Companions = []string{r.Path}
		ds.StatusBasis = statusBasis(r, task)
	} else if broken != nil {
		ds.Facts = []model.Fact{{Key: "task", Value: task}, {Key: "results file", Value: "cannot be read: " + filepath.Base(broken.path) + " (metrics, n-shot and sample counts unknown)"}}
	} else {
		ds.Facts = []model.Fact{{Key: "task", Value: task}, {Key: "results file", Value: "none found (metrics, n-shot and sample counts unknown)"}}
	}
	ds.Facts = append(ds.Facts, model.Fact{Key: "samples file", Value: path})
	attachDeep(ds)
	return ds, nil
}

// SyncDataset copies what the index learned into ds: the filters and main
// metric seen so far, and once the scan is over, the dataset issues that
// need every row (bad lines, count mismatches). It must be called by the
// goroutine that owns ds (the browser's, or the loader's before it returns
// the dataset). It reports whether ds changed.
func (x *index) SyncDataset(ds *model.Dataset) bool {
	changed, finished := x.syncLocked(ds)
	if finished {
		addMetricNotes(ds) // reads the index: after its lock is released
		ds.Issues = append(ds.Issues, x.metricDiffers(ds)...)
	}
	return changed
}

// metricDiffers warns of each reported metric the rows recompute to
// another value, when the rows are all the run's (no count mismatch, which
// is said already and explains any difference): the rows were edited, or
// the results file is another run's.
func (x *index) metricDiffers(ds *model.Dataset) []model.Issue {
	if x.res == nil {
		return nil
	}
	x.s.mu.RLock()
	docs := x.s.count()
	full := map[string]bool{}
	for fi, f := range x.s.filters {
		full[f] = x.s.rowsPerFilter[fi] == docs
	}
	x.s.mu.RUnlock()
	if n, ok := x.res.NSamples[x.task]; ok && n[1] != docs {
		return nil
	}
	var out []model.Issue
	for _, c := range model.RecomputeMetrics(ds) {
		if !c.Differs() || !full[c.Filter] {
			continue
		}
		out = append(out, model.Warnf("metric-differs", ds.Path, 0, "",
			"%s,%s: the results file reports %s, the %d rows give %s (%s): rows edited, or the results file of another run?",
			c.Name, c.Filter, numText(c.Reported), c.N, numText(c.Samples), c.Aggregation))
	}
	return out
}

// fieldNum writes a reported value in a record field: four decimals, or
// inf, -inf, nan (Go's own +Inf and NaN are not what people read).
func fieldNum(f float64) string { return model.FormatFloat(f, 4) }

// numText writes a metric value as people read it: six significant
// digits; inf, -inf and nan for the non-finite ones.
func numText(f float64) string { return model.FormatSignificant(f, 6) }

// addMetricNotes adds a header fact for each metric evalview cannot
// recompute, saying why, so that the browser shows it beside the value.
func addMetricNotes(ds *model.Dataset) {
	for _, c := range model.RecomputeMetrics(ds) {
		if c.Note != "" && !c.HasSamples {
			ds.Facts = append(ds.Facts, model.Fact{Key: "metric " + c.Name + "," + c.Filter, Value: c.Note})
		}
	}
}

// syncLocked is SyncDataset's work under the index's lock; finished is
// set the one time the scan is found over.
func (x *index) syncLocked(ds *model.Dataset) (changed, finished bool) {
	if x.synced {
		return false, false
	}
	done := x.Done()
	s := x.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	changed = false
	if len(ds.Filters) != len(s.filters) {
		ds.Filters = append([]string(nil), s.filters...)
		changed = true
	}
	if ds.MainMetric != s.main && s.main != "" {
		ds.MainMetric = s.main
		changed = true
	}
	if !done {
		return changed, false
	}
	x.synced = true
	ds.Issues = append(ds.Issues, s.dsIssue...)
	if notes := s.inferNotes(); len(notes) > 0 {
		ds.Issues = append(ds.Issues, notes...)
		ds.Facts = append(ds.Facts, model.Fact{Key: "filters", Value: notes[0].Message})
	}
	if s.err != nil {
		ds.Issues = append(ds.Issues, model.Errorf("read-error", s.path, s.lines+1, "", "reading stopped after line %d: %v; the rows before it are loaded", s.lines, s.err))
	}
	ds.Issues = append(ds.Issues, crossCheck(s, x.res, x.task)...)
	return true, true
}

// mainMetric is the metric the list shows: the first one the rows list,
// else the first one the results file reports.
func mainMetric(s *scanned, reported []model.Metric) string {
	if len(s.metrics) > 0 {
		for _, pref := range []string{"exact_match", "acc", "acc_norm"} {
			for _, m := range s.metrics {
				if m == pref {
					return m
				}
			}
		}
		return s.metrics[0]
	}
	if len(reported) > 0 {
		return reported[0].Name
	}
	return ""
}

// crossCheck compares the samples with what the results file reports.
func crossCheck(s *scanned, r *results, task string) []model.Issue {
	var out []model.Issue
	if s.count() == 0 && len(s.dsIssue) == 0 {
		out = append(out, model.Warnf("no-samples", s.path, 0, "", "samples file holds no rows"))
	}
	if r == nil {
		return out
	}
	if n, ok := r.NSamples[task]; ok && n[1] != s.count() && s.count() > 0 {
		out = append(out, model.Warnf("count-mismatch", s.path, 0, "",
			"results file reports %d samples for %s (n-samples effective), the samples file has %d docs: trimmed or incomplete file?", n[1], task, s.count()))
	}
	for fi, f := range s.filters {
		if n, ok := r.NSamples[task]; ok && s.rowsPerFilter[fi] != s.count() && n[1] == s.count() {
			out = append(out, model.Warnf("count-mismatch", s.path, 0, "", "filter %q has rows for %d of %d docs", f, s.rowsPerFilter[fi], s.count()))
		}
	}
	if s.count() == 0 {
		return out
	}
	for _, f := range r.reportedFilters(task) {
		if !contains(s.filters, f) {
			out = append(out, model.Warnf("filter-missing", s.path, 0, "", "results file reports filter %q but the samples have no rows for it", f))
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// resultsDataset shows a results file with no samples: one record per
// task, its main metric as the score and every metric as a field.
func resultsDataset(r *results) *model.Dataset {
	ds := &model.Dataset{
		Kind: model.KindLMEval, Path: r.Path, Task: filepath.Base(r.Path),
		Title: strings.TrimSuffix(filepath.Base(r.Path), ".json") + " (results only)",
		Facts: append(append([]model.Fact{}, r.Facts...), model.Fact{Key: "results file", Value: r.Path}, model.Fact{Key: "samples", Value: "none: the reported metrics are shown as reported, with nothing to recompute them from (lm-eval writes the per-doc samples with --log_samples)"}),
	}
	ds.Presentation = ResultsPresentation()
	var recs []*model.Record
	add := func(task string, group bool) {
		ms := r.Metrics[task]
		rec := &model.Record{Summary: model.Summary{ID: task, Title: strings.TrimLeft(r.Aliases[task], " -")}}
		if rec.Title == "" {
			rec.Title = task
		}
		if group {
			rec.Labels = model.NewLabels("type", "group")
		}
		for i, m := range ms {
			if i == 0 {
				rec.Score, rec.HasScore = m.Value, true
			}
			v := fieldNum(m.Value)
			if m.HasStderr {
				v += " ± " + fieldNum(m.Stderr)
			}
			rec.Fields = append(rec.Fields, model.Field{Name: m.Name + "," + m.Filter, Value: v})
		}
		for _, k := range []struct{ key, val string }{{"n-shot", r.NShot[task]}, {"version", r.Versions[task]}} {
			if k.val != "" {
				rec.Fields = append(rec.Fields, model.Field{Name: k.key, Value: k.val})
			}
		}
		if c, ok := r.Configs[task]; ok {
			rec.Sections = append(rec.Sections, model.Section{Title: "Task config", Type: model.SectionJSON, JSON: prettyJSON(c), Tab: "Config"})
		}
		recs = append(recs, rec)
	}
	for _, t := range r.Tasks {
		add(t, false)
	}
	var groups []string
	// Groups come from a map: sorted, so records keep one order run to run.
	for _, g := range slices.Sorted(maps.Keys(r.Groups)) {
		if _, ok := r.Metrics[g]; ok && len(r.Metrics[g]) > 0 {
			add(g, true)
			groups = append(groups, g)
		}
	}
	// The dataset's own metrics (header, summary) are those of its one
	// task, or of the one group that aggregates its tasks; several tasks
	// without one have theirs on their records only.
	whole := ""
	switch {
	case len(recs) == 1:
		whole = recs[0].ID
	case len(groups) == 1:
		whole = groups[0]
	}
	if ms := r.Metrics[whole]; whole != "" && len(ms) > 0 {
		ds.Metrics = ms
		if len(recs) == 1 {
			ds.MainMetric = ms[0].Name // the record's score is its first metric
		}
	}
	ds.Records = model.NewMemIndex(recs)
	ds.Tasks = r.taskReports(recs)
	ds.Origin = origin(r.Path, "", r)
	return ds
}

// disambiguate makes titles unique when several runs or folders hold the
// same task: the folder name first, then the run timestamp.
func disambiguate(ds []*model.Dataset) {
	ts := make([]titled, len(ds))
	for i, d := range ds {
		ts[i] = titled{title: d.Title, path: d.Path}
		if _, samples := d.Records.(*index); samples { // a samples file's stamp tells two runs of a task apart
			ts[i].stamp = stampOf(filepath.Base(d.Path))
		}
	}
	uniqueTitles(ts)
	for i, d := range ds {
		d.Title = ts[i].title
	}
}

// titled is what a dataset's title depends on: its task (the title to
// start from), its path and its run's timestamp.
type titled struct{ title, path, stamp string }

// uniqueTitles makes the titles of ts unique as disambiguate describes,
// in place.
func uniqueTitles(ts []titled) {
	dirs := map[string]map[string]bool{}
	for _, t := range ts {
		if dirs[t.title] == nil {
			dirs[t.title] = map[string]bool{}
		}
		dirs[t.title][source.Dir(t.path)] = true
	}
	for i, t := range ts {
		if len(dirs[t.title]) > 1 {
			ts[i].title = filepath.Base(source.Dir(t.path)) + "/" + t.title
		}
	}
	c := map[string]int{}
	for _, t := range ts {
		c[t.title]++
	}
	for i, t := range ts {
		if c[t.title] > 1 && t.stamp != "" {
			ts[i].title += " @ " + t.stamp
		}
	}
}

// statusBasis says, for a task scored by its own process_results
// (leaderboard_math, ifeval...), that its rows' ✓ and ✗ are that code's
// verdict as logged, not a match of the answer with the target.
func statusBasis(r *results, task string) string {
	cfg, ok := r.config(task)
	if !ok || len(cfg.ProcessResults) == 0 || string(cfg.ProcessResults) == "null" {
		return ""
	}
	var src string
	if json.Unmarshal(cfg.ProcessResults, &src) != nil || strings.TrimSpace(src) == "" {
		return ""
	}
	return "the task's own " + model.FunctionName(src) + ", as logged"
}
