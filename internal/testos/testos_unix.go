//go:build unix

package testos

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func peakRSS(ps *os.ProcessState) (float64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	if runtime.GOOS == "darwin" {
		return float64(ru.Maxrss) / (1 << 20), true // bytes there
	}
	return float64(ru.Maxrss) / 1024, true // KB on Linux and the BSDs
}
