package intern

import (
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

func TestOf(t *testing.T) {
	var tab Table
	a := tab.Of(strings.Repeat("x", 10))
	b := tab.Of(strings.Repeat("x", 10))
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("two equal strings are two copies")
	}
	for i := range Max + 10 {
		tab.Of(strconv.Itoa(i))
	}
	if len(tab.m) != Max {
		t.Errorf("%d strings kept, want at most %d", len(tab.m), Max)
	}
}
