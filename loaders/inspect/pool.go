package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"evalview/loaders/internal/jsonscan"
	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// Since inspect_ai 0.3.195 (March 2026) a model event's input is written
// once per sample: the event keeps input_refs, [start, end) ranges into a
// pool of messages, and the pool sits after the events, in
// events_data.messages (message_pool at the sample's top level in 0.3.195
// to 0.3.199, behind INSPECT_LOG_FORMAT_V3); event/_pool.py expands the
// ranges as pool[start:end]. The pool's messages are condensed like the
// events: their long texts are attachment:// references.
//
// The transcript shows each model event's new input: the messages after
// the last assistant message of its input (the user turn or the tool
// results this call answers), at most inputShown of them. Only those pool
// positions are kept while the pool streams by.

// inputShown is how many of a model event's last input messages are
// shown.
const inputShown = 3

// pool is the part of a sample's message pool the kept events use.
type pool struct {
	// seen is set once a pool was read; size counts its messages.
	seen bool
	size int
	msgs map[int]json.RawMessage
}

// poolEvent is what a kept event tells about its pooled input.
type poolEvent struct {
	Event     string            `json:"event"`
	InputRefs []json.RawMessage `json:"input_refs"`
}

// refRange is one [start, end) range of input_refs.
type refRange struct{ start, end int }

// parseRefs reads input_refs, dropping what is not a pair of
// non-negative ints (Inspect writes nothing else).
func parseRefs(raw []json.RawMessage) []refRange {
	var out []refRange
	for _, r := range raw {
		var p []int
		if json.Unmarshal(r, &p) != nil || len(p) != 2 || p[0] < 0 || p[1] < p[0] {
			continue
		}
		out = append(out, refRange{p[0], p[1]})
	}
	return out
}

// lastPositions returns up to k of the last positions refs name, last
// first, below size (a slice past the pool's end is cut, as Python's is;
// size < 0: unknown).
func lastPositions(refs []refRange, k, size int) []int {
	var out []int
	for i := len(refs) - 1; i >= 0 && len(out) < k; i-- {
		end := refs[i].end
		if size >= 0 {
			end = min(end, size)
		}
		for p := end - 1; p >= refs[i].start && len(out) < k; p-- {
			out = append(out, p)
		}
	}
	return out
}

// countRefs is how many messages refs expand to in a pool of size.
func countRefs(refs []refRange, size int) int {
	n := 0
	for _, r := range refs {
		if e := min(r.end, size); e > r.start {
			n += e - r.start
		}
	}
	return n
}

// poolNeed lists the pool positions the kept events show: each model
// event's last inputShown+1 (one more, to find where the new input
// starts). nil when the events are not read yet: then the pool is kept up
// to fieldCap, since anything may need it.
func (d *sampleDetail) poolNeed() map[int]bool {
	if !d.eventsRead {
		return nil
	}
	need := map[int]bool{}
	for _, raw := range d.events {
		if !bytes.Contains(raw, []byte(`"input_refs"`)) {
			continue
		}
		var e poolEvent
		if json.Unmarshal(raw, &e) != nil || e.Event != "model" {
			continue
		}
		for _, p := range lastPositions(parseRefs(e.InputRefs), inputShown+1, -1) {
			need[p] = true
		}
	}
	return need
}

// readPool reads a message pool array, keeping the positions needed.
func (d *sampleDetail) readPool(sc *jsonscan.Scanner) error {
	need := d.poolNeed()
	d.pool.seen = true
	if d.pool.msgs == nil {
		d.pool.msgs = map[int]json.RawMessage{}
	}
	kept := 0
	return sc.Array(func(i int) error {
		d.pool.size = i + 1
		if d.light || need != nil && !need[i] || kept >= fieldCap {
			return sc.Skip()
		}
		raw, cut, err := sc.Capture(eventCap)
		if err != nil || cut {
			return err
		}
		kept += len(raw)
		d.pool.msgs[i] = nonfinite.Sanitize(raw)
		return nil
	})
}

// readEventsData reads events_data: its messages pool; the calls pool
// (raw provider requests) is not shown.
func (d *sampleDetail) readEventsData(sc *jsonscan.Scanner) error {
	if c, ok := sc.Peek(); ok && c != '{' {
		return sc.Skip() // null
	}
	return sc.Object(func(key string) error {
		if key == "messages" {
			return d.readPool(sc)
		}
		return sc.Skip()
	})
}

