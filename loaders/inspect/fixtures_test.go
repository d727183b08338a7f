package inspect

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"evalview/loaders/internal/zipsafe"
)

// The fixtures in testdata/inspect are written by this file, in the
// shapes inspect_ai's writer gives (log/_recorders/eval.py: members in the
// order it writes them, JSON with indent=None for zstd logs and indent=2
// for the older deflate ones, NaN as a bare literal). `go test -run
// TestFixtures -update` rewrites them; the test fails when they drift.

var fixtureDir = filepath.Join("..", "..", "testdata", "inspect")

// member is one zip member to write.
type member struct {
	name   string
	data   string
	method uint16
}

// zipOf writes members in order with a fixed time, so the bytes are stable.
func zipOf(ms []member) []byte { return zipWith(ms, nil) }

// zipWith is zipOf, then extra adds what it wants (hostile entries) before
// the zip is closed.
func zipWith(ms []member, extra func(zw *zip.Writer)) []byte {
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zipsafe.MethodZstd, func(w io.Writer) (io.WriteCloser, error) {
		return zstd.NewWriter(w, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault))
	})
	for _, m := range ms {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: m.method, Modified: time.Date(2025, 7, 5, 9, 59, 0, 0, time.UTC)})
		must(err)
		_, err = io.WriteString(fw, m.data)
		must(err)
	}
	if extra != nil {
		extra(zw)
	}
	must(zw.Close())
	return buf.Bytes()
}

// js renders v as compact JSON, or indented when indent is set; "NaN!"
// strings become the bare NaN literal Python writes.
func js(v any, indent bool) string {
	var b []byte
	if indent {
		b, _ = json.MarshalIndent(v, "", "  ")
	} else {
		b, _ = json.Marshal(v)
	}
	return strings.ReplaceAll(string(b), `"NaN!"`, "NaN")
}

type obj = map[string]any

func specOf(task string, epochs int, reducer []string) obj {
	cfg := obj{"epochs": epochs}
	if reducer != nil {
		cfg["epochs_reducer"] = reducer
	}
	return obj{
		"eval_id": "fixtureEval" + task, "run_id": "fixtureRun", "created": "2025-07-05T09:59:00+00:00",
		"task": task, "task_id": "T1", "task_version": 0,
		"dataset": obj{"name": task, "samples": 3, "sample_ids": []any{1, 2, 3}},
		"model":   "openai/gpt-4o-mini", "config": cfg, "packages": obj{"inspect_ai": "0.3.140"},
	}
}

func plan() obj {
	return obj{"name": "plan", "steps": []obj{{"solver": "system_message", "params": obj{}}, {"solver": "generate", "params": obj{}}}, "config": obj{}}
}

