package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"evalview/loaders/lmevalgen"
)

// The tools people use today (issue 31), measured beside evalview in the
// same run, on the same files, through the same emulated terminal
// (screen.go): less, lnav, VisiData and the status-quo script
// (scripts/statusquo.py piped through less), each started as a user
// types it. Every viewer is driven the same way: the time from the start
// until its screen shows the file's records, the end key pressed at that
// first screen until the last record shows, the end key again once the
// file is read, a search for the last doc's question once the file is
// read, and the most memory its processes held. evalview's figures are
// judged against one 60 Hz frame; each tool's against evalview's ("ahead
// of" is the target).

// frame is one 60 Hz frame: the first screen and every key's answer are
// to show within it.
const frame = time.Second / 60

// frameTarget is how the table names the frame target.
const frameTarget = "≤ 16.7 ms"

// baselineConfig is what the -baselines flags ask for.
type baselineConfig struct {
	tools     []string      // less, lnav, vd, statusquo
	statusquo string        // the script's path
	python    string        // the python3 interpreter that runs it
	memMB     float64       // a viewer holding more is stopped (0: no limit)
	timeout   time.Duration // the longest a viewer's screen is waited for
	slow      time.Duration // a viewer run that took longer is not repeated
	home      string        // HOME for the tools (lnav and vd write there)
}

// baselines are the -baselines flags of this run.
var baselines baselineConfig

// viewer is a program a user opens a samples file with.
type viewer struct {
	name string   // as the table names it
	argv []string // the command a user types
	env  []string
	quit string
	// opens tells when the first screen shows records; note says what it
	// shows when that is not the first record.
	opens func(string) bool
	note  string
	// first and last tell whether the screen shows the file's first and
	// last record; top and end are the keys that go there.
	first, last func(string) bool
	top, end    string
	// loaded tells that the viewer has read the whole file (nil: it has
	// once the last record showed).
	loaded func(string) bool
	// search types a search for text, returning when its last key (the
	// enter) was sent; found tells that its hit shows, and after are
	// keys sent then. search is nil where the viewer cannot search the
	// records' text, and noSearch says why.
	search   func(t *termSession, text string) (time.Duration, error)
	found    func(string) bool
	after    string // keys sent once the hit shows
	noSearch string
	timeout  time.Duration
}

// fileTexts are what the viewers' screens show of a generated samples
// file: docTexts, the last doc's id, and the text the search looks for.
type fileTexts struct {
	docTexts
	lastID int
	// search is the text searched for (searchTarget; "": none), hitID
	// the doc of the first row holding it, hitAt that row's place in
	// the file.
	search string
	hitID  int
	hitAt  int64
	// rows is the file's lines (a doc's row for each filter).
	rows int
}

// rawHead is how a doc's row begins in the file (the generator writes the
// keys in this order): a viewer showing raw lines shows it.
func rawHead(id int, question string) string {
	return fmt.Sprintf(`{"doc_id": %d, "doc": {"question": "%s`, id, question)
}

