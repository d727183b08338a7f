// Command evalbench measures evalview at scale against baselines, in one
// run: it generates lm-eval samples files with cmd/evalgen's generator
// (gsm8k-like, 64 repeats, 3 filters), times `cat`, `wc -l` and `grep -c`
// over them, then evalview's full index, search, `check`, `summary`, the
// browser's first screen (EVALVIEW_TRACE, under tmux) and the opening of
// a record whose line is 200 MB, with each one's peak memory and CPU
// time, and prints a table of figures, ratios and targets (issue 7), with
// the load average before and after. Each measurement is run -runs times
// (default 3) and its fastest run shown: on a machine shared with other
// jobs, the fastest run is the one least slowed by them. scripts/bench
// runs it.
//
//	go run ./cmd/evalbench -sizes 100MB,1GB
//	go run ./cmd/evalbench -sizes 100MB,1GB,4GB -dir /tmp/evalbench
//
// Child modes (-index, -search, -record) run one measurement in a fresh
// process, so that its peak memory is its own.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"evalview/loaders"
	"evalview/loaders/lmevalgen"
	"evalview/model"
)

func main() {
	var (
		sizes   = flag.String("sizes", "100MB,1GB", "comma-separated samples file sizes to generate and measure (empty: none)")
		inspect = flag.String("inspect", "1GB", "comma-separated sizes of Inspect .eval logs to generate and measure (empty: none)")
		files   = flag.String("files", "1000,10000,100000", "comma-separated counts of small samples files in one folder to measure check, summary and export on (empty: none)")
		dir     = flag.String("dir", "", "folder for the generated files (default: a temporary folder, removed after)")
		bin     = flag.String("evalview", "", "evalview binary (default: built into the folder)")
		long    = flag.String("long-line", "200MB", "size of the long line for the record-open figure (empty: skip)")
		needle  = flag.String("needle", "no such text anywhere", "text searched for (the default has no hits: a full scan)")
		tuiWait = flag.Duration("tui-timeout", 2*time.Minute, "how long to wait for the browser's trace")
		runs    = flag.Int("runs", 3, "runs of each measurement: the table shows the fastest (and the highest peak memory), which is what a shared machine's noise distorts least")
		index   = flag.String("index", "", "child mode: index this file and print the seconds it took")
		search  = flag.String("search", "", "child mode: search this file for -needle and print the seconds it took")
		record  = flag.String("record", "", "child mode: open this file's biggest record and print the seconds it took")
		ovCount = flag.String("overview", "", "comma-separated counts of files of the overview table (e.g. 100,600,5000): 10 model folders of 1-5 MB samples files and results, or that many small files")
		ovKeys  = flag.String("overview-keys", "", "child mode: open this folder on the overview and print its slowest key (ms), the key, and the overview's first frame (ms)")
		ovRuns  = flag.String("overview-runs", "", "comma-separated shapes MODELSxRUNS of folders of many runs for the overview (e.g. 1x200,50x10): one results file per run, tasks run again")
		genEval = flag.String("gen-inspect", "", "child mode: write a generated Inspect log, PATH:SIZE")
		genLong = flag.String("gen-long", "", "child mode: write a samples file with one line of SIZE bytes in DIR, DIR:SIZE")
		decoder = flag.Bool("decoder", false, "measure the JSON string decoder against encoding/json/jsontext (Go benchmark, GOEXPERIMENT=jsonv2; issue 22)")
		seen    = flag.Bool("seen", true, "measure what a user sees on an emulated terminal: first screens and keys beside the -baselines tools, search against grep, summary --json against cat, G and enter (issues 23, 31)")
		tools   = flag.String("baselines", "less,lnav,vd,statusquo", "comma-separated tools measured beside evalview on the emulated terminal (-seen): less, lnav, vd, statusquo (python3 scripts/statusquo.py FILE | less); a tool not installed is skipped with a note")
		toolMem = flag.String("baseline-mem", "4GB", "a tool whose processes hold more memory than this is stopped, and its row says so (empty: no limit)")
		toolMax = flag.Duration("baseline-timeout", 10*time.Minute, "the longest a tool's screen is waited for")
		toolOne = flag.Duration("baseline-slow", time.Minute, "a tool's run that takes longer than this is not repeated (-runs)")
		sqPath  = flag.String("statusquo", "scripts/statusquo.py", "the status-quo script")
		small   = flag.Int("small", 13, "records of the small file whose first screen is measured against less (0: none)")
		word    = flag.String("word", "the answer is", "text searched for in the browser (-seen)")
		remote  = flag.String("remote", "", "comma-separated sizes of samples files to read over s3:// from a local S3 server, e.g. 1GB (empty, the default: none)")
		latency = flag.Duration("latency", 50*time.Millisecond, "latency the local S3 server adds to every request (-remote)")
		serve   = flag.String("serve-s3", "", "serve this folder as the S3 bucket \"bench\" on 127.0.0.1 (after -latency per request) until interrupted, printing the environment that points evalview at it")
		plain   = flag.String("plain", "", "comma-separated counts of records of plain JSON Lines files to measure check, summary and export on against the memory budget, e.g. 10000000 (empty, the default: none)")
		plainLn = flag.String("plain-line", "", "comma-separated sizes of one-line plain JSON Lines files to measure check, summary and export on against the memory budget, e.g. 2GB (empty, the default: none)")
		answers = flag.String("answers", "", "comma-separated paths to open in the browser (-evalview): the time to its first screen and from q to its end, issue 30 (folders of many files, huge files, silent servers)")
		rrecord = flag.String("remote-record", "", "child mode: open this remote file, then a record in its middle, and print the seconds and range requests that took")
	)
	flag.Parse()
	var err error
	switch {
	case *index != "":
		err = childIndex(*index)
	case *search != "":
		err = childSearch(*search, *needle)
	case *record != "":
		err = childRecord(*record)
	case *ovKeys != "":
		err = childOverviewKeys(*ovKeys)
	case *genEval != "":
		err = childGenerate(*genEval)
	case *genLong != "":
		err = childGenerateLong(*genLong)
	case *rrecord != "":
		err = childRemoteRecord(*rrecord)
	case *serve != "":
		err = serveForever(*serve, *latency)
	case *answers != "":
		repeats = max(*runs, 1)
		if *bin == "" {
			err = fmt.Errorf("-answers needs -evalview BINARY")
			break
		}
		err = measureAnswers(*bin, strings.Split(*answers, ","))
	default:
		repeats = max(*runs, 1)
		overviewCounts, overviewRuns = *ovCount, *ovRuns
		remoteSizes, remoteLatency = *remote, *latency
		plainCounts, plainLines = *plain, *plainLn
		seenOpts = seenConfig{on: *seen, small: *small, word: *word}
		baselines, err = baselineFlags(*tools, *toolMem, *sqPath, *toolMax, *toolOne)
		if err != nil {
			break
		}
		err = run(*sizes, *inspect, *files, *dir, *bin, *long, *needle, *tuiWait)
		if err == nil && *decoder {
			err = measureDecoder(repeats)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "evalbench:", err)
		os.Exit(1)
	}
}

