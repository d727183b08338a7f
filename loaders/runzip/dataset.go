package runzip

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"evalview/model"
)

// dataset builds the run's dataset from what the loader read.
func (l *loader) dataset() *model.Dataset {
	idx := &runIndex{rf: l.rf, ctx: l.recCtx()}
	for _, e := range l.entries {
		idx.entries = append(idx.entries, e.indexEntry)
	}
	runID := l.fromAny("run_id")
	task := runID
	if task == "" {
		task = filepath.Base(l.rf.path)
	}
	cats, names, catFacts := l.categories()
	ds := &model.Dataset{
		Kind:       model.KindRun,
		Path:       l.rf.path,
		Title:      shortTitle(runID, l.rf.path),
		Task:       task,
		Facts:      append(l.facts(), catFacts...),
		Metrics:    l.metrics(),
		MainMetric: "weighted_score",
		Issues:     l.issues,
		Records:    idx,
		Scoring:    Scoring(l.threshold, cats, names),
	}
	idx.scoresMap = l.mapCheck()
	ds.Recomputed = mapRecomputed(idx.scoresMap)
	ds.Origin = l.origin()
	Present(ds)
	return ds
}

// origin lines the run up with runs of other models: its task is the
// source file the prompts came from (runs of one source file pair
// sample by sample), its model the one the server reported, else the
// one requested, its run the time it was created.
func (l *loader) origin() model.Origin {
	o := model.Origin{Model: l.fromAny("model_name_reported_by_server"), Run: l.fromRun("created_at")}
	if o.Model == "" {
		o.Model = l.fromAny("model_request")
	}
	if src := l.fromRun("source_file"); src != "" {
		o.Task = filepath.Base(filepath.FromSlash(strings.ReplaceAll(src, "\\", "/")))
	}
	return o
}

