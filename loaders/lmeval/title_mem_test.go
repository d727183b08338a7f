package lmeval

import (
	"runtime"
	"strings"
	"testing"
)

// A title is the first line of a long field, and keeps none of the rest:
// 2,000 titles of 20 KB questions of many lines hold well under a MB,
// where sharing the decoded field's memory held 40 MB.
func TestTitleOwnsItsMemory(t *testing.T) {
	question := `"Short first line.\n` + strings.Repeat(`a long narrative line of the doc\n`, 600) + `"`
	entries := []entry{{Key: "question", Val: []byte(question)}}
	titles := make([]string, 2000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range titles {
		titles[i] = titleOf(entries, nil, nil, nil)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if titles[0] != "Short first line." {
		t.Fatalf("title %q", titles[0])
	}
	if held := int64(after.HeapAlloc) - int64(before.HeapAlloc); held > 4<<20 {
		t.Errorf("2,000 titles hold %d MB", held>>20)
	}
	runtime.KeepAlive(titles)
}
