package lmeval

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"evalview/loaders/jsonl"
)

// SearchRaw implements model.RawSearcher: it streams the samples file in
// big blocks, looks for the needle as the JSON source spells it, and maps
// each hit's offset to its row and record. The needle is looked for as
// typed and, when JSON would spell it differently (quotes, backslashes,
// control characters, non-ASCII), in its escaped forms too, so plain text
// finds escaped source. hit is called in record order, as soon as every
// record before a hit one is decided; it runs over the complete index
// (it waits for the scan) and honours ctx between blocks.
func (x *index) SearchRaw(ctx context.Context, needle string, fold bool, hit func(record int)) error {
	if needle == "" {
		return nil
	}
	select {
	case <-x.s.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	s := x.s
	s.mu.RLock()
	refs := s.byOff
	n := len(s.sums)
	// lastEnd[i] is where record i's last row ends: past it, a record with
	// no hit is decided.
	lastEnd := make([]int64, n)
	for _, loc := range refs {
		lastEnd[loc.rec] = max(lastEnd[loc.rec], loc.off+int64(loc.size))
	}
	inMemory := len(s.rows) > 0 && len(s.rows[0]) > 0 && s.rows[0][0].data != nil
	var arrayRows [][]rowLoc
	if inMemory {
		arrayRows = s.rows
	}
	s.mu.RUnlock()

	m := newMatcher(needle, fold)
	found := make([]bool, n)
	next := 0
	flush := func(pos int64) {
		for next < n && (found[next] || lastEnd[next] <= pos) {
			if found[next] {
				hit(next)
			}
			next++
		}
	}
	if inMemory {
		// Old array files keep their rows' bytes.
		for i, locs := range arrayRows {
			if err := ctx.Err(); err != nil {
				return err
			}
			for _, l := range locs {
				if m.index(l.data) >= 0 {
					hit(i)
					break
				}
			}
		}
		return nil
	}
	r, _, err := jsonl.OpenStream(s.path)
	if err != nil {
		return err
	}
	defer r.Close()
	const block = 8 << 20
	overlap := m.maxLen() - 1
	buf := make([]byte, block+overlap)
	var (
		base  int64 // file offset of buf[0]
		carry int
		ri    int // first ref that may still hold a hit
	)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		k, rerr := io.ReadFull(r, buf[carry:])
		end := carry + k
		for from := 0; ; {
			at := m.index(buf[from:end])
			if at < 0 {
				break
			}
			off := base + int64(from+at)
			// Map the hit to its row: rows are in file order.
			ri += sort.Search(len(refs)-ri, func(j int) bool { return refs[ri+j].off+int64(refs[ri+j].size) > off })
			if ri >= len(refs) {
				break
			}
			row := refs[ri]
			if row.off <= off {
				found[row.rec] = true
				// Skip the rest of this row: one hit is enough.
				from = int(row.off + int64(row.size) - base)
				if from >= end {
					break
				}
				continue
			}
			from += at + 1
		}
		if rerr != nil {
			if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
				flush(1 << 62)
				return nil
			}
			return rerr
		}
		keep := min(overlap, end)
		flush(base + int64(end-keep))
		copy(buf, buf[end-keep:end])
		base += int64(end - keep)
		carry = keep
	}
}

// matcher finds any of a needle's spellings in source bytes.
type matcher struct {
	needles [][]byte
	fold    bool
	// pick is, per needle, the position of its rarest byte, the one the
	// case-folding search hunts for with IndexByte.
	pick []int
}

func newMatcher(needle string, fold bool) *matcher {
	m := &matcher{fold: fold}
	seen := map[string]bool{}
	for _, v := range spellings(needle) {
		if fold {
			v = asciiLower(v)
		}
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		m.needles = append(m.needles, []byte(v))
		m.pick = append(m.pick, rarest(v))
	}
	return m
}

// spellings lists the needle as typed and as JSON writes it, with
// non-ASCII kept (ensure_ascii=False, what the harness writes) and escaped
// as \uXXXX (Python's default).
func spellings(needle string) []string {
	out := []string{needle}
	b, err := json.Marshal(needle)
	if err != nil {
		return out
	}
	esc := string(b[1 : len(b)-1])
	// encoding/json escapes <, > and & for HTML; JSON writers of eval
	// artifacts do not.
	esc = strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(esc)
	out = append(out, esc)
	var ascii strings.Builder
	for _, r := range esc {
		switch {
		case r < utf8.RuneSelf:
			ascii.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := surrogates(r)
			ascii.WriteString(hex4(r1) + hex4(r2))
		default:
			ascii.WriteString(hex4(r))
		}
	}
	return append(out, ascii.String())
}

func surrogates(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}

func hex4(r rune) string {
	const digits = "0123456789abcdef"
	return `\u` + string([]byte{digits[r>>12&15], digits[r>>8&15], digits[r>>4&15], digits[r&15]})
}

func (m *matcher) maxLen() int {
	n := 1
	for _, v := range m.needles {
		n = max(n, len(v))
	}
	return n
}

// index returns the first position in b where a spelling starts, or -1.
func (m *matcher) index(b []byte) int {
	best := -1
	for i, v := range m.needles {
		lim := b
		if best >= 0 {
			lim = b[:min(len(b), best+len(v))]
		}
		var at int
		if m.fold {
			at = indexFold(lim, v, m.pick[i])
		} else {
			at = bytes.Index(lim, v)
		}
		if at >= 0 && (best < 0 || at < best) {
			best = at
		}
	}
	return best
}

// indexFold finds lower-cased needle v in b ignoring ASCII case: it hunts
// for v's rarest byte (both cases) with IndexByte, the fast path, and
// compares the candidates.
func indexFold(b, v []byte, pick int) int {
	c := v[pick]
	upper := c
	if 'a' <= c && c <= 'z' {
		upper = c - 'a' + 'A'
	}
	// Next known position of each case of c at or after from (-1: none
	// left); each is searched again only once passed, so that a case that
	// never occurs costs one scan, not one per candidate.
	nextLow, nextUp := -2, -2
	if upper == c {
		nextUp = -1
	}
	for from := pick; from < len(b); {
		if nextLow != -1 && nextLow < from {
			nextLow = indexFrom(b, c, from)
		}
		if nextUp != -1 && nextUp < from {
			nextUp = indexFrom(b, upper, from)
		}
		i := nextLow
		if i < 0 || (nextUp >= 0 && nextUp < i) {
			i = nextUp
		}
		if i < 0 {
			return -1
		}
		start := i - pick
		if start+len(v) <= len(b) && asciiEqualFold(b[start:start+len(v)], v) {
			return start
		}
		from = i + 1
	}
	return -1
}

// indexFrom is bytes.IndexByte from position from, as a position in b.
func indexFrom(b []byte, c byte, from int) int {
	if i := bytes.IndexByte(b[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// asciiEqualFold compares a to lower-case v, ignoring ASCII case.
func asciiEqualFold(a, v []byte) bool {
	for i, c := range a {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != v[i] {
			return false
		}
	}
	return true
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// rarest picks the needle byte least frequent in English text and JSON,
// so that the case-folding search stops at few false candidates.
func rarest(v string) int {
	const common = " etaoinsrhldcu\"\\n:,"
	best, rank := 0, -1
	for i := 0; i < len(v); i++ {
		r := strings.IndexByte(common, v[i])
		if r < 0 {
			r = len(common) + 1 // not common at all: the best pick
		} else {
			r = len(common) - r
		}
		if r > rank {
			best, rank = i, r
		}
	}
	return best
}
