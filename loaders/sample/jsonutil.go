package sample

import (
	"strconv"
	"strings"

	"evalview/loaders/jsonl"
)

// The raw JSON helpers (ordered objects, kinds, scalars) live in
// loaders/jsonl, shared with the testset loader; what is left here is
// the Sample loader's own.

// firstLine returns the first non-blank line of s, trimmed and cut to max
// runes (with an ellipsis) so list rows stay cheap.
func firstLine(s string, max int) string {
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		return jsonl.Own(jsonl.Clip(l, max), s)
	}
	return ""
}

// normalize prepares answers for comparison: white space collapsed and
// case folded, since the spec allows label to be "a normalized string
// form" of references[0].
func normalize(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// jsonPath appends a key to a JSON path.
func jsonPath(base, key string) string { return base + "." + key }

// jsonIndex appends an index to a JSON path.
func jsonIndex(base string, i int) string { return base + "[" + strconv.Itoa(i) + "]" }
