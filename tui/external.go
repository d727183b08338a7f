package tui

import (
	"io"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// openExternal shows the focused text read-only in $PAGER (`o`) or in
// $EDITOR (`e`): a copy in a temporary file, removed afterwards, never the
// artifact (edits are discarded, as the status bar says).
func (m *Model) openExternal(editor bool) tea.Cmd {
	c, ok := m.focusedClip()
	if !ok {
		m.note = "nothing to open: no record is shown"
		return nil
	}
	if c.Absent != "" {
		m.note = "nothing to open: " + c.Absent
		return nil
	}
	prog := os.Getenv("PAGER")
	if prog == "" {
		prog = "less"
	}
	if editor {
		prog = os.Getenv("VISUAL")
		if prog == "" {
			prog = os.Getenv("EDITOR")
		}
		if prog == "" {
			prog = "vi"
		}
	}
	ext := ".txt"
	if c.What == "record JSON" {
		ext = ".json"
	}
	f, err := os.CreateTemp("", "evalview-*"+ext)
	if err != nil {
		m.note = "cannot write a temporary file: " + err.Error()
		return nil
	}
	name := f.Name()
	_, werr := f.WriteString(c.Text)
	f.Close()
	if werr == nil && !editor {
		werr = os.Chmod(name, 0o444) // the pager's copy is read-only
	}
	if werr != nil {
		os.Remove(name)
		m.note = "cannot write a temporary file: " + werr.Error()
		return nil
	}
	fields := strings.Fields(prog)
	cmd := exec.Command(fields[0], append(fields[1:], name)...)
	what := c.What
	m.external.Store(true)
	return tea.Exec(execCmd{cmd}, func(err error) tea.Msg {
		m.external.Store(false)
		os.Remove(name)
		return externalDoneMsg{editor: editor, what: what, err: err}
	})
}

// externalDoneMsg reports the end of the pager or editor.
type externalDoneMsg struct {
	editor bool
	what   string
	err    error
}

func (msg externalDoneMsg) applyTo(m *Model) tea.Cmd {
	switch {
	case msg.err != nil:
		m.note = "could not run the pager/editor: " + msg.err.Error()
	case msg.editor:
		m.flash = "edited a copy of the " + msg.what + "; edits are discarded (the artifact is never changed)"
	}
	return nil
}

// execCmd is an exec.Cmd for tea.Exec that hands the program the
// terminal's own file where Bubble Tea gives it the painter it writes
// through (prepaint.go): given any other writer, exec runs the program
// with its output into a pipe, and a pager whose output is not a
// terminal is no pager (less prints the file and ends).
type execCmd struct{ *exec.Cmd }

func (c execCmd) SetStdin(r io.Reader) { c.Stdin = r }
func (c execCmd) SetStdout(w io.Writer) {
	if p, ok := w.(*painter); ok {
		w = p.File
	}
	c.Stdout = w
}
func (c execCmd) SetStderr(w io.Writer) { c.Stderr = w }
