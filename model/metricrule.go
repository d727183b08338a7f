package model

import (
	"fmt"
	"regexp"
	"strings"

	"evalview/model/lmmetrics"
)

// MetricRule says how the writer aggregates one metric over the rows.
type MetricRule struct {
	Name string
	// Aggregation is the harness's aggregation name ("mean", "perplexity",
	// "weighted_perplexity", "bits_per_byte", "f1", "matthews_corrcoef",
	// "bleu", "chrf", "ter", "brier_score", "median", "nanmean",
	// "bypass"), or one evalview recognises in a task's own function
	// ("inst_level_mean", "macro_f1", "micro_f1", "weighted_f1",
	// "cb_multi_f1"), one of a
	// Python-class task ("squad_v2"), or "custom".
	Aggregation string
	// Function is the task's own aggregation function when the config
	// names one (its name, or its first line), for notes.
	Function string
}

// DefaultAggregation is the harness's aggregation for a metric name when
// the task config does not name one: the registry's (lm_eval/api/
// metrics.py register_metric, v0.4.12), mean for any other metric.
func DefaultAggregation(name string) string {
	switch name {
	case "perplexity":
		return "perplexity"
	case "word_perplexity", "byte_perplexity":
		return "weighted_perplexity"
	case "bits_per_byte":
		return "bits_per_byte"
	case "mcc":
		return "matthews_corrcoef"
	case "f1", "bleu", "chrf", "ter", "brier_score", "bypass":
		return name
	}
	return "mean"
}

// Apply aggregates the rows' values of the rule's metric: nums are the
// rows' single numbers, values their other values. It returns the value,
// the rows it used, the aggregation it applied, and a note: why it could
// not (starting "not recomputed: "), or "" when all went as the harness
// goes.
func (r MetricRule) Apply(nums []float64, values []RowValue) (float64, int, string, string) {
	agg := r.Aggregation
	mixed := len(nums) > 0 && len(values) > 0
	if mixed {
		return 0, 0, agg, notRecomputed + fmt.Sprintf("%d rows hold a number and %d a list: the harness could not have aggregated them together", len(nums), len(values))
	}
	switch agg {
	case "mean", "median", "nanmean", "perplexity":
		if len(values) > 0 {
			return 0, 0, agg, notRecomputed + "the rows hold lists, which " + agg + " cannot aggregate"
		}
		switch agg {
		case "median":
			return lmmetrics.Median(nums), len(nums), agg, ""
		case "nanmean":
			return lmmetrics.NaNMean(nums), len(nums), agg, ""
		case "perplexity":
			return lmmetrics.Perplexity(nums), len(nums), agg, ""
		}
		return lmmetrics.Mean(nums), len(nums), agg, ""
	case "weighted_perplexity", "bits_per_byte":
		pairs, ok := numPairs(values)
		if !ok {
			return 0, 0, agg, notRecomputed + "the rows do not all hold [loglikelihood, weight] pairs"
		}
		if agg == "bits_per_byte" {
			return lmmetrics.BitsPerByte(pairs), len(pairs), agg, ""
		}
		return lmmetrics.WeightedPerplexity(pairs), len(pairs), agg, ""
	case "inst_level_mean":
		lists := make([][]float64, 0, len(values))
		for _, v := range values {
			if v.Nums == nil && v.Labels != nil {
				return 0, 0, agg, notRecomputed + "the rows do not all hold lists of booleans"
			}
			lists = append(lists, v.Nums)
		}
		if len(nums) > 0 {
			return 0, 0, agg, notRecomputed + "the rows hold numbers, not per-instruction lists"
		}
		return lmmetrics.FlatMean(lists), len(values), agg, ""
	case "f1", "matthews_corrcoef", "macro_f1", "micro_f1", "weighted_f1", "cb_multi_f1":
		golds, preds, ok := labelPairs(values)
		if !ok {
			return 0, 0, agg, notRecomputed + "the rows do not all hold [gold, pred] pairs"
		}
		switch agg {
		case "cb_multi_f1":
			v, ok := lmmetrics.CBMultiF1(golds, preds)
			if !ok {
				return 0, 0, agg, notRecomputed + "cb_multi_fi compares the labels with 0, 1 and 2; these rows have other labels"
			}
			return v, len(golds), agg, ""
		case "matthews_corrcoef":
			return lmmetrics.MCC(golds, preds), len(golds), agg, ""
		case "macro_f1":
			return lmmetrics.MacroF1(golds, preds), len(golds), agg, ""
		case "micro_f1":
			return lmmetrics.MicroF1(golds, preds), len(golds), agg, ""
		case "weighted_f1":
			return lmmetrics.WeightedF1(golds, preds), len(golds), agg, ""
		}
		v, ok := lmmetrics.F1(golds, preds)
		if !ok {
			return 0, 0, agg, notRecomputed + "f1 (sklearn's binary f1_score) needs labels 0 and 1; these rows have others"
		}
		return v, len(golds), agg, ""
	case "bleu", "chrf", "ter":
		return 0, len(values) + len(nums), agg, corpusLevel + "the harness reports sacrebleu's corpus_" + agg +
			" over every row's [reference, prediction]; evalview does not reimplement sacrebleu, whose tokenizer decides the score"
	case "squad_v2":
		return 0, len(values) + len(nums), agg, corpusLevel + "the harness reports Hugging Face evaluate's squad_v2 (in percent) over every row's [prediction, reference]; evalview does not reimplement it"
	case "brier_score":
		return 0, len(values), agg, corpusLevel + "brier_score over every row's [gold, probabilities] is not reimplemented"
	case "bypass":
		return 0, 0, agg, notRecomputed + "the task's aggregation is bypass: the harness reports 999, not a score"
	}
	fn := r.Function
	if fn == "" {
		fn = agg
	}
	return 0, len(nums) + len(values), agg, notRecomputed + "the task aggregates " + r.Name + " with its own function (" + fn + "), which evalview does not run"
}

