package lmeval

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"evalview/loaders/jsonl"
)

// SearchRaw implements model.RawSearcher: it streams the samples file in
// big blocks, looks for the needle as the JSON source spells it, and maps
// each hit's offset to its row and record. The needle is looked for as
// typed and, when JSON would spell it differently (quotes, backslashes,
// control characters, non-ASCII), in its escaped forms too, so plain text
// finds escaped source. hit is called once per record, as soon as its
// first hit is found, so in the file order of the hits (record order when
// a record's rows are together, as the harness writes them).
//
// It does not wait for the index: it searches as far as the index has
// got and follows it, so that a search typed at the first screen of a
// big file shows its first hit at once. A hit the index cannot place
// yet (a line held back as possibly broken) is placed when the index is
// complete. It honours ctx between blocks and while it waits.
func (x *index) SearchRaw(ctx context.Context, needle string, fold bool, hit func(record int)) error {
	if needle == "" {
		return nil
	}
	s := x.s
	m := newMatcher(needle, fold)
	v := &searchView{s: s}
	r, _, err := jsonl.OpenStream(s.path)
	if err != nil {
		return err
	}
	defer r.Close()
	overlap := m.maxLen() - 1
	bp := searchBufs.Get().(*[]byte)
	defer searchBufs.Put(bp)
	buf := *bp
	if len(buf) < searchBlock+overlap {
		buf = make([]byte, searchBlock+overlap)
		*bp = buf
	}
	var (
		base    int64 // file offset of buf[0]
		carry   int
		found   []bool
		pending []int64 // hits no row held yet, placed once the index is complete
	)
	report := func(rec int) {
		if rec >= len(found) {
			found = append(found, make([]bool, rec+1-len(found)+1024)...)
		}
		if !found[rec] {
			found[rec] = true
			hit(rec)
		}
	}
	if s.complete.Load() {
		if err := v.reach(ctx, 1<<62); err != nil {
			return err
		}
	}
scan:
	for !v.inMemory {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := len(buf)
		if base == 0 && carry == 0 {
			// The first read is short: a search typed at the first
			// screen shows the first hit without waiting for 8 MB to be
			// read (and, in a new buffer, faulted in).
			n = min(n, searchFirst)
		}
		k, rerr := io.ReadFull(r, buf[carry:n])
		end := carry + k
		for from := 0; ; {
			at := m.index(buf[from:end])
			if at < 0 {
				break
			}
			off := base + int64(from+at)
			if err := v.reach(ctx, off); err != nil {
				return err
			}
			if v.inMemory {
				break scan
			}
			row, ok := v.rowAt(off)
			if !ok {
				if !v.complete {
					pending = append(pending, off)
				}
				from += at + 1
				continue
			}
			report(int(row.rec))
			// Skip the rest of this row: one hit is enough.
			from = int(row.off + int64(row.size) - base)
			if from >= end {
				break
			}
		}
		if rerr != nil {
			if rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
				return rerr
			}
			break
		}
		keep := min(overlap, end)
		copy(buf, buf[end-keep:end])
		base += int64(end - keep)
		carry = keep
	}
	if len(pending) > 0 {
		if err := v.reach(ctx, 1<<62); err != nil {
			return err
		}
		v.ri = 0 // pending offsets are in file order, from the start
		for _, off := range pending {
			if row, ok := v.rowAt(off); ok {
				report(int(row.rec))
			}
		}
	}
	if v.inMemory {
		// Old array files keep their rows' bytes (and are indexed whole,
		// so the stream found nothing to place): search those.
		for i := range v.records {
			if err := ctx.Err(); err != nil {
				return err
			}
			v.s.mu.RLock()
			locs := v.s.rowsOf(i)
			v.s.mu.RUnlock()
			for _, l := range locs {
				if m.index(v.s.inMemory(l)) >= 0 {
					report(i)
					break
				}
			}
		}
	}
	return nil
}

// searchBlock is the raw search's read size.
const searchBlock = 8 << 20

// searchFirst is the size of the raw search's first read (a variable for
// tests).
var searchFirst = 256 << 10

// searchBufs recycles the raw search's read buffers: a search replaced by
// a newer one (the user typed on) leaves its buffer to the next.
var searchBufs = sync.Pool{New: func() any { b := make([]byte, 0); return &b }}

// searchView is what a raw search knows of a possibly growing index: the
// rows in file order as far as it has looked.
type searchView struct {
	s    *scanned
	refs []rowLoc
	// ri is the first row that may still hold a hit (hits come in file
	// order).
	ri int
	// complete is set once the index was complete when looked at.
	complete bool
	// inMemory marks an old array file, whose rows keep their bytes.
	inMemory bool
	// records counts an in-memory file's records.
	records int
}

// reach waits until the index has placed every row that holds offset off,
// or is complete, and takes in the rows it placed.
func (v *searchView) reach(ctx context.Context, off int64) error {
	if v.complete || (len(v.refs) > 0 && v.refs[len(v.refs)-1].off+int64(v.refs[len(v.refs)-1].size) > off) {
		return nil
	}
	wait := 200 * time.Microsecond
	for {
		complete := v.s.complete.Load()
		if complete || v.s.indexed.Load() > off {
			v.s.mu.RLock()
			v.refs = v.s.byOff
			if complete {
				v.complete = true
				v.records = v.s.count()
				v.inMemory = v.s.whole != nil && v.records > 0
			}
			v.s.mu.RUnlock()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-v.s.done:
		case <-time.After(wait):
			wait = min(2*wait, 5*time.Millisecond)
		}
	}
}

// rowAt returns the row holding offset off, among the rows taken in.
func (v *searchView) rowAt(off int64) (rowLoc, bool) {
	refs := v.refs
	v.ri += sort.Search(len(refs)-v.ri, func(j int) bool { return refs[v.ri+j].off+int64(refs[v.ri+j].size) > off })
	if v.ri >= len(refs) || refs[v.ri].off > off {
		return rowLoc{}, false
	}
	return refs[v.ri], true
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