// viewers are evalview (bin) and the tools of this run that are
// installed, set up for the file d describes; missing names the others
// and why.
func viewers(bin, path string, d fileTexts) (vs []viewer, missing map[string]string) {
	missing = map[string]string{}
	n := d.docs
	// evalview: the list of docs, its status bar's position.
	firstPos := regexp.MustCompile(fmt.Sprintf(`(^|\s)1/%d(\s|$)`, n))
	lastPos := fmt.Sprintf("%d/%d", n, n)
	// The hit's question begins with the text searched for, so its row
	// shows the last doc's first words; the list is in doc order.
	hitPos := regexp.MustCompile(fmt.Sprintf(`(^|\s)%d/%d(\s|$)`, d.hitID+1, n))
	vs = append(vs, viewer{
		name: "evalview", argv: []string{bin, path}, quit: "q",
		opens: contains(d.first),
		first: func(s string) bool { return firstPos.MatchString(s) && strings.Contains(s, d.first) },
		last:  func(s string) bool { return strings.Contains(s, lastPos) && strings.Contains(s, d.last) },
		top:   "g", end: "G",
		loaded: func(s string) bool { return strings.Contains(s, "? help") && !strings.Contains(s, "indexing") },
		search: func(t *termSession, text string) (time.Duration, error) {
			if _, err := t.send("/"); err != nil {
				return 0, err
			}
			if err := t.paste(text); err != nil {
				return 0, err
			}
			return t.send("\r")
		},
		found:   func(s string) bool { return hitPos.MatchString(s) && strings.Contains(s, d.last) },
		timeout: seenLimit,
	})
	env := []string{"HOME=" + baselines.home, "LESSHISTFILE=-"}
	// A pager wraps a long line: its rows are read joined, without the
	// prompt line (which echoes a search as it is typed). A search's hit
	// is the line a pager puts at the top.
	inPager := func(text string) func(string) bool {
		return func(s string) bool { return strings.Contains(joined(s, 1), text) }
	}
	atTop := func(text string) func(string) bool {
		return func(s string) bool { return strings.HasPrefix(joined(s, 1), text) }
	}
	lessSearch := func(t *termSession, text string) (time.Duration, error) {
		// ^R: the text as it is, not a regular expression.
		if _, err := t.send("/\x12" + text); err != nil {
			return 0, err
		}
		return t.send("\r")
	}
	firstRaw, lastRaw, hitRaw := rawHead(0, d.first), rawHead(d.lastID, d.last), rawHead(d.hitID, d.last)
	for _, name := range baselines.tools {
		var v viewer
		switch name {
		case "less":
			v = viewer{
				name: "less", argv: []string{"less", path}, quit: "q",
				first: inPager(firstRaw), last: inPager(d.lastHash), top: "g", end: "G",
				search: lessSearch, found: atTop(rawHead(d.hitID, d.search)),
			}
			v.opens = v.first
		case "lnav":
			// lnav shows a text file from its end, once it has indexed
			// it; its rows are cut at the terminal's width.
			inView := func(text string) func(string) bool {
				return func(s string) bool {
					for _, r := range rows(s, 4) {
						if strings.HasPrefix(r, text) {
							return true
						}
					}
					return false
				}
			}
			// Its status line counts a search's hits ("0 hits for" while it
			// has found none).
			hits := regexp.MustCompile(`([1-9]\d* hits?|Hit \d+ of \d+) for`)
			v = viewer{
				name: "lnav", argv: []string{"lnav", path}, quit: "q",
				opens: inView(`{"doc_id": `), note: "at the file's end, where lnav opens a text file",
				first: inView(firstRaw), top: "g", end: "G",
				last: func(s string) bool { return inView(lastRaw)(s) && strings.Contains(s, " 100%") },
				// lnav searches as the text is typed, and moves the view
				// to the first hit when it finds it with the prompt
				// still open; a hit found after the enter (the keys
				// typed at once) is only counted ("3 hits for …"), and
				// n goes to it, as a user then presses. The text waits
				// for the prompt: sent with the "/", it is lost.
				search: func(t *termSession, text string) (time.Duration, error) {
					if _, err := t.send("/"); err != nil {
						return 0, err
					}
					if _, err := t.waitFor(contains("Search for:"), 10*time.Second); err != nil {
						return 0, err
					}
					if _, err := t.send(regexp.QuoteMeta(text)); err != nil {
						return 0, err
					}
					at, err := t.send("\r")
					if err != nil {
						return 0, err
					}
					if _, err := t.waitFor(func(s string) bool { return hits.MatchString(s) || inView(hitRaw)(s) }, baselines.timeout); err != nil {
						return 0, err
					}
					if scr, _ := t.screen(); !inView(hitRaw)(scr) {
						_, err = t.send("n")
					}
					return at, err
				},
				found: func(s string) bool { return inView(hitRaw)(s) && hits.MatchString(s) },
			}
		case "vd":
			// VisiData's rows: the doc_id, then the doc, a dict shown as
			// "{2} question=A tra…".
			q := d.first[:min(len(d.first), 3)]
			firstRow := regexp.MustCompile(`(?m)^ +0 │ \{\d+\} question=` + regexp.QuoteMeta(q))
			// The last record is the bottom row once every row is read
			// (the status line counts the rows read). Which columns fit
			// the screen depends on the rows VisiData sized them by, so
			// the filter (the one column telling a doc's rows apart) may
			// not show: a doc's last row is told from its others by
			// being the bottom row when every row is read, since G puts
			// the cursor on the last row read and the rows after it fill
			// the screen below it.
			dataRow := regexp.MustCompile(`^ +(\d+) │ `)
			allRead := regexp.MustCompile(fmt.Sprintf(`(^|\s)%d rows(\s|$)`, d.rows))
			last := func(s string) bool {
				if !allRead.MatchString(s) {
					return false
				}
				rs := rows(s, 1)
				for i := len(rs) - 1; i >= 0; i-- {
					if m := dataRow.FindStringSubmatch(rs[i]); m != nil {
						return m[1] == strconv.Itoa(d.lastID)
					}
				}
				return false
			}
			v = viewer{
				name: "vd", argv: []string{"vd", path}, quit: "gq",
				first: firstRow.MatchString, last: last, top: "gg", end: "G",
				noSearch: "vd searches cells as shown; the question is in the doc column, a dict shown as {2} question=…, where / and g/ do not find it",
			}
			v.opens = v.first
		case "statusquo":
			// python3 statusquo.py FILE | less: two lines a record, the
			// first with its doc_id and filter.
			firstRec := "doc_id 0 | "
			lastRec := fmt.Sprintf("doc_id %d | %s | ", d.lastID, d.lastFilter)
			both := func(a, b string) func(string) bool {
				return func(s string) bool { s = joined(s, 1); return strings.Contains(s, a) && strings.Contains(s, b) }
			}
			v = viewer{
				name: "statusquo.py | less", argv: []string{"sh", "-c", `"$0" "$1" "$2" | less`, baselines.python, baselines.statusquo, path}, quit: "q",
				first: both(firstRec, d.first), last: both(lastRec, d.last), top: "g", end: "G",
				search: lessSearch, found: atTop("    " + d.search),
			}
			v.opens = v.first
		default:
			continue
		}
		if name == "statusquo" && baselines.python == "" {
			missing[v.name] = "python3 is not installed"
			continue
		}
		if _, err := lookPath(v.argv[0]); err != nil {
			missing[v.name] = v.argv[0] + " is not installed"
			continue
		}
		v.env, v.timeout = env, baselines.timeout
		vs = append(vs, v)
	}
	return vs, missing
}