// docsRun are the run-level files; docsAny adds the first sample, which
// carries the device and model fields when the manifest lacks them.
func (l *loader) docsRun() []*doc {
	var out []*doc
	for _, d := range []*doc{l.manifest, l.summary} {
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}

func (l *loader) docsAny() []*doc {
	out := l.docsRun()
	if l.firstSample != nil {
		out = append(out, l.firstSample)
	}
	return out
}

func firstValue(docs []*doc, key string) string {
	for _, d := range docs {
		if v := d.root.get(key); !v.isNull() {
			if s, _ := v.display(d.data); s != "" {
				return s
			}
		}
	}
	return ""
}

func (l *loader) fromRun(key string) string { return firstValue(l.docsRun(), key) }
func (l *loader) fromAny(key string) string { return firstValue(l.docsAny(), key) }

// facts lists the header, in the order the brief's header names them.
func (l *loader) facts() []model.Fact {
	var out []model.Fact
	add := func(k, v string) {
		if v != "" {
			out = append(out, model.Fact{Key: k, Value: v})
		}
	}
	unit := func(v, u string) string {
		if v == "" {
			return ""
		}
		return v + " " + u
	}
	add("run id", l.fromAny("run_id"))
	add("status", l.fromRun("status"))
	add("score status", l.fromRun("score_status"))
	add("model requested", l.fromAny("model_request"))
	add("model reported", l.fromAny("model_name_reported_by_server"))
	add("endpoint", l.fromAny("endpoint"))
	add("language", l.fromAny("language"))
	add("task type", l.fromAny("task_type"))
	add("device", l.fromAny("eval_device_label"))
	add("cpu", l.fromAny("eval_device_cpu"))
	add("gpu", l.fromAny("eval_device_gpu"))
	add("memory", unit(l.fromAny("eval_device_memory_gb"), "GB"))
	add("vram", unit(l.fromAny("eval_device_vram_gb"), "GB"))
	add("created", l.fromRun("created_at"))
	add("updated", l.fromRun("updated_at"))
	add("repeat count", l.fromRun("repeat_count"))
	add("max tokens", l.fromAny("max_tokens"))
	add("seed", l.fromRun("seed"))
	add("selection mode", l.fromRun("selection_mode"))
	if n := l.fromRun("sample_count_requested"); n != "" {
		if of := l.fromRun("source_total_items"); of != "" {
			n += " of " + of
		}
		add("samples requested", n)
	}
	add("source file", l.fromRun("source_file"))
	add("samples", ratio(l.fromRun("completed_samples"), l.fromRun("total_samples"), "completed"))
	add("attempts", ratio(l.fromRun("done_attempts"), l.fromRun("total_attempts"), "done"))
	if l.summary != nil {
		p := text(l.summary.root, "latest_completed_category")
		if i := firstValue([]*doc{l.summary}, "latest_completed_sample_index"); i != "" {
			p = strings.TrimSpace("sample " + i + " " + paren(p))
		}
		add("progress", p)
	}
	from := "default"
	if l.thresholdFrom != "" {
		from = l.thresholdFrom
	}
	add("pass threshold", strconv.FormatFloat(l.threshold, 'f', -1, 64)+" ("+from+")")
	return out
}

func ratio(a, b, what string) string {
	if a == "" || b == "" {
		return ""
	}
	return a + "/" + b + " " + what
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}

// categories returns the categories in summary order (then any others
// the samples use), their display names, and one header fact each: the
// generation summary's counts when it has category_stats, else the
// number of loaded samples.
func (l *loader) categories() ([]string, map[string]string, []model.Fact) {
	var order []string
	names := map[string]string{}
	facts := map[string]string{}
	seen := map[string]bool{}
	note := func(c string) {
		if c != "" && !seen[c] {
			seen[c] = true
			order = append(order, c)
		}
	}
	if l.summary != nil {
		for _, st := range l.summary.root.get("category_stats").itemsOrNil() {
			c := text(st, "category")
			if c == "" {
				continue
			}
			note(c)
			if dn := text(st, "display_name"); dn != "" {
				names[c] = dn
			}
			done, _ := st.get("completed_samples").display(l.summary.data)
			total, _ := st.get("total_samples").display(l.summary.data)
			if total != "" {
				facts[c] = ratio(done, total, "samples")
			}
		}
	}
	counts := map[string]int{}
	for _, sc := range l.cats {
		note(sc.name)
		counts[sc.name]++
		if sc.display != "" && names[sc.name] == "" {
			names[sc.name] = sc.display
		}
	}
	var out []model.Fact
	for _, c := range order {
		v := facts[c]
		if v == "" {
			v = strconv.Itoa(counts[c]) + " samples"
		}
		if dn := names[c]; dn != "" && dn != c {
			v += " " + paren(dn)
		}
		out = append(out, model.Fact{Key: "category " + c, Value: v})
	}
	return order, names, out
}

// metrics are the generation summary's counters and, when scores_map.json
// has one, its global mean as the reported weighted_score.
func (l *loader) metrics() []model.Metric {
	var out []model.Metric
	if l.summary != nil {
		root := l.summary.root
		for _, k := range root.keys {
			if v, ok := root.fields[k].num(false); ok && isCounter(k) {
				out = append(out, model.Metric{Name: k, Value: v})
			}
		}
		as := root.get("attempt_stats")
		for _, k := range as.keysOrNil() {
			if v, ok := as.fields[k].num(false); ok {
				out = append(out, model.Metric{Name: k, Value: v})
			}
		}
	}
	if l.scoresMap != nil {
		if v, ok := l.scoresMap.root.get("global_mean").num(false); ok {
			out = append(out, model.Metric{Name: "weighted_score", Value: v})
		}
	}
	return out
}

// isCounter tells the summary's progress counters from its settings
// (repeat_count, max_tokens...), which are facts, not metrics.
func isCounter(k string) bool {
	return k != "sample_count_requested" && k != "source_total_items" &&
		(strings.HasSuffix(k, "_samples") || strings.HasSuffix(k, "_attempts") || strings.HasSuffix(k, "_categories"))
}

var runStampRE = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})_(\d{2})(\d{2})(\d{2})_?(.*)$`)

// shortTitle makes a dataset title from a run id: runners name runs
// "2026-03-25_221421_<model slug>[_chat_zh_n240_r5_mt8000]", so the model
// part comes first (shortened in the middle, keeping both ends, which is
// where runs of one model differ) and the date and time follow.
func shortTitle(runID, path string) string {
	if runID == "" {
		return filepath.Base(path)
	}
	m := runStampRE.FindStringSubmatch(runID)
	if m == nil {
		return middle(runID, 48)
	}
	stamp := m[1] + " " + m[2] + ":" + m[3]
	if m[5] == "" {
		return stamp
	}
	return middle(m[5], 48) + " " + stamp
}

// middle shortens s to about n runes by cutting its middle, at a "_" or
// "-" when one is near, so both ends stay readable.
func middle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	const snap = 8
	isSep := func(c rune) bool { return c == '_' || c == '-' }
	tail := n / 2
	head := n - 1 - tail
	h := r[:head]
	for i := len(h) - 1; i >= len(h)-snap && i > 0; i-- {
		if isSep(h[i]) {
			h = h[:i+1]
			break
		}
	}
	t := r[len(r)-tail:]
	for i := 0; i < snap && i < len(t)-1; i++ {
		if isSep(t[i]) {
			t = t[i:]
			break
		}
	}
	return string(h) + "…" + string(t)
}
