package lmeval

import (
	"encoding/json"
	"fmt"
	"sort"

	"evalview/loaders/internal/jsonstr"
	"evalview/loaders/jsonl"
)

// rowHead is one samples row split into its fields. Big values (doc,
// arguments, resps) stay raw; the small ones are decoded.
type rowHead struct {
	DocID         json.RawMessage
	Doc           json.RawMessage
	Target        json.RawMessage
	Arguments     json.RawMessage
	Resps         json.RawMessage
	FilteredResps json.RawMessage
	Filter        *string
	Metrics       []string
	DocHash       string
	PromptHash    string
	TargetHash    string
	// Extra are the fields that are not part of the row format: metric
	// values, and whatever else a harness version added.
	Extra []jsonl.Field
	// present records which format fields the row has (fieldBit).
	present uint16
	// typeErrs describe known fields of the wrong JSON type.
	typeErrs []string
	// dups are top-level keys the row gives more than once; the last
	// value is the one kept, as encoding/json and json.loads keep it.
	dups []string
}

// parseRow splits a row with jsonl.Skim, so that the long strings of
// resps are skipped at memory speed rather than decoded.
func parseRow(data []byte) (rowHead, error) {
	var h rowHead
	str := func(f jsonl.Field, dst *string) {
		if v, ok := jsonstr.Unquote(f.Value); ok { // fast path; json reports errors
			*dst = v
			return
		}
		if err := json.Unmarshal(f.Value, dst); err != nil {
			h.typeErrs = append(h.typeErrs, fmt.Sprintf("%q should be a string, found %.40s", f.Key, f.Value))
		}
	}
	err := jsonl.Skim(data, func(f jsonl.Field) error {
		// Duplicates cost one bit test for a format field and a look at
		// the few extra fields for the rest.
		bit := fieldBit(f.Key)
		if h.present&bit != 0 || (bit == 0 && h.value(f.Key) != nil) {
			h.dups = append(h.dups, f.Key)
		}
		h.present |= bit
		switch f.Key {
		case "doc_id":
			h.DocID = f.Value
		case "doc":
			h.Doc = f.Value
		case "target":
			h.Target = f.Value
		case "arguments":
			h.Arguments = f.Value
		case "resps":
			h.Resps = f.Value
		case "filtered_resps":
			h.FilteredResps = f.Value
		case "filter":
			var s string
			str(f, &s)
			h.Filter = &s
		case "metrics":
			if names, ok := stringList(f.Value); ok {
				h.Metrics = names
			} else if err := json.Unmarshal(f.Value, &h.Metrics); err != nil {
				h.typeErrs = append(h.typeErrs, fmt.Sprintf(`"metrics" should be a list of metric names, found %.40s`, f.Value))
			}
		case "doc_hash":
			str(f, &h.DocHash)
		case "prompt_hash":
			str(f, &h.PromptHash)
		case "target_hash":
			str(f, &h.TargetHash)
		default:
			h.Extra = append(h.Extra, f)
		}
		return nil
	})
	return h, err
}

// formatFields are the row format's fields, in the order of their bits in
// rowHead.present.
var formatFields = []string{"doc_id", "doc", "target", "arguments", "resps",
	"filtered_resps", "filter", "metrics", "doc_hash", "prompt_hash", "target_hash"}

// fieldBit is a format field's bit in rowHead.present, 0 for other keys.
func fieldBit(key string) uint16 {
	for i, f := range formatFields {
		if f == key {
			return 1 << i
		}
	}
	return 0
}

// has reports whether the row has format field key.
func (h *rowHead) has(key string) bool { return h.present&fieldBit(key) != 0 }

// value returns the raw value of a non-format field (a metric), or nil.
func (h *rowHead) value(name string) json.RawMessage {
	for i := len(h.Extra) - 1; i >= 0; i-- { // the last duplicate wins, as in json.loads
		if h.Extra[i].Key == name {
			return h.Extra[i].Value
		}
	}
	return nil
}

// metricNames lists the row's metrics: its "metrics" list, or for rows that
// predate it (harness before v0.4.7), every top-level number or boolean
// that is not a format field.
func (h *rowHead) metricNames() []string { return h.metricNamesKnown(nil) }

// metricNamesKnown is metricNames, where for rows without a "metrics" list
// the fields named in known (the metrics the results file reports or the
// task config lists) count whatever their value: f1's [gold, pred] list,
// a perplexity's pair.
func (h *rowHead) metricNamesKnown(known map[string]bool) []string {
	if h.Metrics != nil {
		return h.Metrics
	}
	var out []string
	for i, f := range h.Extra {
		if h.later(i) {
			continue // a duplicate key: listed once, for its last value
		}
		if len(f.Value) == 0 {
			continue
		}
		if known[f.Key] {
			out = append(out, f.Key)
			continue
		}
		if _, ok := scalarMetric(f.Value); ok && f.Value[0] != '"' {
			out = append(out, f.Key)
		}
	}
	sort.Strings(out)
	return out
}

// later reports whether Extra[i]'s key is given again after it, so that
// only the last of duplicate fields counts.
func (h *rowHead) later(i int) bool {
	if len(h.dups) == 0 {
		return false
	}
	for _, f := range h.Extra[i+1:] {
		if f.Key == h.Extra[i].Key {
			return true
		}
	}
	return false
}

// docKey is scalarText of a doc_id, without its JSON round trip for the
// usual plain integer.
func docKey(raw []byte) string {
	if len(raw) == 0 || len(raw) > 18 {
		return scalarText(raw)
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return scalarText(raw)
		}
	}
	return string(raw)
}

// attemptCount counts the repeats in resps ([[r1, r2, ...]]) without
// decoding them; several requests (log-likelihood choices) count as one
// attempt each.
func attemptCount(resps json.RawMessage) int {
	if n, ok := countRepeats(resps); ok {
		return n
	}
	return slowAttempts(resps)
}

// slowAttempts is attemptCount's general path, for any shape of resps.
func slowAttempts(resps []byte) int {
	n := jsonl.CountElements(resps)
	if n != 1 {
		return max(n, 0)
	}
	var first []byte
	_ = jsonl.EachElement(resps, func(_ int, v []byte) error {
		first = v
		return nil
	})
	return max(jsonl.CountElements(first), 1)
}