// openWait opens path as the commands do (complete indexes).
func openWait(path string) ([]*model.Dataset, error) {
	return loaders.Open([]string{path}, loaders.Options{})
}

func childIndex(path string) error {
	start := time.Now()
	ds, err := openWait(path)
	if err != nil {
		return err
	}
	n := 0
	for _, d := range ds {
		n += d.Records.Len()
	}
	fmt.Printf("%.4f %d\n", time.Since(start).Seconds(), n)
	return nil
}

func childSearch(path, needle string) error {
	ds, err := openWait(path)
	if err != nil || len(ds) == 0 {
		return fmt.Errorf("open: %v", err)
	}
	rs, ok := ds[0].Records.(model.RawSearcher)
	if !ok {
		return fmt.Errorf("%s: index has no raw search", path)
	}
	start := time.Now()
	hits := 0
	if err := rs.SearchRaw(context.Background(), needle, true, func(int) { hits++ }); err != nil {
		return err
	}
	fmt.Printf("%.4f %d\n", time.Since(start).Seconds(), hits)
	return nil
}

func childRecord(path string) error {
	ds, err := openWait(path)
	if err != nil || len(ds) == 0 {
		return fmt.Errorf("open: %v", err)
	}
	// The generator reports which doc it made long; run wrote it beside
	// the file.
	b, err := os.ReadFile(path + ".longdoc")
	if err != nil {
		return err
	}
	var idx int
	fmt.Sscan(string(b), &idx)
	start := time.Now()
	rec, err := ds[0].Records.Record(idx)
	if err != nil {
		return err
	}
	size := 0
	for _, a := range rec.Attempts {
		size += len(a.Text)
	}
	fmt.Printf("%.4f %d\n", time.Since(start).Seconds(), size)
	return nil
}

