package helm

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"evalview/loaders/internal/chat"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// general are the stats HELM computes for every request whatever the
// scenario (basic_metrics.py, efficiency and general information): never
// a run's score.
var general = map[string]bool{
	"num_references": true, "num_train_trials": true, "num_prompt_tokens": true, "num_completion_tokens": true,
	"num_output_tokens": true, "training_co2_cost": true, "training_energy_cost": true, "inference_runtime": true,
	"inference_idealized_runtime": true, "inference_denoised_runtime": true, "batch_size": true,
	"finish_reason_length": true, "finish_reason_stop": true, "finish_reason_endoftext": true,
	"finish_reason_unknown": true, "num_train_instances": true, "prompt_truncated": true, "max_prob": true,
	"logprob": true, "num_perplexity_tokens": true, "num_bytes": true, "num_instances": true, "perplexity": true,
	"bits_per_byte": true, "logprob_per_byte": true, "predicted_index": true, "num_completions": true,
}

// recKey identifies a record: an instance, or one perturbed copy of it.
type recKey struct {
	id, perturbation string
}

// rec is one record's sources.
type rec struct {
	key      recKey
	inst     instance
	states   []*requestState // in trial order
	stats    map[int][]stat  // by trial
	ctx      context
	pertName string
}

// openRun reads one run folder.
func openRun(dir string, sc *schema) (*model.Dataset, error) {
	var spec runSpec
	if err := readJSON(source.Join(dir, runSpecJSON), &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", runSpecJSON, err)
	}
	ds := &model.Dataset{Kind: model.KindHELM, Path: dir}
	for _, f := range runFiles {
		if f == runSpecJSON {
			continue
		}
		if st, err := source.Stat(source.Join(dir, f)); err == nil && st.Mode().IsRegular() {
			ds.Companions = append(ds.Companions, source.Join(dir, f))
		}
	}
	issue := func(is model.Issue) { ds.Issues = append(ds.Issues, is) }
	missing := func(f, what string) {
		issue(model.Warnf("missing-file", source.Join(dir, f), 0, "", "%s is not in the run folder: %s", f, what))
	}

	// The requests: scenario_state.json, else the display files.
	var states []*requestState
	statePath := source.Join(dir, scenarioStateJSON)
	switch s, err := readScenarioState(statePath); {
	case err == nil:
		states = s
	case isNotExist(err):
		if d, derr := fromDisplay(dir); derr == nil {
			states = d
			missing(scenarioStateJSON, "the records are read from helm-summarize's instances.json, display_requests.json and display_predictions.json, which keep one request per instance and trial, and no logprobs")
		} else if isNotExist(derr) {
			missing(scenarioStateJSON, "no prompts or completions to show")
		} else {
			missing(scenarioStateJSON, "no prompts or completions to show")
			issue(model.Errorf(jsonl.ReadCode(derr, "bad-json"), dir, 0, "", "%v", derr))
		}
	default:
		issue(model.Errorf(jsonl.ReadCode(err, "bad-json"), statePath, 0, "", "%v; the requests read before are shown", err))
		states = s
	}

	var perInstance []instanceStats
	pisPath := source.Join(dir, perInstanceStatsJSON)
	if err := readJSON(pisPath, &perInstance); err != nil {
		if isNotExist(err) {
			missing(perInstanceStatsJSON, "no per-instance scores, and nothing to recompute stats.json from")
		} else {
			issue(model.Errorf(jsonl.ReadCode(err, "bad-json"), pisPath, 0, "", "%v", err))
		}
		perInstance = nil
	}
	var reported []stat
	statsPath := source.Join(dir, statsJSON)
	if err := readJSON(statsPath, &reported); err != nil {
		if isNotExist(err) {
			missing(statsJSON, "no reported metrics")
		} else {
			issue(model.Errorf(jsonl.ReadCode(err, "bad-json"), statsPath, 0, "", "%v", err))
		}
		reported = nil
	}
	var scen scenarioInfo
	scenPath := source.Join(dir, scenarioJSON)
	if err := readJSON(scenPath, &scen); err != nil && !isNotExist(err) {
		issue(model.Warnf(jsonl.ReadCode(err, "bad-json"), scenPath, 0, "", "%v; the scenario's description is not shown", err))
	}

	// Origin and facts.
	name := spec.Name
	if name == "" {
		name = base(dir)
	}
	ds.Task = taskOf(name)
	ds.Title = ds.Task
	mdl := spec.AdapterSpec.Model
	if mdl == "" {
		mdl = spec.AdapterSpec.ModelDeployment
	}
	if mdl == "" {
		mdl = runArg(name, "model")
		if mdl != "" {
			ds.Origin.Note = "model named after the run's name: run_spec.json's adapter_spec names none"
		}
	}
	suite := base(source.Dir(dir))
	ds.Origin.Task = ds.Task
	ds.Origin.Model = mdl
	ds.Origin.Run = suite
	if d := spec.AdapterSpec.ModelDeployment; d != "" && d != mdl {
		ds.Origin.Config = []model.Fact{{Key: "deployment", Value: d}}
	}
	for _, g := range spec.Groups {
		if g != ds.Task { // harm_bench's group is harm_bench: no parent of its own
			ds.Origin.Groups = append(ds.Origin.Groups, g)
		}
	}
	ds.Facts = runFacts(spec, scen, suite, mdl)

	// The records, in the order of their first request.
	recs, order := gather(states, perInstance)
	orphans := 0
	var orphanIDs []string
	for _, e := range perInstance {
		k := recKey{e.InstanceID, canonical(e.Perturbation)}
		if _, ok := recs[k]; !ok && len(states) > 0 {
			orphans++
			if len(orphanIDs) < 50 {
				orphanIDs = append(orphanIDs, e.InstanceID)
			}
		}
	}
	if orphans > 0 {
		is := model.Warnf("stats-without-instance", pisPath, 0, "",
			"%d per-instance stats are about instances no request of scenario_state.json asks about; they count in the recomputed metrics but have no record", orphans)
		is.Items = orphanIDs
		issue(is)
	}
	if len(states) == 0 && len(perInstance) > 0 {
		// Stats without requests: a record per instance, with its scores.
		recs, order = gather(nil, perInstance)
	}

	// The main metric, the row metric and the reported metrics.
	rowNames := map[string]bool{}
	for _, e := range perInstance {
		for _, s := range e.Stats {
			if s.Count > 0 {
				rowNames[s.Name.Name] = true
			}
		}
	}
	mainName, mainSplit := "", ""
	if m, ok := sc.main(spec.Groups); ok {
		mainName, mainSplit = m.name, m.split
		ds.Facts = append(ds.Facts, model.Fact{Key: "main metric", Value: m.name + " (schema.json)"})
	}
	if mainSplit == "" {
		mainSplit = evalSplit(recs, order)
	}
	rowMetric := ""
	switch {
	case mainName != "" && rowNames[mainName]:
		rowMetric = mainName
	default:
		for _, s := range reported {
			if !general[s.Name.Name] && rowNames[s.Name.Name] {
				rowMetric = s.Name.Name
				break
			}
		}
		if rowMetric == "" {
			names := make([]string, 0, len(rowNames))
			for n := range rowNames {
				if !general[n] {
					names = append(names, n)
				}
			}
			sort.Strings(names)
			if len(names) > 0 {
				rowMetric = names[0]
			}
		}
	}
	if mainName == "" {
		for _, s := range reported {
			if !general[s.Name.Name] && s.Count > 0 {
				mainName = s.Name.Name
				break
			}
		}
		if rowNames[rowMetric] {
			mainName = rowMetric
		}
	}
	ds.MainMetric = mainName
	ds.Presentation = Presentation()
	if rowMetric != "" && rowMetric != mainName {
		ds.Presentation.ColumnHeads["score"] = rowMetric
	}

	ds.Metrics = reportedMetrics(reported, mainSplit)
	instCounts := instancesPerContext(states)
	got, ns := recompute(perInstance, instCounts)
	for _, m := range ds.Metrics {
		k, ok := keyOf(reported, m)
		if !ok {
			continue
		}
		v, ok := got[k]
		if !ok {
			continue
		}
		ds.Recomputed = append(ds.Recomputed, model.MetricComparison{Filter: m.Filter, Name: m.Name,
			Samples: v, N: ns[k], HasSamples: true, Aggregation: aggregationOf(k)})
		if math.Abs(v-m.Value) > 1e-6 && !(math.IsNaN(v) && math.IsNaN(m.Value)) {
			issue(model.Warnf("metric-differs", statsPath, 0, "",
				"%s (%s): stats.json reports %.6g, per_instance_stats.json gives %.6g (%s)", m.Name, m.Filter, m.Value, v, aggregationOf(k)))
		}
	}

	binary := isBinary(recs, rowMetric)
	idx := &index{dir: dir, rowMetric: rowMetric, binary: binary, trials: trialCount(spec, recs)}
	used := map[string]int{}
	for _, k := range order {
		r := recs[k]
		idx.recs = append(idx.recs, r)
		idx.sums = append(idx.sums, summaryOf(r, rowMetric, binary, used))
	}
	ds.Records = idx
	if rowMetric != "" && !binary {
		ds.Facts = append(ds.Facts, model.Fact{Key: "status", Value: rowMetric + " is not 0 or 1 on every instance: scores are shown without ✓ or ✗"})
	}
	return ds, nil
}

