package runzip

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"evalview/model"
)

// Score files whose sample is missing (the run has no samples/, as the
// spec's own reference run, or one sample file is gone) still hold the
// prompt, rendering_name, source_category and every attempt's scores and
// judge note. Each becomes a record of its own, built from the score
// alone; its attempts say that their response is not in the run. The
// importer rejects such scores, and check says so once for all of them
// (the files in the issue's Items), not once per file.

// finishScores builds a record from each score file no sample took (the
// first file of each sample_index; later ones are duplicate-score-file
// warnings on it) and reports them once.
func (l *loader) finishScores() {
	ctx := l.recCtx()
	var orphans []*scoreInfo
	for _, sc := range l.scores {
		if sc.used {
			continue
		}
		sc.used = true
		id := sc.doc.ref.name
		if sc.hasIndex {
			id = strconv.Itoa(sc.index)
			for _, other := range l.scoresOf[sc.index] {
				if other == sc || other.used {
					continue
				}
				other.used = true
				other.chk.warnf("duplicate-score-file", other.doc.root.get("sample_index"), "$.sample_index",
					"sample %d is already scored by %s; this file is not used", sc.index, sc.doc.ref.name)
				sc.chk.issues = append(sc.chk.issues, other.chk.issues...)
			}
		}
		why := fmt.Sprintf("not in this run: no sample file has sample_index %s", id)
		if !sc.hasIndex {
			why = "not in this run: the score file has no sample_index to find its sample by"
		} else if l.stopped {
			why = "not read: the run is over its size limit, and no sample file read has this sample_index"
		}
		r := buildScoreRecord(ctx, id, sc.doc, why)
		r.Errors, r.Warnings = model.CountIssues(sc.chk.issues)
		l.addEntry(r, sc.chk.issues, nil, sc.doc.ref, sc.index, sc.hasIndex)
		l.entries[len(l.entries)-1].noSample = why
		l.cats = append(l.cats, sampleCategory{name: category(sc.doc.root)})
		orphans = append(orphans, sc)
	}
	l.orphanIssue(orphans)
}

// orphanIssue reports the score files without a sample, once: with the
// missing samples/ when the run has none, else as one orphan-score error
// (at the file itself when there is only one).
func (l *loader) orphanIssue(orphans []*scoreInfo) {
	noSamples := len(l.rf.samples) == 0
	if len(orphans) == 0 || (l.stopped && !noSamples) {
		if noSamples {
			l.issues = append(l.issues, model.Errorf("no-samples", l.rf.missing("samples/"), 0, "", "the run has no samples/*.json; the importer requires at least one"))
		}
		return
	}
	var items []string
	var idx []int
	for _, sc := range orphans {
		items = append(items, sc.doc.ref.display)
		if sc.hasIndex {
			idx = append(idx, sc.index)
		}
	}
	what := plural(len(orphans), "score file")
	if len(idx) > 0 {
		what += " (sample_index " + indexRanges(idx) + ")"
	}
	if noSamples {
		is := model.Errorf("no-samples", l.rf.missing("samples/"), 0, "",
			"the run has no samples/*.json: the importer requires at least one, and the sample of each score file, so its %s would be rejected; evalview shows them from the scores alone, without responses", what)
		is.Items = items
		l.issues = append(l.issues, is)
		return
	}
	msg := fmt.Sprintf("%s %s no sample file; the importer rejects a score without its sample; evalview shows %s from the scores alone, without responses",
		what, map[bool]string{true: "has", false: "have"}[len(orphans) == 1], map[bool]string{true: "it", false: "them"}[len(orphans) == 1])
	if len(orphans) == 1 {
		sc := orphans[0]
		if sc.hasIndex {
			sc.chk.errorf("orphan-score", sc.doc.root.get("sample_index"), "$.sample_index", "no sample file has sample_index %d; the importer rejects a score without its sample; evalview shows it from the score alone, without responses", sc.index)
			is := sc.chk.issues[len(sc.chk.issues)-1]
			sc.chk.issues = sc.chk.issues[:len(sc.chk.issues)-1]
			is.Items = items
			l.issues = append(l.issues, is)
			return
		}
		is := model.Errorf("orphan-score", sc.doc.ref.display, 0, "", "%s", msg)
		is.Items = items
		l.issues = append(l.issues, is)
		return
	}
	is := model.Errorf("orphan-score", l.rf.missing("scores/"), 0, "", "%s", msg)
	is.Items = items
	l.issues = append(l.issues, is)
}

// plural is "1 score file", "340 score files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// indexRanges writes sample indexes as ranges ("1-340", "3, 7-9"), at
// most five of them, then how many more.
func indexRanges(idx []int) string {
	sort.Ints(idx)
	var parts []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] <= idx[j]+1 {
			j++
		}
		if idx[j] == idx[i] {
			parts = append(parts, strconv.Itoa(idx[i]))
		} else {
			parts = append(parts, strconv.Itoa(idx[i])+"-"+strconv.Itoa(idx[j]))
		}
		i = j + 1
	}
	if len(parts) > 5 {
		return strings.Join(parts[:5], ", ") + fmt.Sprintf(" and %d more ranges", len(parts)-5)
	}
	return strings.Join(parts, ", ")
}

// buildScoreRecord maps a score file without its sample to a record: the
// prompt, title and category the score file repeats from the sample, and
// one attempt per attempt_eval, scored but without text; why says where
// the response is.
func buildScoreRecord(ctx recCtx, id string, sc *doc, why string) *model.Record {
	root := sc.root
	r := &model.Record{}
	r.ID = id
	r.Title = sampleTitle(root, sc.ref.name)
	seen := map[int]bool{}
	var weights []float64
	for _, e := range root.get("attempt_evals").itemsOrNil() {
		if e.kind != jsonObject {
			continue
		}
		n, ok := e.get("attempt").integer()
		if ok && seen[n] {
			continue // a duplicate-attempt error; the first is used
		}
		seen[n] = true
		at := buildAttempt(ctx, nil, &node{kind: jsonObject, fields: map[string]*node{"attempt": e.get("attempt")}, keys: []string{"attempt"}}, sc, e)
		at.StatusText = ""
		at.NoText = why
		if at.HasWeighted {
			weights = append(weights, at.Weighted)
		}
		r.Attempts = append(r.Attempts, at)
	}
	r.Labels = model.NewLabels("errored", "no")
	if cat := category(root); cat != "" {
		r.Labels = r.Labels.With("category", cat)
	}
	scoreSummary(ctx, r, weights, false)
	promptAndFields(r, sc, "attempt_evals")
	r.Raw = []model.RawPart{{Label: sc.ref.name, File: sc.ref.display, Line: 1, JSON: sc.data}}
	return r
}

// scoredSample is what the scores_map.json figures need of a record.
func scoredSample(index int, r *model.Record) ScoredSample {
	s := ScoredSample{Index: index, Category: r.Labels.Get("category")}
	for _, a := range r.Attempts {
		if a.HasWeighted {
			s.Weights = append(s.Weights, a.Weighted)
		}
	}
	return s
}