// result is one measured command: wall time, CPU time (user and system)
// and peak resident memory.
type result struct {
	secs  float64
	cpu   float64
	rssMB float64
	out   string
	child bool
}

// plainCounts and plainLines are -plain and -plain-line.
var plainCounts, plainLines string

// remoteSizes and remoteLatency are -remote and -latency.
var (
	remoteSizes   string
	remoteLatency time.Duration
)

// repeats is how many times measure runs each command (-runs).
var repeats = 1

// measure runs a command repeats times and reports its fastest run (wall
// time, that run's output and CPU time) with the highest peak RSS of all
// runs.
func measure(name string, args ...string) (result, error) {
	var best result
	for i := range repeats {
		r, err := measureOnce(name, args...)
		if err != nil {
			return r, err
		}
		rss := max(best.rssMB, r.rssMB)
		if i == 0 || runSecs(r) < runSecs(best) {
			best = r
		}
		best.rssMB = rss
	}
	return best, nil
}

// runSecs is a run's time: the one the child printed when it is
// evalbench's own mode (which times the work alone), else its wall time.
func runSecs(r result) float64 {
	if s, _ := fields2(r.out); r.child && s > 0 {
		return s
	}
	return r.secs
}

// selfPath is evalbench's own binary, whose child modes print their time.
var selfPath string

