package content

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"evalview/model"
	"evalview/tui/styles"
	"evalview/tui/text"
)

// IssueGlyph returns the marker of an issue severity: ‼ error, ⚠
// warning, ℹ note.
func IssueGlyph(s model.Severity) string {
	switch s {
	case model.SeverityError:
		return "‼"
	case model.SeverityNote:
		return "ℹ"
	}
	return "⚠"
}

// IssueStyle is how an issue of severity s is drawn.
func IssueStyle(st *styles.Styles, s model.Severity) lipgloss.Style {
	switch s {
	case model.SeverityError:
		return st.Issue.Error
	case model.SeverityNote:
		return st.Issue.Note
	}
	return st.Issue.Warning
}

// IssueCount says how many issues there are, notes apart: "3", "1 note",
// "3 · 1 note". A note is no finding: it is never counted with the
// warnings, as `check` counts it.
func IssueCount(issues []model.Issue) string {
	notes := model.CountNotes(issues)
	n := strconv.Itoa(len(issues) - notes)
	switch {
	case notes == 0:
		return n
	case notes == len(issues):
		return text.Plural(notes, "note")
	}
	return n + " · " + text.Plural(notes, "note")
}

// issues renders the dataset's issues first, then the record's.
func (b *builder) issues(ds *model.Dataset, rec *model.Record) {
	if ds != nil && len(ds.Issues) > 0 {
		b.heading("Dataset issues (" + IssueCount(ds.Issues) + ")")
		for _, is := range ds.Issues {
			b.issue(is)
		}
	}
	if rec == nil {
		return
	}
	if len(rec.Issues) > 0 {
		b.blank()
		b.heading("Record " + text.OneLine(rec.ID) + " issues (" + IssueCount(rec.Issues) + ")")
		for _, is := range rec.Issues {
			b.issue(is)
		}
	} else if ds != nil && len(ds.Issues) > 0 {
		b.blank()
		b.para("Record "+text.OneLine(rec.ID)+" has no issues of its own.", b.st.Detail.Subtle, 0)
	}
}

// issue writes one issue: glyph, severity and code, where, and the message.
func (b *builder) issue(is model.Issue) {
	sev := IssueStyle(b.st, is.Severity)
	head := render(sev, IssueGlyph(is.Severity)+" "+is.Severity.String())
	if is.Code != "" {
		head += "  " + render(b.st.Issue.Code, text.OneLine(is.Code))
	}
	b.styled(head, 0)
	if loc := location(is); loc != "" {
		b.para(loc, b.st.Issue.Location, 2)
	}
	b.para(is.Message, b.st.Detail.Value, 2)
}

// location is "file:line · record 12 · $.path".
func location(is model.Issue) string {
	var parts []string
	if is.File != "" {
		f := is.File
		if is.Line > 0 {
			f += ":" + strconv.Itoa(is.Line)
		}
		parts = append(parts, f)
	} else if is.Line > 0 {
		parts = append(parts, "line "+strconv.Itoa(is.Line))
	}
	if is.Record != "" {
		parts = append(parts, "record "+is.Record)
	}
	if is.Path != "" {
		parts = append(parts, is.Path)
	}
	return strings.Join(parts, " · ")
}

// maxBanners caps the issue banners over one tab; the rest are counted.
const maxBanners = 3

// banner writes, over a tab, the record's issues that concern that tab,
// and a line counting the others.
func (b *builder) banner(rec *model.Record, tab Tab) {
	if len(rec.Issues) == 0 {
		return
	}
	var here []model.Issue
	for _, is := range rec.Issues {
		if IssueTab(rec, is) == tab.Content {
			here = append(here, is)
		}
	}
	for i, is := range here {
		if i == maxBanners {
			break
		}
		style := IssueStyle(b.st, is.Severity)
		msg := is.Message
		if is.Path != "" {
			msg += " (at " + is.Path + ")"
		}
		b.para(IssueGlyph(is.Severity)+" "+msg, style, 0)
	}
	others := len(rec.Issues) - min(len(here), maxBanners)
	if others > 0 {
		word := "issue"
		if len(here) > 0 {
			word = "more issue"
		}
		style := b.st.Issue.Banner
		if worst(rec.Issues) == model.SeverityNote {
			style = b.st.Issue.Note
		}
		b.para(IssueGlyph(worst(rec.Issues))+" "+text.Plural(others, word)+" in this record: see the Issues tab", style, 0)
	}
	b.add(render(b.st.Detail.Subtle, strings.Repeat("─", b.w)))
}

// worst is the gravest severity of issues: error, then warning, then
// note.
func worst(issues []model.Issue) model.Severity {
	out := model.SeverityNote
	for _, is := range issues {
		switch is.Severity {
		case model.SeverityError:
			return model.SeverityError
		case model.SeverityWarning:
			out = model.SeverityWarning
		}
	}
	return out
}

// IssueTab tells which tab an issue concerns, from its JSON path: the tab
// that shows the field it points at. Issues that point nowhere in
// particular return model.TabIssues (they appear only there and in the count).
func IssueTab(rec *model.Record, is model.Issue) model.TabContent {
	p := strings.ToLower(strings.TrimPrefix(is.Path, "$"))
	p = strings.TrimPrefix(p, ".")
	if is.Code == "metric-missing" {
		return model.TabFilterResults
	}
	if p == "" {
		return model.TabIssues
	}
	head := p
	if i := strings.IndexAny(p, ".["); i >= 0 {
		head = p[:i]
	}
	switch head {
	case "arguments", "prompt", "prompt_hash", "messages", "input", "inputs", "choices", "options", "references":
		return model.TabConversation
	case "resps", "attempts", "attempt_evals", "predict_result", "response", "responses", "output":
		return model.TabAttempts
	case "filtered_resps", "filter", "metrics":
		return model.TabFilterResults
	case "target", "target_hash", "label":
		if len(rec.Filters) > 0 {
			return model.TabFilterResults
		}
		return model.TabConversation
	case "doc", "doc_hash", "doc_id":
		return model.TabFields
	}
	for _, f := range rec.Filters {
		for _, m := range f.Metrics {
			if strings.EqualFold(m.Name, head) {
				return model.TabFilterResults
			}
		}
	}
	return model.TabIssues
}
