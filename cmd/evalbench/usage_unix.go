//go:build unix

package main

import (
	"os"
	"syscall"
	"time"
)

// usage is a finished process's peak memory (MB) and CPU time (seconds)
// from the kernel's rusage.
func usage(ps *os.ProcessState) (rssMB, cpu float64) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0
	}
	rss := float64(ru.Maxrss) / 1024 // KB on Linux
	if maxrssInBytes {
		rss /= 1024
	}
	return rss, float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// killTree ends p and the processes pids (p's, which tree found): they
// share the session pty.Start made, whose process group is p's pid.
func killTree(p *os.Process, pids []int) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// selfCPU is this process's CPU time so far (user and system, every
// thread), for figures that a loaded machine's queue would distort.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