// measureOnce runs a command once.
func measureOnce(name string, args ...string) (result, error) {
	argv := append([]string{name}, args...)
	peak := ""
	if gnuTime() {
		f, err := os.CreateTemp("", "evalbench-rss")
		if err != nil {
			return result{}, err
		}
		f.Close()
		defer os.Remove(f.Name())
		peak = f.Name()
		argv = append([]string{"/usr/bin/time", "-f", "%M", "-o", peak}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	var out strings.Builder
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	start := time.Now()
	err := cmd.Run()
	r := result{secs: time.Since(start).Seconds(), out: strings.TrimSpace(out.String()), child: name == selfPath}
	r.rssMB, r.cpu = usage(cmd.ProcessState)
	if peak != "" {
		// The last line: GNU time writes "Command exited with non-zero
		// status N" before it.
		b, _ := os.ReadFile(peak)
		lines := strings.Fields(string(b))
		var kb float64
		if len(lines) > 0 {
			fmt.Sscan(lines[len(lines)-1], &kb)
		}
		r.rssMB = kb / 1024
	}
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && (name == "grep" || strings.HasSuffix(name, "evalview")) {
			err = nil // grep without matches, check with findings
		}
	}
	return r, err
}

// gnuTime reports whether GNU time is at /usr/bin/time: the commands
// measured run through it, so that their peak memory is their own. The
// kernel's figure for a child that evalbench starts directly is never
// less than evalbench's own peak (a new program's peak starts from the
// memory of the process it replaced, here evalbench's, which
// os/exec shares until the exec): cat of a file read as 187 MB late in
// a run. GNU time is a small C program, so a command it starts begins
// from about 1 MB. Where it is not (macOS's time takes other flags),
// the kernel's figure is kept.
var gnuTime = sync.OnceValue(func() bool {
	return exec.Command("/usr/bin/time", "-f", "%M", "-o", os.DevNull, "true").Run() == nil
})

// shell runs a shell pipeline (for `cat FILE > /dev/null`).
func shell(script string) (result, error) { return measure("sh", "-c", script) }

func run(sizeList, inspect, files, dir, bin, long, needle string, tuiWait time.Duration) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "evalbench")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	selfPath = self
	if bin == "" {
		bin = filepath.Join(dir, "evalview")
		fmt.Fprintln(os.Stderr, "building evalview…")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/evalview").CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v\n%s", err, out)
		}
	}
	host, _ := os.Hostname()
	fmt.Printf("# evalview scale benchmark, %s, %s, %d cores, %s, best of %d runs\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), host, runtime.NumCPU(), memTotal(), repeats)
	if seenOpts.on && len(baselines.tools) > 0 {
		fmt.Printf("Beside evalview: %s.\n\n", toolVersions())
		if baselines.home, err = baselineHome(dir); err != nil {
			return err
		}
	}
	load := loadAvg()
	rows, err := seenSmallFile(dir, bin)
	if err != nil {
		return err
	}
	for _, sz := range strings.Split(sizeList, ",") {
		sz = strings.TrimSpace(sz)
		if sz == "" {
			continue
		}
		size, err := lmevalgen.ParseSize(sz)
		if err != nil {
			return err
		}
		samples, err := generated(filepath.Join(dir, sz), lmevalgen.Config{Size: size, Repeats: 64})
		if err != nil {
			return err
		}
		got, err := measureSize(self, bin, samples, sz, needle, tuiWait)
		if err != nil {
			return err
		}
		rows = append(rows, got...)
	}
	inspectRows, err := measureInspect(self, bin, dir, inspect, tuiWait)
	if err != nil {
		return err
	}
	rows = append(rows, inspectRows...)
	if long != "" {
		size, err := lmevalgen.ParseSize(long)
		if err != nil {
			return err
		}
		longDir := filepath.Join(dir, "long-"+long)
		samples, _ := filepath.Glob(filepath.Join(longDir, "samples_*.jsonl"))
		if len(samples) != 1 {
			fmt.Fprintf(os.Stderr, "generating a %s line…\n", long)
			// In a child process, as the Inspect log: the line is built in
			// memory, and a child's peak memory as the kernel reports it
			// starts at this process's peak (it is inherited at exec), so
			// every command measured after would count it.
			cmd := exec.Command(self, "-gen-long", fmt.Sprintf("%s:%d", longDir, size))
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
			if err := cmd.Run(); err != nil {
				return err
			}
			samples, _ = filepath.Glob(filepath.Join(longDir, "samples_*.jsonl"))
			if len(samples) != 1 {
				return fmt.Errorf("%s: the generated long line is missing", longDir)
			}
		}
		r, err := measure(self, "-record", samples[0])
		if err != nil {
			return err
		}
		secs, _ := fields2(r.out)
		rows = append(rows, row{size: long + " line", what: "open the record (load + split)", secs: secs, rss: r.rssMB, target: "≤ 0.5 s", ok: secs <= 0.5})
	}
	fileRows, err := measureFiles(bin, dir, files)
	if err != nil {
		return err
	}
	rows = append(rows, fileRows...)
	ovRows, err := measureOverview(self, bin, dir, overviewCounts, tuiWait)
	if err != nil {
		return err
	}
	rows = append(rows, ovRows...)
	runRows, err := measureOverviewRuns(self, bin, dir, overviewRuns, tuiWait)
	if err != nil {
		return err
	}
	rows = append(rows, runRows...)
	remoteRows, err := measureRemote(self, bin, dir, remoteSizes, remoteLatency)
	if err != nil {
		return err
	}
	rows = append(rows, remoteRows...)
	plainRows, err := measurePlain(bin, dir, plainCounts, plainLines)
	if err != nil {
		return err
	}
	rows = append(rows, plainRows...)
	printTable(rows)
	printSide(sides, sideNames(sides))
	fmt.Print(countsNote(rows))
	fmt.Printf("\nload average (1 min) before: %s, after: %s\n", load, loadAvg())
	return nil
}

// loadAvg is the 1-minute load average: above the core count, other jobs
// were competing for the cores during the run.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(data) + " unknown")[0]
}

// generated returns the samples file generated in dir by an earlier run
// with -dir, or generates it (the generator is deterministic).
func generated(dir string, cfg lmevalgen.Config) (string, error) {
	if m, _ := filepath.Glob(filepath.Join(dir, "samples_*.jsonl")); len(m) == 1 {
		return m[0], nil
	}
	fmt.Fprintf(os.Stderr, "generating %s…\n", filepath.Base(dir))
	cfg.Dir = dir
	res, err := lmevalgen.Generate(cfg)
	if err != nil {
		return "", err
	}
	return res.SamplesPath, nil
}

