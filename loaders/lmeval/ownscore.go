package lmeval

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"evalview/model"
	"evalview/model/lmfilter"
)

// What a task scored by its own process_results compared (issue 14): such
// a task reads the whole response (its filter is a take_first), so the
// Filters tab shows, in place of that response, what the task's code
// took from it and compared (FilterResult.Compared), and a section per
// filter says how, metric by metric:
//
//   - leaderboard_math (and minerva_math): the answer after "Final Answer:
//     The final answer is", normalised (model/lmfilter/mathanswer.go),
//     against the doc's answer; where the code is math_verify's (the
//     leaderboard's exact_match from 0.4.9, minerva's math_verify), that
//     it is not reproduced, with the response's last \boxed{...};
//   - ifeval: each instruction the task checked, strict and loose.
//
// Which code wrote a leaderboard_math row follows the harness's history of
// lm_eval/tasks/leaderboard/math/utils.py and its _template_yaml:
//
//	task version 1.0  3c8db1bb7 (2024-07-03), harness 0.4.3 to 0.4.5:
//	                  is_equiv(answer, doc["answer"]) alone (sympy)
//	task version 2.0  77c811ead (2024-11-11), 0.4.6 to 0.4.8: "[invalidanswer]"
//	                  scores 0, equal strings (stripped) 1, else is_equiv
//	task version 3.0  61ee86781 (2025-04-01), 0.4.9 to 0.4.13.dev0:
//	                  exact_match by math_verify, exact_match_original by the
//	                  2.0 rules against normalize_final_answer(doc["answer"])
//
// It is told first from the process_results source the results file
// records, then from the rows (only 3.0 writes exact_match_original), the
// task's version, and last the harness version with the run's date (0.4.5
// wrote both 1.0 and 2.0: a checkout after 2024-11-11 has the new code).

// ownScorer is how one task's own code compared, nil for any other task.
type ownScorer struct {
	ifeval bool
	// v1 is the metric the "Final Answer" extraction scores ("" none);
	// goldNorm normalises the doc's answer before comparing (3.0);
	// invalidZero and equalOne are the 2.0 rules; rulesKnown is false
	// when 1.0 and 2.0 cannot be told apart.
	v1                              string
	goldNorm, invalidZero, equalOne bool
	rulesKnown                      bool
	// verify is the metric math_verify scores ("" none).
	verify string
	// code says whose code this is and how evalview told it.
	code string
}

// ownScorerOf tells how task's own code compared, from its results file
// (nil without one) and the metrics its rows hold.
func ownScorerOf(r *results, task string, rowMetrics []string) *ownScorer {
	src := ""
	if r != nil {
		if cfg, ok := r.config(task); ok && len(cfg.ProcessResults) > 0 {
			_ = json.Unmarshal(cfg.ProcessResults, &src)
		}
	}
	has := func(m string) bool {
		for _, n := range rowMetrics {
			if n == m {
				return true
			}
		}
		return false
	}
	switch {
	case strings.Contains(src, "test_instruction_following"), has("inst_level_strict_acc"), has("inst_level_loose_acc"):
		// ifeval's metrics, whatever its task is named.
		return &ownScorer{ifeval: true, code: "ifeval's process_results: each instruction's check_following, strict and loose"}
	case strings.Contains(src, "process_result_v1"):
		return mathV3("the process_results the results file records")
	case strings.Contains(src, "get_unnormalized_answer"):
		o := &ownScorer{v1: "exact_match", invalidZero: strings.Contains(src, "INVALID_ANSWER"),
			equalOne: strings.Contains(src, ".strip() =="), rulesKnown: true}
		if strings.Contains(src, "math_verify") {
			o.verify = "math_verify"
		}
		switch {
		case strings.HasPrefix(task, "minerva_math"):
			o.code = "minerva_math's code"
		case o.invalidZero && o.equalOne:
			o.code = "leaderboard_math task version 2.0 (lm-eval 0.4.6 to 0.4.8)"
		case !o.invalidZero && !o.equalOne:
			o.code = "leaderboard_math task version 1.0 (lm-eval 0.4.3 to 0.4.5)"
		default:
			o.code = "leaderboard_math's code"
		}
		o.code += ", told by the process_results the results file records"
		return o
	case src != "":
		return nil // code of its own that evalview does not know
	case strings.HasPrefix(task, "minerva_math"):
		// minerva_math has always compared with is_equiv alone; since
		// 358adaf7d (2025-02-21) it adds a math_verify metric.
		o := &ownScorer{v1: "exact_match", rulesKnown: true, code: "minerva_math's process_results (no config in a results file)"}
		if has("math_verify") {
			o.verify = "math_verify"
		}
		return o
	case strings.HasPrefix(task, "leaderboard_math"):
		return leaderboardMath(r, task, has("exact_match_original"))
	}
	return nil
}

