package model

import (
	"slices"
	"strings"
)

// NoteEdit changes one record's error-analysis note: it gets the record's
// labels and note text as they are when the change is saved (another
// window's changes included) and returns the new ones. Labelling a
// selection of records is one edit applied to each.
type NoteEdit func(labels []string, note string) ([]string, string)

// AddLabels is the NoteEdit that adds labels to a record's own, keeping
// the labels it has and its note text.
func AddLabels(add []string) NoteEdit {
	return func(labels []string, note string) ([]string, string) {
		out := slices.Clone(labels)
		for _, l := range add {
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
		return out, note
	}
}

// AppendNote is the NoteEdit that adds text to a record's note after what
// it says already ("; " between), labels kept: a note given to many
// records at once never replaces one written for a single record.
func AppendNote(add string) NoteEdit {
	add = strings.TrimSpace(add)
	return func(labels []string, note string) ([]string, string) {
		note = strings.TrimSpace(note)
		switch {
		case add == "" || strings.Contains(note, add):
			return labels, note
		case note == "":
			return labels, add
		}
		return labels, note + "; " + add
	}
}

// NoteConflict is a record whose note two windows changed, each since it
// last read the record: the note saved keeps both changes (the labels
// either added, both texts), and the window that saved says so.
type NoteConflict struct {
	Artifact, ID string
	// Labels and Note are what was saved.
	Labels []string
	Note   string
}
