package lmmetrics

import (
	"math"
	"sort"
	"strconv"
)

// Classification metrics over (gold, pred) pairs, which the harness logs
// per row and aggregates over the corpus with scikit-learn. Labels are
// compared as the texts the samples log them as (ints and strings both
// arrive as JSON; the caller renders each one the same way), since sklearn
// compares them by equality too.

// F1 is metrics.py f1_score: sklearn.metrics.f1_score(golds, preds) with
// its defaults (average="binary", pos_label=1): 2*tp / (2*tp + fp + fn)
// for the label 1, 0.0 when there is no true or predicted 1 (sklearn's
// zero_division "warn" gives 0.0). ok is false when the labels are not
// binary 0/1 (sklearn raises then, so the harness could not have reported
// a value this way).
func F1(golds, preds []string) (float64, bool) {
	labels := labelSet(golds, preds)
	for l := range labels {
		if l != "0" && l != "1" && l != "0.0" && l != "1.0" && l != "true" && l != "false" {
			return 0, false
		}
	}
	pos := func(s string) bool { return s == "1" || s == "1.0" || s == "true" }
	tp, fp, fn := confusion(golds, preds, pos)
	if 2*tp+fp+fn == 0 {
		return 0, true
	}
	return float64(2*tp) / float64(2*tp+fp+fn), true
}

// MCC is metrics.py matthews_corrcoef: sklearn.metrics.matthews_corrcoef,
// the multiclass form (Gorodkin's R_K, which is the binary MCC for two
// labels): with C the confusion matrix, t_k the true count of class k,
// p_k the predicted count, c the correct count and s the total,
// (c*s - Σ t_k p_k) / sqrt((s² - Σ p_k²)(s² - Σ t_k²)), 0.0 when the
// denominator is 0 (sklearn returns 0 then).
func MCC(golds, preds []string) float64 {
	t, p := map[string]float64{}, map[string]float64{}
	c := 0.0
	for i := range golds {
		t[golds[i]]++
		p[preds[i]]++
		if golds[i] == preds[i] {
			c++
		}
	}
	s := float64(len(golds))
	keys := sortedKeys(labelSet(golds, preds))
	tp, pp, tt := 0.0, 0.0, 0.0
	for _, k := range keys {
		tp += t[k] * p[k]
		pp += p[k] * p[k]
		tt += t[k] * t[k]
	}
	cov := c*s - tp
	den := (s*s - pp) * (s*s - tt)
	if den == 0 {
		return 0
	}
	return cov / math.Sqrt(den)
}

// MicroF1 is sklearn f1_score(average="micro"): for single-label
// classification, the share of pairs where gold equals pred.
func MicroF1(golds, preds []string) float64 {
	if len(golds) == 0 {
		return 0
	}
	c := 0
	for i := range golds {
		if golds[i] == preds[i] {
			c++
		}
	}
	return float64(c) / float64(len(golds))
}

// WeightedF1 is sklearn f1_score(average="weighted"): each label's F1
// (over every label in golds or preds, as MacroF1) weighted by its count
// in golds; 0 without golds.
func WeightedF1(golds, preds []string) float64 {
	support := map[string]int{}
	for _, g := range golds {
		support[g]++
	}
	sum, total := 0.0, 0
	for _, k := range sortedKeys(labelSet(golds, preds)) {
		if support[k] == 0 {
			continue
		}
		tp, fp, fn := confusion(golds, preds, is(k))
		sum += float64(support[k]) * float64(2*tp) / float64(2*tp+fp+fn)
		total += support[k]
	}
	if total == 0 {
		return 0
	}
	return sum / float64(total)
}

// MacroF1 is sklearn f1_score(average="macro"): the unweighted mean of
// each label's F1 over every label in golds or preds, a label with no
// true or predicted instance scoring 0.0 (zero_division "warn").
func MacroF1(golds, preds []string) float64 {
	keys := sortedKeys(labelSet(golds, preds))
	if len(keys) == 0 {
		return 0
	}
	sum := 0.0
	for _, k := range keys {
		tp, fp, fn := confusion(golds, preds, is(k))
		if 2*tp+fp+fn > 0 {
			sum += float64(2*tp) / float64(2*tp+fp+fn)
		}
	}
	return sum / float64(len(keys))
}

// confusion counts the true positives, false positives and false
// negatives of the class pos tells.
func confusion(golds, preds []string, pos func(string) bool) (tp, fp, fn int) {
	for i := range golds {
		g, p := pos(golds[i]), pos(preds[i])
		switch {
		case g && p:
			tp++
		case p:
			fp++
		case g:
			fn++
		}
	}
	return tp, fp, fn
}

// is tells label k.
func is(k string) func(string) bool { return func(s string) bool { return s == k } }

func labelSet(golds, preds []string) map[string]bool {
	out := map[string]bool{}
	for _, g := range golds {
		out[g] = true
	}
	for _, p := range preds {
		out[p] = true
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// CBMultiF1 is super_glue cb's own f1 aggregation, cb_multi_fi
// (lm_eval/tasks/super_glue/cb/aggregate.py, unchanged from v0.4.0 to
// v0.4.12): numpy's mean of sklearn's binary f1_score with each of the
// labels 0, 1 and 2 in turn the positive class, a class with no true or
// predicted instance scoring 0.0 (zero_division "warn"). The function
// unpacks its pairs as (pred, gold) while the rows log (gold, pred): F1 is
// the same either way round. ok is false when a label is not a number
// (numpy's == 0 on strings is never true, a case the harness's tasks do
// not log).
func CBMultiF1(golds, preds []string) (float64, bool) {
	g := make([]float64, len(golds))
	p := make([]float64, len(preds))
	for i := range golds {
		var err1, err2 error
		g[i], err1 = strconv.ParseFloat(golds[i], 64)
		p[i], err2 = strconv.ParseFloat(preds[i], 64)
		if err1 != nil || err2 != nil {
			return 0, false
		}
	}
	sum := 0.0
	for c := 0.0; c < 3; c++ {
		tp, fp, fn := 0, 0, 0
		for i := range g {
			switch gc, pc := g[i] == c, p[i] == c; {
			case gc && pc:
				tp++
			case pc:
				fp++
			case gc:
				fn++
			}
		}
		if 2*tp+fp+fn > 0 {
			sum += float64(2*tp) / float64(2*tp+fp+fn)
		}
	}
	return sum / 3, true
}
