package lmeval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"evalview/loaders/internal/jsonstr"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// Issue codes of the lm-eval loader:
//
//	bad-json         a line (or the array) is not valid JSON
//	missing-field    a required row field is absent
//	wrong-type       a row field has the wrong JSON type
//	metric-missing   a metric named in "metrics" has no value
//	hash-mismatch    doc_hash/prompt_hash/target_hash is not the sha256 of the content
//	duplicate-row    a doc has two rows for the same filter
//	duplicate-key    a row gives a top-level key twice (warning; the last value wins)
//	number-out-of-range
//	                 a top-level number (a metric value) is beyond float64 (warning)
//	bom              the file starts with a UTF-8 byte-order mark (warning, line 1)
//	crlf             Windows line ends, from the line named (warning, once a file)
//	count-mismatch   the samples disagree with the results file's n-samples
//	filter-missing   the results file reports a filter the samples have no rows for
//	task-missing     the results file lists a task no samples file was found for
//	no-samples       a samples file holds no rows
//	lfs-pointer      a Git LFS pointer stands where the data should be
//	read-error       the file could not be read to its end (the rows before load)

// requiredFields every samples row must have.
var requiredFields = []string{"doc_id", "doc", "target", "arguments", "resps", "filtered_resps"}

// rowIssues validates one row's fields.
func rowIssues(path string, line int, rec string, h *rowHead, known map[string]bool) []model.Issue {
	var out []model.Issue
	for _, f := range requiredFields {
		if !h.has(f) {
			is := model.Errorf("missing-field", path, line, rec, "row has no %q", f)
			if f == "doc_id" {
				is.Message += ": it cannot be joined with its doc's other rows, and is a record of its own"
			}
			out = append(out, is)
		}
	}
	for _, e := range h.typeErrs {
		out = append(out, model.Errorf("wrong-type", path, line, rec, "%s", e))
	}
	for _, k := range h.dups {
		is := model.Warnf("duplicate-key", path, line, rec, "key %q is given more than once; the last value wins (as in encoding/json and Python's json)", k)
		is.Path = jsonl.KeyPath("$", k)
		out = append(out, is)
	}
	for i, f := range h.Extra {
		// A top-level number is a metric value (or could be one): say why
		// one beyond float64 is not read, rather than dropping it.
		if len(f.Value) > 0 && (f.Value[0] == '-' || f.Value[0] >= '0' && f.Value[0] <= '9') && !h.later(i) {
			if od, bad := jsonl.NumberOddity(f.Value, jsonl.KeyPath("$", f.Key)); bad {
				is := model.Warnf(od.Code, path, line, rec, "%s", od.Msg)
				is.Path = od.Path
				out = append(out, is)
			}
		}
	}
	for _, m := range h.Metrics {
		if v := h.value(m); len(v) > 0 && v[0] != '"' && v[0] != 'n' {
			if _, bad := jsonl.NumberOddity(v, ""); bad {
				continue // reported above as number-out-of-range
			}
		}
		raw := h.value(m)
		if m == "bypass" && string(bytes.TrimSpace(raw)) == "null" {
			// --predict_only logs the metric bypass, whose function
			// returns None for every row (lm_eval/api/metrics.py bypass,
			// v0.4.0 to v0.4.12); its aggregation reports 999.
			continue
		}
		if _, ok := readMetric(m, raw); !ok {
			is := model.Errorf("metric-missing", path, line, rec, "metric %q is listed in \"metrics\" but the row has no value for it", m)
			if len(bytes.TrimSpace(raw)) > 0 {
				is.Message = fmt.Sprintf("metric %q is listed in \"metrics\" but its value %.40s is neither a number, a boolean nor a list the harness aggregates", m, raw)
			}
			is.Path = "$." + m
			out = append(out, is)
		}
	}
	return out
}

