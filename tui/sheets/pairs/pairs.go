// Package pairs is the two-run comparison (C): two datasets of the same
// kind over the same prompts, paired record by record (compare.Runs).
// Formats compared by flips (lm-eval) get the 2x2 table of which run is
// right and the list of flips; others every pair with both scores and
// the difference, largest change first. Enter on a pair shows that record
// in run A's list.
package pairs

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/compare"
	"evalview/tui/content"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Sheet compares two of the open datasets.
type Sheet struct {
	c *ui.Common
	// dss are the open datasets; ai and bi the two compared, filter A's
	// filter (an index of its Filters, -1 for its own scores).
	dss    []*model.Dataset
	ai, bi int
	filter int
	table  compare.Table
	pairs  []compare.Pair
	// sides counts every record key, flips or not: in both runs, only
	// in A, only in B.
	sides sides
	// flipsOnly lists only the pairs whose right/wrong changed (lm-eval).
	flipsOnly bool
	cursor    int
	offset    int
	// hits are the pairs' lines, for clicks.
	hits ui.Rows
	w, h int
}

// New compares dss[ai], under its list's filter, with its default
// partner (compare.Partner).
func New(c *ui.Common, dss []*model.Dataset, ai, filter int) *Sheet {
	s := &Sheet{c: c, dss: dss, ai: ai, bi: compare.Partner(dss, ai, -1), filter: filter}
	s.recount()
	return s
}

// Applies reports whether dss[i] has a dataset to be compared with.
func Applies(dss []*model.Dataset, i int) bool { return compare.Partner(dss, i, -1) >= 0 }

// filters picks the filter of each side: the list's selected filter in A
// and the filter of the same name in B (else B's first).
func (s *Sheet) filters() (int, int) {
	a, b := s.dss[s.ai], s.dss[s.bi]
	fa := s.filter
	fb := -1
	if len(b.Filters) > 0 {
		fb = 0
		if fa >= 0 && fa < len(a.Filters) {
			if j := b.FilterIndex(a.Filters[fa]); j >= 0 {
				fb = j
			}
		}
	}
	return fa, fb
}

func (s *Sheet) recount() {
	a, b := s.dss[s.ai], s.dss[s.bi]
	fa, fb := s.filters()
	var pairs []compare.Pair
	s.table, pairs = compare.Runs(a, b, fa, fb)
	s.sides = countSides(pairs)
	s.flipsOnly = a.Presentation.CompareByFlips
	if s.flipsOnly {
		pairs = compare.Flips(pairs)
	}
	s.pairs = pairs
	s.cursor, s.offset = 0, 0
}

// Title names the sheet.
func (s *Sheet) Title() string { return "compare runs" }

// SetSize sets the body rectangle.
func (s *Sheet) SetSize(w, h int) { s.w, s.h = w, h }

// Update moves the cursor, picks the other dataset, opens a pair.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	cmd, _, _ := ui.Run(s.Actions(), k)
	s.cursor = max(0, min(s.cursor, len(s.pairs)-1))
	return cmd
}

// Actions are the sheet's keys: the other run (b), the cursor over the
// pairs, and enter showing the pair's record of run A in the list.
func (s *Sheet) Actions() []ui.Action {
	km := s.c.Keys
	c := &km.Compare
	acts := []ui.Action{ui.OnLine(&km.Nav.Down, ""), ui.OnLine(&km.Nav.Up, ""),
		// b before the moving keys: it is pgup's other key.
		{Binding: &c.PickB, Do: func() tea.Cmd {
			if j := compare.Partner(s.dss, s.ai, s.bi); j >= 0 {
				s.bi = j
				s.recount()
			}
			return nil
		}, Line: true},
		{Binding: &c.Choose, When: func() bool { return s.cursor >= 0 && s.cursor < len(s.pairs) }, Do: func() tea.Cmd {
			if p := s.pairs[s.cursor]; p.A >= 0 {
				return ui.Done(s, ui.ShowRecordMsg{Dataset: s.dss[s.ai], Index: p.A})
			}
			la, _ := runLabels(s.dss[s.ai], s.dss[s.bi])
			return ui.Send(ui.NoteMsg{Text: "this pair has no record in run A (" + text.OneLine(la) + ")"})
		}, Line: true},
		{Binding: &c.Close, Do: func() tea.Cmd { return ui.Done(s, nil) }, Line: true, Help: s.c.Back()},
		ui.OnLine(&km.Global.Help, ""),
	}
	n := func() int { return len(s.pairs) }
	return append(acts, ui.CursorActions(&km.Nav, &s.cursor, n, s.listRows, nil)...)
}

