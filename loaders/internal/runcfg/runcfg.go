// Package runcfg turns a writer's run settings (lm-eval's model_args
// and gen_kwargs, Inspect's model_args, generate config and task_args,
// lighteval's model config) into the facts of model.Origin.Config: the
// settings that tell configurations of one model apart. Each loader
// names the settings of its writer that change how a run ran but not
// what it evaluated (a batch size, a device, GPU memory), which are left
// out: two runs that differ only there are one configuration.
package runcfg

import (
	"bytes"
	"encoding/json"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// Set gathers settings in the writer's order, a key once (the last
// value given wins, as a Python dict update does).
type Set struct {
	facts []model.Fact
	skip  map[string]bool
}

// New is a set that leaves out the settings named in skip (keys as the
// writer spells them, a nested one joined with dots).
func New(skip ...string) *Set {
	s := &Set{skip: map[string]bool{}}
	for _, k := range skip {
		s.skip[k] = true
	}
	return s
}

// Add sets key to value; a skipped key or an empty value is left out.
func (s *Set) Add(key, value string) {
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	if key == "" || value == "" || s.skip[key] {
		return
	}
	for i, f := range s.facts {
		if f.Key == key {
			s.facts[i].Value = value
			return
		}
	}
	s.facts = append(s.facts, model.Fact{Key: key, Value: value})
}

// AddJSON adds a JSON value under key: an object's members one by one
// (prefix.member, nested objects flattened the same way), null left out,
// anything else as its text (a string unquoted, a list as compact JSON).
func (s *Set) AddJSON(key string, raw json.RawMessage) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" || s.skip[key] {
		return
	}
	if raw[0] == '{' {
		// In the order written; a key given twice keeps its first place
		// and its last value, as Python's dict and Add do.
		obj, _ := jsonl.ParseObject(raw)
		for _, m := range obj.Members {
			k := m.Key
			if key != "" {
				k = key + "." + m.Key
			}
			s.AddJSON(k, m.Value)
		}
		return
	}
	s.Add(key, jsonl.Text(raw))
}

// AddArgs adds a "k=v,k=v" string as lm-eval's simple_parse_args_string
// splits it (on commas, then at the first "="), each under prefix.k.
func (s *Set) AddArgs(prefix, args string) {
	for _, part := range strings.Split(args, ",") {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		if prefix != "" {
			k = prefix + "." + strings.TrimSpace(k)
		}
		s.Add(k, strings.Trim(strings.TrimSpace(v), `"'`))
	}
}

// Facts are the settings gathered, in the writer's order.
func (s *Set) Facts() []model.Fact { return s.facts }