// hashIssues checks the three hashes, where present, against the content.
func hashIssues(path string, line int, rec string, h *rowHead) []model.Issue {
	var out []model.Issue
	check := func(field, want string, got func() (string, bool)) {
		if want == "" {
			return
		}
		g, ok := got()
		if !ok {
			return
		}
		if !strings.EqualFold(g, want) {
			is := model.Errorf("hash-mismatch", path, line, rec, "%s does not match the content (expected sha256 %s…, file says %s…): the row was edited after it was logged, or logged by a different harness",
				field, short(g), short(want))
			is.Path = "$." + field
			out = append(out, is)
		}
	}
	check("doc_hash", h.DocHash, func() (string, bool) {
		b, err := pyDumps(h.Doc)
		if err != nil {
			return "", false
		}
		return sha256Hex(b), true
	})
	check("prompt_hash", h.PromptHash, func() (string, bool) {
		args := parseArgs(h.Arguments)
		if len(args) == 0 {
			return "", false
		}
		if sum, ok := hashString(bytes.TrimSpace(args[0].arg0)); ok {
			return sum, true // hashablePrompt's first case, without a copy
		}
		p, ok := hashablePrompt(args[0].arg0)
		if !ok {
			return "", false
		}
		return sha256Hex([]byte(p)), true
	})
	check("target_hash", h.TargetHash, func() (string, bool) {
		if sum, ok := hashString(bytes.TrimSpace(h.Target)); ok {
			return sum, true
		}
		s, ok := pyStr(h.Target)
		if !ok {
			return "", false
		}
		return sha256Hex([]byte(s)), true
	})
	return out
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// argPair is one request's arguments: the prompt (or context) and the
// generation kwargs (or continuation).
type argPair struct {
	arg0, arg1 json.RawMessage
}

// parseArgs reads "arguments" in both shapes: {"gen_args_0": {"arg_0":
// ..., "arg_1": ...}, ...} and the old list of [context, continuation].
func parseArgs(raw json.RawMessage) []argPair {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	if raw[0] == '[' {
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return nil
		}
		var out []argPair
		for _, item := range list {
			var pair []json.RawMessage
			if json.Unmarshal(item, &pair) == nil && len(pair) > 0 {
				p := argPair{arg0: pair[0]}
				if len(pair) > 1 {
					p.arg1 = pair[1]
				}
				out = append(out, p)
			}
		}
		return out
	}
	// Split with jsonl.Skim rather than decoding into maps: arg_0 holds
	// the whole few-shot prompt, and this runs for every row while
	// indexing. Duplicate keys: the last wins, as in json.loads.
	obj := map[string]argPair{}
	var keys []string
	err := jsonl.Skim(raw, func(f jsonl.Field) error {
		if len(f.Value) == 0 || f.Value[0] != '{' {
			return errNotArgs
		}
		var p argPair
		if err := jsonl.Skim(f.Value, func(g jsonl.Field) error {
			switch g.Key {
			case "arg_0":
				p.arg0 = g.Value
			case "arg_1":
				p.arg1 = g.Value
			}
			return nil
		}); err != nil {
			return err
		}
		if _, ok := obj[f.Key]; !ok {
			keys = append(keys, f.Key)
		}
		obj[f.Key] = p
		return nil
	})
	if err != nil {
		return nil
	}
	sort.SliceStable(keys, func(a, b int) bool { return argNum(keys[a]) < argNum(keys[b]) })
	out := make([]argPair, 0, len(keys))
	for _, k := range keys {
		out = append(out, obj[k])
	}
	return out
}

var errNotArgs = errors.New("not an arguments object")

func argNum(k string) int {
	n, err := strconv.Atoi(k[strings.LastIndexByte(k, '_')+1:])
	if err != nil {
		return 1 << 30
	}
	return n
}

// hashablePrompt is the string the harness hashed for prompt_hash: arg_0,
// or the JSON chat string inside a one-element list.
func hashablePrompt(arg0 json.RawMessage) (string, bool) {
	if s, ok := jsonstr.Unquote(bytes.TrimSpace(arg0)); ok {
		return s, true
	}
	var s string
	if json.Unmarshal(arg0, &s) == nil {
		return s, true
	}
	var list []string
	if json.Unmarshal(arg0, &list) == nil && len(list) == 1 {
		return list[0], true
	}
	return "", false
}

// promptText is arg_0 as text, whatever its shape.
func promptText(arg0 json.RawMessage) string {
	if s, ok := hashablePrompt(arg0); ok {
		return s
	}
	return scalarText(arg0)
}

// answerText renders filtered_resps for the list and filter tables:
// generation filters give ["18"], log-likelihood ones give one
// [logprob, is_greedy] per choice, shown as the chosen choice's index.
func answerText(raw json.RawMessage) string {
	if s, ok := stringAnswers(raw); ok {
		return s
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return scalarText(raw)
	}
	if len(list) == 0 {
		return ""
	}
	if lls, ok := logLikelihoods(list); ok {
		best := argmax(lls)
		return fmt.Sprintf("#%d (%s)", best, trimFloat(lls[best].logprob))
	}
	var parts []string
	for _, item := range list {
		parts = append(parts, scalarText(item))
	}
	return strings.Join(parts, " | ")
}

// loglik is one choice's log-likelihood result.
type loglik struct {
	logprob  float64
	isGreedy bool
}

// logLikelihoods reads [[logprob, is_greedy], ...], where values may be
// numbers and booleans or, in newer files, strings ("-0.26", "False").
// A single level of extra nesting ([[[lp, g]]] in resps) is unwrapped.
func logLikelihoods(list []json.RawMessage) ([]loglik, bool) {
	out := make([]loglik, 0, len(list))
	for _, item := range list {
		var pair []json.RawMessage
		if json.Unmarshal(item, &pair) != nil {
			return nil, false
		}
		if len(pair) == 1 { // resps shape: [[lp, greedy]] per choice
			if json.Unmarshal(pair[0], &pair) != nil {
				return nil, false
			}
		}
		if len(pair) != 2 {
			return nil, false
		}
		lp, ok := number(pair[0])
		if !ok {
			return nil, false
		}
		g := strings.Trim(strings.ToLower(scalarText(pair[1])), `"`)
		if g != "true" && g != "false" {
			return nil, false
		}
		out = append(out, loglik{logprob: lp, isGreedy: g == "true"})
	}
	return out, true
}

func argmax(lls []loglik) int {
	best := 0
	for i, l := range lls {
		if l.logprob > lls[best].logprob {
			best = i
		}
	}
	return best
}

func trimFloat(f float64) string {
	return strconv.FormatFloat(f, 'f', 3, 64)
}
