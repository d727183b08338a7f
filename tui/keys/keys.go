// Package keys holds every key binding of the browser, in one group per
// room (pane, sheet, overlay, prompt) plus the ones several rooms share
// (Global, Nav). Rooms match keys with key.Matches against these bindings,
// never against key strings, and the help bar and the `?` overlay are
// generated from the same bindings, so what the help says and what the
// keys do cannot drift apart. Every binding can be overridden from the
// config (Override); Scopes lists which bindings are live together, so
// that an override that takes a key already in use is reported
// (Collisions).
package keys

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
)

// KeyMap is the browser's complete key map.
type KeyMap struct {
	Global  Global
	Nav     Nav
	List    List
	Detail  Detail
	Search  Search
	Dataset Dataset
	Compare Compare
	Tools   Tools
	Run     Run
	Facets  Facets
	Columns Columns
	Scores  Scores
	Facts   Facts
	Prompt  Prompt
	Edit    Edit
	// Overview and Runs are the overview of tasks by models and the
	// comparison of one task's runs (rooms.go).
	Overview Overview
	Runs     Runs
}

// Global bindings work whatever pane has the focus. ForceQuit works in
// every room, prompts and sheets included.
type Global struct {
	Quit        key.Binding
	ForceQuit   key.Binding
	Help        key.Binding
	FocusNext   key.Binding
	FocusPrev   key.Binding
	CycleFilter key.Binding
	WrongOnly   key.Binding
	// Zoom gives the focused pane the whole body, and back.
	Zoom key.Binding
	// SplitLeft and SplitRight move the border between the list and the
	// detail (up and down when they are stacked); the split is
	// remembered between runs.
	SplitLeft  key.Binding
	SplitRight key.Binding
}

// Nav bindings move the cursor of the list or scroll the detail.
type Nav struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	HalfUp   key.Binding
	HalfDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
}

// List bindings apply when the record list has the focus. PrevTab and
// NextTab switch the detail's tab from the list with the keys that do not
// move anything there ("[" and "]"); h and l, as the arrows, move the
// column cursor (Left, Right), as they move across in every room.
type List struct {
	Open    key.Binding
	PrevTab key.Binding
	NextTab key.Binding
	// Select toggles the row under the cursor in the selection and moves
	// down; SelectRange selects from the row last toggled to the cursor;
	// SelectAll selects every row shown (again: unselects them). Label,
	// note, export and copy act on the selection when there is one.
	Select      key.Binding
	SelectRange key.Binding
	SelectAll   key.Binding
	// RepeatLabel adds the labels last given to the row under the cursor
	// and moves down.
	RepeatLabel key.Binding
	// Left and Right move the column cursor, the column Tools.Sort sorts
	// by (called list.columnleft and list.columnright before h and l
	// joined the arrows; the config still takes those names).
	Left  key.Binding
	Right key.Binding
}

// Detail bindings apply when the detail pane has the focus.
type Detail struct {
	PrevTab key.Binding
	NextTab key.Binding
	// Tab selects a tab by number; its keys are "1".."9".
	Tab  key.Binding
	Fold key.Binding
	Back key.Binding
	// LastTurn scrolls to the last user turn: the question after the
	// few-shot examples.
	LastTurn key.Binding
	// Markdown switches message and response text between markdown and
	// raw; it also works from the list.
	Markdown key.Binding
}

// Search bindings start a search and move between its matches; Confirm
// and Cancel apply while the query is being typed.
type Search struct {
	Start   key.Binding
	Next    key.Binding
	Prev    key.Binding
	Confirm key.Binding
	Cancel  key.Binding
}

// Dataset bindings switch between the opened datasets.
type Dataset struct {
	Next   key.Binding
	Prev   key.Binding
	Picker key.Binding
	Choose key.Binding
	Close  key.Binding
	// Filter types a filter of the picker's rows.
	Filter key.Binding
}

// Compare bindings open the comparison sheets (filters, slices, two runs)
// and work inside them.
type Compare struct {
	Filters key.Binding
	Slices  key.Binding
	Runs    key.Binding
	// PickA and PickB choose the filters (or the other dataset) compared.
	PickA  key.Binding
	PickB  key.Binding
	Field  key.Binding
	Choose key.Binding
	Close  key.Binding
	// Left and Right move between the cells of the 2x2 table (formerly
	// compare.prevcell and compare.nextcell, names the config still takes).
	Left  key.Binding
	Right key.Binding
}

// Tools bindings are the everyday tools of the list and detail: the query
// line, sorting, columns, facets, copying, the pager and editor, export,
// error-analysis notes and reload.
type Tools struct {
	Query    key.Binding
	Sort     key.Binding
	Reverse  key.Binding
	Columns  key.Binding
	Facets   key.Binding
	Copy     key.Binding
	CopyPath key.Binding
	Pager    key.Binding
	Editor   key.Binding
	Export   key.Binding
	Label    key.Binding
	Annotate key.Binding
	Reload   key.Binding
	// Follow watches the file for growth and reloads (a run still being
	// written).
	Follow key.Binding
}

// Run bindings show two attempts side by side (any format with
// attempts) and drive the views of scored datasets (model.Scoring: run
// zips): the high-score threshold and filter, the score distribution
// sheet; Info opens the facts sheet of a compact header. QueryHint
// matches nothing: it puts the format's query fields in the help.
type Run struct {
	Pair         key.Binding
	LeftPrev     key.Binding
	LeftNext     key.Binding
	RightPrev    key.Binding
	RightNext    key.Binding
	Threshold    key.Binding
	ThresholdUp  key.Binding
	ThresholdDn  key.Binding
	HighScore    key.Binding
	Distribution key.Binding
	Info         key.Binding
	QueryHint    key.Binding
}

