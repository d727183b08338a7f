package list

import (
	"slices"
	"strings"

	"evalview/model"
	"evalview/model/query"
	"evalview/tui/text"
)

// What every row of a dataset has in common does not tell rows apart,
// and takes room from what does. Once a dataset's index is complete,
// the list finds:
//
//   - the lead every title shares (model.SharedLead: "Question: ", an
//     instruction line before each question), which the title column
//     skips, marking the cut with "…" (the detail and export keep the
//     title whole): always when it is whole lines (the first line says
//     nothing), else when the titles do not fit the column (a narrow
//     pane shows "…France?", a wide one "What is the capital of France?");
//   - the default columns whose cell is the same on every row (a run's
//     sample_status "completed", attempts "5/5"), which leave the list
//     and show in the header as a fact (ConstantFacts). Columns the user
//     chose (`c`) all stay.
//
// Both are read over every summary, once per dataset, filter, threshold
// and set of columns; a growing index has neither until it is complete.

// shared is what the rows of one dataset have in common.
type shared struct {
	ds        *model.Dataset
	n         int
	filter    int
	threshold float64
	fields    string
	// lead is the text every title starts with that the list may skip;
	// titleW the widest title's first line (of the first titleRows),
	// whole, and leadW with the lead skipped (titleCell).
	lead          string
	titleW, leadW int
	// constant are the columns with one value on every row, in column
	// order.
	constant []constColumn
}

// constColumn is a column with the same cell on every row.
type constColumn struct {
	field, head, value string
}

// keepColumn reports whether a column stays in the list even when its
// value is the same on every row: what identifies or scores a row, the
// model's answer, and the user's own labels and notes (which change).
func keepColumn(field string) bool {
	switch field {
	case "id", "title", "score", "answer", "agreement", "label", "note":
		return true
	}
	return strings.HasPrefix(field, "answer.")
}

// common is what the rows of the dataset shown have in common, nil while
// its index grows.
func (l *Pane) common() *shared {
	if l.ds == nil || !l.ds.Records.Done() {
		return nil
	}
	env := l.Env()
	n := l.ds.Records.Len()
	th := -1.0
	if env.Threshold != nil {
		th = *env.Threshold
	}
	fields := l.defaultColumns()
	key := strings.Join(fields, "\x00")
	if c := l.shared; c != nil && c.ds == l.ds && c.n == n && c.filter == env.Filter && c.threshold == th && c.fields == key {
		return c
	}
	c := &shared{ds: l.ds, n: n, filter: env.Filter, threshold: th, fields: key}
	if p := l.shared; p != nil && p.ds == l.ds && p.n == n {
		// The titles do not change with the filter, the threshold or
		// the columns.
		c.lead, c.titleW, c.leadW = p.lead, p.titleW, p.leadW
	} else {
		c.lead = model.SharedLeadOf(n, func(i int) string { return l.ds.Records.Summary(i).Title })
		for i := range min(n, titleRows) {
			t := l.ds.Records.Summary(i).Title
			c.titleW = max(c.titleW, text.Width(text.FirstLine(t)))
			c.leadW = max(c.leadW, text.Width(titleCell(t, c.lead)))
		}
	}
	if n >= 2 {
		c.constant = constantColumns(l.ds, env, fields, n)
	}
	l.shared = c
	return c
}

// constantColumns are those of fields whose cell is one value, not
// blank, on all n rows of ds.
func constantColumns(ds *model.Dataset, env query.Env, fields []string, n int) []constColumn {
	var cand []string
	for _, f := range fields {
		if !keepColumn(f) {
			cand = append(cand, f)
		}
	}
	if len(cand) == 0 {
		return nil
	}
	first := env.Summary(0)
	vals := make([]string, len(cand))
	for k, f := range cand {
		vals[k] = cellText(env, first, f, "")
	}
	live := make([]bool, len(cand))
	left := 0
	for k, v := range vals {
		if v != "" {
			live[k] = true
			left++
		}
	}
	for i := 1; i < n && left > 0; i++ {
		s := env.Summary(i)
		for k, f := range cand {
			if live[k] && cellText(env, s, f, "") != vals[k] {
				live[k] = false
				left--
			}
		}
	}
	var out []constColumn
	for k, f := range cand {
		if live[k] {
			out = append(out, constColumn{field: f, head: columnHead(ds, f), value: vals[k]})
		}
	}
	return out
}

// listFields are the columns the list lays out: the user's, or the
// defaults less those with one value on every row.
func (l *Pane) listFields() []string {
	cols := l.columns()
	if l.st.columns != nil {
		return cols
	}
	c := l.common()
	if c == nil || len(c.constant) == 0 {
		return cols
	}
	return slices.DeleteFunc(slices.Clone(cols), func(f string) bool {
		return slices.ContainsFunc(c.constant, func(k constColumn) bool { return k.field == f })
	})
}

// titleNeed is the cells the title column asks for: the widest title of
// the dataset (of its first titleRows) and of the page, as the list
// shows them, so that the columns after the title keep their place as
// the list scrolls; 0 while the index grows (the title takes the rest).
func (l *Pane) titleNeed(page []model.Summary) int {
	c := l.common()
	if c == nil {
		return 0
	}
	need, lead := c.titleW, ""
	if strings.Contains(c.lead, "\n") {
		need, lead = c.leadW, c.lead // the lead's lines are always skipped
	}
	for _, s := range page {
		t := text.FirstLine(s.Title)
		if lead != "" {
			t = titleCell(s.Title, lead)
		}
		need = max(need, text.Width(t))
	}
	return need
}

// titleRows is how many titles are measured for whether they fit the
// title column (a bound on the work for a big index).
const titleRows = 5000

// titleLead is the text the title column of cols skips, "" for none:
// the shared lead when it is whole lines, or when the titles do not fit.
func (l *Pane) titleLead(cols []colLayout) string {
	c := l.common()
	at := flexIndex(cols)
	if c == nil || c.lead == "" || at < 0 {
		return ""
	}
	if strings.Contains(c.lead, "\n") || c.titleW > cols[at].w {
		return c.lead
	}
	return ""
}

// EveryRow is the key of the fact that names the columns left out as the
// same on every row.
const EveryRow = "every row"

// ConstantFacts are the header's words for what the list leaves out as
// the same on every row: the default columns with one value ("every
// row: sample_status completed, attempts 2/2") and the lead the titles
// share ("every title starts: Question:"). None while the user's
// columns are shown, or while the index grows.
func (l *Pane) ConstantFacts() []model.Fact {
	if l.ds == nil {
		return nil
	}
	c := l.common()
	if c == nil {
		return nil
	}
	var out []model.Fact
	if l.st.columns == nil && len(c.constant) > 0 {
		var parts []string
		for _, k := range c.constant {
			parts = append(parts, k.head+" "+k.value)
		}
		out = append(out, model.Fact{Key: EveryRow, Value: strings.Join(parts, ", ")})
	}
	if lead := l.titleLead(l.layout(l.Env(), l.page())); lead != "" {
		out = append(out, model.Fact{Key: "every " + columnHead(l.ds, "title") + " starts", Value: text.FirstLine(lead)})
	}
	return out
}

// titleCell is a title as the list shows it: the part after the lead
// every title shares (and a known instruction line), marked "…" where
// text was skipped, one line.
func titleCell(title, lead string) string {
	shown := model.TitleAfter(title, lead)
	if shown == title {
		return text.FirstLine(title)
	}
	return text.Ellipsis + text.FirstLine(shown)
}
