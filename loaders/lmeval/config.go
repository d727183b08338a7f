package lmeval

import (
	"encoding/json"
	"sync"
)

// configParts are the fields of a task's config (configs.<task> of a
// results file) that evalview reads, each as written. The config holds
// the task's prompt templates and few-shot setup, a few KB: the facts,
// the metric rules, the filter names and the re-extractor each decoded
// it whole, four decodes per samples file that took half the time to
// the first screen of a folder of 600.
type configParts struct {
	OutputType     json.RawMessage `json:"output_type"`
	Repeats        json.RawMessage `json:"repeats"`
	FilterList     json.RawMessage `json:"filter_list"`
	ProcessResults json.RawMessage `json:"process_results"`
	MetricList     json.RawMessage `json:"metric_list"`
	DocToChoice    json.RawMessage `json:"doc_to_choice"`
}

// configCache holds each task's decoded config parts; several datasets'
// goroutines (their deep passes) may ask at once.
type configCache struct {
	mu    sync.Mutex
	parts map[string]*configParts
}

// config returns task's config parts; ok is false when the results file
// has no config for it, or one that is not a JSON object.
func (r *results) config(task string) (configParts, bool) {
	raw, ok := r.Configs[task]
	if !ok {
		return configParts{}, false
	}
	c := &r.configs
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.parts[task]; ok {
		if p == nil { // not a JSON object, known already
			return configParts{}, false
		}
		return *p, true
	}
	if c.parts == nil {
		c.parts = map[string]*configParts{}
	}
	var p configParts
	if json.Unmarshal(raw, &p) != nil {
		c.parts[task] = nil
		return configParts{}, false
	}
	c.parts[task] = &p
	return p, true
}
