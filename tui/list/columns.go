package list

import (
	"slices"
	"strconv"
	"strings"

	"evalview/model"
	"evalview/model/query"
	"evalview/tui/text"
)

// List columns are query fields (model/query): what a column shows is
// what `:` compares, `s` sorts by and `F` counts.

// plainColumns are the list's columns when the format names none.
var plainColumns = []string{"id", "title", "score"}

// defaultColumns are the list's columns for a dataset, before the user
// chooses others with `c`: its format's (Presentation.Columns), less the
// label fields its records lack. The title column takes the free width.
func defaultColumns(ds *model.Dataset) []string {
	if ds == nil {
		return plainColumns
	}
	want := ds.Presentation.Columns
	if want == nil {
		want = plainColumns
	}
	has := labelKeys(ds)
	var cols []string
	add := func(fields ...string) {
		for _, f := range fields {
			if key, ok := strings.CutPrefix(f, "labels."); ok && !has[key] {
				continue
			}
			if !strings.Contains(f, ".") && !builtinField(f) && !has[f] {
				continue
			}
			cols = append(cols, f)
		}
	}
	add(want...)
	return cols
}

// builtinField reports whether name is a built-in query field.
func builtinField(name string) bool {
	switch name {
	case "id", "title", "status", "score", "filter", "answer", "agreement", "attempts",
		"errors", "warnings", "issues", "line", "tag", "label", "note":
		return true
	}
	return false
}

// labelKeys returns the Summary.Labels keys of ds's first records (enough
// to choose default columns without reading a big index).
func labelKeys(ds *model.Dataset) map[string]bool {
	out := map[string]bool{}
	n := min(ds.Records.Len(), 200)
	for i := 0; i < n; i++ {
		for k := range ds.Records.Summary(i).Labels.All() {
			out[k] = true
		}
	}
	return out
}

// columnHead is a column's heading: the format's name for it ("question"
// for lm-eval's titles), the score column named after the dataset's main
// metric, else the field.
func columnHead(ds *model.Dataset, field string) string {
	if ds != nil {
		if h, ok := ds.Presentation.ColumnHeads[field]; ok {
			return text.OneLine(h)
		}
	}
	if f, ok := strings.CutPrefix(field, "answer."); ok {
		return text.OneLine(f) // the filter: answers side by side under their filters
	}
	switch field {
	case "score":
		if ds != nil && text.OneLine(ds.MainMetric) != "" {
			return text.OneLine(ds.MainMetric)
		}
	case "batch_items":
		return "batch"
	case "label":
		return "labels"
	}
	// A label a built-in field shadows keeps its labels. prefix: the head
	// names the column as queries and the column chooser do.
	return field
}

// numericColumn reports whether a column is right-aligned.
func numericColumn(field string) bool {
	switch field {
	case "score", "attempts", "errors", "warnings", "issues", "line", "steps", "batch_items":
		return true
	}
	return false
}

// columnCap is the widest a column other than the title grows.
func columnCap(field string, w int) int {
	switch field {
	case "id":
		return max(4, w/2)
	case "note":
		return 30
	case "label":
		return 16
	}
	return 24
}

// cellText is record s's text in a column, one sanitized line; the
// title skips lead, the text every title shares (titleCell).
func cellText(env query.Env, s model.Summary, field, lead string) string {
	switch field {
	case "title":
		return titleCell(s.Title, lead)
	case "score":
		o := s.Outcome(env.Filter)
		switch {
		case !o.Present:
			return "–"
		case o.HasScore:
			return text.FormatScore(o.Score)
		}
		return ""
	case "attempts":
		if s.AttemptsWanted > 0 {
			return strconv.Itoa(s.Attempts) + "/" + strconv.Itoa(s.AttemptsWanted)
		}
		if s.Attempts == 0 {
			return ""
		}
		return strconv.Itoa(s.Attempts)
	}
	return text.OneLine(query.FieldValue(env, s, field))
}

// colLayout is one shown column with its width.
type colLayout struct {
	field, head string
	w           int
	right, flex bool
	// prio ranks the column for dropping (columnPriorityIn); full is
	// its width before any squeezing; natural the width its values and
	// heading ask for before its cap (columnCap), which spare room at a
	// wide pane gives back.
	prio, full, natural int
	// soft is the width below which values of the page get cut: a
	// column squeezes to it (not under colSoft) before any is dropped.
	soft int
}

