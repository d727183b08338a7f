package lighteval

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// openDetails reads a details file's list columns into list rows.
func openDetails(path string) (*model.Dataset, error) {
	return detailsFrom(path, fileOpener(path))
}

// detailsFrom is openDetails over what open gives; path names the file
// (its task, its date, its results file).
func detailsFrom(path string, open opener) (ds *model.Dataset, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("not a readable parquet file (damaged?): %v", v)
		}
	}()
	pq, err := open()
	if err != nil {
		return nil, err
	}
	defer pq.Close()
	cols, stringsOnly := pq.columns()
	era := eraOf(cols, stringsOnly)
	task, date := taskAndDate(path)
	ds = &model.Dataset{Kind: model.KindLighteval, Path: path, Task: task, Title: task, Filters: []string{""}}
	if date != "" {
		ds.Title = task + " " + date[:min(16, len(date))]
	}
	var res *results
	resultsTask := ""
	if rp := findResults(path, date); rp != "" {
		if res, err = readResults(rp); err != nil {
			ds.Issues = append(ds.Issues, model.Errorf("bad-results", rp, 0, "", "%v", err))
			res = nil
		} else if k, ok := res.taskKey(task); ok {
			resultsTask = k
			ds.Metrics = res.metrics(k)
			ds.Facts = append(ds.Facts, res.facts()...)
			ds.Facts = append(ds.Facts, model.Fact{Key: "results", Value: rp})
		} else {
			ds.Issues = append(ds.Issues, model.Warnf("task-not-in-results", rp, 0, "", "the results file reports no task %q", task))
		}
	} else {
		ds.Issues = append(ds.Issues, model.Warnf("no-results", path, 0, "",
			"no results_%s.json beside the details, one folder up, or in the output folder's results/: no reported metrics to compare", date))
	}
	ds.Origin.Run = date // the details file's stamp, as the harness names its runs
	if res != nil {
		ds.Origin.Config = res.config()
	}
	ds.Facts = append(ds.Facts, model.Fact{Key: "task", Value: task}, model.Fact{Key: "date", Value: date},
		model.Fact{Key: "rows", Value: strconv.FormatInt(pq.pf.NumRows(), 10)}, model.Fact{Key: "schema", Value: era})

	main := ""
	if len(ds.Metrics) > 0 {
		main = ds.Metrics[0].Name
	}
	var sums []model.Summary
	var heads []string
	err = pq.eachRow(pq.projection(era), func(i int, m map[string]any) error {
		r := normalize(m, era)
		if main == "" && len(r.metrics) > 0 {
			main = r.metrics[0].name
		}
		sums = append(sums, summaryOf(i, r, main, path))
		heads = append(heads, queryHead(r.query))
		return nil
	})
	if lead := titleRows(sums, heads); lead != "" {
		// Said once, as the list's titles leave it out.
		ds.Facts = append(ds.Facts, model.Fact{Key: "every query opens", Value: strings.TrimSpace(lead)})
	}
	if err != nil {
		ds.Issues = append(ds.Issues, model.Errorf("bad-parquet", path, 0, "", "reading the list columns stopped: %v; the rows before are shown", err))
	}
	ds.MainMetric = main
	unjudge(sums)
	ds.Issues = append(ds.Issues, meanIssues(path, ds.Metrics, sums, resultsTask)...)
	ds.Records = &index{path: path, open: open, era: era, main: main, sums: sums}
	return ds, nil
}

// queryHead is the start of a query that its title is taken from.
func queryHead(q string) string {
	return jsonl.Own(jsonl.Clip(strings.TrimSpace(q), 1000), q)
}

// titleRows titles the rows by the part of their queries that tells them
// apart: a task's queries often open with the same instruction line
// ("Answer the following multiple choice question. The last line of your
// response should be …"), which as the title of every row says nothing.
// The lines every query shares (model.SharedLead) and a known instruction
// line are skipped; a shared phrase within a line ("Question: ") is left
// to the list, which skips it only where titles do not fit. The record
// keeps the query whole (Record.FullTitle, for export). It returns the
// lines skipped, "" for none.
func titleRows(sums []model.Summary, heads []string) string {
	lead := model.SharedLead(heads)
	if !strings.Contains(lead, "\n") {
		lead = ""
	}
	for i := range sums {
		if i < len(heads) {
			sums[i].Title = firstLine(model.TitleAfter(heads[i], lead))
		}
	}
	return lead
}