// gather groups request states and per-instance stats by record.
func gather(states []*requestState, perInstance []instanceStats) (map[recKey]*rec, []recKey) {
	recs := map[recKey]*rec{}
	var order []recKey
	get := func(k recKey, in instance) *rec {
		r := recs[k]
		if r == nil {
			r = &rec{key: k, inst: in, stats: map[int][]stat{}}
			r.ctx = context{in.Split, in.SubSplit, k.perturbation}
			if k.perturbation != "" {
				r.pertName, _, _, _ = perturbationOf(k.perturbation)
			}
			recs[k] = r
			order = append(order, k)
		}
		return r
	}
	for _, rs := range states {
		k := recKey{rs.Instance.ID, canonical(rs.Instance.Perturbation)}
		r := get(k, rs.Instance)
		r.states = append(r.states, rs)
	}
	for _, r := range recs {
		sort.SliceStable(r.states, func(i, j int) bool { return r.states[i].Trial < r.states[j].Trial })
	}
	for _, e := range perInstance {
		k := recKey{e.InstanceID, canonical(e.Perturbation)}
		r, ok := recs[k]
		if !ok {
			if len(states) > 0 {
				continue
			}
			r = get(k, instance{ID: e.InstanceID, Perturbation: e.Perturbation})
			for _, s := range e.Stats {
				r.ctx.split, r.ctx.subSplit = s.Name.Split, s.Name.SubSplit
				break
			}
		}
		r.stats[e.Trial] = append(r.stats[e.Trial], e.Stats...)
	}
	return recs, order
}

