package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/loaders"
	"evalview/loaders/lmevalgen"
	"evalview/tui"
)

// The overview table (issue 17): output folders as lm-eval writes them,
// 10 model folders of 10 or 60 tasks (samples files of 1 to 5 MB, each
// model's results file with the tasks in groups of ten), and a folder of
// 5,000 small samples files; the browser opened on each, as a user does,
// against `cat` of all its files in the same run: the first screen (the
// overview), the overview with every figure final, peak memory, and the
// slowest key of the overview with the frame it draws.

// overviewCounts are -overview's counts of files ("" measures none).
var overviewCounts string

// ovModels is the number of model folders; ovGroup the tasks per group.
const (
	ovModels = 10
	ovGroup  = 10
)

// ovTask names task k: suite<G>_task<K>, in groups of ovGroup.
func ovTask(k int) string { return fmt.Sprintf("suite%d_task%d", k/ovGroup, k%ovGroup) }

// ovStamp is model m's run stamp, the same for all its tasks (one run).
func ovStamp(m int) string {
	return time.Date(2025, 7, 1, 8+m, 0, 0, 1000, time.UTC).Format("2006-01-02T15-04-05.000000")
}

// overviewFolder returns a folder of count files for the overview rows:
// 5,000 small samples files, or ovModels model folders of count/ovModels
// tasks. The tasks are generated once into dir/ov-gen and linked into the
// folders, so the 100-file folder holds the first tasks of the 600-file
// one.
func overviewFolder(dir string, count int) (string, error) {
	if count%ovModels != 0 || count/ovModels > 60 {
		return manyFiles(filepath.Join(dir, "files-"+strconv.Itoa(count)), count)
	}
	tasks := count / ovModels
	out := filepath.Join(dir, "overview-"+strconv.Itoa(count))
	if done, _ := filepath.Glob(filepath.Join(out, "*", "results_*.json")); len(done) == ovModels {
		return out, nil
	}
	fmt.Fprintf(os.Stderr, "assembling %d model folders of %d tasks…\n", ovModels, tasks)
	for m := 0; m < ovModels; m++ {
		name := fmt.Sprintf("org/model-%02d", m)
		folder := filepath.Join(out, strings.ReplaceAll(name, "/", "__"))
		if err := os.MkdirAll(folder, 0o755); err != nil {
			return "", err
		}
		var results []map[string]json.RawMessage
		for k := 0; k < tasks; k++ {
			res, err := ovGenerate(dir, m, k, name)
			if err != nil {
				return "", err
			}
			link := filepath.Join(folder, "samples_"+ovTask(k)+"_"+ovStamp(m)+".jsonl")
			if err := os.Link(res.SamplesPath, link); err != nil && !os.IsExist(err) {
				return "", err
			}
			data, err := os.ReadFile(res.ResultsPath)
			if err != nil {
				return "", err
			}
			var r map[string]json.RawMessage
			if err := json.Unmarshal(data, &r); err != nil {
				return "", err
			}
			results = append(results, r)
		}
		data, err := ovResults(results, tasks)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(folder, "results_"+ovStamp(m)+".json"), data, 0o644); err != nil {
			return "", err
		}
	}
	return out, nil
}

// ovGenerate generates task k of model m (1 to 5 MB), or finds it.
func ovGenerate(dir string, m, k int, name string) (lmevalgen.Result, error) {
	gen := filepath.Join(dir, "ov-gen", strconv.Itoa(m), strconv.Itoa(k))
	s, _ := filepath.Glob(filepath.Join(gen, "samples_*.jsonl"))
	r, _ := filepath.Glob(filepath.Join(gen, "results_*.json"))
	if len(s) == 1 && len(r) == 1 {
		return lmevalgen.Result{SamplesPath: s[0], ResultsPath: r[0]}, nil
	}
	size := int64(1+(m+3*k)%5) << 20
	return lmevalgen.Generate(lmevalgen.Config{Dir: gen, Task: ovTask(k), Model: name, Size: size, Seed: uint64(1000*m + k + 1)})
}

