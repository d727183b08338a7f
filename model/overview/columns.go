package overview

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"evalview/model"
)

// Columns are what was evaluated: one model configuration each, not one
// file. Runs of one model whose settings (Entry.Config, and a task's own
// settings where they split a task: Task.Config) are equal are runs of
// one column, each task's cell its latest run; runs that differ are
// columns of their own, labelled by what differs.

// Options say how Build lines the entries up.
type Options struct {
	// Expand lists the models shown run by run: each of their runs a
	// column of its own, as they were before their runs merged.
	Expand map[string]bool
	// ExpandAll shows every model run by run.
	ExpandAll bool
	// ShowEmpty keeps the rows and the columns that have no value in any
	// cell, which Build leaves out otherwise (Table.HiddenRows and
	// HiddenColumns count them).
	ShowEmpty bool
}

// RunRef is one run a column holds.
type RunRef struct {
	// Run is the run's stamp, "" when the artifact does not say.
	Run string
	// Entries are the run's entries in the column (Table.Entries), in
	// the order given.
	Entries []int
}

// group is one column while Build makes them: a configuration of a
// model (or one run of it, expanded or not placed among the others).
type group struct {
	model, note string
	cfg         []model.Fact
	cfgKey      string
	// runID tells a column of one run apart ("" for a configuration's
	// merged runs).
	runID    string
	expanded bool
	runs     []*RunRef
	runOf    map[string]*RunRef
	tasks    map[string]bool
	// at is the group's index among its model's.
	at int
}

// MaxAlone is how many runs without a time (no stamp in the file or its
// name) of one model stand in columns of their own because they hold a
// task their configuration's column has already; the next ones join
// that column as runs again (Table.MergedUntimed counts them).
const MaxAlone = 32

// MergedNote says in one line that runs without a time were merged
// (MergedUntimed), "" when none were.
func (t *Table) MergedNote() string {
	switch t.MergedUntimed {
	case 0:
		return ""
	case 1:
		return "1 run without a time joined its configuration's column as a run again (more than " + strconv.Itoa(MaxAlone) + " stood alone)"
	}
	return strconv.Itoa(t.MergedUntimed) + " runs without a time joined their configuration's column as runs again (more than " + strconv.Itoa(MaxAlone) + " stood alone)"
}

// unknownRun is the run id of an entry whose run the artifact does not
// name: a run of its own.
func unknownRun(i int) string { return "\x00" + strconv.Itoa(i) }

// place puts every task of every entry in a column: colOf[i][j] is the
// column of entry i's task j.
func (t *Table) place(opts Options) [][]int {
	var models []string
	byModel := map[string][]int{}
	for i, e := range t.Entries {
		if _, ok := byModel[e.Model]; !ok {
			models = append(models, e.Model)
		}
		byModel[e.Model] = append(byModel[e.Model], i)
	}
	colOf := make([][]int, len(t.Entries))
	for _, m := range models {
		t.placeModel(m, byModel[m], opts.ExpandAll || opts.Expand[m], colOf)
	}
	return colOf
}

