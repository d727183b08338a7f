package overview

import (
	"strconv"
	"strings"

	"evalview/model"
)

// Labels shortens the columns' names for their headings, keeping them
// apart: a model's organisation is dropped where the names stay unique
// ("meta-llama/Llama-3.1-8B" reads "Llama-3.1-8B"), a prefix all models
// share is dropped at a separator (checkpoints "run7-step1000" and
// "run7-step2000" read "step1000" and "step2000"), and a column that is
// one run of a model among several adds the run's time, as short as
// tells them apart ("13:31", else "09-09 13:31").
func Labels(cols []Column) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Model
	}
	short := make([]string, len(cols))
	for i, n := range names {
		short[i] = n[strings.LastIndexByte(n, '/')+1:]
	}
	if distinct(short) == distinct(names) {
		names = short
	}
	if p := commonPrefix(names); p != "" {
		for i := range names {
			names[i] = names[i][len(p):]
		}
	}
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = names[i]
		if out[i] == "" {
			out[i] = "model unknown"
		}
		if c.Run != "" && runsOf(cols, c.Model) > 1 {
			out[i] += " " + shortRun(cols, c)
		}
	}
	// Runs nothing else tells apart (their time unknown) are numbered.
	seen := map[string]int{}
	for i, l := range out {
		if seen[l]++; seen[l] > 1 {
			out[i] = l + " #" + strconv.Itoa(seen[l])
		}
	}
	return out
}

// distinct counts the different strings of ss.
func distinct(ss []string) int {
	seen := map[string]bool{}
	for _, s := range ss {
		seen[s] = true
	}
	return len(seen)
}

// minRest is how much of a name dropping a shared prefix must leave.
const minRest = 4

// commonPrefix is the longest prefix of every name that ends at a
// separator and leaves each name minRest characters at least, when there
// are two different names or more; "" otherwise.
func commonPrefix(names []string) string {
	if distinct(names) < 2 {
		return ""
	}
	p := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, p) {
			p = p[:len(p)-1]
		}
	}
	for len(p) > 0 && !strings.ContainsRune("-_/.", rune(p[len(p)-1])) {
		p = p[:len(p)-1]
	}
	for _, n := range names {
		if len([]rune(n[len(p):])) < minRest {
			return "" // "u1" says less than "gemma3:12b-u1"
		}
	}
	return p
}

// runsOf counts the columns of model m.
func runsOf(cols []Column, m string) int {
	n := 0
	for _, c := range cols {
		if c.Model == m {
			n++
		}
	}
	return n
}

// shortRun is c's run time, without the date when every run of its
// model is of the same day.
func shortRun(cols []Column, c Column) string {
	t := model.RunTime(c.Run)
	if len(t) != len("2006-01-02 15:04") || t == c.Run {
		return t
	}
	for _, o := range cols {
		if o.Model == c.Model && o.Run != "" && !strings.HasPrefix(model.RunTime(o.Run), t[:10]) {
			return t[5:]
		}
	}
	return t[11:]
}
