package main

import (
	"archive/zip"
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"
)

// methodZstd is zip's method number for zstd, which Inspect writes.
const methodZstd = 93

// The Inspect log of the scale table: an .eval of agent samples as
// inspect_ai (0.3.200 and later) writes them, zstd members in its order
// (journal start, samples, journal summaries, summaries.json,
// reductions.json, header.json), each sample with a long conversation
// (tool results of a few KB, a long final answer), a transcript of model
// and tool events whose inputs are pooled (input_refs into
// events_data.messages) and long texts condensed into attachments. Text
// is drawn word by word from a fixed vocabulary, so that it compresses
// about as model text does (3 to 4 times); the file is about the size
// asked for.

// genWords is the vocabulary.
var genWords = func() []string {
	syl := []string{"ka", "lo", "mi", "ren", "tas", "vo", "qu", "ix", "del", "pra", "sun", "ter", "bo", "nel", "gra", "fi"}
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]string, 4096)
	for i := range out {
		var b strings.Builder
		for range 1 + r.IntN(3) {
			b.WriteString(syl[r.IntN(len(syl))])
		}
		out[i] = b.String()
	}
	return out
}()

// corpus is 32 MB of pseudo-random prose, with a newline now and then
// (JSON-escaped when it is written), from which texts are cut: drawing
// each word anew made the generator too slow for a GB. A cut repeats
// other text only 32 MB away, past zstd's window, so it compresses as
// fresh text does.
// It is built on first use, in the generator's child process only: a
// child's peak memory as the kernel counts it starts at its parent's.
var corpus = sync.OnceValue(func() string {
	r := rand.New(rand.NewPCG(3, 5))
	var b strings.Builder
	b.Grow(32<<20 + 64)
	for b.Len() < 32<<20 {
		b.WriteString(genWords[r.IntN(len(genWords))])
		switch r.IntN(24) {
		case 0:
			b.WriteString(".\n")
		case 1:
			b.WriteString(", ")
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
})

// textGen cuts pseudo-random prose from the corpus.
type textGen struct{ r *rand.Rand }

// text returns n bytes of prose.
func (g textGen) text(n int) string {
	c := corpus()
	i := g.r.IntN(len(c) - n)
	return c[i : i+n]
}

// evalGen is what one generated sample is made of.
type evalGen struct {
	g     textGen
	turns int // tool turns per sample
}

// sample writes sample id's member JSON to w and returns its summary.
func (e evalGen) sample(w io.Writer, id int) map[string]any {
	g := e.g
	question := g.text(300 + g.r.IntN(400))
	answer := g.text(6000 + g.r.IntN(4000))
	correct := id%3 != 0
	value := map[bool]string{true: "C", false: "I"}[correct]
	sys := map[string]any{"role": "system", "content": "You are a careful research agent with a search tool."}
	user := map[string]any{"role": "user", "content": question, "source": "input"}
	messages := []any{sys, user}
	pool := []any{sys, map[string]any{"role": "user", "content": "attachment://" + hash(id, 0), "source": "input"}}
	attachments := map[string]string{hash(id, 0): question}
	var events []any
	ts := func(k int) string {
		return time.Date(2026, 4, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(id*1000+k) * time.Second).Format("2006-01-02T15:04:05.000000+00:00")
	}
	events = append(events,
		map[string]any{"timestamp": ts(0), "event": "span_begin", "id": "init", "type": "init", "name": "init"},
		map[string]any{"timestamp": ts(0), "event": "sample_init", "sample": map[string]any{"input": "attachment://" + hash(id, 0), "target": "x"}},
		map[string]any{"timestamp": ts(0), "event": "span_end", "id": "init"},
		map[string]any{"timestamp": ts(1), "event": "span_begin", "id": "solvers", "type": "solvers", "name": "solvers"})
	for t := 1; t <= e.turns; t++ {
		callID := "call_" + strconv.Itoa(t)
		args := map[string]any{"query": g.text(40)}
		call := map[string]any{"role": "assistant", "content": g.text(200), "model": "gpt-5-mini",
			"tool_calls": []any{map[string]any{"id": callID, "function": "search", "arguments": args, "type": "function"}}}
		result := g.text(2500 + g.r.IntN(2000))
		h := hash(id, t)
		attachments[h] = result
		tool := map[string]any{"role": "tool", "content": result, "tool_call_id": callID, "function": "search"}
		events = append(events,
			map[string]any{"timestamp": ts(2 * t), "event": "model", "model": "openai/gpt-5-mini", "input": []any{},
				"input_refs": [][2]int{{0, len(pool)}}, "tools": []any{}, "tool_choice": "auto", "config": map[string]any{},
				"output": map[string]any{"model": "gpt-5-mini", "choices": []any{map[string]any{"message": call, "stop_reason": "tool_calls"}},
					"usage": map[string]any{"input_tokens": 900 * t, "output_tokens": 120, "total_tokens": 900*t + 120}}},
			map[string]any{"timestamp": ts(2*t + 1), "event": "tool", "type": "function", "id": callID, "function": "search",
				"arguments": args, "result": "attachment://" + h})
		messages = append(messages, call, tool)
		pool = append(pool, call, map[string]any{"role": "tool", "content": "attachment://" + h, "tool_call_id": callID, "function": "search"})
	}
	final := map[string]any{"role": "assistant", "content": answer, "model": "gpt-5-mini"}
	messages = append(messages, final)
	events = append(events,
		map[string]any{"timestamp": ts(1000), "event": "model", "model": "openai/gpt-5-mini", "input": []any{}, "input_refs": [][2]int{{0, len(pool)}},
			"output": map[string]any{"completion": answer[:200], "choices": []any{}, "usage": map[string]any{"input_tokens": 9000, "output_tokens": 1500}}},
		map[string]any{"timestamp": ts(1000), "event": "span_end", "id": "solvers"},
		map[string]any{"timestamp": ts(1001), "event": "score", "score": map[string]any{"value": value, "answer": answer[:80]}})
	scores := map[string]any{"match": map[string]any{"value": value, "answer": answer[:80], "explanation": "compared with the target"}}
	// EvalSample's field order, as pydantic writes it.
	fields := []struct {
		k string
		v any
	}{
		{"id", id}, {"epoch", 1}, {"input", question}, {"target", "x"}, {"messages", messages},
		{"output", map[string]any{"model": "gpt-5-mini", "completion": answer, "choices": []any{map[string]any{"message": final, "stop_reason": "stop"}},
			"usage": map[string]any{"input_tokens": 9000, "output_tokens": 1500, "total_tokens": 10500}}},
		{"scores", scores}, {"metadata", map[string]any{"topic": genWords[id%len(genWords)]}}, {"store", map[string]any{}},
		{"events", events}, {"model_usage", map[string]any{}}, {"total_time", 42.5}, {"working_time", 40.1},
		{"uuid", fmt.Sprintf("uuid-%06d", id)}, {"attachments", attachments},
		{"events_data", map[string]any{"messages": pool, "calls": []any{}}},
	}
	io.WriteString(w, "{")
	for i, f := range fields {
		if i > 0 {
			io.WriteString(w, ",")
		}
		k, _ := json.Marshal(f.k)
		v, _ := json.Marshal(f.v)
		w.Write(k)
		io.WriteString(w, ":")
		w.Write(v)
	}
	io.WriteString(w, "}")
	return map[string]any{"id": id, "epoch": 1, "input": question[:200], "target": "x", "scores": scores, "metadata": map[string]any{},
		"total_time": 42.5, "working_time": 40.1, "uuid": fmt.Sprintf("uuid-%06d", id), "completed": true, "message_count": len(messages)}
}

func hash(id, k int) string { return fmt.Sprintf("%016x%016x", id, k) }

// generateEval writes an .eval of about size bytes at path and returns
// how many samples it holds.
func generateEval(path string, size int64) (int, error) {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	cw := &countWriter{w: bw}
	zw := zip.NewWriter(cw)
	// One encoder for every member, reset for each: a new one per member
	// spent most of the time allocating and clearing its tables.
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		return 0, err
	}
	zw.RegisterCompressor(methodZstd, func(w io.Writer) (io.WriteCloser, error) {
		enc.Reset(w)
		return enc, nil
	})
	write := func(name string, v any) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: methodZstd})
		if err != nil {
			return err
		}
		return json.NewEncoder(w).Encode(v)
	}
	spec := map[string]any{"eval_id": "benchEval", "run_id": "benchRun", "created": "2026-04-01T10:00:00+00:00", "task": "research", "task_id": "T",
		"dataset": map[string]any{"name": "research"}, "model": "openai/gpt-5-mini", "config": map[string]any{"epochs": 1}, "packages": map[string]any{"inspect_ai": "0.3.210"}}
	plan := map[string]any{"name": "plan", "steps": []any{map[string]any{"solver": "react"}}}
	if err := write("_journal/start.json", map[string]any{"version": 2, "eval": spec, "plan": plan}); err != nil {
		return 0, err
	}
	e := evalGen{g: textGen{rand.New(rand.NewPCG(7, 11))}, turns: 24}
	var sums []any
	for id := 1; cw.n < size; id++ {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("samples/%d_epoch_1.json", id), Method: methodZstd})
		if err != nil {
			return 0, err
		}
		sums = append(sums, e.sample(w, id))
	}
	n := len(sums)
	right := 0
	for i := range n {
		if (i+1)%3 != 0 {
			right++
		}
	}
	acc := float64(right) / float64(n)
	results := map[string]any{"total_samples": n, "completed_samples": n, "scores": []any{map[string]any{"name": "match", "scorer": "match", "params": map[string]any{},
		"metrics": map[string]any{"accuracy": map[string]any{"name": "accuracy", "value": acc, "params": map[string]any{}}}}}}
	for _, m := range []struct {
		name string
		v    any
	}{
		{"_journal/summaries/1.json", sums}, {"summaries.json", sums},
		{"header.json", map[string]any{"version": 2, "status": "success", "eval": spec, "plan": plan, "results": results,
			"stats": map[string]any{"started_at": "2026-04-01T10:00:00+00:00", "completed_at": "2026-04-01T18:00:00+00:00"}}},
	} {
		if err := write(m.name, m.v); err != nil {
			return 0, err
		}
	}
	if err := zw.Close(); err != nil {
		return 0, err
	}
	if err := bw.Flush(); err != nil {
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	return n, os.Rename(path+".tmp", path)
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
