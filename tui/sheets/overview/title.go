package overview

import (
	"strconv"
	"strings"

	ov "evalview/model/overview"
	"evalview/tui/text"
)

// titleLine names what the sheet shows: its filter, the delta, the
// sort, the counts (in the order a narrow sheet keeps them); or the
// filter being typed.
func (s *Sheet) titleLine(l layout) string {
	st := s.c.Styles
	if s.filter.Typing {
		return st.Detail.Heading.Render("Overview") + "  filter: " + text.OneLine(s.filter.Value()) + "▏"
	}
	// Long labels are cut to their ends, so that the counts after them
	// stay on a narrow screen.
	var line string
	for _, lw := range []int{0, max(12, s.w/5), 8} {
		if line = s.titleParts(l, lw); text.Width("Overview  "+line) <= s.w {
			break
		}
	}
	return st.Detail.Heading.Render("Overview") + "  " + st.Detail.Subtle.Render(line)
}

// titleParts is the title after "Overview", the columns' labels cut to
// labelW (0: whole).
func (s *Sheet) titleParts(l layout, labelW int) string {
	t := s.table
	var parts []string
	if f := s.filter.Value(); f != "" {
		parts = append(parts, "filter "+strconv.Quote(text.OneLine(f)))
	}
	if len(t.Columns) > 1 {
		lab := func(c int) string {
			if labelW == 0 {
				return text.OneLine(t.Columns[c].Label)
			}
			return keepTail(text.OneLine(t.Columns[c].Label), labelW)
		}
		base := " (baseline)"
		if labelW > 0 && labelW < 12 {
			base = ""
		}
		parts = append(parts, "Δ "+lab(s.view.Compared)+" − "+lab(s.view.Baseline)+base)
	}
	if by := s.sortName(); by != "" {
		parts = append(parts, "sorted by "+by)
	}
	tasks := 0
	for _, r := range t.Rows {
		if !r.Group {
			tasks++
		}
	}
	compact := labelW > 0 && labelW < 12
	counts := text.Plural(tasks, "task") + " × " + text.Plural(len(t.Columns), "column")
	if l.first > 0 || l.last < len(t.Columns)-1 {
		shown := " shown)"
		if compact {
			shown = ")"
		}
		counts += " (" + strconv.Itoa(l.first+1) + "–" + strconv.Itoa(l.last+1) + shown
	}
	parts = append(parts, counts)
	if h := s.hiddenText(compact); h != "" {
		parts = append(parts, h)
	}
	pending := 0
	for _, e := range t.Entries {
		if e.Pending {
			pending++
		}
	}
	if pending > 0 {
		parts = append(parts, "indexing "+strconv.Itoa(pending))
	}
	return strings.Join(parts, " · ")
}

// hiddenText says how many rows and columns without any value are
// hidden, and the key that shows them (compact: in fewer words); ""
// when none is.
func (s *Sheet) hiddenText(compact bool) string {
	t := s.table
	a := s.c.Keys.Overview.Empty.Help().Key
	if s.opts.ShowEmpty {
		return "empty rows shown (" + a + ")"
	}
	merged := ""
	if t.MergedUntimed > 0 {
		merged = text.Plural(t.MergedUntimed, "untimed run") + " merged"
	}
	if compact && t.HiddenRows+t.HiddenColumns > 0 {
		return joinNonEmpty(strconv.Itoa(t.HiddenRows+t.HiddenColumns)+" empty hidden ("+a+")", merged) // rows and columns
	}
	var parts []string
	if t.HiddenRows > 0 {
		parts = append(parts, text.Plural(t.HiddenRows, "empty row"))
	}
	if t.HiddenColumns > 0 {
		parts = append(parts, text.Plural(t.HiddenColumns, "empty column"))
	}
	if len(parts) == 0 {
		return merged
	}
	return joinNonEmpty(strings.Join(parts, ", ")+" hidden ("+a+")", merged)
}

// joinNonEmpty joins the parts that are not "" with " · ".
func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}

// sortName says what the rows are sorted by, "" for the task order.
func (s *Sheet) sortName() string {
	dir := " ↑"
	if s.view.Desc {
		dir = " ↓"
	}
	switch s.view.Sort {
	case ov.ByColumn:
		return text.OneLine(s.table.Columns[s.view.Column].Label) + dir
	case ov.ByDelta:
		return "Δ" + dir
	}
	if s.view.Desc {
		return "task" + dir
	}
	return ""
}
