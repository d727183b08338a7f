// Package styles builds the browser's one Styles struct from a small
// semantic palette (primary, subtle, pass, fail, warn, error), for a dark or
// a light terminal background, or without colors when NO_COLOR is set.
//
// Only layout code builds ad-hoc styles; everything else reads these.
package styles

import (
	"image/color"
	"os"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"evalview/model"
)

// Palette is the semantic palette every style derives from. A nil color
// means "the terminal's default".
type Palette struct {
	// Primary marks focus and titles; Subtle is for secondary text.
	Primary color.Color
	Subtle  color.Color
	// Pass, Fail, Warn and Error color outcomes and issues.
	Pass  color.Color
	Fail  color.Color
	Warn  color.Color
	Error color.Color
	// Accent marks JSON keys and roles other than user and assistant.
	Accent color.Color
	// BarBg and BarFg color the status bar.
	BarBg color.Color
	BarFg color.Color
	// MatchBg is the background of search matches.
	MatchBg color.Color
}

// Styles is every style of the browser, grouped by pane.
type Styles struct {
	// NoColor is true when the styles carry no colors (NO_COLOR, tests).
	NoColor bool
	// Dark tells which background the colors were picked for.
	Dark bool
	// Palette is the colors the styles were built from.
	Palette Palette

	// Header styles the title line, the facts and the metrics line.
	Header struct {
		Title, Kind, Counts, FactKey, FactValue, MetricFilter, MetricName,
		MetricValue, Stderr, Differs, Switcher, Rule lipgloss.Style
	}
	// List styles the record list: its heading, rows and cursor.
	List struct {
		Heading, HeadingFocused, Row, Cursor, CursorBlurred, ID, Score,
		Empty lipgloss.Style
		// Selected marks rows in the selection; Column is the heading
		// under the column cursor (what s sorts by).
		Selected, Column lipgloss.Style
	}
	// Status styles the outcome glyphs and words (pass ✓, fail ✗...).
	Status struct {
		Pass, Fail, Error, Unscored lipgloss.Style
	}
	// Issue styles the issue markers and banners.
	Issue struct {
		Warning, Error, Banner, Code, Location lipgloss.Style
		// Note styles notes (model.SeverityNote): how a file was read,
		// no finding, so neither the warning's color nor its glyph.
		Note lipgloss.Style
	}
	// Detail styles the tab bar and the rendered record content.
	Detail struct {
		Tab, ActiveTab, ActiveTabBlurred, TabMarker, Heading, Subheading,
		Key, Value, Subtle, Label, FewShot, Folded, Selected, BarFull,
		BarEmpty, TableHeader, Match, CurrentMatch lipgloss.Style
	}
	// Role styles the speaker of a message.
	Role struct {
		System, User, Assistant, Tool, Other lipgloss.Style
	}
	// Code styles highlighted JSON, by token class.
	Code struct {
		Key, String, Number, Literal, Punct, Text lipgloss.Style
	}
	// Bar styles the status bar.
	Bar struct {
		Base, Position, Item, Active, Loading, Hint lipgloss.Style
	}
	// Overlay styles the help overlay and the dataset picker.
	Overlay struct {
		Title, Border, Item, Selected lipgloss.Style
	}
	// Help styles the help line and the help overlay's bindings.
	Help help.Styles
	// TooSmall styles the "terminal too small" notice.
	TooSmall lipgloss.Style
}

// New returns the styles for a dark (isDark) or light background. When the
// NO_COLOR environment variable is set and not empty, the styles carry no
// colors at all (see https://no-color.org).
func New(isDark bool) Styles {
	if os.Getenv("NO_COLOR") != "" {
		s := Plain()
		s.Dark = isDark
		return s
	}
	return build(palette(isDark), isDark, false)
}

// Plain returns styles without any color: emphasis only (bold, reverse,
// underline), for NO_COLOR and for tests.
func Plain() Styles {
	return build(Palette{}, true, true)
}

func palette(isDark bool) Palette {
	ld := lipgloss.LightDark(isDark)
	c := lipgloss.Color
	return Palette{
		Primary: ld(c("#3F3FBF"), c("#8F8CFF")),
		Subtle:  ld(c("#8A8A8A"), c("#6E6E6E")),
		Pass:    ld(c("#1E7F3A"), c("#5FD787")),
		Fail:    ld(c("#C62828"), c("#FF6B6B")),
		Warn:    ld(c("#A35F00"), c("#FFC857")),
		Error:   ld(c("#B00040"), c("#FF5F87")),
		Accent:  ld(c("#00768A"), c("#5FD7D7")),
		BarBg:   ld(c("#E2E2EC"), c("#30303E")),
		BarFg:   ld(c("#303030"), c("#D0D0D8")),
		MatchBg: ld(c("#FFE28A"), c("#6A5A00")),
	}
}

// fg returns a style with foreground c, or a plain style when c is nil.
func fg(c color.Color) lipgloss.Style {
	s := lipgloss.NewStyle()
	if c != nil {
		s = s.Foreground(c)
	}
	return s
}

func bg(s lipgloss.Style, c color.Color) lipgloss.Style {
	if c != nil {
		s = s.Background(c)
	}
	return s
}