// corpusLevel starts the note of a corpus-level metric evalview does not
// recompute: the words the browser and `summary` show.
const corpusLevel = "corpus-level, not recomputed: "

// numPairs reads every value as a pair of numbers.
func numPairs(values []RowValue) ([][2]float64, bool) {
	if len(values) == 0 {
		return nil, false
	}
	out := make([][2]float64, 0, len(values))
	for _, v := range values {
		if len(v.Nums) != 2 {
			return nil, false
		}
		out = append(out, [2]float64{v.Nums[0], v.Nums[1]})
	}
	return out, true
}

// labelPairs reads every value as a [gold, pred] pair of labels.
func labelPairs(values []RowValue) (golds, preds []string, ok bool) {
	if len(values) == 0 {
		return nil, nil, false
	}
	for _, v := range values {
		if len(v.Labels) != 2 {
			return nil, nil, false
		}
		golds = append(golds, v.Labels[0])
		preds = append(preds, v.Labels[1])
	}
	return golds, preds, true
}

// RuleFromFunction names the aggregation of a task's own function from its
// source (the harness dumps a function in a config as its source, v0.4.2
// on, or as "<function name at 0x...>"): the ones whose code evalview
// knows, else "custom".
func RuleFromFunction(name, src string) MetricRule {
	r := MetricRule{Name: name, Aggregation: "custom", Function: FunctionName(src)}
	switch {
	case strings.Contains(src, "cb_multi_fi"):
		// lm_eval/tasks/super_glue/cb/aggregate.py: the mean of the binary
		// F1 of the labels 0, 1 and 2.
		r.Aggregation = "cb_multi_f1"
	case strings.Contains(src, "agg_inst_level_acc"):
		// lm_eval/tasks/ifeval/utils.py: sum(flat) / len(flat).
		r.Aggregation = "inst_level_mean"
	default:
		if m := sklearnAverage.FindStringSubmatch(src); m != nil {
			// e.g. tasks/kobest/utils.py and tasks/aradice/*/metrics.py:
			// f1_score(golds, preds, average="macro"|"micro"|"weighted").
			r.Aggregation = m[1] + "_f1"
		} else if avg, ok := averagedF1[r.Function]; ok && strings.HasPrefix(strings.TrimSpace(src), "<function ") {
			// Before v0.4.1 (serialize_function, 2024-01) a config held a
			// function as "<function NAME at 0x...>": the harness's
			// functions of these names are all f1_score(golds, preds,
			// average=...) over the rows' [gold, pred].
			r.Aggregation = avg
		}
	}
	return r
}

// sklearnAverage finds sklearn's f1_score with an average in a task's
// aggregation function.
var sklearnAverage = regexp.MustCompile(`f1_score\([^)]*average\s*=\s*["'](macro|micro|weighted)["']`)

// averagedF1 are the harness's aggregation functions named for the
// average they give sklearn's f1_score (v0.4.0 to v0.4.12: tasks/kobest,
// tasks/aradice, each the same three lines).
var averagedF1 = map[string]string{"macro_f1_score": "macro_f1", "micro_f1_score": "micro_f1", "weighted_f1_score": "weighted_f1"}

// FunctionName is "name" from "def name(...", "<function name at 0x..>"
// or "!function utils.name", else the first line, clipped: a function a
// config holds, as the harness dumps it.
func FunctionName(src string) string {
	s := strings.TrimSpace(src)
	for _, pre := range []string{"def ", "<function ", "!function "} {
		if strings.HasPrefix(s, pre) {
			s = strings.TrimPrefix(s, pre)
			if i := strings.IndexAny(s, "( >"); i > 0 {
				s = s[:i]
			}
			return s
		}
	}
	if i := strings.IndexByte(s, '\n'); i > 0 {
		s = s[:i]
	}
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}
