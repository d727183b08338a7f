package list

import "strings"

// cellGap is what separates column i from the one before it: a space, or
// a rule between two filters' answers (strict │ flexible), which read as
// one table.
func cellGap(cols []colLayout, i int) string {
	if i > 0 && strings.HasPrefix(cols[i-1].field, "answer.") && strings.HasPrefix(cols[i].field, "answer.") {
		return "│"
	}
	return " "
}

// joinCells joins a row's cells with the gaps of cols.
func joinCells(cols []colLayout, cells []string) string {
	var b strings.Builder
	for i, c := range cells {
		if i > 0 {
			b.WriteString(cellGap(cols, i))
		}
		b.WriteString(c)
	}
	return b.String()
}
