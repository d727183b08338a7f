package lmeval

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"evalview/loaders/internal/jsonstr"
	"evalview/model"
)

// Labels of lm-eval records (Summary.Labels), set while indexing from each
// doc's first row:
//
//	target      the row's target as text, cut to maxTargetLabel runes (the
//	            full text is Record.Target); the targets frequency table
//	            and `target=...` queries read it
//	doc.KEY     a doc field that looks like a category (subject, category,
//	            level, answer letter): a string of up to maxDocLabel runes,
//	            an integer or a boolean
//
// Which doc keys become labels is decided once per samples file from its
// first labelSampleDocs docs: a key qualifies when none of them has a long
// or structured value for it (question, solution, choices), some value is
// not empty, and it is not an identifier, which groups nothing: neither
// named like one (id, question_id, idx) nor, when there are enough docs to
// tell, different in every doc.
const (
	labelTarget       = "target"
	docLabelPrefix    = "doc."
	maxTargetLabel    = 80
	maxDocLabel       = 40
	labelSampleDocs   = 64
	minDocsForIDCheck = 16
	// maxInterned caps each key's table of shared values, and the table
	// of shared label sets, so that unique values (gsm8k targets) do not
	// grow them without bound.
	maxInterned = 4096
)

// docField is one top-level doc field as a label candidate. val is its
// text when it is label-like (a short string, an integer, a boolean);
// long marks a value that is not (long text, a float, a list, an object).
type docField struct {
	key  string
	val  string
	long bool
}

// docFields lists the label candidates of a doc's entries; null values
// say nothing and are left out. Once the label keys are chosen, keys
// lists them and only those entries are looked at (nil when none are).
func docFields(entries []entry, keys *[]string) []docField {
	var out []docField
	for _, e := range entries {
		if keys != nil && !slices.Contains(*keys, e.Key) {
			continue
		}
		v := bytes.TrimSpace(e.Val)
		if len(v) == 0 {
			continue
		}
		f := docField{key: e.Key}
		switch c := v[0]; {
		case c == '"' && prefixEnd(v, maxDocLabel+1) < len(v)-1:
			f.long = true // more than maxDocLabel characters: not decoded
		case c == '"':
			s, ok := jsonstr.Unquote(v)
			if !ok {
				if json.Unmarshal(v, &s) != nil {
					continue
				}
			}
			f.long = utf8.RuneCountInString(s) > maxDocLabel || strings.ContainsAny(s, "\n\r")
			if !f.long {
				f.val = s
			}
		case c == 't' || c == 'f':
			f.val = string(v)
		case c == '-' || c >= '0' && c <= '9':
			if len(v) > 20 || bytes.ContainsAny(v, ".eE") {
				f.long = true
			} else {
				f.val = string(v)
			}
		case c == 'n':
			continue
		default:
			f.long = true
		}
		out = append(out, f)
	}
	return out
}

// targetLabel is a target's label text: its first maxTargetLabel runes.
// A long string target (a gsm8k solution) is decoded only as far as the
// label needs.
func targetLabel(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 2+maxTargetLabel && raw[0] == '"' {
		// The ellipsis goes inside the literal, which is decoded into a
		// buffer on the stack; the cut literal is made to its size (a
		// buffer of 512 bytes on the heap was most of the garbage a doc's
		// labels made).
		lit := raw
		var textBuf [320]byte
		if end := prefixEnd(raw, maxTargetLabel); end < len(raw)-1 {
			lit = append(append(make([]byte, 0, end+4), raw[:end]...), "…\""...)
		}
		if text, end, ok := jsonstr.Append(textBuf[:0], lit, 0); ok && end == len(lit) {
			return string(text)
		}
	}
	return clipRunes(fastText(raw), maxTargetLabel)
}

// prefixEnd returns where the JSON string literal raw's first n
// characters end (escapes count as one, a surrogate pair as one): at its
// closing quote, len(raw)-1, or beyond when it has no more.
func prefixEnd(raw []byte, n int) int {
	i := 1
	for ; i < len(raw)-1 && n > 0; n-- {
		switch {
		case raw[i] == '\\' && i+1 < len(raw) && raw[i+1] == 'u':
			i += 6
			if i+3 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' &&
				raw[i-4]|0x20 == 'd' && strings.IndexByte("89abAB", raw[i-3]) >= 0 &&
				raw[i+2]|0x20 == 'd' && strings.IndexByte("cdefCDEF", raw[i+3]) >= 0 {
				i += 6 // a surrogate pair is one character
			}
		case raw[i] == '\\':
			i += 2
		case raw[i] < utf8.RuneSelf:
			i++
		default:
			_, size := utf8.DecodeRune(raw[i:])
			i += size
		}
	}
	return i
}

// clipRunes is clip without converting the whole string to runes.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// labeler assigns the labels of a samples file's records, in file order
// (scanned.apply calls it under the index lock). Label maps are shared
// between records with the same labels and never changed once set.
type labeler struct {
	decided bool
	// keys are the doc keys chosen as labels, with their label names.
	keys, names []string
	// pending are the first docs, waiting for the choice of keys.
	pending []pendingLabels
	values  map[string]map[string]string
	sets    map[string]model.Labels
	sig     []byte // reused to build the keys of sets
	// chosen publishes keys to the parse workers once they are decided,
	// so that they look at those fields only.
	chosen atomic.Pointer[[]string]
	// setHits and setMisses count lookups in sets; noSets turns sharing
	// off when label sets prove unique (a gsm8k target per doc).
	setHits, setMisses int
	noSets             bool
}

