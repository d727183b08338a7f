// Package helm loads the output of Stanford CRFM's HELM (helm-run and
// helm-summarize): run folders, benchmark_output/runs/<suite>/<run>/, as
// helm.benchmark.runner writes them (run_spec.json, scenario.json,
// scenario_state.json, stats.json, per_instance_stats.json) with the
// display files helm-summarize adds (instances.json,
// display_predictions.json, display_requests.json), and suite folders of
// many runs (with helm-summarize's schema.json, runs.json, groups/).
//
// # Mapping
//
// One dataset per run folder (Kind helm): a scenario evaluated on one
// model with one adapter configuration. One record per instance, and a
// record of its own for each perturbed copy of an instance (a robustness
// or fairness run writes the original and each perturbation under the
// same instance id: the record's id is the instance id, then "/" and the
// perturbation's name). The train trials (num_train_trials: the same
// instance with other in-context examples) and the completions of a
// request (num_outputs) are the record's attempts, in trial order, each
// with its own prompt when there are several trials. A
// multiple_choice_separate run's requests (one per reference, and the
// calibration ones) are attempts too, each naming its reference.
//
// The prompt is the request's messages when it has them, else its prompt
// text (multimodal content as segments); the references are the
// instance's, the correct ones (tags ["correct"]) marked, and lettered as
// the adapter's output mapping letters them; an attempt's text is the
// completion, with the mapped output, the thinking text, the finish
// reason and the logprob as facts, and the annotators' verdicts (an LLM
// judge's reasoning and score) as the judge's note. Each attempt's scores
// are the instance's per-instance stats of its trial.
//
// The record's score is the dataset's row metric, the mean of the
// instance's trials: the run group's main metric from the suite's
// schema.json when it is a per-instance stat, else the first of
// stats.json's metrics that is not one of HELM's general ones (token
// counts, runtimes). ✓ and ✗ are shown only when that metric is 0 or 1
// on every instance (exact_match and its kin); a continuous score (an
// LLM judge's 0, 0.5, 1; f1) is a value only.
//
// The dataset's metrics are stats.json's means, each under its context as
// its filter: the split ("test"), then "/" and the sub split, then " · "
// and the perturbation ("test · robustness (worst)"). Each is recomputed
// from per_instance_stats.json the way Metric.evaluate computes it (per
// trial, the stats merged over the instances; the trials' means
// averaged), with the worst-case and "original" figures of
// compute_worst_case_metrics, perplexity, bits_per_byte and
// logprob_per_byte from their sums, and num_instances from the requests;
// a difference is a metric-differs warning. The metrics HELM derives in
// scenario-specific ways (bbq_accuracy, calibration's ece) are shown as
// reported.
//
// Origin: the task is the run's name without its model= and
// model_deployment= arguments ("mmlu:subject=anatomy,method=multiple_choice_joint"),
// the model is adapter_spec.model, the run is the suite's name, and a
// model_deployment other than the model is the configuration: a suite is
// a sheet of scenarios by models.
//
// # Issue codes
//
// bad-json (a file is not the JSON HELM writes), read-error (a file that
// is not a regular file, or past 512 MB, or a schema.json past 32 MB:
// not read; or a schema.json that does not read, a warning on each run
// of its suite, whose main metric then comes from stats.json),
// missing-file (a run file
// is absent: what it holds is not shown), metric-differs (a stat
// recomputed from per_instance_stats.json disagrees with stats.json),
// request-failed (warning: a request's result says it failed),
// no-result (warning: a request was never executed), stats-without-instance
// (warning: per-instance stats of an instance no request asked about).
package helm

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// The files helm-run writes in a run folder (runner.py), and those
// helm-summarize adds (presentation/run_display.py).
const (
	runSpecJSON          = "run_spec.json"
	scenarioJSON         = "scenario.json"
	scenarioStateJSON    = "scenario_state.json"
	statsJSON            = "stats.json"
	perInstanceStatsJSON = "per_instance_stats.json"
	instancesJSON        = "instances.json"
	predictionsJSON      = "display_predictions.json"
	requestsJSON         = "display_requests.json"
)

// runFiles are the run folder's files this package reads.
var runFiles = []string{runSpecJSON, scenarioJSON, scenarioStateJSON, statsJSON, perInstanceStatsJSON,
	instancesJSON, predictionsJSON, requestsJSON}

// SniffFile scores a file: 3 for one of a run folder's files whose first
// bytes have that file's own keys (above the 2 lm-eval gives any JSON
// object with "results"), 0 else.
func SniffFile(name string, head []byte) int {
	t := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	if len(t) == 0 || t[0] != '{' && t[0] != '[' {
		return 0
	}
	has := func(keys ...string) bool {
		for _, k := range keys {
			if !bytes.Contains(head, []byte(`"`+k+`"`)) {
				return false
			}
		}
		return true
	}
	switch strings.ToLower(name) {
	case runSpecJSON:
		if has("scenario_spec", "adapter_spec", "metric_specs") {
			return 3
		}
	case scenarioStateJSON:
		if has("adapter_spec", "request_states") {
			return 3
		}
	case perInstanceStatsJSON:
		if t[0] == '[' && has("instance_id", "train_trial_index", "stats") {
			return 3
		}
	case statsJSON:
		if t[0] == '[' && has("name", "count", "sum", "sum_squared") {
			return 3
		}
	case predictionsJSON:
		if t[0] == '[' && has("instance_id", "train_trial_index", "predicted_text") {
			return 3
		}
	case requestsJSON:
		if t[0] == '[' && has("instance_id", "train_trial_index", "request") {
			return 3
		}
	}
	return 0
}

