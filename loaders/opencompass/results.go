package opencompass

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// metricBlacklist are the results' numbers the summarizer does not show
// (summarizers/default.py METRIC_BLACKLIST).
var metricBlacklist = map[string]bool{"bp": true, "sys_len": true, "ref_len": true, "type": true}

// metricWhitelist orders a dataset's metrics as the summarizer does
// (METRIC_WHITELIST): these first, in this order, then the others as
// written.
var metricWhitelist = []string{"score", "auc_score", "accuracy", "humaneval_pass@1", "rouge1", "avg_toxicity_score",
	"bleurt_diff", "matthews_correlation", "truth", "f1", "exact_match", "extract_rate"}

// results is an evaluator's results file.
type results struct {
	path    string
	metrics []model.Metric
	// errText is the evaluator's error, when the file holds one.
	errText string
	// details are the per-record details, by record index.
	details map[int]detail
	// detailsType is format_details' "type" (GEN or PPL), "" otherwise.
	detailsType string
	// nDetails counts the details read.
	nDetails int
	// graded tells that the results carry get_final_results' counts: an
	// LLM judge graded each record by its first A or B.
	graded bool
	// extra are the results' values that are no metric (nested
	// figures), as facts.
	extra []model.Fact
}

// detail is one record's details.
type detail struct {
	obj jsonl.Object
	raw []byte
}

// exampleIndex reads the record index at the end of a detail's
// example_abbr ("<subdivision>_<idx>": "gsm8k_12").
var exampleIndex = regexp.MustCompile(`_(\d+)$`)

// readResults reads a results file.
func readResults(path string) (*results, error) {
	data, err := jsonl.ReadRegular(path, maxRecords)
	if err != nil {
		return nil, err
	}
	data = nonfinite.Sanitize(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	obj, ok := jsonl.ParseObject(data)
	if !ok {
		return nil, fmt.Errorf("not the JSON object of an OpenCompass evaluator's results: %v", jsonError(data))
	}
	r := &results{path: path, details: map[int]detail{}}
	var named []model.Metric
	for _, m := range obj.Members {
		if _, isKey := keyIndex(m.Key); isKey && jsonl.KindOf(m.Value) == jsonl.KindObject {
			// A judge's own outputs saved as the results (a subjective
			// evaluation without a dict postprocessor).
			r.addDetail(m.Key, m.Value, -1)
			continue
		}
		switch m.Key {
		case "details":
			r.readDetails(m.Value)
			continue
		case "error":
			r.errText = text(m.Value)
			continue
		}
		if metricBlacklist[m.Key] || jsonl.KindOf(m.Value) == jsonl.KindBool {
			continue
		}
		if f, ok := floatOf(m.Value); ok {
			named = append(named, model.Metric{Name: m.Key, Value: f})
			continue
		}
		if v := jsonl.ScalarText(m.Value); v != "" {
			r.extra = append(r.extra, model.Fact{Key: m.Key, Value: jsonl.Clip(v, 400)})
		}
	}
	has := map[string]bool{}
	for _, m := range named {
		has[m.Name] = true
	}
	r.graded = has["correct_count"] && has["incorrect_count"] && has["not_attempted_count"]
	for _, w := range metricWhitelist {
		for _, m := range named {
			if m.Name == w {
				r.metrics = append(r.metrics, m)
			}
		}
	}
	for _, m := range named {
		if !slices.Contains(metricWhitelist, m.Name) {
			r.metrics = append(r.metrics, m)
		}
	}
	return r, nil
}

// readDetails reads the details: a list (entry i is record i, or the
// record its example_abbr names) or an object keyed by record index
// (format_details' {"type": "GEN", "0": {...}}, a judge's outputs).
func (r *results) readDetails(raw json.RawMessage) {
	if els, ok := jsonl.Array(raw); ok {
		for i, e := range els {
			r.addDetail(strconv.Itoa(i), e, i)
		}
		return
	}
	obj, ok := jsonl.ParseObject(raw)
	if !ok {
		return
	}
	for _, m := range obj.Members {
		if m.Key == "type" {
			r.detailsType = text(m.Value)
			continue
		}
		r.addDetail(m.Key, m.Value, -1)
	}
}

// addDetail files one detail under its record index: the example_abbr's
// index, else the key, else its position.
func (r *results) addDetail(key string, raw json.RawMessage, pos int) {
	obj, ok := jsonl.ParseObject(raw)
	if !ok {
		return
	}
	idx, ok := keyIndex(key)
	if ab, has := obj.Str("example_abbr"); has {
		if m := exampleIndex.FindStringSubmatch(ab); m != nil {
			idx, _ = strconv.Atoi(m[1])
			ok = true
		}
	}
	if !ok {
		if pos < 0 {
			return
		}
		idx = pos
	}
	r.details[idx] = detail{obj: obj, raw: raw}
	r.nDetails++
}

// correct is the detail's correctness per replica: correct, is_correct
// or cascade_correct, as BaseEvaluator.evaluate counts them.
func (d detail) correct() ([]bool, string, bool) {
	for _, k := range []string{"correct", "is_correct", "cascade_correct"} {
		if v, ok := d.obj.Get(k); ok {
			if bs, ok := boolsOf(v); ok {
				return bs, k, true
			}
		}
	}
	return nil, "", false
}

// judged tells a judge's own output: its prompt and response, not an
// evaluator's comparison (format_details writes origin_prediction).
func (d detail) judged() bool {
	return d.obj.Has("origin_prompt") && d.obj.Has("prediction") && !d.obj.Has("origin_prediction")
}

// gradeOf is the grade generic_llmjudge_postprocess reads from a judge's
// response: its first "A" (correct) or "B" (incorrect), else
// "unknown".
func gradeOf(response string) string {
	for _, c := range response {
		if c == 'A' || c == 'B' {
			return string(c)
		}
	}
	return "unknown"
}