// DefaultKeyMap returns the default bindings: the habits users bring from
// less, vim, fx and VisiData.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Global: Global{
			Quit:        key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
			ForceQuit:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit from anywhere")),
			Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
			FocusNext:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
			FocusPrev:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
			CycleFilter: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "next filter")),
			WrongOnly:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "wrong only")),
			Zoom:        key.NewBinding(key.WithKeys("Z"), key.WithHelp("Z", "zoom pane")),
			SplitLeft:   key.NewBinding(key.WithKeys("ctrl+left"), key.WithHelp("ctrl+←", "list narrower (border left or up)")),
			SplitRight:  key.NewBinding(key.WithKeys("ctrl+right"), key.WithHelp("ctrl+→", "list wider (border right or down)")),
		},
		Nav: Nav{
			Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
			Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
			PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup/b", "page up")),
			PageDown: key.NewBinding(key.WithKeys("pgdown", "space"), key.WithHelp("pgdn/space", "page down")),
			HalfUp:   key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "half page up")),
			HalfDown: key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "half page down")),
			Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "top")),
			Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "bottom")),
		},
		List: List{
			Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open detail")),
			PrevTab: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous tab")),
			NextTab: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next tab")),

			Select:      key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "select row")),
			SelectRange: key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "select range")),
			SelectAll:   key.NewBinding(key.WithKeys("*"), key.WithHelp("*", "select all shown")),
			RepeatLabel: key.NewBinding(key.WithKeys("."), key.WithHelp(".", "repeat label, down")),
			Left:        key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("h/←", "column left")),
			Right:       key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("l/→", "column right")),
		},
		Detail: Detail{
			PrevTab:  key.NewBinding(key.WithKeys("[", "h", "left"), key.WithHelp("[/h", "previous tab")),
			NextTab:  key.NewBinding(key.WithKeys("]", "l", "right"), key.WithHelp("]/l", "next tab")),
			Tab:      key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "go to tab")),
			Fold:     key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "unfold/fold; Raw: fold JSON, a level at a time")),
			Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to list")),
			LastTurn: key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "last user turn")),

			Markdown: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "markdown/raw")),
		},
		Search: Search{
			Start:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
			Next:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
			Prev:    key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
			Confirm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep search")),
			Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel search")),
		},
		Dataset: Dataset{
			Next:   key.NewBinding(key.WithKeys(">"), key.WithHelp(">", "next dataset")),
			Prev:   key.NewBinding(key.WithKeys("<"), key.WithHelp("<", "previous dataset")),
			Picker: key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "pick dataset")),
			Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open dataset")),
			Close:  key.NewBinding(key.WithKeys("esc", "D"), key.WithHelp("esc", "close picker")),
			Filter: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter the picker")),
		},
		Tools: Tools{
			Query:    key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "query")),
			Sort:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort by the column (h/l)")),
			Reverse:  key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
			Columns:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "columns")),
			Facets:   key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "facets")),
			Copy:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy (selection: its ids)")),
			CopyPath: key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy path")),
			Pager:    key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open in $PAGER")),
			Editor:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "open in $EDITOR")),
			Export:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "export list or selection")),
			Label:    key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "label record or selection")),
			Annotate: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "note on record or selection")),
			Reload:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload")),
			Follow:   key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "follow a growing file")),
		},
		Run: Run{
			Pair:         key.NewBinding(key.WithKeys("|"), key.WithHelp("|", "attempts side by side")),
			LeftPrev:     key.NewBinding(key.WithKeys("("), key.WithHelp("(", "left: previous attempt")),
			LeftNext:     key.NewBinding(key.WithKeys(")"), key.WithHelp(")", "left: next attempt")),
			RightPrev:    key.NewBinding(key.WithKeys("{"), key.WithHelp("{", "right: previous attempt")),
			RightNext:    key.NewBinding(key.WithKeys("}"), key.WithHelp("}", "right: next attempt")),
			Threshold:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "set threshold")),
			ThresholdUp:  key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "threshold +0.5")),
			ThresholdDn:  key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "threshold -0.5")),
			HighScore:    key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "high scores only")),
			Distribution: key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "score histogram")),
			Info:         key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "run info")),
			QueryHint:    key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "query fields of this format")),
		},
		Compare: Compare{
			Filters: key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "compare filters")),
			Slices:  key.NewBinding(key.WithKeys("V"), key.WithHelp("V", "slices")),
			Runs:    key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "compare runs")),
			PickA:   key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "next A")),
			PickB:   key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "next B")),
			Field:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "next grouping")),
			Choose:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "show in list")),
			Close:   key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close")),

			Left:  key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("h/←", "previous cell")),
			Right: key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("l/→", "next cell")),
		},
		Facets:  defaultFacets(),
		Columns: defaultColumns(),
		Scores:  defaultScores(),
		Facts:   defaultFacts(),
		Prompt:  defaultPrompt(),
		Edit:    defaultEdit(),

		Overview: defaultOverview(),
		Runs:     defaultRuns(),
	}
}

// Index returns the position of k among b's keys (0 for the first), -1
// when b does not have it: the tab a "go to tab" key selects, whatever
// keys the config gives it.
func Index(b key.Binding, k fmt.Stringer) int {
	return slices.Index(b.Keys(), k.String())
}

// Has reports whether k is one of b's keys, enabled or not: a key pressed
// where its binding does nothing can say why.
func Has(b key.Binding, k fmt.Stringer) bool { return Index(b, k) >= 0 }
