package lmeval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"evalview/loaders/internal/jsonhead"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// entry is one key of a JSON object, in file order.
type entry struct {
	Key string
	Val json.RawMessage
}

// objectEntries decodes a JSON object keeping its key order, which Go maps
// lose and which users expect to see (metrics, doc fields).
func objectEntries(raw []byte) ([]entry, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var out []entry
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, entry{Key: k.(string), Val: v})
	}
	return out, nil
}

// results is what evalview reads from one lm-eval results file.
type results struct {
	Path string
	// Stamp is the run timestamp from the file name ("2025-09-09T13-31-53.431753"), or "".
	Stamp string
	// Tasks lists task names in file order, groups excluded.
	Tasks   []string
	Groups  map[string]bool
	Metrics map[string][]model.Metric
	Aliases map[string]string
	Configs map[string]json.RawMessage
	// NShot, NSamples and Versions are per task, as text.
	NShot    map[string]string
	NSamples map[string][2]int // original, effective
	Versions map[string]string
	// Facts are run-wide facts (model, harness version, date...).
	Facts []model.Fact
	// Config are the run's settings that tell configurations of its
	// model apart (model.Origin.Config: runConfig).
	Config []model.Fact
	// Date is the run's start as the file's "date" says it (a unix
	// time), zero when it does not.
	Date time.Time
	// NonFinite counts the NaN and Infinity values the file holds.
	NonFinite int
	// Subtasks is group_subtasks: each group's direct children.
	Subtasks map[string][]string
	// TaskHashes is task_hashes (v0.4.3+): each task's hash of its
	// samples' doc, prompt and target hashes, which pairs a renamed
	// samples file with its task (pair.go).
	TaskHashes map[string]string
	// SampleLen is each task's sample_len (v0.4.12), the size the harness
	// weights a group's subtasks by.
	SampleLen map[string]int
	// SubtasksFromAliases is set when the file has no group_subtasks
	// (v0.4.0, v0.4.1) and Subtasks was read from the aliases'
	// indentation (subtasksFromAliases).
	SubtasksFromAliases bool
	// configs caches each task's decoded config parts (config); tree the
	// group tree (groupTree).
	configs configCache
	tree    groupTree
}

// rawResults is the subset of a results file the loader decodes up front.
type rawResults struct {
	Results        json.RawMessage            `json:"results"`
	Groups         map[string]json.RawMessage `json:"groups"`
	GroupSubtasks  map[string][]string        `json:"group_subtasks"`
	Configs        map[string]json.RawMessage `json:"configs"`
	Versions       map[string]json.RawMessage `json:"versions"`
	NShot          map[string]json.RawMessage `json:"n-shot"`
	HigherIsBetter map[string]map[string]bool `json:"higher_is_better"`
	NSamples       map[string]struct {
		Original  int `json:"original"`
		Effective int `json:"effective"`
	} `json:"n-samples"`
	Config         json.RawMessage   `json:"config"`
	ModelName      string            `json:"model_name"`
	LMEvalVersion  string            `json:"lm_eval_version"`
	Date           json.RawMessage   `json:"date"`
	GitHash        string            `json:"git_hash"`
	TotalEvalTime  json.RawMessage   `json:"total_evaluation_time_seconds"`
	ChatTemplate   *string           `json:"chat_template"`
	SystemInstruct *string           `json:"system_instruction"`
	TaskHashes     map[string]string `json:"task_hashes"`
	// The hashes of the two, and whether few-shot examples were turns
	// of a chat (v0.4.3 on: EvaluationTracker.general_config_tracker).
	ChatTemplateSHA    string `json:"chat_template_sha"`
	SystemInstructSHA  string `json:"system_instruction_sha"`
	FewshotAsMultiturn *bool  `json:"fewshot_as_multiturn"`
}

// isResultsJSON reports whether head is an lm-eval results file, on the
// evidence of its structure: an object whose "results" maps tasks to
// their metrics (task -> metric -> value: "acc,none": 0.5, the old
// harness's "acc" with "acc_stderr", an "alias"), or, for a run that
// reported nothing, an empty "results" beside the harness's own keys. A
// promptfoo export and an Inspect log have a "results" and a "config"
// too, holding numbers and lists, not tasks: the words alone claimed them.
func isResultsJSON(head []byte) bool {
	if !bytes.Contains(head, []byte(`"results"`)) {
		return false // the word first: most files are not, and a parse costs
	}
	v := jsonhead.Parse(head, 2)
	if !v.Is(jsonhead.Object) || v.Bad {
		return false
	}
	res := v.Get("results")
	if !res.Is(jsonhead.Object) {
		return false
	}
	if len(res.Keys) == 0 {
		return v.Count("versions", "configs", "n-shot", "n-samples", "higher_is_better", "group_subtasks") > 0
	}
	metrics := false
	for _, k := range res.Keys {
		task := res.Get(k)
		if task.Kind == jsonhead.Unknown {
			break // cut before it
		}
		if !task.Is(jsonhead.Object) {
			return false // a task's entry is an object of its metrics
		}
		for _, m := range task.Keys {
			if task.Get(m).Is(jsonhead.Number) || strings.Contains(m, ",") || m == "alias" {
				metrics = true
			}
		}
	}
	return metrics || !res.Whole && v.Count("versions", "configs", "n-shot", "n-samples", "higher_is_better", "group_subtasks") > 0
}

