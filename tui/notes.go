package tui

import (
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/query"
	"evalview/tui/text"
)

// NoteStore keeps one dataset's error-analysis notes: free labels and a
// note text per record id (loaders/notes implements it over a sidecar
// file). It must be safe for concurrent reads: the list filters off the
// event loop.
type NoteStore interface {
	// Get returns a record's labels and note.
	Get(id string) (labels []string, note string)
	// Set replaces a record's labels and note and saves them. The
	// conflicts are the records another window changed too since this
	// one read them: what was saved keeps both changes.
	Set(id string, labels []string, note string) ([]model.NoteConflict, error)
	// Update applies edit to the notes of records ids and saves them in
	// one write, all or nothing (labelling a selection).
	Update(ids []string, edit model.NoteEdit) ([]model.NoteConflict, error)
	// Refresh reads the notes again (another window may have saved):
	// called as an edit starts, so that it starts from what is saved.
	Refresh()
	// Labels returns the labels in use, most used first.
	Labels() []string
	// Len returns how many records have a note.
	Len() int
	// Path names the file the notes are kept in.
	Path() string
}

// noteLocator is a NoteStore that knows which file each note is kept in
// (notes merge a sidecar and a fallback file).
type noteLocator interface {
	Where(id string) string
}

// keptIn is the prompt's hint: "kept in FILE" for a record that has a
// note (the help line below names the keys), else keys.
func keptIn(store NoteStore, id, keys string) string {
	if w, ok := store.(noteLocator); ok {
		if f := w.Where(id); f != "" {
			// Both ends tell the file: its folder (beside the
			// artifact, or the state folder) and its name.
			return "kept in " + text.TruncateMiddle(text.OneLine(f), 48)
		}
	}
	return keys
}

// noteStores are the datasets' note stores, opened on demand by open
// (Options.Notes; nil: notes are off).
type noteStores struct {
	open func(*model.Dataset) NoteStore
	m    map[*model.Dataset]NoteStore
}

// of returns ds's note store, nil when notes are off.
func (n *noteStores) of(ds *model.Dataset) NoteStore {
	if n.open == nil || ds == nil {
		return nil
	}
	if n.m == nil {
		n.m = map[*model.Dataset]NoteStore{}
	}
	s, ok := n.m[ds]
	if !ok {
		s = n.open(ds)
		n.m[ds] = s
	}
	return s
}

// lookup gives queries ds's notes; nil while it has none, so lists
// without notes pay nothing.
func (n *noteStores) lookup(ds *model.Dataset) query.NoteLookup {
	s := n.of(ds)
	if s == nil || s.Len() == 0 {
		return nil
	}
	return s.Get
}

// move gives ds, a reload of old, old's store.
func (n *noteStores) move(old, ds *model.Dataset) {
	if s, ok := n.m[old]; ok {
		n.m[ds] = s
		delete(n.m, old)
	}
}

// currentRecordID returns the id of the record under the list cursor.
func (m *Model) currentRecordID() (string, bool) {
	if len(m.datasets) == 0 {
		return "", false
	}
	i, ok := m.list.Selected()
	if !ok {
		return "", false
	}
	return m.datasets[m.cur].Records.Summary(i).ID, true
}

// openLabelPrompt edits the current record's labels (`l`): a comma
// separated list, tab completing the label being typed from those in use.
// With a selection it adds labels to every selected record instead
// (notes_select.go).
func (m *Model) openLabelPrompt() tea.Cmd {
	if m.list.Selection() > 0 {
		return openSelectionPrompt(m, true)
	}
	store, id, ok := m.noteTarget()
	if !ok {
		return nil
	}
	store.Refresh()
	labels, note := store.Get(id)
	p := &lineInput{prefix: "labels of record " + text.OneLine(id) + ": ", hint: keptIn(store, id, "comma separated · tab complete · enter save · esc cancel")}
	p.setValue(strings.Join(labels, ", "))
	if len(labels) > 0 {
		p.line.Insert(", ")
	}
	p.complete = labelCompletion(store)
	p.submit = func(v string) (bool, tea.Cmd) {
		next := splitLabels(v)
		if added := newLabels(labels, next); len(added) > 0 {
			m.lastLabels = added // what `.` gives the next rows
		}
		return false, m.saveNote(store, id, next, note)
	}
	m.input = p
	return nil
}

