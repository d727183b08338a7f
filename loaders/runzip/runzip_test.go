package runzip

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"evalview/model"
	"evalview/model/runstats"
)

func TestSummaries(t *testing.T) {
	rs := validRun(t)
	for _, path := range []string{rs.zip(t, "run/"), rs.dir(t)} {
		ds := openOne(t, path)
		type row struct {
			id, title, cat, status, errored string
			attempts, wanted, scored        int
			score                           float64
			hasScore                        bool
			st                              model.Status
		}
		want := []row{
			{"1", "How do I stay motivated when progress feels slow?", "life", "completed", "no", 2, 2, 2, 8.85, true, model.StatusPass},
			{"2", "Plan a weekly grocery budget", "life", "partial", "yes", 2, 2, 1, 7.7, true, model.StatusFail},
			{"3", "Prove that the square root of 2 is irrational", "mathematics", "error", "yes", 2, 2, 0, 0, false, model.StatusError},
		}
		if ds.Records.Len() != len(want) {
			t.Fatalf("records = %d", ds.Records.Len())
		}
		for i, w := range want {
			s := ds.Records.Summary(i)
			got := row{s.ID, s.Title, s.Labels.Get("category"), s.Labels.Get("sample_status"), s.Labels.Get("errored"),
				s.Attempts, s.AttemptsWanted, s.ScoredAttempts, s.Score, s.HasScore, s.Status}
			if got != w {
				t.Errorf("%s row %d = %+v\nwant %+v", path, i, got, w)
			}
		}
	}
}

func TestRecord(t *testing.T) {
	p := validRun(t).zip(t, "run/")
	ds := openOne(t, p)
	r, err := ds.Records.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Messages) != 1 || r.Messages[0].Role != model.RoleUser || !strings.HasPrefix(r.Messages[0].Text(), "Please answer in a calm") {
		t.Errorf("messages = %+v", r.Messages)
	}
	if len(r.Attempts) != 2 {
		t.Fatalf("attempts = %d", len(r.Attempts))
	}
	a := r.Attempts[0]
	if a.Index != 1 || a.Text != "Break the goal into **small, visible steps**." || a.StatusText != "completed" ||
		a.DurationMS != 10000 || !a.HasWeighted || a.Weighted != 9.35 || a.Judge != "Concrete and calm." || a.Status != model.StatusPass {
		t.Errorf("attempt 1 = %+v", a)
	}
	wantScores := []model.Score{{Name: "relevance", Value: 10, Max: 10}, {Name: "quality", Value: 9, Max: 10}, {Name: "fluency", Value: 10, Max: 10}, {Name: "satisfaction", Value: 9, Max: 10}}
	if !reflect.DeepEqual(a.Scores, wantScores) {
		t.Errorf("scores = %+v", a.Scores)
	}
	if !reflect.DeepEqual(a.Facts[:3], []model.Fact{{Key: "characters", Value: "44"}, {Key: "started", Value: "2026-04-07T10:15:01Z"}, {Key: "ended", Value: "2026-04-07T10:15:11Z"}}) {
		t.Errorf("facts = %+v", a.Facts)
	}
	if r.Attempts[1].Status != model.StatusFail || r.Attempts[1].Weighted != 8.35 {
		t.Errorf("attempt 2 = %+v, want fail at 8.35", r.Attempts[1])
	}
	if len(r.Raw) != 2 || r.Raw[0].Label != s1 || r.Raw[0].File != p+"!"+s1 || r.Raw[1].Label != sc1 || !strings.Contains(string(r.Raw[1].JSON), `"attempt_evals"`) {
		t.Errorf("raw parts = %v / %v", r.Raw[0].Label, r.Raw[len(r.Raw)-1].Label)
	}
	fields := map[string]string{}
	for _, f := range r.Fields {
		fields[f.Name] = f.Value
	}
	if fields["rendering_name"] != r.Title || fields["source_category_display_name"] != "Life" || fields["source_item_index"] != "0" || fields["prompt"] != "" {
		t.Errorf("fields = %v", fields)
	}

	// The errored attempt of sample 2 keeps its error and is not scored.
	r2, _ := ds.Records.Record(1)
	e := r2.Attempts[1]
	if e.Status != model.StatusError || e.ErrorType != "http_error" || e.Error != "HTTP Error 504: Gateway Timeout" || e.ErrorBody != "upstream timed out" || e.HasWeighted {
		t.Errorf("errored attempt = %+v", e)
	}
	// A record read twice is the same (cached) value.
	if again, _ := ds.Records.Record(0); again != r {
		t.Error("record 0 was rebuilt instead of cached")
	}
}

