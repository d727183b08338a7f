package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/notes"
	"evalview/model"
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

// JSONL writes <, > and & as they are, and only the escapes
// encoding/json made of them: a string holding the six characters
// \u003c stays that text.
func TestExportJSONLPlainHTML(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":"x \u003c y \u0026\u0026 z \u003e w"}`: `{"a":"x < y && z > w"}`,
		`{"a":"\\u003c is how JSON spells <"}`:       `{"a":"\\u003c is how JSON spells <"}`,
		`{"a":"\\\u003c"}`:                           `{"a":"\\<"}`,
		`{"a\u0026b":1}`:                             `{"a&b":1}`,
		`{"a":"\u00e9"}`:                             `{"a":"\u00e9"}`,
	} {
		if got := string(plainHTML([]byte(in))); got != want {
			t.Errorf("plainHTML(%s) = %s, want %s", in, got, want)
		}
	}
	var b bytes.Buffer
	line := exportLine{ExportRow: model.ExportRow{ID: "1", Title: "is 3 < 4 && 5 > 4?", Responses: []string{"<b>yes</b>"}}}
	if err := writeJSONL(&b, line); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, `"title":"is 3 < 4 && 5 > 4?"`) || !strings.Contains(s, `"responses":["<b>yes</b>"]`) {
		t.Errorf("export escapes for HTML: %s", s)
	}
}

// Every exported record carries what was asked, what the model
// answered, the target, its status and the user's labels under a name
// that cannot be taken for the record's own (user_labels; note_labels
// stays for scripts that read it), in JSONL and in CSV alike.
func TestExportIsTheRecord(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "demo", "lm_eval", "acme__lm-1b")
	dir := t.TempDir()
	for _, n := range []string{"results_2025-11-01T10-05-12.301144.json", "samples_gsm8k_2025-11-01T10-05-12.301144.jsonl", "samples_arc_easy_2025-11-01T10-05-12.301144.jsonl"} {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	art := filepath.Join(dir, "samples_gsm8k_2025-11-01T10-05-12.301144.jsonl")
	s, _ := notes.Open(art, "")
	if _, err := s.Set(filepath.Base(art), "1", []string{"no ####"}, "right number, wrong format"); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCmd(t, "export", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	type row struct {
		Task, ID, Status, Target, Prompt string
		Messages                         []struct{ Role, Content string }
		Responses                        []string
		Options                          []struct {
			Text            string
			Correct, Picked bool
		}
		UserLabels   []string          `json:"user_labels"`
		UserNote     string            `json:"user_note"`
		NoteLabels   []string          `json:"note_labels"`
		RecordLabels map[string]string `json:"record_labels"`
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r row
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Prompt == "" && len(r.Messages) == 0 || len(r.Responses) == 0 || r.Target == "" || r.Status == "" {
			t.Errorf("%s/%s lacks its prompt, response, target or status: %s", r.Task, r.ID, l)
		}
		switch {
		case r.Task == "gsm8k" && r.ID == "1":
			seen["labelled"] = true
			if len(r.UserLabels) != 1 || r.UserLabels[0] != "no ####" || r.UserNote != "right number, wrong format" || len(r.NoteLabels) != 1 {
				t.Errorf("gsm8k/1's labels: %s", l)
			}
		case r.Task == "arc_easy" && r.ID == "0":
			seen["choice"] = true
			picked := 0
			for _, o := range r.Options {
				if o.Picked {
					picked++
					if len(r.Responses) != 1 || r.Responses[0] != o.Text {
						t.Errorf("a multiple-choice response is the option picked: %s", l)
					}
				}
			}
			if len(r.Options) != 4 || picked != 1 || r.RecordLabels["target"] != "2" {
				t.Errorf("arc_easy/0: %s", l)
			}
		}
	}
	if !seen["labelled"] || !seen["choice"] {
		t.Errorf("records not exported: %v", seen)
	}
	out, _, _ = runCmd(t, "export", "--format", "csv", dir)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(recs[0], ",")
	for _, col := range []string{",prompt,", ",response1,", ",user_labels,user_note,note_labels,note"} {
		if !strings.Contains(head+",", col) {
			t.Errorf("CSV header lacks %q: %s", col, head)
		}
	}
}
