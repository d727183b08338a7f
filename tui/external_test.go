package tui

import (
	"encoding/json"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"evalview/model"
	"evalview/tui/detail"
)

// externalClasses are the kinds of bytes a record may hold that a pager
// printing raw (PAGER=cat, less -r) would hand the terminal, one each.
var externalClasses = map[string]string{
	"OSC 52 clipboard write": "\x1b]52;c;aGk=\x07",
	"OSC window title":       "\x1b]2;pwned\x1b\\",
	"DCS":                    "\x1bP1$r\x1b\\",
	"APC":                    "\x1b_Gpayload\x1b\\",
	"CSI":                    "\x1b[2J\x1b[H",
	"C1 CSI":                 "\u009b31m",
	"C1 OSC":                 "\u009d52;c;aGk=\u009c",
	"C1 DCS and APC":         "\u0090q\u009c\u009fx\u009c",
	"bidi override":          "\u202eevil\u202c",
	"bidi isolate":           "\u2067x\u2069",
	"BEL and BS":             "\x07\x08",
	"invalid UTF-8":          "\xff\xfe",
}

// TestPagerCopyIsTerminalSafe: the temporary copy `o` and `e` hand the
// pager or editor holds none of those bytes raw, in text (shown as the
// screen shows them) or in record JSON (\u escapes, still JSON); `cat`
// run on it, as PAGER=cat would be, prints nothing a terminal acts on.
// Before, the copy kept them all, and an OSC 52 write reached the
// clipboard through PAGER=cat.
func TestPagerCopyIsTerminalSafe(t *testing.T) {
	if _, err := exec.LookPath("cat"); err != nil {
		t.Skip("no cat")
	}
	for name, bytes := range externalClasses {
		t.Run(name, func(t *testing.T) {
			for _, c := range []detail.Clip{
				{What: "response", Text: "before " + bytes + " after\n"},
				{What: "record JSON", Text: `{"response": "before ` + bytes + ` after"}`, JSON: true},
			} {
				for _, editor := range []bool{false, true} {
					file, err := externalFile(c, editor)
					if err != nil {
						t.Fatal(err)
					}
					out, err := externalCommand("cat", file).Output()
					fi, serr := os.Lstat(file)
					os.Remove(file)
					if err != nil || serr != nil {
						t.Fatal(err, serr)
					}
					if why := terminalUnsafe(string(out)); why != "" || strings.Contains(string(out), "\x1b") {
						t.Errorf("%s (editor %v): %s: %q", c.What, editor, why, out)
					}
					if !strings.Contains(string(out), "before ") || !strings.Contains(string(out), " after") {
						t.Errorf("%s: the text around is lost: %q", c.What, out)
					}
					want := os.FileMode(0o400)
					if editor {
						want = 0o600
					}
					if runtime.GOOS != "windows" && fi.Mode().Perm() != want {
						t.Errorf("%s (editor %v): mode %v, want %v", c.What, editor, fi.Mode().Perm(), want)
					}
				}
			}
		})
	}
}

// TestPagerGetsTheFocusedRecordSafely: the whole path from the browser,
// a record whose response holds every class: the pager's copy of the
// record JSON (the list has the focus) and of the response (the detail)
// is terminal-safe.
func TestPagerGetsTheFocusedRecordSafely(t *testing.T) {
	ds := sampleFixture()
	rec, _ := ds.Records.Record(0)
	var all strings.Builder
	for _, b := range externalClasses {
		all.WriteString(b + "|")
	}
	rec.Attempts = []model.Attempt{{Index: 1, Text: all.String(), Status: model.StatusPass}}
	// As a careless writer leaves them: C0 escaped, C1 and bidi raw.
	resp, _ := json.Marshal(all.String())
	rec.Raw = []model.RawPart{{Label: "record", JSON: []byte(`{"id":"weather-001","response":` + string(resp) + `}`)}}
	m := newTestModel(t, []*model.Dataset{ds}, 120, 30)
	for _, focus := range []string{"list", "detail"} {
		if focus == "detail" {
			press(m, "tab")
			for i, tab := range m.detail.Tabs() {
				if tab.Content == model.TabAttempts {
					drive(m, m.detail.ChooseTab(i))
				}
			}
		}
		c, ok := m.focusedClipFor(true)
		if !ok || c.Absent != "" {
			t.Fatalf("%s: nothing to open", focus)
		}
		file, err := externalFile(c, false)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(file)
		os.Remove(file)
		if why := terminalUnsafe(string(b)); why != "" || strings.Contains(string(b), "\x1b") {
			t.Errorf("%s focus, %s: %s", focus, c.What, why)
		}
		if want := map[string]string{"list": "record JSON", "detail": "response"}[focus]; c.What != want {
			t.Errorf("%s focus opens the %s, want the %s", focus, c.What, want)
		}
	}
}