// pooled reports whether a kept event takes its input from the pool.
func (d *sampleDetail) pooled() bool {
	for _, raw := range d.events {
		if bytes.Contains(raw, []byte(`"input_refs"`)) {
			return true
		}
	}
	return false
}

// missingAttachments are the attachment hashes the kept pool messages
// reference that were not kept.
func (d *sampleDetail) missingAttachments() map[string]bool {
	out := map[string]bool{}
	for _, m := range d.pool.msgs {
		refs := map[string]bool{}
		scanAttachmentRefs(m, refs)
		for h := range refs {
			if _, ok := d.attach.m[h]; !ok {
				out[h] = true
			}
		}
	}
	return out
}

// errStop ends a second pass once it has what it came for.
var errStop = errors.New("stop")

// rereadAttachments reads the member again for the attachments hashes
// name: the pool comes after the attachments, so what its messages
// reference is known only once they have streamed by. Only the
// attachments object is walked; the rest is skipped at a byte loop's
// speed.
func (d *sampleDetail) rereadAttachments(reopen func() (io.ReadCloser, error), hashes map[string]bool) error {
	rc, err := reopen()
	if err != nil {
		return err
	}
	defer rc.Close()
	sc := jsonscan.New(rc)
	defer sc.Release()
	kept := 0
	err = sc.Object(func(key string) error {
		if key != "attachments" {
			return sc.Skip()
		}
		if err := sc.Object(func(hash string) error {
			if !hashes[hash] {
				return sc.Skip()
			}
			if kept >= attachmentsCap {
				d.attach.cut = true
				return sc.Skip()
			}
			raw, cut, err := sc.Capture(attachmentsCap - kept)
			if err != nil {
				return err
			}
			kept += len(raw)
			var s string
			if cut {
				d.attach.cut = true
			} else if json.Unmarshal(raw, &s) == nil {
				d.attach.m[hash] = s
			}
			return nil
		}); err != nil {
			return err
		}
		return errStop
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// modelInput renders a model event's new input as transcript lines, from
// its inline input (older logs) or its pool references.
func modelInput(e rawEvent, p *pool, res resolver) []string {
	var msgs []rawMessage
	total := 0
	switch {
	case e.InputRefs != nil:
		refs := parseRefs(e.InputRefs)
		if !p.seen {
			return []string{"← input: in the sample's message pool, which the member does not hold"}
		}
		total = countRefs(refs, p.size)
		for _, pos := range lastPositions(refs, inputShown+1, p.size) {
			var m rawMessage
			raw, ok := p.msgs[pos]
			if !ok || json.Unmarshal(raw, &m) != nil {
				m = rawMessage{Role: "?", Content: json.RawMessage(`"(pool message not kept)"`)}
			}
			msgs = append([]rawMessage{m}, msgs...)
		}
	default:
		var all []rawMessage
		if json.Unmarshal(e.Input, &all) != nil || len(all) == 0 {
			return nil
		}
		total = len(all)
		msgs = all[max(0, len(all)-inputShown-1):]
	}
	// The new input: what follows the last assistant message.
	start := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "assistant" {
			start = i + 1
			break
		}
	}
	if start == 0 && len(msgs) > inputShown {
		start = len(msgs) - inputShown
	}
	var out []string
	if earlier := total - (len(msgs) - start); earlier > 0 {
		out = append(out, fmt.Sprintf("← %d earlier input message(s)", earlier))
	}
	for _, m := range msgs[start:] {
		out = append(out, "← "+m.Role+": "+oneLine(messageLine(convertMessage(m, res))))
	}
	return out
}

// messageLine is a message's text, tool calls and results in a line.
func messageLine(m model.Message) string {
	var parts []string
	for _, s := range m.Segments {
		switch s.Type {
		case model.SegText, model.SegToolResult:
			if s.Text != "" {
				parts = append(parts, s.Text)
			}
		case model.SegToolCall:
			parts = append(parts, "→ "+s.ToolName+"("+s.Arguments+")")
		default:
			parts = append(parts, "["+s.URL+"]")
		}
	}
	return strings.Join(parts, " ")
}

// oneLine clips a text to one transcript line.
func oneLine(s string) string {
	return jsonl.Clip(strings.Join(strings.Fields(s), " "), lineCap)
}
