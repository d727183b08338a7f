package lighteval

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"evalview/model"
)

// schema eras of a details file, from lighteval's DetailsLogger.Detail.
const (
	// eraStruct: since June 2025 (lighteval #709), three struct columns
	// doc, model_response and metric.
	eraStruct = "struct columns (doc, model_response, metric)"
	// eraFlat: February to June 2025 (#572), flat typed columns (example,
	// full_prompt, predictions, gold, metrics, ...).
	eraFlat = "flat columns (example, predictions, gold, metrics)"
	// eraFlatStr: before #572, the same flat columns, each a str() of the
	// value (Python repr for lists and dicts).
	eraFlatStr = "flat columns written as Python text"
)

// row is one details row in a shape common to the eras.
type row struct {
	query       string
	instruction string
	choices     []string
	goldIndex   []int
	gold        []string
	// texts are the model's generations; final the post-processed ones
	// metrics use when present (ModelResponse.final_text).
	texts      []string
	final      []string
	reasonings []string
	logprobs   []float64
	metrics    []metric
	prompt     string
	// promptValue is the prompt as decoded: text, or a chat prompt's
	// messages (a list of {role, content}, or its JSON text).
	promptValue any
	fields      map[string]any
}

type metric struct {
	name  string
	value float64
	ok    bool // a number (NaN included); false for text values
	text  string
}

// eraOf tells the era from the top-level column names.
func eraOf(cols []string, stringsOnly bool) string {
	has := map[string]bool{}
	for _, c := range cols {
		has[c] = true
	}
	switch {
	case has["doc"] && (has["model_response"] || has["metric"]):
		return eraStruct
	case stringsOnly:
		return eraFlatStr
	}
	return eraFlat
}

// normalize reads a row (as parquet-go decodes it into maps) of an era.
func normalize(m map[string]any, era string) row {
	var r row
	if era == eraStruct {
		doc, _ := m["doc"].(map[string]any)
		mr, _ := m["model_response"].(map[string]any)
		r.query = str(doc["query"])
		r.instruction = str(doc["instruction"])
		r.choices = strs(doc["choices"])
		r.goldIndex = ints(doc["gold_index"])
		r.texts = strs(mr["text"])
		r.final = strs(mr["text_post_processed"])
		r.reasonings = strs(mr["reasonings"])
		r.logprobs = floats(mr["logprobs"])
		r.prompt = str(mr["input"])
		r.promptValue = mr["input"]
		r.metrics = metricsOf(m["metric"])
		r.fields = map[string]any{}
		for k, v := range doc {
			r.fields["doc."+k] = v
		}
		for k, v := range mr {
			r.fields["model_response."+k] = v
		}
	} else {
		get := func(k string) any {
			v := m[k]
			if s, ok := v.(string); ok && era == eraFlatStr && looksPy(s) {
				if pv, err := parsePy(s); err == nil {
					return pv
				}
			}
			return v
		}
		r.query = str(get("example"))
		r.instruction = str(get("instruction"))
		r.prompt = str(get("full_prompt"))
		r.promptValue = get("full_prompt")
		r.choices = strs(get("choices"))
		r.goldIndex = ints(get("gold_index"))
		r.gold = strs(get("gold"))
		r.texts = strs(get("predictions"))
		r.metrics = metricsOf(get("metrics"))
		r.fields = map[string]any{}
		for k := range m {
			r.fields[k] = get(k)
		}
	}
	if r.gold == nil {
		for _, g := range r.goldIndex {
			if g >= 0 && g < len(r.choices) {
				r.gold = append(r.gold, r.choices[g])
			}
		}
	}
	return r
}

// answer is the response the metrics read: the post-processed text when
// there is one, else the text; for loglikelihood rows (logprobs over the
// choices, no text) the choice with the highest logprob.
func (r row) answer() string {
	if len(r.final) > 0 {
		return r.final[0]
	}
	if len(r.texts) > 0 {
		return r.texts[0]
	}
	if len(r.logprobs) > 0 && len(r.logprobs) == len(r.choices) {
		best := 0
		for i, l := range r.logprobs {
			if l > r.logprobs[best] {
				best = i
			}
		}
		return r.choices[best]
	}
	return ""
}

func looksPy(s string) bool {
	t := strings.TrimSpace(s)
	return len(t) > 1 && (t[0] == '[' || t[0] == '{' || t[0] == '(')
}

// metricsOf reads a metric struct (or dict) in name order, as the struct
// column's fields are sorted.
func metricsOf(v any) []metric {
	mm, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	names := make([]string, 0, len(mm))
	for k := range mm {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []metric
	for _, k := range names {
		val := mm[k]
		if val == nil {
			continue // a metric this row does not have (struct union)
		}
		f, ok := num(val)
		out = append(out, metric{name: k, value: f, ok: ok, text: textOf(val)})
	}
	return out
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case int:
		return float64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case []any:
		if len(x) == 1 {
			return str(x[0])
		}
	}
	return textOf(v)
}

func strs(v any) []string {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			out[i] = str(e)
		}
		return out
	}
	return []string{str(v)}
}

func ints(v any) []int {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		var out []int
		for _, e := range x {
			if f, ok := num(e); ok {
				out = append(out, int(f))
			}
		}
		return out
	}
	if f, ok := num(v); ok {
		return []int{int(f)}
	}
	return nil
}

func floats(v any) []float64 {
	x, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]float64, 0, len(x))
	for _, e := range x {
		if f, ok := num(e); ok {
			out = append(out, f)
		}
	}
	return out
}

// textOf renders any decoded value: text as is, numbers as Python prints
// them (nan, inf), the rest as JSON.
func textOf(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case float64:
		return model.FormatSignificant(x, -1)
	}
	b, err := json.Marshal(clean(v))
	if err != nil {
		return ""
	}
	return string(b)
}

// clean replaces non-finite floats (which encoding/json refuses) by their
// names, recursively.
func clean(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return textOf(x)
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = clean(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = clean(e)
		}
		return out
	case []byte:
		return string(x)
	}
	return v
}