// summaryOf builds a row's list entry.
func summaryOf(i int, r row, main, path string) model.Summary {
	s := model.Summary{ID: strconv.Itoa(i), Title: firstLine(r.query)}
	o := model.Outcome{Present: true, Answer: jsonl.Clip(firstLine(r.answer()), 200)}
	for _, m := range r.metrics {
		if !m.ok {
			continue
		}
		if math.IsNaN(m.value) {
			s.Warnings++
			continue
		}
		o.Metrics = append(o.Metrics, model.MetricValue{Name: m.name, Value: m.value})
		if m.name == main {
			o.Score, o.HasScore = m.value, true
			o.Status = statusOf(m.value)
		}
	}
	s.Outcomes = []model.Outcome{o}
	s.Status, s.Score, s.HasScore = o.Status, o.Score, o.HasScore
	s.Attempts = len(r.texts)
	if s.Attempts == 0 && len(r.logprobs) > 0 {
		s.Attempts = 1
	}
	if len(r.gold) > 0 {
		s.Labels = model.NewLabels("target", jsonl.Clip(strings.Join(r.gold, " | "), 64))
	}
	return s
}

// meanIssues recomputes each reported metric as the mean of the rows'
// values (the aggregation of lighteval's sample-level metrics) and
// reports those that differ. Corpus-level metrics (bleu, chrf, f1 over
// the corpus) are not means; they differ by design, which the message
// says.
func meanIssues(path string, reported []model.Metric, sums []model.Summary, task string) []model.Issue {
	var out []model.Issue
	for _, rep := range reported {
		sum, n := 0.0, 0
		for _, s := range sums {
			for _, m := range s.Outcomes[0].Metrics {
				if m.Name == rep.Name {
					sum += m.Value
					n++
				}
			}
		}
		if n == 0 {
			continue
		}
		got := sum / float64(n)
		if math.Abs(got-rep.Value) > 1e-6 {
			out = append(out, model.Warnf("metric-differs", path, 0, "",
				"%s: the results file reports %s %.6g, the mean over %d rows is %.6g (trimmed details, another run, or a metric not aggregated by the mean)",
				task, rep.Name, rep.Value, n, got))
		}
	}
	return out
}

// unjudge takes the pass or fail from every row when the main metric
// is a score rather than a verdict: some row's value is not 0 or 1 (a
// sentence's chrf, a judge's 0.37). A metric passes and fails rows only
// where every value is 0 or 1 (exact match, accuracy).
func unjudge(sums []model.Summary) {
	scores := false
	for _, s := range sums {
		if o := s.Outcomes[0]; o.HasScore && o.Score == o.Score && o.Score != 0 && o.Score != 1 {
			scores = true
			break
		}
	}
	if !scores {
		return
	}
	for i := range sums {
		sums[i].Outcomes[0].Status = model.StatusUnscored
		sums[i].Status = model.StatusUnscored
	}
}

// statusOf is a verdict's status: pass at 1, fail at 0 (unjudge takes
// it from a score's rows); NaN and values outside [0, 1] are unscored.
func statusOf(f float64) model.Status {
	switch {
	case math.IsNaN(f) || f < 0 || f > 1:
		return model.StatusUnscored
	case f == 1:
		return model.StatusPass
	}
	return model.StatusFail
}

func firstLine(s string) string {
	whole := s
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return jsonl.Own(jsonl.Clip(s, 200), whole)
}

// promptMessages are a row's prompt as chat turns: the messages of a chat
// prompt (lighteval logs them as a list, or as its JSON text), or of a
// prompt rendered with a known chat template (model.SplitChatTemplate),
// else the instruction as a system turn and the prompt text (the query
// when no prompt was logged) as a user turn. Few-shot examples are marked
// (model.MarkFewShot: turns before the last user turn, or examples
// before the query in one prompt text), so that the detail folds them.
func promptMessages(r row) []model.Message {
	var msgs []model.Message
	chat, isChat := model.ChatMessagesValue(r.promptValue)
	if !isChat {
		chat, isChat = model.SplitChatTemplate(r.prompt)
	}
	hasSystem := isChat && slices.ContainsFunc(chat, func(m model.Message) bool { return m.Role == model.RoleSystem })
	if r.instruction != "" && !hasSystem {
		msgs = append(msgs, model.TextMessage(model.RoleSystem, r.instruction, "instruction"))
	}
	if isChat {
		msgs = append(msgs, chat...)
	} else {
		prompt := r.prompt
		if prompt == "" {
			prompt = r.query
		}
		msgs = append(msgs, model.TextMessage(model.RoleUser, prompt, "prompt"))
	}
	return model.MarkFewShot(msgs, r.query)
}

