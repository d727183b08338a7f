package opencompass

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"evalview/loaders/internal/outdir"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// buildUnit reads a unit's files into its dataset.
func buildUnit(root, stamp string, u *unit, sum *summary) (*model.Dataset, error) {
	ds := &model.Dataset{Kind: model.KindOpenCompass, Task: u.dataset, Title: u.dataset}
	ds.Origin = model.Origin{Task: u.dataset, Model: u.model}
	if !outdir.IsStamp(stamp) {
		stamp = "" // a folder named otherwise: no run to tell
	}
	ds.Origin.Run = outdir.Run(stamp)
	if u.judge != "" {
		ds.Origin.Config = []model.Fact{{Key: "judge", Value: u.judge}}
		ds.Title += " judged by " + u.judge
	}
	if stamp != "" {
		ds.Title += " " + model.RunTime(outdir.Run(stamp))
	}
	if u.model != "" {
		ds.Facts = append(ds.Facts, model.Fact{Key: "model", Value: u.model})
	}
	ds.Facts = append(ds.Facts, model.Fact{Key: "dataset", Value: u.dataset})
	if u.judge != "" {
		ds.Facts = append(ds.Facts, model.Fact{Key: "judge", Value: u.judge})
	}
	if stamp != "" {
		ds.Facts = append(ds.Facts, model.Fact{Key: "run", Value: stamp})
	}
	if root != "" && u.model != "" {
		ds.Facts = append(ds.Facts, model.Fact{Key: "work folder", Value: root})
	}

	// The predictions, in order; the splits' keys start again at "0"
	// in each file, and the evaluator reads them one after the other.
	var items []item
	switch {
	case len(u.preds) > 0:
		for _, p := range u.preds {
			its, issues, err := readItems(p)
			if err != nil {
				ds.Issues = append(ds.Issues, model.Errorf(jsonl.ReadCode(err, "bad-json"), p, 0, "", "%v", err))
				continue
			}
			ds.Issues = append(ds.Issues, issues...)
			items = append(items, its...)
		}
		ds.Path = u.preds[0]
	case u.tmp != "":
		its, issues, err := readCheckpoint(u.tmp)
		if err != nil {
			ds.Issues = append(ds.Issues, model.Errorf(jsonl.ReadCode(err, "bad-json"), u.tmp, 0, "", "%v", err))
		}
		ds.Issues = append(ds.Issues, issues...)
		items = its
		ds.Path = u.tmp
		ds.Issues = append(ds.Issues, model.Warnf("unfinished", u.tmp, 0, "",
			"only the inferencer's checkpoint (%s): the inference did not finish, and its %d records are those done so far", filepath.Base(u.tmp), len(its)))
	}
	if len(u.preds) > 1 {
		ds.Facts = append(ds.Facts, model.Fact{Key: "splits", Value: strconv.Itoa(len(u.preds))})
	}

	var res *results
	if u.results != "" {
		r, err := readResults(u.results)
		if err != nil {
			ds.Issues = append(ds.Issues, model.Errorf(jsonl.ReadCode(err, "bad-json"), u.results, 0, "", "%v", err))
		} else {
			res = r
			ds.Metrics = r.metrics
			ds.Facts = append(ds.Facts, model.Fact{Key: "results", Value: u.results})
			ds.Facts = append(ds.Facts, r.extra...)
			if r.errText != "" {
				ds.Issues = append(ds.Issues, model.Errorf("eval-error", u.results, 0, "", "the evaluator failed: %s", jsonl.Clip(r.errText, 500)))
			}
		}
		if ds.Path == "" {
			ds.Path = u.results
			ds.Issues = append(ds.Issues, model.Warnf("no-predictions", u.results, 0, "",
				"no predictions/%s/%s.json in the work folder: the records are the results' details alone", u.model, u.dataset))
		}
	} else if ds.Path != "" && root != "" && u.model != "" {
		ds.Issues = append(ds.Issues, model.Warnf("no-results", ds.Path, 0, "",
			"no results/%s/%s.json: the predictions were not evaluated (yet), so nothing is scored", u.model, u.dataset))
	}
	for _, p := range u.files() {
		if p != ds.Path {
			ds.Companions = append(ds.Companions, p)
		}
	}

	recs, rowMetric := buildRecords(ds, items, res)
	ds.Records = model.NewMemIndex(recs)
	mainMetric := ""
	if len(ds.Metrics) > 0 {
		mainMetric = ds.Metrics[0].Name
	}
	if mainMetric == "" {
		mainMetric = rowMetric
	}
	ds.MainMetric = mainMetric
	ds.Presentation = presentation(rowMetric)
	if res != nil {
		ds.Recomputed, ds.Issues = recompute(ds, res, recs, rowMetric, ds.Issues)
		if len(items) > 0 && res.nDetails > 0 && res.nDetails != len(recs) {
			ds.Issues = append(ds.Issues, model.Warnf("details-count", res.path, 0, "",
				"the results hold %d details for %d records", res.nDetails, len(recs)))
		}
		if res.detailsType != "" {
			ds.Facts = append(ds.Facts, model.Fact{Key: "mode", Value: strings.ToLower(res.detailsType)})
		}
	}
	if sum != nil {
		rows, col := sum.forUnit(u)
		if len(rows) > 0 {
			ds.Facts = append(ds.Facts, model.Fact{Key: "summary", Value: sum.path})
			if v := rows[0].version; v != "" && v != "-" {
				ds.Facts = append(ds.Facts, model.Fact{Key: "prompt version", Value: v})
			}
			if m := rows[0].mode; m != "" && m != "-" && ds.Fact("mode") == "" {
				ds.Facts = append(ds.Facts, model.Fact{Key: "mode", Value: m})
			}
			ds.Issues = append(ds.Issues, summaryIssues(sum, rows, col, ds.Metrics)...)
			if res == nil {
				for _, r := range rows {
					ds.Metrics = append(ds.Metrics, model.Metric{Name: r.metric, Value: r.values[col]})
				}
				if len(ds.Metrics) > 0 && ds.MainMetric == "" {
					ds.MainMetric = ds.Metrics[0].Name
				}
			}
		}
	}
	if ds.Path == "" {
		return nil, fmt.Errorf("%s of %s: no file to read", u.dataset, u.model)
	}
	return ds, nil
}

