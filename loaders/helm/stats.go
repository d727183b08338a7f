package helm

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
)

// metricName is HELM's MetricName (metrics/metric_name.py): a metric's
// name and the context it was computed in. asdict_without_nones leaves
// the None fields out.
type metricName struct {
	Name         string          `json:"name"`
	Split        string          `json:"split"`
	SubSplit     string          `json:"sub_split"`
	Perturbation json.RawMessage `json:"perturbation"`
}

// stat is HELM's Stat (metrics/statistic.py) as stats.json and
// per_instance_stats.json write it. A stat of count 0 has no min, max
// or mean.
type stat struct {
	Name  metricName `json:"name"`
	Count int        `json:"count"`
	Sum   float64    `json:"sum"`
	Min   *float64   `json:"min"`
	Mean  *float64   `json:"mean"`
}

// instanceStats is one entry of per_instance_stats.json: PerInstanceStats
// (metrics/metric.py), the stats of one instance in one train trial.
type instanceStats struct {
	InstanceID   string          `json:"instance_id"`
	Perturbation json.RawMessage `json:"perturbation"`
	Trial        int             `json:"train_trial_index"`
	Stats        []stat          `json:"stats"`
}

// context is a MetricContext (split, sub split, perturbation) as a key:
// the perturbation as canonical JSON (keys sorted), "" for none.
type context struct {
	split, subSplit, perturbation string
}

func (n metricName) context() context {
	return context{n.Split, n.SubSplit, canonical(n.Perturbation)}
}

// key names a metric in a context.
type key struct {
	context
	name string
}

func (n metricName) key() key { return key{n.context(), n.Name} }

// canonical writes a perturbation description as JSON with its keys
// sorted, so that two writings of one description compare equal; "" for
// none (null or absent).
func canonical(raw json.RawMessage) string {
	m := perturbationMap(raw)
	if m == nil {
		return ""
	}
	b, _ := json.Marshal(m) // maps marshal with sorted keys
	return string(b)
}

// perturbationMap decodes a perturbation description; nil for none.
func perturbationMap(raw json.RawMessage) map[string]any {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || len(m) == 0 {
		return nil
	}
	return m
}

// withComputedOn is the canonical description p with computed_on set
// (dataclasses.replace(perturbation, computed_on=...)).
func withComputedOn(p string, on string) string {
	var m map[string]any
	if json.Unmarshal([]byte(p), &m) != nil {
		return p
	}
	m["computed_on"] = on
	b, _ := json.Marshal(m)
	return string(b)
}

// perturbationOf reads the fields of a canonical description that the
// aggregation looks at.
func perturbationOf(p string) (name string, robustness, fairness bool, computedOn string) {
	var d struct {
		Name       string `json:"name"`
		Robustness bool   `json:"robustness"`
		Fairness   bool   `json:"fairness"`
		ComputedOn string `json:"computed_on"`
	}
	_ = json.Unmarshal([]byte(p), &d)
	if d.ComputedOn == "" {
		d.ComputedOn = "perturbed" // PerturbationDescription's default
	}
	return d.Name, d.Robustness, d.Fairness, d.ComputedOn
}

// the perturbations compute_worst_case_metrics aggregates into.
var (
	robustnessAll = `{"computed_on":"worst","fairness":false,"name":"robustness","robustness":true}`
	fairnessAll   = `{"computed_on":"worst","fairness":true,"name":"fairness","robustness":false}`
)

// contextName is how a context is shown as a metric's filter: "test",
// "test/toxic", "test · typo", "test · robustness (worst)".
func contextName(c context) string {
	s := c.split
	if s == "" {
		s = "none"
	}
	if c.subSplit != "" {
		s += "/" + c.subSplit
	}
	if c.perturbation != "" {
		name, _, _, on := perturbationOf(c.perturbation)
		if name == "" {
			name = "perturbation"
		}
		s += " · " + name
		if on != "perturbed" {
			s += " (" + on + ")"
		}
	}
	return s
}

// acc accumulates a Stat: sum and count (merge_stat), and the minimum.
type acc struct {
	sum    float64
	count  int
	min    float64
	hasMin bool
}

func (a *acc) merge(s stat) {
	a.sum += s.Sum
	a.count += s.Count
	if s.Min != nil && (!a.hasMin || *s.Min < a.min) {
		a.min, a.hasMin = *s.Min, true
	}
}

func (a *acc) add(x float64) {
	a.merge(stat{Sum: x, Count: 1, Min: &x})
}

func (a acc) mean() float64 { return a.sum / float64(a.count) }

// trials gathers a metric's value per train trial, as Metric.evaluate
// does: each trial's stats merged over the instances, then the trial's
// mean taken; the reported value is the mean of the trials' means.
type trials map[key]map[int]*acc

func (t trials) at(k key, trial int) *acc {
	m := t[k]
	if m == nil {
		m = map[int]*acc{}
		t[k] = m
	}
	a := m[trial]
	if a == nil {
		a = &acc{}
		m[trial] = a
	}
	return a
}

// value is the mean over trials of each trial's mean (merge_stat of
// take_mean), skipping trials where the metric had no value; ok is false
// when no trial had one.
func (t trials) value(k key) (v float64, n int, ok bool) {
	sum, count := 0.0, 0
	for _, a := range t[k] {
		if a.count == 0 {
			continue
		}
		sum += a.mean()
		count++
	}
	if count == 0 {
		return 0, 0, false
	}
	return sum / float64(count), count, true
}

