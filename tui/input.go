package tui

import (
	"cmp"
	"errors"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model/query"
	"evalview/tui/keys"
	"evalview/tui/styles"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// lineInput is the line typed in the status bar's place: the search (/)
// or a prompt (the `:` query, export, labels, note, threshold). While one
// is open it takes every key (the input mode); what it does with the
// text is its callbacks', closures of the room that opened it.
type lineInput struct {
	prefix, hint string
	line         lineEditor
	// errText is shown after the line (a parse error with its column).
	errText string
	// search marks the search: its keys are Search.Confirm and
	// Search.Cancel, and its line counts the matches so far.
	search bool
	// completion cycling: the line before the first tab and where we are.
	base    string
	cands   []query.Candidate
	candIdx int
	// preview are the candidates of the line as typed, for the menu
	// (input_menu.go), computed for previewFor.
	preview    []query.Candidate
	previewFor string

	complete func(line string) []query.Candidate
	// change runs after every edit (live filtering), may be nil.
	change func(v string) tea.Cmd
	// submit runs on enter; keep=true leaves the line open (an error).
	submit func(v string) (keep bool, cmd tea.Cmd)
	// cancel runs on esc, may be nil.
	cancel func() tea.Cmd
}

// setValue replaces the line's text.
func (p *lineInput) setValue(v string) {
	p.line = lineEditor{}
	p.line.Insert(v)
}

// Value returns the line's text.
func (p *lineInput) Value() string { return p.line.Value() }

// setError shows err (a query error with its column) or clears it.
func (p *lineInput) setError(err error) {
	if err == nil {
		p.errText = ""
		return
	}
	p.errText, _ = queryErrorText(err)
}

// queryErrorText renders a parse error for the prompt: the column and
// the message.
func queryErrorText(err error) (string, int) {
	var qe *query.Error
	if errors.As(err, &qe) {
		return "col " + strconv.Itoa(qe.Col) + ": " + qe.Msg, qe.Col
	}
	return err.Error(), 0
}

// cycle applies the next (dir 1) or previous (-1) completion.
func (p *lineInput) cycle(dir int) bool {
	if p.complete == nil {
		return false
	}
	if p.cands == nil {
		p.base = p.Value()
		p.cands = p.complete(p.base)
		if len(p.cands) == 0 {
			p.cands = nil
			return false
		}
		p.candIdx = 0
		if dir < 0 {
			p.candIdx = len(p.cands) - 1
		}
	} else {
		n := len(p.cands)
		p.candIdx = ((p.candIdx+dir)%n + n) % n
	}
	c := p.cands[p.candIdx]
	r0, r1 := max(0, min(c.Replace[0], len(p.base))), max(0, min(c.Replace[1], len(p.base)))
	r0 = min(r0, r1)
	p.setValue(p.base[:r0] + c.Text + p.base[r1:])
	return true
}

// candidatesHint shows where tab cycling is ("3/12").
func (p *lineInput) candidatesHint() string {
	if len(p.cands) == 0 {
		return ""
	}
	return "tab " + strconv.Itoa(p.candIdx+1) + "/" + strconv.Itoa(len(p.cands))
}

// keys are the line's submit and cancel bindings.
func (p *lineInput) keys(km *keys.KeyMap) (submit, cancel key.Binding) {
	if p.search {
		return km.Search.Confirm, km.Search.Cancel
	}
	return km.Prompt.Submit, km.Prompt.Cancel
}

// update edits the line: enter submits, esc cancels, tab and shift+tab
// complete, anything else edits the text. closed reports that the line
// is done.
func (p *lineInput) update(k tea.KeyPressMsg, km *keys.KeyMap) (closed bool, cmd tea.Cmd) {
	submit, cancel := p.keys(km)
	switch {
	case key.Matches(k, submit):
		keep := false
		if p.submit != nil {
			keep, cmd = p.submit(p.Value())
		}
		return !keep, cmd
	case key.Matches(k, cancel):
		if p.cancel != nil {
			cmd = p.cancel()
		}
		return true, cmd
	case !p.search && key.Matches(k, km.Prompt.Complete, km.Prompt.CompletePrev):
		dir := 1
		if key.Matches(k, km.Prompt.CompletePrev) {
			dir = -1
		}
		if p.cycle(dir) && p.change != nil {
			return false, p.change(p.Value())
		}
		return false, nil
	}
	if p.line.Update(k, km.Edit) {
		return false, p.edited()
	}
	return false, nil
}

// paste adds pasted text to the line.
func (p *lineInput) paste(s string) tea.Cmd {
	if !p.line.Insert(s) {
		return nil
	}
	return p.edited()
}

// edited drops the completions of the old text and runs change.
func (p *lineInput) edited() tea.Cmd {
	p.cands = nil
	if p.change != nil {
		return p.change(p.Value())
	}
	return nil
}

// shortHelp is the help line while the line is open.
func (p *lineInput) shortHelp(km *keys.KeyMap) []key.Binding {
	submit, cancel := p.keys(km)
	b := []key.Binding{submit, cancel}
	if p.complete != nil {
		b = append(b, km.Prompt.Complete)
	}
	return b
}

// handleInputKey gives a key to the open line; ctrl+c still quits.
func (m *Model) handleInputKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, m.c.Keys.Global.ForceQuit) {
		return tea.Quit
	}
	p := m.input
	closed, cmd := p.update(k, m.c.Keys)
	if closed && m.input == p { // a callback may have opened another
		m.input = nil
	}
	return cmd
}