// buildRecords makes the records: one per prediction, with its details;
// when the dataset was repeated n times (the evaluator's replicas, n
// times as many predictions as details), one per detail with its n
// predictions as attempts. Details without predictions are records of
// their own. It returns the records and the details' name for their
// correctness ("" when they have none).
func buildRecords(ds *model.Dataset, items []item, res *results) ([]*model.Record, string) {
	n := 1
	if res != nil && res.nDetails > 0 && len(items) > res.nDetails && len(items)%res.nDetails == 0 {
		n = len(items) / res.nDetails
	}
	size := len(items) / n
	var recs []*model.Record
	metric := ""
	single := true
	for _, it := range items {
		single = single && it.file == items[0].file
	}
	for i := 0; i < size; i++ {
		var reps []item
		for j := 0; j < n; j++ {
			reps = append(reps, items[j*size+i])
		}
		var d *detail
		if res != nil {
			if dd, ok := res.details[i]; ok {
				d = &dd
			}
		}
		rec, m := buildRecord(ds, i, reps, d, res)
		if single && len(reps) > 0 {
			// One file: the record is the key it was written under
			// (the splits' keys start again in each).
			rec.ID = reps[0].key
		}
		recs = append(recs, rec)
		if metric == "" {
			metric = m
		}
	}
	if res != nil && len(items) == 0 {
		for _, k := range slices.Sorted(maps.Keys(res.details)) {
			d := res.details[k]
			rec, m := buildRecord(ds, k, nil, &d, res)
			recs = append(recs, rec)
			if metric == "" {
				metric = m
			}
		}
	}
	return recs, metric
}

