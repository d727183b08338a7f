package main

import (
	"fmt"
	"strings"
	"time"
)

// The browser answers at once, whatever it opens (issue 30): for each
// path, the time from exec to its first screen (the status bar's "?
// help" on the emulated terminal), what that screen said it was doing,
// and the time from q, typed at that first screen, to the process's end.
// The paths are the user's: a folder of 200,000 files, a 10-million-
// record file, a 2 GB line, a URL of a server that says nothing.

// measureAnswers prints, for each of paths, the fastest first screen and
// q-to-exit of repeats runs of bin.
func measureAnswers(bin string, paths []string) error {
	fmt.Printf("%-60s %12s %12s  %s\n", "path", "first screen", "q to exit", "status at the first screen")
	for _, p := range paths {
		var first, quit time.Duration
		status := ""
		for i := range repeats {
			t, err := startTerm([]string{"NO_COLOR=1"}, bin, p)
			if err != nil {
				return err
			}
			d, err := t.waitFor(func(s string) bool { return statusLine(s) != "" }, 60*time.Second)
			if err != nil {
				t.stop("")
				first, quit, status = 0, 0, "no first screen: "+firstLine(err.Error())
				break
			}
			s, _ := t.screen()
			at, _ := t.send("q")
			var q time.Duration
			select {
			case <-t.done:
				q = time.Since(t.start) - at
			case <-time.After(60 * time.Second):
				q = -1 // not in 60 s
			}
			t.stop("")
			if i == 0 || d < first {
				first = d
				status = statusLine(s)
			}
			if i == 0 || q < quit {
				quit = q
			}
		}
		fmt.Printf("%-60s %9.1f ms %9.1f ms  %s\n", p, ms(first), ms(quit), status) // 0: none, -1: q did not end it in 60 s
	}
	return nil
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// statusLine is the screen's status bar, the line before the help line
// at the bottom ("" before the first frame).
func statusLine(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	if len(lines) < screenH-1 {
		return ""
	}
	return strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimSpace(lines[len(lines)-2]), "? help")), " ")
}