// lookPath finds a viewer's program (a test's stand-in finds them all).
var lookPath = exec.LookPath

// viewSeen is what one viewer showed, and when.
type viewSeen struct {
	// first is from the start until the first screen, with the CPU its
	// processes had used by then; end from the start until the last
	// record showed, the end key pressed at the first screen (and again
	// every 50 ms, as a user presses it again while a file loads), and
	// endAfter from that first press.
	first, firstCPU, end, endAfter time.Duration
	// endLoaded is the end key once the file is read, until the last
	// record shows; search the enter of the search until its hit shows.
	endLoaded, search time.Duration
	peakMB            float64
	// stopped says why a run ended before its last figure (the rest are
	// zero); runs is how many runs the figures are the best of.
	stopped string
	runs    int
}

// compareOnce drives one viewer on the file once.
func compareOnce(v viewer, text string) (s viewSeen, err error) {
	t, err := startTerm(v.env, v.argv[0], v.argv[1:]...)
	if err != nil {
		return s, err
	}
	t.watch(baselines.memMB)
	defer func() {
		if s.peakMB == 0 {
			s.peakMB = t.peak()
		}
		t.stop(v.quit)
	}()
	// why turns a wait that failed into the run's stopped note, when the
	// viewer's own limits (memory, time) ended it.
	why := func(what string, err error) error {
		switch {
		case t.overLimit():
			s.stopped = fmt.Sprintf("stopped %s: over %.0f MB of memory %.0f s after the start", what, baselines.memMB, time.Since(t.start).Seconds())
			return nil
		case errors.Is(err, errTimeout):
			s.stopped = fmt.Sprintf("stopped %s: nothing within %s", what, v.timeout)
			scr, _ := t.screen()
			fmt.Fprintf(os.Stderr, "%s: %s; its screen:\n%s\n", v.name, s.stopped, scr)
			return nil
		}
		return fmt.Errorf("%s, %s: %w", v.name, what, err)
	}
	if s.first, err = t.waitFor(v.opens, v.timeout); err != nil {
		return s, why("before its first screen", err)
	}
	s.firstCPU = t.cpu()

	at, err := t.send(v.end)
	if err != nil {
		return s, err
	}
	deadline := time.Now().Add(v.timeout)
	for {
		s.end, err = t.waitFor(v.last, 50*time.Millisecond)
		if err == nil {
			break
		}
		if !errors.Is(err, errTimeout) || time.Now().After(deadline) {
			return s, why("before the last record showed", err)
		}
		if _, err := t.send(v.end); err != nil {
			return s, err
		}
	}
	s.endAfter = s.end - at
	if v.loaded != nil {
		if _, err := t.waitFor(v.loaded, v.timeout); err != nil {
			return s, why("while it read the file", err)
		}
	}
	settle(t)
	if err := goTo(t, v.top, v.first, v.timeout); err != nil {
		return s, why("going to the first record", err)
	}
	if at, err = t.send(v.end); err != nil {
		return s, err
	}
	done, err := t.waitFor(v.last, v.timeout)
	if err != nil {
		return s, why("going to the last record", err)
	}
	s.endLoaded = done - at
	if v.search != nil && text != "" {
		settle(t)
		if err := goTo(t, v.top, v.first, v.timeout); err != nil {
			return s, why("going to the first record", err)
		}
		if at, err = v.search(t, text); err != nil {
			return s, err
		}
		if done, err = t.waitFor(v.found, v.timeout); err != nil {
			return s, why("searching", err)
		}
		s.search = done - at
		if _, err := t.send(v.after); err != nil {
			return s, err
		}
	}
	s.peakMB = t.peak()
	return s, nil
}

