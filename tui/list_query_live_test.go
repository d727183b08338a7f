package tui

import (
	"strings"
	"testing"

	"evalview/model"
)

func TestLiveQueryHoldsBackFieldPrefix(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	tests := []struct {
		line, want string
		held       bool
	}{
		{"", "", false},
		{"stat", "", true},   // status=
		{"status", "", true}, // a whole field name, "=" to come
		{"status=fail sco", "status=fail ", true},
		{"status=fail -sco", "status=fail ", true},
		{"status=fail not sco", "status=fail ", true},
		{"ducks", "ducks", false}, // no field looks like it: a word
		{"status=fail ", "status=fail ", false},
		{"stat ", "stat ", false},         // a space ends the word: search it
		{"status=fa", "status=fa", false}, // values are not held back
		{"score<", "score<", false},       // errors still show
	}
	for _, tc := range tests {
		got, held := m.list.LiveQuery(tc.line)
		if got != tc.want || held != tc.held {
			t.Errorf("liveQuery(%q) = %q, %v; want %q, %v", tc.line, got, held, tc.want, tc.held)
		}
	}
}

// Typing ":status=fail" shows all records until the operator arrives,
// never "No records match"; enter applies the line as typed.
func TestQueryLineTypingFieldNameLive(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	press(m, ":")
	for i, r := range "status" {
		typeText(m, string(r))
		if got := len(m.list.Visible()); got != 6 {
			t.Fatalf("after %q the list shows %d records, want all 6:\n%s", "status"[:i+1], got, screen(m))
		}
		if s := screen(m); strings.Contains(s, "No records match") || strings.Contains(s, "✗ col") {
			t.Fatalf("after %q:\n%s", "status"[:i+1], s)
		}
	}
	typeText(m, "=fail")
	if got := strings.Join(visibleIDs(m), " "); got != "3 4" {
		t.Fatalf("status=fail shows %q, want 3 4", got)
	}
	// A second term being typed leaves the first applied.
	typeText(m, " scor")
	if got := strings.Join(visibleIDs(m), " "); got != "3 4" {
		t.Errorf("while typing scor: %q, want 3 4", got)
	}
	// enter applies the whole line: "scor" is then a word to look for.
	press(m, "enter")
	if m.list.Where() != "status=fail scor" {
		t.Errorf("where = %q", m.list.Where())
	}
	if got := len(m.list.Visible()); got != 0 {
		t.Errorf("enter should apply the bare word; list shows %d", got)
	}
}