// inputView renders the open line in the status bar's line: the prefix,
// the text and a block cursor, then the error or the hint (for the
// search, the matches so far).
func (m *Model) inputView() string {
	p := m.input
	st := m.c.Styles
	w := m.layout.Width
	in := p.prefix + text.Sanitize(p.Value()) + st.Bar.Active.Reverse(true).Render(" ")
	if p.search {
		si := m.statusInfo()
		counting := si.Counting || m.search.in == focusList && p.Value() != m.list.Query()
		where := "list" // the pane being searched
		if m.search.in == focusDetail {
			where = cmp.Or(m.detail.TabName(), "detail")
		}
		return m.status.SearchLine(in, where, si.Hits, p.Value() != "", counting)
	}
	right := p.hint
	if h := p.candidatesHint(); h != "" {
		right = h + " · " + right
	}
	rightR := st.Bar.Hint.Render(right + " ")
	if p.errText != "" {
		rightR = st.Issue.Error.Render("✗ " + text.OneLine(p.errText) + " ")
	}
	if text.Width(in)+text.Width(rightR)+1 > w {
		if p.errText != "" {
			// The error matters more than the start of the line.
			rightR = text.Truncate(rightR, max(0, w/2))
		} else {
			rightR = ""
		}
	}
	left := text.Truncate(in, max(0, w-text.Width(rightR)-1))
	gap := w - text.Width(left) - text.Width(rightR)
	return left + st.Bar.Base.Render(spaces(max(0, gap))) + rightR
}

func spaces(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}

// startSearch opens the search line for the focused pane: the list is
// searched when the typing pauses (searchPause) or at enter, the detail
// at every change (its text is in memory), so matches show while typing;
// enter keeps the search, esc drops it.
func (m *Model) startSearch() tea.Cmd {
	if len(m.datasets) == 0 {
		return nil
	}
	m.search.in = m.focus
	m.input = &lineInput{
		prefix: "/", search: true,
		change: func(q string) tea.Cmd {
			// The detail is searched at once, the list once the typing
			// pauses.
			if m.search.in == focusDetail {
				return m.search.set(m.search.in, q)
			}
			m.search.typed++
			id := m.search.typed
			return tea.Tick(searchPause, func(time.Time) tea.Msg { return searchPauseMsg{id: id, q: q} })
		},
		submit: func(v string) (bool, tea.Cmd) { m.searchedAt = m.pressed; return false, m.search.now(v) },
		cancel: func() tea.Cmd { m.search.typed++; return m.search.set(m.search.in, "") },
	}
	return nil
}

// lineEditor is the text of a line being typed (ui.LineEditor, which
// the sheets that filter as you type share).
type lineEditor = ui.LineEditor

// setListQuery sets the list's `:` query (a sheet's choice, the
// high-score filter); a query that does not parse leaves the list as it
// was and says why in the status bar.
func (m *Model) setListQuery(q string) tea.Cmd {
	cmd, err := m.list.SetQuery(q)
	if err != nil {
		m.note = "query: " + err.Error()
		return nil
	}
	if len(m.datasets) > 0 {
		m.note = ""
	}
	return cmd
}