// index holds the list rows; a record reads its row whole from the file.
type index struct {
	path string
	open opener
	era  string
	main string
	sums []model.Summary

	mu    sync.Mutex
	last  int
	cache *model.Record
}

// Len returns the number of rows.
func (x *index) Len() int { return len(x.sums) }

// Summary returns row i's list entry.
func (x *index) Summary(i int) model.Summary { return x.sums[i] }

// Done is true: the list columns are read when the file opens.
func (x *index) Done() bool { return true }

// Record reads row i whole.
func (x *index) Record(i int) (rec *model.Record, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.cache != nil && x.last == i {
		return x.cache, nil
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("row %d cannot be read (damaged file?): %v", i, v)
		}
	}()
	pq, err := x.open()
	if err != nil {
		return nil, err
	}
	defer pq.Close()
	m, err := pq.rowAt(i)
	if err != nil {
		return nil, fmt.Errorf("row %d: %w", i, err)
	}
	rec = x.record(i, normalize(m, x.era), m)
	x.cache, x.last = rec, i
	return rec, nil
}

// record builds a row's detail.
func (x *index) record(i int, r row, m map[string]any) *model.Record {
	rec := &model.Record{Summary: x.sums[i]}
	if q := strings.TrimSpace(r.query); q != "" && firstLine(q) != rec.Title {
		rec.FullTitle = q // the title skips what every query shares
	}
	rec.Messages = promptMessages(r)
	golds := map[int]bool{}
	for _, g := range r.goldIndex {
		golds[g] = true
	}
	for ci, c := range r.choices {
		rec.Options = append(rec.Options, model.Option{ID: strconv.Itoa(ci), Text: c, Correct: golds[ci]})
	}
	rec.References = r.gold
	rec.Target = strings.Join(r.gold, " | ")
	for ti, t := range r.texts {
		a := model.Attempt{Index: ti, Text: t, Status: rec.Status}
		if ti < len(r.final) && r.final[ti] != t {
			a.Facts = append(a.Facts, model.Fact{Key: "post-processed", Value: r.final[ti]})
		}
		if ti < len(r.reasonings) && r.reasonings[ti] != "" {
			a.Judge = "reasoning: " + r.reasonings[ti]
		}
		rec.Attempts = append(rec.Attempts, a)
	}
	if len(r.texts) == 0 && len(r.logprobs) > 0 {
		var lines []string
		for li, l := range r.logprobs {
			c := ""
			if li < len(r.choices) {
				c = r.choices[li]
			}
			lines = append(lines, fmt.Sprintf("%s  %s", textOf(l), c))
		}
		rec.Attempts = append(rec.Attempts, model.Attempt{Index: 0, Text: r.answer(), Status: rec.Status, Facts: []model.Fact{{Key: "logprobs", Value: strings.Join(lines, "\n")}}})
	}
	var mrows [][]string
	for _, mt := range r.metrics {
		v := mt.text
		if mt.ok {
			v = textOf(mt.value)
		}
		mrows = append(mrows, []string{mt.name, v})
		if mt.ok && math.IsNaN(mt.value) {
			rec.Issues = append(rec.Issues, model.Warnf("metric-nan", x.path, 0, rec.ID, "metric %s is NaN for this row; it does not count in the mean", mt.name))
		}
	}
	if len(mrows) > 0 {
		rec.Sections = append(rec.Sections, model.Section{Title: "metrics", Type: model.SectionTable, Tab: "Scores", Table: &model.Table{Columns: []string{"metric", "value"}, Rows: mrows}})
	}
	for _, k := range sortedKeys(r.fields) {
		v := r.fields[k]
		if v == nil {
			continue
		}
		f := model.Field{Name: k, Value: textOf(v)}
		if _, isStr := v.(string); !isStr {
			f.IsJSON = true
		}
		rec.Fields = append(rec.Fields, f)
	}
	raw, _ := json.MarshalIndent(clean(m), "", "  ")
	rec.Raw = []model.RawPart{{Label: "row " + rec.ID, File: x.path, JSON: raw}}
	rec.Errors, rec.Warnings = model.CountIssues(rec.Issues)
	return rec
}
