package jsonl

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// failing gives s, then err: a remote file whose server went away.
type failing struct {
	r   io.Reader
	err error
}

func (f *failing) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// A read that fails mid-line ends the scan with its error: the part of
// the line before it is no line of the file (it was blamed on the file as
// a line that is not JSON).
func TestScanLinesStopsAtAReadError(t *testing.T) {
	stop := errors.New("the server went away")
	var got []string
	err := ScanLines(&failing{strings.NewReader("{\"a\": 1}\n{\"b\": 2}\n{\"c\""), stop}, func(l Line) error {
		got = append(got, string(l.Data))
		return nil
	})
	if !errors.Is(err, stop) || len(got) != 2 || got[1] != `{"b": 2}` {
		t.Errorf("lines %q, err %v", got, err)
	}
}
