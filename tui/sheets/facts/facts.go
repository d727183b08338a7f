// Package facts is the facts sheet (i): everything a compact header
// abbreviates, every fact of the dataset in full as the loader gives it
// (a run's id, endpoint, device, times, settings, per-category counts),
// then what the list found the same on every row (the columns it left
// out, the lead the titles share), then the metrics it reports.
package facts

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Sheet is the facts sheet of one dataset.
type Sheet struct {
	c      *ui.Common
	ds     *model.Dataset
	shared []model.Fact
	scroll ui.Scroll
}

// New opens the facts of ds; shared are the list's facts about what its
// rows have in common (list.Pane.ConstantFacts).
func New(c *ui.Common, ds *model.Dataset, shared ...model.Fact) *Sheet {
	return &Sheet{c: c, ds: ds, shared: shared}
}

// Title names the sheet.
func (s *Sheet) Title() string { return "run info" }

// SetSize sets the body rectangle.
func (s *Sheet) SetSize(w, h int) { s.scroll.W, s.scroll.H = w, h }

// Update scrolls or closes.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	cmd, _, _ := ui.Run(s.Actions(), k)
	return cmd
}

// Actions are the sheet's keys: it scrolls and closes.
func (s *Sheet) Actions() []ui.Action {
	k := s.c.Keys
	acts := []ui.Action{ui.OnLine(&k.Nav.Down, ""), ui.OnLine(&k.Nav.Up, ""),
		{Binding: &k.Facts.Close, Do: func() tea.Cmd { return ui.Done(s, nil) }, Line: true, Help: s.c.Back()}, ui.OnLine(&k.Global.Help, "")}
	return append(acts, ui.ScrollActions(&k.Nav, &s.scroll)...)
}

// ShortHelp lists the sheet's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding { return ui.ShortHelp(s.Actions()) }

// FullHelp lists the sheet's keys for the `?` overlay.
func (s *Sheet) FullHelp() [][]key.Binding {
	k := s.c.Keys
	return [][]key.Binding{{k.Nav.Down, k.Nav.Up, k.Facts.Close, k.Global.Help}}
}

// View renders the facts as "key  value" rows, values wrapped under
// themselves, then the metrics.
func (s *Sheet) View() string {
	st := s.c.Styles
	w := s.scroll.W
	title, metrics := s.ds.Title, "metrics"
	if ch := s.ds.Presentation.Header; ch != nil {
		title, metrics = ch.FactsTitle, ch.MetricsTitle
	}
	lines := []string{st.Detail.Heading.Render(text.Truncate(text.OneLine(title), w))}
	keyW := 0
	for _, f := range append(s.ds.Facts, s.shared...) {
		keyW = max(keyW, text.Width(text.OneLine(f.Key)))
	}
	for _, m := range s.ds.Metrics {
		keyW = max(keyW, text.Width(text.OneLine(m.Name)))
	}
	keyW = min(keyW, max(8, w/3))
	row := func(k, v string) {
		vw := max(8, w-keyW-2)
		for i, l := range text.Wrap(v, vw) {
			head := strings.Repeat(" ", keyW)
			if i == 0 {
				head = st.Header.FactKey.Render(text.Pad(text.Truncate(text.OneLine(k), keyW), keyW))
			}
			lines = append(lines, head+"  "+l)
		}
	}
	for _, f := range s.ds.Facts {
		row(f.Key, f.Value)
	}
	if len(s.shared) > 0 {
		lines = append(lines, "", st.Detail.Subheading.Render("the same on every row (left out of the list)"))
		for _, f := range s.shared {
			row(f.Key, f.Value)
		}
	}
	if len(s.ds.Metrics) > 0 {
		lines = append(lines, "", st.Detail.Subheading.Render(text.OneLine(metrics)))
		for _, m := range s.ds.Metrics {
			row(m.Name, text.FormatScore(m.Value))
		}
	}
	lines = append(lines, "", st.Detail.Subtle.Render(text.Truncate("path: "+text.OneLine(s.ds.Path), w)))
	return s.scroll.View(lines)
}

// Wheel scrolls by delta lines.
func (s *Sheet) Wheel(delta int) { ui.WheelScroll(&s.scroll, delta) }
