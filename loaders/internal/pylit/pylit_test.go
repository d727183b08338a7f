package pylit

import "testing"

func TestString(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		n        int
		ok       bool
	}{
		{`'Paris', 3`, "Paris", 7, true},
		{`"l'Orient"]`, "l'Orient", 10, true},
		{`'a\nb\t\\\''`, "a\nb\t\\'", 12, true},
		{`'\x41\u00e9\U0001F600'`, "Aé😀", 22, true},
		{`'\d+'`, `\d+`, 5, true},      // kept as Python keeps it
		{`'\U00110000'`, "", 0, false}, // past the last rune
		{`'\u12'`, "", 0, false},
		{`'open`, "", 0, false},
		{`x'`, "", 0, false},
		{``, "", 0, false},
	} {
		got, n, err := String(tc.in)
		if (err == nil) != tc.ok || got != tc.want || n != tc.n {
			t.Errorf("String(%q) = %q, %d, %v; want %q, %d, ok %v", tc.in, got, n, err, tc.want, tc.n, tc.ok)
		}
	}
}
