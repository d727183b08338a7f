package model

import (
	"encoding/json"
	"iter"
	"slices"
	"sort"
	"strings"
)

// Labels are a record's facet values by field name ("category": "math",
// "task_type": "qa"), used for grouping, queries and facets.
//
// A record's labels are one slice of keys and values sorted by key, not
// a map: a Go map of one entry takes about 300 bytes, and a samples file
// gives every record its own labels (its target), so that 426,000
// records of an lm-eval output folder held 87 MB of label maps. Labels
// are never changed once built (build them with LabelsOf, NewLabels or
// With), so records with the same labels share one.
type Labels struct {
	kv []string // key, value, key, value, ... sorted by key, keys unique
}

// LabelsOf builds Labels from a map (nil or empty: none).
func LabelsOf(m map[string]string) Labels {
	if len(m) == 0 {
		return Labels{}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	kv := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		kv = append(kv, k, m[k])
	}
	return Labels{kv}
}

// NewLabels builds Labels from key, value pairs; when a key repeats, its
// last value wins (as in a map literal built in order). An odd trailing
// key is ignored.
func NewLabels(pairs ...string) Labels {
	n := len(pairs) / 2
	if n == 0 {
		return Labels{}
	}
	type pair struct {
		k, v string
		i    int
	}
	ps := make([]pair, n)
	for i := range ps {
		ps[i] = pair{pairs[2*i], pairs[2*i+1], i}
	}
	// Sorted by key, then by position, so that the last of equal keys is
	// the one kept.
	slices.SortFunc(ps, func(a, b pair) int {
		if c := strings.Compare(a.k, b.k); c != 0 {
			return c
		}
		return a.i - b.i
	})
	kv := make([]string, 0, 2*n)
	for i, p := range ps {
		if i+1 < len(ps) && ps[i+1].k == p.k {
			continue
		}
		kv = append(kv, p.k, p.v)
	}
	return Labels{kv}
}

// With returns l with key set to value (l itself is left as it is).
func (l Labels) With(key, value string) Labels {
	i, found := l.find(key)
	if found {
		kv := slices.Clone(l.kv)
		kv[2*i+1] = value
		return Labels{kv}
	}
	kv := make([]string, 0, len(l.kv)+2)
	kv = append(kv, l.kv[:2*i]...)
	kv = append(kv, key, value)
	kv = append(kv, l.kv[2*i:]...)
	return Labels{kv}
}

// find returns the position of key among l's pairs, or where it would go.
func (l Labels) find(key string) (int, bool) {
	n := len(l.kv) / 2
	if n <= 8 {
		for i := 0; i < n; i++ {
			switch c := strings.Compare(l.kv[2*i], key); {
			case c == 0:
				return i, true
			case c > 0:
				return i, false
			}
		}
		return n, false
	}
	i := sort.Search(n, func(i int) bool { return l.kv[2*i] >= key })
	return i, i < n && l.kv[2*i] == key
}

// Lookup returns key's value and whether l has the key.
func (l Labels) Lookup(key string) (string, bool) {
	if i, ok := l.find(key); ok {
		return l.kv[2*i+1], true
	}
	return "", false
}

// Get returns key's value, "" when l does not have it.
func (l Labels) Get(key string) string {
	v, _ := l.Lookup(key)
	return v
}

// Has reports whether l has key (its value may be "").
func (l Labels) Has(key string) bool {
	_, ok := l.find(key)
	return ok
}

// Len is the number of labels.
func (l Labels) Len() int { return len(l.kv) / 2 }

// All yields the labels in key order.
func (l Labels) All() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for i := 0; i+1 < len(l.kv); i += 2 {
			if !yield(l.kv[i], l.kv[i+1]) {
				return
			}
		}
	}
}

// Map returns the labels as a new map (nil when there are none).
func (l Labels) Map() map[string]string {
	if len(l.kv) == 0 {
		return nil
	}
	m := make(map[string]string, l.Len())
	for k, v := range l.All() {
		m[k] = v
	}
	return m
}

// String prints the labels as fmt prints a map[string]string (keys in
// order): "map[category:math level:3]".
func (l Labels) String() string {
	var b strings.Builder
	b.WriteString("map[")
	for i := 0; i+1 < len(l.kv); i += 2 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(l.kv[i])
		b.WriteByte(':')
		b.WriteString(l.kv[i+1])
	}
	b.WriteByte(']')
	return b.String()
}

// MarshalJSON writes the labels as a JSON object, keys in order (as
// encoding/json writes a map); none is null, as a nil map is.
func (l Labels) MarshalJSON() ([]byte, error) {
	return json.Marshal(l.Map())
}