// ShortHelp lists the sheet's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding { return ui.ShortHelp(s.Actions()) }

// FullHelp lists the sheet's keys for the `?` overlay.
func (s *Sheet) FullHelp() [][]key.Binding {
	k := s.c.Keys.Compare
	return [][]key.Binding{{k.PickB, k.Choose, k.Close}}
}

// head renders the lines above the pair list.
func (s *Sheet) head() []string {
	st := s.c.Styles
	a, b := s.dss[s.ai], s.dss[s.bi]
	la, lb := runLabels(a, b)
	pa, pb := trimCommonDirs(a.Path, b.Path)
	out := []string{
		st.Detail.Heading.Render("Compare runs"),
		s.sideLine("A ", la, pa, ")"),
		s.sideLine("B ", lb, pb, "; b: next)"),
	}
	if fa, fb := s.filters(); fa >= 0 && fa < len(a.Filters) && fb >= 0 && fb < len(b.Filters) && a.Filters[fa]+b.Filters[fb] != "" {
		out = append(out, st.Detail.Subtle.Render("filter A "+text.OneLine(a.Filters[fa])+" · filter B "+text.OneLine(b.Filters[fb])))
	}
	out = append(out, "")
	t := s.table
	sd := s.sides
	if s.flipsOnly {
		out = append(out,
			st.Detail.TableHeader.Render(text.Pad("", 8)+text.PadLeft("B ✓", 8)+text.PadLeft("B ✗", 8)),
			text.Pad("A ✓", 8)+text.PadLeft(strconv.Itoa(t.Both), 8)+text.PadLeft(strconv.Itoa(t.OnlyA), 8),
			text.Pad("A ✗", 8)+text.PadLeft(strconv.Itoa(t.OnlyB), 8)+text.PadLeft(strconv.Itoa(t.Neither), 8))
		line := text.Plural(sd.paired, "doc") + " in both runs"
		if t.Placed() != sd.paired {
			line += " (" + strconv.Itoa(t.Placed()) + " right or wrong in both)"
		}
		line += " · " + strconv.Itoa(t.OnlyA) + " only A right · " + strconv.Itoa(t.OnlyB) + " only B right"
		if t.Placed() > 0 {
			line += " · agree on " + strconv.FormatFloat(100*t.Agree(), 'f', 1, 64) + "%"
		}
		out = append(out, st.Detail.Subtle.Render(line))
		if n := sd.paired - t.Placed(); n > 0 {
			out = append(out, st.Issue.Warning.Render("⚠ "+text.Plural(n, "doc")+" in both runs unscored or errored in one"))
		}
	} else {
		var sumA, sumB float64
		n := 0
		for _, p := range s.pairs {
			if p.HasA && p.HasB {
				sumA, sumB, n = sumA+p.ScoreA, sumB+p.ScoreB, n+1
			}
		}
		line := text.Plural(sd.paired, "pair")
		if n > 0 {
			// Over the same records on both sides, so that B−A compares
			// like with like.
			line += " · " + strconv.Itoa(n) + " scored in both: mean A " + text.FormatScore(sumA/float64(n)) +
				" · mean B " + text.FormatScore(sumB/float64(n)) + " · B−A " + signed((sumB-sumA)/float64(n))
		}
		out = append(out, st.Detail.Subtle.Render(line))
	}
	if sd.onlyA+sd.onlyB > 0 {
		out = append(out, st.Issue.Warning.Render("⚠ "+text.Plural(sd.onlyA, "record")+" only in A, "+text.Plural(sd.onlyB, "record")+" only in B"))
	}
	out = append(out, "")
	if s.flipsOnly {
		out = append(out, st.Detail.Subheading.Render("Flips ("+strconv.Itoa(len(s.pairs))+")"))
	} else {
		out = append(out, st.Detail.Subheading.Render("By largest change"))
	}
	return out
}

