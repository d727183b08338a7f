package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"evalview/loaders/internal/zipsafe"
)

// agent_pool.eval is an agent log as inspect_ai writes it since 0.3.195:
// model events keep input_refs into the sample's message pool, and the
// pool's long texts are attachments. Its members keep the writer's field
// order (EvalSample: ... events, ..., attachments, events_data, limit),
// which matters here: the pool comes after the attachments it references.
// Sample 1 has the pool in events_data (0.3.200 on), sample 2 in a
// top-level message_pool (0.3.195 to 0.3.199), sample 3 the model inputs
// inline (before 0.3.195).

// ordered is a JSON object that keeps its keys' order.
type ordered []okv

type okv struct {
	k string
	v any
}

// MarshalJSON writes the keys in order.
func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.k)
		v, err := json.Marshal(e.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// poolVariant is where a sample keeps its model inputs.
type poolVariant int

const (
	eventsData poolVariant = iota
	topLevelPool
	inline
)

const (
	hashQuestion = "0c4f2b1e9a7d3f5e8b6a4c2d1e0f9a8b"
	hashResult   = "5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"
	hashEvent    = "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d"
)

func msg(role string, content any, extra ...okv) ordered {
	return append(ordered{{"role", role}, {"content", content}}, extra...)
}

// agentSample is one sample of the agent log.
func agentSample(id int, v poolVariant) ordered {
	question := fmt.Sprintf("Find the population of the city in file %d and answer with the number.", id)
	result := strings.Repeat(fmt.Sprintf("row %d: Lima 10,092,000; ", id), 12)
	system := msg("system", "You are an agent with a read_file tool.")
	user := msg("user", "attachment://"+hashQuestion, okv{"source", "input"})
	call := msg("assistant", "", okv{"tool_calls", []ordered{{{"id", "call_1"}, {"function", "read_file"}, {"arguments", obj{"path": fmt.Sprintf("city_%d.txt", id)}}}}}, okv{"model", "gpt-4o-mini"})
	tool := msg("tool", "attachment://"+hashResult, okv{"tool_call_id", "call_1"}, okv{"function", "read_file"})
	final := msg("assistant", "10092000", okv{"model", "gpt-4o-mini"})
	ts := func(n int) string { return fmt.Sprintf("2026-03-20T10:00:0%d.000000+00:00", n) }
	model1 := ordered{{"timestamp", ts(1)}, {"event", "model"}, {"model", "openai/gpt-4o-mini"}}
	model2 := ordered{{"timestamp", ts(3)}, {"event", "model"}, {"model", "openai/gpt-4o-mini"}}
	switch v {
	case inline:
		model1 = append(model1, okv{"input", []ordered{system, user}})
		model2 = append(model2, okv{"input", []ordered{system, user, call, tool}})
	default:
		model1 = append(model1, okv{"input", []any{}}, okv{"input_refs", [][2]int{{0, 2}}})
		model2 = append(model2, okv{"input", []any{}}, okv{"input_refs", [][2]int{{0, 4}}})
	}
	model1 = append(model1, okv{"output", obj{"choices": []obj{{"message": call}}, "usage": obj{"input_tokens": 50, "output_tokens": 9}}})
	model2 = append(model2, okv{"output", obj{"completion": "10092000", "choices": []obj{}, "usage": obj{"input_tokens": 160, "output_tokens": 4}}})
	events := []any{
		ordered{{"timestamp", ts(0)}, {"event", "span_begin"}, {"id", "s1"}, {"type", "solvers"}, {"name", "solvers"}},
		model1,
		ordered{{"timestamp", ts(2)}, {"event", "tool"}, {"id", "call_1"}, {"function", "read_file"}, {"arguments", obj{"path": "x"}}, {"result", "attachment://" + hashEvent}},
		model2,
		ordered{{"timestamp", ts(4)}, {"event", "span_end"}, {"id", "s1"}},
	}
	// condense_sample pools long texts of the events (and so of the pool)
	// into attachments but leaves the messages' inline.
	s := ordered{
		{"id", id}, {"epoch", 1}, {"input", question}, {"target", "10092000"},
		{"messages", []ordered{system, msg("user", question, okv{"source", "input"}), call, msg("tool", result, tool[2], tool[3]), final}},
		{"output", obj{"model": "gpt-4o-mini", "completion": "10092000", "choices": []obj{{"message": final, "stop_reason": "stop"}}}},
		{"scores", obj{"match": obj{"value": "C", "answer": "10092000"}}},
		{"metadata", obj{}}, {"store", obj{}},
		{"events", events},
		{"total_time", 3.5}, {"uuid", fmt.Sprintf("uuid-agent-%d", id)},
		// The tool event's result and the pool's tool message are
		// condensed apart (the event keeps the tool's raw output), so the
		// pool's attachment is referenced by nothing read before it.
		{"attachments", obj{hashQuestion: question, hashResult: result, hashEvent: "read " + fmt.Sprint(len(result)) + " bytes"}},
	}
	pool := []ordered{system, user, call, tool}
	switch v {
	case eventsData:
		s = append(s, okv{"events_data", obj{"messages": pool, "calls": []any{}}})
	case topLevelPool:
		s = append(s, okv{"message_pool", pool}, okv{"call_pool", []any{}})
	}
	return s
}

// agentLog is agent_pool.eval.
func agentLog() []byte {
	spec := specOf("agent", 1, nil)
	spec["packages"] = obj{"inspect_ai": "0.3.205"}
	var sums []obj
	ms := []member{{name: startJSON, data: js(obj{"version": 2, "eval": spec, "plan": plan()}, false)}}
	for i, v := range []poolVariant{eventsData, topLevelPool, inline} {
		s := agentSample(i+1, v)
		b, _ := json.Marshal(s)
		ms = append(ms, member{name: fmt.Sprintf("samples/%d_epoch_1.json", i+1), data: string(b)})
		sums = append(sums, obj{"id": i + 1, "epoch": 1, "input": s[2].v, "target": "10092000", "scores": obj{"match": obj{"value": "C", "answer": "10092000"}},
			"completed": true, "message_count": 5})
	}
	results := obj{"total_samples": 3, "completed_samples": 3, "scores": []obj{{"name": "match", "scorer": "match", "params": obj{},
		"metrics": obj{"accuracy": obj{"name": "accuracy", "value": 1.0, "params": obj{}}}}}}
	header := obj{"version": 2, "status": "success", "eval": spec, "plan": plan(), "results": results, "stats": obj{}}
	ms = append(ms, member{name: summariesJSON, data: js(sums, false)}, member{name: headerJSON, data: js(header, false)})
	for i := range ms {
		ms[i].method = zipsafe.MethodZstd
	}
	return zipOf(ms)
}
