package query

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"evalview/model"
)

// Matcher is the `/` search: a plain string or a regex, smart case
// (case-insensitive unless the pattern has an upper-case letter; for
// regexes, letters after a backslash do not count). It is immutable and
// safe for concurrent use.
type Matcher struct {
	pattern string
	regex   bool
	re      *regexp.Regexp
	lit     string // the literal, lower-cased when fold
	fold    bool
	// emptyOK is true when the regex matches the empty string, so Match
	// must look for a non-empty match like FindAll does.
	emptyOK bool
}

// NewMatcher compiles a search pattern. An empty pattern is an error, as
// is a regex that does not compile.
func NewMatcher(pattern string, regex bool) (*Matcher, error) {
	if pattern == "" {
		return nil, errors.New("empty search pattern")
	}
	m := &Matcher{pattern: pattern, regex: regex, fold: !hasUpper(pattern, regex)}
	if !regex {
		m.lit = pattern
		if m.fold {
			m.lit = strings.ToLower(pattern)
		}
		return m, nil
	}
	p := pattern
	if m.fold {
		p = "(?i)" + p
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	m.re, m.emptyOK = re, re.MatchString("")
	return m, nil
}

// String returns the pattern as typed.
func (m *Matcher) String() string { return m.pattern }

// Regex reports whether the pattern is a regex.
func (m *Matcher) Regex() bool { return m.regex }

// Match reports whether text has a (non-empty) match.
func (m *Matcher) Match(text string) bool {
	switch {
	case m.re == nil && m.fold:
		start, _ := indexFold(text, m.lit)
		return start >= 0
	case m.re == nil:
		return strings.Contains(text, m.lit)
	case m.emptyOK:
		return len(m.FindAll(text)) > 0
	}
	return m.re.MatchString(text)
}

// FindAll returns the byte ranges of the non-overlapping, non-empty
// matches in text, in order, for highlighting.
func (m *Matcher) FindAll(text string) [][2]int {
	var out [][2]int
	if m.re != nil {
		for _, loc := range m.re.FindAllStringIndex(text, -1) {
			if loc[1] > loc[0] {
				out = append(out, [2]int{loc[0], loc[1]})
			}
		}
		return out
	}
	for i := 0; i < len(text); {
		var start, end int
		if m.fold {
			start, end = indexFold(text[i:], m.lit)
		} else if start = strings.Index(text[i:], m.lit); start >= 0 {
			end = start + len(m.lit)
		}
		if start < 0 {
			break
		}
		out = append(out, [2]int{i + start, i + end})
		i += end
	}
	return out
}

// Search returns the rows (indices into ds's records) whose RecordText m
// matches, in the given order. It loads every record, so callers run it
// off the UI goroutine; it stops early with ctx's error when ctx is done.
// Records that fail to load are skipped and the first such error is
// returned with the matches.
func Search(ctx context.Context, ds *model.Dataset, rows []int, m *Matcher) ([]int, error) {
	var out []int
	var firstErr error
	for k, i := range rows {
		if k%64 == 0 {
			if err := ctx.Err(); err != nil {
				return out, err
			}
		}
		r, err := ds.Records.Record(i)
		if err != nil || r == nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if m.Match(RecordText(r)) {
			out = append(out, i)
		}
	}
	return out, firstErr
}