// pendingLabels is a doc's label candidates kept until the keys are
// chosen.
type pendingLabels struct {
	rec    int
	target string
	fields []docField
}

// add notes record rec's target and doc fields and returns the label maps
// that can now be set: rec's own once the keys are chosen, or those of
// every pending doc when rec completes the sample.
func (l *labeler) add(rec int, target string, fields []docField) []assigned {
	if l.decided {
		return []assigned{{rec, l.labels(target, fields)}}
	}
	l.pending = append(l.pending, pendingLabels{rec, target, fields})
	if len(l.pending) < labelSampleDocs {
		return nil
	}
	return l.decide()
}

// assigned is a record's label map.
type assigned struct {
	rec    int
	labels model.Labels
}

// decide chooses the doc keys from the pending docs and returns their
// label maps. finish calls it when the file has fewer docs than the
// sample.
func (l *labeler) decide() []assigned {
	if l.decided {
		return nil
	}
	l.decided = true
	type stat struct {
		long, filled bool
		distinct     map[string]bool
		seen         int
	}
	stats := map[string]*stat{}
	var order []string
	for _, p := range l.pending {
		for _, f := range p.fields {
			st := stats[f.key]
			if st == nil {
				st = &stat{distinct: map[string]bool{}}
				stats[f.key] = st
				order = append(order, f.key)
			}
			st.long = st.long || f.long
			st.filled = st.filled || f.val != ""
			st.distinct[f.val] = true
			st.seen++
		}
	}
	for _, k := range order {
		st := stats[k]
		if st.long || !st.filled || idLike(k) || (st.seen >= minDocsForIDCheck && len(st.distinct) == st.seen) {
			continue
		}
		l.keys = append(l.keys, k)
		l.names = append(l.names, docLabelPrefix+k)
	}
	out := make([]assigned, 0, len(l.pending))
	for _, p := range l.pending {
		out = append(out, assigned{p.rec, l.labels(p.target, p.fields)})
	}
	l.pending = nil
	l.chosen.Store(&l.keys)
	return out
}

// idLike reports whether a doc key names an identifier.
func idLike(key string) bool {
	k := strings.ToLower(key)
	return k == "id" || k == "idx" || k == "uid" || k == "uuid" || strings.HasSuffix(k, "_id") || strings.HasSuffix(k, "_idx") || strings.HasSuffix(k, "_uid")
}

// labels builds (or finds) the labels of one doc.
func (l *labeler) labels(target string, fields []docField) model.Labels {
	if l.noSets {
		return l.newLabels(target, fields, 1+len(l.keys))
	}
	// The signature spells every part's length, so that no two label
	// sets share one whatever bytes their values hold.
	sig := l.sig[:0]
	part := func(s string) {
		sig = strconv.AppendInt(sig, int64(len(s)), 10)
		sig = append(sig, ':')
		sig = append(sig, s...)
	}
	part(target)
	n := 1
	for i, k := range l.keys {
		if v, ok := fieldValue(fields, k); ok {
			part(l.names[i])
			part(v)
			n++
		}
	}
	l.sig = sig
	if m, ok := l.sets[string(sig)]; ok {
		l.setHits++
		return m
	}
	l.setMisses++
	if l.setMisses >= 1024 && l.setHits < l.setMisses/4 {
		l.noSets, l.sets = true, nil
	}
	m := l.newLabels(target, fields, n)
	if l.noSets {
		return m
	}
	if l.sets == nil {
		l.sets = map[string]model.Labels{}
	}
	if len(l.sets) < maxInterned {
		l.sets[string(sig)] = m
	}
	return m
}

// newLabels builds the labels of one doc, of n labels.
func (l *labeler) newLabels(target string, fields []docField, n int) model.Labels {
	kv := make([]string, 0, 2*n)
	kv = append(kv, labelTarget, l.intern(labelTarget, target))
	for i, k := range l.keys {
		if v, ok := fieldValue(fields, k); ok {
			kv = append(kv, l.names[i], l.intern(k, v))
		}
	}
	return model.NewLabels(kv...)
}

// release drops the tables that share values and label sets between the
// records of a scan once it is over (the records keep their labels).
func (l *labeler) release() {
	l.values, l.sets, l.sig, l.pending = nil, nil, nil, nil
}

// fieldValue is the label-like value of key among fields (the last one
// wins, as in json.loads).
func fieldValue(fields []docField, key string) (string, bool) {
	for i := len(fields) - 1; i >= 0; i-- {
		if fields[i].key == key {
			return fields[i].val, !fields[i].long
		}
	}
	return "", false
}

// intern returns the shared copy of key's value v, so that 100,000
// records with a few subjects hold a few strings.
func (l *labeler) intern(key, v string) string {
	if l.values == nil {
		l.values = map[string]map[string]string{}
	}
	t := l.values[key]
	if t == nil {
		t = map[string]string{}
		l.values[key] = t
	}
	if len(t) >= maxInterned {
		return v // not a category: stop looking
	}
	if s, ok := t[v]; ok {
		return s
	}
	t[v] = v
	return v
}

// setLabels publishes label maps on their summaries. The caller holds
// the index lock.
func (s *scanned) setLabels(as []assigned) {
	for _, a := range as {
		s.sums[a.rec].Labels = a.labels
	}
}

// labelsOf is what parse learns for a doc's labels from its first row.
func labelsOf(target json.RawMessage, entries []entry, entriesErr error, keys *[]string) (string, []docField) {
	var fields []docField
	if entriesErr == nil {
		fields = docFields(entries, keys)
	}
	return targetLabel(target), fields
}
