package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/text"
)

// Notes on many records at once: the labels or note given with a
// selection (list_select.go) go to every selected record, and `.` gives
// the labels last added to the row under the cursor, then moves down, so
// that labelling a run of failures costs one key per record. Each goes
// through NoteStore.Update: one write, all or nothing, that keeps what
// the records had and what another window saved.

// openSelectionPrompt asks for labels (or, labels false, a note) to add
// to every selected record.
func openSelectionPrompt(m *Model, labels bool) tea.Cmd {
	store := notesHere(m)
	if store == nil {
		return nil
	}
	rows := m.list.SelectedRows()
	ids := recordIDs(m.datasets[m.cur], rows)
	what := "records"
	if len(ids) == 1 {
		what = "record"
	}
	p := &lineInput{prefix: "add labels to " + strconv.Itoa(len(ids)) + " selected " + what + ": ",
		hint: "comma separated · tab complete · enter save · esc cancel"}
	if labels {
		p.complete = labelCompletion(store)
		p.submit = func(v string) (bool, tea.Cmd) {
			add := splitLabels(v)
			if len(add) == 0 {
				p.errText = "give a label (labels are removed one record at a time)"
				return true, nil
			}
			m.lastLabels = add
			cmd, _ := saveNotes(m, store, ids, model.AddLabels(add), "labelled")
			return false, cmd
		}
	} else {
		p.prefix = "add a note to " + strconv.Itoa(len(ids)) + " selected " + what + ": "
		p.hint = "added after each record's note · enter save · esc cancel"
		p.submit = func(v string) (bool, tea.Cmd) {
			if strings.TrimSpace(v) == "" {
				p.errText = "give a note (notes are removed one record at a time)"
				return true, nil
			}
			cmd, _ := saveNotes(m, store, ids, model.AppendNote(v), "noted")
			return false, cmd
		}
	}
	m.input = p
	return nil
}

// recordIDs are the ids of records rows of ds.
func recordIDs(ds *model.Dataset, rows []int) []string {
	ids := make([]string, 0, len(rows))
	for _, i := range rows {
		ids = append(ids, ds.Records.Summary(i).ID)
	}
	return ids
}

// saveNotes applies edit to records ids in one write and says so; clean
// reports a save that merged nothing with another window's change.
func saveNotes(m *Model, store NoteStore, ids []string, edit model.NoteEdit, done string) (cmd tea.Cmd, clean bool) {
	conflicts, err := store.Update(ids, edit)
	if err != nil {
		m.note = "notes not saved: " + err.Error()
		return nil, false
	}
	if len(conflicts) > 0 {
		m.note = conflictNote(conflicts, store.Path())
	} else {
		m.flash = done + " " + text.Plural(len(ids), "record") + " · notes saved to " + text.OneLine(store.Path())
	}
	return m.list.Refilter(), len(conflicts) == 0
}

// repeatLabel gives the labels last added to the row under the cursor,
// and moves the cursor down (`.`: list.RepeatLabelMsg).
func (m *Model) repeatLabel() tea.Cmd {
	if len(m.lastLabels) == 0 {
		m.note = ". repeats the last labels given: label a record with l first"
		return nil
	}
	store, id, ok := m.noteTarget()
	if !ok {
		return nil
	}
	cmd, clean := saveNotes(m, store, []string{id}, model.AddLabels(m.lastLabels), "labelled "+strings.Join(m.lastLabels, ", ")+":")
	if !clean {
		// Not saved, or merged with another window's change to the
		// record: the cursor stays on it while the status bar says so.
		return cmd
	}
	return tea.Batch(cmd, m.list.MoveBy(1))
}