// buildRecord builds record i from its predictions (one per replica) and
// its details, and the name of its score ("" when it has none).
func buildRecord(ds *model.Dataset, i int, reps []item, d *detail, res *results) (*model.Record, string) {
	rec := &model.Record{}
	rec.ID = strconv.Itoa(i)
	var golds []string
	var ppl *pplTable
	for ri, it := range reps {
		if ri == 0 {
			if p, ok := it.get("origin_prompt"); ok {
				rec.Messages = messagesOf(p)
			}
			if ice, ok := it.get("in-context examples"); ok {
				if s := text(ice); strings.TrimSpace(s) != "" {
					rec.Messages = append([]model.Message{{Role: model.RoleUser, FewShot: true, Label: "in-context examples",
						Segments: []model.Segment{{Type: model.SegText, Text: s}}}}, rec.Messages...)
				}
			}
			if g, ok := it.get("gold"); ok {
				golds = texts(g)
			}
			ppl = pplOf(it)
		}
		pred, _ := it.get("prediction")
		for _, t := range predictionTexts(pred) {
			a := model.Attempt{Index: len(rec.Attempts) + 1, Text: t}
			if n, ok := it.get("res_length"); ok {
				a.Facts = append(a.Facts, model.Fact{Key: "response tokens", Value: text(n)})
			}
			rec.Attempts = append(rec.Attempts, a)
		}
		label := "predictions " + it.key
		if it.line > 0 {
			label = "checkpoint idx " + it.key
		}
		rec.Raw = append(rec.Raw, model.RawPart{Label: label, File: it.file, Line: it.line, JSON: it.raw})
	}
	if ppl != nil {
		for _, l := range ppl.labels {
			rec.Options = append(rec.Options, model.Option{ID: l.label, Text: l.prompt, Correct: len(golds) == 1 && l.label == golds[0]})
		}
		rec.Sections = append(rec.Sections, ppl.section())
	}
	var o score
	if d != nil {
		applyDetail(rec, &o, d, res, &golds)
		rec.Raw = append(rec.Raw, model.RawPart{Label: "details " + rec.ID, File: res.path, JSON: d.raw})
	}
	rec.References = golds
	rec.Target = strings.Join(golds, " | ")
	rec.Status, rec.Score, rec.HasScore = o.status, o.value, o.name != ""
	rec.Summary.Attempts = len(rec.Attempts)
	for _, a := range rec.Attempts {
		if a.Status == model.StatusPass || a.Status == model.StatusFail {
			rec.ScoredAttempts++
		}
	}
	rec.Title = titleOf(rec)
	if rec.Target != "" {
		rec.Labels = model.NewLabels("target", jsonl.Clip(jsonl.FirstLine(rec.Target, 200), 64))
	}
	for _, it := range reps[:min(1, len(reps))] {
		for _, m := range it.obj.Members {
			if !knownKey(m.Key) {
				f := model.Field{Name: m.Key, Value: text(m.Value), IsJSON: jsonl.KindOf(m.Value) != jsonl.KindString}
				rec.Fields = append(rec.Fields, f)
			}
		}
	}
	rec.Errors, rec.Warnings = model.CountIssues(rec.Issues)
	return rec, o.name
}

// score is a record's correctness as its details give it.
type score struct {
	name   string // the details' key ("correct"), "" without one
	value  float64
	status model.Status
}

// knownKey tells the output handlers' own keys, which the record shows
// in its place; the others are its fields.
func knownKey(k string) bool {
	switch k {
	case "origin_prompt", "prediction", "gold", "in-context examples", "res_length", "all_input_length", "idx":
		return true
	}
	return strings.HasPrefix(k, "label: ")
}

// predictionTexts are a prediction's texts: a string, several sequences
// (a list), or a dict output's "prediction".
func predictionTexts(raw []byte) []string {
	if raw == nil {
		return nil
	}
	if o, ok := jsonl.ParseObject(raw); ok {
		if p, ok := o.Get("prediction"); ok {
			return texts(p)
		}
		return []string{jsonl.Pretty(raw)}
	}
	return texts(raw)
}

// titleOf is the record's list title: its last user turn's first line.
func titleOf(rec *model.Record) string {
	for i := len(rec.Messages) - 1; i >= 0; i-- {
		m := rec.Messages[i]
		if m.Role == model.RoleUser && !m.FewShot {
			if t := jsonl.FirstLine(m.Text(), 200); t != "" {
				return t
			}
		}
	}
	if len(rec.Messages) > 0 {
		return jsonl.FirstLine(rec.Messages[len(rec.Messages)-1].Text(), 200)
	}
	return ""
}