// evalSplit is the split most records are of.
func evalSplit(recs map[recKey]*rec, order []recKey) string {
	n := map[string]int{}
	best := ""
	for _, k := range order {
		s := recs[k].ctx.split
		n[s]++
		if n[s] > n[best] {
			best = s
		}
	}
	return best
}

// instancesPerContext counts, per trial and context, the instances the
// requests ask about (InstancesPerSplitMetric).
func instancesPerContext(states []*requestState) map[int]map[context]int {
	if len(states) == 0 {
		return nil
	}
	seen := map[int]map[recKey]bool{}
	out := map[int]map[context]int{}
	for _, rs := range states {
		k := recKey{rs.Instance.ID, canonical(rs.Instance.Perturbation)}
		if seen[rs.Trial] == nil {
			seen[rs.Trial] = map[recKey]bool{}
			out[rs.Trial] = map[context]int{}
		}
		if seen[rs.Trial][k] {
			continue
		}
		seen[rs.Trial][k] = true
		out[rs.Trial][context{rs.Instance.Split, rs.Instance.SubSplit, k.perturbation}]++
	}
	return out
}

// summaryOf is a record's list row.
func summaryOf(r *rec, rowMetric string, binary bool, used map[string]int) model.Summary {
	id := r.key.id
	if r.pertName != "" {
		id += "/" + r.pertName
	}
	if n := used[id]; n > 0 {
		used[id]++
		id += "#" + strconv.Itoa(n+1)
	} else {
		used[id] = 1
	}
	s := model.Summary{ID: id, Title: titleOf(r)}
	if v, ok := valueOf(r, rowMetric); ok {
		s.Score, s.HasScore = v, true
		if binary {
			s.Status = model.StatusFail
			if v == 1 {
				s.Status = model.StatusPass
			}
		}
	}
	labels := []string{"split", r.ctx.split}
	if r.ctx.subSplit != "" {
		labels = append(labels, "sub_split", r.ctx.subSplit)
	}
	if r.pertName != "" {
		labels = append(labels, "perturbation", r.pertName)
	}
	if t := correctText(r.inst); t != "" {
		labels = append(labels, "target", jsonl.Clip(t, 64))
	}
	s.Labels = model.NewLabels(labels...)
	for _, rs := range r.states {
		n := 1
		if rs.Result != nil && len(rs.Result.Completions) > 1 {
			n = len(rs.Result.Completions)
		}
		s.Attempts += n
		if rs.Result == nil || !rs.Result.Success {
			s.Warnings++
		}
	}
	if len(r.stats) > 0 && rowMetric != "" {
		s.ScoredAttempts = len(r.stats)
	}
	if len(r.states) > 0 {
		s.Line = r.states[0].line
	}
	return s
}