func build(p Palette, isDark, noColor bool) Styles {
	var s Styles
	s.NoColor, s.Dark, s.Palette = noColor, isDark, p
	bold := lipgloss.NewStyle().Bold(true)

	h := &s.Header
	h.Title = fg(p.Primary).Bold(true)
	h.Kind = fg(p.Subtle)
	h.Counts = fg(p.Subtle)
	h.FactKey = fg(p.Subtle)
	h.FactValue = lipgloss.NewStyle()
	h.MetricFilter = fg(p.Accent)
	h.MetricName = fg(p.Subtle)
	h.MetricValue = bold
	h.Stderr = fg(p.Subtle)
	h.Differs = fg(p.Warn)
	h.Switcher = fg(p.Primary)
	h.Rule = fg(p.Subtle)

	l := &s.List
	l.Heading = fg(p.Subtle)
	l.HeadingFocused = fg(p.Primary).Bold(true)
	l.Row = lipgloss.NewStyle()
	l.Cursor = bg(fg(p.Primary).Bold(true), p.BarBg).Reverse(noColor)
	l.CursorBlurred = fg(p.Subtle).Bold(true)
	l.ID = fg(p.Subtle)
	l.Score = lipgloss.NewStyle()
	l.Empty = fg(p.Subtle).Italic(true)
	l.Selected = fg(p.Warn).Bold(true)
	l.Column = fg(p.Primary).Bold(true).Underline(true).Reverse(noColor)

	s.Status.Pass = fg(p.Pass)
	s.Status.Fail = fg(p.Fail)
	s.Status.Error = fg(p.Error).Bold(true)
	s.Status.Unscored = fg(p.Subtle)

	s.Issue.Warning = fg(p.Warn)
	s.Issue.Error = fg(p.Error).Bold(true)
	s.Issue.Banner = fg(p.Warn)
	s.Issue.Code = fg(p.Accent)
	s.Issue.Location = fg(p.Subtle)
	s.Issue.Note = fg(p.Accent)

	d := &s.Detail
	d.Tab = fg(p.Subtle)
	d.ActiveTab = fg(p.Primary).Bold(true)
	d.ActiveTabBlurred = bold
	d.TabMarker = fg(p.Primary).Bold(true)
	d.Heading = fg(p.Primary).Bold(true)
	d.Subheading = bold
	d.Key = fg(p.Accent)
	d.Value = lipgloss.NewStyle()
	d.Subtle = fg(p.Subtle)
	d.Label = fg(p.Subtle).Italic(true)
	d.FewShot = fg(p.Subtle).Italic(true)
	d.Folded = fg(p.Subtle).Italic(true)
	d.Selected = fg(p.Primary).Bold(true)
	d.BarFull = fg(p.Primary)
	d.BarEmpty = fg(p.Subtle)
	d.TableHeader = fg(p.Subtle).Bold(true)
	d.Match = bg(lipgloss.NewStyle(), p.MatchBg).Underline(noColor)
	d.CurrentMatch = bg(lipgloss.NewStyle(), p.MatchBg).Reverse(true).Bold(true)

	s.Role.System = fg(p.Warn).Bold(true)
	s.Role.User = fg(p.Primary).Bold(true)
	s.Role.Assistant = fg(p.Pass).Bold(true)
	s.Role.Tool = fg(p.Accent).Bold(true)
	s.Role.Other = fg(p.Accent).Bold(true)

	s.Code.Key = fg(p.Accent)
	s.Code.String = fg(p.Pass)
	s.Code.Number = fg(p.Warn)
	s.Code.Literal = fg(p.Error)
	s.Code.Punct = fg(p.Subtle)
	s.Code.Text = lipgloss.NewStyle()

	b := &s.Bar
	b.Base = bg(fg(p.BarFg), p.BarBg).Reverse(noColor)
	b.Position = bg(fg(p.BarFg), p.BarBg).Bold(true).Reverse(noColor)
	b.Item = bg(fg(p.BarFg), p.BarBg).Reverse(noColor)
	b.Active = bg(fg(p.Warn), p.BarBg).Bold(true).Reverse(noColor)
	b.Loading = bg(fg(p.Accent), p.BarBg).Reverse(noColor)
	b.Hint = bg(fg(p.Subtle), p.BarBg).Reverse(noColor)

	o := &s.Overlay
	o.Title = fg(p.Primary).Bold(true)
	o.Border = fg(p.Subtle)
	o.Item = lipgloss.NewStyle()
	o.Selected = fg(p.Primary).Bold(true).Reverse(noColor)

	if noColor {
		s.Help = help.Styles{
			Ellipsis: lipgloss.NewStyle(), ShortKey: bold, ShortDesc: lipgloss.NewStyle(),
			ShortSeparator: lipgloss.NewStyle(), FullKey: bold, FullDesc: lipgloss.NewStyle(),
			FullSeparator: lipgloss.NewStyle(),
		}
	} else {
		s.Help = help.DefaultStyles(isDark)
		s.Help.ShortKey = s.Help.ShortKey.Bold(true)
		s.Help.FullKey = s.Help.FullKey.Bold(true)
	}
	s.TooSmall = fg(p.Warn).Bold(true)
	return s
}

// Outcome returns the style of a status glyph or word.
func (s *Styles) Outcome(status model.Status) lipgloss.Style {
	switch status {
	case model.StatusPass:
		return s.Status.Pass
	case model.StatusFail:
		return s.Status.Fail
	case model.StatusError:
		return s.Status.Error
	default:
		return s.Status.Unscored
	}
}
