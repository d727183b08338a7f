package lighteval

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestProviderPrefixedRuns: lighteval keeps a model name's slashes as
// folders (EvaluationTracker: results/{model_name}/results_{date}.json,
// details/{model_name}/{date}/details_{task}_{date}.parquet), so an
// OpenRouter model is three folders in both. A results file opened alone
// finds its run's details there; a folder shows a run whose results have
// no details with its reported metrics and a warning that its rows are
// absent (issue 29: it was dropped without a word).
func TestProviderPrefixedRuns(t *testing.T) {
	real := realFixtures(t)
	root := t.TempDir()
	const run1, run2 = "2025-07-05T09-59-00.123456", "2025-07-06T10-00-00.000000"
	model := filepath.Join("openrouter", "openai", "gpt-5")
	results, err := os.ReadFile(filepath.Join(real, "output", "results", "acme", "tiny-1b", "results_"+run1+".json"))
	if err != nil {
		t.Fatal(err)
	}
	results = []byte(strings.ReplaceAll(string(results), "acme/tiny-1b", "openrouter/openai/gpt-5"))
	put := func(p string, b []byte) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(filepath.Join(root, "results", model, "results_"+run1+".json"), results)
	put(filepath.Join(root, "results", model, "results_"+run2+".json"), []byte(strings.ReplaceAll(string(results), run1, run2)))
	details := filepath.Join(real, "output", "details", "acme", "tiny-1b", run1)
	ents, err := os.ReadDir(details)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(details, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		put(filepath.Join(root, "details", model, run1, e.Name()), b)
	}

	titles := func(path string) []string {
		t.Helper()
		dss, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, ds := range dss {
			s := ds.Title
			if len(ds.Metrics) == 0 {
				s += " (no metrics)"
			}
			for _, is := range ds.Issues {
				if is.Code == "no-details" || is.Code == "no-results" || is.Code == "task-not-in-results" {
					s += " [" + is.Code + "]"
				}
			}
			out = append(out, s)
		}
		return out
	}
	alone := titles(filepath.Join(root, "results", model, "results_"+run1+".json"))
	if want := []string{"arc:challenge|0 2025-07-05T09-59", "gsm8k|5 2025-07-05T09-59"}; !slices.Equal(alone, want) {
		t.Errorf("results file alone: %q, want %q", alone, want)
	}
	whole := titles(root)
	want := []string{"arc:challenge|0 2025-07-05T09-59", "gsm8k|5 2025-07-05T09-59",
		"arc:challenge|0 (results only) [no-details]", "gsm8k|5 (results only) [no-details]"}
	if !slices.Equal(whole, want) {
		t.Errorf("output folder: %q, want %q", whole, want)
	}
}