// sample builds an EvalSample with a short transcript; the user turn is
// condensed into an attachment, as condense_sample does.
func sample(id any, epoch int, input, target, answer, value string, extra obj) obj {
	hash := fmt.Sprintf("%032x", len(input)*7919+epoch)
	s := obj{
		"id": id, "epoch": epoch, "input": input, "target": target,
		"messages": []obj{
			{"id": "m1", "content": "Answer with one word.", "role": "system"},
			{"id": "m2", "content": "attachment://" + hash, "source": "input", "role": "user"},
			{"id": "m3", "content": "", "source": "generate", "role": "assistant", "model": "gpt-4o-mini",
				"tool_calls": []obj{{"id": "call_1", "function": "lookup", "arguments": obj{"q": input}, "type": "function"}}},
			{"id": "m4", "content": "found it", "role": "tool", "tool_call_id": "call_1", "function": "lookup"},
			{"id": "m5", "content": []obj{{"type": "reasoning", "reasoning": "The lookup says " + answer + "."}, {"type": "text", "text": answer}}, "source": "generate", "role": "assistant"},
		},
		"output": obj{"model": "gpt-4o-mini-2024-07-18", "choices": []obj{{"message": obj{"content": answer, "role": "assistant"}, "stop_reason": "stop"}},
			"completion": answer, "usage": obj{"input_tokens": 42, "output_tokens": 3, "total_tokens": 45}},
		"scores":   obj{"match": scoreOf(value, answer)},
		"metadata": obj{"category": "geo"},
		"store":    obj{},
		"events": []obj{
			{"span_id": "s1", "timestamp": "2025-07-05T09:59:01.100000+00:00", "event": "span_begin", "id": "s1", "type": "init", "name": "init"},
			{"span_id": "s1", "timestamp": "2025-07-05T09:59:01.110000+00:00", "event": "sample_init", "sample": obj{"input": "attachment://" + hash, "target": target}},
			{"span_id": "s1", "timestamp": "2025-07-05T09:59:01.120000+00:00", "event": "span_end", "id": "s1"},
			{"span_id": "s2", "timestamp": "2025-07-05T09:59:01.200000+00:00", "event": "span_begin", "id": "s2", "type": "solvers", "name": "solvers"},
			{"span_id": "s2", "timestamp": "2025-07-05T09:59:01.300000+00:00", "event": "model", "model": "openai/gpt-4o-mini", "input": []obj{}, "tools": []obj{}, "tool_choice": "auto", "config": obj{},
				"output": obj{"choices": []obj{{"message": obj{"content": "", "role": "assistant", "tool_calls": []obj{{"id": "call_1", "function": "lookup", "arguments": obj{"q": "x"}}}}}}, "usage": obj{"input_tokens": 30, "output_tokens": 5}}},
			{"span_id": "s2", "timestamp": "2025-07-05T09:59:01.400000+00:00", "event": "tool", "type": "function", "id": "call_1", "function": "lookup", "arguments": obj{"q": "x"}, "result": "found it"},
			{"span_id": "s2", "timestamp": "2025-07-05T09:59:01.500000+00:00", "event": "model", "model": "openai/gpt-4o-mini", "input": []obj{}, "tools": []obj{}, "tool_choice": "auto", "config": obj{},
				"output": obj{"completion": answer, "choices": []obj{}, "usage": obj{"input_tokens": 42, "output_tokens": 3}}},
			{"span_id": "s2", "timestamp": "2025-07-05T09:59:01.600000+00:00", "event": "span_end", "id": "s2"},
			{"span_id": "s3", "timestamp": "2025-07-05T09:59:01.700000+00:00", "event": "span_begin", "id": "s3", "type": "scorers", "name": "scorers"},
			{"span_id": "s3", "timestamp": "2025-07-05T09:59:01.800000+00:00", "event": "score", "score": scoreOf(value, answer), "target": target, "intermediate": false},
			{"span_id": "s3", "timestamp": "2025-07-05T09:59:01.900000+00:00", "event": "span_end", "id": "s3"},
		},
		"model_usage": obj{"openai/gpt-4o-mini": obj{"input_tokens": 72, "output_tokens": 8, "total_tokens": 80}},
		"total_time":  1.2, "working_time": 1.1, "uuid": fmt.Sprintf("uuid-%v-%d", id, epoch),
		"attachments": obj{hash: input, "ffff0000ffff0000ffff0000ffff0000": "an attachment nothing references"},
	}
	for k, v := range extra {
		s[k] = v
	}
	return s
}

func scoreOf(value, answer string) obj {
	sc := obj{"value": value, "answer": answer, "explanation": "compared " + answer}
	if value == "NaN" {
		sc["value"] = "NaN!"
	}
	return sc
}

// summaryOf is EvalSample.summary().
func sumOf(s obj) obj {
	out := obj{"id": s["id"], "epoch": s["epoch"], "input": s["input"], "target": s["target"], "metadata": s["metadata"],
		"scores": s["scores"], "model_usage": s["model_usage"], "total_time": s["total_time"], "working_time": s["working_time"],
		"uuid": s["uuid"], "completed": true, "message_count": len(s["messages"].([]obj))}
	if e, ok := s["error"].(obj); ok {
		out["error"] = e["message"]
	}
	if l, ok := s["limit"].(obj); ok {
		out["limit"] = l["type"]
	}
	return out
}

// finishedLog is a log of 3 samples × 2 epochs: sample 1 right in both,
// sample 2 right then wrong (0.5 reduced), sample 3 with an unscored (NaN)
// epoch and an error in the other, then a message limit.
func finishedLog(method uint16, indent bool) []byte { return finishedLogOf(method, indent, true) }

// finishedLogOf is finishedLog, with or without its errored epoch (the
// demo must load without errors).
func finishedLogOf(method uint16, indent, withError bool) []byte {
	return zipOf(finishedMembers(method, indent, withError))
}