// readResults parses a results file.
func readResults(path string) (*results, error) {
	data, err := source.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("results file does not start with a JSON object (it starts with %q): cut at its start, or not a results file", clip(string(t[:min(len(t), 12)]), 12))
	}
	// Python's json writes NaN and Infinity (a regression task's mae, a
	// perplexity): quoted, encoding/json takes them, and number() reads
	// the strings back.
	data, nonFinite := jsonl.QuoteNonFinite(data)
	var raw rawResults
	if err := json.Unmarshal(data, &raw); err != nil {
		err = fmt.Errorf("results file is not valid JSON: %w", err)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// The line, counted in the bytes read (quoting NaN adds no
			// line), so that the error need not read the file again.
			err = lineError{line: 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n")), err: err}
		}
		return nil, err
	}
	if raw.Results == nil {
		return nil, errors.New(`results file has no "results" object`)
	}
	r := &results{
		Path: path, Stamp: stampOf(filepath.Base(path)),
		Groups: map[string]bool{}, Metrics: map[string][]model.Metric{}, Aliases: map[string]string{},
		Configs: raw.Configs, NShot: map[string]string{}, NSamples: map[string][2]int{}, Versions: map[string]string{},
	}
	for g := range raw.Groups {
		r.Groups[g] = true
	}
	for g, subs := range raw.GroupSubtasks {
		if len(subs) > 0 {
			r.Groups[g] = true
		}
	}
	r.Subtasks, r.SampleLen = raw.GroupSubtasks, map[string]int{}
	r.TaskHashes = raw.TaskHashes
	tasks, err := objectEntries(raw.Results)
	if err != nil {
		return nil, fmt.Errorf(`"results" is not an object: %w`, err)
	}
	var order []string
	depth := map[string]int{}
	for _, t := range tasks {
		fields, err := objectEntries(t.Val)
		if err != nil {
			continue
		}
		r.Metrics[t.Key], r.Aliases[t.Key] = parseTaskMetrics(fields, raw.HigherIsBetter[t.Key])
		order, depth[t.Key] = append(order, t.Key), aliasDepth(fields)
		for _, f := range fields {
			if n, ok := number(f.Val); ok && f.Key == "sample_len" {
				r.SampleLen[t.Key] = int(n)
			}
		}
		if r.Groups[t.Key] || isGroupRow(fields) {
			r.Groups[t.Key] = true
			continue
		}
		r.Tasks = append(r.Tasks, t.Key)
	}
	for g, raw := range raw.Groups {
		// v0.4.0 to v0.4.2 keep a group's metrics in "groups" only.
		if len(r.Metrics[g]) > 0 {
			continue
		}
		if fields, err := objectEntries(raw); err == nil {
			r.Metrics[g], _ = parseTaskMetrics(fields, nil)
		}
	}
	for k, v := range raw.NShot {
		r.NShot[k] = scalarText(v)
	}
	for k, v := range raw.Versions {
		r.Versions[k] = scalarText(v)
	}
	for k, v := range raw.NSamples {
		r.NSamples[k] = [2]int{v.Original, v.Effective}
	}
	if raw.GroupSubtasks == nil && len(r.Groups) > 0 {
		if subs := subtasksFromAliases(order, depth, r.Groups); subs != nil {
			r.Subtasks, r.SubtasksFromAliases = subs, true
		}
	}
	r.Facts = runFacts(raw)
	r.Config = runConfig(raw, r.model())
	if f, ok := number(raw.Date); ok && f > 0 {
		sec, frac := math.Modf(f)
		r.Date = time.Unix(int64(sec), int64(frac*1e9)).UTC()
	}
	r.NonFinite = nonFinite
	return r, nil
}

// isGroupRow tells pre-0.4 group rows ({" ": " ", "alias": ...}) apart.
func isGroupRow(fields []entry) bool {
	for _, f := range fields {
		if strings.TrimSpace(f.Key) == "" {
			return true
		}
	}
	return false
}

// notMetric are the keys of a task's results that the harness writes
// beside its metrics: "samples" (popped before writing since v0.4.0, but
// kept by some forks), "name" and "sample_len" (v0.4.12, evaluator_utils
// _collect_results), "sample_count" (a group's dict, v0.4.12,
// api/group.py), and a v0.4 group row's " ".
var notMetric = map[string]bool{"alias": true, "name": true, "sample_len": true, "samples": true, "sample_count": true, " ": true, "": true}

