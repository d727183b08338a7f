package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"evalview/model"
	"evalview/model/compare"
	"evalview/model/overview"
	"evalview/tui/text"
)

func newSummaryCmd(stdout, stderr io.Writer, common *commonFlags) *cobra.Command {
	var (
		asJSON           bool
		threshold        float64
		failDiff         bool
		format, baseline string
		showEmpty, byRun bool
	)
	cmd := &cobra.Command{
		Use:   "summary [flags] PATH...",
		Short: "Per dataset: records, issues, and metrics recomputed vs reported",
		Long: `summary prints, for every dataset, its kind, path, number of records, error
and warning counts (the issues check counts), and for lm-eval, per filter and
metric, the value recomputed from the samples beside the value the results
file reports, with any difference flagged.

For run zips it adds attempts, scored_attempts, scored_records,
mean_weighted_score, threshold, above_threshold, statuses (samples per
status at the threshold, as the browser's header counts them and export
writes them), category_means and
generation (the generation summary's counters); with a scores_map.json, its
figures under metrics (run, category NAME, sample N), each beside the same
figure computed from the score files as the file's writer computes it.

For lm-eval datasets with two filters or more it adds, for each ordered
pair of filters, the 2x2 agreement table (docs right under both, only the
first, only the second, neither); with more than one repeat per doc it
re-applies the filter pipelines to every repeat (the deep check) and adds
the unbiased pass@k per filter for k = 1, the powers of two below the
number of repeats, and that number.

JSON shape (--json):
  {"datasets":[{"kind":"lm-eval","path":"...","task":"...","records":10,
    "errors":0,"warnings":0,
    "metrics":{"<filter>":{"<metric>":{"samples":0.8,"reported":0.8}}},
    "agreement":{"<A>|<B>":{"both":5,"only_a":1,"only_b":0,"neither":4}},
    "pass_at_k":{"<filter>":{"1":0.45,"8":0.91}}}]}

--fail-on-differs exits 1 when a recomputed metric (or group, or a run's
scores_map figure) differs from the reported one, naming each on stderr.

--format table|markdown|json prints the overview of tasks by models
instead: one row per task (groups with their aggregate, subtasks under
them), one column per model or run, each value followed by its delta
against the --baseline column (a number from 1, or text of its model; the
first by default). markdown is ready for a pull-request comment; json is
--json's datasets with the overview beside them under "overview".

A column is one configuration of a model: runs of the same model with
the same settings (model_args such as revision, peft, steer_path and
dtype, the chat template, n-shot, gen_kwargs) merge, each task's value
its latest run's (marked ↻ when the task ran more than once: json lists
its runs); runs that differ in a setting are columns of their own,
labelled by what differs (step1000, alpha3.0, 5-shot). --by-run makes
every run a column of its own. Tasks and columns with no value at all
are left out of table and markdown (the legend counts them; --show-empty
keeps them); json keeps them all.

Exit codes: 0, 1 with --fail-on-differs when a metric differs, or 2 when a
path cannot be opened at all.`,
		Example: `  evalview summary results/my-model/
  evalview summary --json samples_gsm8k_*.jsonl results_*.json | jq '.datasets[].metrics'
  evalview summary --format markdown --baseline base output/ > comment.md`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			th, err := thresholdFlag(cmd, threshold)
			if err != nil {
				return usageError(stderr, err)
			}
			mode, err := checkFormat(format, asJSON)
			if err != nil {
				return usageError(stderr, err)
			}
			if mode == "table" || mode == "markdown" {
				if failDiff {
					return usageError(stderr, fmt.Errorf("--fail-on-differs goes with the per-dataset summary (text or --json), not --format %s", mode))
				}
				return runOverview(args, common, stdout, stderr, mode, baseline, overview.Options{ShowEmpty: showEmpty, ExpandAll: byRun})
			}
			tuneBatchGC(args)
			// Each dataset is reported as soon as it is read, then
			// dropped (with --format json, its overview entry kept).
			var entries overviewEntries
			out := &reportStream{w: stdout, json: mode != ""}
			var differs []string
			openErrs, err := eachDataset(args, common, true, stderr, func(ds *model.Dataset, _ artifactNotes) error {
				if mode == "json" {
					entries.add(ds)
				}
				r := model.Report(ds)
				// Count what check prints, deep check and all (it is run
				// once: eachDataset keeps its report).
				issues := datasetIssues(cmd.Context(), ds, true)
				issues = append(issues, differIssues(ds, issues)...)
				r.Errors, r.Warnings = model.CountIssues(issues)
				r.Notes = model.CountNotes(issues)
				if ds.Kind == model.KindRun {
					runReport(&r, ds, th)
				}
				if err := addCompareFigures(cmd.Context(), &r, ds); err != nil {
					fmt.Fprintf(stderr, "evalview: %s: deep check: %v\n", ds.Path, err)
				}
				differs = append(differs, differing(r)...)
				return out.add(r)
			})
			if err != nil {
				return err
			}
			if mode == "json" {
				t := overview.Build(entries, overview.Options{ShowEmpty: true, ExpandAll: byRun})
				base, err := baselineColumn(t, baseline)
				if err != nil {
					return usageError(stderr, err)
				}
				err = out.closeWithOverview(t.JSON(base))
				if err != nil {
					return err
				}
			} else if err := out.close(); err != nil {
				return err
			}
			if err := openFailures(stderr, openErrs); err != nil {
				return err
			}
			if failDiff && len(differs) > 0 {
				for _, d := range differs {
					fmt.Fprintln(stderr, "evalview: differs from the reported value:", text.OneLine(d))
				}
				return exitError{exitErrors}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (see the shape above)")
	cmd.Flags().BoolVar(&failDiff, "fail-on-differs", false, "exit 1 when a recomputed metric differs from the reported one")
	cmd.Flags().StringVar(&format, "format", "", "table, markdown or json: the overview of tasks by models (json: --json's datasets and the overview)")
	cmd.Flags().StringVar(&baseline, "baseline", "", "--format: the column deltas are against, a number from 1 or text of its model (default: the first)")
	cmd.Flags().BoolVar(&showEmpty, "show-empty", false, "--format table|markdown: keep the tasks and columns that have no value")
	cmd.Flags().BoolVar(&byRun, "by-run", false, "--format: one column per run, not per configuration of a model")
	cmd.Flags().Float64Var(&threshold, "threshold", 0, "run zips: the high-score threshold above_threshold and statuses count at, 0 to 10 (default: the run's scores_map pass_threshold, else 8.5)")
	return cmd
}

// printReport writes one dataset's summary for people.
func printReport(w io.Writer, r model.DatasetReport) {
	fmt.Fprintf(w, "%s  (%s)  %s\n", r.Title, r.Kind, r.Path)
	// "samples" is said of a results file alone: why nothing is compared.
	for _, k := range []string{"model", "harness", "date", "n-shot", "n-samples", "samples"} {
		if v, ok := r.Facts[k]; ok && (k != "samples" || r.Kind == model.KindLMEval) {
			fmt.Fprintf(w, "  %-10s %s\n", k+":", v)
		}
	}
	notes := ""
	if r.Notes > 0 {
		notes = ", " + count(r.Notes, "note")
	}
	fmt.Fprintf(w, "  %s, %s, %s%s\n", count(r.Records, "record"), count(r.Errors, "error"), count(r.Warnings, "warning"), notes)
	if r.Run != nil {
		printRun(w, r)
		return
	}
	defer printGroups(w, r)
	if len(r.Metrics) == 0 {
		return
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "  filter\tmetric\tsamples\tn\treported\t")
	filters := make([]string, 0, len(r.Metrics))
	for f := range r.Metrics {
		filters = append(filters, f)
	}
	sort.Strings(filters)
	differs := 0
	for _, f := range filters {
		names := make([]string, 0, len(r.Metrics[f]))
		for n := range r.Metrics[f] {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			p := r.Metrics[f][n]
			rep := num(p.Reported)
			if p.Stderr != nil {
				rep += " ± " + model.FormatFloat(*p.Stderr, 4)
			}
			flag := ""
			if p.Differs {
				flag = "DIFFERS"
				differs++
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\t%s\n", f, n, num(p.Samples), p.N, rep, flag)
		}
	}
	tw.Flush()
	printMetricNotes(w, r)
	if differs > 0 {
		fmt.Fprintf(w, "  %s: the samples do not reproduce the reported value (trimmed samples, or a different run)\n", strings.ToLower(count(differs, "metric")+verbS(differs, " differ")))
	}
	printCompareFigures(w, r)
}

func num(p *float64) string {
	if p == nil {
		return "-"
	}
	return model.FormatFloat(*p, 4) // inf and nan as Python prints them
}

// addCompareFigures adds an lm-eval dataset's filter agreement and, when
// its docs have more than one repeat, the pass@k of its deep check, as the
// "agreement" and "pass_at_k" fields of `summary --json`.
func addCompareFigures(ctx context.Context, r *model.DatasetReport, ds *model.Dataset) error {
	if ds.Kind != model.KindLMEval {
		return nil
	}
	if agr := compare.Agreement(ds); agr != nil {
		r.Agreement = map[string]model.Agreement{}
		for k, t := range agr {
			r.Agreement[k] = model.Agreement{Both: t.Both, OnlyA: t.OnlyA, OnlyB: t.OnlyB, Neither: t.Neither}
		}
	}
	if ds.Deep == nil || !hasRepeats(ds) {
		return nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	rep, err := ds.Deep(ctx, nil)
	if err != nil {
		return err
	}
	if len(rep.PassAtK) == 0 {
		return nil
	}
	pk := map[string]map[string]float64{}
	for f, byK := range rep.PassAtK {
		pk[f] = map[string]float64{}
		for k, v := range byK {
			pk[f][strconv.Itoa(k)] = v
		}
	}
	r.PassAtK = pk
	return nil
}

// hasRepeats reports whether some doc has more than one repeat, from the
// summaries (cheap), so single-repeat datasets skip the deep check.
func hasRepeats(ds *model.Dataset) bool {
	for i := 0; i < ds.Records.Len(); i++ {
		if ds.Records.Summary(i).Attempts > 1 {
			return true
		}
	}
	return false
}

// printCompareFigures writes the agreement tables and pass@k for people.
func printCompareFigures(w io.Writer, r model.DatasetReport) {
	if agr := r.Agreement; agr != nil {
		fmt.Fprintln(w, "  filter agreement (docs right under both, only A, only B, neither):")
		tw := newTable(w)
		fmt.Fprintln(tw, "  A\tB\tboth\tonly A\tonly B\tneither\t")
		for _, k := range sortedKeys(agr) {
			a, b, _ := strings.Cut(k, "|")
			if a > b {
				continue // each unordered pair once: B|A is A|B mirrored
			}
			t := agr[k]
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%d\t%d\t\n", a, b, t.Both, t.OnlyA, t.OnlyB, t.Neither)
		}
		tw.Flush()
	}
	if pk := r.PassAtK; pk != nil {
		fmt.Fprintln(w, "  pass@k (unbiased estimator over the repeats of each doc):")
		for _, f := range sortedKeys(pk) {
			ks := make([]int, 0, len(pk[f]))
			for k := range pk[f] {
				n, _ := strconv.Atoi(k)
				ks = append(ks, n)
			}
			sort.Ints(ks)
			parts := make([]string, len(ks))
			for i, k := range ks {
				parts[i] = fmt.Sprintf("@%d %.4f", k, pk[f][strconv.Itoa(k)])
			}
			fmt.Fprintf(w, "    %s: %s\n", f, strings.Join(parts, "  "))
		}
	}
}

// printMetricNotes says, under the metric table, why a metric has no
// recomputed value: each note once, with the metrics it concerns.
func printMetricNotes(w io.Writer, r model.DatasetReport) {
	var notes []string
	who := map[string][]string{}
	for _, f := range sortedKeys(r.Metrics) {
		for _, n := range sortedKeys(r.Metrics[f]) {
			note := r.Metrics[f][n].Note
			if note == "" || r.Metrics[f][n].Samples != nil {
				continue
			}
			if who[note] == nil {
				notes = append(notes, note)
			}
			who[note] = append(who[note], f+" "+n)
		}
	}
	for _, note := range notes {
		fmt.Fprintf(w, "  %s: %s\n", strings.Join(who[note], ", "), note)
	}
}

// printGroups writes the group aggregates recomputed from their subtasks.
func printGroups(w io.Writer, r model.DatasetReport) {
	if len(r.Groups) == 0 {
		return
	}
	fmt.Fprintln(w, "  groups (recomputed from their subtasks' reported values, as the harness aggregates):")
	tw := newTable(w)
	fmt.Fprintln(tw, "  group\tfilter\tmetric\trecomputed\tsubtasks\treported\t")
	var notes []string
	for _, g := range sortedKeys(r.Groups) {
		for _, f := range sortedKeys(r.Groups[g]) {
			for _, n := range sortedKeys(r.Groups[g][f]) {
				p := r.Groups[g][f][n]
				how := ""
				if p.Recomputed != nil {
					how = " (plain mean)"
					if p.WeightBySize {
						how = " (by size)"
					}
				}
				flag := ""
				if p.Differs {
					flag = "DIFFERS"
				}
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s%s\t%d\t%s\t%s\n", g, f, n, num(p.Recomputed), how, p.Subtasks, model.FormatFloat(p.Reported, 4), flag)
				if p.Note != "" {
					notes = append(notes, fmt.Sprintf("  %s %s,%s: %s", g, n, f, p.Note))
				}
			}
		}
	}
	tw.Flush()
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
}

// newTable aligns summary's tables: columns two spaces apart, and no line
// ending in the spaces that pad its last cell (the README shows the
// output as it is).
func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(&trimRight{w: w}, 0, 0, 2, ' ', 0)
}

// trimRight writes what it is given without the spaces before each
// newline: it holds a run of spaces back until it knows what follows.
type trimRight struct {
	w      io.Writer
	spaces int
}

func (t *trimRight) Write(b []byte) (int, error) {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		switch c {
		case ' ':
			t.spaces++
			continue
		case '\n':
			t.spaces = 0
		default:
			for ; t.spaces > 0; t.spaces-- {
				out = append(out, ' ')
			}
		}
		out = append(out, c)
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}

// verbS is verb agreeing with a count: "differs" for one, "differ" for
// more.
func verbS(n int, verb string) string {
	if n == 1 {
		return verb + "s"
	}
	return verb
}
