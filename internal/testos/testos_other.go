//go:build !unix

package testos

import (
	"errors"
	"os"
	"time"
)

func mkfifo(string) error { return errors.ErrUnsupported }

func cpuTime() time.Duration { return 0 }

func peakRSS(*os.ProcessState) (float64, bool) { return 0, false }