// labelCompletion completes the label being typed (after the last comma)
// from the labels in use.
func labelCompletion(store NoteStore) func(line string) []query.Candidate {
	return func(line string) []query.Candidate {
		start := strings.LastIndex(line, ",") + 1
		for start < len(line) && line[start] == ' ' {
			start++
		}
		prefix := strings.ToLower(line[start:])
		var out []query.Candidate
		for _, l := range store.Labels() {
			if strings.HasPrefix(strings.ToLower(l), prefix) && l != line[start:] {
				out = append(out, query.Candidate{Text: l, Replace: [2]int{start, len(line)}})
			}
		}
		return out
	}
}

// newLabels are the labels of next that before lacks.
func newLabels(before, next []string) []string {
	var out []string
	for _, l := range next {
		if !slices.Contains(before, l) {
			out = append(out, l)
		}
	}
	return out
}

// openNotePrompt edits the current record's note text (`a`); with a
// selection it adds a note to every selected record.
func (m *Model) openNotePrompt() tea.Cmd {
	if m.list.Selection() > 0 {
		return openSelectionPrompt(m, false)
	}
	store, id, ok := m.noteTarget()
	if !ok {
		return nil
	}
	store.Refresh()
	labels, note := store.Get(id)
	p := &lineInput{prefix: "note on record " + text.OneLine(id) + ": ", hint: keptIn(store, id, "enter save · empty removes · esc cancel")}
	p.setValue(note)
	p.submit = func(v string) (bool, tea.Cmd) {
		return false, m.saveNote(store, id, labels, v)
	}
	m.input = p
	return nil
}

// noteTarget is the store and record id the note keys act on; without
// notes or a record it explains why in the status bar.
func (m *Model) noteTarget() (NoteStore, string, bool) {
	store := notesHere(m)
	if store == nil {
		return nil, "", false
	}
	id, ok := m.currentRecordID()
	if !ok {
		m.note = "no record selected"
		return nil, "", false
	}
	return store, id, true
}

// notesHere is the current dataset's note store; without one it says
// why in the status bar.
func notesHere(m *Model) NoteStore {
	store := m.notes.of(m.datasets[m.cur])
	if store == nil {
		m.note = "notes are off (no notes file for this dataset)"
		for _, is := range m.datasets[m.cur].Issues {
			if is.Code == "notes-unusable" { // the command refused the file: say why
				m.note = text.OneLine(is.Message)
			}
		}
	}
	return store
}

// splitLabels splits a comma separated label list.
func splitLabels(v string) []string {
	var out []string
	for _, l := range strings.Split(v, ",") {
		if l = strings.TrimSpace(l); l != "" && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// saveNote stores a record's note, says where it went (or that another
// window had changed the record too), and refreshes what depends on notes
// (a query on labels, a sort by note).
func (m *Model) saveNote(store NoteStore, id string, labels []string, note string) tea.Cmd {
	conflicts, err := store.Set(id, labels, note)
	if err != nil {
		m.note = "notes not saved: " + err.Error()
		return nil
	}
	where := store.Path()
	if w, ok := store.(noteLocator); ok && w.Where(id) != "" {
		where = w.Where(id)
	}
	if len(conflicts) > 0 {
		m.note = conflictNote(conflicts, where)
	} else {
		m.flash = "notes saved to " + text.OneLine(where)
	}
	return m.list.Refilter()
}

// conflictNote tells of records another window changed too since this
// one read them, which were saved with both changes: "record 5 was
// changed in another window too: both changes kept (labels: extraction
// bug, wrong reasoning) in FILE".
func conflictNote(conflicts []model.NoteConflict, where string) string {
	if len(conflicts) > 1 {
		ids := make([]string, 0, 3)
		for _, c := range conflicts[:min(3, len(conflicts))] {
			ids = append(ids, text.OneLine(c.ID))
		}
		list := strings.Join(ids, ", ")
		if len(conflicts) > 3 {
			list += ", …"
		}
		return strconv.Itoa(len(conflicts)) + " records were changed in another window too: both changes kept (" + list + ") in " + text.OneLine(where)
	}
	c := conflicts[0]
	var kept []string
	if len(c.Labels) > 0 {
		kept = append(kept, "labels: "+strings.Join(c.Labels, ", "))
	}
	if c.Note != "" {
		kept = append(kept, "note: "+c.Note)
	}
	s := "record " + c.ID + " was changed in another window too: both changes kept"
	if len(kept) > 0 {
		s += " (" + strings.Join(kept, "; ") + ")"
	}
	return text.OneLine(s + " in " + where)
}
