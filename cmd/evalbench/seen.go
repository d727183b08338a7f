package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"evalview/loaders/lmevalgen"
)

// The user-seen table (issue 23): on the same file in the same run, the
// first screen of evalview against less's, the search typed in the
// browser against grep, summary --json against cat, and G and enter at
// the end of the file, each timed on an emulated terminal's screen
// (screen.go). Each figure is the fastest of -runs runs; memory is the
// browser's peak while it indexed and searched. A first screen's CPU
// column is the CPU time the program's threads had used by then (the
// least of the runs): on a busy machine the wall time mostly says how
// long the program waited for a core.

// seenLimit bounds how long a browser session waits for a screen.
const seenLimit = 3 * time.Minute

// docTexts are texts of a generated samples file that the screens show:
// the first and last docs' questions (their first words) and the number
// of docs; and of the file's last row, the whole question, the filter
// and the doc's hash.
type docTexts struct {
	first, last string
	docs        int

	lastQuestion, lastFilter, lastHash string
}

// readDocTexts reads the first and last lines of a generated samples
// file.
func readDocTexts(path string) (docTexts, error) {
	var d docTexts
	f, err := os.Open(path)
	if err != nil {
		return d, err
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	first, _, _ := bytes.Cut(head[:n], []byte("\n"))
	st, err := f.Stat()
	if err != nil {
		return d, err
	}
	tail := make([]byte, min(st.Size(), 4<<20))
	if _, err := f.ReadAt(tail, st.Size()-int64(len(tail))); err != nil {
		return d, err
	}
	tail = bytes.TrimRight(tail, "\n")
	last := tail[bytes.LastIndexByte(tail, '\n')+1:]
	var q0, q1 struct {
		DocID int `json:"doc_id"`
		Doc   struct {
			Question string `json:"question"`
		} `json:"doc"`
		Filter  string `json:"filter"`
		DocHash string `json:"doc_hash"`
	}
	if err := json.Unmarshal(first, &q0); err != nil {
		return d, fmt.Errorf("%s: first line: %v", path, err)
	}
	if err := json.Unmarshal(last, &q1); err != nil {
		return d, fmt.Errorf("%s: last line: %v", path, err)
	}
	d.first, d.last, d.docs = words(q0.Doc.Question, 20), words(q1.Doc.Question, 20), q1.DocID+1
	d.lastQuestion, d.lastFilter, d.lastHash = q1.Doc.Question, q1.Filter, q1.DocHash
	return d, nil
}

// words returns s's first words, at most n bytes: a prefix that a list
// row shows untruncated.
func words(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	return s
}

// measureSeen is the user-seen table of one big file: every viewer side
// by side (baselines.go), then evalview's own: the search typed at the
// first screen and once indexed, against grep, summary --json against
// cat, and enter on the last record.
func measureSeen(bin, path, label, word string, memBudget float64) ([]row, error) {
	d, err := readDocTexts(path)
	if err != nil {
		return nil, err
	}
	rows, side, err := compareRows(bin, path, label, memBudget)
	if err != nil {
		return nil, err
	}
	sides = append(sides, side...)
	q := shellQuote(path)

	cat, err := shell("cat " + q + " > /dev/null")
	if err != nil {
		return nil, err
	}
	sum, err := measure(bin, "summary", "--json", path)
	if err != nil {
		return nil, err
	}
	rows = append(rows,
		row{size: label, what: "seen: cat > /dev/null", secs: cat.secs, cpu: cat.cpu},
		row{size: label, what: "seen: evalview summary --json", secs: sum.secs, cpu: sum.cpu, rss: sum.rssMB,
			ratio: fmt.Sprintf("%.2fx cat", sum.secs/cat.secs)})

	m1, err := shell("grep -i -m1 -- " + shellQuote(word) + " " + q + " > /dev/null")
	if err != nil {
		return nil, err
	}
	gc, err := shell("grep -i -c -- " + shellQuote(word) + " " + q)
	if err != nil {
		return nil, err
	}
	var s searchSeen
	for i := range repeats {
		r, err := searchOnce(bin, path, word, d)
		if err != nil {
			return nil, err
		}
		s = s.best(r, i == 0)
	}
	countsOK, countsNote := s.countsAgree()
	rows = append(rows,
		row{size: label, what: fmt.Sprintf("seen: grep -i -m1 %q", word), secs: m1.secs},
		row{size: label, what: fmt.Sprintf("seen: grep -i -c %q (%s lines)", word, strings.TrimSpace(gc.out)), secs: gc.secs},
		row{size: label, what: fmt.Sprintf("seen: evalview, /%s enter at the first screen, until the first hit shows", word), secs: s.hit.Seconds(),
			ratio:  fmt.Sprintf("%.0f ms after enter, %.2fx grep -m1", s.hitAfter.Seconds()*1000, s.hitAfter.Seconds()/m1.secs),
			target: frameTarget + " after enter", ok: s.hitAfter <= frame},
		row{size: label, what: fmt.Sprintf("seen: evalview, … until the count is complete (%d records, index and search together)", s.count), secs: s.countLaunch.Seconds(), rss: s.rssMB,
			ratio: countsNote, target: fmt.Sprintf("≤ %.0f MB, every count the same", memBudget), ok: s.rssMB <= memBudget && countsOK},
		row{size: label, what: fmt.Sprintf("seen: evalview, /%s enter once indexed, until the count is complete", word), secs: s.countIndexed.Seconds(),
			ratio: fmt.Sprintf("%.2fx grep -c", s.countIndexed.Seconds()/gc.secs), target: "≤ 2x grep -c", ok: s.countIndexed.Seconds() <= 2*gc.secs},
		row{size: label, what: "seen: evalview, enter on the last record, until the screen changes", secs: s.enter.Seconds(), target: frameTarget, ok: s.enter <= frame},
	)
	return rows, nil
}

// searchSeen is one run's search figures.
type searchSeen struct {
	// hit is from the start to the first hit on screen; hitAfter from
	// the enter; countLaunch from the start to the complete count;
	// countIndexed from the enter to the complete count, when the file
	// was indexed before; enter from the key on the last record (G took
	// the list there) until the screen changed.
	hit, hitAfter, countLaunch, countIndexed time.Duration
	enter                                    time.Duration
	count                                    int
	// counts are every complete count read on screen, of every run and
	// both sessions: they must all be the same.
	counts []int
	rssMB  float64
}

// countsAgree reports whether every complete count was the same, and
// lists them when not.
func (s searchSeen) countsAgree() (bool, string) {
	for _, c := range s.counts {
		if c != s.counts[0] {
			return false, fmt.Sprintf("counts differ: %v", s.counts)
		}
	}
	return true, ""
}

// best keeps the fastest of each figure and the highest memory.
func (s searchSeen) best(r searchSeen, first bool) searchSeen {
	if first {
		return r
	}
	pick := func(a, b time.Duration) time.Duration { return min(a, b) }
	s.hit, s.hitAfter, s.countLaunch = pick(s.hit, r.hit), pick(s.hitAfter, r.hitAfter), pick(s.countLaunch, r.countLaunch)
	s.countIndexed, s.enter = pick(s.countIndexed, r.countIndexed), pick(s.enter, r.enter)
	s.rssMB = max(s.rssMB, r.rssMB)
	s.counts = append(s.counts, r.counts...)
	return s
}

// searchOnce runs the browser twice: once searching at the first screen
// (the first hit, then the complete count while the index still grows,
// and the peak memory), once searching after the index is complete, then
// pressing G (timed beside the other viewers, in baselines.go) and
// enter.
func searchOnce(bin, path, word string, d docTexts) (searchSeen, error) {
	var s searchSeen
	hitRE := regexp.MustCompile(regexp.QuoteMeta("/"+word) + ` 1/\d+`)
	countRE := regexp.MustCompile(regexp.QuoteMeta("/"+word) + ` 1/(\d+) in list`)

	t, err := startTerm(nil, bin, path)
	if err != nil {
		return s, err
	}
	if _, err := t.waitFor(contains(d.first), seenLimit); err != nil {
		t.stop("q")
		return s, err
	}
	at, err := typeSearch(t, word)
	if err != nil {
		t.stop("q")
		return s, err
	}
	if s.hit, err = t.waitFor(hitRE.MatchString, seenLimit); err != nil {
		t.stop("q")
		return s, fmt.Errorf("first hit: %w", err)
	}
	s.hitAfter = s.hit - at
	if s.countLaunch, err = t.waitFor(countRE.MatchString, seenLimit); err != nil {
		t.stop("q")
		return s, fmt.Errorf("count: %w", err)
	}
	scr, _ := t.screen()
	if m := countRE.FindStringSubmatch(scr); m != nil {
		s.count, _ = strconv.Atoi(m[1])
		s.counts = append(s.counts, s.count)
	}
	s.rssMB = peakRSS(t.pid())
	t.stop("q")

	t, err = startTerm(nil, bin, path)
	if err != nil {
		return s, err
	}
	defer t.stop("q")
	if _, err := t.waitFor(func(scr string) bool {
		// The status bar is the last row a frame draws: a screen read
		// while a frame is half written shows the rows without it, and
		// so without "indexing…" (which made this wait end at once).
		return strings.Contains(scr, d.first) && strings.Contains(scr, "? help") && !strings.Contains(scr, "indexing")
	}, seenLimit); err != nil {
		return s, fmt.Errorf("index: %w", err)
	}
	if at, err = typeSearch(t, word); err != nil {
		return s, err
	}
	done, err := t.waitFor(countRE.MatchString, seenLimit)
	if err != nil {
		return s, fmt.Errorf("count once indexed: %w", err)
	}
	s.countIndexed = done - at
	if scr, _ := t.screen(); countRE.MatchString(scr) {
		n, _ := strconv.Atoi(countRE.FindStringSubmatch(scr)[1])
		s.counts = append(s.counts, n)
	}

	settle(t)
	if _, err = t.send("G"); err != nil {
		return s, err
	}
	pos := fmt.Sprintf("%d/%d", d.docs, d.docs)
	if _, err = t.waitFor(func(scr string) bool { return strings.Contains(scr, pos) && strings.Contains(scr, d.last) }, seenLimit); err != nil {
		return s, fmt.Errorf("G: %w", err)
	}
	settle(t)
	before, _ := t.screen()
	if at, err = t.send("\r"); err != nil {
		return s, err
	}
	done, err = t.waitFor(func(scr string) bool { return scr != before }, seenLimit)
	if err != nil {
		return s, fmt.Errorf("enter: %w", err)
	}
	s.enter = done - at
	return s, nil
}

// typeSearch opens the search, pastes word and presses enter, as a user
// pasting a query does, and returns when the keys were sent.
func typeSearch(t *termSession, word string) (time.Duration, error) {
	at, err := t.send("/")
	if err != nil {
		return 0, err
	}
	if err := t.paste(word); err != nil {
		return 0, err
	}
	_, err = t.send("\r")
	return at, err
}

// settle waits until the screen has not changed for a while (a record
// loading, a spinner stopping), so that the next key's figure is its own.
func settle(t *termSession) {
	_, v := t.screen()
	for range 20 {
		time.Sleep(300 * time.Millisecond)
		_, w := t.screen()
		if w == v {
			return
		}
		v = w
	}
}

// seenConfig is what the -seen flags ask for.
type seenConfig struct {
	on    bool
	small int
	word  string
}

// seenOpts are the -seen flags of this run.
var seenOpts seenConfig

// sides are the lines of the side-by-side table of this run.
var sides []sideRow

// seenSmallFile generates a samples file of seenOpts.small docs in dir
// (or reuses it), runs every viewer on it once untimed (lnav and vd set
// up their HOME at their first start, and every program's binary is read
// into the page cache), and measures every viewer on it.
func seenSmallFile(dir, bin string) ([]row, error) {
	if !seenOpts.on {
		return nil, nil
	}
	small := max(seenOpts.small, 1)
	path, err := generated(filepath.Join(dir, fmt.Sprintf("docs-%d", small)), lmevalgen.Config{Docs: small, Repeats: 64})
	if err != nil {
		return nil, err
	}
	if err := warmUp(bin, path); err != nil {
		return nil, err
	}
	if seenOpts.small <= 0 {
		return nil, nil
	}
	label := fmt.Sprintf("%d records", seenOpts.small)
	rows, side, err := compareRows(bin, path, label, 150+0.05*fileMB(path))
	sides = append(sides, side...)
	return rows, err
}

// warmUp runs every viewer once on path, untimed.
func warmUp(bin, path string) error {
	d, err := readFileTexts(path)
	if err != nil {
		return err
	}
	vs, _ := viewers(bin, path, d)
	for _, v := range vs {
		fmt.Fprintf(os.Stderr, "warming up %s…\n", v.name)
		if _, err := compareOnce(v, d.search); err != nil {
			return err
		}
	}
	return nil
}

// fileMB is a file's size in MB (0 when it cannot be read).
func fileMB(path string) float64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return float64(st.Size()) / 1e6
}