// placeModel makes model m's columns from its entries.
func (t *Table) placeModel(m string, entries []int, expand bool, colOf [][]int) {
	split := splittingKeys(t.Entries, entries)
	var groups []*group
	byKey := map[string]*group{}
	// Stamped runs first, then the runs whose time is unknown: such a
	// run joins its configuration's column only where it holds none of
	// the tasks already there, for nothing tells which of two would be
	// the later (two Sample files of one task are two runs, never a
	// copy of one whose first alone shows).
	order := slices.Clone(entries)
	slices.SortStableFunc(order, func(a, b int) int {
		return boolCmp(t.Entries[a].Run == "", t.Entries[b].Run == "")
	})
	var splitKeys []string
	for k := range split {
		splitKeys = append(splitKeys, k)
	}
	sort.Strings(splitKeys)
	// One model evaluated by two harnesses (an lm-eval run beside a
	// lighteval one) was evaluated two ways: the harness is a setting.
	kinds := map[model.Kind]bool{}
	for _, i := range entries {
		kinds[t.Entries[i].Kind] = true
	}
	var keys []string
	aloneRuns := 0
	for _, i := range order {
		e := t.Entries[i]
		if len(kinds) > 1 && m != "" { // files naming no model are one column as before: nothing says they are one model
			e.Config = append([]model.Fact{{Key: "harness", Value: string(e.Kind)}}, e.Config...)
		}
		colOf[i] = make([]int, len(e.Tasks))
		run := e.Run
		if run == "" {
			run = unknownRun(i)
		}
		keys = taskKeys(e, splitKeys, keys[:0])
		// An unknown run is one run for all its tasks: it joins the
		// merged column of its configuration or stands alone, whole.
		alone := false
		if e.Run == "" {
			for j := range e.Tasks {
				if g := byKey[keys[j]]; g != nil && g.tasks[e.Tasks[j].Name] {
					alone = true
				}
			}
		}
		if alone && aloneRuns >= MaxAlone {
			// Past MaxAlone, such runs join their configuration's column
			// as runs again, in the order of the paths, and the table
			// says how many did: a folder of thousands of files of one
			// task each was thousands of columns (and a table of
			// gigabytes).
			alone = false
			t.MergedUntimed++
		} else if alone {
			aloneRuns++
		}
		for j := range e.Tasks {
			key := keys[j]
			id := ""
			if expand || alone {
				id = run
			}
			g := byKey[key+"\x01"+id]
			if id == "" {
				g = byKey[key]
			}
			if g == nil {
				g = &group{model: m, note: e.Note, cfg: taskConfig(e, j, split), cfgKey: key, runID: id, expanded: expand && id != "",
					runOf: map[string]*RunRef{}, tasks: map[string]bool{}, at: len(groups)}
				groups = append(groups, g)
				if id == "" {
					byKey[key] = g
				} else {
					byKey[key+"\x01"+id] = g
				}
			}
			g.tasks[e.Tasks[j].Name] = true
			r := g.runOf[run]
			if r == nil {
				r = &RunRef{Run: e.Run}
				g.runOf[run] = r
				g.runs = append(g.runs, r)
			}
			if len(r.Entries) == 0 || r.Entries[len(r.Entries)-1] != i {
				r.Entries = append(r.Entries, i)
			}
			colOf[i][j] = g.at // the model's column; its table column once they are ordered
		}
	}
	// The model's columns in natural order of what tells them apart.
	// First by the settings some runs leave unset (incidental: a dtype
	// most runs state), the columns with the value most of them have
	// leading, so that the model's main configuration comes first; then
	// by the settings every run states (what the runs sweep), the one
	// with the fewest values first (0-shot before 5-shot), values in
	// natural order (step0, step1, step128, step1000); a column of one
	// run after its configuration's, by time.
	differs := differingKeys(groups)
	byKeys := sortKeys(groups, differs)
	idx := make([]int, len(groups))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ga, gb := groups[a], groups[b]
		for _, o := range byKeys {
			va, oka := factValue(ga.cfg, o.key)
			vb, okb := factValue(gb.cfg, o.key)
			if o.hasMode {
				if c := boolCmp(!oka || va != o.mode, !okb || vb != o.mode); c != 0 {
					return c // the most common value first
				}
			}
			if c := boolCmp(oka, okb); c != 0 {
				return c // unset first
			}
			if c := natCompareDec(va, vb); c != 0 {
				return c
			}
		}
		if c := boolCmp(ga.runID != "", gb.runID != ""); c != 0 {
			return c
		}
		return compareRuns(ga.runs[0].Run, gb.runs[0].Run)
	})
	pos := make([]int, len(groups))
	for n, gi := range idx {
		pos[gi] = len(t.Columns) + n
	}
	for _, gi := range idx {
		g := groups[gi]
		slices.SortStableFunc(g.runs, func(a, b *RunRef) int { return compareRuns(a.Run, b.Run) })
		c := Column{Model: m, Config: g.cfg, Differs: differs, Note: g.note, Runs: len(g.runs), Expanded: g.expanded,
			Key: m + "\x00" + g.cfgKey + "\x00" + g.runID}
		for _, r := range g.runs {
			c.RunList = append(c.RunList, *r)
		}
		if len(g.runs) == 1 {
			c.Run = g.runs[0].Run
		}
		t.Columns = append(t.Columns, c)
	}
	for _, i := range entries {
		for j := range colOf[i] {
			colOf[i][j] = pos[colOf[i][j]]
		}
	}
}

// boolCmp orders false before true.
func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// compareRuns orders run stamps by time: lm-eval's
// "2025-09-09T13-31-53.431753" and an ISO "2025-09-09T13:31:53+00:00"
// read alike; an unknown run ("") first.
func compareRuns(a, b string) int {
	return strings.Compare(runOrder(a), runOrder(b))
}

// runOrder is a run stamp as compareRuns orders it.
func runOrder(s string) string { return runSeps.Replace(s) }

var runSeps = strings.NewReplacer(":", "-", " ", "T", "_", "T")

// splittingKeys are the task settings (Task.Config) that tell the
// columns of one model apart: those one task of the model ran with two
// values or more. A task's default n-shot differs from task to task; it
// is a configuration only where the model ran one task at two n-shots.
func splittingKeys(entries []Entry, idx []int) map[string]bool {
	var keys []string
	for _, i := range idx {
		for _, t := range entries[i].Tasks {
			for _, f := range t.Config {
				if !slices.Contains(keys, f.Key) {
					keys = append(keys, f.Key)
				}
			}
		}
	}
	out := map[string]bool{}
	if len(keys) == 0 {
		return out
	}
	first := map[string]string{} // task and key -> the first value seen
	for _, i := range idx {
		e := entries[i]
		for j, t := range e.Tasks {
			for _, k := range keys {
				if out[k] {
					continue
				}
				v, ok := taskValue(e, j, k)
				if !ok {
					v = "\x00" // unknown: not taken for any value
				}
				tk := t.Name + "\x00" + k
				if prev, had := first[tk]; !had {
					first[tk] = v
				} else if prev != v {
					out[k] = true
				}
			}
		}
	}
	return out
}