// SniffDir scores a folder from its own entries: 3 for a run folder
// (run_spec.json beside one of the files with its records or stats), 3
// for a suite folder (helm-summarize's run_specs.json or runs.json, or
// subfolders named as HELM names runs, "scenario:args,model=..."), 2 for a
// benchmark output folder (runs/ beside scenarios/ or
// scenario_instances/, or in a folder named benchmark_output..., after
// helm-run's default).
func SniffDir(dir string, names []string) int {
	has := map[string]bool{}
	runNamed := false
	for _, n := range names {
		has[n] = true
		if d, ok := strings.CutSuffix(n, "/"); ok && isRunName(d) {
			runNamed = true
		}
	}
	switch {
	case has[runSpecJSON] && (has[scenarioStateJSON] || has[perInstanceStatsJSON] || has[statsJSON] || has[predictionsJSON]):
		return 3
	case has["run_specs.json"] || has["runs_to_run_suites.json"] || runNamed:
		return 3
	case has["runs/"] && (has["scenarios/"] || has["scenario_instances/"] || strings.HasPrefix(base(dir), "benchmark_output")):
		return 2
	}
	return 0
}

// isRunName reports a folder name as HELM names a run:
// "<scenario>:<args>" with a model= argument.
func isRunName(n string) bool {
	scen, args, ok := strings.Cut(n, ":")
	return ok && scen != "" && (strings.HasPrefix(args, "model=") || strings.Contains(args, ",model="))
}

// Open opens a run folder, one of its files (the run is opened), a suite
// folder (every run in it) or a benchmark output folder (every run of
// every suite under runs/).
func Open(p string) ([]*model.Dataset, error) {
	st, err := source.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return openRuns([]string{source.Dir(p)})
	}
	runs, err := runDirs(p)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, errors.New("no HELM run folder (run_spec.json with stats or per_instance_stats) in this folder")
	}
	return openRuns(runs)
}

// openRuns opens each run folder, the errors of those that cannot be read
// joined.
func openRuns(runs []string) ([]*model.Dataset, error) {
	var out []*model.Dataset
	var errs []error
	type read struct {
		sc  *schema
		err error
	}
	schemas := map[string]read{}
	for _, r := range runs {
		suite := source.Dir(r)
		sc, ok := schemas[suite]
		if !ok {
			sc.sc, sc.err = readSchema(suite)
			schemas[suite] = sc
		}
		ds, err := openRun(r, sc.sc)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r, err))
			continue
		}
		if sc.err != nil {
			// Said on each run, whose main metric it would have named.
			ds.Issues = append(ds.Issues, model.Warnf(jsonl.ReadCode(sc.err, "bad-json"), source.Join(suite, "schema.json"), 0, "",
				"%v; the main metric is chosen from stats.json", sc.err))
		}
		out = append(out, ds)
	}
	return out, errors.Join(errs...)
}

// runDirs finds the run folders of dir: dir itself, its subfolders (a
// suite), or those of runs/<suite>/ (a benchmark output folder), in name
// order.
func runDirs(dir string) ([]string, error) {
	names, err := folder.Names(dir)
	if err != nil {
		return nil, err
	}
	if isRunFolder(names) {
		return []string{dir}, nil
	}
	var out []string
	suite := func(d string, names []string) {
		for _, n := range names {
			sub, ok := strings.CutSuffix(n, "/")
			if !ok || strings.HasPrefix(sub, ".") || sub == "groups" || sub == "eval_cache" {
				continue
			}
			p := source.Join(d, sub)
			if ns, err := folder.Names(p); err == nil && isRunFolder(ns) {
				out = append(out, p)
			}
		}
	}
	suite(dir, names)
	if len(out) > 0 {
		return out, nil
	}
	runs := source.Join(dir, "runs")
	if rn, err := folder.Names(runs); err == nil {
		for _, n := range rn {
			s, ok := strings.CutSuffix(n, "/")
			if !ok || strings.HasPrefix(s, ".") {
				continue
			}
			p := source.Join(runs, s)
			if ns, err := folder.Names(p); err == nil {
				suite(p, ns)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// isRunFolder reports a folder's entries as a run folder's.
// IsRunFolder tells a run folder by its entries (names, folders ending
// in "/"): a search of a tree opens such a folder whole.
func IsRunFolder(names []string) bool { return isRunFolder(names) }

func isRunFolder(names []string) bool {
	has := map[string]bool{}
	for _, n := range names {
		has[n] = true
	}
	return has[runSpecJSON] && (has[scenarioStateJSON] || has[perInstanceStatsJSON] || has[statsJSON] || has[predictionsJSON])
}

// taskOf is a run's name without the arguments that name the model:
// "mmlu:subject=anatomy,method=multiple_choice_joint,model=openai_gpt2"
// is the task "mmlu:subject=anatomy,method=multiple_choice_joint", as
// the same scenario run on every model is named.
func taskOf(runName string) string {
	scen, args, ok := strings.Cut(runName, ":")
	if !ok {
		return runName
	}
	var keep []string
	for _, a := range strings.Split(args, ",") {
		k, _, _ := strings.Cut(a, "=")
		if k == "model" || k == "model_deployment" {
			continue
		}
		keep = append(keep, a)
	}
	if len(keep) == 0 {
		return scen
	}
	return scen + ":" + strings.Join(keep, ",")
}

// runArg is the value of argument k in a run's name ("model" in
// "...,model=openai_gpt2").
func runArg(runName, k string) string {
	_, args, _ := strings.Cut(runName, ":")
	for _, a := range strings.Split(args, ",") {
		if ak, v, ok := strings.Cut(a, "="); ok && ak == k {
			return v
		}
	}
	return ""
}

// base is a path's last element.
func base(p string) string { return path.Base(strings.ReplaceAll(p, "\\", "/")) }
