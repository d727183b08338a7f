package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
