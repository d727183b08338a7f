package main

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/internal/hostile"
	"evalview/loaders"
	"evalview/tui"
)

// fileState is what must not change about an input file.
type fileState struct {
	sum   [32]byte
	mtime time.Time
	mode  fs.FileMode
}

// snapshot records every file under root.
func snapshot(t *testing.T, root string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		out[p] = fileState{sha256.Sum256(data), st.ModTime(), st.Mode()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// copyTree copies the folder src to dst (the session then writes its
// notes sidecars beside the copies, not in the repository).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		q := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(q, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(q, data, 0o444) // read-only, as a shared artifact may be
	})
	if err != nil {
		t.Fatal(err)
	}
}

// driveProgram runs cmd and the commands it leads to against m, as a
// program would, skipping timers (spinner, polls) and external processes.
func driveProgram(m tea.Model, cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0 && steps < 2000; steps++ {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		name := runtime.FuncForPC(reflect.ValueOf(c).Pointer()).Name()
		if strings.Contains(name, "spinner") || strings.Contains(name, "bubbletea/v2.Tick") || strings.Contains(name, "ExecProcess") {
			continue
		}
		ch := make(chan tea.Msg, 1)
		go func() { ch <- c() }()
		var msg tea.Msg
		select {
		case msg = <-ch:
		case <-time.After(5 * time.Second):
			continue // a timer the name check missed
		}
		switch msg := msg.(type) {
		case nil, tea.QuitMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

func pressKeys(m tea.Model, keys ...string) {
	special := map[string]tea.KeyPressMsg{
		"tab": {Code: tea.KeyTab}, "enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape},
		"down": {Code: tea.KeyDown}, "ctrl+d": {Code: 'd', Mod: tea.ModCtrl},
	}
	for _, k := range keys {
		msg, ok := special[k]
		if !ok {
			r := []rune(k)[0]
			msg = tea.KeyPressMsg{Code: r, Text: k}
		}
		_, cmd := m.Update(msg)
		driveProgram(m, cmd)
	}
}

func typeKeys(m tea.Model, s string) {
	for _, r := range s {
		pressKeys(m, string(r))
	}
}

// TestSessionLeavesInputsAlone opens every format of the repository's
// testdata and the hostile fixtures, and uses every feature of the browser
// over each: moving, every tab, search, query, sort, facets, columns,
// copy, labels and notes, export, reload, filters, datasets, help. The
// input files keep their bytes, modes and modification times, and the only
// new files are the export and the notes sidecars.
func TestSessionLeavesInputsAlone(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	t.Setenv("PATH", t.TempDir()) // no clipboard tool, pager or editor to run
	t.Setenv("PAGER", "")
	t.Setenv("EDITOR", "")
	in := t.TempDir()
	for _, d := range []string{"lmeval/two_filters", "run/valid", "sample", "testset/spec"} {
		copyTree(t, filepath.Join(hostile.Root(), "testdata", d), filepath.Join(in, d))
	}
	files, err := hostile.Terminal()
	if err != nil {
		t.Fatal(err)
	}
	if err := hostile.WriteFiles(filepath.Join(in, "hostile"), files); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, in)
	out := t.TempDir()
	t.Chdir(out) // the export prompt's default file name is relative

	var paths []string
	for _, d := range []string{"lmeval/two_filters", "run/valid", "sample/judged.jsonl", "testset/spec",
		"hostile/lmeval", "hostile/sample", "hostile/testset", "hostile/run"} {
		paths = append(paths, filepath.Join(in, d))
	}
	o := loaders.Options{}
	datasets, err := loaders.Open(paths, o)
	if err != nil || len(datasets) < len(paths) {
		t.Fatalf("%d datasets: %v", len(datasets), err)
	}
	opener := &noteOpener{}
	opts := tui.Options{Theme: "dark", Notes: opener.tuiNotes, Export: exportFile(opener), Reopen: reopener(o)}
	m := tui.New(datasets, opts)
	driveProgram(m, m.Init())
	_, cmd := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	driveProgram(m, cmd)
	for range datasets {
		pressKeys(m, "j", "j", "k", "G", "g", "ctrl+d")
		for tab := 1; tab <= 9; tab++ {
			pressKeys(m, string(rune('0'+tab)))
		}
		pressKeys(m, "tab", "j", "z", "m", "m", "/")
		typeKeys(m, "the")
		pressKeys(m, "enter", "n", "N", "esc", "y", "Y", "esc", "esc")
		pressKeys(m, "/")
		typeKeys(m, "a")
		pressKeys(m, "enter", "n", "esc", ":")
		typeKeys(m, "status=fail")
		pressKeys(m, "enter", "s", "S", "s", "F", "down", "esc", "c", "esc", "f", "x", "x", "y")
		pressKeys(m, "L")
		typeKeys(m, "extraction bug")
		pressKeys(m, "enter", "esc", "w", "enter", "esc", "r", "?", "esc", ">")
	}
	pressKeys(m, "D", "enter", "q")
	if v := m.View().Content; strings.Contains(v, "crashed") {
		t.Fatalf("the browser crashed:\n%s", v)
	}

	after := snapshot(t, in)
	for p, st := range before {
		switch a, ok := after[p]; {
		case !ok:
			t.Errorf("%s disappeared", p)
		case a.sum != st.sum:
			t.Errorf("%s changed", p)
		case !a.mtime.Equal(st.mtime) || a.mode != st.mode:
			t.Errorf("%s: mtime or mode changed (%v %v -> %v %v)", p, st.mtime, st.mode, a.mtime, a.mode)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok && !strings.Contains(filepath.Base(p), "evalview-notes") {
			t.Errorf("new file among the inputs: %s", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Logf("new: %s", p)
		}
	}
	exports, _ := filepath.Glob(filepath.Join(out, "*"))
	t.Logf("exports: %v", exports)
	if len(exports) == 0 {
		t.Error("the session exported nothing: the test no longer reaches export")
	}
}