// applyDetail puts a record's details on it: correctness per replica
// (the record's status and its "correct" value), the evaluator's
// extracted answer and reference, a judge's response and grade, and
// every field in a table.
func applyDetail(rec *model.Record, o *score, d *detail, res *results, golds *[]string) {
	if bs, name, ok := d.correct(); ok {
		pass := 0
		for i, b := range bs {
			if b {
				pass++
			}
			if i < len(rec.Attempts) {
				rec.Attempts[i].Status = statusOf(b)
			}
		}
		*o = score{name: name, value: float64(pass) / float64(len(bs)), status: model.StatusFail}
		if pass == len(bs) {
			o.status = model.StatusPass
		}
	}
	if d.judged() {
		resp, _ := d.obj.Get("prediction")
		rs := texts(resp)
		for i, r := range rs {
			if i < len(rec.Attempts) {
				rec.Attempts[i].Judge = r
			} else if i == 0 {
				rec.Attempts = append(rec.Attempts, model.Attempt{Index: 1, NoText: "no prediction of the model in the work folder", Judge: r})
			}
		}
		if p, ok := d.obj.Get("origin_prompt"); ok {
			rec.Sections = append(rec.Sections, model.Section{Title: "judge prompt", Type: model.SectionMessages, Tab: evalTab,
				Messages: messagesOf(p), Folded: true})
		}
		if res.graded && len(rs) > 0 && o.name == "" {
			pass := 0
			for i, r := range rs {
				g := gradeOf(r)
				st := model.StatusUnscored
				switch g {
				case "A":
					st = model.StatusPass
					pass++
				case "B":
					st = model.StatusFail
				}
				if i < len(rec.Attempts) {
					rec.Attempts[i].Status, rec.Attempts[i].StatusText = st, "grade "+g
				}
			}
			*o = score{name: "correct", value: float64(pass) / float64(len(rs)), status: model.StatusFail}
			if pass == len(rs) {
				o.status = model.StatusPass
			}
		}
		if g, ok := d.obj.Get("gold"); ok && len(*golds) == 0 {
			*golds = texts(g)
		}
	} else {
		if len(*golds) == 0 {
			for _, k := range []string{"answer", "references", "ref", "gold"} {
				if v, ok := d.obj.Get(k); ok {
					*golds = texts(v)
					break
				}
			}
		}
		if len(rec.Attempts) == 0 {
			if v, ok := d.obj.Get("origin_prediction"); ok {
				for _, t := range texts(v) {
					rec.Attempts = append(rec.Attempts, model.Attempt{Index: len(rec.Attempts) + 1, Text: t})
				}
			}
		}
		if len(rec.Messages) == 0 {
			if v, ok := d.obj.Get("prompt"); ok {
				rec.Messages = messagesOf(v)
			}
		}
	}
	var rows [][]string
	for _, m := range d.obj.Members {
		if d.judged() && (m.Key == "origin_prompt" || m.Key == "prediction") {
			continue
		}
		rows = append(rows, []string{m.Key, jsonl.Clip(text(m.Value), 2000)})
	}
	if len(rows) > 0 {
		rec.Sections = append(rec.Sections, model.Section{Title: "details", Type: model.SectionTable, Tab: evalTab,
			Table: &model.Table{Columns: []string{"field", "value"}, Rows: rows}})
	}
}

// evalTab is the detail tab of the evaluator's details.
const evalTab = "Evaluation"

func statusOf(b bool) model.Status {
	if b {
		return model.StatusPass
	}
	return model.StatusFail
}

// pplTable is a PPL record's per-label scores.
type pplTable struct {
	labels []pplLabel
}

type pplLabel struct {
	label, prompt string
	ppl, bpb      float64
	hasPPL, hasBP bool
}

// pplOf reads a PPL inferencer's "label: X" members: the prompt scored
// for each label, its PPL and BPB.
func pplOf(it item) *pplTable {
	var t pplTable
	for _, m := range it.obj.Members {
		l, ok := strings.CutPrefix(m.Key, "label: ")
		if !ok {
			continue
		}
		o, ok := jsonl.ParseObject(m.Value)
		if !ok {
			continue
		}
		pl := pplLabel{label: l}
		if p, ok := o.Get("testing input"); ok {
			pl.prompt = text(p)
		} else if p, ok := o.Get("prompt"); ok {
			pl.prompt = text(p)
		}
		if v, ok := o.Get("PPL"); ok {
			pl.ppl, pl.hasPPL = floatOf(v)
		}
		if v, ok := o.Get("BPB"); ok {
			pl.bpb, pl.hasBP = floatOf(v)
		}
		t.labels = append(t.labels, pl)
	}
	if len(t.labels) == 0 {
		return nil
	}
	return &t
}

func (t *pplTable) section() model.Section {
	var rows [][]string
	best := -1
	for i, l := range t.labels {
		if l.hasPPL && !math.IsNaN(l.ppl) && (best < 0 || l.ppl < t.labels[best].ppl) {
			best = i
		}
	}
	for i, l := range t.labels {
		row := []string{l.label, num(l.ppl, l.hasPPL), num(l.bpb, l.hasBP), ""}
		if i == best {
			row[3] = "lowest"
		}
		rows = append(rows, row)
	}
	return model.Section{Title: "perplexity per label (the lowest is the prediction)", Type: model.SectionTable, Tab: evalTab,
		Table: &model.Table{Columns: []string{"label", "PPL", "BPB", ""}, Rows: rows}}
}

func num(f float64, ok bool) string {
	if !ok {
		return ""
	}
	return strconv.FormatFloat(f, 'g', 6, 64)
}
