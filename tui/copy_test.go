package tui

import (
	"bytes"
	"encoding/base64"
	"io"
	"strings"
	"testing"
	"time"

	"evalview/model"
	"evalview/tui/detail"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// osc52 is the OSC 52 sequence that puts s on the system clipboard.
func osc52(s string) []byte {
	return []byte("\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(s)) + "\x07")
}

func TestCopyOSC52(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	t.Setenv("DISPLAY", "") // no system clipboard tool in tests
	t.Setenv("WAYLAND_DISPLAY", "")
	m := New(allFixtures(), Options{Theme: "dark"})
	// Doc 1 is read when j reaches it, off the event loop, and doc 0 has
	// a Responses tab too: with doc 1 in the cache, y cannot copy doc 0's
	// response because the read came late.
	ds := m.datasets[0]
	doc1, _ := ds.Records.Record(1)
	m.records.put(recordKey{ds, 1}, doc1)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	// Everything the program wrote, as WaitFor consumes the output.
	var all bytes.Buffer
	waitFor := func(what string) {
		t.Helper()
		var seen []byte
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			seen = b
			return bytes.Contains([]byte(ansi.Strip(string(b))), []byte(what))
		}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
		all.Write(seen)
	}
	waitFor("gsm8k")
	tm.Send(keyMsg("j"))   // doc 1
	tm.Send(keyMsg("tab")) // the detail
	tm.Send(keyMsg("2"))   // Responses
	waitFor("[2 Responses]")
	tm.Send(keyMsg("y"))
	waitFor("copied response")
	tm.Send(keyMsg("Y"))
	waitFor("path of the response")
	tm.Send(keyMsg("tab")) // the list: the record's JSON
	tm.Send(keyMsg("y"))
	waitFor("record JSON (")
	tm.Send(keyMsg("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(*Model)
	rest, _ := io.ReadAll(tm.FinalOutput(t))
	out := append(all.Bytes(), rest...)
	rec := fm.detail.Record()
	want := map[string]string{
		"response":    "Let me think step by step (repeat 1). The answer is 3.",
		"path":        ".resps[0][0]",
		"record JSON": detail.RecordJSON(rec),
	}
	for what, text := range want {
		if !bytes.Contains(out, osc52(text)) {
			t.Errorf("output lacks the OSC 52 sequence of the %s %q", what, text)
		}
	}
	if !strings.HasPrefix(want["record JSON"], "[\n{\n  \"doc_id\": 1") {
		t.Errorf("record JSON: %s", want["record JSON"])
	}
}

func TestCopyPaths(t *testing.T) {
	tests := []struct {
		keys     []string
		what     string
		path     string
		textHave string
	}{
		{[]string{"j"}, "record JSON", ".", `"doc_id": 1`},
		{[]string{"j", "tab", "2"}, "response #1", ".resps[0][0]", "The answer is 3."},
		{[]string{"j", "tab", "1"}, "prompt", ".arguments[0][0]", "A robe takes"},
		{[]string{"j", "tab", "3"}, "extracted answer", ".filtered_resps[0]", "[invalid]"},
		{[]string{"j", "tab", "4"}, "field question", ".doc.question", "A robe takes"},
		// The fixture's one prediction is predict_result[1] (Index is
		// 0-based for Sample, as the loader sets it).
		{[]string{"<", "tab", "2"}, "response", ".predict_result[1].message.content", "B"},
	}
	for _, tc := range tests {
		m := newTestModel(t, allFixtures(), 100, 30)
		press(m, tc.keys...)
		c, ok := m.focusedClipFor(true)
		if !ok || c.What != tc.what || c.Path != tc.path || !strings.Contains(c.Text, tc.textHave) {
			t.Errorf("%v: clip %q %q %q", tc.keys, c.What, c.Path, c.Text)
		}
	}
}

// TestCopyPathNote: Y says which path it copied, not its byte count.
func TestCopyPathNote(t *testing.T) {
	t.Setenv("DISPLAY", "") // no system clipboard tool in tests
	t.Setenv("WAYLAND_DISPLAY", "")
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
	press(m, "Y")
	s := screen(m)
	if !strings.Contains(s, "copied path of the record JSON: .") || strings.Contains(s, "bytes)") {
		t.Errorf("status bar does not name the copied path:\n%s", s)
	}
}
