package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// screenOf builds a 40-row screen from rows, padded with empty rows
// before the last n (a viewer's bars at the bottom).
func screenOf(top []string, bottom ...string) string {
	rows := append([]string{}, top...)
	for len(rows)+len(bottom) < screenH {
		rows = append(rows, "")
	}
	return strings.Join(append(rows, bottom...), "\n")
}

// testTexts describes a file of 20 docs whose last doc asks what doc 7
// asks.
func testTexts() fileTexts {
	return fileTexts{
		docTexts: docTexts{first: "A train travels at", last: "Omar earns $4100", docs: 20,
			lastQuestion: "Omar earns $4100 every month.", lastFilter: "maj@8", lastHash: strings.Repeat("ab", 32)},
		lastID: 19, search: "Omar earns $4100 every", hitID: 7, rows: 60,
	}
}

func viewerNamed(t *testing.T, vs []viewer, name string) viewer {
	t.Helper()
	for _, v := range vs {
		if v.name == name {
			return v
		}
	}
	t.Fatalf("no viewer %q", name)
	return viewer{}
}

// TestViewerScreens: each viewer's predicates tell its first record, its
// last and a search's hit apart on screens as the tools draw them.
func TestViewerScreens(t *testing.T) {
	d := testTexts()
	baselines = baselineConfig{tools: []string{"less", "lnav", "vd", "statusquo"}, python: "python3", statusquo: "statusquo.py"}
	lookPath = func(name string) (string, error) { return name, nil }
	defer func() { lookPath = exec.LookPath }()
	vs, missing := viewers("evalview", "f.jsonl", d)
	if len(vs) != 5 || len(missing) != 0 {
		t.Fatalf("%d viewers, missing %v", len(vs), missing)
	}
	type check struct {
		what   string
		pred   func(string) bool
		screen string
		want   bool
	}
	raw := func(id int, q string) string { return rawHead(id, q) + ` more text"}, "target": "x"` }
	var checks []check

	ev := viewerNamed(t, vs, "evalview")
	checks = append(checks,
		check{"evalview first, at the top", ev.first, screenOf([]string{"▸ ✓ 0 A train travels at 44…"}, " 1/20 │ filter score-first", "? help"), true},
		check{"evalview first, at 11/20", ev.first, screenOf([]string{"▸ ✓ 10 A train travels at 44…"}, " 11/20 │ filter", "? help"), false},
		check{"evalview last", ev.last, screenOf([]string{"▸ ✗ 19 Omar earns $4100 every…"}, " 20/20 │ filter", "? help"), true},
		check{"evalview last, still indexing", ev.last, screenOf([]string{"▸ ✗ 12 Mei's hens lay…"}, " 13/13 of 20 │ indexing…"), false},
		check{"evalview hit", ev.found, screenOf([]string{"▸ ✗ 7 Omar earns $4100 every…"}, " 8/20 │ /Omar earns $4100 every 1/2 in list"), true},
		check{"evalview loaded", ev.loaded, screenOf(nil, " 1/20 │ filter", "x wrong • ? help"), true},
		check{"evalview still indexing", ev.loaded, screenOf(nil, " 1/13 of 20 │ ⠹ indexing…", "? help"), false},
	)

	less := viewerNamed(t, vs, "less")
	line := raw(0, "A train travels at 44 miles")
	checks = append(checks,
		// A long line wraps at the screen's width, cutting the text.
		check{"less first, wrapped", less.first, screenOf([]string{line[:30], line[30:]}, ":"), true},
		check{"less last", less.last, screenOf([]string{`"doc_hash": "` + d.lastHash[:40], d.lastHash[40:] + `", "exact_match": 1.0}`}, "(END)"), true},
		check{"less hit at the top", less.found, screenOf([]string{raw(7, "Omar earns $4100 every month.")}, ":"), true},
		check{"less hit below the top", less.found, screenOf([]string{raw(3, "A shop"), raw(7, "Omar earns $4100 every month.")}, ":"), false},
		check{"less prompt echoing the search", less.found, screenOf([]string{raw(0, "A train")}, "/Omar earns $4100 every"), false},
	)

	lnav := viewerNamed(t, vs, "lnav")
	bars := []string{" L1957     100%   ", "", ""}
	checks = append(checks,
		check{"lnav opens on records", lnav.opens, screenOf([]string{" 2026-12-02T00:36:55 UTC", " TEXT ❭f.jsonl❭", raw(18, "Lena"), raw(19, "Omar earns $4100")}, bars...), true},
		check{"lnav loading", lnav.opens, screenOf([]string{" 2026-12-02T00:36:55 UTC", " LOG ❭"}, " L0   0%", "", ""), false},
		check{"lnav last at 100%", lnav.last, screenOf([]string{"", "", raw(19, "Omar earns $4100")}, bars...), true},
		check{"lnav last's other rows, at the top", lnav.last, screenOf([]string{"", "", raw(19, "Omar earns $4100")}, " L0   0%", "", ""), false},
		check{"lnav hit", lnav.found, screenOf([]string{"", "", raw(6, "A shop"), raw(7, "Omar earns $4100")}, " L6   33%   Hit 1 of 3 for “Omar earns”", "", ""), true},
		check{"lnav hit in view, no count yet", lnav.found, screenOf([]string{"", "", raw(7, "Omar earns $4100")}, " L6   33%   0 hits for “Omar earns”", "", ""), false},
	)

	vd := viewerNamed(t, vs, "vd")
	vdRow := func(id int, q, filter string) string {
		return fmt.Sprintf("%7d │ {2} question=%s…│ First it covers 44…│ [1] 266        │ %s", id, q, filter)
	}
	checks = append(checks,
		check{"vd first", vd.first, screenOf([]string{" doc_id#│ doc", vdRow(0, "A tra", "score-f…")}, "1› f| 39 rows"), true},
		check{"vd doc 10, not 0", vd.first, screenOf([]string{" doc_id#│ doc", vdRow(10, "A tra", "score-f…")}, "1› f| 39 rows"), false},
		check{"vd last", vd.last, screenOf([]string{vdRow(18, "Lena ", "maj@8"), vdRow(19, "Omar ", "maj@8")}, "1› f| 60 rows"), true},
		// The filter column off the screen (VisiData sized the others
		// wider): the bottom row, every row read, is the last.
		check{"vd last, no filter column", vd.last, screenOf([]string{"  19 │ {2} question=Omar …│ {1} gen_args_0={2} arg_0=Q: There are 15…"}, "1› f|   Shift+G   go-bottom     60 rows  •0"), true},
		check{"vd last doc's earlier row, rows still read", vd.last, screenOf([]string{vdRow(19, "Omar ", "score-f…")}, "1› f| 40 rows"), false},
		check{"vd last doc above the bottom row", vd.last, screenOf([]string{vdRow(19, "Omar ", "score-f…"), vdRow(0, "A tra", "maj@8")}, "1› f| 60 rows"), false},
		check{"vd 600 rows is not 60", vd.last, screenOf([]string{vdRow(19, "Omar ", "maj@8")}, "1› f| 600 rows"), false},
	)

	sq := viewerNamed(t, vs, "statusquo.py | less")
	checks = append(checks,
		check{"statusquo first", sq.first, screenOf([]string{"doc_id 0 | score-first | exact_match=1.0 | ['266']", "    A train travels at 44 miles"}, ":"), true},
		check{"statusquo last", sq.last, screenOf([]string{"doc_id 19 | maj@8 | exact_match=0.0 | ['7']", "    Omar earns $4100 every month."}, "(END)"), true},
		check{"statusquo last doc's first row", sq.last, screenOf([]string{"doc_id 19 | score-first | exact_match=0.0 | ['7']", "    Omar earns $4100 every month."}, "(END)"), false},
		check{"statusquo hit", sq.found, screenOf([]string{"    Omar earns $4100 every month.", "doc_id 8 | score-first | …"}, ":"), true},
	)
	for _, c := range checks {
		if got := c.pred(c.screen); got != c.want {
			t.Errorf("%s: %v, want %v; the screen:\n%s", c.what, got, c.want, c.screen)
		}
	}
	if vd.search != nil || vd.noSearch == "" {
		t.Errorf("vd: a search, or no word on why not")
	}
}

