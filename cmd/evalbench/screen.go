package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// What a user sees (issue 23): a program runs in a pseudo-terminal whose
// output feeds a terminal emulator (charmbracelet/x/vt), which answers the
// program's queries (background colour, modes) as a terminal does; the
// figure is the time from starting the program until the emulator's screen
// shows the text looked for. This is what a terminal could paint at the
// earliest: a real one adds its own frame (a few ms) to every program
// alike, and tmux adds its own polling, which is why these figures are
// smaller than the issue's, measured under tmux.

// screenW and screenH are the emulated terminal's size, the size the
// trace figures were measured at.
const screenW, screenH = 120, 40

// termSession is a program running in a pseudo-terminal, its screen kept
// by an emulator.
type termSession struct {
	cmd   *exec.Cmd
	pty   *os.File
	start time.Time

	mu      sync.Mutex
	em      *vt.Emulator
	version int           // bumped at every write to the screen
	changed chan struct{} // signalled after every write
	done    chan struct{} // closed when the program's output ends

	// peakMB is the most memory the program's processes held together,
	// sampled (watch); over is set when watch stopped them for holding
	// more than its limit.
	peakMB float64
	over   bool
}

// startTerm starts name with args in a pseudo-terminal of screenW x
// screenH. env is added to the environment.
func startTerm(env []string, name string, args ...string) (*termSession, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor", "LESS=", "LESSOPEN="), env...)
	t := &termSession{cmd: cmd, em: vt.NewEmulator(screenW, screenH), changed: make(chan struct{}, 1), done: make(chan struct{})}
	t.start = time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: screenH, Cols: screenW})
	if err != nil {
		return nil, err
	}
	t.pty = f
	// The emulator's answers to queries go back to the program, as a
	// terminal's do.
	go func() { _, _ = io.Copy(f, t.em) }()
	go t.read()
	return t, nil
}

// read feeds the program's output to the emulator until it ends.
func (t *termSession) read() {
	defer close(t.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := t.pty.Read(buf)
		if n > 0 {
			t.mu.Lock()
			_, _ = t.em.Write(buf[:n])
			t.version++
			t.mu.Unlock()
			select {
			case t.changed <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// screen returns the screen's text and its version.
func (t *termSession) screen() (string, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.em.String(), t.version
}

// errTimeout is waitFor's error when the screen never showed what it
// waited for.
var errTimeout = errors.New("timed out")

// waitFor waits until ok(screen) holds, and returns when, since the
// program started. The screen is looked at after every write to it.
func (t *termSession) waitFor(ok func(string) bool, timeout time.Duration) (time.Duration, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s, _ := t.screen()
		if ok(s) {
			return time.Since(t.start), nil
		}
		select {
		case <-t.changed:
		case <-t.done:
			if s, _ := t.screen(); ok(s) {
				return time.Since(t.start), nil
			}
			return 0, fmt.Errorf("the program ended; its screen:\n%s", s)
		case <-deadline.C:
			return 0, fmt.Errorf("%w after %s; the screen:\n%s", errTimeout, timeout, s)
		}
	}
}

// send types s at the program (as a terminal sends keys) and returns when,
// since the program started.
func (t *termSession) send(s string) (time.Duration, error) {
	at := time.Since(t.start)
	_, err := io.WriteString(t.pty, s)
	return at, err
}

// paste sends s as a terminal pastes it: bracketed when the program asked
// for bracketed pastes, so that it arrives as one paste.
func (t *termSession) paste(s string) error {
	_, err := io.WriteString(t.pty, "\x1b[200~"+s+"\x1b[201~")
	return err
}

// pid is the program's process id.
func (t *termSession) pid() string { return fmt.Sprint(t.cmd.Process.Pid) }

// stop ends the program: quit keys first, then a kill.
func (t *termSession) stop(quit string) {
	if quit != "" {
		_, _ = io.WriteString(t.pty, quit)
		select {
		case <-t.done:
		case <-time.After(2 * time.Second):
		}
	}
	t.kill()
	_ = t.cmd.Wait()
	_ = t.pty.Close()
	_ = t.em.Close()
}

// contains is a screen predicate: the screen shows s.
func contains(s string) func(string) bool {
	return func(screen string) bool { return strings.Contains(screen, s) }
}

// cpu is the CPU time the threads of the program and of the processes it
// started have run so far, from the scheduler's statistics (0 when
// unknown). On a busy machine it says what a start costs where the wall
// time says mostly how long the program waited for a core.
func (t *termSession) cpu() time.Duration {
	var ns int64
	for _, pid := range tree(t.cmd.Process.Pid) {
		dir := fmt.Sprintf("/proc/%d/task", pid)
		tasks, _ := os.ReadDir(dir)
		for _, task := range tasks {
			b, _ := os.ReadFile(dir + "/" + task.Name() + "/schedstat")
			var n int64
			fmt.Sscan(string(b), &n)
			ns += n
		}
	}
	return time.Duration(ns)
}

// tree is pid and the processes it started, and theirs, as long as they
// live (a shell's pipeline, lnav's helpers).
func tree(pid int) []int {
	pids := []int{pid}
	for i := 0; i < len(pids); i++ {
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pids[i]))
		for _, task := range tasks {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pids[i], task.Name()))
			for _, f := range strings.Fields(string(b)) {
				var c int
				if _, err := fmt.Sscan(f, &c); err == nil && !slices.Contains(pids, c) {
					pids = append(pids, c)
				}
			}
		}
	}
	return pids
}