// mathV3 is leaderboard_math's scoring from task version 3.0 (0.4.9).
func mathV3(how string) *ownScorer {
	return &ownScorer{v1: "exact_match_original", goldNorm: true, invalidZero: true, equalOne: true, rulesKnown: true,
		verify: "exact_match", code: "leaderboard_math task version 3.0 (lm-eval 0.4.9 and later), told by " + how}
}

// leaderboardMath tells leaderboard_math's code without its source: from
// the rows, the task version, the harness version and the run's date.
func leaderboardMath(r *results, task string, original bool) *ownScorer {
	if original {
		return mathV3("the rows' exact_match_original")
	}
	v1 := func(how string) *ownScorer {
		return &ownScorer{v1: "exact_match", rulesKnown: true, code: "leaderboard_math task version 1.0 (lm-eval 0.4.3 to 0.4.5), told by " + how}
	}
	v2 := func(how string) *ownScorer {
		return &ownScorer{v1: "exact_match", invalidZero: true, equalOne: true, rulesKnown: true,
			code: "leaderboard_math task version 2.0 (lm-eval 0.4.6 to 0.4.8), told by " + how}
	}
	unknown := &ownScorer{v1: "exact_match", code: "leaderboard_math task version 1.0 or 2.0 (nothing in the files tells which)"}
	if r == nil {
		return unknown
	}
	switch v := r.Versions[task]; v {
	case "1.0", "1":
		return v1("the task version")
	case "2.0", "2":
		return v2("the task version")
	}
	harness, date := "", ""
	for _, f := range r.Facts {
		switch f.Key {
		case "harness":
			harness = f.Value
		case "date":
			date = f.Value
		}
	}
	if date == "" && len(r.Stamp) >= 10 {
		date = r.Stamp[:10]
	}
	minor, patch, ok := harnessVersion(harness)
	switch {
	case !ok || minor != 4:
	case patch <= 4:
		return v1("the harness version " + harness)
	case patch == 5 && date != "" && date[:min(10, len(date))] < "2024-11-11":
		return v1("the harness version 0.4.5 and the run's date, before the 2.0 code (2024-11-11)")
	case patch == 5:
		unknown.code = "leaderboard_math task version 1.0 or 2.0: lm-eval 0.4.5 as released has 1.0, a checkout after 2024-11-11 (this run's date or later) 2.0"
	case patch <= 8:
		return v2("the harness version " + harness)
	}
	return unknown
}

// harnessVersion reads "0.4.5" (or "0.4.9.1", "0.4.13.dev0") as 4, 5.
func harnessVersion(s string) (minor, patch int, ok bool) {
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	if len(parts) < 3 || parts[0] != "0" {
		return 0, 0, false
	}
	m, err1 := strconv.Atoi(parts[1])
	p, err2 := strconv.Atoi(strings.TrimRightFunc(parts[2], func(r rune) bool { return r < '0' || r > '9' }))
	return m, p, err1 == nil && err2 == nil
}

