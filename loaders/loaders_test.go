package loaders

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/internal/testos"
	"evalview/model"
)

const fixtures = "../testdata/lmeval"

func TestDetectLMEval(t *testing.T) {
	cases := []struct {
		path  string
		isDir bool
	}{
		{filepath.Join(fixtures, "two_filters"), true},
		{filepath.Join(fixtures, "two_filters", "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"), false},
		{filepath.Join(fixtures, "two_filters", "results_2025-08-07T11-42-40.066002.json"), false},
		{filepath.Join(fixtures, "renamed", "my_gsm8k_run.jsonl"), false},
		{filepath.Join(fixtures, "old_array", "results.json"), false},
		{filepath.Join(fixtures, "lfs", "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"), false},
		{fixtures, true}, // an output folder of model folders
	}
	for _, c := range cases {
		k, isDir, err := Detect(c.path, "")
		if err != nil || k != model.KindLMEval || isDir != c.isDir {
			t.Errorf("Detect(%s) = %s, %v, %v", c.path, k, isDir, err)
		}
	}
}

func TestDetectRefusesWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(text, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	blank := filepath.Join(dir, "blank.jsonl")
	if err := os.WriteFile(blank, []byte("\n  \n\t\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe")
	if err := testos.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	emptyDir := filepath.Join(dir, "nothing")
	if err := os.Mkdir(emptyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{filepath.Join(dir, "missing.jsonl"), "no such file"},
		{empty, "file is empty"},
		// Blank lines were "format not recognised: not JSON Lines either".
		{blank, "file is empty: blank lines only"},
		{text, "format not recognised"},
		{fifo, "not a regular file"},
		{emptyDir, "no evaluation artifacts"},
	}
	for _, c := range cases {
		_, _, err := Detect(c.path, "")
		var oe *OpenError
		if !errors.As(err, &oe) || oe.Path != c.path || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Detect(%s) = %v, want an OpenError containing %q", c.path, err, c.want)
		}
	}
}

