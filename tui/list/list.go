// Package list is the record list, a room of the browser: one row per
// record of the current dataset under the selected filter, narrowed by
// the `:` query, the wrong-only switch and a pin, sorted by the column
// under the column cursor, searched with `/`, with a selection that
// label, note, export and copy act on.
//
// Its state is a State per dataset, which the root keeps (switching back
// restores it) and hands to the Pane with SetDataset; nothing outside
// this package reads or writes its fields. The Pane is a ui.Component:
// the root routes it the keys while it has the focus and its own
// background messages (Msg), and calls its methods for what other rooms
// ask (a sheet's query or pin, a threshold moved). What the list decides
// is reported upward with messages: CursorMsg (another record is under
// the cursor), OpenMsg (enter on a row), RepeatLabelMsg (`.`).
package list

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/query"
	"evalview/tui/sheets/columns"
	"evalview/tui/sheets/facets"
	"evalview/tui/ui"
)

// State is the record list's state for one dataset; the browser keeps
// one per dataset so switching back restores it.
type State struct {
	// filter names the selected lm-eval filter: the one the user chose
	// (f, a filter= term), else the one --filter asked for, else "" (the
	// first). It is the one owner of the selection: the header, the
	// detail, the queries and the sheets read its index (FilterIndex),
	// which follows a growing index as it learns its filters, and a
	// reload.
	filter    string
	wrongOnly bool
	// pin, when set, restricts the list to records chosen in a sheet (pin.go).
	pin *pinSet
	// visible lists the record indexes shown, ascending; known is how many
	// records of the (possibly growing) index were looked at.
	visible []int
	known   int
	cursor  int
	offset  int
	// tab is the detail tab the user last chose here.
	tab string
	// search: the query, the matching list positions and the current one.
	query    string
	matches  []int
	matchIdx int
	// hitRecords are a raw search's hits as records (nil for other
	// searches): matches follows them as the list grows. counting is set
	// while the search still runs (the count is not final).
	hitRecords []int
	rawRunning bool // the raw search's stream still runs
	counting   bool
	// where is the `:` query line narrowing the list, whereQ its parse
	// (nil when where is empty); sortKey orders the list (empty column:
	// file order, visible ascending).
	where   string
	whereQ  *query.Query
	sortKey query.SortKey
	// pending tags a filter computed off the event loop; while it runs
	// the list shows the old rows and takes in no new ones.
	pending int
	// columns are the fields shown (`c`); nil: the kind's defaults.
	columns []string
	// selected are the records selected (select.go); anchor is the
	// record last toggled, plus one (0: none), where a range starts.
	selected selection
	anchor   int
	// column is the field under the column cursor (sort.go), ""
	// for the first shown.
	column string
}

// NewState is a dataset's list state before the user changed anything;
// filter names the lm-eval filter to select ("" for the first).
func NewState(filter string) *State { return &State{filter: filter} }

// States are each dataset's list state, made the first time the dataset
// is shown: a folder of 200,000 files kept 60 MB of states of lists
// nobody opened.
type States struct {
	filter string // the --filter a new state starts on
	s      []*State
}

// NewStates returns the states of n datasets, each starting on filter.
func NewStates(filter string, n int) States { return States{filter: filter, s: make([]*State, n)} }

// Grow makes room for n more datasets.
func (l *States) Grow(n int) { l.s = append(l.s, make([]*State, n)...) }

// At is dataset i's list state.
func (l *States) At(i int) *State {
	if l.s[i] == nil {
		l.s[i] = NewState(l.filter)
	}
	return l.s[i]
}

// Sources are what the list reads of the browser around it.
type Sources struct {
	// Notes gives a dataset's error-analysis notes to queries, sorting
	// and the label column; nil or a nil result: no notes.
	Notes func(*model.Dataset) query.NoteLookup
	// Threshold is the one a scored dataset's statuses are read at
	// (the rows' glyphs, the query, the sort), nil for other datasets.
	Threshold func(*model.Dataset) *float64
	// Gate is what the background passes pause at while the user waits:
	// a search of the source bytes holds it.
	Gate func() *model.Gate
}

// Pane is the record list: a status glyph, an issue marker and the
// columns of each record, under the selected filter.
type Pane struct {
	c       *ui.Common
	src     Sources
	ds      *model.Dataset
	st      *State
	w, h    int
	focused bool
	// relistID tags the latest filter computed off the event loop;
	// searchID the latest search.
	relistID, searchID int
	// values caches each dataset's value index (completion, parsing).
	values map[*model.Dataset]*query.ValueIndex
	// shared caches what the rows of the dataset shown have in common
	// (shared.go).
	shared *shared
}

// The list is a component like the sheets.
var _ ui.Component = (*Pane)(nil)