// finishedMembers are finishedLogOf's members, in the order written.
func finishedMembers(method uint16, indent, withError bool) []member {
	var samples []obj
	add := func(s obj) { samples = append(samples, s) }
	add(sample(1, 1, "What is the capital of France?", "Paris", "Paris", "C", nil))
	add(sample(1, 2, "What is the capital of France?", "Paris", "Paris", "C", nil))
	add(sample(2, 1, "What is the capital of Peru?", "Lima", "Lima", "C", nil))
	add(sample(2, 2, "What is the capital of Peru?", "Lima", "Cusco", "I", obj{"limit": obj{"type": "message", "limit": 10}}))
	add(sample(3, 1, "What is the capital of Chad?", "N'Djamena", "", "NaN", nil))
	errored := obj{"error": obj{"message": "RuntimeError: sandbox died", "traceback": "Traceback (most recent call last):\n  RuntimeError: sandbox died"}}
	if !withError {
		errored = nil
	}
	add(sample(3, 2, "What is the capital of Chad?", "N'Djamena", "", "I", errored))
	spec := specOf("capitals", 2, nil)
	var sums []obj
	for _, s := range samples {
		sums = append(sums, sumOf(s))
	}
	// Reduced with mean: 1.0, 0.5, 0.0 (NaN skipped); accuracy over 3.
	reductions := []obj{{"scorer": "match", "samples": []obj{{"value": 1.0, "sample_id": 1}, {"value": 0.5, "sample_id": 2}, {"value": 0.0, "sample_id": 3}}}}
	results := obj{"total_samples": 6, "completed_samples": 5, "scores": []obj{{"name": "match", "scorer": "match", "scored_samples": 3, "unscored_samples": 0, "params": obj{},
		"metrics": obj{"accuracy": obj{"name": "accuracy", "value": 0.5, "params": obj{}}, "stderr": obj{"name": "stderr", "value": 0.28867513459481287, "params": obj{}}}}}}
	header := obj{"version": 2, "status": "success", "eval": spec, "plan": plan(), "results": results,
		"stats": obj{"started_at": "2025-07-05T09:59:00+00:00", "completed_at": "2025-07-05T09:59:09+00:00",
			"model_usage": obj{"openai/gpt-4o-mini": obj{"input_tokens": 432, "output_tokens": 48, "total_tokens": 480}}}}
	ms := []member{{name: "_journal/start.json", data: js(obj{"version": 2, "eval": spec, "plan": plan()}, indent)}}
	for _, s := range samples {
		ms = append(ms, member{name: fmt.Sprintf("samples/%v_epoch_%d.json", s["id"], s["epoch"]), data: js(s, indent)})
	}
	ms = append(ms,
		member{name: "_journal/summaries/1.json", data: js(sums, indent)},
		member{name: "summaries.json", data: js(sums, indent)},
		member{name: "reductions.json", data: js(reductions, indent)},
		member{name: "header.json", data: js(header, indent)})
	for i := range ms {
		ms[i].method = method
	}
	return ms
}

// runningLog is a log still being written: only the journal, two flushes,
// and sample 2 re-logged (a requeued sample: its member and summary are
// written twice, the last one winning).
func runningLog() []byte {
	spec := specOf("capitals", 1, nil)
	s1 := sample(1, 1, "What is the capital of France?", "Paris", "Paris", "C", nil)
	s2a := sample(2, 1, "What is the capital of Peru?", "Lima", "", "I", obj{"error": obj{"message": "TimeoutError", "traceback": "..."}})
	s2b := sample(2, 1, "What is the capital of Peru?", "Lima", "Lima", "C", nil)
	ms := []member{
		{name: "_journal/start.json", data: js(obj{"version": 2, "eval": spec, "plan": plan()}, false)},
		{name: "samples/1_epoch_1.json", data: js(s1, false)},
		{name: "samples/2_epoch_1.json", data: js(s2a, false)},
		{name: "_journal/summaries/1.json", data: js([]obj{sumOf(s1), sumOf(s2a)}, false)},
		{name: "samples/2_epoch_1.json", data: js(s2b, false)},
		{name: "_journal/summaries/2.json", data: js([]obj{sumOf(s2b)}, false)},
	}
	for i := range ms {
		ms[i].method = zipsafe.MethodZstd
	}
	return zipOf(ms)
}

