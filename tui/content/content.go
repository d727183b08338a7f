// Package content renders one record's detail tabs (Prompt, Responses,
// Filters, Doc, section tabs, Raw, Issues) into lines that fit a width.
//
// It is pure: a record, a tab and options in, styled lines out. The detail
// pane caches the result per (record, tab, width) and scrolls it; search
// runs over the Plain copy. Everything that comes from a file is sanitized
// here before it reaches a line.
package content

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"evalview/model"
	"evalview/tui/highlight"
	"evalview/tui/styles"
	"evalview/tui/text"
)

// Tab is one detail tab: what it shows of the record and its name in the
// tab bar, which is also the Section.Tab value whose sections it shows
// ("Details" for sections naming no tab).
type Tab = model.DetailTab

// DetailsTab is the tab of sections that name no tab.
const DetailsTab = "Details"

// Tabs lists the tabs that have content for rec (nil rec: no record is
// selected, only dataset issues can show).
func Tabs(ds *model.Dataset, rec *model.Record) []Tab {
	hasDSIssues := ds != nil && len(ds.Issues) > 0
	if rec == nil {
		if hasDSIssues {
			return []Tab{{Content: model.TabIssues, Name: "Issues"}}
		}
		return nil
	}
	// The format's leading tabs, each when the record has something for
	// it; their names gather the sections that name them.
	lead := model.DefaultTabs
	if ds != nil && ds.Presentation.Tabs != nil {
		lead = ds.Presentation.Tabs
	}
	named := map[string]bool{}
	for _, t := range lead {
		named[t.Name] = true
	}
	var tabs []Tab
	for _, t := range lead {
		if hasContent(rec, t.Content) || hasSections(rec, t.Name) {
			tabs = append(tabs, t)
		}
	}
	for _, s := range rec.Sections {
		name := sectionTab(s)
		if !named[name] && name != "Raw" && name != "Issues" {
			named[name] = true
			tabs = append(tabs, Tab{Content: model.TabSections, Name: name})
		}
	}
	if len(rec.Raw) > 0 {
		tabs = append(tabs, Tab{Content: model.TabRaw, Name: "Raw"})
	}
	if len(rec.Issues) > 0 || hasDSIssues {
		tabs = append(tabs, Tab{Content: model.TabIssues, Name: "Issues"})
	}
	return tabs
}

// hasContent reports whether rec has something of its own for a tab
// showing c (sections aside).
func hasContent(rec *model.Record, c model.TabContent) bool {
	switch c {
	case model.TabConversation:
		return len(rec.Messages) > 0 || len(rec.Options) > 0 || len(rec.References) > 0 ||
			rec.Target != "" && len(rec.Filters) == 0
	case model.TabAttempts:
		return len(rec.Attempts) > 0
	case model.TabFilterResults:
		return len(rec.Filters) > 0
	case model.TabFields:
		return len(rec.Fields) > 0
	}
	return false
}

// hasSections reports whether a section of rec names the tab.
func hasSections(rec *model.Record, tab string) bool {
	for _, s := range rec.Sections {
		if s.Tab == tab {
			return true
		}
	}
	return false
}

func sectionTab(s model.Section) string {
	if s.Tab == "" {
		return DetailsTab
	}
	return s.Tab
}

// Options are what a rendering depends on besides the record and tab.
type Options struct {
	Width  int
	Styles *styles.Styles
	// Highlighter colors JSON; nil leaves it plain.
	Highlighter *highlight.Highlighter
	// Filter is the selected lm-eval filter (index into Dataset.Filters).
	Filter int
	// Unfold opens few-shot examples and folded sections.
	Unfold bool
	// Markdown renders message and response text as markdown (by
	// default unless the dataset's Presentation.RawText).
	Markdown bool
	// RawDepth folds the Raw tab's JSON below that nesting depth (0:
	// none folded).
	RawDepth int
}

// Doc is a rendered tab.
type Doc struct {
	// Lines are styled lines, each at most Options.Width cells wide.
	Lines []string
	// Plain holds the same lines without styles, for search.
	Plain []string
	// Folds counts the folded blocks (few-shot turns, folded sections), so
	// the unfold key can be offered only when it does something.
	Folds int
	// LastUser is the line where the last user turn of the conversation
	// starts, -1 when there is none: the question after the few-shot
	// examples, which the detail jumps to.
	LastUser int
	// Depth is the deepest nesting of the Raw tab's JSON, known once it
	// is folded (rawfold.go): a fold depth past it opens nothing more.
	Depth int
}

