package model

// Agreement tells how the filters of an lm-eval doc agree: the status
// name ("pass", "fail", "unscored"...) when every filter with a row has
// that status, "mixed" when they differ, "" when no filter has a row. The
// query language's agreement field and the comparison slices both read
// it, so that a slice and its query match the same docs.
func (s *Summary) Agreement() string {
	first, n := StatusUnscored, 0
	for _, o := range s.Outcomes {
		if !o.Present {
			continue
		}
		if n == 0 {
			first = o.Status
		} else if o.Status != first {
			return "mixed"
		}
		n++
	}
	if n == 0 {
		return ""
	}
	return first.String()
}
