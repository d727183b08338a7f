package lighteval

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/internal/runcfg"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// results is results_{date}.json as EvaluationTracker.save_results writes
// it: config_general, results (task -> metric -> value, with
// "{metric}_stderr" beside each), versions, config_tasks, summary_tasks,
// summary_general.
type results struct {
	path      string
	general   map[string]json.RawMessage
	byTask    map[string][]kv
	taskOrder []string
}

type kv = jsonl.Member

func readResults(path string) (*results, error) {
	data, err := source.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseResults(path, data)
}

// parseResults reads a results file's bytes.
func parseResults(path string, data []byte) (*results, error) {
	var raw struct {
		ConfigGeneral map[string]json.RawMessage `json:"config_general"`
		Results       json.RawMessage            `json:"results"`
	}
	if err := nonfinite.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not lighteval's results JSON: %w", err)
	}
	r := &results{path: path, general: raw.ConfigGeneral, byTask: map[string][]kv{}}
	for _, t := range objectKeys(raw.Results) {
		if t.Key == "all" {
			continue // the mean over tasks, not a task
		}
		r.taskOrder = append(r.taskOrder, t.Key)
		r.byTask[t.Key] = objectKeys(t.Value)
	}
	return r, nil
}

// objectKeys lists an object's members in the order written (a key
// given twice keeps its first place and its last value, as Python's json
// reads it).
func objectKeys(raw json.RawMessage) []kv {
	obj, _ := jsonl.ParseObject(raw)
	return obj.Members
}

// taskKey finds the results key of a details file's task: the same name
// (lighteval writes both from one task name), else one that ends with it
// or that it ends with (a suite prefix added or dropped across versions).
func (r *results) taskKey(task string) (string, bool) {
	if _, ok := r.byTask[task]; ok {
		return task, true
	}
	for _, k := range r.taskOrder {
		if strings.HasSuffix(k, "|"+task) || strings.HasSuffix(task, "|"+k) {
			return k, true
		}
	}
	return "", false
}

// metrics are a task's reported metrics; "{m}_stderr" becomes m's Stderr.
func (r *results) metrics(task string) []model.Metric {
	vals := r.byTask[task]
	byName := map[string]float64{}
	for _, e := range vals {
		if f, ok := nonfinite.Float(e.Value); ok {
			byName[e.Key] = f
		}
	}
	var out []model.Metric
	for _, e := range vals {
		f, ok := nonfinite.Float(e.Value)
		if !ok {
			continue
		}
		if base, isErr := strings.CutSuffix(e.Key, "_stderr"); isErr {
			if _, has := byName[base]; has {
				continue
			}
		}
		m := model.Metric{Name: e.Key, Value: f}
		if s, ok := byName[e.Key+"_stderr"]; ok {
			m.Stderr, m.HasStderr = s, true
		}
		out = append(out, m)
	}
	return out
}

// facts are the run's general config.
func (r *results) facts() []model.Fact {
	var out []model.Fact
	str := func(k string) string {
		var s string
		if json.Unmarshal(r.general[k], &s) == nil {
			return s
		}
		if raw, ok := r.general[k]; ok && string(raw) != "null" {
			return strings.TrimSpace(string(raw))
		}
		return ""
	}
	for _, k := range []string{"model_name", "lighteval_sha", "start_time", "end_time", "total_evaluation_time_secondes", "num_fewshot_seeds", "max_samples"} {
		if v := str(k); v != "" {
			key := strings.ReplaceAll(k, "_", " ")
			if k == "model_name" {
				key = "model"
			}
			out = append(out, model.Fact{Key: key, Value: v})
		}
	}
	return out
}

// findResults looks for results_{date}.json of a details file: beside it,
// one folder up (the Hub layout: {date}/details_*.parquet next to
// results_{date}.json), and in the output folder's results/{model}/ (the
// local layout: details/{model}/{date}/).
func findResults(detailsPath, date string) string {
	if date == "" {
		return ""
	}
	name := "results_" + date + ".json"
	dir := source.Dir(detailsPath)
	cands := []string{source.Join(dir, name), source.Join(source.Dir(dir), name)}
	modelDir := source.Dir(dir)
	for a := modelDir; ; a = source.Dir(a) {
		if filepath.Base(a) == "details" {
			if rel, err := filepath.Rel(a, modelDir); err == nil {
				cands = append(cands, source.Join(source.Dir(a), "results", rel, name))
			}
			break
		}
		if p := source.Dir(a); p == a {
			break
		}
	}
	for _, c := range cands {
		if st, err := source.Stat(c); err == nil && st.Mode().IsRegular() {
			return c
		}
	}
	return ""
}

// sortedKeys returns a map's keys sorted.
func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// runKnobs are model config fields that change how lighteval ran a
// model but not what it evaluated (models/*/..._model.py configs: GPUs,
// memory, batching, caching, the async client).
var runKnobs = []string{
	"model_name", "tensor_parallel_size", "data_parallel_size", "pipeline_parallel_size", "gpu_memory_utilization",
	"enable_prefix_caching", "swap_space", "trust_remote_code", "max_num_seqs", "max_num_batched_tokens", "is_async",
	"cache_dir", "batch_size", "device", "model_parallel", "compile", "accelerator", "load_format",
}

// config is the run's model.Origin.Config: config_general.model_config
// (revision, dtype, generation_parameters, a system prompt, the chat
// template switch...) besides the model's name and runKnobs, and
// max_samples, which limits what was evaluated.
func (r *results) config() []model.Fact {
	s := runcfg.New(runKnobs...)
	s.AddJSON("", r.general["model_config"])
	s.AddJSON("max_samples", r.general["max_samples"])
	return s.Facts()
}
