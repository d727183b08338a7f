package sample

import (
	"strconv"
	"strings"
)

// The raw JSON helpers (ordered objects, kinds, scalars) live in
// loaders/jsonl, shared with the testset loader; what is left here is
// the Sample loader's own.

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
