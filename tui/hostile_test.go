package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"evalview/loaders"
	"evalview/model"
	"evalview/tui/crash"
)

// hostileDir holds every format with terminal payloads in its text fields
// (made by loaders/internal/hostile; see loaders' TestHostileFixtures).
var hostileDir = filepath.Join("..", "testdata", "hostile", "terminal")

// terminalUnsafe says why rendered output could act on a terminal, or
// "": every ESC must begin an SGR sequence (CSI params m), the only escape
// the renderer itself writes; there must be no other C0 control but
// newline, no C1 control, no bidi control and no invalid UTF-8.
func terminalUnsafe(s string) string {
	if !utf8.ValidString(s) {
		return "output is not valid UTF-8"
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			j := i + 1
			if j >= len(s) || s[j] != '[' {
				return fmt.Sprintf("ESC not starting a CSI at byte %d: %q", i, excerpt(s, i))
			}
			j++
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j >= len(s) || s[j] != 'm' {
				return fmt.Sprintf("CSI other than SGR at byte %d: %q", i, excerpt(s, i))
			}
			i = j + 1
			continue
		case r == '\n':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return fmt.Sprintf("control %U at byte %d: %q", r, i, excerpt(s, i))
		case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c:
			return fmt.Sprintf("bidi control %U at byte %d: %q", r, i, excerpt(s, i))
		}
		i += n
	}
	return ""
}

func TestTerminalUnsafe(t *testing.T) {
	for in, bad := range map[string]bool{
		"plain\n\x1b[1;38;2;1;2;3mstyled\x1b[m 中文 ␛]2;x␇": false,
		"\x1b]2;pwned\x07": true,
		"\x1b[2J":          true,
		"\x1b[?1049l":      true,
		"a\u009b31m":       true,
		"a\u202eb":         true,
		"a\x00b":           true,
		"a\xffb":           true,
		"\x1bPq":           true,
		"trailing \x1b[31": true,
	} {
		if got := terminalUnsafe(in); (got != "") != bad {
			t.Errorf("terminalUnsafe(%q) = %q", in, got)
		}
	}
}

func excerpt(s string, i int) string {
	return s[max(0, i-30):min(len(s), i+30)]
}

// openHostile opens one format's hostile fixture and waits for its index.
func openHostile(t *testing.T, dir string) []*model.Dataset {
	t.Helper()
	ds, err := loaders.Open([]string{filepath.Join(hostileDir, dir)}, loaders.Options{})
	if err != nil || len(ds) == 0 {
		t.Fatalf("%s: %v", dir, err)
	}
	for _, d := range ds {
		for deadline := time.Now().Add(time.Minute); !d.Records.Done() && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
	}
	return ds
}

// TestHostileTerminalSafety renders every format's hostile fixture at
// 100x30 with colors on, visiting every record and every tab, and checks
// each screen: only SGR escapes, and the payloads shown escaped.
func TestHostileTerminalSafety(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	for _, dir := range []string{"lmeval", "sample", "testset", "run"} {
		t.Run(dir, func(t *testing.T) {
			ds := openHostile(t, dir)
			m := New(ds, Options{Theme: "dark"})
			drive(m, m.Init())
			send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
			var seen strings.Builder
			look := func(where string) {
				view := m.View()
				v := view.Content
				if why := terminalUnsafe(v); why != "" {
					t.Errorf("%s: %s", where, why)
				}
				// The title goes out inside an OSC: no escape at all.
				if why := terminalUnsafe(view.WindowTitle); why != "" || strings.Contains(view.WindowTitle, "\x1b") {
					t.Errorf("%s: window title %q: %s", where, view.WindowTitle, why)
				}
				s := screen(m)
				checkFits(t, s, 100, 30)
				seen.WriteString(s)
			}
			n := ds[0].Records.Len()
			for i := 0; i < n; i++ {
				look(fmt.Sprintf("record %d list", i))
				for tab := 1; tab <= 9; tab++ {
					press(m, fmt.Sprint(tab))
					look(fmt.Sprintf("record %d tab %d", i, tab))
				}
				press(m, "tab")
				look(fmt.Sprintf("record %d detail", i))
				press(m, "esc", "1", "j")
			}
			// Searching for the payload's text and the help screen.
			press(m, "g", "/")
			typeText(m, "pwned")
			press(m, "enter")
			look("search")
			press(m, "?")
			look("help")
			press(m, "esc")
			if m.crash != nil {
				t.Fatalf("crashed: %v\n%s", m.crash.Value, m.crash.Stack)
			}
			all := seen.String()
			for _, want := range []string{"␛]2;pwned␇", "␛]52;c;aGk=␇", "␛[2J", `\x9b31m`, `\u202e`, "␀", "\uFFFD"} {
				if !strings.Contains(all, want) {
					t.Errorf("no screen shows %q", want)
				}
			}
		})
	}
}