// Column priorities for a narrow pane: when the columns do not fit, the
// title shrinks first, then columns go lowest priority first. The id and
// the score are never dropped.
const (
	prioKeep    = 100 // id, score
	prioDefault = 40  // fields with no rank of their own
)

// columnPriority ranks a column: higher stays longer in a narrow pane.
// What tells records apart for error analysis (the user's labels, the
// category, the extracted answer) outranks counts and statuses that the
// row's glyph or the detail already show.
func columnPriority(field string) int {
	switch field {
	case "id", "score", "title":
		return prioKeep
	case "label", "note":
		return 70
	case "answer", "agreement":
		return 65
	case "category", "task_type", "tag":
		return 60
	case "kind":
		return 50
	case "attempts":
		return 35
	case "status", "sample_status":
		return 30
	case "steps", "batch_items", "errors", "warnings", "issues", "line":
		return 25
	}
	return prioDefault
}

// columnPriorityIn ranks a column of ds: its format's rank when it gives
// one (a testset's title, mostly derived from the inputs, goes first),
// else columnPriority.
func columnPriorityIn(ds *model.Dataset, field string) int {
	if ds != nil {
		if r, ok := ds.Presentation.ColumnRanks[field]; ok {
			return r
		}
	}
	if strings.HasPrefix(field, "answer.") {
		return 65
	}
	return columnPriority(field)
}

// layoutColumns fits fields into w cells (one space between columns) for
// the rows on screen: each column gets the width its values and heading
// need up to a cap, the title the rest. When the title would get less
// than titleMin, columns go lowest priority first (columnPriority) until
// it fits; the id and the score stay. Columns the user chose (picked,
// `c`) are all kept as long as squeezing the widest ones makes room, and
// only then drop by priority. As a last resort the widest columns shrink
// and columns go from the right. A right-aligned last column's heading
// may reach into the column before it (a long metric name over short
// scores).
//
// The title gets the rest, but not more than it needs: given titleNeed
// (the widest title's cells, 0 when not known), a title column wider than
// that gives the spare cells to the columns their cap cut (up to what
// their values ask), and what is left stays blank at the row's end, so
// that a short title is not followed by half a screen of blanks before
// its score.
func layoutColumns(ds *model.Dataset, env query.Env, fields []string, page []model.Summary, w int, picked bool, titleNeed int) []colLayout {
	// The title keeps a third of the row (12 cells at least) before
	// columns are dropped: at a third less, a run's list at 48 columns
	// kept sample_status and cut every title to 11 cells.
	const titleFloor = 12
	titleMin := max(titleFloor, w/3)
	var cols []colLayout
	for i, f := range fields {
		c := colLayout{field: f, head: columnHead(ds, f), right: numericColumn(f), flex: f == "title", prio: columnPriorityIn(ds, f)}
		if !c.flex {
			// Headings do not widen a column much: values matter more, but a field name up to 14 cells (sample_status) stays whole.
			need := min(text.Width(c.head), 14)
			if strings.HasPrefix(f, "answer.") {
				need = min(text.Width(c.head), 16) // the filter names tell the columns apart
			}
			if c.right && i == len(fields)-1 {
				need = colMin // the heading may overflow to the left
			}
			if f == "id" {
				need = 2
			}
			values := 0
			for _, s := range page {
				values = max(values, text.Width(cellText(env, s, f, "")))
			}
			need = max(need, values)
			c.w = max(1, min(need, columnCap(f, w)))
			c.full = c.w
			c.natural = min(need, max(c.w, w/3))
			c.soft = min(c.w, max(colMin, min(values, colSoft)))
		}
		cols = append(cols, c)
	}
	want := 0
	if flexIndex(cols) >= 0 {
		want = titleMin
	}
	// Long values give way a little before whole columns go.
	for usedWidth(cols)+want > w && shrinkWidest(cols, true) {
	}
	if picked {
		// The user's choice: squeeze every column and the title (down to
		// half its minimum) before any goes.
		for usedWidth(cols)+want > w && shrinkWidest(cols, false) {
		}
		if usedWidth(cols)+want > w && want > 0 {
			want = titleMin / 2
		}
	}
	var dropped []colLayout
	for usedWidth(cols)+want > w {
		var ok bool
		var gone colLayout
		if cols, gone, ok = dropLowest(cols); !ok {
			break
		}
		dropped = append(dropped, gone)
		if flexIndex(cols) < 0 {
			want = 0 // the title went (a testset's ranks below others)
		}
	}
	for usedWidth(cols)+want > w && shrinkWidest(cols, false) {
	}
	for usedWidth(cols)+want > w && len(cols) > 1 {
		// Nothing left to squeeze: the title gives up its minimum, then
		// goes; then columns go from the right, the id and the score last.
		if want > 0 {
			want = 0
			continue
		}
		cols = dropLast(cols)
	}
	if at := flexIndex(cols); at >= 0 && len(cols) > 1 && w-usedWidth(cols) < 1 {
		cols = append(cols[:at], cols[at+1:]...) // a title of no cells
	}
	if flexIndex(cols) < 0 && len(dropped) > 0 {
		cols = refillColumns(cols, dropped, fields, w) // refill.go
	}
	flexAt := flexIndex(cols)
	rest := w - usedWidth(cols)
	// A long heading over a short last column reaches into the column
	// before it only when that is the title (whose heading is short);
	// otherwise the last column widens, if the title can spare it.
	if n := len(cols); n >= 2 && flexAt >= 0 && flexAt != n-2 && cols[n-1].right {
		if extra := text.Width(cols[n-1].head) - cols[n-1].w; extra > 0 && rest-extra >= titleMin {
			cols[n-1].w += extra
			rest -= extra
		}
	}
	if flexAt >= 0 {
		cols[flexAt].w = max(0, rest)
	} else if len(cols) > 0 && rest > 0 {
		cols[len(cols)-1].w += rest
	}
	if shortScoreHead(cols) && flexAt >= 0 && flexAt != len(cols)-2 {
		// "score" itself may be wider than the scores: the title gives
		// the cells, so the column before keeps its heading.
		last := &cols[len(cols)-1]
		if extra := text.Width(last.head) - last.w; extra > 0 && cols[flexAt].w-extra >= titleMin/2 {
			last.w += extra
			cols[flexAt].w -= extra
		}
	}
	if flexAt >= 0 && titleNeed > 0 {
		fitTitle(cols, flexAt, max(titleFloor, titleNeed))
	}
	return cols
}

