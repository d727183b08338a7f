// Package fuzzmin bounds how long `go test -fuzz` minimizes the inputs
// that reach new code, for the loaders' fuzz targets. The fuzzer minimizes
// each such input before it goes on, for up to a minute by default, one
// run of the target per byte (and pair of bytes) it tries to drop: on
// inputs of a few KB whose runs take a millisecond, that is the whole
// minute, during which the fuzzer reports no progress, and a 15-second
// fuzz run seemed to stall after its seeds. Only tests import it.
package fuzzmin

import (
	"flag"
	"os"
	"testing"
)

// Limit is the minimization budget set when the command line sets none.
const Limit = "2s"

// Main runs the package's tests with -test.fuzzminimizetime set to Limit
// unless the command line sets it; call it from TestMain.
func Main(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.fuzzminimizetime" })
	if !set {
		if err := flag.Set("test.fuzzminimizetime", Limit); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