// taskValue is the value of task setting k of entry e's task j; a task
// that does not state it (a group's row beside its subtasks) takes the
// value its entry's other tasks agree on.
func taskValue(e Entry, j int, k string) (string, bool) {
	if v, ok := factValue(e.Tasks[j].Config, k); ok {
		return v, true
	}
	val, found := "", false
	for _, t := range e.Tasks {
		if v, ok := factValue(t.Config, k); ok {
			if found && v != val {
				return "", false
			}
			val, found = v, true
		}
	}
	return val, found
}

// taskConfig is the configuration of entry e's task j: its run's
// settings and its own settings that split its model's columns.
func taskConfig(e Entry, j int, split map[string]bool) []model.Fact {
	cfg := slices.Clone(e.Config)
	var keys []string
	for k := range split {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v, ok := taskValue(e, j, k); ok {
			cfg = setFact(cfg, k, v)
		}
	}
	return cfg
}

// taskKeys appends to out the configuration key (configKey of
// taskConfig) of each of e's tasks: its run's settings' key is the same
// for every task, and the task's own settings that split the model's
// columns (splitKeys, sorted) are joined to it; an entry of many tasks is
// keyed without building each task's settings.
func taskKeys(e Entry, splitKeys []string, out []string) []string {
	if len(splitKeys) == 0 {
		key := configKey(e.Config)
		for range e.Tasks {
			out = append(out, key)
		}
		return out
	}
	for j := range e.Tasks {
		out = append(out, configKey(taskConfig(e, j, toSet(splitKeys))))
	}
	return out
}

func toSet(keys []string) map[string]bool {
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		out[k] = true
	}
	return out
}

// setFact sets key k of facts to v, added at the end when absent.
func setFact(facts []model.Fact, k, v string) []model.Fact {
	for i, f := range facts {
		if f.Key == k {
			facts[i].Value = v
			return facts
		}
	}
	return append(facts, model.Fact{Key: k, Value: v})
}

// factValue is the value of key k among facts.
func factValue(facts []model.Fact, k string) (string, bool) {
	for _, f := range facts {
		if f.Key == k {
			return f.Value, true
		}
	}
	return "", false
}

// configKey is a configuration as a key: its settings sorted, so that
// two runs that wrote model_args in another order are one
// configuration.
func configKey(cfg []model.Fact) string {
	parts := make([]string, 0, len(cfg))
	for _, f := range cfg {
		parts = append(parts, f.Key+"\x02"+f.Value)
	}
	sort.Strings(parts)
	return strings.Join(parts, "\x03")
}

// differingKeys are the settings whose values differ among a model's
// columns, the one with the fewest distinct values first, ties in the
// order they first appear.
func differingKeys(groups []*group) []string {
	var keys []string
	for _, g := range groups {
		for _, f := range g.cfg {
			if !slices.Contains(keys, f.Key) {
				keys = append(keys, f.Key)
			}
		}
	}
	distinct := map[string]int{}
	var out []string
	for _, k := range keys {
		vals := map[string]bool{}
		for _, g := range groups {
			v, ok := factValue(g.cfg, k)
			if !ok {
				v = "\x00"
			}
			vals[v] = true
		}
		if len(vals) > 1 {
			out = append(out, k)
			distinct[k] = len(vals)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return distinct[a] - distinct[b] })
	return out
}

// sortKey is a setting the columns of a model are ordered by; mode is
// the value most of them have (hasMode) when some leave it unset.
type sortKey struct {
	key     string
	mode    string
	hasMode bool
}

// sortKeys orders the differing keys for sorting columns: those some
// columns leave unset first, each with its most common value when more
// than half the columns have it, then the others.
func sortKeys(groups []*group, keys []string) []sortKey {
	var incidental, swept []sortKey
	for _, k := range keys {
		count := map[string]int{}
		unset := false
		for _, g := range groups {
			if v, ok := factValue(g.cfg, k); ok {
				count[v]++
			} else {
				unset = true
			}
		}
		if !unset {
			swept = append(swept, sortKey{key: k})
			continue
		}
		o := sortKey{key: k}
		for v, n := range count {
			if 2*n > len(groups) {
				o.mode, o.hasMode = v, true
			}
		}
		incidental = append(incidental, o)
	}
	return append(incidental, swept...)
}