// ovResults joins one run's per-task results files into the one the
// harness writes for a run of all of them: each key's per-task maps
// merged, and the groups (suite<G>) with their aggregate as the harness
// computes it, the subtasks' values weighted by their sample counts.
func ovResults(parts []map[string]json.RawMessage, tasks int) ([]byte, error) {
	out := map[string]any{}
	for k, v := range parts[0] {
		out[k] = v
	}
	merged := map[string]map[string]json.RawMessage{}
	for _, key := range []string{"results", "configs", "versions", "n-shot", "higher_is_better", "n-samples", "group_subtasks"} {
		merged[key] = map[string]json.RawMessage{}
		for _, p := range parts {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(p[key], &m); err != nil {
				return nil, fmt.Errorf("%s: %w", key, err)
			}
			maps.Copy(merged[key], m)
		}
	}
	groups := map[string]any{}
	for g := 0; g*ovGroup < tasks; g++ {
		name := fmt.Sprintf("suite%d", g)
		var subs []string
		sums, sizes := map[string]float64{}, 0.0
		for k := g * ovGroup; k < min(tasks, (g+1)*ovGroup); k++ {
			t := ovTask(k)
			subs = append(subs, t)
			var ns struct{ Effective float64 }
			var res map[string]any
			if json.Unmarshal(merged["n-samples"][t], &ns) != nil || json.Unmarshal(merged["results"][t], &res) != nil {
				return nil, fmt.Errorf("task %s: no n-samples or results", t)
			}
			sizes += ns.Effective
			for key, v := range res {
				if f, ok := v.(float64); ok && strings.HasPrefix(key, "exact_match,") {
					sums[key] += f * ns.Effective
				}
			}
		}
		agg := map[string]any{"alias": name}
		for _, key := range slices.Sorted(maps.Keys(sums)) {
			agg[key] = sums[key] / sizes
		}
		b, _ := json.Marshal(agg)
		merged["results"][name] = b
		groups[name] = agg
		sb, _ := json.Marshal(subs)
		merged["group_subtasks"][name] = sb
	}
	for k, v := range merged {
		out[k] = v
	}
	out["groups"] = groups
	return json.MarshalIndent(out, "", "  ")
}

// folderBytes is the size of the lm-eval files under dir, in MB.
func folderBytes(dir string) float64 {
	var n int64
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			if info, err := e.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return float64(n) / 1e6
}

// measureOverview measures the browser's overview on folders of each
// count of files.
func measureOverview(self, bin, dir, counts string, wait time.Duration) ([]row, error) {
	var rows []row
	ns, err := fileCounts("-overview", counts)
	if err != nil {
		return nil, err
	}
	for _, n := range ns {
		folder, err := overviewFolder(dir, n)
		if err != nil {
			return nil, err
		}
		mb := folderBytes(folder)
		label := fmt.Sprintf("%d files, %.0f MB", n, mb)
		all := "find " + shellQuote(folder) + " -type f -exec cat {} + > /dev/null"
		if _, err := shell(all); err != nil { // warm the page cache
			return nil, err
		}
		cat, err := shell(all)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{size: label, what: "baseline: cat of all the files", secs: cat.secs, cpu: cat.cpu, mbps: mb / cat.secs})
		budget := 150 + 0.05*mb
		tr, err := bestOverviewTrace(bin, folder, wait)
		if err != nil {
			rows = append(rows, row{size: label, what: "browser", note: "not measured: " + err.Error()})
		} else {
			rows = append(rows,
				row{size: label, what: "browser: first screen (the overview)", secs: tr.first, target: "≤ 0.15 s", ok: tr.first <= 0.15},
				row{size: label, what: "browser: overview, every cell's value", secs: tr.values, ratio: fmt.Sprintf("%.2fx cat", tr.values/cat.secs),
					target: "≤ 2x cat", ok: tr.values <= 2*cat.secs},
				row{size: label, what: "browser: overview complete (every index, every value checked)", secs: tr.complete, rss: tr.rssMB, mbps: mb / tr.complete,
					ratio: fmt.Sprintf("%.2fx cat", tr.complete/cat.secs), target: fmt.Sprintf("≤ 2x cat, ≤ %.0f MB", budget),
					ok: tr.complete <= 2*cat.secs && tr.rssMB <= budget})
		}
		r, err := measure(self, "-overview-keys", folder)
		if err != nil {
			return nil, err
		}
		ms, _ := fields2(r.out)
		rows = append(rows, row{size: label, what: "overview: slowest key and its frame (" + strings.Fields(r.out + " ? ?")[1] + ")", secs: ms / 1000,
			target: "≤ 16 ms", ok: ms <= 16})
	}
	return rows, nil
}

