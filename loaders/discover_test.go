package loaders

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"evalview/loaders/internal/folder"
	"evalview/model"
)

// copyInto copies the file or folder src to dst (made as needed).
func copyInto(t *testing.T, src, dst string) {
	t.Helper()
	st, err := os.Stat(src)
	switch {
	case err != nil:
	case st.IsDir():
		err = os.CopyFS(dst, os.DirFS(src))
	default:
		var b []byte
		if b, err = os.ReadFile(src); err == nil {
			if err = os.MkdirAll(filepath.Dir(dst), 0o755); err == nil {
				err = os.WriteFile(dst, b, 0o644)
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// walkAll opens paths as the browser does (Open) and as the commands do
// (Each), and returns what each gave: the datasets' kinds and paths
// relative to root, and the folders' discoveries.
func walkAll(t *testing.T, root string, paths ...string) (open, each []string, found []model.Discovery) {
	t.Helper()
	rel := func(ds *model.Dataset) string {
		r, err := filepath.Rel(root, ds.Path)
		if err != nil {
			r = ds.Path
		}
		return string(ds.Kind) + " " + filepath.ToSlash(r)
	}
	dss, err := Open(paths, Options{Found: func(d model.Discovery) { found = append(found, d) }})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	for _, ds := range dss {
		open = append(open, rel(ds))
	}
	var again []model.Discovery
	err = Each(paths, Options{Found: func(d model.Discovery) { again = append(again, d) }}, func(ds *model.Dataset) error {
		each = append(each, rel(ds))
		return nil
	})
	if err != nil {
		t.Fatalf("Each: %v", err)
	}
	if len(again) != len(found) || len(found) > 0 && again[0].Line() != found[0].Line() {
		t.Errorf("Each found %v, Open %v", again, found)
	}
	return open, each, found
}

// TestWalkFindsEveryArtifact: an output folder as people keep them (issue
// 29) opens whole: results four folders down under task-named folders, a
// model folder lm-eval named after a relative path (..__adapters__x),
// Inspect logs in dated subfolders, a run folder under remote/evals/, a
// hidden folder of the user's own; tools' folders are passed over, and
// every file not read is said, with why.
func TestWalkFindsEveryArtifact(t *testing.T) {
	root := t.TempDir()
	copyInto(t, filepath.Join(fixtures, "two_filters"), filepath.Join(root, "accuracy", "mytest", "gsm8k", "meta-llama__Llama-3.2-1B"))
	copyInto(t, filepath.Join(fixtures, "two_filters"), filepath.Join(root, "..__adapters__tiny-lora"))
	copyInto(t, "../testdata/inspect/capitals.json", filepath.Join(root, "logs", "2025-06-10", "capitals.json"))
	copyInto(t, "../testdata/inspect/capitals_zstd.eval", filepath.Join(root, "logs", "2025-06-11", "capitals.eval"))
	copyInto(t, "../testdata/run/valid", filepath.Join(root, "remote", "evals", "run1"))
	copyInto(t, "../testdata/evalscope/20250301_090000", filepath.Join(root, "evalscope", "outputs", "20250301_090000"))
	copyInto(t, "../testdata/opencompass/20250302_090000", filepath.Join(root, "oc", "eval_demo", "20250302_090000"))
	copyInto(t, "../testdata/jsonl/quiz_log.jsonl", filepath.Join(root, ".mine", "quiz_log.jsonl"))
	copyInto(t, "../testdata/identity/promptfoo_export.json", filepath.Join(root, "promptfoo_export.json"))
	writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(root, "node_modules", "pkg", "results.jsonl"), `{"a": 1}`+"\n")
	writeFile(t, filepath.Join(root, "notes.txt"), "what I ran\n")
	writeFile(t, filepath.Join(root, "config.json"), `{"seed": 1}`)

	open, each, found := walkAll(t, root, root)
	// In the folder's order, the lm-eval runs together once the walk is
	// past the last folder holding lm-eval files (accuracy/).
	want := []string{
		"jsonl .mine/quiz_log.jsonl",
		"lm-eval ..__adapters__tiny-lora/samples_gsm8k_2025-08-07T11-42-40.066002.jsonl",
		"lm-eval accuracy/mytest/gsm8k/meta-llama__Llama-3.2-1B/samples_gsm8k_2025-08-07T11-42-40.066002.jsonl",
		"evalscope evalscope/outputs/20250301_090000/predictions/Qwen2.5-0.5B-Instruct/gsm8k_main.jsonl",
		"inspect logs/2025-06-10/capitals.json",
		"inspect logs/2025-06-11/capitals.eval",
		"opencompass oc/eval_demo/20250302_090000/predictions/qwen2.5-1.5b-instruct-hf/gsm8k.json",
		"promptfoo promptfoo_export.json",
		"run remote/evals/run1",
	}
	for _, got := range [][]string{open, each} {
		if !slices.Equal(got, want) {
			t.Errorf("datasets:\n got %q\nwant %q", got, want)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d discoveries, want 1", len(found))
	}
	d := found[0]
	// Two lm-eval runs (a samples file and its results file each), two
	// logs, a run folder, an EvalScope output folder, an OpenCompass work
	// folder, a promptfoo export, a JSON Lines file.
	if d.Artifacts != 11 || d.Datasets != 9 {
		t.Errorf("artifacts %d, datasets %d; want 11, 9", d.Artifacts, d.Datasets)
	}
	var left []string
	for _, l := range d.LeftOut {
		r, _ := filepath.Rel(root, l.Path)
		left = append(left, filepath.ToSlash(r)+": "+l.Reason)
	}
	wantLeft := []string{".git: a tool's folder", "config.json: no format recognised", "node_modules: a tool's folder", "notes.txt: not a data file"}
	if !slices.Equal(left, wantLeft) {
		t.Errorf("left out:\n got %q\nwant %q", left, wantLeft)
	}
	if line := d.Line(); line != "11 artifacts opened (9 datasets); 2 files left out (1 no format recognised, 1 not a data file), 2 folders not read (2 a tool's folder): "+model.ListHint {
		t.Errorf("line %q", line)
	}
	for _, l := range d.LeftOut {
		if l.Reason == model.LeftNoFormat && l.Detail != "no format came close: its fields are seed" {
			t.Errorf("the detail of a JSON file of the user's own: %q", l.Detail)
		}
	}
}

// TestWalkStopsAtLoopsAndDepth: a link back up the tree and a tree deeper
// than folder.MaxDepth are not followed, each said; a link to a folder
// outside the tree is read, once.
func TestWalkStopsAtLoopsAndDepth(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	copyInto(t, "../testdata/jsonl/quiz_log.jsonl", filepath.Join(outside, "elsewhere.jsonl"))
	copyInto(t, "../testdata/jsonl/quiz_log.jsonl", filepath.Join(root, "top.jsonl"))
	deep := root
	for i := 0; i <= folder.MaxDepth; i++ {
		deep = filepath.Join(deep, "d")
	}
	copyInto(t, "../testdata/jsonl/quiz_log.jsonl", filepath.Join(deep, "bottom.jsonl"))
	for _, l := range []struct{ name, to string }{{"up", root}, {"parent", ".."}, {"away", outside}, {"away2", outside}, {"nowhere", filepath.Join(root, "missing")}} {
		if err := os.Symlink(l.to, filepath.Join(root, "sub", l.name)); err != nil {
			if os.MkdirAll(filepath.Join(root, "sub"), 0o755) != nil || os.Symlink(l.to, filepath.Join(root, "sub", l.name)) != nil {
				t.Skip("no symbolic links here:", err)
			}
		}
	}
	open, _, found := walkAll(t, root, root)
	want := []string{"jsonl sub/away/elsewhere.jsonl", "jsonl top.jsonl"}
	if !slices.Equal(open, want) {
		t.Errorf("datasets %q, want %q", open, want)
	}
	why := map[string]string{}
	for _, l := range found[0].LeftOut {
		r, _ := filepath.Rel(root, l.Path)
		why[filepath.ToSlash(r)] = l.Reason
	}
	for p, reason := range map[string]string{
		"sub/up": model.LeftLoop, "sub/parent": model.LeftLoop, "sub/away2": model.LeftLoop, "sub/nowhere": model.LeftBrokenLink,
		strings.Repeat("d/", folder.MaxDepth) + "d": model.LeftDeep,
	} {
		if why[p] != reason {
			t.Errorf("%s: left out for %q, want %q (all: %v)", p, why[p], reason, why)
		}
	}
}

// TestWalkEmptyFolderSaysWhatItHolds: a folder with nothing to open is an
// error that says what it held.
func TestWalkEmptyFolderSaysWhatItHolds(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "README.md"), "# runs\n")
	writeFile(t, filepath.Join(root, ".venv", "lib", "x.jsonl"), `{"a": 1}`+"\n")
	var found []model.Discovery
	_, err := Open([]string{root}, Options{Found: func(d model.Discovery) { found = append(found, d) }})
	if err == nil || !strings.Contains(err.Error(), "no evaluation artifacts found in this folder") ||
		!strings.Contains(err.Error(), "1 file left out (1 not a data file), 1 folder not read (1 a tool's folder)") {
		t.Errorf("error %v", err)
	}
	if len(found) != 1 || found[0].Artifacts != 0 {
		t.Errorf("found %+v", found)
	}
}

// TestWalkUnitNeedsItsOwnFiles: a folder laid out as a tool's run folder
// (results/ or reports/ beside logs/, as many projects keep theirs) is
// opened whole as OpenCompass's or EvalScope's only with a file of the
// tool's own in it; else it is walked, and the lm-eval runs in it are
// lm-eval's. They were opened as OpenCompass results without records,
// and as an EvalScope folder that failed, their samples never read.
func TestWalkUnitNeedsItsOwnFiles(t *testing.T) {
	root := t.TempDir()
	copyInto(t, filepath.Join(fixtures, "two_filters"), filepath.Join(root, "proj", "results", "my-model"))
	writeFile(t, filepath.Join(root, "proj", "logs", "run.log"), "ran\n")
	copyInto(t, filepath.Join(fixtures, "two_filters"), filepath.Join(root, "proj2", "lm"))
	writeFile(t, filepath.Join(root, "proj2", "reports", "weekly.json"), `{"week": 1}`)
	writeFile(t, filepath.Join(root, "proj2", "logs", "run.log"), "ran\n")
	copyInto(t, "../testdata/evalscope/20250301_090000", filepath.Join(root, "es"))
	copyInto(t, "../testdata/opencompass/20250302_090000", filepath.Join(root, "oc"))
	open, each, _ := walkAll(t, root, root)
	want := []string{
		"evalscope es/predictions/Qwen2.5-0.5B-Instruct/gsm8k_main.jsonl",
		"lm-eval proj/results/my-model/samples_gsm8k_2025-08-07T11-42-40.066002.jsonl",
		"lm-eval proj2/lm/samples_gsm8k_2025-08-07T11-42-40.066002.jsonl",
		"opencompass oc/predictions/qwen2.5-1.5b-instruct-hf/gsm8k.json",
	}
	for _, got := range [][]string{open, each} {
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("datasets:\n got %q\nwant %q", got, want)
		}
	}
}

// TestWalkPairsRenamedFiles: lm-eval files renamed by hand, without the
// timestamps that pair them, pair by their content (the results file's
// task_hashes); where two results files claim the same samples, none is
// paired, and the dataset says why.
func TestWalkPairsRenamedFiles(t *testing.T) {
	root := t.TempDir()
	copyInto(t, "../testdata/folders/renamed", root)
	dss, err := Open([]string{root}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var samples *model.Dataset
	for _, ds := range dss {
		if filepath.Base(ds.Path) == "gsm8k_phi3.jsonl" {
			samples = ds
		}
	}
	if samples == nil || samples.Task != "gsm8k" || len(samples.Metrics) == 0 || !slices.Contains(samples.Companions, filepath.Join(root, "phi3_mini.json")) {
		t.Fatalf("the renamed samples file is not paired with its results: %+v", samples)
	}
	copyInto(t, filepath.Join(root, "phi3_mini.json"), filepath.Join(root, "phi3_again.json"))
	for _, stream := range []bool{false, true} {
		err := walk([]string{root}, Options{}, stream, func(ds *model.Dataset) error {
			if filepath.Base(ds.Path) != "gsm8k_phi3.jsonl" {
				return nil
			}
			if len(ds.Metrics) > 0 {
				t.Errorf("stream %v: paired though two results files claim it", stream)
			}
			n := 0
			for _, is := range ds.Issues {
				if is.Code == "ambiguous-results" && strings.Contains(is.Message, "phi3_again.json, phi3_mini.json") {
					n++
				}
			}
			if n != 1 {
				t.Errorf("stream %v: %d ambiguous-results warnings: %v", stream, n, ds.Issues)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestIdentity: a format claims a file only on the evidence of its own
// structure; what none claims opens as plain records with a note that
// names what it is closest to.
func TestIdentity(t *testing.T) {
	for _, c := range []struct {
		path string
		kind model.Kind
		note string // in the no-format note; "" for none
	}{
		{"../testdata/identity/promptfoo_export.json", model.KindPromptfoo, ""},
		{"../testdata/identity/evalscope/predictions/qwen2.5-0.5b/gsm8k_main.jsonl", model.KindEvalScope, ""},
		{"../testdata/identity/evalscope/reviews/qwen2.5-0.5b/gsm8k_main.jsonl", model.KindEvalScope, ""},
		{"../testdata/identity/inspect_header_only.json", model.KindInspect, ""},
		{"../testdata/identity/inspect_sorted_keys.json", model.KindInspect, ""},
		{"../testdata/identity/vitals_percent.json", model.KindInspect, ""},
	} {
		dss, err := Open([]string{c.path}, Options{})
		if err != nil || len(dss) == 0 {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		ds := dss[0]
		note := ""
		for _, is := range ds.Issues {
			if is.Code == "no-format" {
				note = is.Message
			}
		}
		if ds.Kind != c.kind || c.note == "" && note != "" || c.note != "" && !strings.Contains(note, c.note) {
			t.Errorf("%s: %s, note %q; want %s with %q", c.path, ds.Kind, note, c.kind, c.note)
		}
	}
	// A promptfoo export is no lm-eval results file, whose success and
	// failure counts it showed as metrics: promptfoo's format reads it.
	dss, _ := Open([]string{"../testdata/identity/promptfoo_export.json"}, Options{})
	if len(dss) != 1 || dss[0].Kind != model.KindPromptfoo {
		t.Fatalf("promptfoo export: %d datasets", len(dss))
	}
}

// TestNearest: what a file no format claims is said to be closest to.
func TestNearest(t *testing.T) {
	for _, c := range []struct{ head, want string }{
		{`{"results": {"version": 3, "results": []}, "config": {}}`, "closest: lm-eval (results), but its \"results\" is not tasks' metrics"},
		{`{"version": 2, "status": "success", "eval": {"created": "x"}}`, "closest: inspect (a log's header), but it lacks eval.task and eval.model"},
		{`{"messages": [{"role": "user", "content": "hi"}]}`, "closest: sample, but its records have messages without"},
		{`{"doc_id": 0, "doc": {}}`, "closest: lm-eval (samples)"},
		{`[{"q": 1, "a": 2}]`, "no format came close: its fields are q, a"},
		{`{"a": 1,, }`, "not valid JSON"},
		{`hello`, "not JSON"},
	} {
		if got := nearest("x.json", []byte(c.head)); !strings.HasPrefix(got, c.want) {
			t.Errorf("nearest(%s) = %q, want %q...", c.head, got, c.want)
		}
	}
}