// Render renders tab of rec (rec may be nil for the dataset issues).
func Render(ds *model.Dataset, rec *model.Record, tab Tab, o Options) Doc {
	if o.Width < 1 {
		o.Width = 1
	}
	if o.Styles == nil {
		st := styles.Plain()
		o.Styles = &st
	}
	b := &builder{o: o, st: o.Styles, w: o.Width, lastUser: -1}
	if rec != nil && tab.Content != model.TabIssues {
		b.banner(rec, tab)
	}
	switch tab.Content {
	case model.TabConversation:
		b.prompt(ds, rec)
	case model.TabAttempts:
		if ds != nil && ds.Presentation.Attempts == model.AttemptsTranscripts {
			b.sampleResponses(rec)
		} else {
			b.responses(ds, rec)
		}
	case model.TabFilterResults:
		b.filters(ds, rec)
	case model.TabFields:
		b.fields(rec)
	case model.TabSections:
		b.sections(rec, tab)
	case model.TabRaw:
		b.raw(rec)
	case model.TabIssues:
		b.issues(ds, rec)
	}
	if rec != nil && tab.Content != model.TabSections && tab.Content != model.TabRaw && tab.Content != model.TabIssues {
		b.sections(rec, tab)
	}
	b.trimTrailingBlank()
	if len(b.lines) == 0 {
		b.para("(nothing to show)", b.st.Detail.Subtle, 0)
	}
	return Doc{Lines: b.lines, Plain: b.plain, Folds: b.folds, LastUser: b.lastUser, Depth: b.depth}
}

// builder accumulates lines that fit the width.
type builder struct {
	o     Options
	st    *styles.Styles
	w     int
	lines []string
	plain []string
	folds int
	// lastUser is where the last user turn starts (Doc.LastUser).
	lastUser int
	// depth is the raw JSON's deepest nesting (Doc.Depth).
	depth int
}

// add appends one styled line, cutting it (with a marker) if it is too
// wide: a safety net, the callers wrap first.
func (b *builder) add(line string) {
	if text.Width(line) > b.w {
		line = text.Truncate(line, b.w)
	}
	b.lines = append(b.lines, line)
	b.plain = append(b.plain, stripANSI(line))
}

// blank appends an empty line unless the last line is already empty or
// nothing was written yet.
func (b *builder) blank() {
	if n := len(b.lines); n > 0 && b.plain[n-1] != "" && strings.Trim(b.plain[n-1], "─") != "" {
		b.add("")
	}
}

func (b *builder) trimTrailingBlank() {
	for n := len(b.lines); n > 0 && b.plain[n-1] == ""; n-- {
		b.lines, b.plain = b.lines[:n-1], b.plain[:n-1]
	}
}

// render applies style to s unless the style is a no-op.
func render(style lipgloss.Style, s string) string {
	if s == "" {
		return s
	}
	return style.Render(s)
}

// para writes untrusted text s wrapped at the width minus indent, each
// line in style.
func (b *builder) para(s string, style lipgloss.Style, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, l := range text.Wrap(s, b.w-indent) {
		b.add(pad + render(style, l))
	}
}

// hanging writes s, already sanitized and styled, wrapped after indent,
// each wrapped line under the start of its own (indented JSON).
func (b *builder) hanging(s string, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, l := range text.WrapHanging(s, b.w-indent) {
		b.add(pad + l)
	}
}

// styled writes s, already sanitized and styled, wrapped after indent.
func (b *builder) styled(s string, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, l := range text.WrapStyled(s, b.w-indent) {
		b.add(pad + l)
	}
}

// rule writes a heading line: "── label ───────" across the width; label
// is sanitized and styled by the caller.
func (b *builder) rule(label string) {
	lead := render(b.st.Detail.Subtle, "── ")
	rest := b.w - 3 - text.Width(label) - 1
	if rest < 0 {
		b.styled(lead+label, 0) // too long for one line: wrap, do not cut
		return
	}
	b.add(lead + label + " " + render(b.st.Detail.Subtle, strings.Repeat("─", rest)))
}

// heading writes a bold section title.
func (b *builder) heading(s string) {
	b.para(s, b.st.Detail.Subheading, 0)
}

// kv writes "key: value" with the value wrapped under itself, or the value
// as an indented block when it is long, multi-line or the key is wide.
func (b *builder) kv(key, value string, indent int) {
	k := render(b.st.Detail.Key, text.OneLine(key)+":")
	kw := indent + text.Width(text.OneLine(key)) + 2
	value = text.Sanitize(value)
	pad := strings.Repeat(" ", indent)
	if !strings.Contains(value, "\n") && kw <= b.w/3 {
		lines := text.WrapStyled(value, b.w-kw)
		for i, l := range lines {
			if i == 0 {
				b.add(pad + k + " " + l)
			} else {
				b.add(strings.Repeat(" ", kw) + l)
			}
		}
		return
	}
	b.add(pad + k)
	b.styled(value, indent+2)
}

// fold writes the one-line stand-in of a folded block.
func (b *builder) fold(what string) {
	b.folds++
	b.para("▸ "+what+" (folded: z to unfold)", b.st.Detail.Folded, 0)
}

func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return ansi.Strip(s)
}
