package main

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// viewers are the tools measured beside evalview, each started as a user
// types it, with what tells its first screen, its last record and a
// search's hit on its screen.

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
