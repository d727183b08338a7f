package main

import (
	"fmt"
	"io"

	"evalview/loaders/source"
)

// sayNotices writes on stderr what remote listings left out (a folder
// of more entries than are read), once the command is done: no file is
// passed over without a word.
func sayNotices(stderr io.Writer) {
	for _, n := range source.Notices() {
		fmt.Fprintln(stderr, "evalview: note:", n)
	}
}