// fileCounts reads a flag's comma-separated counts of files ("" is none).
func fileCounts(flag, list string) ([]int, error) {
	var out []int
	for _, c := range strings.Split(list, ",") {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		n, err := strconv.Atoi(c)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%s: %q is not a count of files", flag, c)
		}
		out = append(out, n)
	}
	return out, nil
}

// ovTrace is what the browser's trace said of the overview: its first
// frame, the first with every cell's value (reported by a results file,
// or recomputed), the first with every figure final (every index
// complete, reported values checked against the samples).
type ovTrace struct{ first, values, complete, rssMB float64 }

// bestOverviewTrace runs overviewTrace repeats times: the fastest times,
// the highest peak memory.
func bestOverviewTrace(bin, folder string, wait time.Duration) (ovTrace, error) {
	var best ovTrace
	for i := range repeats {
		tr, err := overviewTrace(bin, folder, wait)
		if err != nil {
			return tr, err
		}
		if i == 0 {
			best = tr
			continue
		}
		best.first, best.values, best.complete = min(best.first, tr.first), min(best.values, tr.values), min(best.complete, tr.complete)
		best.rssMB = max(best.rssMB, tr.rssMB)
	}
	return best, nil
}

// overviewTrace opens folder in the browser (the overview first, at
// 160x50), and waits for the overview's first frame, the one with every
// cell's value and the one with every figure final.
func overviewTrace(bin, folder string, wait time.Duration) (ovTrace, error) {
	at, rss, err := traceEvents(bin, folder, 160, 50, wait, nil, "overview_shown", "overview_values", "overview")
	return ovTrace{first: at["overview_shown"], values: at["overview_values"], complete: at["overview"], rssMB: rss}, err
}

// childOverviewKeys opens folder as the commands do (complete indexes),
// then the browser on its overview at 160x50, and times each of the
// overview's keys with the frame it draws; it prints the slowest in ms
// and its key.
func childOverviewKeys(folder string) error {
	dss, err := loaders.Open([]string{folder}, loaders.Options{})
	if err != nil && len(dss) == 0 {
		return err
	}
	// One P: a key's CPU time is then its time on an idle core, which a
	// machine shared with other jobs cannot give as wall time.
	runtime.GOMAXPROCS(1)
	runtime.GC()
	start, cpu0 := time.Now(), selfCPU()
	m := tui.New(dss, tui.Options{Theme: "dark", Overview: true})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	_ = m.View()
	first, firstCPU := time.Since(start), selfCPU()-cpu0
	press := func(k string) time.Duration {
		msg := tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
		switch k {
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		}
		start, cpu0 := time.Now(), selfCPU()
		m.Update(msg)
		_ = m.View()
		wall, cpu := time.Since(start), selfCPU()-cpu0
		if cpu > 0 && cpu < wall {
			return cpu // the rest of the wall time was other jobs' (rusage counts in ticks of 1 ms at worst)
		}
		return wall
	}
	// Each key's figure is its fastest of three rounds (the one a shared
	// machine disturbed least, as the other figures); the slowest key's
	// is printed.
	// E shows the model under the cursor run by run (a model of 200 runs:
	// 200 columns) and merges it again; a shows the empty rows and
	// columns; r lists a cell's runs, esc comes back.
	keys := []string{"j", "j", "l", "s", "S", "b", "h", "s", "e", "e", "z", "Z", "Z", "G", "g", "/", "t", "esc",
		"E", "l", "E", "a", "a", "r", "esc"}
	best := make([]time.Duration, len(keys))
	for round := 0; round < 3; round++ {
		for i, k := range keys {
			if d := press(k); round == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	worst := 0
	for i := range keys {
		if best[i] > best[worst] {
			worst = i
		}
	}
	if firstCPU > 0 && firstCPU < first {
		first = firstCPU
	}
	fmt.Printf("%.3f %s %.3f\n", float64(best[worst].Microseconds())/1000, keys[worst], float64(first.Microseconds())/1000)
	return nil
}