// sideLine renders one side's label and its path; the path is cut in the
// middle to fit, so the folder and file name that tell runs apart stay on
// screen.
func (s *Sheet) sideLine(side, label, path, tail string) string {
	st := s.c.Styles
	label = text.OneLine(label)
	room := s.w - text.Width(side+label+" ("+tail)
	p := ""
	if room >= 8 {
		p = " (" + text.TruncateMiddle(text.OneLine(path), room) + tail
	}
	return st.Detail.Subheading.Render(side) + st.Detail.Selected.Render(label) + st.Detail.Subtle.Render(p)
}

// sides counts the record keys of two runs: in both, only in A, only
// in B. They add up to every pair compare.Runs returns.
type sides struct{ paired, onlyA, onlyB int }

func countSides(pairs []compare.Pair) sides {
	var sd sides
	for _, p := range pairs {
		switch {
		case p.A >= 0 && p.B >= 0:
			sd.paired++
		case p.A >= 0:
			sd.onlyA++
		default:
			sd.onlyB++
		}
	}
	return sd
}

// emptyText says why no pair is listed: a run without records, no record
// in both runs, none right or wrong in both, or no flip.
func (s *Sheet) emptyText() string {
	a, b := s.dss[s.ai], s.dss[s.bi]
	na, nb := a.Records.Len(), b.Records.Len()
	sd := s.sides
	switch {
	case na == 0 && nb == 0:
		return "Neither run has records."
	case na == 0:
		return "Run A has no records; B has " + strconv.Itoa(nb) + "."
	case nb == 0:
		return "Run B has no records; A has " + strconv.Itoa(na) + "."
	case sd.paired == 0:
		return "No record is in both runs: " + strconv.Itoa(sd.onlyA) + " only in A, " + strconv.Itoa(sd.onlyB) + " only in B."
	case s.flipsOnly && s.table.Placed() == 0:
		return "No flips to show: none of the " + text.Plural(sd.paired, "doc") + " in both runs is right or wrong in both."
	case s.flipsOnly:
		return "No flips: the runs are right on the same docs."
	}
	return "No records to pair."
}

// pairID is the record id of a pair: A's, B's when only B has it, both
// when they differ (runs paired by prompt).
func (s *Sheet) pairID(p compare.Pair) string {
	var ia, ib string
	if p.A >= 0 {
		ia = s.dss[s.ai].Records.Summary(p.A).ID
	}
	if p.B >= 0 {
		ib = s.dss[s.bi].Records.Summary(p.B).ID
	}
	switch {
	case p.A < 0:
		return ib
	case p.B < 0 || ia == ib:
		return ia
	}
	return ia + "→" + ib
}

// listRows is how many pair rows fit under the head.
func (s *Sheet) listRows() int {
	return max(1, s.h-len(s.head())-1)
}

