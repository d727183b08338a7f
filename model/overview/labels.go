package overview

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"evalview/model"
)

// labelColumns sets each column's Label and Tail (Labels).
func labelColumns(cols []Column) {
	heads, tails := labels(cols)
	for i := range cols {
		cols[i].Tail = tails[i]
		cols[i].Label = strings.TrimSpace(heads[i] + " " + tails[i])
	}
}

// Labels shortens the columns' names for their headings, keeping them
// apart. A model's organisation is dropped where the names stay unique
// ("meta-llama/Llama-3.1-8B" reads "Llama-3.1-8B"), and a prefix all
// models share is dropped at a separator (checkpoints "run7-step1000"
// and "run7-step2000" read "step1000" and "step2000"). A model of
// several columns adds what tells them apart (Tail): of each setting
// that differs, the part of its value that differs ("step1000" of
// revision=step1000, "alpha3.0" of steer_path=vectors/llama_alpha3.0.pt,
// "5-shot"), and for a column of one run among the model's runs, the
// run's time, as short as tells them apart ("13:31", else "09-09
// 13:31"). When every column is of one model, the model's name is left
// to the columns' full names and the label is what differs.
func Labels(cols []Column) []string {
	heads, tails := labels(cols)
	out := make([]string, len(cols))
	for i := range cols {
		out[i] = strings.TrimSpace(heads[i] + " " + tails[i])
	}
	return out
}

// labels are the columns' heads (their models, shortened) and tails
// (what tells a model's columns apart).
func labels(cols []Column) (heads, tails []string) {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Model
	}
	short := make([]string, len(cols))
	for i, n := range names {
		n = strings.TrimRight(n, "/") // a checkpoint folder given with its slash
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
	heads, tails = make([]string, len(cols)), make([]string, len(cols))
	for i := range cols {
		heads[i] = names[i]
		if heads[i] == "" {
			heads[i] = "model unknown"
		}
	}
	byModel := map[string][]int{}
	var models []string
	for i, c := range cols {
		if _, ok := byModel[c.Model]; !ok {
			models = append(models, c.Model)
		}
		byModel[c.Model] = append(byModel[c.Model], i)
	}
	for _, m := range models {
		idx := byModel[m]
		if len(idx) < 2 {
			continue
		}
		parts := settingParts(cols, idx)
		day := sameDay(cols, idx)
		for n, i := range idx {
			if cols[i].Run != "" && cols[i].Expanded {
				parts[n] = append(parts[n], shortRun(cols[i], day))
			}
			tails[i] = strings.Join(parts[n], " ")
		}
	}
	// One model: its name is the columns' full name, the label what
	// tells them apart.
	if len(models) == 1 && len(cols) > 1 && models[0] != "" {
		for i := range heads {
			if tails[i] != "" {
				heads[i] = ""
			}
		}
	}
	// Columns nothing else tells apart (runs whose time is unknown) are
	// numbered.
	seen := map[string]int{}
	for i := range cols {
		l := strings.TrimSpace(heads[i] + " " + tails[i])
		if seen[l]++; seen[l] > 1 {
			tails[i] = strings.TrimSpace(tails[i] + " #" + strconv.Itoa(seen[l]))
		}
	}
	return heads, tails
}