// describe puts on rec what the task compared: each filter row's
// Compared, and a section per filter in the Filters tab.
func (o *ownScorer) describe(task string, rec *model.Record, doc json.RawMessage) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(doc, &fields) != nil {
		return
	}
	for i := range rec.Filters {
		fr := &rec.Filters[i]
		resp := fr.Answer
		if len(fr.Answers) > 0 {
			resp = fr.Answers[0] // process_results' results[0]
		}
		title := "What " + task + "'s own code compared"
		if o.ifeval {
			title = "The instructions " + task + "'s own code checked"
		}
		if len(rec.Filters) > 1 {
			title += " · filter " + fr.Filter
		}
		s, ok := model.Section{}, true
		if o.ifeval {
			s, ok = o.instructions(fr, fields)
		} else {
			s = o.math(fr, fields, resp, rec.Target)
		}
		if !ok {
			continue
		}
		s.Title, s.Tab = title, "Filters"
		rec.Sections = append(rec.Sections, s)
	}
}

// math describes a leaderboard_math or minerva_math row: per metric,
// what was compared with what, and the verdict as far as it is
// reproduced; the math_verify metric first when it is the main one.
func (o *ownScorer) math(fr *model.FilterResult, doc map[string]json.RawMessage, resp, target string) model.Section {
	facts := []model.Fact{{Key: "code", Value: o.code}}
	gold := target
	if a, ok := doc["answer"]; ok {
		gold = scalarText(a)
	}
	var v1, mv []model.Fact
	if o.v1 != "" {
		ans := lmfilter.MathNormalize(lmfilter.MathUnnormalized(resp))
		against := "the doc's answer"
		if o.goldNorm {
			gold = lmfilter.MathNormalize(gold)
			against += ", normalised"
		}
		v1 = []model.Fact{{Key: o.v1, Value: "compared " + ans +
			" (the text after \"Final Answer: The final answer is\", normalised by normalize_final_answer) with " +
			gold + " (" + against + "): " + o.verdict(fr, ans, gold)}}
		fr.Compared = ans
	}
	if o.verify != "" {
		v := "compared by math_verify, not reproduced: the response's last \\boxed{...} is "
		if box, ok := lmfilter.MathLastBoxed(resp); ok {
			v += box
		} else {
			v = "compared by math_verify, not reproduced: the response has no \\boxed{...}"
		}
		mv = []model.Fact{{Key: o.verify, Value: v + " (math_verify reads more than boxes), with the doc's solution; " + loggedText(fr, o.verify)}}
		if o.verify == "exact_match" { // the main metric's comparison
			fr.Compared = "math_verify (below)"
			v1, mv = mv, v1
		}
	}
	facts = append(append(facts, v1...), mv...)
	return model.Section{Type: model.SectionFacts, Facts: facts}
}

// loggedText is the row's value of metric name, as "logged 1".
func loggedText(fr *model.FilterResult, name string) string {
	if v, ok := fr.Metric(name); ok {
		return "logged " + numText(v)
	}
	return "no value logged"
}

// verdict says what the code makes of ans against gold, as far as it is
// reproduced, beside the logged value.
func (o *ownScorer) verdict(fr *model.FilterResult, ans, gold string) string {
	logged := loggedText(fr, o.v1)
	switch {
	case !o.rulesKnown && ans == lmfilter.MathInvalid:
		return "no final answer found: 0 in version 2.0; sympy's is_equiv decides in 1.0 (not reproduced); " + logged
	case !o.rulesKnown:
		return "equal strings score 1 in version 2.0; otherwise, and in 1.0 always, sympy's is_equiv decides (not reproduced); " + logged
	case o.invalidZero && ans == lmfilter.MathInvalid:
		return "no final answer found: 0; " + logged + differsFrom(fr, o.v1, 0)
	case o.equalOne && lmfilter.MathEqualStrings(ans, gold):
		return "equal strings: 1; " + logged + differsFrom(fr, o.v1, 1)
	case o.equalOne:
		return "not equal as strings: sympy's is_equiv decided (not reproduced); " + logged
	}
	return "sympy's is_equiv decides, equal strings or not (not reproduced); " + logged
}

