package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"evalview/internal/termsafe"
	"evalview/loaders/runzip"
	"evalview/model"
	"evalview/model/runstats"
)

// A run's summary. Its generation summary's counters (completed_samples,
// done_attempts...) are progress counts, not metrics: they go to the
// "generation" field, not to "metrics". "metrics" holds, when the run has
// a scores_map.json, that file's figures beside the ones computed from
// the score files (as an lm-eval results file's beside the samples),
// grouped "run", "category <name>" and, where they differ, "sample <n>";
// "scores_map" names the file and the pass_threshold both count at.

// runReport sets a run's figures on its report.
// threshold is summary's --threshold, nil for the run's own.
func runReport(r *model.DatasetReport, ds *model.Dataset, threshold *float64) {
	st := runstats.StatsOf(ds, 0)
	if threshold != nil {
		st = runstats.ComputeAt(ds, *threshold).Stats()
	}
	f := &model.RunFigures{
		Attempts: st.Attempts, ScoredAttempts: st.ScoredAttempts, ScoredRecords: st.ScoredRecords,
		MeanWeightedScore: st.MeanWeightedScore, Threshold: st.Threshold, AboveThreshold: st.AboveThreshold,
		CategoryMeans: st.CategoryMeans, Statuses: st.Statuses, Generation: map[string]float64{},
	}
	r.Run = f
	r.Metrics = map[string]map[string]model.MetricPair{}
	for _, m := range ds.Metrics {
		if m.Name != ds.MainMetric { // the main one is scores_map.json's mean
			f.Generation[m.Name] = m.Value
		}
	}
	c := runzip.ScoresMapOf(ds)
	if c == nil {
		return
	}
	f.ScoresMap = &model.ScoresMapRef{File: c.File, PassThreshold: c.Threshold}
	for _, f := range c.Figures {
		if r.Metrics[f.Filter] == nil {
			r.Metrics[f.Filter] = map[string]model.MetricPair{}
		}
		r.Metrics[f.Filter][f.Name] = model.PairOf(f)
	}
}

// printRun writes a run's figures for people, with the values --json
// gives, written as it writes them.
func printRun(w io.Writer, r model.DatasetReport) {
	f := r.Run
	mean := "-"
	if p := f.MeanWeightedScore; p != nil {
		mean = jsonNum(*p)
	}
	fmt.Fprintf(w, "  attempts %v (scored %v), mean weighted score %s, %v at or above %v\n",
		f.Attempts, f.ScoredAttempts, mean, f.AboveThreshold, f.Threshold)
	if len(f.Statuses) > 0 {
		fmt.Fprintf(w, "  statuses at %v: %s\n", f.Threshold, statusCounts(f.Statuses))
	}
	if len(f.CategoryMeans) > 0 {
		fmt.Fprintf(w, "  category means: %s\n", joinFigures(f.CategoryMeans))
	}
	if len(f.Generation) > 0 {
		fmt.Fprintf(w, "  generation summary: %s\n", joinFigures(f.Generation))
	}
	if f.ScoresMap == nil {
		return
	}
	fmt.Fprintf(w, "  scores_map.json (pass_threshold %v) beside the same figures computed from the score files as its\n", f.ScoresMap.PassThreshold)
	fmt.Fprintln(w, "  writer computes them (exact means rounded half to even; the mean weighted score above rounds half up, as the site does):")
	tw := newTable(w)
	fmt.Fprintln(tw, "  group\tfigure\tcomputed\tn\tscores_map.json\t")
	differs := 0
	for _, g := range runGroups(r.Metrics) {
		names := make([]string, 0, len(r.Metrics[g]))
		for n := range r.Metrics[g] {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool { return figureRank(names[i]) < figureRank(names[j]) })
		for _, n := range names {
			p := r.Metrics[g][n]
			flag := ""
			if p.Differs {
				flag = "DIFFERS"
				differs++
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\t%s\n", g, n, optNum(p.Samples), p.N, optNum(p.Reported), flag)
		}
	}
	tw.Flush()
	if differs > 0 {
		fmt.Fprintf(w, "  %s: scores_map.json does not match the score files (written before they changed, or by other rules)\n", strings.ToLower(count(differs, "figure")+verbS(differs, " differ")))
	}
}

// runGroups orders a run's metric groups: the run, its categories, then
// samples by index.
func runGroups(m map[string]map[string]model.MetricPair) []string {
	gs := make([]string, 0, len(m))
	for g := range m {
		gs = append(gs, g)
	}
	rank := func(g string) (int, int) {
		switch {
		case g == runzip.MapGroupRun:
			return 0, 0
		case strings.HasPrefix(g, "sample "):
			n, _ := strconv.Atoi(strings.TrimPrefix(g, "sample "))
			return 2, n
		}
		return 1, 0
	}
	sort.Slice(gs, func(i, j int) bool {
		ri, ni := rank(gs[i])
		rj, nj := rank(gs[j])
		if ri != rj {
			return ri < rj
		}
		if ni != nj {
			return ni < nj
		}
		return gs[i] < gs[j]
	})
	return gs
}

// figureRank orders figures as scores_map.json lists them.
func figureRank(name string) int {
	for i, n := range []string{"total", "count", "passed", "failed", "global_mean", "mean", "mean_score"} {
		if n == name {
			return i
		}
	}
	return 99
}

// joinFigures writes "a 1, b 2.5" in name order.
func joinFigures(m map[string]float64) string {
	parts := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		parts = append(parts, k+" "+jsonNum(m[k]))
	}
	return strings.Join(parts, ", ")
}

// jsonNum writes a number as encoding/json does (8.28, 340).
func jsonNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func optNum(p *float64) string {
	if p == nil {
		return "-"
	}
	return jsonNum(*p)
}

// reportStream writes summary's reports one at a time: as text, a blank
// line between datasets; as JSON, the {"datasets": [...]} object that a
// json.Encoder indenting by two spaces writes for the whole list, byte for
// byte, without holding the list.
type reportStream struct {
	w    io.Writer
	json bool
	n    int
}

func (s *reportStream) add(r model.DatasetReport) error {
	defer func() { s.n++ }()
	if !s.json {
		if s.n > 0 {
			fmt.Fprintln(s.w)
		}
		printReport(termsafe.Writer{W: s.w}, r)
		return nil
	}
	b, err := json.MarshalIndent(r, "    ", "  ")
	if err != nil {
		return err
	}
	sep := ",\n    "
	if s.n == 0 {
		sep = "{\n  \"datasets\": [\n    "
	}
	if _, err := io.WriteString(s.w, sep); err != nil {
		return err
	}
	_, err = s.w.Write(termsafe.EscapeJSON(b))
	return err
}

func (s *reportStream) close() error {
	if !s.json {
		return nil
	}
	end := "\n  ]\n}\n"
	if s.n == 0 {
		end = "{\n  \"datasets\": []\n}\n"
	}
	_, err := io.WriteString(s.w, end)
	return err
}

// statusCounts writes "4 pass, 2 fail, 1 error" in the browser's order
// (✓ ✗ ! ·), leaving out an error or unscored count of 0.
func statusCounts(ss map[string]int) string {
	var parts []string
	for _, st := range []model.Status{model.StatusPass, model.StatusFail, model.StatusError, model.StatusUnscored} {
		n := ss[st.String()]
		if n > 0 || st == model.StatusPass || st == model.StatusFail {
			parts = append(parts, strconv.Itoa(n)+" "+st.String())
		}
	}
	return strings.Join(parts, ", ")
}
