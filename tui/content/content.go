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

// TabKind is the kind of a detail tab.
type TabKind int

// Tab kinds, in the order tabs appear.
const (
	TabPrompt TabKind = iota
	TabResponses
	TabFilters
	TabDoc
	TabSection
	TabRaw
	TabIssues
)

// Tab is one detail tab. Name is what the tab bar shows; for TabSection it
// is also the Section.Tab value it gathers ("Details" for empty).
type Tab struct {
	Kind TabKind
	Name string
}

// DetailsTab is the tab of sections that name no tab.
const DetailsTab = "Details"

// Tabs lists the tabs that have content for rec (nil rec: no record is
// selected, only dataset issues can show).
func Tabs(ds *model.Dataset, rec *model.Record) []Tab {
	hasDSIssues := ds != nil && len(ds.Issues) > 0
	if rec == nil {
		if hasDSIssues {
			return []Tab{{TabIssues, "Issues"}}
		}
		return nil
	}
	builtin := map[string]bool{}
	var tabs []Tab
	add := func(ok bool, k TabKind, name string) {
		if ok {
			tabs = append(tabs, Tab{k, name})
			builtin[name] = true
		}
	}
	secTab := func(name string) bool {
		for _, s := range rec.Sections {
			if s.Tab == name {
				return true
			}
		}
		return false
	}
	// A testset case reads in its Case tab (inputs, steps, batch,
	// expectations) first; its references only repeat expected_outputs.
	testset := ds != nil && ds.Kind == model.KindTestset
	if testset {
		builtin["Prompt"] = true
	}
	add(!testset && (len(rec.Messages) > 0 || len(rec.Options) > 0 || len(rec.References) > 0 ||
		(rec.Target != "" && len(rec.Filters) == 0)) || secTab("Prompt"), TabPrompt, "Prompt")
	if testset && secTab(caseTab) {
		add(true, TabSection, caseTab)
	}
	add(len(rec.Attempts) > 0 || secTab("Responses"), TabResponses, "Responses")
	add(len(rec.Filters) > 0 || secTab("Filters"), TabFilters, "Filters")
	add(len(rec.Fields) > 0 || secTab(docName(ds)), TabDoc, docName(ds))
	for _, s := range rec.Sections {
		name := sectionTab(s)
		if !builtin[name] && name != "Raw" && name != "Issues" {
			builtin[name] = true
			tabs = append(tabs, Tab{TabSection, name})
		}
	}
	add(len(rec.Raw) > 0, TabRaw, "Raw")
	add(len(rec.Issues) > 0 || hasDSIssues, TabIssues, "Issues")
	return tabs
}

// caseTab is the testset loader's tab of a test case's sections.
const caseTab = "Case"

// docName is "Doc" for lm-eval (the `doc` fields) and "Fields" elsewhere.
func docName(ds *model.Dataset) string {
	if ds == nil || ds.Kind == model.KindLMEval {
		return "Doc"
	}
	return "Fields"
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
	// Markdown renders message and response text as markdown (see
	// MarkdownDefault for the default per kind).
	Markdown bool
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
	b := &builder{o: o, st: o.Styles, w: o.Width}
	if rec != nil && tab.Kind != TabIssues {
		b.banner(rec, tab)
	}
	switch tab.Kind {
	case TabPrompt:
		b.prompt(ds, rec)
	case TabResponses:
		if ds != nil && ds.Kind == model.KindSample {
			b.sampleResponses(rec)
		} else {
			b.responses(rec)
		}
	case TabFilters:
		b.filters(ds, rec)
	case TabDoc:
		b.fields(rec)
	case TabSection:
		b.sections(rec, tab.Name)
	case TabRaw:
		b.raw(rec)
	case TabIssues:
		b.issues(ds, rec)
	}
	if rec != nil && tab.Kind != TabSection && tab.Kind != TabRaw && tab.Kind != TabIssues {
		b.sections(rec, tab.Name)
	}
	b.trimTrailingBlank()
	if len(b.lines) == 0 {
		b.para("(nothing to show)", b.st.Detail.Subtle, 0)
	}
	return Doc{Lines: b.lines, Plain: b.plain, Folds: b.folds}
}

// builder accumulates lines that fit the width.
type builder struct {
	o     Options
	st    *styles.Styles
	w     int
	lines []string
	plain []string
	folds int
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
