package inspect

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/internal/zipsafe"
	"evalview/model"
)

// jsonLogOf is a .json log of n samples × epochs, written as Inspect
// writes it (samples epoch by epoch), with the header's results before
// the samples unless resultsLast. Sample i is right when i is odd.
func jsonLogOf(t *testing.T, n, epochs int, reducer string, resultsLast bool) string {
	t.Helper()
	var rs []string
	if reducer != "" {
		rs = []string{reducer}
	}
	spec := specOf("many", epochs, rs)
	// The header's accuracy is not what the samples give: a
	// metric-differs the end of the scan finds.
	var score obj = obj{"name": "match", "scorer": "match", "params": obj{},
		"metrics": obj{"accuracy": obj{"name": "accuracy", "value": 0.4, "params": obj{}}}}
	if reducer != "" {
		score["reducer"] = reducer
	}
	results := js(obj{"total_samples": n * epochs, "completed_samples": n * epochs, "scores": []obj{score}}, false)
	var b strings.Builder
	b.WriteString(`{"version": 2, "status": "success", "eval": ` + js(spec, false) + `, "plan": ` + js(plan(), false))
	if !resultsLast {
		b.WriteString(`, "results": ` + results)
	}
	b.WriteString(`, "stats": {}, "samples": [`)
	var red []obj
	for e := 1; e <= epochs; e++ {
		for i := 1; i <= n; i++ {
			if e > 1 || i > 1 {
				b.WriteString(",\n")
			}
			value := map[bool]string{true: "C", false: "I"}[i%2 == 1]
			b.WriteString(js(sample(i, e, fmt.Sprintf("Question %d?", i), "x", "x", value, nil), false))
			if e == 1 {
				red = append(red, obj{"value": 0.25, "sample_id": i})
			}
		}
	}
	b.WriteString("]")
	if resultsLast {
		b.WriteString(`, "results": ` + results)
	}
	if reducer != "" {
		b.WriteString(`, "reductions": ` + js([]obj{{"scorer": "match", "reducer": reducer, "samples": red}}, false))
	}
	b.WriteString("}\n")
	p := filepath.Join(t.TempDir(), "log.json")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// gate holds the scan after its first samples until released.
type gate struct {
	after   int
	read    int
	holding chan bool
	release chan bool
}

func newGate(t *testing.T, after int) *gate {
	g := &gate{after: after, holding: make(chan bool, 1), release: make(chan bool)}
	afterSample = func() {
		g.read++
		if g.read == g.after {
			g.holding <- true
			<-g.release
		}
	}
	t.Cleanup(func() { afterSample = nil })
	return g
}

func ids(x model.Index) string {
	var out []string
	for i := 0; i < x.Len(); i++ {
		out = append(out, x.Summary(i).ID)
	}
	return strings.Join(out, ",")
}

// TestJSONLogBackground: the browser's open returns with the rows read so
// far while the scan goes on (the scan is held after 3 samples of 50);
// the index grows to all of them, and the dataset's final issues come in
// through SyncDataset, as for lm-eval files.
func TestJSONLogBackground(t *testing.T) {
	p := jsonLogOf(t, 50, 1, "", false)
	g := newGate(t, 3)
	dss, err := OpenBackground(p)
	if err != nil {
		t.Fatal(err)
	}
	<-g.holding
	ds := dss[0]
	x := ds.Records
	if x.Done() || x.Len() != 3 || ids(x) != "1,2,3" {
		t.Fatalf("held after 3 samples: done=%v rows %s", x.Done(), ids(x))
	}
	if ds.MainMetric != "match" || len(ds.Metrics) != 1 {
		t.Errorf("the header's scorers are not known yet: %q %v", ds.MainMetric, ds.Metrics)
	}
	if r, err := x.Record(2); err != nil || r.Attempts[0].Text != "x" {
		t.Errorf("a row listed while the scan runs does not open: %v", err)
	}
	close(g.release)
	x.(*index).wait()
	if !x.Done() || x.Len() != 50 {
		t.Fatalf("after the scan: done=%v %d rows", x.Done(), x.Len())
	}
	if !x.(*index).SyncDataset(ds) {
		t.Error("SyncDataset did not take in the end of the scan")
	}
	found := false
	for _, is := range ds.Issues {
		found = found || is.Code == "metric-differs"
	}
	if !found {
		t.Errorf("the issues that need every record are missing: %v", ds.Issues)
	}
	whole := openOne(t, p)
	if ids(whole.Records) != ids(x) || len(whole.Issues) != len(ds.Issues) {
		t.Errorf("the commands' open differs from the browser's: %s / %s, %d / %d issues", ids(whole.Records), ids(x), len(whole.Issues), len(ds.Issues))
	}
}

// TestJSONLogEpochs: with two epochs a sample is listed once its second
// epoch is read, in the order Inspect writes them.
func TestJSONLogEpochs(t *testing.T) {
	p := jsonLogOf(t, 6, 2, "", false)
	g := newGate(t, 8) // epoch 1 of all six, epoch 2 of samples 1 and 2
	dss, err := OpenBackground(p)
	if err != nil {
		t.Fatal(err)
	}
	<-g.holding
	x := dss[0].Records
	if got := ids(x); got != "1,2" {
		t.Errorf("rows while epoch 2 is read: %q, want the two complete samples", got)
	}
	if r, _ := x.Record(0); len(r.Attempts) != 2 {
		t.Errorf("a listed sample has %d epochs", len(r.Attempts))
	}
	close(g.release)
	x.(*index).wait()
	if got := ids(x); got != "1,2,3,4,5,6" {
		t.Errorf("rows: %q", got)
	}
}

// TestJSONLogHeldForHeader: when the results come after the samples (not
// Inspect's order) the scorers are unknown while the samples stream by,
// so the rows are listed at the end, with the filters they need.
func TestJSONLogHeldForHeader(t *testing.T) {
	p := jsonLogOf(t, 10, 1, "", true)
	g := newGate(t, 5)
	done := make(chan []*model.Dataset)
	go func() {
		dss, err := OpenBackground(p)
		if err != nil {
			t.Error(err)
		}
		done <- dss
	}()
	<-g.holding
	close(g.release)
	dss := <-done
	ds := dss[0]
	ds.Records.(*index).wait()
	ds.Records.(*index).SyncDataset(ds)
	if ds.Records.Len() != 10 || ds.MainMetric != "match" || len(ds.Filters) != 1 {
		t.Errorf("rows %d, main %q, filters %v", ds.Records.Len(), ds.MainMetric, ds.Filters)
	}
	if s := ds.Records.Summary(0); !s.HasScore || s.Score != 1 {
		t.Errorf("row 1 is not scored under the results' scorer: %+v", s)
	}
}

// TestJSONLogReductionsAfter: a reducer evalview does not recompute takes
// its values from reductions.json, written after the samples: the rows
// listed before it are rewritten at the end.
func TestJSONLogReductionsAfter(t *testing.T) {
	p := jsonLogOf(t, 4, 1, "custom_reducer", false)
	ds := openOne(t, p)
	for i := 0; i < ds.Records.Len(); i++ {
		if s := ds.Records.Summary(i); !s.HasScore || s.Score != 0.25 {
			t.Errorf("row %d: %+v, want the reduction's 0.25", i, s)
		}
	}
}

// TestJSONLogStop: a scan stopped midway (the browser reloaded) ends,
// and what it read stays readable.
func TestJSONLogStop(t *testing.T) {
	p := jsonLogOf(t, 20, 1, "", false)
	g := newGate(t, 4)
	dss, err := OpenBackground(p)
	if err != nil {
		t.Fatal(err)
	}
	<-g.holding
	x := dss[0].Records.(*index)
	x.Stop()
	close(g.release)
	x.wait()
	if !x.Done() || x.Len() != 4 {
		t.Errorf("stopped: done=%v %d rows", x.Done(), x.Len())
	}
	if _, err := x.Record(3); err != nil {
		t.Error(err)
	}
}

// evalOf is an .eval of n samples of one epoch.
func evalOf(t *testing.T, n int, edit func(sums []obj)) string {
	t.Helper()
	var ms []member
	var sums []obj
	for i := 1; i <= n; i++ {
		s := sample(i, 1, fmt.Sprintf("Question %d?", i), "x", "x", "C", nil)
		ms = append(ms, member{name: fmt.Sprintf("samples/%d_epoch_1.json", i), data: js(s, false), method: zipsafe.MethodZstd})
		sums = append(sums, sumOf(s))
	}
	if edit != nil {
		edit(sums)
	}
	spec := specOf("many", 1, nil)
	results := obj{"total_samples": n, "completed_samples": n, "scores": []obj{{"name": "match", "scorer": "match", "params": obj{},
		"metrics": obj{"accuracy": obj{"name": "accuracy", "value": 1.0, "params": obj{}}}}}}
	ms = append(ms, member{name: summariesJSON, data: js(sums, false), method: zipsafe.MethodZstd},
		member{name: headerJSON, data: js(obj{"version": 2, "status": "success", "eval": spec, "plan": plan(), "results": results}, false), method: zipsafe.MethodZstd})
	return writeEval(t, zipOf(ms))
}

// TestEvalBackground: an .eval's rows are listed from its summaries as
// they stream from the zip: the browser's open returns with the first
// ones (the scan held after 3 of 40), and the index grows to all.
func TestEvalBackground(t *testing.T) {
	p := evalOf(t, 40, nil)
	g := newGate(t, 3)
	dss, err := OpenBackground(p)
	if err != nil {
		t.Fatal(err)
	}
	<-g.holding
	x := dss[0].Records
	if x.Done() || ids(x) != "1,2,3" {
		t.Fatalf("held after 3 summaries: done=%v rows %s", x.Done(), ids(x))
	}
	if r, err := x.Record(1); err != nil || r.Attempts[0].Text != "x" || len(r.Raw) != 2 {
		t.Errorf("a row listed while the scan runs does not open: %v", err)
	}
	close(g.release)
	x.(*index).wait()
	if !x.Done() || x.Len() != 40 {
		t.Errorf("after the scan: done=%v %d rows", x.Done(), x.Len())
	}
}

// TestEvalBadSummary: a summary of the wrong shape is an issue and is
// not listed; the others are.
func TestEvalBadSummary(t *testing.T) {
	p := evalOf(t, 5, func(sums []obj) { sums[2]["epoch"] = "two" })
	ds := openOne(t, p)
	if got := ids(ds.Records); got != "1,2,4,5" {
		t.Errorf("rows %s", got)
	}
	if !hasIssue(ds.Issues, "bad-json", "!summaries.json") {
		t.Errorf("no bad-json for the summary:%s", issueList(ds.Issues))
	}
	if !hasIssue(ds.Issues, "orphan-member", "!samples/3_epoch_1.json") {
		t.Errorf("the sample whose summary was not listed is not an orphan:%s", issueList(ds.Issues))
	}
}

// TestScanConcurrentReads reads rows, records and issues while the scan
// lists the rest and ends (run with -race): what the browser does while
// a log is indexed.
func TestScanConcurrentReads(t *testing.T) {
	for name, p := range map[string]string{
		"eval":                 evalOf(t, 60, nil),
		"json":                 jsonLogOf(t, 60, 1, "", false),
		"json, reductions":     jsonLogOf(t, 30, 2, "custom_reducer", false),
		"json, results last":   jsonLogOf(t, 30, 1, "", true),
		"eval, running (held)": filepath.Join(fixtureDir, "running.eval"),
	} {
		t.Run(name, func(t *testing.T) {
			dss, err := OpenBackground(p)
			if err != nil {
				t.Fatal(err)
			}
			ds := dss[0]
			x := ds.Records.(*index)
			done := make(chan bool)
			go func() {
				defer close(done)
				for !x.Done() {
					for i := 0; i < x.Len(); i++ {
						_ = x.Summary(i)
						_ = x.IndexIssues(i)
						if _, err := x.Record(i); err != nil {
							t.Error(err)
						}
					}
				}
			}()
			x.wait()
			<-done
			x.SyncDataset(ds)
			if _, err := ds.AllIssues(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
