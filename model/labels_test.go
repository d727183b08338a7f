package model

import (
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"testing"
)

// TestLabelsLikeAMap holds Labels to what the map they replaced did:
// lookups, presence of empty values, iteration in key order, printing
// and JSON as fmt and encoding/json print a map.
func TestLabelsLikeAMap(t *testing.T) {
	for _, n := range []int{0, 1, 3, 8, 9, 40} {
		m := map[string]string{}
		for i := range n {
			m["k"+strconv.Itoa(i*7%41)] = fmt.Sprint("v", i)
		}
		if n > 2 {
			m["empty"] = ""
		}
		l := LabelsOf(m)
		if l.Len() != len(m) {
			t.Fatalf("%d: Len %d, want %d", n, l.Len(), len(m))
		}
		for k, v := range m {
			if got, ok := l.Lookup(k); !ok || got != v || l.Get(k) != v || !l.Has(k) {
				t.Errorf("%d: Lookup(%q) = %q %v, want %q", n, k, got, ok, v)
			}
		}
		for _, k := range []string{"", "k", "k99", "zz", "a"} {
			if _, ok := l.Lookup(k); ok || l.Has(k) {
				t.Errorf("%d: Lookup(%q) found a missing key", n, k)
			}
		}
		if got := fmt.Sprint(l); got != fmt.Sprint(m) {
			t.Errorf("%d: prints %s, want %s", n, got, fmt.Sprint(m))
		}
		want, _ := json.Marshal(m)
		if len(m) == 0 {
			want = []byte("null")
		}
		if got, _ := json.Marshal(l); string(got) != string(want) {
			t.Errorf("%d: JSON %s, want %s", n, got, want)
		}
		prev := ""
		for k := range l.All() {
			if k <= prev && prev != "" {
				t.Errorf("%d: %q after %q: not in key order", n, k, prev)
			}
			prev = k
		}
		if got := l.Map(); !maps.Equal(got, m) {
			t.Errorf("%d: Map %v, want %v", n, got, m)
		}
	}
}

// TestNewLabelsAndWith: a repeated key keeps its last value, as a map
// built in order does, and With leaves the labels it starts from alone
// (records share them).
func TestNewLabelsAndWith(t *testing.T) {
	l := NewLabels("b", "1", "a", "2", "b", "3", "odd")
	if got := fmt.Sprint(l); got != "map[a:2 b:3]" {
		t.Errorf("NewLabels = %s, want map[a:2 b:3]", got)
	}
	m := l.With("c", "4").With("a", "5").With("0", "6")
	if got := fmt.Sprint(m); got != "map[0:6 a:5 b:3 c:4]" {
		t.Errorf("With = %s", got)
	}
	if got := fmt.Sprint(l); got != "map[a:2 b:3]" {
		t.Errorf("With changed the labels it started from: %s", got)
	}
	var none Labels
	if none.Len() != 0 || none.Get("a") != "" || none.Map() != nil || fmt.Sprint(none) != "map[]" {
		t.Errorf("zero Labels: %s", none)
	}
}