// row is one line of the table.
type row struct {
	size, what string
	secs, rss  float64
	// cpu is the process's user and system time, where the process did
	// the measured work alone; for a first screen, the CPU its threads
	// had used when the screen showed the rows (0: not shown).
	cpu    float64
	mbps   float64
	ratio  string
	target string
	ok     bool
	note   string
}

func measureSize(self, bin, path, label, needle string, tuiWait time.Duration) ([]row, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	mb := float64(st.Size()) / 1e6
	memBudget := 150 + 0.05*mb
	q := shellQuote(path)
	if _, err := shell("cat " + q + " > /dev/null"); err != nil { // warm the page cache
		return nil, err
	}
	var rows []row
	base := map[string]float64{}
	for _, b := range []struct{ name, script string }{
		{"cat > /dev/null", "cat " + q + " > /dev/null"},
		{"wc -l", "wc -l " + q},
		{"grep -c ''", "grep -c '' " + q},
	} {
		r, err := shell(b.script)
		if err != nil {
			return nil, err
		}
		base[b.name] = r.secs
		rows = append(rows, row{size: label, what: "baseline: " + b.name, secs: r.secs, cpu: r.cpu, rss: r.rssMB, mbps: mb / r.secs})
	}
	grep := base["grep -c ''"]
	ratio := func(s float64) string { return fmt.Sprintf("%.2fx grep", s/grep) }

	r, err := measure(self, "-index", path)
	if err != nil {
		return nil, err
	}
	idx, _ := fields2(r.out)
	rows = append(rows, row{size: label, what: "full index", secs: idx, cpu: r.cpu, rss: r.rssMB, mbps: mb / idx, ratio: ratio(idx),
		target: fmt.Sprintf("≥ 1000 MB/s, ≤ 5x grep, ≤ %.0f MB", memBudget), ok: mb/idx >= 1000 && idx <= 5*grep && r.rssMB <= memBudget})

	for _, n := range []string{needle, "the answer is"} {
		r, err = measure(self, "-needle", n, "-search", path)
		if err != nil {
			return nil, err
		}
		ss, hits := fields2(r.out)
		rows = append(rows, row{size: label, what: fmt.Sprintf("raw search %q, case-folded (%d hits)", n, hits), secs: ss, rss: r.rssMB, mbps: mb / ss, ratio: ratio(ss), target: "≥ 500 MB/s", ok: mb/ss >= 500})
	}

	for _, c := range []string{"check", "summary"} {
		r, err := measure(bin, c, path)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{size: label, what: "evalview " + c, secs: r.secs, cpu: r.cpu, rss: r.rssMB, mbps: mb / r.secs, ratio: fmt.Sprintf("%.2fx index", r.secs/idx),
			target: "≤ 2x index", ok: r.secs <= 2*idx})
	}
	if tr, err := bestTrace(bin, path, tuiWait, false); err != nil {
		rows = append(rows, row{size: label, what: "browser", note: "not measured: " + err.Error()})
	} else {
		rows = append(rows,
			row{size: label, what: "trace: first rows drawn (View, not yet on the terminal; from package init, so less than what is seen)", secs: tr.first, target: frameTarget, ok: tr.first <= frame.Seconds()},
			row{size: label, what: "trace: index complete", secs: tr.indexed, rss: tr.rssMB, mbps: mb / tr.indexed, ratio: ratio(tr.indexed),
				target: fmt.Sprintf("≤ %.0f MB", memBudget), ok: tr.rssMB <= memBudget})
	}
	if seenOpts.on {
		seen, err := measureSeen(bin, path, label, seenOpts.word, memBudget)
		if err != nil {
			return nil, err
		}
		rows = append(rows, seen...)
	}
	return rows, nil
}

// trace is what the browser's EVALVIEW_TRACE file said, and with idle
// set how long the browser took to settle (its background work done).
type trace struct {
	first, indexed, idle float64
	rssMB                float64
}

// bestTrace runs browserTrace repeats times: the fastest first rows and
// index, the highest peak memory.
func bestTrace(bin, path string, wait time.Duration, idle bool) (trace, error) {
	var best trace
	for i := range repeats {
		tr, err := browserTrace(bin, path, wait, idle)
		if err != nil {
			return tr, err
		}
		if i == 0 {
			best = tr
			continue
		}
		best.first = min(best.first, tr.first)
		best.indexed = min(best.indexed, tr.indexed)
		best.idle = min(best.idle, tr.idle)
		best.rssMB = max(best.rssMB, tr.rssMB)
	}
	return best, nil
}