// View renders the body rectangle.
func (s *Sheet) View() string {
	if s.w <= 0 || s.h <= 0 {
		return ""
	}
	st := s.c.Styles
	lines := s.head()
	a, b := s.dss[s.ai], s.dss[s.bi]
	rows := s.listRows()
	if s.cursor < s.offset {
		s.offset = s.cursor
	}
	if s.cursor >= s.offset+rows {
		s.offset = s.cursor - rows + 1
	}
	s.offset = max(0, min(s.offset, len(s.pairs)-rows))
	end := min(len(s.pairs), s.offset+rows)
	// The id column shows the records' ids, not what paired them (a
	// run's source file and sample index, or its prompt's name).
	ids := make([]string, end-s.offset)
	keyW := 3
	for i := range ids {
		ids[i] = text.OneLine(s.pairID(s.pairs[s.offset+i]))
		keyW = max(keyW, text.Width(ids[i]))
	}
	keyW = min(keyW, max(6, s.w/4))
	if s.flipsOnly {
		lines = append(lines, st.Detail.TableHeader.Render("  "+text.Pad("id", keyW)+"  A  B  question"))
	} else {
		lines = append(lines, st.Detail.TableHeader.Render("  "+text.Pad("id", keyW)+" "+text.PadLeft("A", 7)+" "+text.PadLeft("B", 7)+" "+text.PadLeft("B−A", 7)+"  prompt"))
	}
	if len(s.pairs) == 0 {
		lines = append(lines, st.List.Empty.Render("  "+s.emptyText()))
	}
	s.hits.Reset()
	for i := s.offset; i < end; i++ {
		s.hits.Set(len(lines), i)
		p := s.pairs[i]
		title := ""
		if p.A >= 0 {
			title = a.Records.Summary(p.A).Title
		} else if p.B >= 0 {
			title = b.Records.Summary(p.B).Title
		}
		mark := "  "
		if i == s.cursor {
			mark = "▸ "
		}
		k := text.Pad(text.TruncateMiddle(ids[i-s.offset], keyW), keyW)
		var line string
		if s.flipsOnly {
			ga, gb := content.Glyph(model.StatusFail), content.Glyph(model.StatusPass)
			if p.Cell == compare.OnlyA {
				ga, gb = gb, ga
			}
			line = mark + k + "  " + ga + "  " + gb + "  " + text.FirstLine(title)
		} else {
			line = mark + k + " " + text.PadLeft(sideScore(p.A, p.ScoreA, p.HasA), 7) + " " + text.PadLeft(sideScore(p.B, p.ScoreB, p.HasB), 7) + " " +
				text.PadLeft(deltaText(p), 7) + "  " + text.FirstLine(title)
		}
		line = text.Pad(text.Truncate(line, s.w), s.w)
		if i == s.cursor {
			line = st.List.Cursor.Render(line)
		}
		lines = append(lines, line)
	}
	return ui.FitLines(lines, s.w, s.h)
}

// sideScore prints one side's score: "absent" when the run has no such
// record (rec < 0), "–" when its record has no score.
func sideScore(rec int, v float64, ok bool) string {
	switch {
	case rec < 0:
		return "absent"
	case !ok:
		return "–"
	}
	return text.FormatScore(v)
}

// deltaText prints B−A with its sign, "–" without both scores.
func deltaText(p compare.Pair) string {
	if !p.HasA || !p.HasB {
		return "–"
	}
	return signed(p.Delta)
}

// signed prints v with an explicit sign.
func signed(v float64) string {
	if v > 0 {
		return "+" + text.FormatScore(v)
	}
	return text.FormatScore(v)
}

// Pairs are the pairs listed.
func (s *Sheet) Pairs() []compare.Pair { return s.pairs }

// ByFlips reports whether only the flips are listed.
func (s *Sheet) ByFlips() bool { return s.flipsOnly }

// Click moves the cursor to the pair clicked; a second click shows it in
// the list (as enter).
func (s *Sheet) Click(_, y int) tea.Cmd {
	if row, ok := s.hits.At(y); ok {
		return ui.ClickRow(&s.cursor, row, func() tea.Cmd { return ui.Do(s.Actions(), &s.c.Keys.Compare.Choose) })
	}
	return nil
}

// Wheel moves the cursor by delta pairs.
func (s *Sheet) Wheel(delta int) { ui.WheelCursor(&s.cursor, delta, len(s.pairs)) }
