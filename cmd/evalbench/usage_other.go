//go:build !unix

package main

import (
	"os"
	"time"
)

// usage has no rusage to read here: the table leaves memory and CPU
// blank (evalbench's figures are for the Linux machines it runs on).
func usage(*os.ProcessState) (rssMB, cpu float64) { return 0, 0 }

// killTree ends p (there are no process groups to end here).
func killTree(p *os.Process, _ []int) { _ = p.Kill() }

// selfCPU has no rusage to read here either.
func selfCPU() time.Duration { return 0 }