// browserTrace runs the browser in a detached tmux session with
// EVALVIEW_TRACE set, waits for its "first_rows" and "indexed" events
// (with idle set, then for its CPU time to stop growing: its background
// check is over), reads its peak memory, and quits it.
func browserTrace(bin, path string, wait time.Duration, idle bool) (trace, error) {
	var tr trace
	launched := time.Now()
	var then func(pid string, deadline time.Time)
	if idle {
		then = func(pid string, deadline time.Time) { tr.idle = waitIdle(pid, launched, deadline) }
	}
	at, rss, err := traceEvents(bin, path, 120, 40, wait, then, "first_rows", "indexed")
	tr.first, tr.indexed, tr.rssMB = at["first_rows"], at["indexed"], rss
	return tr, err
}

// peakRSS reads a process's VmHWM (peak resident set) in MB.
func peakRSS(pid string) float64 {
	data, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			var kb float64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, "VmHWM:"), "kB")), &kb)
			return kb / 1024
		}
	}
	return 0
}

func memTotal() string {
	data, _ := os.ReadFile("/proc/meminfo")
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "MemTotal:") {
			var kb float64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, "MemTotal:"), "kB")), &kb)
			return fmt.Sprintf("%.0f GB RAM", kb/1024/1024)
		}
	}
	return "RAM unknown"
}

func fields2(s string) (float64, int) {
	var a float64
	var b int
	fmt.Sscan(s, &a, &b)
	return a, b
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func printTable(rows []row) {
	fmt.Println("| file | measurement | time | CPU | throughput | peak RSS | ratio | target | met |")
	fmt.Println("|---|---|---:|---:|---:|---:|---|---|---|")
	for _, r := range rows {
		// A cell holds no "|": it would split the row.
		r.what, r.note, r.ratio = cell(r.what), cell(r.note), cell(r.ratio)
		if r.note != "" {
			fmt.Printf("| %s | %s | | | | | | %s | |\n", r.size, r.what, r.note)
			continue
		}
		secs, tp, rss, met, cpu := fmt.Sprintf("%.3f s", r.secs), "", "", "", ""
		if r.secs == 0 && r.rss > 0 {
			secs = "" // a memory figure alone
		}
		switch {
		case r.cpu > 0 && r.cpu < 0.1:
			cpu = fmt.Sprintf("%.3f s", r.cpu) // a start's few ms
		case r.cpu > 0:
			cpu = fmt.Sprintf("%.2f s", r.cpu)
		}
		if r.mbps > 0 {
			tp = fmt.Sprintf("%.0f MB/s", r.mbps)
		}
		if r.rss > 0 {
			rss = fmt.Sprintf("%.0f MB", r.rss)
		}
		if r.target != "" {
			met = "no"
			if r.ok {
				met = "yes"
			}
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.size, r.what, secs, cpu, tp, rss, r.ratio, r.target, met)
	}
}

// cell escapes a Markdown table cell's "|".
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// childGenerateLong is -gen-long DIR:SIZE: a samples file in DIR whose
// long doc's line is SIZE bytes, and beside it the doc's number.
func childGenerateLong(arg string) error {
	dir, size, err := pathSize("-gen-long", arg)
	if err != nil {
		return err
	}
	res, err := lmevalgen.Generate(lmevalgen.Config{Dir: dir, Docs: 10, Repeats: 8, LongLine: size})
	if err != nil {
		return err
	}
	return os.WriteFile(res.SamplesPath+".longdoc", []byte(fmt.Sprint(res.LongDoc)), 0o644)
}

// pathSize splits a child mode's PATH:SIZE argument.
func pathSize(flag, arg string) (string, int64, error) {
	i := strings.LastIndexByte(arg, ':')
	if i < 0 {
		return "", 0, fmt.Errorf("%s wants PATH:SIZE", flag)
	}
	var size int64
	if _, err := fmt.Sscan(arg[i+1:], &size); err != nil {
		return "", 0, err
	}
	return arg[:i], size, nil
}
