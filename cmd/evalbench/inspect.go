package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"evalview/loaders/lmevalgen"
)

// The Inspect rows of the table (issue 20): a generated .eval of each
// size (inspectgen.go), `cat` of it as the baseline, then `check` (which
// reads every sample member), `summary`, the opening of one record, and
// the browser's first screen and peak memory, the browser left running
// until its background check of the members is over. Figures are given
// as ratios to `cat` of the same file in the same run.

// inspectLog returns the .eval of size label in dir, generating it
// unless an earlier run (-dir) left it there.
func inspectLog(dir, label string) (string, error) {
	size, err := lmevalgen.ParseSize(label)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "inspect-"+label, "research.eval")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "generating a %s Inspect log…\n", label)
	// In a child process: the generator's memory must not count in the
	// peak memory of the commands this process starts after.
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(self, "-gen-inspect", fmt.Sprintf("%s:%d", p, size))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", err
	}
	// childRecord opens the record this names: the first sample.
	return p, os.WriteFile(p+".longdoc", []byte("0"), 0o644)
}

// childGenerate is the -gen-inspect child mode.
func childGenerate(arg string) error {
	p, size, err := pathSize("-gen-inspect", arg)
	if err != nil {
		return err
	}
	n, err := generateEval(p, size)
	if err == nil {
		fmt.Fprintf(os.Stderr, "%d samples\n", n)
	}
	return err
}

// measureInspect measures evalview on generated .eval logs of each size.
func measureInspect(self, bin, dir, sizes string, tuiWait time.Duration) ([]row, error) {
	var rows []row
	for _, label := range strings.Split(sizes, ",") {
		label = strings.TrimSpace(label)
		if label == "" {
			continue
		}
		p, err := inspectLog(dir, label)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		mb := float64(st.Size()) / 1e6
		budget := 150 + 0.05*mb
		size := label + " .eval"
		q := shellQuote(p)
		if _, err := shell("cat " + q + " > /dev/null"); err != nil { // warm the page cache
			return nil, err
		}
		cat, err := shell("cat " + q + " > /dev/null")
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{size: size, what: "baseline: cat > /dev/null", secs: cat.secs, cpu: cat.cpu, rss: cat.rssMB, mbps: mb / cat.secs})
		ratio := func(s float64) string { return fmt.Sprintf("%.1fx cat", s/cat.secs) }
		for _, c := range []string{"check", "summary"} {
			r, err := measure(bin, c, p)
			if err != nil {
				return nil, err
			}
			rows = append(rows, row{size: size, what: "evalview " + c, secs: r.secs, cpu: r.cpu, rss: r.rssMB, mbps: mb / r.secs, ratio: ratio(r.secs),
				target: fmt.Sprintf("≤ %.0f MB", budget), ok: r.rssMB <= budget})
		}
		r, err := measure(self, "-record", p)
		if err != nil {
			return nil, err
		}
		secs, _ := fields2(r.out)
		rows = append(rows, row{size: size, what: "open a sample (load + detail)", secs: secs, rss: r.rssMB, ratio: ratio(secs),
			target: fmt.Sprintf("≤ %.0f MB", budget), ok: r.rssMB <= budget})
		tr, err := bestTrace(bin, p, tuiWait, true)
		if err != nil {
			rows = append(rows, row{size: size, what: "browser", note: "not measured: " + err.Error()})
			continue
		}
		rows = append(rows,
			row{size: size, what: "trace: first rows drawn (from package init, so less than what is seen)", secs: tr.first, ratio: ratio(tr.first), target: frameTarget, ok: tr.first <= frame.Seconds()},
			row{size: size, what: "browser: peak memory, its check of the members included", secs: tr.idle, rss: tr.rssMB, ratio: ratio(tr.idle),
				target: fmt.Sprintf("≤ %.0f MB", budget), ok: tr.rssMB <= budget})
	}
	return rows, nil
}

// waitIdle waits until process pid has used no CPU for a second (or the
// deadline) and returns the seconds since start it last did.
func waitIdle(pid string, start, deadline time.Time) float64 {
	last, lastAt := cpuTicks(pid), time.Now()
	for time.Now().Before(deadline) {
		time.Sleep(250 * time.Millisecond)
		t := cpuTicks(pid)
		if t != last {
			last, lastAt = t, time.Now()
			continue
		}
		if time.Since(lastAt) >= time.Second {
			break
		}
	}
	return lastAt.Sub(start).Seconds()
}

// cpuTicks is a process's user and system time in clock ticks.
func cpuTicks(pid string) int64 {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return -1
	}
	// The fields after the command name, which may hold spaces.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(f) < 13 {
		return -1
	}
	var u, s int64
	fmt.Sscan(f[11], &u)
	fmt.Sscan(f[12], &s)
	return u + s
}
