package detail

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"evalview/internal/termsafe"
	"evalview/model"
)

// Clip is what `y` copies and `Y` names: the focused part of the record
// shown, its text and its jq-style path in the source JSON.
type Clip struct {
	What string // "record JSON", "response", "prompt"...
	Text string
	Path string
	// Absent says why there is nothing to copy or open: the artifact
	// does not hold the text (model.Attempt.NoText), so it has no path
	// either.
	Absent string
	// JSON is set when Text is JSON (the record's), which the clipboard
	// gets with dangerous characters escaped rather than shown.
	JSON bool
}

// Payload is what the clipboard gets for c: nothing a paste into a
// terminal could act on. JSON keeps every character (termsafe.EscapeJSON
// writes C1 and bidi controls as \uXXXX escapes, which json.Indent of the
// file's bytes leaves raw); other text shows them visibly, as on screen.
func (c Clip) Payload() string {
	if c.JSON {
		return string(termsafe.EscapeJSON([]byte(c.Text)))
	}
	return termsafe.Visible(c.Text)
}

// RecordClip is the record shown as its source JSON; without withText
// its text is left empty (building it may read a long row's rest back
// from the file), for a copy of its path. false when no record is shown.
func (d *Pane) RecordClip(withText bool) (Clip, bool) {
	if d.rec == nil {
		return Clip{}, false
	}
	c := Clip{What: "record JSON", Path: ".", JSON: true}
	if withText {
		c.Text = RecordJSON(d.rec)
	}
	return c, true
}

// Clip is what the copy keys take in the detail: the tab's main text (the
// attempt in view on Responses, the last prompt turn on Prompt, the
// selected filter's answer on Filters, the first doc field on the fields
// tab of a format that locates its fields), else the record's source
// JSON (RecordClip). The paths are the format's (Presentation.Paths).
func (d *Pane) Clip(withText bool) (Clip, bool) {
	rec, ds := d.rec, d.ds
	if rec == nil || ds == nil {
		return Clip{}, false
	}
	paths := ds.Presentation.Paths
	switch d.shownTab().Content {
	case model.TabAttempts:
		if len(rec.Attempts) > 0 {
			// The attempt in view, or the chosen side of a pair
			// (attempts.go).
			pos := d.focusedAttempt()
			a := rec.Attempts[pos]
			what := "response"
			if len(rec.Attempts) > 1 {
				what += " " + ds.Presentation.Attempts.Name(pos, a)
			}
			if a.Text == "" && a.NoText != "" {
				return Clip{What: what, Absent: what + " " + a.NoText}, true
			}
			return Clip{What: what, Text: a.Text, Path: paths.AttemptPath(rec, pos)}, true
		}
	case model.TabConversation:
		for i := len(rec.Messages) - 1; i >= 0; i-- {
			if msg := rec.Messages[i]; msg.Role == model.RoleUser {
				return Clip{What: "prompt", Text: messageText(msg), Path: paths.MessagePath(rec, i)}, true
			}
		}
	case model.TabFilterResults:
		for _, f := range rec.Filters {
			if fi := d.src.Filter(); fi >= 0 && f.Filter == ds.Filters[fi] {
				return Clip{What: "extracted answer", Text: f.Answer, Path: paths.FilterAnswerPath(rec, f.Filter)}, true
			}
		}
	case model.TabFields:
		if len(rec.Fields) > 0 && paths.Field != nil { // else the record: the format locates no field
			f := rec.Fields[0]
			return Clip{What: "field " + f.Name, Text: f.Value, Path: paths.FieldPath(rec, f.Name)}, true
		}
	}
	return d.RecordClip(withText)
}

// messageText joins a message's text segments.
func messageText(msg model.Message) string {
	var parts []string
	for _, s := range msg.Segments {
		if s.Text != "" {
			parts = append(parts, s.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// RecordJSON is the record's source JSON, indented: one object, or an
// array of its source objects (an lm-eval doc's rows, one per filter). A
// part the loader kept only the head of is read whole; if that fails, its
// head is used, followed by a line that says so.
func RecordJSON(rec *model.Record) string {
	var parts [][]byte
	for _, p := range rec.Raw {
		data, err := p.Whole()
		if err != nil {
			data = append(append([]byte(nil), p.JSON...), fmt.Sprintf("\n… %d more bytes not read: %v", p.Omitted, err)...)
		}
		var b bytes.Buffer
		if json.Indent(&b, data, "", "  ") != nil {
			b.Reset()
			b.Write(data)
		}
		parts = append(parts, b.Bytes())
	}
	switch len(parts) {
	case 0:
		b, _ := json.MarshalIndent(rec.Summary, "", "  ")
		return string(b)
	case 1:
		return string(parts[0])
	}
	return "[\n" + string(bytes.Join(parts, []byte(",\n"))) + "\n]"
}