// settingParts are, for the columns idx of one model, the words of
// each differing setting's value that tell them apart, in the order of
// Column.Differs. A setting some runs do not state at all is incidental
// rather than swept: it is left out of the columns that have its most
// common value, where the rest still tells every column apart
// ("bfloat16" said on most columns of a model says less than "dtype
// unset" on the two that differ), those most columns leave unset first.
// A setting every run states (revision, n-shot) is what the runs sweep:
// it is always said.
func settingParts(cols []Column, idx []int) [][]string {
	keys := cols[idx[0]].Differs
	toks := make([][]string, len(keys)) // toks[k][n]
	vals := make([][]string, len(keys))
	for ki, k := range keys {
		vals[ki] = make([]string, len(idx))
		set := make([]bool, len(idx))
		for n, i := range idx {
			vals[ki][n], set[n] = factValue(cols[i].Config, k)
			if !set[n] {
				vals[ki][n] = "\x00"
			}
		}
		toks[ki] = distinguish(k, vals[ki], set)
	}
	omit := make([][]bool, len(keys))
	for ki := range keys {
		omit[ki] = make([]bool, len(idx))
	}
	labelsOK := func() bool {
		seen := map[string]bool{}
		for n := range idx {
			var l []string
			for ki := range keys {
				if !omit[ki][n] {
					l = append(l, toks[ki][n])
				}
			}
			s := strings.Join(l, " ")
			if s == "" || seen[s] {
				return false
			}
			seen[s] = true
		}
		return true
	}
	// The settings by the share of the model's columns their most
	// common value has, highest first.
	type cand struct {
		ki    int
		mode  string
		share int
	}
	var cands []cand
	for ki := range keys {
		count := map[string]int{}
		best := ""
		for _, v := range vals[ki] {
			count[v]++
			if count[v] > count[best] || count[v] == count[best] && v < best {
				best = v
			}
		}
		switch {
		case count["\x00"] > 0 && 2*count[best] > len(idx):
			cands = append(cands, cand{ki, best, count[best]})
		case count["\x00"] > 0:
			// No value most columns have: the setting is left out of
			// every column where the others tell them apart.
			cands = append(cands, cand{ki, "", 0})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		if c := boolCmp(b.mode == "\x00", a.mode == "\x00"); c != 0 {
			return c // a setting most columns leave unset first: unset is the plain case
		}
		if c := boolCmp(a.share == 0, b.share == 0); c != 0 {
			return c // then those most columns agree on, then the rest
		}
		return b.share - a.share
	})
	for _, c := range cands {
		for n := range idx {
			omit[c.ki][n] = vals[c.ki][n] == c.mode || c.share == 0
		}
		if !labelsOK() {
			for n := range idx {
				omit[c.ki][n] = false
			}
		}
	}
	out := make([][]string, len(idx))
	for n := range idx {
		for ki := range keys {
			if !omit[ki][n] {
				out[n] = append(out[n], toks[ki][n])
			}
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

// sameDay reports whether the columns idx (of one model) that are one
// run each all ran on one day.
func sameDay(cols []Column, idx []int) bool {
	day := ""
	for _, i := range idx {
		if cols[i].Run == "" {
			continue
		}
		t := model.RunTime(cols[i].Run)
		if len(t) < 10 {
			return false
		}
		if day != "" && t[:10] != day {
			return false
		}
		day = t[:10]
	}
	return true
}

// shortRun is c's run time, without the date when every run of its
// model shown is of the same day (day).
func shortRun(c Column, day bool) string {
	t := model.RunTime(c.Run)
	if len(t) != len("2006-01-02 15:04") || t == c.Run {
		return t
	}
	if !day {
		return t[5:]
	}
	return t[11:]
}

// Words for settings whose values say little by themselves: a chat
// template is a long text (or its hash), what matters is whether there
// was one.
var settingWords = map[string][2]string{
	"chat_template":        {"chat", "no chat"},
	"system_instruction":   {"system prompt", "no system prompt"},
	"fewshot_as_multiturn": {"multiturn", "single-turn"},
}

// distinguish is, for each column of a model, the part of setting k's
// value that tells it from the others' (set false: the column does not
// state k).
func distinguish(k string, vals []string, set []bool) []string {
	out := make([]string, len(vals))
	var present []string
	seen := map[string]bool{}
	for n, v := range vals {
		if set[n] && !seen[v] {
			seen[v] = true
			present = append(present, v)
		}
	}
	trimmed := trimCommon(present)
	short := map[string]string{}
	for n, v := range present {
		short[v] = trimmed[n]
	}
	name := k[strings.LastIndexByte(k, '.')+1:]
	for n, v := range vals {
		w, word := settingWords[k]
		switch {
		case !set[n] && word:
			out[n] = w[1]
		case !set[n] && k == "num_fewshot":
			out[n] = "n-shot unknown"
		case !set[n]:
			out[n] = name + " unset"
		case word && len(present) == 1:
			out[n] = w[0]
		case word:
			out[n] = w[0] + " " + clip(short[v], 7)
		case k == "num_fewshot" && isNumber(v):
			out[n] = v + "-shot"
		case !hasLetter(short[v]) || isBool(v):
			out[n] = name + "=" + clip(short[v], 24)
		default:
			out[n] = clip(short[v], 24)
		}
	}
	return out
}

// clip keeps s's first n characters and its end when longer: the end of
// a value tells a sweep apart more often than its start.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n/2-1]) + "…" + string(r[len(r)-(n-n/2):])
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func isBool(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false":
		return true
	}
	return false
}

// trimCommon is, for each of the different values of one setting, the
// part that tells it from the others: path components all share are
// dropped from both ends ("vectors/llama_alpha3.0.pt" and
// "vectors/llama_alpha1.5.pt" keep "llama_alpha3.0.pt" and
// "llama_alpha1.5.pt"), then within the one component left, the words
// all share ("alpha3.0", "alpha1.5"); a number left alone keeps the
// word before it ("epoch_20", "checkpoint-1000"). A value alone keeps
// its last path component.
func trimCommon(vals []string) []string {
	out := make([]string, len(vals))
	if len(vals) < 2 {
		for i, v := range vals {
			out[i] = lastComponent(v)
		}
		return out
	}
	comps := make([][]string, len(vals))
	for i, v := range vals {
		comps[i] = strings.Split(strings.ReplaceAll(strings.TrimRight(v, "/\\"), "\\", "/"), "/")
	}
	lead, trail := commonEnds(comps, func(a, b string) bool { return a == b })
	one := true
	for i := range comps {
		rest := comps[i][lead : len(comps[i])-trail]
		out[i] = strings.Join(rest, "/")
		one = one && len(rest) == 1
	}
	if !one {
		return out
	}
	toks := make([][]string, len(out))
	for i, c := range out {
		toks[i] = words(c)
	}
	wlead, wtrail := commonEnds(toks, func(a, b string) bool { return strings.TrimLeft(a, wordSeps) == strings.TrimLeft(b, wordSeps) })
	for i, ts := range toks {
		from, to := wlead, len(ts)-wtrail
		if from > 0 && !hasLetter(strings.Join(ts[from:to], "")) {
			from-- // "20" says less than "epoch_20"
		}
		out[i] = strings.TrimLeft(strings.Join(ts[from:to], ""), wordSeps)
	}
	return out
}

// lastComponent is a path's last component, or the value when it is
// none.
func lastComponent(v string) string {
	v = strings.TrimRight(v, "/\\")
	if i := strings.LastIndexAny(v, "/\\"); i >= 0 && i < len(v)-1 {
		return v[i+1:]
	}
	return v
}

// commonEnds counts the items every list shares at its start and at its
// end, leaving each list one item at least.
func commonEnds(lists [][]string, eq func(a, b string) bool) (lead, trail int) {
	shortest := len(lists[0])
	for _, l := range lists {
		shortest = min(shortest, len(l))
	}
	for lead < shortest-1 && allAt(lists, func(l []string) string { return l[lead] }, eq) {
		lead++
	}
	for trail < shortest-1-lead && allAt(lists, func(l []string) string { return l[len(l)-1-trail] }, eq) {
		trail++
	}
	return lead, trail
}

func allAt(lists [][]string, at func([]string) string, eq func(a, b string) bool) bool {
	first := at(lists[0])
	for _, l := range lists[1:] {
		if !eq(at(l), first) {
			return false
		}
	}
	return true
}

// wordSeps separate the words of a value.
const wordSeps = "-_.,=+: "

// words splits a value into words, each but the first with the
// separator before it: "llama_alpha3.0.pt" is "llama", "_alpha3.0",
// ".pt". A dot between two digits is a decimal point, not a separator.
func words(s string) []string {
	var out []string
	start := 0
	for i := 1; i < len(s); i++ {
		if !strings.ContainsRune(wordSeps, rune(s[i])) {
			continue
		}
		if s[i] == '.' && isDigit(s[i-1]) && i+1 < len(s) && isDigit(s[i+1]) {
			continue
		}
		if strings.ContainsRune(wordSeps, rune(s[i-1])) {
			continue // a run of separators starts one word
		}
		out = append(out, s[start:i])
		start = i
	}
	return append(out, s[start:])
}
