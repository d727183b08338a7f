package list

import (
	"strings"

	"evalview/model"
	"evalview/model/query"
	"evalview/tui/content"
	"evalview/tui/text"
)

// View renders the heading and the visible rows, exactly l.h lines.
func (l *Pane) View() string {
	if l.h <= 0 || l.w <= 0 {
		return ""
	}
	st := l.c.Styles
	out := make([]string, 0, l.h)
	page := l.page()
	env := l.Env()
	cols := l.layout(env, page)
	out = append(out, l.headingView(cols))

	if len(l.st.visible) == 0 {
		out = append(out, st.List.Empty.Render(text.Pad(l.emptyText(), l.w)))
	}
	lead := l.titleLead(cols)
	for k, s := range page {
		out = append(out, l.row(l.st.offset+k, s, env, cols, lead))
	}
	for len(out) < l.h {
		out = append(out, strings.Repeat(" ", l.w))
	}
	return strings.Join(out[:l.h], "\n")
}

func (l *Pane) emptyText() string {
	switch {
	case l.ds == nil || l.ds.Records.Len() == 0 && l.ds.Records.Done():
		return "  No records."
	case l.ds.Records.Len() == 0:
		return "  Indexing…"
	case l.st.pending != 0:
		return "  Filtering…"
	case !l.st.whereQ.Empty():
		return "  No records match :" + text.OneLine(l.st.where) + " (: edits the query)."
	case l.st.wrongOnly && l.FilterIndex() >= 0:
		return "  No wrong answers under " + text.OneLine(l.ds.Filters[l.FilterIndex()]) + " (x shows all)."
	default:
		return "  No wrong answers (x shows all)."
	}
}

// row renders list position pos, record summary s.
func (l *Pane) row(pos int, s model.Summary, env query.Env, cols []colLayout, lead string) string {
	st := l.c.Styles
	o := s.Outcome(env.Filter)
	status := ShownStatus(o)
	cursor := pos == l.st.cursor
	mark := " "
	if cursor && l.focused {
		mark = "▸"
	} else if cursor {
		mark = "▹"
	}
	sel := l.selectMark(l.st.visible[pos])
	issue := " "
	issueStyle := st.Issue.Warning
	if s.Errors > 0 {
		issue, issueStyle = content.IssueGlyph(model.SeverityError), st.Issue.Error
	} else if s.Warnings > 0 {
		issue = content.IssueGlyph(model.SeverityWarning)
	}
	cells := make([]string, len(cols))
	for k, c := range cols {
		cells[k] = c.cell(cellText(env, s, c.field, lead))
	}
	if cursor {
		rs := st.List.CursorBlurred
		if l.focused {
			rs = st.List.Cursor
		}
		line := mark + sel + content.Glyph(status) + " " + issue + " " + joinCells(cols, cells)
		return rs.Render(text.Pad(line, l.w))
	}
	for k, c := range cols {
		switch c.field {
		case "id":
			cells[k] = st.List.ID.Render(cells[k])
		case "score":
			cells[k] = st.List.Score.Render(cells[k])
		}
	}
	if sel != " " {
		sel = st.List.Selected.Render(sel)
	}
	line := mark + sel + st.Outcome(status).Render(content.Glyph(status)) + " " +
		issueStyle.Render(issue) + " " + joinCells(cols, cells)
	return text.Pad(line, l.w)
}

// ShownStatus is the status a row shows: unscored when the filter has no
// row for the record, and for values the model does not define. The
// header counts records by it.
func ShownStatus(o model.Outcome) model.Status {
	if !o.Present || o.Status < model.StatusUnscored || o.Status > model.StatusError {
		return model.StatusUnscored
	}
	return o.Status
}