// fitTitle narrows the title column at to want cells when it is wider,
// and gives the spare cells to the columns cut below their natural
// width, left to right; the rest stays blank at the row's end.
func fitTitle(cols []colLayout, at, want int) {
	spare := cols[at].w - want
	if spare <= 0 {
		return
	}
	cols[at].w = want
	for i := range cols {
		if i == at || cols[i].natural <= cols[i].w {
			continue
		}
		g := min(spare, cols[i].natural-cols[i].w)
		cols[i].w += g
		spare -= g
	}
}

// rowWidth is the cells a row of cols takes: the columns and the gaps
// between them.
func rowWidth(cols []colLayout) int {
	n := usedWidth(cols)
	if at := flexIndex(cols); at >= 0 {
		n += cols[at].w
	}
	return n
}

// shortScoreHead heads the score column "score" when its metric name
// ("weighted_score") would cut the heading of the column before it, and
// reports whether it did.
func shortScoreHead(cols []colLayout) bool {
	n := len(cols)
	if n < 2 || cols[n-1].field != "score" || !cols[n-1].right {
		return false
	}
	last, prev := cols[n-1], cols[n-2]
	spare := prev.w - text.Width(prev.head)
	if over := text.Width(last.head) - last.w; over > 0 && over > spare {
		cols[n-1].head = "score"
		return true
	}
	return false
}

// colMin is the narrowest a squeezed column gets; colSoft the width
// long values are cut to before columns are dropped (headings wider than
// their values are cut first).
const (
	colMin  = 4
	colSoft = 12
)

// flexIndex is the position of the title column, -1 when not shown.
func flexIndex(cols []colLayout) int {
	for i, c := range cols {
		if c.flex {
			return i
		}
	}
	return -1
}

// usedWidth is the cells the fixed columns and the gaps take.
func usedWidth(cols []colLayout) int {
	n := max(0, len(cols)-1)
	for _, c := range cols {
		if !c.flex {
			n += c.w
		}
	}
	return n
}

// shrinkWidest takes one cell from the widest fixed column wider than
// its floor (soft: its soft width, else colMin); false when none is.
func shrinkWidest(cols []colLayout, soft bool) bool {
	widest := -1
	for i, c := range cols {
		floor := colMin
		if soft {
			floor = c.soft
		}
		if !c.flex && c.w > floor && (widest < 0 || c.w > cols[widest].w) {
			widest = i
		}
	}
	if widest < 0 {
		return false
	}
	cols[widest].w--
	return true
}

