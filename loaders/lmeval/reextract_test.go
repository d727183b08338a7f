package lmeval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/model"
	"evalview/model/compare"
)

func openOne(t *testing.T, dir string) *model.Dataset {
	t.Helper()
	dss, err := Open(dir)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	if len(dss) != 1 {
		t.Fatalf("%s: %d datasets", dir, len(dss))
	}
	return dss[0]
}

func deep(t *testing.T, ds *model.Dataset) *model.DeepReport {
	t.Helper()
	if ds.Deep == nil {
		t.Fatal("no Deep")
	}
	rep, err := ds.Deep(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func issueCodes(issues []model.Issue) []string {
	var out []string
	for _, is := range issues {
		out = append(out, is.Code)
	}
	return out
}

func TestReextractMismatch(t *testing.T) {
	ds := openOne(t, "../../testdata/lmeval/reextract_mismatch")
	rep := deep(t, ds)
	if got := strings.Join(issueCodes(rep.Issues), ","); got != "reextract-mismatch,reextract-mismatch" {
		t.Fatalf("deep issues %v", rep.Issues)
	}
	if len(rep.Flagged) != 2 || rep.Flagged[0] != 1 || rep.Flagged[1] != 2 {
		t.Errorf("flagged %v, want [1 2]", rep.Flagged)
	}
	want := []struct {
		line          int
		record, words string
	}{
		{2, "1", `filter "strict-match": the samples log "3" but re-applying its pipeline`},
		{7, "2", `filter "flexible-extract": the samples log "130,000"`},
	}
	for i, w := range want {
		is := rep.Issues[i]
		if is.Line != w.line || is.Record != w.record || !strings.Contains(is.Message, w.words) || is.Severity != model.SeverityWarning {
			t.Errorf("issue %d = %v, want line %d record %s %q", i, is, w.line, w.record, w.words)
		}
	}
	if !strings.Contains(rep.Issues[0].Message, `gives "[invalid]"`) || !strings.Contains(rep.Issues[1].Message, `gives "130000"`) {
		t.Errorf("messages do not name the re-extracted answers: %v", rep.Issues)
	}
	// The record itself carries the warning and the extraction says the
	// log disagrees.
	r, err := ds.Records.Record(1)
	if err != nil {
		t.Fatal(err)
	}
	if got := issueCodes(r.Issues); len(got) != 1 || got[0] != "reextract-mismatch" || r.Warnings != 1 {
		t.Errorf("record 1 issues %v warnings %d", got, r.Warnings)
	}
	e := r.Attempts[0].Extractions[0]
	if e.Filter != "strict-match" || e.Answer != "[invalid]" || e.Logged != "3" || !e.Disagrees || e.Start != -1 || e.Status != model.StatusFail {
		t.Errorf("strict-match extraction %+v", e)
	}
	// flexible-extract matched "3" at the end of "Total: 3 bolts.": its
	// span points at it. The fixture carries gsm8k's real metric_list,
	// whose regexes_to_ignore strip the target down to "3": pass, as the
	// samples log (exact_match 1).
	f := r.Attempts[0].Extractions[1]
	if f.Answer != "3" || f.Start < 0 || r.Attempts[0].Text[f.Start:f.End] != "3" || f.Disagrees || f.Status != model.StatusPass {
		t.Errorf("flexible-extract extraction %+v", f)
	}
	// The clean twin of the fixture gives nothing.
	if rep := deep(t, openOne(t, "../../testdata/lmeval/two_filters")); len(rep.Issues) != 0 || rep.PassAtK != nil {
		t.Errorf("two_filters: %v, pass@k %v", rep.Issues, rep.PassAtK)
	}
}

func TestReextractRepeats(t *testing.T) {
	ds := openOne(t, "../../testdata/lmeval/generated_3filters_8repeats")
	r, err := ds.Records.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Attempts) != 8 {
		t.Fatalf("%d attempts", len(r.Attempts))
	}
	for i, a := range r.Attempts {
		if len(a.Extractions) != 3 {
			t.Fatalf("attempt %d: %d extractions", i, len(a.Extractions))
		}
		sf, maj := a.Extractions[0], a.Extractions[1]
		if sf.Filter != "score-first" || maj.Filter != "maj@8" || sf.Answer != maj.Answer {
			t.Errorf("attempt %d: %+v %+v", i, sf, maj)
		}
		// score-first keeps only the first repeat; maj@8 counts all 8.
		if notCounted := strings.HasPrefix(sf.Note, compare.NotCounted); notCounted != (i > 0) {
			t.Errorf("attempt %d score-first note %q", i, sf.Note)
		}
		if strings.HasPrefix(maj.Note, compare.NotCounted) {
			t.Errorf("attempt %d maj@8 not counted: %q", i, maj.Note)
		}
		if sf.Start >= 0 && !strings.Contains(a.Text[sf.Start:sf.End], strings.TrimSpace(sf.Answer)) {
			t.Errorf("attempt %d span %q vs answer %q", i, a.Text[sf.Start:sf.End], sf.Answer)
		}
	}
	// The vote the harness logged is the winner of the histogram.
	votes := compare.Votes(r, "maj@8")
	if len(votes) == 0 || !votes[0].Chosen || votes[0].Answer != r.Filters[1].Answer {
		t.Errorf("votes %+v, logged %q", votes, r.Filters[1].Answer)
	}
	total := 0
	for _, v := range votes {
		total += v.Count
	}
	if total != 8 {
		t.Errorf("votes count %d repeats, want 8", total)
	}
	rep := deep(t, ds)
	if len(rep.Issues) != 0 || rep.Repeats != 8 {
		t.Errorf("issues %v repeats %d", rep.Issues, rep.Repeats)
	}
	for _, f := range ds.Filters {
		pk := rep.PassAtK[f]
		if len(pk) != 4 || pk[1] > pk[2] || pk[2] > pk[4] || pk[4] > pk[8] {
			t.Errorf("pass@k of %s: %v", f, pk)
		}
	}
}

// TestReextractStatusMatchesLoggedMetric checks the exact_match port: the
// answer the filter picks, scored by evalview, is right exactly when the
// samples log exact_match 1, on the generated fixture, on two_filters
// (which carries gsm8k's real metric_list) and on the real files.
func TestReextractStatusMatchesLoggedMetric(t *testing.T) {
	dirs := []string{"../../testdata/lmeval/generated_3filters_8repeats", "../../testdata/lmeval/two_filters"}
	if dir, err := filepath.Abs("../../../shared/data/lm_eval"); err == nil {
		if _, err := os.Stat(dir); err == nil {
			dirs = append(dirs, dir)
		}
	}
	checked := 0
	for _, dir := range dirs {
		dss, err := Open(dir)
		if err != nil && len(dss) == 0 {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, ds := range dss {
			if ds.Deep == nil {
				continue
			}
			if rep := deep(t, ds); len(issueCodes(rep.Issues)) > 0 && rep.Issues[0].Code == "reextract-mismatch" {
				t.Errorf("%s: %v", ds.Path, rep.Issues)
			}
			for i := 0; i < ds.Records.Len(); i++ {
				r, err := ds.Records.Record(i)
				if err != nil {
					t.Fatal(err)
				}
				for _, fr := range r.Filters {
					votes := compare.Votes(r, fr.Filter)
					if len(votes) == 0 || fr.Status == model.StatusUnscored {
						continue
					}
					if got := votes[0].Correct; got != (fr.Status == model.StatusPass) {
						t.Errorf("%s doc %s %s: chosen %q correct=%v, logged status %v (target %q)",
							filepath.Base(ds.Path), r.ID, fr.Filter, votes[0].Answer, got, fr.Status, r.Target)
					}
					checked++
				}
			}
		}
	}
	if checked < 24 {
		t.Errorf("only %d filter rows checked", checked)
	}
}

func TestReextractConfigs(t *testing.T) {
	t.Run("missing config uses defaults and says so", func(t *testing.T) {
		ds := openOne(t, "../../testdata/lmeval/broken")
		rep := deep(t, ds)
		if got := issueCodes(rep.Issues); len(got) != 1 || got[0] != "filter-config-default" || rep.Issues[0].Record != "" {
			t.Fatalf("issues %v", rep.Issues)
		}
		r, err := ds.Records.Record(0)
		if err != nil {
			t.Fatal(err)
		}
		e := r.Attempts[0].Extractions[0]
		if !strings.Contains(e.Note, "harness default for strict-match") || !strings.Contains(e.Note, `regex(regex_pattern="#### (`) || !strings.HasSuffix(e.Note, "-> take_first") {
			t.Errorf("note %q", e.Note)
		}
	})
	t.Run("unsupported filter function", func(t *testing.T) {
		dir := t.TempDir()
		copyFixture(t, "../../testdata/lmeval/two_filters", dir, func(name string, b []byte) []byte {
			if strings.HasPrefix(name, "results") {
				return []byte(strings.Replace(string(b), `"function": "take_first"`, `"function": "my_custom_pick"`, 1))
			}
			return b
		})
		ds := openOne(t, dir)
		var got []model.Issue
		for _, is := range ds.Issues {
			if is.Code == "filter-unsupported" {
				got = append(got, is)
			}
		}
		if len(got) != 1 || got[0].Severity != model.SeverityNote || !strings.Contains(got[0].Message, `"strict-match" (step 2: my_custom_pick)`) {
			t.Fatalf("issues %v", ds.Issues)
		}
		rep := deep(t, ds)
		if len(rep.Issues) != 0 {
			t.Errorf("deep issues %v", rep.Issues)
		}
		r, _ := ds.Records.Record(0)
		if ex := r.Attempts[0].Extractions; len(ex) != 1 || ex[0].Filter != "flexible-extract" {
			t.Errorf("extractions %+v", ex)
		}
	})
	t.Run("log-likelihood tasks are skipped", func(t *testing.T) {
		ds := openOne(t, "../../testdata/lmeval/string_logprobs")
		rep := deep(t, ds)
		r, _ := ds.Records.Record(0)
		if len(rep.Issues) != 0 || len(r.Attempts) == 0 || r.Attempts[0].Extractions != nil {
			t.Errorf("issues %v extractions %+v", rep.Issues, r.Attempts)
		}
	})
}

func TestDeepCancel(t *testing.T) {
	ds := openOne(t, "../../testdata/lmeval/generated_3filters_8repeats")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ds.Deep(ctx, nil); err == nil {
		t.Error("cancelled deep check returned no error")
	}
	var last [2]int
	if _, err := ds.Deep(context.Background(), func(d, n int) { last = [2]int{d, n} }); err != nil {
		t.Fatal(err)
	}
	if last != [2]int{12, 12} {
		t.Errorf("last progress %v, want [12 12]", last)
	}
}

// copyFixture copies the files of dir into dst, passing each through edit.
func copyFixture(t *testing.T, dir, dst string, edit func(name string, b []byte) []byte) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), edit(e.Name(), b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDeepCountsReextracted: the deep report counts the filter rows it
// re-extracted, so that no view says the logged answers agree with a
// re-extraction that did not run: none for multiple-choice and
// log-likelihood tasks and for ifeval (its own code reads the whole
// response), every row for generate tasks (two filters of 4 docs).
func TestDeepCountsReextracted(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want int
	}{
		{"../../testdata/lmeval/two_filters", 8},
		{"../../testdata/lmeval/reextract_mismatch", 8},
		{"../../testdata/lmeval/generated_3filters_8repeats", 36},
		{"../../testdata/lmeval/old_array", 0},
		{"../../testdata/lmeval/ifeval", 0},
		{"../../testdata/lmeval/class_tasks", 0},
	} {
		dss, err := Open(c.dir)
		if err != nil || len(dss) == 0 {
			t.Fatalf("open %s: %v", c.dir, err)
		}
		if got := deep(t, dss[0]).Reextracted; got != c.want {
			t.Errorf("%s: %d filter rows re-extracted, want %d", c.dir, got, c.want)
		}
	}
}
