package keys

import "charm.land/bubbles/v2/key"

// Facets are the keys of the facets sheet (F).
type Facets struct {
	NextField key.Binding
	PrevField key.Binding
	Choose    key.Binding
	Close     key.Binding
}

func defaultFacets() Facets {
	return Facets{
		NextField: key.NewBinding(key.WithKeys("tab", "right", "l"), key.WithHelp("tab", "next field")),
		PrevField: key.NewBinding(key.WithKeys("shift+tab", "left", "h"), key.WithHelp("shift+tab", "previous field")),
		Choose:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "filter list")),
		Close:     key.NewBinding(key.WithKeys("esc", "F", "q"), key.WithHelp("esc", "close")),
	}
}

// Columns are the keys of the column chooser (c).
type Columns struct {
	Toggle   key.Binding
	Earlier  key.Binding
	Later    key.Binding
	Defaults key.Binding
	Close    key.Binding
}

func defaultColumns() Columns {
	return Columns{
		Toggle:   key.NewBinding(key.WithKeys("space", "enter", "x"), key.WithHelp("space", "show/hide")),
		Earlier:  key.NewBinding(key.WithKeys("K", "shift+up"), key.WithHelp("K", "move left")),
		Later:    key.NewBinding(key.WithKeys("J", "shift+down"), key.WithHelp("J", "move right")),
		Defaults: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "defaults")),
		Close:    key.NewBinding(key.WithKeys("esc", "c", "q"), key.WithHelp("esc", "done")),
	}
}

// Scores are the keys of the score distribution sheet (v on a scored
// dataset); the threshold keys of Run work in it too.
type Scores struct {
	Choose key.Binding
	Close  key.Binding
}

func defaultScores() Scores {
	return Scores{
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "high scores in list")),
		Close:  key.NewBinding(key.WithKeys("esc", "v", "q"), key.WithHelp("esc", "close")),
	}
}

// Facts are the keys of the facts sheet (i), which lists what a compact
// header abbreviates.
type Facts struct {
	Close key.Binding
}

func defaultFacts() Facts {
	return Facts{Close: key.NewBinding(key.WithKeys("esc", "i", "q"), key.WithHelp("esc", "close"))}
}

// Prompt are the keys of the one-line prompts (the `:` query, export,
// labels, note, threshold).
type Prompt struct {
	Submit       key.Binding
	Cancel       key.Binding
	Complete     key.Binding
	CompletePrev key.Binding
}

func defaultPrompt() Prompt {
	return Prompt{
		Submit:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
		Cancel:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Complete:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		CompletePrev: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous completion")),
	}
}

// Edit are the keys that edit a line being typed (the search and the
// prompts); other keys type their text.
type Edit struct {
	DeleteChar key.Binding
	DeleteWord key.Binding
	Clear      key.Binding
}

func defaultEdit() Edit {
	return Edit{
		DeleteChar: key.NewBinding(key.WithKeys("backspace", "ctrl+h"), key.WithHelp("backspace", "delete a character")),
		DeleteWord: key.NewBinding(key.WithKeys("ctrl+w"), key.WithHelp("ctrl+w", "delete a word")),
		Clear:      key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "clear the line")),
	}
}

// Overview are the keys of the overview (T): tasks by models. Open
// opens it from the list, the detail and over any sheet.
type Overview struct {
	Open     key.Binding
	Left     key.Binding
	Right    key.Binding
	Sort     key.Binding
	Reverse  key.Binding
	Baseline key.Binding
	Stderr   key.Binding
	Fold     key.Binding
	FoldAll  key.Binding
	Filter   key.Binding
	Choose   key.Binding
	Wrong    key.Binding
	Compare  key.Binding
	// Reruns lists the runs of the cell's task in its column (a task
	// run more than once: ↻); Expand shows the model under the cursor
	// run by run, or merges its runs again; Empty shows the rows and
	// columns without any value, or hides them again.
	Reruns key.Binding
	Expand key.Binding
	Empty  key.Binding
	Close  key.Binding
}

func defaultOverview() Overview {
	return Overview{
		Open:     key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "overview: tasks by models")),
		Left:     key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("h/←", "column left")),
		Right:    key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("l/→", "column right")),
		Sort:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort by this column")),
		Reverse:  key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
		Baseline: key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "baseline: this column")),
		Stderr:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "stderr on/off")),
		Fold:     key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "fold/unfold group")),
		FoldAll:  key.NewBinding(key.WithKeys("Z"), key.WithHelp("Z", "fold/unfold all")),
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter tasks")),
		Choose:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open task")),
		Wrong:    key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "open its wrong answers")),
		Compare:  key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "compare its runs")),
		Reruns:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "runs of this cell (↻)")),
		Expand:   key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "model run by run/merged")),
		Empty:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "show/hide empty rows")),
		Close:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "to the list")),
	}
}

// Runs are the keys of the comparison of one task across its runs (C in
// the overview); Left and Right choose the run enter opens, and scroll
// the agreement table to it when it is wider or longer than the screen.
type Runs struct {
	Left   key.Binding
	Right  key.Binding
	Flips  key.Binding
	Choose key.Binding
	Close  key.Binding
}

func defaultRuns() Runs {
	return Runs{
		Left:   key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("h/←", "previous run (scrolls the table)")),
		Right:  key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("l/→", "next run (scrolls the table)")),
		Flips:  key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "flipped docs only/all")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "show doc in this run")),
		Close:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}