// New builds the list over no dataset yet (SetDataset shows one).
func New(c *ui.Common, src Sources) *Pane {
	if src.Threshold == nil {
		src.Threshold = func(*model.Dataset) *float64 { return nil }
	}
	if src.Gate == nil {
		g := model.NewGate()
		src.Gate = func() *model.Gate { return g }
	}
	return &Pane{c: c, src: src, st: &State{}}
}

// CursorMsg reports that the record under the cursor may have changed:
// the cursor moved, or the rows under it did. The root shows the record
// under the cursor (Selected) in the detail.
type CursorMsg struct{}

// OpenMsg reports enter on a row: the user opens the record's detail.
type OpenMsg struct{}

// RepeatLabelMsg asks for the labels last added to go to the row under
// the cursor, and the cursor to move down (`.`).
type RepeatLabelMsg struct{}

// Msg is a message of the list's own background work (a filter or a
// search computed off the event loop): the root hands it back to Update.
type Msg interface{ listMsg() }

// cursorMoved is the command that reports the cursor's record.
func cursorMoved() tea.Cmd { return ui.Send(CursorMsg{}) }

// SetDataset shows ds with its state, which the root keeps.
func (l *Pane) SetDataset(ds *model.Dataset, st *State) {
	l.ds, l.st = ds, st
	l.refresh()
}

// SetFocused says whether the list has the keys (the cursor mark and the
// heading's column cursor show it).
func (l *Pane) SetFocused(f bool) { l.focused = f }

// filterIn is the index in ds.Filters of the selected filter: the named
// one when ds has it, else the first; -1 when ds has none.
func (st *State) filterIn(ds *model.Dataset) int {
	if len(ds.Filters) == 0 {
		return -1
	}
	if i := ds.FilterIndex(st.filter); i >= 0 {
		return i
	}
	return 0
}

// FilterIndex is the index of the list's selected filter, -1 without one.
func (l *Pane) FilterIndex() int {
	if l.ds == nil || l.st == nil {
		return -1
	}
	return l.st.filterIn(l.ds)
}

// SetSize sets the pane's size, heading line included.
func (l *Pane) SetSize(w, h int) {
	l.w, l.h = w, h
	l.clamp()
}

// rows is the number of record rows that fit under the heading.
func (l *Pane) rows() int { return max(1, l.h-1) }

// Env is what the list's query and sort are evaluated against: the
// dataset, the selected filter, the threshold and the notes.
func (l *Pane) Env() query.Env {
	env := query.Env{Dataset: l.ds, Filter: l.FilterIndex(), Threshold: l.src.Threshold(l.ds)}
	if l.src.Notes != nil {
		env.Notes = l.src.Notes(l.ds)
	}
	return env
}

// filtered reports whether the visible rows depend on more than the index
// (a query, the wrong-only switch or a sort), so a filter change must
// rebuild them.
func (l *Pane) filtered() bool {
	return l.st.wrongOnly || !l.st.whereQ.Empty() || l.st.sortKey.Column != ""
}

// Selected returns the index of the record under the cursor.
func (l *Pane) Selected() (int, bool) {
	if l.st.cursor < 0 || l.st.cursor >= len(l.st.visible) {
		return 0, false
	}
	return l.st.visible[l.st.cursor], true
}

// Visible are the records the list shows, in list order (the caller must
// not change them).
func (l *Pane) Visible() []int { return l.st.visible }

// Position is the cursor's 1-based row and the number of rows shown.
func (l *Pane) Position() (pos, shown int) { return l.st.cursor + 1, len(l.st.visible) }

// Tab is the detail tab the user last chose on this dataset.
func (l *Pane) Tab() string { return l.st.tab }

// SetTab remembers the detail tab the user chose, which the next records
// open on when they have it.
func (l *Pane) SetTab(name string) { l.st.tab = name }

// clamp keeps the cursor on a row and in view.
func (l *Pane) clamp() {
	n := len(l.st.visible)
	l.st.cursor = max(0, min(l.st.cursor, n-1))
	rows := l.rows()
	if l.st.cursor < l.st.offset {
		l.st.offset = l.st.cursor
	}
	if l.st.cursor >= l.st.offset+rows {
		l.st.offset = l.st.cursor - rows + 1
	}
	l.st.offset = max(0, min(l.st.offset, n-rows))
}

// center scrolls so the cursor sits in the middle, after a jump.
func (l *Pane) center() {
	l.st.offset = l.st.cursor - l.rows()/2
	l.clamp()
}

// moveBy moves the cursor by d rows.
func (l *Pane) moveBy(d int) {
	l.st.cursor += d
	l.clamp()
}

// moveTo puts the cursor on list position pos.
func (l *Pane) moveTo(pos int) {
	l.st.cursor = pos
	l.clamp()
}

// MoveBy moves the cursor by d rows (the wheel, `.`), reporting the
// record under it when it moved.
func (l *Pane) MoveBy(d int) tea.Cmd {
	before := l.st.cursor
	l.moveBy(d)
	if l.st.cursor != before {
		return cursorMoved()
	}
	return nil
}