// TestSearchTarget: the text searched for is the last doc's question's
// shortest prefix on no more rows than the question, and its hit is the
// first doc holding it, with that row's place.
func TestSearchTarget(t *testing.T) {
	if _, err := exec.LookPath("grep"); err != nil {
		t.Skip("no grep")
	}
	q := func(id int, question string) string {
		return fmt.Sprintf(`{"doc_id": %d, "doc": {"question": %q}, "filter": "none"}`+"\n", id, question)
	}
	lines := []string{
		q(0, "Omar earns $4100 every week and spends it."),
		q(1, "A shop has 55 shirts."),
		q(2, "Omar earns $4100 every month and saves it."),
		q(3, "Omar earns $4100 every month and saves it."),
	}
	path := filepath.Join(t.TempDir(), "samples_x.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	text, hit, at, err := searchTarget(path, "Omar earns $4100 every month and saves it.")
	if err != nil {
		t.Fatal(err)
	}
	// Four words are on doc 0 too; "every month" only on docs 2 and 3.
	if text != "Omar earns $4100 every month" || hit != 2 || at != int64(len(lines[0])+len(lines[1])) {
		t.Errorf("got %q, doc %d at %d; want the five words, doc 2 at %d", text, hit, at, len(lines[0])+len(lines[1]))
	}
	if text, _, _, err := searchTarget(path, "Nobody asks this."); err != nil || text != "" {
		t.Errorf("a question on no row: %q, %v", text, err)
	}
}

// TestFigure: ratios keep two significant digits or more.
func TestFigure(t *testing.T) {
	for x, want := range map[float64]string{0.3125: "0.31", 4.21: "4.21", 38.44: "38.4", 1277.4: "1277"} {
		if got := figure(x); got != want {
			t.Errorf("figure(%v) = %q, want %q", x, got, want)
		}
	}
	if got := cell("statusquo.py | less"); got != `statusquo.py \| less` {
		t.Errorf("cell: %q", got)
	}
}

// TestCountLines: a file's lines, its last counted with or without its
// line end.
func TestCountLines(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		text string
		want int
	}{{"", 0}, {"a\n", 1}, {"a\nb", 2}, {"a\nb\n", 2}, {strings.Repeat("x\n", 3<<20), 3 << 20}} {
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if n, err := countLines(path); err != nil || n != c.want {
			t.Errorf("%d bytes: %d lines, %v; want %d", len(c.text), n, err, c.want)
		}
	}
}

// TestMeasureOwnPeak: a measured command's peak memory is its own, not
// evalbench's (which the kernel's figure for a child it starts never
// falls below).
func TestMeasureOwnPeak(t *testing.T) {
	if !gnuTime() {
		t.Skip("no GNU time at /usr/bin/time")
	}
	held := make([]byte, 256<<20)
	for i := 0; i < len(held); i += 4096 {
		held[i] = 1
	}
	r, err := measureOnce("true")
	if err != nil {
		t.Fatal(err)
	}
	if r.rssMB <= 0 || r.rssMB > 64 {
		t.Errorf("true's peak: %.0f MB, with 256 MB held here", r.rssMB)
	}
	held[len(held)-1] = 2 // held until true ran
}
