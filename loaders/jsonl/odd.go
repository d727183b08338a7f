package jsonl

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"evalview/model"
)

// Oddities of valid JSON that the loaders report but still load past: a
// byte-order mark, Windows line ends, a key given twice in one object, a
// number beyond float64. Each loader lists these codes in its doc comment.

// LineEnds notes, while a file is scanned, its byte-order mark and the
// first line that ends in CRLF, so that each gives one warning per file
// rather than one per line.
type LineEnds struct {
	// BOM is set when line 1 started with a UTF-8 byte-order mark.
	BOM bool
	// CRLF is the first line that ended in CR LF, 0 when none did.
	CRLF int
}

// Note records what line l says about the file's line ends.
func (e *LineEnds) Note(l Line) {
	if l.BOM {
		e.BOM = true
	}
	if l.CRLF && e.CRLF == 0 {
		e.CRLF = l.N
	}
}

// Issues returns the file's bom and crlf warnings (none for a plain file).
func (e LineEnds) Issues(path string) []model.Issue {
	var out []model.Issue
	if e.BOM {
		out = append(out, BOMIssue(path))
	}
	if e.CRLF > 0 {
		out = append(out, CRLFIssue(path, e.CRLF))
	}
	return out
}

// BOMIssue is the warning for a file that starts with a byte-order mark.
func BOMIssue(path string) model.Issue {
	return model.Warnf("bom", path, 1, "", "file starts with a UTF-8 byte-order mark; read past it")
}

// CRLFIssue is the warning for a file with Windows line ends, at the first
// such line.
func CRLFIssue(path string, line int) model.Issue {
	return model.Warnf("crlf", path, line, "", "Windows line ends (CRLF) from line %d; read as plain newlines", line)
}

// Oddity is a spot in a valid JSON value that parsers read differently or
// lossily: code "duplicate-key" or "number-out-of-range".
type Oddity struct {
	Code string
	// Path is the JSON path of the duplicate key or the number ("$.a.b").
	Path string
	Msg  string
}

// maxOddDepth bounds how deep FindOddities looks: real records nest a few
// levels, and a hostile line nesting 100,000 deep must not recurse.
const maxOddDepth = 64

// FindOddities walks the valid JSON value raw (whose path is root, "$"
// for a whole line) and returns its duplicate keys and out-of-range
// numbers in document order. Values are skimmed, not decoded, so a line
// of long strings costs about one extra pass over its bytes per nesting
// level.
func FindOddities(raw []byte, root string) []Oddity {
	var out []Oddity
	findOdd(raw, root, 0, &out)
	return out
}

func findOdd(raw []byte, path string, depth int, out *[]Oddity) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || depth > maxOddDepth {
		return
	}
	switch raw[0] {
	case '{':
		var seen map[string]bool
		_ = Skim(raw, func(f Field) error {
			kp := KeyPath(path, f.Key)
			if seen == nil {
				seen = map[string]bool{}
			}
			if seen[f.Key] {
				*out = append(*out, Oddity{Code: "duplicate-key", Path: kp,
					Msg: fmt.Sprintf("key %q is given more than once in %s; the last value wins (as in encoding/json and Python's json)", f.Key, path)})
			}
			seen[f.Key] = true
			findOdd(f.Value, kp, depth+1, out)
			return nil
		})
	case '[':
		_ = EachElement(raw, func(i int, v []byte) error {
			findOdd(v, path+"["+strconv.Itoa(i)+"]", depth+1, out)
			return nil
		})
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if o, bad := NumberOddity(raw, path); bad {
			*out = append(*out, o)
		}
	}
}

// NumberOddity reports a JSON number literal that float64 cannot hold
// (1e400): encoding/json refuses it and Python reads it as inf.
func NumberOddity(raw []byte, path string) (Oddity, bool) {
	if len(raw) < 300 && bytes.IndexAny(raw, "eE") < 0 {
		return Oddity{}, false // too few digits to overflow: skip the parse
	}
	_, err := strconv.ParseFloat(string(raw), 64)
	if !errors.Is(err, strconv.ErrRange) {
		return Oddity{}, false
	}
	return Oddity{Code: "number-out-of-range", Path: path,
		Msg: fmt.Sprintf("number %.40s at %s is beyond float64 (Python reads it as inf); it is shown as written and not used as a number", raw, path)}, true
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// KeyPath appends an object key to a JSON path: base.key, or base["key"]
// for a key that is not an identifier.
func KeyPath(base, key string) string {
	if identRE.MatchString(key) {
		return base + "." + key
	}
	return base + "[" + strconv.Quote(key) + "]"
}
