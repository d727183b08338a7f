package tui

import (
	"io"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"evalview/internal/safefile"
	"evalview/tui/detail"
)

// openExternal shows the focused text read-only in $PAGER (`o`) or in
// $EDITOR (`e`): a copy in a temporary file (externalFile), removed
// afterwards, never the artifact (edits are discarded, as the status bar
// says).
func (m *Model) openExternal(editor bool) tea.Cmd {
	c, ok := m.focusedClipFor(true)
	if !ok {
		m.note = "nothing to open: no record is shown"
		return nil
	}
	if c.Absent != "" {
		m.note = "nothing to open: " + c.Absent
		return nil
	}
	name, err := externalFile(c, editor)
	if err != nil {
		m.note = "cannot write a temporary file: " + err.Error()
		return nil
	}
	cmd := externalCommand(externalProgram(editor), name)
	what := c.What
	m.external.Store(true)
	return tea.Exec(execCmd{cmd}, func(err error) tea.Msg {
		m.external.Store(false)
		os.Remove(name)
		return externalDoneMsg{editor: editor, what: what, err: err}
	})
}

// externalProgram is the pager ($PAGER, else less) or the editor
// ($VISUAL, else $EDITOR, else vi), with its arguments.
func externalProgram(editor bool) string {
	if !editor {
		if p := os.Getenv("PAGER"); p != "" {
			return p
		}
		return "less"
	}
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if p := os.Getenv(v); p != "" {
			return p
		}
	}
	return "vi"
}

// externalCommand runs prog (a program and its arguments, split at
// spaces) on the file name.
func externalCommand(prog, name string) *exec.Cmd {
	fields := strings.Fields(prog)
	return exec.Command(fields[0], append(fields[1:], name)...)
}

// externalFile writes the copy of c a pager or editor gets and returns its
// name. The copy is what the clipboard gets (detail.Clip.Payload): the pager may
// print it raw (PAGER=cat, less -r), so no escape sequence, C1 or bidi
// control of the data may reach the terminal through it; they show as the
// screen shows them, and record JSON keeps every character as a \u
// escape. The file is created in the temporary folder exclusively, under
// a name nobody can predict (nothing planted there is written through),
// readable by the user alone; the pager's copy is read-only.
func externalFile(c detail.Clip, editor bool) (string, error) {
	ext := ".txt"
	if c.JSON {
		ext = ".json"
	}
	f, err := safefile.CreateTemp(os.TempDir(), "evalview-", ext, 0o600)
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, werr := f.WriteString(c.Payload())
	if werr == nil && !editor {
		werr = f.Chmod(0o400) // the pager's copy is read-only
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(name)
		return "", werr
	}
	return name, nil
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