// parseTaskMetrics reads "metric,filter" and "metric_stderr,filter" keys
// (or bare pre-0.4 "acc"/"acc_stderr") into metrics, in file order.
func parseTaskMetrics(fields []entry, hib map[string]bool) ([]model.Metric, string) {
	var out []model.Metric
	alias := ""
	stderr := map[[2]string]float64{}
	// From v0.4.0 every metric key is "metric,filter"; a bare key beside
	// them is bookkeeping (name, sample_len, samples...). Before 0.4 every
	// key was bare.
	keyed := false
	for _, f := range fields {
		keyed = keyed || strings.Contains(f.Key, ",")
	}
	for _, f := range fields {
		if f.Key == "alias" {
			alias = strings.TrimSpace(scalarText(f.Val))
			continue
		}
		if notMetric[f.Key] || keyed && !strings.Contains(f.Key, ",") {
			continue
		}
		v, ok := number(f.Val)
		name, filter, _ := strings.Cut(f.Key, ",")
		if filter == "" {
			filter = noFilter // pre-0.4 bare keys; old samples have no filter either
		}
		if strings.HasSuffix(name, "_stderr") {
			if ok {
				stderr[[2]string{strings.TrimSuffix(name, "_stderr"), filter}] = v
			}
			continue
		}
		if !ok {
			continue
		}
		m := model.Metric{Filter: filter, Name: name, Value: v}
		if b, ok := hib[name]; ok {
			b := b
			m.HigherIsBetter = &b
		}
		out = append(out, m)
	}
	for i := range out {
		if s, ok := stderr[[2]string{out[i].Name, out[i].Filter}]; ok {
			out[i].Stderr, out[i].HasStderr = s, true
		}
	}
	return out, alias
}

func runFacts(raw rawResults) []model.Fact {
	var facts []model.Fact
	add := func(k, v string) {
		if v = strings.TrimSpace(v); v != "" {
			facts = append(facts, model.Fact{Key: k, Value: v})
		}
	}
	var cfg map[string]json.RawMessage
	_ = json.Unmarshal(raw.Config, &cfg)
	modelName := raw.ModelName
	args := ""
	if a, ok := cfg["model_args"]; ok {
		args = scalarText(a)
	}
	if modelName == "" {
		modelName = modelFromArgs(args)
	}
	add("model", modelName)
	add("backend", scalarText(cfg["model"]))
	add("model args", args)
	add("harness", raw.LMEvalVersion)
	add("date", dateText(raw.Date))
	if l := scalarText(cfg["limit"]); l != "" && l != "null" {
		add("limit", l)
	}
	add("batch size", scalarText(cfg["batch_size"]))
	add("git hash", raw.GitHash)
	if s, ok := number(raw.TotalEvalTime); ok {
		add("eval time", (time.Duration(s) * time.Second).String())
	}
	if raw.ChatTemplate != nil && *raw.ChatTemplate != "" {
		add("chat template", "yes")
	}
	return facts
}

// modelFromArgs picks pretrained=/model= out of a model_args string.
func modelFromArgs(args string) string {
	for _, part := range strings.Split(args, ",") {
		k, v, ok := strings.Cut(part, "=")
		if ok && (k == "pretrained" || k == "model" || k == "model_name") {
			return v
		}
	}
	return ""
}

func dateText(raw json.RawMessage) string {
	if f, ok := number(raw); ok && f > 0 {
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return scalarText(raw)
}

// number reads a JSON number, or a string holding one ("0.5").
func number(raw json.RawMessage) (float64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0, false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, false
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return f, err == nil
	}
	if f, ok := fastNumber(raw); ok {
		return f, true
	}
	if f, ok := jsonl.NonFinite(raw); ok {
		return f, true // Python's json writes NaN and Infinity
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		return 0, false
	}
	return f, true
}

// scalarText renders a JSON value as text: strings unquoted, others as
// compact JSON (jsonl.Text).
func scalarText(raw json.RawMessage) string { return jsonl.Text(raw) }

// taskFacts are the header facts of one task of a run.
func (r *results) taskFacts(task string) []model.Fact {
	var facts []model.Fact
	facts = append(facts, model.Fact{Key: "task", Value: task})
	facts = append(facts, r.Facts...)
	if v := r.Versions[task]; v != "" {
		facts = append(facts, model.Fact{Key: "task version", Value: v})
	}
	if v := r.NShot[task]; v != "" {
		facts = append(facts, model.Fact{Key: "n-shot", Value: v})
	}
	if n, ok := r.NSamples[task]; ok {
		facts = append(facts, model.Fact{Key: "n-samples", Value: fmt.Sprintf("%d of %d", n[1], n[0])})
	}
	if cfg, ok := r.config(task); ok {
		var outputType string
		var repeats int
		if json.Unmarshal(cfg.OutputType, &outputType) == nil && outputType != "" {
			facts = append(facts, model.Fact{Key: "output type", Value: outputType})
		}
		if json.Unmarshal(cfg.Repeats, &repeats) == nil && repeats > 1 {
			facts = append(facts, model.Fact{Key: "repeats", Value: strconv.Itoa(repeats)})
		}
	}
	facts = append(facts, model.Fact{Key: "results file", Value: r.Path})
	return facts
}

// reportedFilters lists the filters the results file reports metrics for.
func (r *results) reportedFilters(task string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range r.Metrics[task] {
		if m.Filter != "" && !seen[m.Filter] {
			seen[m.Filter] = true
			out = append(out, m.Filter)
		}
	}
	return out
}
