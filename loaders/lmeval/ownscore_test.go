package lmeval

import (
	"encoding/json"
	"strings"
	"testing"

	"evalview/model"
)

// ownRecord opens record i of task in testdata/lmeval/dir.
func ownRecord(t *testing.T, dir, task string, i int) *model.Record {
	t.Helper()
	ds := byTask(t, dir)[task]
	if ds == nil {
		t.Fatalf("%s: no dataset for %s", dir, task)
	}
	rec, err := ds.Records.Record(i)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// filtersText is the text of rec's sections in the Filters tab.
func filtersText(rec *model.Record) string {
	var b strings.Builder
	for _, s := range rec.Sections {
		if s.Tab != "Filters" {
			continue
		}
		b.WriteString(s.Title + "\n")
		for _, f := range s.Facts {
			b.WriteString(f.Key + ": " + f.Value + "\n")
		}
		if s.Table != nil {
			for _, r := range s.Table.Rows {
				b.WriteString(strings.Join(r, " | ") + "\n")
			}
		}
	}
	return b.String()
}

func wantAll(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// TestOwnScoreMathVerify: a leaderboard_math row of task version 3.0
// (harness 0.4.9) shows that exact_match is math_verify's, not
// reproduced, with the response's last \boxed{...}, and what
// exact_match_original compared: the "Final Answer" extraction,
// normalised, against the doc's answer normalised; never the whole
// response as the compared answer (issue 14 item 6).
func TestOwnScoreMathVerify(t *testing.T) {
	rec := ownRecord(t, "leaderboard_math", "leaderboard_math_algebra_hard", 1)
	if got := rec.Filters[0].Compared; got != "math_verify (below)" {
		t.Errorf("compared %q", got)
	}
	wantAll(t, "record 1", filtersText(rec),
		"task version 3.0 (lm-eval 0.4.9 and later), told by the process_results the results file records",
		`exact_match: compared by math_verify, not reproduced: the response's last \boxed{...} is 7`,
		"exact_match_original: compared [invalidanswer]",
		"with 7 (the doc's answer, normalised): no final answer found: 0; logged 0")
	rec = ownRecord(t, "leaderboard_math", "leaderboard_math_algebra_hard", 3)
	wantAll(t, "record 3", filtersText(rec),
		`exact_match_original: compared 0.5 (`,
		`with \frac{1}{2} (the doc's answer, normalised): not equal as strings: sympy's is_equiv decided (not reproduced); logged 1`)
}

// TestOwnScoreMathV2: a row of task version 2.0 (harness 0.4.7) shows
// the extracted, normalised answer as what exact_match compared, and
// the verdict its rules give where they decide alone.
func TestOwnScoreMathV2(t *testing.T) {
	for i, c := range []struct{ compared, verdict string }{
		{"16", "with 16 (the doc's answer): equal strings: 1; logged 1"},
		{"[invalidanswer]", "no final answer found: 0; logged 0"},
		{`\frac{1}{2}`, `with \frac{1}{3} (the doc's answer): not equal as strings: sympy's is_equiv decided (not reproduced); logged 0`},
	} {
		rec := ownRecord(t, "leaderboard_math_v2", "leaderboard_math_algebra_hard", i)
		if got := rec.Filters[0].Compared; got != c.compared {
			t.Errorf("record %d: compared %q, want %q", i, got, c.compared)
		}
		text := filtersText(rec)
		wantAll(t, "record", text, c.verdict, "leaderboard_math task version 2.0 (lm-eval 0.4.6 to 0.4.8)")
		if strings.Contains(text, "math_verify") {
			t.Errorf("version 2.0 has no math_verify:\n%s", text)
		}
	}
}

// TestOwnScoreIFEval: an ifeval row shows the instructions its code
// checked, strict and loose, not the response as an answer.
func TestOwnScoreIFEval(t *testing.T) {
	rec := ownRecord(t, "ifeval", "leaderboard_ifeval", 1)
	if got := rec.Filters[0].Compared; got != "strict 2/3 · loose 3/3" {
		t.Errorf("compared %q", got)
	}
	wantAll(t, "ifeval record 1", filtersText(rec),
		"change_case:english_lowercase |  | ✓ | ✓\nchange_case:english_lowercase |  | ✗ | ✓\nchange_case:english_lowercase |  | ✓ | ✓\n")
}

// TestOwnScoreOthers: a task scored against its target through filters
// (gsm8k) shows its answers as they are.
func TestOwnScoreOthers(t *testing.T) {
	rec := ownRecord(t, "two_filters", "gsm8k", 0)
	for _, f := range rec.Filters {
		if f.Compared != "" {
			t.Errorf("gsm8k %s: compared %q", f.Filter, f.Compared)
		}
	}
	if s := filtersText(rec); s != "" {
		t.Errorf("gsm8k sections: %s", s)
	}
}

// TestLeaderboardMathCode: without the process_results source, which
// code scored a leaderboard_math row is told from the rows, the task
// version, the harness version and the run's date, as the harness's
// history has it (0.4.5 wrote both 1.0 and 2.0).
func TestLeaderboardMathCode(t *testing.T) {
	res := func(version, harness, date string) *results {
		return &results{Versions: map[string]string{"leaderboard_math_x_hard": version},
			Facts: []model.Fact{{Key: "harness", Value: harness}, {Key: "date", Value: date}}}
	}
	for _, c := range []struct {
		r        *results
		original bool
		code     string
		equalOne bool
	}{
		{nil, true, "version 3.0", true},
		{nil, false, "version 1.0 or 2.0 (nothing", false},
		{res("1.0", "", ""), false, "version 1.0 (lm-eval 0.4.3 to 0.4.5), told by the task version", false},
		{res("2.0", "", ""), false, "version 2.0 (lm-eval 0.4.6 to 0.4.8), told by the task version", true},
		{res("", "0.4.4", "2024-09-10 10:00:00 UTC"), false, "version 1.0", false},
		{res("", "0.4.5", "2024-10-20 10:00:00 UTC"), false, "version 1.0", false},
		{res("", "0.4.5", "2024-12-01 10:00:00 UTC"), false, "1.0 or 2.0: lm-eval 0.4.5 as released", false},
		{res("", "0.4.8", "2025-03-10 10:00:00 UTC"), false, "version 2.0", true},
		{res("", "0.4.13.dev0", ""), false, "1.0 or 2.0", false},
	} {
		o := ownScorerOf(c.r, "leaderboard_math_x_hard", map[bool][]string{true: {"exact_match", "exact_match_original"}, false: {"exact_match"}}[c.original])
		if o == nil || !strings.Contains(o.code, c.code) || o.equalOne != c.equalOne {
			t.Errorf("%+v: %+v, want %q", c, o, c.code)
		}
	}
}

// TestTruthyKwargs: an instruction's kwargs as the harness builds the
// check with them: falsy values dropped ({k: v ... if v}), in order.
func TestTruthyKwargs(t *testing.T) {
	got := truthyKwargs([]byte(`{"num_sentences": 3, "relation": "less than", "num_words": null, "prompt_to_repeat": "", "capital_frequency": 0, "keywords": [], "end_phrase": "Is there anything else?"}`))
	if want := "num_sentences=3, relation=less than, end_phrase=Is there anything else?"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestOwnScorerFromSource: the process_results source a results file
// records tells which code scored the rows: leaderboard_math 1.0 (is_equiv
// alone), 2.0, 3.0 (math_verify), minerva_math with its math_verify
// metric (358adaf7d), ifeval; an unknown function of the task's own is
// left alone.
func TestOwnScorerFromSource(t *testing.T) {
	src := func(task, code string) *results {
		cfg, _ := json.Marshal(map[string]any{"process_results": code})
		return &results{Configs: map[string]json.RawMessage{task: cfg}}
	}
	const v1 = "def process_results(doc, results):\n    candidates = results[0]\n    unnormalized_answer = get_unnormalized_answer(candidates)\n    answer = normalize_final_answer(unnormalized_answer)\n    if is_equiv(answer, doc[\"answer\"]):\n"
	const v2 = "    if answer == INVALID_ANSWER:\n        return {\"exact_match\": 0}\n    if answer.strip() == doc[\"answer\"].strip() or is_equiv(answer, doc[\"answer\"]):\n"
	const minerva = v1 + "    _mvres = verify(gold=parse(doc[\"solution\"]), target=parse(candidates))\n    res = {\"exact_match\": retval, \"math_verify\": mathval}\n"
	for _, c := range []struct {
		task, code string
		want       ownScorer
		ok         bool
	}{
		{"leaderboard_math_geometry_hard", v1, ownScorer{v1: "exact_match", rulesKnown: true}, true},
		{"leaderboard_math_geometry_hard", v1 + v2, ownScorer{v1: "exact_match", invalidZero: true, equalOne: true, rulesKnown: true}, true},
		{"leaderboard_math_geometry_hard", "    original = process_result_v1(doc, candidates)\n", ownScorer{v1: "exact_match_original", goldNorm: true, invalidZero: true, equalOne: true, rulesKnown: true, verify: "exact_match"}, true},
		{"minerva_math_algebra", minerva, ownScorer{v1: "exact_match", rulesKnown: true, verify: "math_verify"}, true},
		{"leaderboard_ifeval", "    out_strict = test_instruction_following_strict(inp, response)\n", ownScorer{ifeval: true}, true},
		{"leaderboard_math_geometry_hard", "def process_results(doc, results):\n    return {\"exact_match\": my_check(results[0])}\n", ownScorer{}, false},
	} {
		o := ownScorerOf(src(c.task, c.code), c.task, []string{"exact_match"})
		if (o != nil) != c.ok {
			t.Errorf("%s %q: %+v", c.task, c.code, o)
			continue
		}
		if o == nil {
			continue
		}
		got := *o
		got.code = ""
		if got != c.want {
			t.Errorf("%s: %+v, want %+v", c.task, got, c.want)
		}
	}
}

// TestMathVerdictDiffers: where the task's rules decide alone, a logged
// value they do not give is said to differ.
func TestMathVerdictDiffers(t *testing.T) {
	o := &ownScorer{v1: "exact_match", invalidZero: true, equalOne: true, rulesKnown: true}
	fr := &model.FilterResult{Metrics: []model.MetricValue{{Name: "exact_match", Value: 0}}}
	if got := o.verdict(fr, "16", "16"); !strings.Contains(got, "equal strings: 1; logged 0, which differs") {
		t.Errorf("equal strings logged 0: %q", got)
	}
	fr.Metrics[0].Value = 1
	if got := o.verdict(fr, "[invalidanswer]", "16"); !strings.Contains(got, "no final answer found: 0; logged 1, which differs") {
		t.Errorf("invalid logged 1: %q", got)
	}
	if got := o.verdict(fr, "16", "16"); strings.Contains(got, "differs") {
		t.Errorf("agreeing verdict: %q", got)
	}
}

// TestOwnScorerRealResults: on a real results file of the leaderboard
// (2025-01, its leaderboard_math configs of task version 2.0 and
// leaderboard_ifeval), the recorded process_results tell 2.0's rules and
// ifeval's checks.
func TestOwnScorerRealResults(t *testing.T) {
	r, err := readResults(sharedData(t) + "/results_only/results_2025-01-25T04-48-43.622918.json")
	if err != nil {
		t.Fatal(err)
	}
	o := ownScorerOf(r, "leaderboard_math_algebra_hard", []string{"exact_match"})
	if o == nil || o.v1 != "exact_match" || !o.invalidZero || !o.equalOne || o.verify != "" || !strings.Contains(o.code, "version 2.0") {
		t.Errorf("leaderboard_math: %+v", o)
	}
	if o := ownScorerOf(r, "leaderboard_ifeval", []string{"prompt_level_strict_acc"}); o == nil || !o.ifeval {
		t.Errorf("ifeval: %+v", o)
	}
	if o := ownScorerOf(r, "leaderboard_bbh_navigate", []string{"acc_norm"}); o != nil {
		t.Errorf("bbh: %+v", o)
	}
}