// differsFrom says when the row's logged value of metric is not the
// verdict want the task's code gives by its own rules: the row was
// edited, or written by other code than the one evalview told.
func differsFrom(fr *model.FilterResult, metric string, want float64) string {
	if v, ok := fr.Metric(metric); ok && v != want {
		return ", which differs: the row edited, or scored by other code?"
	}
	return ""
}

// instructions describes an ifeval row: each instruction of the doc's
// instruction_id_list with the kwargs its check was built with (the
// harness drops the falsy ones) and the row's inst_level_strict_acc and
// inst_level_loose_acc for it.
func (o *ownScorer) instructions(fr *model.FilterResult, doc map[string]json.RawMessage) (model.Section, bool) {
	var ids []string
	var kwargs []json.RawMessage
	_ = json.Unmarshal(doc["instruction_id_list"], &ids)
	_ = json.Unmarshal(doc["kwargs"], &kwargs)
	strict, loose := rowBools(fr, "inst_level_strict_acc"), rowBools(fr, "inst_level_loose_acc")
	n := max(len(ids), len(strict), len(loose))
	t := &model.Table{Columns: []string{"instruction", "kwargs", "strict", "loose"}}
	for i := range n {
		id, kw := "–", ""
		if i < len(ids) {
			id = ids[i]
		}
		if i < len(kwargs) {
			kw = truthyKwargs(kwargs[i])
		}
		t.Rows = append(t.Rows, []string{id, kw, mark(strict, i), mark(loose, i)})
	}
	s := model.Section{Type: model.SectionTable, Table: t}
	if len(ids) == 0 && strict == nil && loose == nil {
		return s, false // nothing of ifeval's in this row: the answer stays
	}
	fr.Compared = fmt.Sprintf("strict %s · loose %s", followed(strict), followed(loose))
	if len(ids) != len(strict) || len(ids) != len(loose) {
		s.Table.Rows = append(s.Table.Rows, []string{fmt.Sprintf("(the doc lists %d instructions, the row %d strict and %d loose results)", len(ids), len(strict), len(loose)), "", "", ""})
	}
	return s, true
}

// rowBools is the list of booleans a row holds for metric name; nil
// when it holds none.
func rowBools(fr *model.FilterResult, name string) []float64 {
	for _, v := range fr.Values {
		if v.Name == name {
			return v.Nums
		}
	}
	return nil
}

// mark is ✓ or ✗ for element i of a list of booleans, "–" past its end.
func mark(bs []float64, i int) string {
	switch {
	case i >= len(bs):
		return "–"
	case bs[i] != 0:
		return "✓"
	}
	return "✗"
}

// followed counts the true elements: "2/3", or "–" for none.
func followed(bs []float64) string {
	if bs == nil {
		return "–"
	}
	n := 0
	for _, b := range bs {
		if b != 0 {
			n++
		}
	}
	return fmt.Sprintf("%d/%d", n, len(bs))
}

// truthyKwargs writes an instruction's kwargs as the harness passes them
// to build_description: the falsy ones (null, 0, "", false, [], {})
// dropped, in the doc's order.
func truthyKwargs(kw json.RawMessage) string {
	fields, err := objectEntries(kw)
	if err != nil {
		return ""
	}
	var parts []string
	for _, f := range fields {
		switch strings.TrimSpace(string(f.Val)) {
		case "null", "0", "0.0", `""`, "false", "[]", "{}":
			continue
		}
		parts = append(parts, f.Key+"="+scalarText(f.Val))
	}
	return strings.Join(parts, ", ")
}

// rowMetricNames are the names of the metrics rec's rows hold, numbers
// or not.
func rowMetricNames(rec *model.Record) []string {
	var out []string
	for _, f := range rec.Filters {
		for _, m := range f.Metrics {
			out = append(out, m.Name)
		}
		for _, v := range f.Values {
			out = append(out, v.Name)
		}
	}
	return out
}