// recompute recomputes what stats.json reports from per_instance_stats.json,
// as HELM's Metric.evaluate aggregates it (metrics/metric.py): the
// per-instance stats merged per trial and context, the worst-case stats
// of compute_worst_case_metrics, and the perplexity figures of
// compute_perplexity_metrics (basic_metrics.py). instances counts, per
// trial and context, the instances the run asked about
// (InstancesPerSplitMetric's num_instances); nil when unknown. It returns
// each recomputed value and how many instances it rests on.
func recompute(entries []instanceStats, instances map[int]map[context]int) (map[key]float64, map[key]int) {
	t := trials{}
	rows := map[key]int{}
	// worst-case: per trial, per metric name without perturbation, per
	// instance id, the stats of every perturbation of the instance.
	type wkey struct {
		trial int
		base  key // the metric without its perturbation
		id    string
	}
	type wstat struct {
		perturbation string
		s            stat
	}
	worst := map[wkey][]wstat{}
	var worstOrder []wkey
	for _, e := range entries {
		for _, s := range e.Stats {
			k := s.Name.key()
			t.at(k, e.Trial).merge(s)
			if s.Count > 0 {
				rows[k]++
			}
			wk := wkey{e.Trial, key{context{k.split, k.subSplit, ""}, k.name}, e.InstanceID}
			if _, seen := worst[wk]; !seen {
				worstOrder = append(worstOrder, wk)
			}
			worst[wk] = append(worst[wk], wstat{k.perturbation, s})
		}
	}
	for _, wk := range worstOrder {
		var original *stat
		var rob, fair acc
		type one struct {
			p string
			a acc
		}
		var each []one
		for _, ws := range worst[wk] {
			if ws.perturbation == "" {
				s := ws.s
				original = &s
				continue
			}
			_, r, f, _ := perturbationOf(ws.perturbation)
			if r {
				rob.merge(ws.s)
			}
			if f {
				fair.merge(ws.s)
			}
			var a acc
			a.merge(ws.s)
			each = append(each, one{ws.perturbation, a})
		}
		type derived struct {
			p string
			a acc
		}
		all := []derived{{robustnessAll, rob}, {fairnessAll, fair}}
		for _, o := range each {
			all = append(all, derived{o.p, o.a})
		}
		for _, d := range all {
			a := d.a
			name, _, _, _ := perturbationOf(d.p)
			if original != nil {
				a.merge(*original)
				if name != "robustness" && name != "fairness" {
					before := key{context{wk.base.split, wk.base.subSplit, withComputedOn(d.p, "original")}, wk.base.name}
					t.at(before, wk.trial).merge(*original)
					rows[before]++
				}
			}
			if a.count > 0 && a.hasMin {
				w := key{context{wk.base.split, wk.base.subSplit, withComputedOn(d.p, "worst")}, wk.base.name}
				t.at(w, wk.trial).add(a.min)
				rows[w]++
			}
		}
	}
	// compute_perplexity_metrics, per trial and context.
	byCtx := map[context]map[int]bool{}
	for k, m := range t {
		if k.name != "logprob" {
			continue
		}
		for trial := range m {
			if byCtx[k.context] == nil {
				byCtx[k.context] = map[int]bool{}
			}
			byCtx[k.context][trial] = true
		}
	}
	for c, ts := range byCtx {
		for trial := range ts {
			lp := t[key{c, "logprob"}][trial]
			if lp == nil {
				continue
			}
			if nt := t[key{c, "num_perplexity_tokens"}][trial]; nt != nil && nt.sum > 0 {
				t.at(key{c, "perplexity"}, trial).add(math.Exp(-lp.sum / nt.sum))
				rows[key{c, "perplexity"}] = rows[key{c, "logprob"}]
			}
			if nb := t[key{c, "num_bytes"}][trial]; nb != nil && nb.sum > 0 {
				t.at(key{c, "bits_per_byte"}, trial).add(-lp.sum / nb.sum / math.Ln2)
				t.at(key{c, "logprob_per_byte"}, trial).add(lp.sum / nb.sum)
				rows[key{c, "bits_per_byte"}] = rows[key{c, "logprob"}]
				rows[key{c, "logprob_per_byte"}] = rows[key{c, "logprob"}]
			}
		}
	}
	for trial, cs := range instances {
		for c, n := range cs {
			k := key{c, "num_instances"}
			t.at(k, trial).add(float64(n))
			rows[k] += n
		}
	}
	out := map[key]float64{}
	ns := map[key]int{}
	for k := range t {
		if v, _, ok := t.value(k); ok {
			out[k] = v
			ns[k] = rows[k]
		}
	}
	return out, ns
}

// sortedContexts orders contexts for display: the main split's plain
// context first, then the other plain ones, then the perturbed ones, each
// group in name order.
func sortedContexts(cs []context, mainSplit string) []context {
	rank := func(c context) int {
		switch {
		case c.perturbation == "" && c.subSplit == "" && c.split == mainSplit:
			return 0
		case c.perturbation == "":
			return 1
		}
		return 2
	}
	out := append([]context(nil), cs...)
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := rank(out[i]), rank(out[j]); ri != rj {
			return ri < rj
		}
		return strings.Compare(contextName(out[i]), contextName(out[j])) < 0
	})
	return out
}
