package tui

import (
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
)

// memNotes is an in-memory NoteStore.
type memNotes struct {
	mu     sync.Mutex
	labels map[string][]string
	text   map[string]string
	saves  int
	// conflicts is what the next save reports (another window's change
	// merged), refreshes how often Refresh was called.
	conflicts []model.NoteConflict
	refreshes int
}

func newMemNotes() *memNotes {
	return &memNotes{labels: map[string][]string{}, text: map[string]string{}}
}

func (s *memNotes) Get(id string) ([]string, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.labels[id]), s.text[id]
}

func (s *memNotes) Set(id string, labels []string, note string) ([]model.NoteConflict, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saves++
	c := s.conflicts
	s.conflicts = nil
	s.labels[id], s.text[id] = labels, note
	if len(labels) == 0 && note == "" {
		delete(s.labels, id)
		delete(s.text, id)
	}
	return c, nil
}

func (s *memNotes) Refresh() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refreshes++
}

func (s *memNotes) Update(ids []string, edit model.NoteEdit) ([]model.NoteConflict, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saves++
	c := s.conflicts
	s.conflicts = nil
	for _, id := range ids {
		l, n := edit(slices.Clone(s.labels[id]), s.text[id])
		s.labels[id], s.text[id] = l, n
		if len(l) == 0 && n == "" {
			delete(s.labels, id)
			delete(s.text, id)
		}
	}
	return c, nil
}

func (s *memNotes) Labels() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, ls := range s.labels {
		for _, l := range ls {
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	slices.Sort(out)
	return out
}

func (s *memNotes) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.labels) + len(s.text) - len(intersect(s.labels, s.text))
}

func intersect(a map[string][]string, b map[string]string) []string {
	var out []string
	for k := range a {
		if _, ok := b[k]; ok {
			out = append(out, k)
		}
	}
	return out
}

func (s *memNotes) Path() string { return "/tmp/x.evalview-notes.jsonl" }

// newNotesModel opens the lm-eval fixture with notes in store.
func newNotesModel(t *testing.T, store *memNotes, w, h int) *Model {
	t.Helper()
	return newNotesModelWith(t, store, w, h)
}

// newNotesModelWith opens the lm-eval fixture with notes in store.
func newNotesModelWith(t *testing.T, store NoteStore, w, h int) *Model {
	t.Helper()
	t.Setenv("NO_COLOR", "1")
	m := New([]*model.Dataset{lmevalFixture()}, Options{Theme: "dark", Notes: func(*model.Dataset) NoteStore { return store }})
	drive(m, m.Init())
	send(m, windowSize(w, h))
	return m
}

func TestLabelsAndNotes(t *testing.T) {
	store := newMemNotes()
	m := newNotesModel(t, store, 120, 30)
	press(m, "j", "L")
	if prompt(m) == nil {
		t.Fatal("l did not open the label prompt")
	}
	// The help line offers the prompt's keys, not the list's.
	if s := screen(m); !strings.Contains(s, "enter apply") || !strings.Contains(s, "tab complete") || strings.Contains(s, "wrong only") {
		t.Errorf("help line while the label prompt is open:\n%s", s)
	}
	typeText(m, "extraction bug, wrong reasoning")
	press(m, "enter")
	if got, _ := store.Get("1"); strings.Join(got, "|") != "extraction bug|wrong reasoning" {
		t.Fatalf("labels of doc 1: %v", got)
	}
	s := screen(m)
	if !strings.Contains(s, "notes saved to /tmp/x.evalview-notes.jsonl") {
		t.Errorf("status does not say where notes went:\n%s", s)
	}
	// The list shows a labels column now.
	if !strings.Contains(s, "labels") || !strings.Contains(s, "extraction bug") {
		t.Errorf("no label column:\n%s", s)
	}
	// Completion offers labels in use; a second record gets one.
	press(m, "j", "L")
	typeText(m, "wr")
	press(m, "tab")
	if got := prompt(m).Value(); got != "wrong reasoning" {
		t.Errorf("label completion: %q", got)
	}
	press(m, "enter")
	// A note.
	press(m, "a")
	typeText(m, "answer is on the last line")
	press(m, "enter")
	if _, note := store.Get("2"); note != "answer is on the last line" {
		t.Errorf("note of doc 2: %q", note)
	}
	// Notes work in queries and facets.
	drive(m, m.setListQuery("label:\"wrong reasoning\""))
	if got := strings.Join(visibleIDs(m), " "); got != "1 2" {
		t.Errorf("label query shows %q, want 1 2", got)
	}
	drive(m, m.setListQuery(`note~"last line"`))
	if got := strings.Join(visibleIDs(m), " "); got != "2" {
		t.Errorf("note query shows %q, want 2", got)
	}
	drive(m, m.setListQuery(""))
	sheet := m.list.Facets("label")
	if f := sheet.Field(); f != "label" {
		t.Fatalf("facet field %q, want label", f)
	}
	if facet := sheet.Values(); len(facet) != 3 || facet[1].Value != "wrong reasoning" || facet[1].Count != 2 || facet[0].Count != 4 {
		t.Errorf("label facet: %+v", facet)
	}
	// Removing every label clears the note's labels.
	press(m, "g", "j", "L", "ctrl+u", "enter")
	if got, _ := store.Get("1"); len(got) != 0 {
		t.Errorf("labels left: %v", got)
	}
}

func TestNotesOff(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	press(m, "L")
	if prompt(m) != nil || !strings.Contains(m.note, "notes are off") {
		t.Errorf("L without notes: prompt %v, note %q", prompt(m) != nil, m.note)
	}
	press(m, "l") // in the list, l moves the column cursor, and opens no prompt
	if prompt(m) != nil {
		t.Error("l in the list opened a prompt")
	}
	press(m, "tab", "l") // in the detail, l is next tab
	if got, want := m.detail.TabName(), m.detail.Tabs()[1].Name; got != want {
		t.Errorf("l in the detail went to tab %q, want %q", got, want)
	}
}

func windowSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