func TestRecordIssues(t *testing.T) {
	rs := validRun(t)
	rs.edit(t, sc2, func(m map[string]any) { m["prompt"] = "Other" })
	rs.edit(t, s2, func(m map[string]any) { m["repeat_count_done"] = 1 })
	ds := openOne(t, rs.zip(t, ""))
	s := ds.Records.Summary(1)
	if s.Errors != 1 || s.Warnings != 1 {
		t.Errorf("sample 2 counts = %d errors, %d warnings; want 1, 1", s.Errors, s.Warnings)
	}
	r, _ := ds.Records.Record(1)
	if got := codes(r.Issues); !reflect.DeepEqual(got, []string{"repeat-count-mismatch", "score-mismatch"}) {
		t.Errorf("record issues = %v", got)
	}
	if len(ds.Issues) != 0 {
		t.Errorf("dataset issues = %s", dump(ds.Issues))
	}
}

func TestDatasetHeader(t *testing.T) {
	ds := openOne(t, validDir)
	if ds.Kind != model.KindRun || ds.MainMetric != "weighted_score" || ds.Task != "2026-04-07_101500_rwkv7-2-9b-demo_chat_en_n3_r2_mt4000" {
		t.Errorf("dataset = %v %v %v", ds.Kind, ds.MainMetric, ds.Task)
	}
	if ds.Title != "rwkv7-2-9b-demo_chat_en_n3_r2_mt4000 2026-04-07 10:15" {
		t.Errorf("title = %q", ds.Title)
	}
	want := []model.Fact{
		{Key: "run id", Value: "2026-04-07_101500_rwkv7-2-9b-demo_chat_en_n3_r2_mt4000"},
		{Key: "status", Value: "completed"},
		{Key: "score status", Value: "completed"},
		{Key: "model requested", Value: "rwkv"},
		{Key: "model reported", Value: "rwkv7-2.9B-demo.zip"},
		{Key: "endpoint", Value: "http://localhost:8080/v1/chat/completions"},
		{Key: "language", Value: "en"},
		{Key: "task type", Value: "chat"},
		{Key: "device", Value: "MacBook Pro 16-inch"},
		{Key: "cpu", Value: "Apple M4 Pro"},
		{Key: "gpu", Value: "Apple M4 Pro"},
		{Key: "memory", Value: "48 GB"},
		{Key: "created", Value: "2026-04-07T10:15:00Z"},
		{Key: "updated", Value: "2026-04-07T10:45:00Z"},
		{Key: "repeat count", Value: "2"},
		{Key: "max tokens", Value: "4000"},
		{Key: "seed", Value: "20260407"},
		{Key: "selection mode", Value: "sequential"},
		{Key: "samples requested", Value: "3 of 340"},
		{Key: "source file", Value: "docs/requirements/prompt/prebuilt-prompt-en.json"},
		{Key: "samples", Value: "1/3 completed"},
		{Key: "attempts", Value: "6/6 done"},
		{Key: "progress", Value: "sample 3 (mathematics)"},
		{Key: "pass threshold", Value: "8.5 (default)"},
		{Key: "category life", Value: "1/2 samples (Life)"},
		{Key: "category mathematics", Value: "0/1 samples (Mathematics)"},
	}
	if !reflect.DeepEqual(ds.Facts, want) {
		t.Errorf("facts:\n got %v\nwant %v", ds.Facts, want)
	}
	var names []string
	for _, m := range ds.Metrics {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "total_categories,total_samples,completed_samples,partial_samples,error_samples,done_attempts,total_attempts,completed_attempts,error_attempts" {
		t.Errorf("metrics = %v", names)
	}
	if !reflect.DeepEqual(ds.Scoring.Categories, []string{"life", "mathematics"}) ||
		ds.Scoring.CategoryNames["mathematics"] != "Mathematics" || runstats.Threshold(ds) != 8.5 {
		t.Errorf("scoring = %+v", ds.Scoring)
	}
}

func TestScoresMapThreshold(t *testing.T) {
	rs := validRun(t)
	rs["scores_map.json"] = []byte(`{"run_id": "x", "pass_threshold": 9.0, "global_mean": 8.27}`)
	ds := openOne(t, rs.zip(t, ""))
	if ds.Fact("pass threshold") != "9 (scores_map.json)" || runstats.Threshold(ds) != 9 {
		t.Errorf("threshold fact = %q, Threshold = %v", ds.Fact("pass threshold"), runstats.Threshold(ds))
	}
	// 8.85 passes the default 8.5 but not the run's own 9.
	if s := ds.Records.Summary(0); s.Status != model.StatusFail {
		t.Errorf("sample 1 status = %v, want fail at threshold 9", s.Status)
	}
	last := ds.Metrics[len(ds.Metrics)-1]
	if last.Name != "weighted_score" || last.Value != 8.27 {
		t.Errorf("reported mean = %+v", last)
	}
}

func TestAverageWeightedScore(t *testing.T) {
	cases := []struct {
		in   []float64
		want float64
		ok   bool
	}{
		{nil, 0, false},
		{[]float64{7.7}, 7.7, true},
		{[]float64{9.35, 8.35}, 8.85, true},
		{[]float64{8.35, 8.4}, 8.38, true},                  // 8.375 rounds half up
		{[]float64{10, 9.35, 9.35, 10, 10}, 9.74, true},     // scores_map.json sample 340
		{[]float64{8.85, 10, 9.35, 10, 10}, 9.64, true},     // scores_map.json sample 339
		{[]float64{9.35, 9.35, 9.35, 9.35, 10}, 9.48, true}, // sample 75
	}
	for _, c := range cases {
		got, ok := AverageWeightedScore(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("AverageWeightedScore(%v) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestStats(t *testing.T) {
	ds := openOne(t, validDir)
	cases := []struct {
		threshold float64
		above     int
	}{{8.5, 1}, {7.5, 2}, {9, 0}, {0, 1}}
	for _, c := range cases {
		st := runstats.StatsOf(ds, c.threshold)
		if st.Records != 3 || st.Attempts != 6 || st.ScoredAttempts != 3 || st.ScoredRecords != 2 ||
			st.MeanWeightedScore == nil || *st.MeanWeightedScore != 8.28 || st.AboveThreshold != c.above {
			t.Errorf("Stats(%v) = %+v", c.threshold, st)
		}
		if !reflect.DeepEqual(st.CategoryMeans, map[string]float64{"life": 8.28}) {
			t.Errorf("category means = %v", st.CategoryMeans)
		}
	}
	if h := runstats.Compute(ds, 0).Hist; h[15] != 1 || h[17] != 1 {
		t.Errorf("histogram = %v", h)
	}
	empty := &model.Dataset{Records: model.NewMemIndex(nil)}
	if st := runstats.StatsOf(empty, 0); st.MeanWeightedScore != nil || st.Threshold != DefaultThreshold {
		t.Errorf("empty stats = %+v", st)
	}
}

func TestSniff(t *testing.T) {
	rs := validRun(t)
	head := func(p string) []byte {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return data[:min(len(data), 64<<10)]
	}
	noManifest := validRun(t)
	delete(noManifest, "manifest.json")
	files := []struct {
		name string
		head []byte
		want int
	}{
		{"run.zip", head(rs.zip(t, "")), 2},
		{"run.zip", head(rs.zip(t, "outer/")), 2},
		{"renamed.bin", head(rs.zip(t, "outer/")), 2},
		{"other.zip", head(noManifest.zip(t, "")), 1},
		{"manifest.json", rs["manifest.json"], 2},
		{"generation_summary.json", rs["generation_summary.json"], 2},
		{"manifest.json", []byte(`{"name": "a web app manifest"}`), 0},
		{"0001.json", rs[s1], 0},
		{"data.jsonl", []byte(`{"doc_id": 0}`), 0},
	}
	for _, c := range files {
		if got := SniffFile(c.name, c.head); got != c.want {
			t.Errorf("SniffFile(%s) = %d, want %d", c.name, got, c.want)
		}
	}

	parent := t.TempDir()
	if err := os.Rename(rs.dir(t), filepath.Join(parent, "run1")); err != nil {
		t.Fatal(err)
	}
	zips := t.TempDir()
	if err := os.Rename(rs.zip(t, "r/"), filepath.Join(zips, "a.zip")); err != nil {
		t.Fatal(err)
	}
	dirs := []struct {
		dir  string
		want int
	}{
		{validDir, 2},
		{parent, 1},
		{zips, 1},
		{t.TempDir(), 0},
	}
	for _, c := range dirs {
		if got := SniffDir(c.dir, dirNames(t, c.dir)); got != c.want {
			t.Errorf("SniffDir(%s) = %d, want %d", c.dir, got, c.want)
		}
	}

	// A folder of runs opens every run in it: folders and zips.
	if err := os.Rename(filepath.Join(zips, "a.zip"), filepath.Join(parent, "run2.zip")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(parent, "broken.zip"), []byte("PK\x03\x04 no"), 0o644); err != nil {
		t.Fatal(err)
	}
	dss, err := Open(parent)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, ds := range dss {
		paths = append(paths, filepath.Base(ds.Path)+":"+strings.Join(codes(ds.Issues), ","))
	}
	if strings.Join(paths, " ") != "broken.zip:bad-zip run1: run2.zip:" {
		t.Errorf("folder of runs = %v", paths)
	}
}

func dirNames(t *testing.T, dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		out = append(out, n)
	}
	return out
}

func TestOpenManifestFile(t *testing.T) {
	ds := openOne(t, filepath.Join(validDir, "manifest.json"))
	if ds.Path != validDir || ds.Records.Len() != 3 {
		t.Errorf("opening manifest.json gave %s with %d records", ds.Path, ds.Records.Len())
	}
	if _, err := Open(filepath.Join(validDir, s1)); err == nil {
		t.Error("a sample file alone should not open as a run")
	}
}

func TestShortTitle(t *testing.T) {
	cases := []struct{ id, want string }{
		{"2026-03-25_221421_rwkv7-2-9b-g1e-20260312-ctx8192-mlx-6bit-zip", "rwkv7-2-9b-g1e-20260312-ctx8192-mlx-6bit-zip 2026-03-25 22:14"},
		{"2026-03-24_121809_rwkv7-2-9b-g1e-20260312-ctx8192-mlx-6bit-zip_chat_zh_n240_r5_mt8000", "rwkv7-2-9b-g1e-20260312…_chat_zh_n240_r5_mt8000 2026-03-24 12:18"},
		{"2026-04-07_english_eval_run", "2026-04-07_english_eval_run"},
		{"my run", "my run"},
	}
	for _, c := range cases {
		if got := shortTitle(c.id, "x"); got != c.want {
			t.Errorf("shortTitle(%q) = %q, want %q", c.id, got, c.want)
		}
	}
}

// TestConcurrentRecords reads records from several goroutines, as the TUI
// does; run with -race.
func TestConcurrentRecords(t *testing.T) {
	ds := openOne(t, validRun(t).zip(t, "run/"))
	errs := make(chan error, 40)
	for g := 0; g < 40; g++ {
		go func(g int) {
			r, err := ds.Records.Record(g % ds.Records.Len())
			if err == nil && r.ID != ds.Records.Summary(g%ds.Records.Len()).ID {
				err = os.ErrInvalid
			}
			errs <- err
		}(g)
	}
	for g := 0; g < 40; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
