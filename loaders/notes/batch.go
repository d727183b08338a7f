package notes

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"evalview/model"
)

// Update applies change to the notes of the records ids of artifact, in one
// save: Set for a selection of records, with Set's guarantees and one
// write instead of one per record. The files are read again first, so
// change sees the notes other windows saved; the save takes the lock and
// merges under it (a record another window changed in between is merged
// with this change, and returned as a conflict). When the lock cannot be
// had in time the edits are kept and saved with the next save (the error
// wraps ErrLocked); on any other error nothing changes, in the files or
// in the store.
func (s *Store) Update(artifact string, ids []string, change model.NoteEdit) ([]model.NoteConflict, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reread()
	prev, prevOrder := maps.Clone(s.pending), slices.Clone(s.pendingOrder)
	now := time.Now().UTC().Format(editedLayout)
	for _, id := range ids {
		k := key{artifact, id}
		cur := s.merged[k]
		labels, text := change(slices.Clone(cur.Labels), cur.Text)
		base := s.base(k)
		if _, had := s.pending[k]; !had {
			s.pendingOrder = append(s.pendingOrder, k)
		}
		s.pending[k] = edit{note: Note{Artifact: artifact, ID: id, Labels: cleanLabels(labels), Text: strings.TrimSpace(text), Edited: now}, base: base}
	}
	conflicts, err := s.flush(lockWait)
	switch {
	case err == nil:
		return conflicts, nil
	case errors.Is(err, ErrLocked):
		s.remerge()
		return nil, fmt.Errorf("another evalview is writing the notes: the notes are kept, and saved with the next one or when evalview quits (%w)", err)
	}
	s.pending, s.pendingOrder = prev, prevOrder
	s.remerge()
	return nil, err
}

// reread reads the files again (each is replaced whole by a rename, so an
// unlocked read sees a whole file), keeping what was read before of a file
// that is gone, cannot be read now, or is refused now (something not a
// notes file was put in its place: the next save says so).
func (s *Store) reread() {
	for j, p := range s.paths {
		if f := readFile(p); f.exists && !f.unreadable && f.refused == nil || !s.files[j].exists {
			s.files[j] = f
		}
	}
	s.remerge()
}
