package evalscope

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/internal/outdir"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// line is one line of a prediction or review file.
type line struct {
	file string
	n    int
	obj  jsonl.Object
	raw  []byte
}

// The sizes EvalScope's files are read to (variables, so that tests can
// lower them): a line of predictions or reviews holds one sample, as
// Sample JSONL's line does; a report, a dataset's scores by subset, is
// read whole; a task config only for its list of datasets.
var (
	maxLine   = 128 << 20
	maxReport = int64(32 << 20)
	maxConfig = int64(4 << 20)
)

// readLines reads a JSON Lines file of EvalScope's, by the sample index
// each line names (a later line for an index wins, as the cache's
// reader keeps the last), in the order first written. A line past
// maxLine is not read, and said.
func readLines(path string) ([]string, map[string]line, []model.Issue, error) {
	r, err := jsonl.OpenRegular(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer r.Close()
	var order []string
	byIdx := map[string]line{}
	var issues []model.Issue
	err = jsonl.ScanLinesMax(r, maxLine, func(l jsonl.Line) error {
		if l.Cut {
			issues = append(issues, jsonl.LineTooLong(path, l, "an EvalScope line", maxLine))
			return nil
		}
		if jsonl.IsBlank(l.Data) {
			return nil
		}
		data := nonfinite.Sanitize(append([]byte(nil), l.Data...))
		obj, ok := jsonl.ParseObject(data)
		if !ok {
			var v any
			err := json.Unmarshal(data, &v)
			issues = append(issues, model.Errorf("bad-json", path, l.N, "", "not a JSON object: %v", err))
			return nil
		}
		idx := ""
		if v, ok := obj.Get("index"); ok {
			idx = jsonl.ScalarText(v)
		} else {
			idx = strconv.Itoa(len(order))
			issues = append(issues, model.Warnf("bad-json", path, l.N, "", "a line without index: numbered by its place"))
		}
		if prev, dup := byIdx[idx]; !dup {
			order = append(order, idx)
		} else {
			issues = append(issues, model.Warnf("duplicate-id", path, l.N, idx,
				"index %s again (line %d): this line is read, the earlier one not, as EvalScope's cache reads the file", idx, prev.n))
		}
		byIdx[idx] = line{file: path, n: l.N, obj: obj, raw: data}
		return nil
	})
	return order, byIdx, issues, err
}

// sample is one record being built, with its per-sample values for the
// report's recomputation.
type sample struct {
	rec    *model.Record
	subset string
	values map[string]float64
	main   string
	// binary tells that the main score is a boolean.
	binary bool
}

// buildUnit reads a unit's files into its dataset.
func buildUnit(root, stamp string, u *unit) (*model.Dataset, error) {
	ds := &model.Dataset{Kind: model.KindEvalScope, Task: u.dataset, Title: u.dataset}
	ds.Origin = model.Origin{Task: u.dataset, Model: u.model, Run: outdir.Run(stamp)}
	if outdir.IsStamp(stamp) {
		ds.Title += " " + model.RunTime(outdir.Run(stamp))
	}
	var rep *report
	if u.report != "" {
		r, err := readReport(u.report)
		if err != nil {
			ds.Issues = append(ds.Issues, model.Errorf(jsonl.ReadCode(err, "bad-json"), u.report, 0, "", "%v", err))
		} else {
			rep = r
			ds.Metrics = r.reported()
			if ds.Origin.Model == "" {
				ds.Origin.Model = r.modelName
			}
		}
	}
	if ds.Origin.Model != "" {
		ds.Facts = append(ds.Facts, model.Fact{Key: "model", Value: ds.Origin.Model})
	}
	ds.Facts = append(ds.Facts, model.Fact{Key: "dataset", Value: u.dataset})
	if rep != nil && rep.prettyName != "" && rep.prettyName != u.dataset {
		ds.Facts = append(ds.Facts, model.Fact{Key: "benchmark", Value: rep.prettyName})
	}
	if stamp != "" {
		ds.Facts = append(ds.Facts, model.Fact{Key: "run", Value: stamp}, model.Fact{Key: "output folder", Value: root})
	}
	if u.report != "" {
		ds.Facts = append(ds.Facts, model.Fact{Key: "report", Value: u.report})
	} else if len(u.subsets) > 0 && stamp != "" {
		ds.Issues = append(ds.Issues, model.Warnf("no-report", u.files()[0], 0, "",
			"no reports/%s/%s.json: the evaluation did not finish (or its report was removed), so no score is reported", u.model, u.dataset))
	}
	if u.split != "" {
		ds.Issues = append(ds.Issues, model.Notef("subset-unknown", u.files()[0], 0, "", "%s", u.split))
	}

	mainKey := ""
	if rep != nil && len(rep.metrics) > 0 {
		mainKey = rep.metrics[0].key
		ds.MainMetric = rep.metrics[0].name
	}
	var samples []*sample
	var subsetNames []string
	for _, s := range u.subsets {
		subsetNames = append(subsetNames, s.name)
		var porder, rorder []string
		var preds, revs map[string]line
		if s.pred != "" {
			o, m, issues, err := readLines(s.pred)
			if err != nil {
				ds.Issues = append(ds.Issues, model.Errorf("read-error", s.pred, 0, "", "reading stopped: %v", jsonl.Bare(err)))
			}
			porder, preds = o, m
			ds.Issues = append(ds.Issues, issues...)
		}
		if s.review != "" {
			o, m, issues, err := readLines(s.review)
			if err != nil {
				ds.Issues = append(ds.Issues, model.Errorf("read-error", s.review, 0, "", "reading stopped: %v", jsonl.Bare(err)))
			}
			rorder, revs = o, m
			ds.Issues = append(ds.Issues, issues...)
		} else if s.pred != "" {
			ds.Issues = append(ds.Issues, model.Warnf("no-reviews", s.pred, 0, "",
				"no review file beside these predictions: they were not scored (yet)"))
		}
		order := mergeOrder(porder, rorder)
		for _, idx := range order {
			var p, r *line
			if l, ok := preds[idx]; ok {
				p = &l
			}
			if l, ok := revs[idx]; ok {
				r = &l
			}
			sm := buildSample(idx, s.name, p, r, mainKey)
			samples = append(samples, sm)
		}
	}
	several := len(u.subsets) > 1
	binary := true
	for _, sm := range samples {
		if several {
			sm.rec.ID = sm.subset + "/" + sm.rec.ID
		}
		if sm.rec.HasScore {
			if !sm.binary && sm.rec.Score != 0 && sm.rec.Score != 1 {
				binary = false
			}
		}
	}
	recs := make([]*model.Record, 0, len(samples))
	for _, sm := range samples {
		r := sm.rec
		if r.HasScore && binary && r.Status != model.StatusError {
			r.Status = model.StatusFail
			if r.Score == 1 {
				r.Status = model.StatusPass
			}
			for i := range r.Attempts {
				r.Attempts[i].Status = r.Status
			}
		}
		r.Errors, r.Warnings = model.CountIssues(r.Issues)
		recs = append(recs, r)
	}
	ds.Records = model.NewMemIndex(recs)
	if len(u.files()) > 0 {
		ds.Path = u.files()[0]
		for _, f := range u.files()[1:] {
			ds.Companions = append(ds.Companions, f)
		}
	}
	if len(subsetNames) > 0 && (len(subsetNames) > 1 || subsetNames[0] != "") {
		ds.Facts = append(ds.Facts, model.Fact{Key: "subsets", Value: strings.Join(subsetNames, ", ")})
	}
	scoreName := ""
	for _, sm := range samples {
		if sm.main != "" {
			scoreName = sm.main
			break
		}
	}
	if ds.MainMetric == "" {
		ds.MainMetric = scoreName
	}
	ds.Presentation = presentation(scoreName)
	if rep != nil {
		values := func(key, subset string) []float64 {
			var out []float64
			for _, sm := range samples {
				if sm.subset != subset {
					continue
				}
				if v, ok := sm.values[key]; ok && !math.IsNaN(v) {
					out = append(out, v)
				}
			}
			return out
		}
		ds.Recomputed = recomputeReport(rep, values)
		for _, c := range ds.Recomputed {
			if c.Differs() {
				ds.Issues = append(ds.Issues, model.Warnf("metric-differs", rep.path, 0, "",
					"%s: the report says %.4f, the reviews give %.4f (%s, over %d samples): reviews of another run, trimmed, or re-scored since",
					c.Name, c.Reported, c.Samples, c.Aggregation, c.N))
			}
		}
	}
	if ds.Path == "" {
		return nil, fmt.Errorf("%s of %s: no file to read", u.dataset, u.model)
	}
	return ds, nil
}

// mergeOrder is the samples' order: the review's, then predictions not
// reviewed, indexes sorted as numbers where they are numbers.
func mergeOrder(preds, revs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range [][]string{preds, revs} {
		for _, i := range l {
			if !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		x, e1 := strconv.Atoi(out[a])
		y, e2 := strconv.Atoi(out[b])
		if e1 == nil && e2 == nil {
			return x < y
		}
		return e1 == nil && e2 != nil
	})
	return out
}

// buildSample builds one sample's record from its prediction line and
// its review line (either may be absent).
func buildSample(idx, subsetName string, p, r *line, mainKey string) *sample {
	rec := &model.Record{}
	rec.ID = idx
	sm := &sample{rec: rec, subset: subsetName, values: map[string]float64{}}
	if subsetName != "" {
		rec.Labels = model.NewLabels("subset", subsetName)
	}
	legacy := p != nil && p.obj.Has("raw_input") || r != nil && r.obj.Has("raw_input")
	if legacy {
		buildLegacy(sm, p, r)
	} else {
		buildCurrent(sm, p, r, mainKey)
	}
	for _, l := range []*line{p, r} {
		if l == nil {
			continue
		}
		label := "prediction " + idx
		if l == r {
			label = "review " + idx
		}
		rec.Raw = append(rec.Raw, model.RawPart{Label: label, File: l.file, Line: l.n, JSON: l.raw})
	}
	if p != nil {
		rec.Line = p.n
	} else if r != nil {
		rec.Line = r.n
	}
	rec.Target = strings.Join(rec.References, " | ")
	if rec.Target != "" {
		pairs := []string{"target", jsonl.Clip(jsonl.FirstLine(rec.Target, 200), 64)}
		if subsetName != "" {
			pairs = append(pairs, "subset", subsetName)
		}
		rec.Labels = model.NewLabels(pairs...)
	}
	for i := len(rec.Messages) - 1; i >= 0 && rec.Title == ""; i-- {
		if rec.Messages[i].Role == model.RoleUser {
			rec.Title = jsonl.FirstLine(rec.Messages[i].Text(), 200)
		}
	}
	if rec.Title == "" && len(rec.Messages) > 0 {
		rec.Title = jsonl.FirstLine(rec.Messages[0].Text(), 200)
	}
	rec.Summary.Attempts = len(rec.Attempts)
	for _, a := range rec.Attempts {
		if a.HasWeighted {
			rec.ScoredAttempts++
		}
	}
	return sm
}

// presentation is how the browser shows an EvalScope dataset: the list
// shows each sample's target and subset beside its score (named by the
// review's name for it); text starts raw (the same benchmarks as
// lm-eval's); two runs compare by the samples whose right or wrong
// changed; the review's scores have their own tab.
func presentation(scoreName string) model.Presentation {
	p := model.Presentation{
		Columns:        []string{"id", "title", "subset", "target", "score"},
		ColumnHeads:    map[string]string{"title": "input"},
		ColumnRanks:    map[string]int{"target": 60, "subset": 40},
		RawText:        true,
		CompareByFlips: true,
		IDsPerTask:     true,
		AttemptScore:   "score",
		QueryHint:      "subset=… target=… status=fail",
		NoMetrics:      "no report: the evaluation did not finish",
	}
	if scoreName != "" {
		p.ColumnHeads["score"] = scoreName
	}
	return p
}