// dropLast removes the title, else the rightmost column that is not the
// id or the score, else the id.
func dropLast(cols []colLayout) []colLayout {
	drop := flexIndex(cols)
	for i := len(cols) - 1; i >= 0 && drop < 0; i-- {
		if f := cols[i].field; f != "id" && f != "score" {
			drop = i
		}
	}
	if drop < 0 {
		drop = slices.IndexFunc(cols, func(c colLayout) bool { return c.field == "id" })
	}
	if drop < 0 {
		drop = len(cols) - 1
	}
	return append(cols[:drop], cols[drop+1:]...)
}

// dropLowest removes the lowest-priority column that may go (the
// rightmost of equals) and returns it; false when only kept columns are
// left.
func dropLowest(cols []colLayout) ([]colLayout, colLayout, bool) {
	drop := -1
	for i, c := range cols {
		p := c.prio
		if p >= prioKeep {
			continue
		}
		if drop < 0 || p <= cols[drop].prio {
			drop = i
		}
	}
	if drop < 0 {
		return cols, colLayout{}, false
	}
	gone := cols[drop]
	return append(cols[:drop], cols[drop+1:]...), gone, true
}

// headingLine renders the column headings over cols, w cells.
func headingLine(cols []colLayout, w int) string {
	var b strings.Builder
	last := ""
	for i, c := range cols {
		if i == len(cols)-1 && c.right && !c.flex {
			last = c.head
			break
		}
		if i > 0 {
			b.WriteString(cellGap(cols, i))
		}
		if c.right {
			b.WriteString(text.PadLeft(c.head, c.w))
		} else {
			b.WriteString(text.Pad(c.head, c.w))
		}
	}
	head := strings.TrimRight(b.String(), " ")
	if last == "" {
		return text.Pad(head, w)
	}
	head = text.Truncate(head, max(0, w-text.Width(last)-1))
	return text.Truncate(text.Pad(head, w-text.Width(last))+last, w)
}

// cell renders one cell at its width.
func (c colLayout) cell(v string) string {
	switch {
	case c.field == "id":
		return text.Pad(text.TruncateMiddle(v, c.w), c.w)
	case c.right:
		return text.PadLeft(v, c.w)
	}
	return text.Pad(v, c.w)
}

// page returns the summaries of the rows on screen, their statuses at
// the threshold of a scored dataset.
func (l *Pane) page() []model.Summary {
	end := min(len(l.st.visible), l.st.offset+l.rows())
	page := make([]model.Summary, 0, l.rows())
	if l.ds != nil {
		env := query.Env{Dataset: l.ds, Threshold: l.src.Threshold(l.ds)}
		for _, i := range l.st.visible[min(l.st.offset, end):end] {
			page = append(page, env.Summary(i))
		}
	}
	return page
}

// layout fits the list's columns to the pane for the rows on screen.
func (l *Pane) layout(env query.Env, page []model.Summary) []colLayout {
	cols := layoutColumns(l.ds, env, l.listFields(), page, max(0, l.w-rowPrefix), l.st.columns != nil, l.titleNeed(page))
	// The sorted column's heading gets its arrow (headingView): a narrow
	// column widens by a cell or two, taken from the title, to keep it.
	if fi := flexIndex(cols); fi >= 0 && l.st.sortKey.Column != "" {
		for i := range cols {
			c := &cols[i]
			if c.field != l.st.sortKey.Column || c.flex || c.right && i == len(cols)-1 {
				continue
			}
			if extra := min(2, text.Width(c.head)+1-c.w); extra > 0 && cols[fi].w-extra >= 12 {
				c.w += extra
				cols[fi].w -= extra
			}
		}
	}
	return cols
}

// fitColumns returns which of cols the list would show now, cols picked
// by the user or not: those a narrow pane does not drop.
func (l *Pane) fitColumns(cols []string, picked bool) []string {
	var out []string
	for _, c := range layoutColumns(l.ds, l.Env(), cols, l.page(), max(0, l.w-rowPrefix), picked, 0) {
		out = append(out, c.field)
	}
	return out
}

// withLabelColumn adds the notes' label column before the score, once a
// dataset has notes.
func withLabelColumn(cols []string) []string {
	if slices.Contains(cols, "label") {
		return cols
	}
	at := len(cols)
	if i := slices.Index(cols, "score"); i >= 0 {
		at = i
	}
	return slices.Insert(slices.Clone(cols), at, "label")
}