func TestOpenJoinsFilesNamedOneByOne(t *testing.T) {
	dir := filepath.Join(fixtures, "two_filters")
	ds, err := Open([]string{
		filepath.Join(dir, "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"),
		filepath.Join(dir, "results_2025-08-07T11-42-40.066002.json"),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || len(ds[0].Metrics) != 2 || ds[0].Fact("model") != "acme/tiny-math-1b" {
		t.Fatalf("datasets = %d; metrics %v", len(ds), ds[0].Metrics)
	}
}

func TestOpenKeepsGoodPathsWhenOneFails(t *testing.T) {
	ds, err := Open([]string{filepath.Join(fixtures, "two_filters"), "/no/such/path"}, Options{})
	var oe *OpenError
	if !errors.As(err, &oe) || oe.Path != "/no/such/path" {
		t.Errorf("err = %v", err)
	}
	if len(ds) != 1 {
		t.Errorf("%d datasets, want the good one", len(ds))
	}
}

func TestParseKind(t *testing.T) {
	for _, k := range []string{"lm-eval", "run", "sample", "testset", "jsonl"} {
		if got, err := ParseKind(k); err != nil || string(got) != k {
			t.Errorf("ParseKind(%s) = %s, %v", k, got, err)
		}
	}
	if _, err := ParseKind("csv"); err == nil || !strings.Contains(err.Error(), "lm-eval, run, sample, testset") {
		t.Errorf("ParseKind(csv) = %v", err)
	}
}

func TestOpenMixedFolderOpensEveryFormat(t *testing.T) {
	// testdata holds one folder per format side by side.
	ds, _ := Open([]string{"../testdata"}, Options{})
	kinds := map[model.Kind]int{}
	for _, d := range ds {
		kinds[d.Kind]++
	}
	for _, k := range Kinds() {
		if kinds[k] == 0 {
			t.Errorf("no %s dataset opened from a mixed folder (got %v)", k, kinds)
		}
	}
	// A folder that one format claims whole is not split up.
	ds, err := Open([]string{filepath.Join(fixtures, "two_filters")}, Options{})
	if err != nil || len(ds) != 1 {
		t.Errorf("two_filters: %d datasets, %v", len(ds), err)
	}
}

// No JSONL file is refused: Prompt Lab testsets are recognised by their
// content (an expected_* key) or their testsets/ folder, and JSON Lines no
// format claims open as plain records, with a warning naming --as; given
// --as jsonl, without it. Before, each was "format not recognised".
func TestNoJSONLRefused(t *testing.T) {
	lab := "../testdata/testset/prompt_lab"
	cases := []struct {
		path string
		want model.Kind
	}{
		{filepath.Join(lab, "agents", "usr_profile", "testsets", "case.jsonl"), model.KindTestset},
		{filepath.Join(lab, "agents", "usr_profile", "testsets"), model.KindTestset},
		{filepath.Join(lab, "pipelines", "document_summary", "testsets", "documents.jsonl"), model.KindTestset},
		{"../testdata/jsonl/quiz_log.jsonl", model.KindJSONL},
		{"../testdata/jsonl/broken.jsonl", model.KindJSONL},
		{"../testdata/jsonl", model.KindJSONL},
	}
	for _, c := range cases {
		k, _, err := Detect(c.path, "")
		if err != nil || k != c.want {
			t.Errorf("Detect(%s) = %q, %v; want %s", c.path, k, err, c.want)
			continue
		}
		dss, err := Open([]string{c.path}, Options{})
		if err != nil || len(dss) == 0 || dss[0].Records.Len() == 0 {
			t.Errorf("Open(%s) = %d datasets, %v", c.path, len(dss), err)
			continue
		}
		notes := 0
		for _, is := range dss[0].Issues {
			if is.Code == "no-format" {
				notes++
				if !strings.Contains(is.Message, "--as lm-eval|run|sample|testset|inspect|lighteval") || is.Severity != model.SeverityNote {
					t.Errorf("note = %v", is)
				}
			}
		}
		if want := map[bool]int{true: 1, false: 0}[c.want == model.KindJSONL]; notes != want {
			t.Errorf("%s: %d no-format notes, want %d", c.path, notes, want)
		}
	}
	dss, err := Open([]string{"../testdata/jsonl/quiz_log.jsonl"}, Options{As: model.KindJSONL})
	if err != nil || len(dss) != 1 || len(dss[0].Issues) != 0 {
		t.Errorf("--as jsonl: %v, %v", dss, err)
	}
}

// A Prompt Lab project keeps its testsets in agents/NAME/testsets/ and
// pipelines/NAME/testsets/ (data/pipelines/... in the real repository):
// the project's folder, or its agents/ folder, opens every testset in
// them. Both were "no evaluation artifacts found in this folder".
func TestOpenPromptLabProject(t *testing.T) {
	lab := "../testdata/testset/prompt_lab"
	caseFile := filepath.Join(lab, "agents", "usr_profile", "testsets", "case.jsonl")
	docs := filepath.Join(lab, "pipelines", "document_summary", "testsets", "documents.jsonl")
	for _, c := range []struct {
		path string
		want []string
	}{
		{lab, []string{caseFile, docs}},
		{filepath.Join(lab, "agents"), []string{caseFile}},
		{filepath.Join(lab, "pipelines"), []string{docs}},
	} {
		var got []string
		err := Each([]string{c.path}, Options{}, func(ds *model.Dataset) error {
			if ds.Kind != model.KindTestset || ds.Records.Len() == 0 {
				t.Errorf("%s: %s dataset of %d records", ds.Path, ds.Kind, ds.Records.Len())
			}
			got = append(got, ds.Path)
			return nil
		})
		if err != nil || strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("Each(%s) = %q, %v; want %q", c.path, got, err, c.want)
		}
	}
	// Deeper than a testsets/ folder's own subfolders, only files in
	// one count: a JSON Lines file two folders down elsewhere is not a
	// testset.
	dir := t.TempDir()
	other := filepath.Join(dir, "a", "b", "c")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "x.jsonl"), []byte(`{"member_id": 1, "user_input": "hi"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if k, _, err := Detect(dir, ""); err == nil {
		t.Errorf("a folder with JSON Lines three folders down, in no testsets/ folder: detected as %s", k)
	}
}

// A notes sidecar (<artifact>.evalview-notes.jsonl, which the browser
// writes beside the artifact) is evalview's own file: a folder holding
// one opened it as a plain JSON Lines dataset beside the artifact.
func TestFolderSkipsNotesSidecar(t *testing.T) {
	for _, c := range []struct{ name, body string }{
		{"cases.jsonl", `{"id": "a", "inputs": {"text": "x"}, "expected_outputs": {"y": "z"}}`},
		{"log.jsonl", `{"q": "2+2", "a": "4"}`},
	} {
		dir := t.TempDir()
		note := `{"artifact": "` + c.name + `", "id": "a", "labels": ["wrong"], "updated": "2026-01-01T00:00:00Z"}`
		for name, body := range map[string]string{c.name: c.body, c.name + ".evalview-notes.jsonl": note} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dss, err := Open([]string{dir}, Options{})
		if err != nil || len(dss) != 1 || filepath.Base(dss[0].Path) != c.name {
			var got []string
			for _, d := range dss {
				got = append(got, filepath.Base(d.Path)+" ("+string(d.Kind)+")")
			}
			t.Errorf("%s: opened %q, %v; want %s alone", c.name, got, err, c.name)
		}
	}
}

// A folder that holds an lm-eval run may hold other artifacts beside
// it: a run folder, a JSON Lines file, testsets in subfolders. They were
// dropped without a word; they open beside it, in the folder's order,
// the lm-eval files together once the walk is past the last entry named
// as the harness names its files (here samples_*, the last), or at the
// end when only their content tells (lm_eval_like.jsonl). A .json file
// that is no artifact stays out.
func TestLMEvalFolderOpensWhatIsBeside(t *testing.T) {
	dir := t.TempDir()
	copyInto(t, filepath.Join(fixtures, "two_filters"), dir)
	copyInto(t, "../testdata/run/valid", filepath.Join(dir, "run1"))
	copyInto(t, "../testdata/jsonl", filepath.Join(dir, "logs"))
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"seed": 1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "extra.jsonl"), []byte(`{"q": "2+2", "a": "4"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want []string
	}{
		{dir, []string{"jsonl extra.jsonl", "jsonl broken.jsonl", "jsonl quiz_log.jsonl", "run run1", "lm-eval samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"}},
		{"../testdata/testset/tree", []string{"testset read_too.jsonl", "testset pipeline_multi_step.jsonl", "testset sentiment_basic.jsonl", "lm-eval lm_eval_like.jsonl"}},
	} {
		for _, stream := range []bool{false, true} {
			var got []string
			err := walk([]string{c.path}, Options{}, stream, func(ds *model.Dataset) error {
				got = append(got, string(ds.Kind)+" "+filepath.Base(ds.Path))
				return nil
			})
			if err != nil || strings.Join(got, ", ") != strings.Join(c.want, ", ") {
				t.Errorf("%s (stream %v): %q, %v; want %q", c.path, stream, got, err, c.want)
			}
		}
	}
}
