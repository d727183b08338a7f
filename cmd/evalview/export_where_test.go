package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/notes"
)

const twoFilters = fixtures + "/two_filters/samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"

// exportedIDs runs export and returns the exported ids, in order.
func exportedIDs(t *testing.T, args ...string) []string {
	t.Helper()
	out, errOut, code := runCmd(t, append([]string{"export"}, args...)...)
	if code != 0 {
		t.Fatalf("export %v: exit %d: %s", args, code, errOut)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var row struct{ ID string }
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatalf("bad JSONL %q: %v", line, err)
		}
		ids = append(ids, row.ID)
	}
	return ids
}

func TestExportWhere(t *testing.T) {
	tests := []struct {
		where, path, want string
	}{
		{"status=fail", twoFilters, "1 2"},
		{"status=pass", twoFilters, "0 3"},
		{"filter=flexible-extract status=fail", twoFilters, "2"},
		{"answer=[invalid]", twoFilters, "1"},
		{"-answer=[invalid] status=fail", twoFilters, "2"},
		{"id>=2", twoFilters, "2 3"},
		{"task_type=dialogue", "../../testdata/sample/spec_en.jsonl", "dlg_0001"},
		{"task_type~^(dialogue|doc-qa)$", "../../testdata/sample/spec_en.jsonl", "dlg_0001 doc_0001"},
		{"status=pass id~nothing", twoFilters, ""},
	}
	for _, tc := range tests {
		t.Run(tc.where, func(t *testing.T) {
			got := strings.Join(exportedIDs(t, "--where", tc.where, tc.path), " ")
			if got != tc.want {
				t.Errorf("--where %q exported %q, want %q", tc.where, got, tc.want)
			}
		})
	}
}

func TestExportWhereBadQuery(t *testing.T) {
	tests := []struct{ where, want string }{
		{"status=pass score<", "column 13"},
		{"category=math", `unknown field "category"`},
		{"filter=nope", `unknown filter "nope"`},
		{`title="open`, "column 1"},
	}
	for _, tc := range tests {
		out, errOut, code := runCmd(t, "export", "--where", tc.where, twoFilters)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "--where") {
			t.Errorf("--where %q: exit %d, stdout %q, stderr %q (want exit 2 and %q)", tc.where, code, out, errOut, tc.want)
		}
	}
}

func TestExportNotes(t *testing.T) {
	dir := t.TempDir()
	art := filepath.Join(dir, "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl")
	b, err := os.ReadFile(twoFilters)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(art, b, 0o644)
	s, _ := notes.Open(art, "")
	if _, err := s.Set(filepath.Base(art), "1", []string{"extraction bug"}, "the answer is there, in words"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(dir) // the artifact, its notes and their lock
	if got := strings.Join(exportedIDs(t, "--where", `label:"extraction bug"`, art), " "); got != "1" {
		t.Errorf("label query exported %q, want 1", got)
	}
	out, _, _ := runCmd(t, "export", "--where", "id=1", art)
	var row struct {
		NoteLabels []string `json:"note_labels"`
		Note       string   `json:"note"`
	}
	json.Unmarshal([]byte(out), &row)
	if len(row.NoteLabels) != 1 || row.NoteLabels[0] != "extraction bug" || row.Note != "the answer is there, in words" {
		t.Errorf("JSONL notes: %s", out)
	}
	out, _, _ = runCmd(t, "export", "--format", "csv", art)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0]
	if head[len(head)-2] != "note_labels" || head[len(head)-1] != "note" || recs[2][len(head)-2] != "extraction bug" || recs[1][len(head)-1] != "" {
		t.Errorf("CSV notes columns: %v / %v", head, recs[2])
	}
	// Exporting reads the notes; it never writes next to the artifact.
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(before) {
		t.Errorf("files in the artifact's folder: %v", entries)
	}
}