// goTo presses key and waits for the screen to show what shown looks
// for, then for it to settle.
func goTo(t *termSession, key string, shown func(string) bool, timeout time.Duration) error {
	if _, err := t.send(key); err != nil {
		return err
	}
	if _, err := t.waitFor(shown, timeout); err != nil {
		return err
	}
	settle(t)
	return nil
}

// compare drives a viewer repeats times (once when a run takes longer
// than baselines.slow) and keeps each figure's best run, the highest
// memory, and the first reason a run stopped.
func compare(v viewer, text string) (viewSeen, error) {
	var best viewSeen
	for i := range repeats {
		began := time.Now()
		s, err := compareOnce(v, text)
		if err != nil {
			return best, err
		}
		if i == 0 {
			best = s
		} else {
			least := func(a, b time.Duration) time.Duration {
				if a == 0 || b == 0 {
					return max(a, b)
				}
				return min(a, b)
			}
			best.first, best.firstCPU = least(best.first, s.first), least(best.firstCPU, s.firstCPU)
			best.end, best.endAfter = least(best.end, s.end), least(best.endAfter, s.endAfter)
			best.endLoaded, best.search = least(best.endLoaded, s.endLoaded), least(best.search, s.search)
			best.peakMB = max(best.peakMB, s.peakMB)
		}
		best.runs = i + 1
		if s.stopped != "" || time.Since(began) > baselines.slow {
			if best.stopped == "" {
				best.stopped = s.stopped
			}
			break
		}
	}
	return best, nil
}

// readFileTexts reads what the viewers' screens show of a generated
// samples file, and what the search looks for.
func readFileTexts(path string) (fileTexts, error) {
	var f fileTexts
	d, err := readDocTexts(path)
	if err != nil {
		return f, err
	}
	f.docTexts, f.lastID = d, d.docs-1
	if f.rows, err = countLines(path); err != nil {
		return f, err
	}
	f.search, f.hitID, f.hitAt, err = searchTarget(path, d.lastQuestion)
	return f, err
}

