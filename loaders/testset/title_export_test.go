package testset

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"evalview/model"
)

// TestExportWritesTheWholeTitle: a testset record whose first input is
// longer than the list's title cap keeps the cut title in the list, and
// export writes it whole (on one line), not the text cut for the screen.
// Short titles are written as the list shows them.
func TestExportWritesTheWholeTitle(t *testing.T) {
	long := strings.Repeat("The quarterly report says revenue grew. ", 20) + "END"
	in, _ := json.Marshal(map[string]any{"id": "long", "text": long})
	short, _ := json.Marshal(map[string]any{"id": "short", "text": "A short review, one line."})
	d := loadText(t, "reviews.jsonl", string(in)+"\n"+string(short)+"\n")
	want := strings.Join(strings.Fields(long), " ")

	s := d.Records.Summary(0)
	if n := utf8.RuneCountInString(s.Title); n != maxTitle || !strings.HasSuffix(s.Title, "…") {
		t.Errorf("list title: %d runes %q, want %d ending in …", n, s.Title, maxTitle)
	}
	rec := byID(t, d, "long")
	row := model.NewExportRow(d, rec)
	if row.Title != want {
		t.Errorf("exported title %d runes, ends %q; want the whole %d runes ending in END",
			utf8.RuneCountInString(row.Title), row.Title[max(0, len(row.Title)-20):], utf8.RuneCountInString(want))
	}
	if r := model.NewExportRow(d, byID(t, d, "short")); r.Title != "A short review, one line." {
		t.Errorf("short title exported as %q", r.Title)
	}
}
