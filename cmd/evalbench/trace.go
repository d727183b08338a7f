package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// traceEvents runs the browser on path in a detached tmux session of
// w x h with EVALVIEW_TRACE set, until the trace holds every one of
// events (or wait passes): it returns each event's time in seconds from
// the process's start and the browser's peak memory in MB, and quits it.
// then, when not nil, runs once every event is in, before the memory is
// read (the pid of the browser, the deadline).
func traceEvents(bin, path string, w, h int, wait time.Duration, then func(pid string, deadline time.Time), events ...string) (map[string]float64, float64, error) {
	if _, err := exec.LookPath("tmux"); err != nil {
		return nil, 0, fmt.Errorf("tmux not found")
	}
	f, err := os.CreateTemp("", "evalbench-trace")
	if err != nil {
		return nil, 0, err
	}
	f.Close()
	defer os.Remove(f.Name())
	session := fmt.Sprintf("evalbench-%d", os.Getpid())
	cmdline := fmt.Sprintf("exec env EVALVIEW_TRACE=%s %s %s", shellQuote(f.Name()), shellQuote(bin), shellQuote(path))
	// The same session name is used run after run: when the last run's
	// kill-session took the tmux server down, a new-session that meets
	// the server on its way out fails ("server exited unexpectedly").
	// That is tmux's race, not the browser's: try again.
	var out []byte
	for try := 0; ; try++ {
		if out, err = exec.Command("tmux", "new-session", "-d", "-s", session, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), cmdline).CombinedOutput(); err == nil {
			break
		}
		if try == 4 {
			return nil, 0, fmt.Errorf("tmux: %v %s", err, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	defer exec.Command("tmux", "kill-session", "-t", session).Run()
	out, _ = exec.Command("tmux", "list-panes", "-t", session, "-F", "#{pane_pid}").Output()
	pid := strings.TrimSpace(string(out))
	at := map[string]float64{}
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		for e, secs := range readTrace(f.Name()) {
			at[e] = secs
		}
		all := true
		for _, e := range events {
			all = all && at[e] > 0
		}
		if all {
			if then != nil {
				then(pid, deadline)
			}
			rss := peakRSS(pid)
			exec.Command("tmux", "send-keys", "-t", session, "q").Run()
			return at, rss, nil
		}
	}
	return at, 0, fmt.Errorf("no %s trace within %s", strings.Join(events, "/"), wait)
}

// readTrace reads a browser's trace file (EVALVIEW_TRACE): each event's
// seconds since the start, the last of its lines.
func readTrace(path string) map[string]float64 {
	at := map[string]float64{}
	data, _ := os.ReadFile(path)
	for _, line := range strings.Split(string(data), "\n") {
		var ev struct {
			Event string  `json:"event"`
			MS    float64 `json:"ms"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Event != "" {
			at[ev.Event] = ev.MS / 1000
		}
	}
	return at
}
