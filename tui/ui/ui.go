// Package ui is what the browser's rooms share: the Common they are built
// with (styles, keys, highlighter), the Component and Sheet interfaces the
// root drives them through, the messages they report upward with, and the
// drawing helpers every sheet needs (soft-serve's pkg/ui/common).
//
// A room never sees the root: it gets what it shows when it is built (or
// a narrow read-only source), takes the messages the root routes to it,
// and asks for changes by returning a command whose message the root
// handles (soft-serve's selector.SelectMsg).
package ui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/highlight"
	"evalview/tui/keys"
	"evalview/tui/styles"
)

// Common is what every room shares: styles, keys and the JSON
// highlighter. Gen changes whenever the styles do, so caches of rendered
// text can tell stale entries apart.
type Common struct {
	Styles *styles.Styles
	Keys   *keys.KeyMap
	HL     *highlight.Highlighter
	Gen    int
	// BackTo names where esc goes from the room on screen ("list",
	// "overview"): the root sets it after every message (its back
	// stack), and a room's esc says it on the help line (Back).
	BackTo string
}

// Back is the help line's description of a key that goes back: "to
// overview"; "" (the binding's own description) when nothing is named.
func (c *Common) Back() string {
	if c.BackTo == "" {
		return ""
	}
	return "to " + c.BackTo
}

// NewCommon builds the shared state for a theme, with the default keys.
func NewCommon(st styles.Styles) *Common {
	km := keys.DefaultKeyMap()
	c := &Common{Keys: &km}
	c.SetStyles(st)
	return c
}

// SetStyles switches the theme.
func (c *Common) SetStyles(st styles.Styles) {
	c.Styles = &st
	c.HL = highlight.New(c.Styles)
	c.Gen++
}

// Component is a room of the browser: a pane, a sheet or an overlay. It
// draws exactly the rectangle it was last given, takes the messages the
// root routes to it (keys while it has them, data messages always),
// offers its keys as actions (Actor: what they do, when they are offered
// and why not), and lists them for the help line (ShortHelp, from its
// actions) and by kind (FullHelp). Components are pointers: Update
// changes them in place and returns the command that reports what the
// root should do.
type Component interface {
	Update(msg tea.Msg) tea.Cmd
	View() string
	SetSize(w, h int)
	Actor
	help.KeyMap
}

// Sheet is a full-body view over the list and the detail (a comparison,
// a histogram, a facet table, a chooser). Sheets stack: the top one gets
// the keys and is drawn; the header, the status bar and the help line
// stay the browser's.
type Sheet interface {
	Component
	// Title names the sheet in the status bar ("compare filters"); ""
	// for overlays that name nothing there.
	Title() string
}

// Describer is a sheet that lines several datasets up (the overview, the
// runs of a task, the dataset picker, the keys): while it is on top, the
// header describes it in place of the current dataset, and the status
// bar gives its position in place of the list's. A sheet over one
// dataset (facets, slices, scores...) describes nothing: the header's
// dataset is the one it shows.
type Describer interface {
	Describe() Description
}

// Description is what a sheet says of itself in the header and the
// status bar.
type Description struct {
	// Title names what the sheet shows ("Overview"); What counts it
	// ("12 tasks × 8 columns · 26 datasets").
	Title, What string
	// Facts are the items the header packs into its lines under the
	// title, in order ("models: …", "baseline: …").
	Facts []model.Fact
	// Pos is the status bar's position: where the cursor is ("task
	// 3/12 · lm-1b-instruct").
	Pos string
}

// Send returns a command that reports msg.
func Send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// The messages rooms report upward with. The root handles each in one
// place.
type (
	// QueryMsg sets the list's `:` query.
	QueryMsg struct{ Query string }
	// PinMsg shows only Rows in the list, labelled: choices the query
	// language cannot spell, like a cell of a 2x2 table.
	PinMsg struct {
		Label string
		Rows  []int
	}
	// ShowRecordMsg puts the list cursor on record Index of Dataset,
	// switching to it.
	ShowRecordMsg struct {
		Dataset *model.Dataset
		Index   int
	}
	// NoteMsg shows a transient note in the status bar.
	NoteMsg struct{ Text string }
	// ColumnsMsg sets the list's columns; nil goes back to the format's
	// defaults.
	ColumnsMsg struct{ Columns []string }
	// ThresholdMsg moves Dataset's high-score threshold by Delta.
	ThresholdMsg struct {
		Dataset *model.Dataset
		Delta   float64
	}
	// ThresholdPromptMsg asks for a new high-score threshold of Dataset.
	ThresholdPromptMsg struct{ Dataset *model.Dataset }
	// HighScoresMsg shows only Dataset's high scores in the list, unless
	// it does already.
	HighScoresMsg struct{ Dataset *model.Dataset }
	// DatasetMsg shows dataset Index (closing every sheet, which show
	// the dataset being left).
	DatasetMsg struct{ Index int }
)

// DeepMsg tells the sheets that a dataset's deep pass ended or moved on;
// the root sends it to every open sheet.
type DeepMsg struct{ Dataset *model.Dataset }

// DoneMsg closes Sheet (wherever it is in the stack), then does Then, if
// any: a sheet that sends the user back to the list names itself, so a
// sheet opened over it in the meantime stays.
type DoneMsg struct {
	Sheet Sheet
	Then  tea.Msg
}

// Done returns a command that closes s and then reports then (nil:
// nothing more).
func Done(s Sheet, then tea.Msg) tea.Cmd { return Send(DoneMsg{Sheet: s, Then: then}) }

// Wheeler is a sheet the mouse wheel scrolls (delta lines or rows, up
// when negative); the wheel over other sheets moves the pane under it.
type Wheeler interface {
	Wheel(delta int)
}

// Clicker is a sheet that takes the clicks on the body (x, y relative to
// it); clicks over other sheets go to the pane under them.
type Clicker interface {
	Click(x, y int) tea.Cmd
}

// Short is b as the help line shows it: the same keys and state, a
// shorter description, so that the keys that matter fit 80 columns while
// the `?` overlay keeps the full one.
func Short(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// MetricsSource gives a dataset's metrics recomputed from its samples
// beside the reported ones once they are final (its index complete and
// taken in), only the reported ones before: what the overview and the
// dataset picker read of the root.
type MetricsSource interface {
	Metrics(ds *model.Dataset) (comps []model.MetricComparison, final bool)
}

// OpenMsg shows Dataset's list from a sheet that lines datasets up (the
// overview, the comparison of a task's runs): the cursor on record
// Record when it is not -1, only the wrong answers when WrongOnly is set.
// The sheets open then close, and esc in the list brings them back as
// the user left them.
type OpenMsg struct {
	Dataset   *model.Dataset
	Record    int
	WrongOnly bool
}

// PushMsg opens Sheet over the one that sent it (the overview opens the
// comparison of a task's runs).
type PushMsg struct{ Sheet Sheet }

// IndexMsg tells the sheets that growing indexes learnt more (the root
// sends it to every open sheet when it polls them).
type IndexMsg struct{}

// Typer is a sheet that can take typed text (a filter being typed):
// while Typing, every key goes to it, `?` and the keys the root offers
// over sheets included, and so does pasted text.
type Typer interface {
	Typing() bool
}
