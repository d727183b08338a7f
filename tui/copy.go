package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"evalview/internal/termsafe"
	"evalview/model"
	txt "evalview/tui/text"
)

// clip is what `y` copies and `Y` names: the focused part of the current
// record, its text and its jq-style path in the source JSON.
type clip struct {
	what string // "record JSON", "response", "prompt"...
	text string
	path string
	// absent says why there is nothing to copy or open: the artifact
	// does not hold the text (model.Attempt.NoText), so it has no path
	// either.
	absent string
	// json is set when text is JSON (the record's), which the clipboard
	// gets with dangerous characters escaped rather than shown.
	json bool
}

// payload is what the clipboard gets for c: nothing a paste into a
// terminal could act on. JSON keeps every character (termsafe.EscapeJSON
// writes C1 and bidi controls as \uXXXX escapes, which json.Indent of the
// file's bytes leaves raw); other text shows them visibly, as on screen.
func (c clip) payload() string {
	if c.json {
		return string(termsafe.EscapeJSON([]byte(c.text)))
	}
	return termsafe.Visible(c.text)
}

// focusedClip picks what the copy keys act on: in the list, the record's
// source JSON; in the detail, the tab's main text (the attempt in view on
// Responses, the last prompt turn on Prompt, the selected filter's answer
// on Filters, the first doc field on the fields tab of a format that
// locates its fields), else the record's source JSON. The paths are the
// format's (Presentation.Paths).
func (m *Model) focusedClip() (clip, bool) { return m.focusedClipFor(true) }

// focusedClipFor is focusedClip; without withText the clip's text is left
// empty where building it costs (the record JSON may read long rows back
// from the file), for Y, which copies the path only.
func (m *Model) focusedClipFor(withText bool) (clip, bool) {
	rec := m.detail.rec
	if len(m.datasets) == 0 || rec == nil {
		return clip{}, false
	}
	ds := m.datasets[m.cur]
	// The whole record's JSON only when it is what is copied: building it
	// may read a long row's rest back from the file.
	whole := func() clip {
		c := clip{what: "record JSON", path: ".", json: true}
		if withText {
			c.text = recordJSON(rec)
		}
		return c
	}
	if m.focus != focusDetail {
		if rows := m.list.SelectedRows(); len(rows) > 0 {
			// The selection: its ids, one a line, to paste anywhere.
			ids := recordIDs(ds, rows)
			for i, id := range ids {
				ids[i] = txt.OneLine(id)
			}
			return clip{what: "ids of " + txt.Plural(len(ids), "selected record"), text: strings.Join(ids, "\n") + "\n", path: "."}, true
		}
		return whole(), true
	}
	paths := ds.Presentation.Paths
	switch m.detail.shownTab().Content {
	case model.TabAttempts:
		if len(rec.Attempts) > 0 {
			// The attempt in view, or the chosen side of a pair
			// (copy_attempt.go).
			pos := m.detail.focusedAttempt()
			a := rec.Attempts[pos]
			what := "response"
			if len(rec.Attempts) > 1 {
				what += " " + ds.Presentation.Attempts.Name(pos, a)
			}
			if a.Text == "" && a.NoText != "" {
				return clip{what: what, absent: what + " " + a.NoText}, true
			}
			return clip{what: what, text: a.Text, path: paths.AttemptPath(rec, pos)}, true
		}
	case model.TabConversation:
		for i := len(rec.Messages) - 1; i >= 0; i-- {
			if msg := rec.Messages[i]; msg.Role == model.RoleUser {
				return clip{what: "prompt", text: messageText(msg), path: paths.MessagePath(rec, i)}, true
			}
		}
	case model.TabFilterResults:
		for _, f := range rec.Filters {
			if fi := m.list.FilterIndex(); fi >= 0 && f.Filter == ds.Filters[fi] {
				return clip{what: "extracted answer", text: f.Answer, path: paths.FilterAnswerPath(rec, f.Filter)}, true
			}
		}
	case model.TabFields:
		if len(rec.Fields) > 0 && paths.Field != nil { // else the record: the format locates no field
			f := rec.Fields[0]
			return clip{what: "field " + f.Name, text: f.Value, path: paths.FieldPath(rec, f.Name)}, true
		}
	}
	return whole(), true
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

// recordJSON is the record's source JSON, indented: one object, or an
// array of its source objects (an lm-eval doc's rows, one per filter). A
// part the loader kept only the head of is read whole; if that fails, its
// head is used, followed by a line that says so.
func recordJSON(rec *model.Record) string {
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

// copyFocused copies the focused text (`y`), or its path (`Y`).
func (m *Model) copyFocused(path bool) tea.Cmd {
	c, ok := m.focusedClipFor(!path)
	if !ok {
		m.note = "nothing to copy: no record is shown"
		return nil
	}
	if c.absent != "" {
		m.note = "nothing to copy: " + txt.OneLine(c.absent)
		return nil
	}
	if path {
		// A path is short: show it rather than its byte count.
		m.flash = "copied path of the " + c.what + ": " + txt.Truncate(txt.OneLine(c.path), 60)
		return copyText(termsafe.Line(c.path))
	}
	c.text = c.payload()
	if len(c.text) > osc52Max {
		// Terminals freeze on a huge OSC 52 sequence: only the system
		// clipboard tool may take it.
		tool := clipboardTool()
		if tool == nil {
			m.note = fmt.Sprintf("too large to copy over the terminal (%.1f MB): use o to open it in $PAGER", float64(len(c.text))/(1<<20))
			return nil
		}
		m.flash = "copied " + c.what + " (" + strconv.Itoa(len(c.text)) + " bytes, with " + tool[0] + ")"
		return systemClipboardCmd(c.text)
	}
	m.flash = "copied " + c.what + " (" + strconv.Itoa(len(c.text)) + " bytes)"
	return copyText(c.text)
}

// osc52Max is the most text `y` sends over OSC 52 (a variable for tests).
var osc52Max = 1 << 20

// copyText puts text on the clipboard: through OSC 52, which works over
// SSH and inside tmux, and with the system's clipboard tool as a fallback
// when one is installed and a desktop session is there.
func copyText(text string) tea.Cmd {
	return tea.Batch(tea.SetClipboard(text), systemClipboardCmd(text))
}

// clipboardTool finds wl-copy, xclip or pbcopy for the session.
func clipboardTool() []string {
	var cands [][]string
	switch {
	case runtime.GOOS == "darwin":
		cands = [][]string{{"pbcopy"}}
	case os.Getenv("WAYLAND_DISPLAY") != "":
		cands = [][]string{{"wl-copy"}, {"xclip", "-selection", "clipboard"}}
	case os.Getenv("DISPLAY") != "":
		cands = [][]string{{"xclip", "-selection", "clipboard"}}
	}
	for _, c := range cands {
		if _, err := exec.LookPath(c[0]); err == nil {
			return c
		}
	}
	return nil
}

// systemClipboardCmd feeds text to the system clipboard tool, if any; its
// failure is silent (OSC 52 went out anyway).
func systemClipboardCmd(text string) tea.Cmd {
	tool := clipboardTool()
	if tool == nil {
		return nil
	}
	return func() tea.Msg {
		cmd := exec.Command(tool[0], tool[1:]...)
		cmd.Stdin = strings.NewReader(text)
		_ = cmd.Run()
		return nil
	}
}