// countLines counts a file's lines (its last may lack the line end).
func countLines(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	n, last := 0, byte('\n')
	for {
		k, err := f.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if last != '\n' {
		n++
	}
	return n, nil
}

// searchTarget is what the search looks for: the shortest run of the
// last doc's question's first words (four or more, at most 120 bytes:
// the status-quo script prints 200) that is on no more rows than the
// question, and the doc of the first row holding it, with that row's
// place in the file. A generated question can come back on other docs
// (the last doc of the 1 GB file asks what docs 10,838 and 13,636 do):
// the first of them is the hit every viewer goes to.
func searchTarget(path, question string) (text string, hitID int, at int64, err error) {
	count := func(s string) (int, error) {
		out, err := exec.Command("grep", "-c", "-F", "--", s, path).Output()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			return 0, nil // no line holds it
		}
		if err != nil {
			return 0, fmt.Errorf("grep -c %q: %v", s, err)
		}
		var n int
		_, err = fmt.Sscan(string(out), &n)
		return n, err
	}
	ws := strings.Fields(question)
	prefix := func(k int) string { return strings.Join(ws[:k], " ") }
	lo, hi := min(4, len(ws)), len(ws)
	for hi > 0 && len(prefix(hi)) > 120 {
		hi--
	}
	if hi < lo {
		return "", 0, 0, nil
	}
	rows, err := count(prefix(hi))
	if err != nil || rows == 0 {
		return "", 0, 0, err
	}
	// The least k whose prefix is on as few rows: a longer prefix is on
	// no more rows than a shorter one.
	for lo < hi {
		mid := (lo + hi) / 2
		n, err := count(prefix(mid))
		if err != nil {
			return "", 0, 0, err
		}
		if n == rows {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	text = prefix(hi)
	out, err := exec.Command("grep", "-m1", "-b", "-F", "--", text, path).Output()
	if err != nil {
		return "", 0, 0, fmt.Errorf("grep -m1 %q: %v", text, err)
	}
	off, line, _ := strings.Cut(string(out), ":")
	var hit struct {
		DocID int `json:"doc_id"`
	}
	if _, err := fmt.Sscan(off, &at); err != nil {
		return "", 0, 0, err
	}
	if err := json.Unmarshal([]byte(line), &hit); err != nil {
		return "", 0, 0, fmt.Errorf("%s, byte %d: %v", path, at, err)
	}
	return text, hit.DocID, at, nil
}

// compareRows measures every viewer on path and returns the rows of the
// user-seen table (evalview's judged against a frame and its budget, the
// tools' against evalview) and the side-by-side table's lines.
func compareRows(bin, path, label string, memBudget float64) ([]row, []sideRow, error) {
	d, err := readFileTexts(path)
	if err != nil {
		return nil, nil, err
	}
	vs, missing := viewers(bin, path, d)
	text := d.search
	got := map[string]viewSeen{}
	for _, v := range vs {
		fmt.Fprintf(os.Stderr, "%s: %s…\n", label, v.name)
		s, err := compare(v, text)
		if err != nil {
			return nil, nil, err
		}
		got[v.name] = s
	}
	ev := got["evalview"]
	type measurement struct {
		what string
		of   func(viewSeen) time.Duration
		// key is the time from the key press, which the frame target
		// judges (nil: the figure itself, from the start).
		key func(viewSeen) time.Duration
	}
	ms := []measurement{
		{what: "first screen", of: func(s viewSeen) time.Duration { return s.first }},
		{what: "G at the first screen, until the last record shows", of: func(s viewSeen) time.Duration { return s.end },
			key: func(s viewSeen) time.Duration { return s.endAfter }},
		{what: "G once the file is read, until the last record shows", of: func(s viewSeen) time.Duration { return s.endLoaded },
			key: func(s viewSeen) time.Duration { return s.endLoaded }},
		{what: fmt.Sprintf("search once the file is read, until the first doc holding the text shows (%.0f%% into the file)", 100*float64(d.hitAt)/(fileMB(path)*1e6)), of: func(s viewSeen) time.Duration { return s.search },
			key: func(s viewSeen) time.Duration { return s.search }},
	}
	var out []row
	var side []sideRow
	for mi, m := range ms {
		sr := sideRow{size: label, what: m.what, secs: map[string]float64{}}
		for _, v := range vs {
			s := got[v.name]
			secs := m.of(s).Seconds()
			what := fmt.Sprintf("seen: %s, %s", v.name, m.what)
			if mi == 0 && v.note != "" {
				what += " (" + v.note + ")"
			}
			r := row{size: label, what: what, secs: secs}
			if mi == 0 {
				r.cpu = s.firstCPU.Seconds()
			}
			switch {
			case mi == 3 && v.search == nil:
				r.note = "not measured: " + v.noSearch
			case mi == 3 && text == "":
				r.note = "not measured: no text to search for"
			case secs == 0 && s.stopped != "":
				r.note = s.stopped
			case v.name == "evalview":
				judged := m.of(s)
				if m.key != nil {
					judged = m.key(s)
				}
				if m.key != nil && mi == 1 {
					r.ratio = fmt.Sprintf("%.0f ms after G", judged.Seconds()*1000)
					r.target = frameTarget + " after G"
				} else {
					r.target = frameTarget
				}
				r.ok = judged <= frame
			default:
				if e := m.of(ev).Seconds(); e > 0 {
					r.ratio = fmt.Sprintf("%sx evalview", figure(secs/e))
					r.target, r.ok = "evalview ahead", e < secs
				}
			}
			if r.note == "" && secs > 0 {
				sr.secs[v.name] = secs
			}
			out = append(out, r)
		}
		side = append(side, sr)
	}
	mem := sideRow{size: label, what: "peak memory (MB)", secs: map[string]float64{}, memory: true}
	for _, v := range vs {
		s := got[v.name]
		r := row{size: label, what: fmt.Sprintf("seen: %s, peak memory (every process it started)", v.name), rss: s.peakMB}
		if v.name == "evalview" {
			r.target, r.ok = fmt.Sprintf("≤ %.0f MB", memBudget), s.peakMB <= memBudget
		}
		if s.stopped != "" {
			r.ratio = s.stopped
		}
		mem.secs[v.name] = s.peakMB
		out = append(out, r)
	}
	side = append(side, mem)
	for name, why := range missing {
		out = append(out, row{size: label, what: "seen: " + name, note: "not measured: " + why})
	}
	return out, side, nil
}

// figure prints a ratio with two significant digits or more: 0.31,
// 4.2, 38, 9200.
func figure(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.2f", x)
	}
}

// sideRow is one line of the side-by-side table: a measurement of one
// file, every viewer's figure.
type sideRow struct {
	size, what string
	secs       map[string]float64 // seconds, or MB for memory
	memory     bool
}

// printSide prints the side-by-side table: every viewer's figure, each
// tool's as a multiple of evalview's.
func printSide(rows []sideRow, names []string) {
	if len(rows) == 0 {
		return
	}
	fmt.Println()
	fmt.Print("| file | what the user waits for |")
	for _, n := range names {
		fmt.Printf(" %s |", cell(n))
	}
	fmt.Println()
	fmt.Print("|---|---|")
	for range names {
		fmt.Print("---:|")
	}
	fmt.Println()
	for _, r := range rows {
		fmt.Printf("| %s | %s |", r.size, r.what)
		e := r.secs["evalview"]
		for _, n := range names {
			v, ok := r.secs[n]
			switch {
			case !ok || v == 0:
				fmt.Print(" – |")
			case r.memory:
				fmt.Printf(" %.0f |", v)
			case n == "evalview" || e == 0:
				fmt.Printf(" %s |", seconds(v))
			default:
				fmt.Printf(" %s (%sx) |", seconds(v), figure(v/e))
			}
		}
		fmt.Println()
	}
}

// seconds prints a time as the tables do: ms below a second.
func seconds(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.1f ms", s*1000)
	}
	return fmt.Sprintf("%.2f s", s)
}

