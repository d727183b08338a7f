// Package testos holds the few calls tests make that differ by operating
// system, so that every package's tests compile for every platform
// .ci/run builds (Windows has no FIFOs and no getrusage).
package testos

import (
	"os"
	"time"
)

// Mkfifo makes a named pipe at path; on a system without them it returns
// ErrUnsupported, and a test skips that case.
func Mkfifo(path string) error { return mkfifo(path) }

// CPUTime is the process's user and system CPU time so far, or 0 where
// the system does not say.
func CPUTime() time.Duration { return cpuTime() }

// PeakRSS is the peak resident memory of a process that ended, in MB;
// ok is false where the system does not say.
func PeakRSS(ps *os.ProcessState) (mb float64, ok bool) { return peakRSS(ps) }