// openQueryLine opens the `:` prompt on the active query. Typing applies
// the query as soon as it parses; enter keeps it, esc restores the one
// the prompt opened on, tab completes field names and values.
func (m *Model) openQueryLine() tea.Cmd {
	if len(m.datasets) == 0 {
		return nil
	}
	l := m.list
	before := l.Where()
	apply := func(v string, parsed *query.Query) tea.Cmd {
		m.note = ""
		return l.ApplyQuery(v, parsed)
	}
	p := &lineInput{prefix: ":", hint: "tab complete · enter keep · esc cancel"}
	p.setValue(before)
	p.complete = l.CompleteQuery
	p.change = func(v string) tea.Cmd {
		// A field name being typed ("tas" of task_type=) is not a word
		// to look for yet: apply the line without it.
		v, held := l.LiveQuery(v)
		parsed, err := l.ParseQuery(v)
		if err != nil && held {
			p.setError(nil) // what remains may be incomplete ("not ")
			return nil
		}
		if err != nil {
			p.setError(err)
			return nil
		}
		p.setError(nil)
		if strings.TrimSpace(v) == l.Where() {
			return nil
		}
		return apply(v, parsed)
	}
	p.submit = func(v string) (bool, tea.Cmd) {
		parsed, err := l.ParseQuery(v)
		if err != nil {
			p.setError(err)
			return true, nil
		}
		if strings.TrimSpace(v) == l.Where() {
			return false, nil
		}
		return false, apply(v, parsed)
	}
	p.cancel = func() tea.Cmd {
		if l.Where() == before {
			return nil
		}
		return m.setListQuery(before)
	}
	m.input = p
	return nil
}

// The completion menu: while a prompt that completes is open, the
// candidates for the word being typed show as a menu over the bottom of
// the body (the value and how many records have it), the one tab would
// take, or took, marked; tab and shift+tab move through them. It shows
// them all at once where cycling showed one at a time.

// menuRows is the most candidates the menu shows at once.
const menuRows = 8

// menuCands are the candidates the menu lists: those tab cycles through
// once it was pressed, else those the line's word has now.
func (p *lineInput) menuCands() ([]string, []int, int) {
	if p.complete == nil {
		return nil, nil, -1
	}
	cands, cur := p.cands, p.candIdx
	if cands == nil {
		if p.preview == nil || p.previewFor != p.Value() {
			p.preview, p.previewFor = p.complete(p.Value()), p.Value()
		}
		cands, cur = p.preview, -1
	}
	texts := make([]string, len(cands))
	counts := make([]int, len(cands))
	for i, c := range cands {
		texts[i], counts[i] = c.Text, c.Count
	}
	return texts, counts, cur
}

// menu renders the menu, at most menuRows lines of w cells with a window
// around the current candidate; nil when there is nothing to offer.
func (p *lineInput) menu(w int, st *styles.Styles) []string {
	if p == nil || p.search {
		return nil
	}
	texts, counts, cur := p.menuCands()
	if len(texts) == 0 || len(texts) == 1 && strings.HasSuffix(p.Value(), texts[0]) {
		return nil
	}
	lo := 0
	if cur >= menuRows {
		lo = cur - menuRows + 1
	}
	hi := min(len(texts), lo+menuRows)
	width := 0
	for _, t := range texts[lo:hi] {
		width = max(width, text.Width(text.OneLine(t)))
	}
	width = min(width, max(10, w/2))
	var out []string
	for i := lo; i < hi; i++ {
		mark := "  "
		if i == cur {
			mark = "▸ "
		}
		line := mark + text.Pad(text.Truncate(text.OneLine(texts[i]), width), width)
		if counts[i] > 0 {
			line += st.Bar.Hint.Render("  " + strconv.Itoa(counts[i]))
		}
		line = text.Pad(line, w)
		if i == cur {
			line = st.List.Cursor.Render(line)
		} else {
			line = st.Bar.Base.Render(line)
		}
		out = append(out, line)
	}
	head := "tab takes the first"
	if cur >= 0 {
		head = "tab next · shift+tab previous"
	}
	head += " · " + text.Plural(len(texts), "completion")
	return append([]string{st.Bar.Hint.Render(text.Pad(" "+head, w))}, out...)
}

// withMenu lays the completion menu over the bottom lines of body.
func withMenu(body string, menu []string) string {
	if len(menu) == 0 {
		return body
	}
	lines := strings.Split(body, "\n")
	n := min(len(menu), max(0, len(lines)-1))
	copy(lines[len(lines)-n:], menu[len(menu)-n:])
	if n < len(menu) && n > 0 {
		lines[len(lines)-n] = menu[0] // too short a body: the heading, then what fits
		copy(lines[len(lines)-n+1:], menu[1:n])
	}
	return strings.Join(lines, "\n")
}