// TestTestPanicHook: the EVALVIEW_TEST_PANIC messages reach the crash
// handling they are meant to exercise (the end-to-end check runs the real
// binary in tmux).
func TestTestPanicHook(t *testing.T) {
	for _, where := range []string{"update", "command"} {
		m := newTestModel(t, allFixtures(), 80, 24)
		_, cmd := m.Update(testPanicMsg{where})
		drive(m, cmd)
		if m.crash == nil || !strings.Contains(fmt.Sprint(m.crash.Value), testPanicEnv) {
			t.Errorf("%s: crash not recorded: %+v", where, m.crash)
		}
		if v := m.View().Content; !strings.Contains(v, "crashed") {
			t.Errorf("%s: view after the crash: %q", where, v)
		}
	}
}

// TestFileTruncatedWhileOpen: records of a file cut short after it was
// opened show the read error, the status offers the reload, and r brings
// the browser back to what the file now holds.
func TestFileTruncatedWhileOpen(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(hostileDir, "lmeval", "samples_arc_easy_2025-11-02T09-14-27.512230.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "samples_arc_easy_2025-11-02T09-14-27.512230.jsonl")
	os.WriteFile(p, src, 0o644)
	ds, err := loaders.Open([]string{p}, loaders.Options{})
	if err != nil || len(ds) != 1 {
		t.Fatal(err)
	}
	for !ds[0].Records.Done() {
		time.Sleep(time.Millisecond)
	}
	n := ds[0].Records.Len()
	t.Setenv("NO_COLOR", "1")
	m := New(ds, Options{Theme: "dark", Reopen: func(d *model.Dataset) (*model.Dataset, error) {
		out, err := loaders.Open([]string{d.Path}, loaders.Options{As: d.Kind})
		if err != nil {
			return nil, err
		}
		for !out[0].Records.Done() {
			time.Sleep(time.Millisecond)
		}
		return out[0], nil
	}})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	os.Truncate(p, int64(len(src)/3))
	press(m, "G")
	s := screen(m)
	if !strings.Contains(s, "could not be read; r reloads") {
		t.Errorf("the status does not offer the reload:\n%s", s)
	}
	if m.crash != nil {
		t.Fatalf("crashed: %v", m.crash.Value)
	}
	press(m, "r")
	if got := m.datasets[0].Records.Len(); got >= n {
		t.Errorf("after r: %d records, want fewer than %d", got, n)
	}
	if m.crash != nil {
		t.Fatalf("crashed: %v", m.crash.Value)
	}
}

// TestStderrCapture: what is written to os.Stderr while the capture runs
// is kept (with "\r\n" made "\n") and os.Stderr is restored after.
func TestStderrCapture(t *testing.T) {
	orig := os.Stderr
	c := crash.CaptureStderr()
	if c == nil {
		t.Skip("no pipe")
	}
	fmt.Fprint(os.Stderr, "Caught panic:\r\n\r\nboom\r\n")
	got := c.Stop()
	if os.Stderr != orig {
		t.Error("os.Stderr not restored")
	}
	if got != "Caught panic:\n\nboom\n" {
		t.Errorf("captured %q", got)
	}
	var nilCapture *crash.Capture
	if nilCapture.Stop() != "" {
		t.Error("a nil capture returns text")
	}
}