// brokenLog holds what check must flag: a summary without its member, a
// reduction that disagrees with the epochs, a header metric that the
// summaries do not give, a member no summary lists.
func brokenLog() []byte {
	spec := specOf("capitals", 1, nil)
	s1 := sample(1, 1, "What is the capital of France?", "Paris", "Paris", "C", nil)
	s2 := sample(2, 1, "What is the capital of Peru?", "Lima", "Cusco", "I", nil)
	s9 := sample(9, 1, "Orphan?", "x", "x", "C", nil)
	reductions := []obj{{"scorer": "match", "samples": []obj{{"value": 1.0, "sample_id": 1}, {"value": 1.0, "sample_id": 2}}}}
	results := obj{"total_samples": 2, "completed_samples": 2, "scores": []obj{{"name": "match", "scorer": "match", "params": obj{},
		"metrics": obj{"accuracy": obj{"name": "accuracy", "value": 1.0, "params": obj{}}, "stderr": obj{"name": "stderr", "value": 0.0, "params": obj{}}}}}}
	header := obj{"version": 2, "status": "success", "eval": spec, "plan": plan(), "results": results, "stats": obj{}}
	ms := []member{
		{name: "_journal/start.json", data: js(obj{"version": 2, "eval": spec, "plan": plan()}, false)},
		{name: "samples/1_epoch_1.json", data: js(s1, false)},
		{name: "samples/9_epoch_1.json", data: js(s9, false)},
		{name: "summaries.json", data: js([]obj{sumOf(s1), sumOf(s2)}, false)},
		{name: "reductions.json", data: js(reductions, false)},
		{name: "header.json", data: js(header, false)},
	}
	for i := range ms {
		ms[i].method = zip.Deflate
	}
	return zipOf(ms)
}

// jsonLog is the .json format: the whole EvalLog, samples inline.
func jsonLog() []byte {
	spec := specOf("capitals", 1, nil)
	s1 := sample(1, 1, "What is the capital of France?", "Paris", "Paris", "C", nil)
	s2 := sample(2, 1, "What is the capital of Peru?", "Lima", "Cusco", "I", nil)
	results := obj{"total_samples": 2, "completed_samples": 2, "scores": []obj{{"name": "match", "scorer": "match", "params": obj{},
		"metrics": obj{"accuracy": obj{"name": "accuracy", "value": 0.5, "params": obj{}}, "stderr": obj{"name": "stderr", "value": 0.5, "params": obj{}}}}}}
	// EvalLog's field order: version, status, eval, plan, results, stats,
	// samples, reductions.
	var b strings.Builder
	b.WriteString("{\n  \"version\": 2,\n  \"status\": \"success\",\n  \"eval\": " + js(spec, false) + ",\n  \"plan\": " + js(plan(), false) +
		",\n  \"results\": " + js(results, false) + ",\n  \"stats\": {},\n  \"samples\": [\n    " + js(s1, true) + ",\n    " + js(s2, true) +
		"\n  ],\n  \"reductions\": " + js([]obj{{"scorer": "match", "samples": []obj{{"value": 1.0, "sample_id": 1}, {"value": 0.0, "sample_id": 2}}}}, false) + "\n}\n")
	return []byte(b.String())
}

// fixtures lists every generated file.
func fixtures() map[string][]byte {
	return map[string][]byte{
		"capitals_zstd.eval":    finishedLog(zipsafe.MethodZstd, false),
		"capitals_deflate.eval": finishedLog(zip.Deflate, true),
		"running.eval":          runningLog(),
		"broken.eval":           brokenLog(),
		"capitals.json":         jsonLog(),
		"agent_pool.eval":       agentLog(),
		// The demo (evalview --demo) embeds this one.
		"../demo/inspect/capitals.eval": finishedLogOf(zipsafe.MethodZstd, false, false),
	}
}

var update = flag.Bool("update", false, "rewrite the generated fixtures and the golden files")

func TestFixtures(t *testing.T) {
	regen := *update
	for name, data := range fixtures() {
		p := filepath.Join(fixtureDir, name)
		if regen {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("%s: %v (run go test -run TestFixtures -update)", name, err)
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%s differs from what the generator writes (run go test -run TestFixtures -update)", name)
		}
	}
}