// statusKB reads one "Name: N kB" field of a process's status.
func statusKB(pid int, field string) float64 {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			var kb float64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
			return kb
		}
	}
	return 0
}

// treeMB is the memory the program's processes hold now (resident, in
// MB) and the sum of their peaks.
func (t *termSession) treeMB() (now, peaks float64) {
	for _, pid := range tree(t.cmd.Process.Pid) {
		now += statusKB(pid, "VmRSS") / 1024
		peaks += statusKB(pid, "VmHWM") / 1024
	}
	return now, peaks
}

// watch samples the memory of the program's processes every 50 ms until
// it ends, keeping the most they held together (peakMB), and stops them
// when they hold more than limitMB (0: no limit): a viewer that keeps
// every row of a 4 GB file as Python objects would otherwise take the
// memory of a machine others share.
func (t *termSession) watch(limitMB float64) {
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-t.done:
				return
			case <-tick.C:
			}
			now, _ := t.treeMB()
			t.mu.Lock()
			t.peakMB = max(t.peakMB, now)
			over := limitMB > 0 && now > limitMB
			if over {
				t.over = true
			}
			t.mu.Unlock()
			if over {
				t.kill()
				return
			}
		}
	}()
}

// peak is the most memory the program's processes held together: the
// sampled most, or the sum of their own peaks when that is more (a peak
// between two samples).
func (t *termSession) peak() float64 {
	_, peaks := t.treeMB()
	t.mu.Lock()
	defer t.mu.Unlock()
	return max(t.peakMB, peaks)
}

// overLimit reports whether watch stopped the program for its memory.
func (t *termSession) overLimit() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.over
}

// kill ends the program and every process it started.
func (t *termSession) kill() { killTree(t.cmd.Process, tree(t.cmd.Process.Pid)) }

// rows returns the screen's rows without its last n (a viewer's prompt
// and status lines, which echo what is typed).
func rows(screen string, n int) []string {
	lines := strings.Split(screen, "\n")
	return lines[:max(len(lines)-n, 0)]
}

// joined is the screen's rows without the last n, joined without line
// ends: a long line that a pager wrapped reads whole again.
func joined(screen string, n int) string { return strings.Join(rows(screen, n), "") }

// firstScreen starts a program and returns how long it took until its
// screen showed needle, the fastest of repeats runs, and the least CPU
// time its threads had used by then.
func firstScreen(needle, quit string, name string, args ...string) (wall, cpu time.Duration, err error) {
	for i := range repeats {
		t, err := startTerm(nil, name, args...)
		if err != nil {
			return 0, 0, err
		}
		d, err := t.waitFor(contains(needle), 30*time.Second)
		c := t.cpu()
		t.stop(quit)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", name, err)
		}
		if i == 0 || d < wall {
			wall = d
		}
		if i == 0 || c < cpu {
			cpu = c
		}
	}
	return wall, cpu, nil
}