// Update takes the list's keys while it has the focus (navigation, the
// selection, the column cursor, enter) and its own background messages.
func (l *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case filteredMsg:
		return l.handleFiltered(msg)
	case searchMsg:
		return l.handleSearchDone(msg)
	case rawSearchMsg:
		return l.handleRawSearch(msg)
	case tea.KeyPressMsg:
		return l.handleKey(msg)
	}
	return nil
}

// rowAt returns the list position of the row at pane-relative line y.
func (l *Pane) rowAt(y int) (int, bool) {
	pos := l.st.offset + y - 1
	if y < 1 || pos >= len(l.st.visible) {
		return 0, false
	}
	return pos, true
}

// Click takes a click at pane-relative (x, y): on the heading it sorts by
// the column under it, on a row it moves the cursor there.
func (l *Pane) Click(x, y int) tea.Cmd {
	if y == 0 { // a heading: sort by its column
		if f, ok := l.columnAt(x); ok {
			l.st.column = f
			return l.CycleSort()
		}
		return nil
	}
	if pos, ok := l.rowAt(y); ok && pos != l.st.cursor {
		l.moveTo(pos)
		return cursorMoved()
	}
	return nil
}

// columns returns the fields the list shows: the user's choice (`c`) or
// the dataset kind's defaults.
func (l *Pane) columns() []string {
	if l.st.columns != nil {
		return l.st.columns
	}
	return l.defaultColumns()
}

// defaultColumns are the kind's default columns, with the notes' label
// column once the dataset has notes.
func (l *Pane) defaultColumns() []string {
	cols := defaultColumns(l.ds)
	if l.src.Notes != nil && l.src.Notes(l.ds) != nil {
		cols = withLabelColumn(cols)
	}
	return cols
}

// SetColumns sets the fields shown (`c`); nil goes back to the format's
// defaults.
func (l *Pane) SetColumns(cols []string) { l.st.columns = cols }

// rowPrefix is the width of the cursor mark, status glyph and issue marker
// before the columns.
const rowPrefix = 6

func itoa(n int) string { return strconv.Itoa(n) }

// Len is the number of rows shown.
func (l *Pane) Len() int { return len(l.st.visible) }

// WrongOnly reports whether the list shows only the failed records (x).
func (l *Pane) WrongOnly() bool { return l.st.wrongOnly }

// ToggleWrongOnly shows only the records that failed, or all again.
func (l *Pane) ToggleWrongOnly() tea.Cmd {
	if l.ds == nil {
		return nil
	}
	l.st.wrongOnly = !l.st.wrongOnly
	l.rebuild()
	return tea.Batch(cursorMoved(), l.Research())
}

// CycleFilter selects the next lm-eval filter (f).
func (l *Pane) CycleFilter() tea.Cmd {
	ds := l.ds
	if ds == nil || len(ds.Filters) < 2 {
		return nil
	}
	l.st.filter = ds.Filters[(l.FilterIndex()+1)%len(ds.Filters)]
	if l.filtered() {
		l.rebuild()
	}
	return tea.Batch(cursorMoved(), l.Research())
}

// Facets is the facets sheet over the rows shown (F), counting them by
// field ("" for the first that tells them apart).
func (l *Pane) Facets(field string) *facets.Sheet {
	ds := l.ds
	return facets.New(l.c, facets.List{
		Env: l.Env(), Rows: l.st.visible, Fields: l.ValueIndex().FacetFields(), Where: l.st.where,
		Head: func(f string) string { return columnHead(ds, f) },
	}, field)
}

// Columns is the column chooser over the list (c).
func (l *Pane) Columns() *columns.Sheet {
	ds := l.ds
	return columns.New(l.c, columns.List{
		Shown: l.columns(), Defaults: l.defaultColumns(), Picked: l.st.columns != nil,
		Fields: l.ValueIndex().Columns(), Fit: l.fitColumns,
		Head: func(f string) string { return columnHead(ds, f) },
	})
}

// Hits are the list positions the search matched so far.
func (l *Pane) Hits() []int { return l.st.matches }

// IsSelected reports whether record i is selected.
func (l *Pane) IsSelected(i int) bool { return l.st.selected.has(i) }

// SortKey is the column and direction the list is sorted by (none: file
// order).
func (l *Pane) SortKey() query.SortKey { return l.st.sortKey }

// SetColumn puts the column cursor on field f, the column `s` sorts by
// (a click on a heading does).
func (l *Pane) SetColumn(f string) { l.st.column = f }

// Filtering reports a filter or sort still computed off the event loop
// (the list shows the old rows until it ends).
func (l *Pane) Filtering() bool { return l.st.pending != 0 }

// Fields are the fields the list shows, and whether the user chose them
// (`c`) rather than the format.
func (l *Pane) Fields() (fields []string, picked bool) { return l.columns(), l.st.columns != nil }