// titleOf is a record's first line of input.
func titleOf(r *rec) string {
	t := r.inst.Input.Text
	if t == "" {
		for _, m := range r.inst.Input.Messages {
			if s := contentText(m.Content); s != "" {
				t = s
			}
		}
	}
	if t == "" && r.inst.Input.MultimediaContent != nil {
		for _, o := range r.inst.Input.MultimediaContent.MediaObjects {
			if o.Text != "" {
				t = o.Text
				break
			}
		}
	}
	whole := t
	t = strings.TrimSpace(t)
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[:i]
	}
	return jsonl.Own(jsonl.Clip(t, 200), whole)
}

// correctText joins the instance's correct references.
func correctText(in instance) string {
	var out []string
	for _, ref := range in.References {
		if ref.correct() {
			out = append(out, ref.Output.Text)
		}
	}
	return strings.Join(out, " | ")
}

// contentText is a chat message's content as text: a string, or the text
// parts of a list (chat.Text); anything else as it is written.
func contentText(raw json.RawMessage) string {
	if s, ok := chat.Text(raw); ok {
		return s
	}
	return string(raw)
}

// runFacts are the header facts of a run.
func runFacts(spec runSpec, scen scenarioInfo, suite, mdl string) []model.Fact {
	var out []model.Fact
	add := func(k, v string) {
		if v != "" {
			out = append(out, model.Fact{Key: k, Value: v})
		}
	}
	add("run", spec.Name)
	add("model", mdl)
	if d := spec.AdapterSpec.ModelDeployment; d != mdl {
		add("deployment", d)
	}
	add("suite", suite)
	sc := spec.ScenarioSpec.ClassName
	if i := strings.LastIndexByte(sc, '.'); i >= 0 {
		sc = sc[i+1:]
	}
	var args []string
	for k, v := range spec.ScenarioSpec.Args {
		args = append(args, k+"="+strings.Trim(string(v), `"`))
	}
	sort.Strings(args)
	if len(args) > 0 {
		sc += "(" + strings.Join(args, ", ") + ")"
	}
	add("scenario", sc)
	add("description", scen.Description)
	add("method", spec.AdapterSpec.Method)
	num := func(k string, v *int) {
		if v != nil {
			add(k, strconv.Itoa(*v))
		}
	}
	num("max eval instances", spec.AdapterSpec.MaxEvalInstances)
	num("max train instances", spec.AdapterSpec.MaxTrainInstances)
	num("train trials", spec.AdapterSpec.NumTrainTrials)
	num("outputs", spec.AdapterSpec.NumOutputs)
	num("max tokens", spec.AdapterSpec.MaxTokens)
	if t := spec.AdapterSpec.Temperature; t != nil {
		add("temperature", strconv.FormatFloat(*t, 'g', -1, 64))
	}
	add("groups", strings.Join(spec.Groups, ", "))
	var ps []string
	for _, p := range spec.DataAugmenterSpec.PerturbationSpecs {
		ps = append(ps, shortClass(p.ClassName))
	}
	add("perturbations", strings.Join(ps, ", "))
	var as []string
	for _, a := range spec.Annotators {
		as = append(as, shortClass(a.ClassName))
	}
	add("annotators", strings.Join(as, ", "))
	var ms []string
	for _, m := range spec.MetricSpecs {
		ms = append(ms, shortClass(m.ClassName))
	}
	add("metrics", strings.Join(ms, ", "))
	return out
}

func shortClass(c string) string {
	if i := strings.LastIndexByte(c, '.'); i >= 0 {
		return c[i+1:]
	}
	return c
}