// toolVersions is a line naming the tools' versions, for the table's
// header.
func toolVersions() string {
	var out []string
	for _, c := range [][]string{{"less", "--version"}, {"lnav", "-V"}, {"vd", "--version"}, {"python3", "--version"}} {
		b, err := exec.Command(c[0], c[1:]...).Output()
		if err != nil {
			continue
		}
		line, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
		out = append(out, line)
	}
	return strings.Join(out, ", ")
}

// baselineHome makes the HOME the tools run with, under dir: lnav and vd
// write their settings there at their first start, which one untimed run
// on a small file does before any is measured.
func baselineHome(dir string) (string, error) {
	home := filepath.Join(dir, "home")
	return home, os.MkdirAll(home, 0o755)
}

// baselineFlags reads the -baselines flags.
func baselineFlags(tools, mem, statusquo string, timeout, slow time.Duration) (baselineConfig, error) {
	c := baselineConfig{timeout: timeout, slow: slow}
	for _, t := range strings.Split(tools, ",") {
		switch t = strings.TrimSpace(t); t {
		case "":
		case "less", "lnav", "vd", "statusquo":
			c.tools = append(c.tools, t)
		default:
			return c, fmt.Errorf("-baselines: %q is none of less, lnav, vd, statusquo", t)
		}
	}
	if mem != "" {
		n, err := lmevalgen.ParseSize(mem)
		if err != nil {
			return c, fmt.Errorf("-baseline-mem: %v", err)
		}
		c.memMB = float64(n) / (1 << 20)
	}
	p, err := filepath.Abs(statusquo)
	if err != nil {
		return c, err
	}
	c.statusquo = p
	if slices.Contains(c.tools, "statusquo") {
		if _, err := os.Stat(p); err != nil {
			return c, fmt.Errorf("-statusquo: %v", err)
		}
		c.python = interpreter()
	}
	return c, nil
}

// sideNames are the viewers of the side-by-side table, in the order the
// tools were named.
func sideNames(rows []sideRow) []string {
	var names []string
	for _, n := range []string{"evalview", "less", "lnav", "vd", "statusquo.py | less"} {
		for _, r := range rows {
			if _, ok := r.secs[n]; ok {
				names = append(names, n)
				break
			}
		}
	}
	return names
}

// interpreter is the python3 a user's shell runs, as the interpreter
// itself names it: a version manager's python3 on the PATH (pyenv's) is
// a shell script that finds the interpreter at each start, 0.1 s here,
// which is no part of the script's time.
func interpreter() string {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
