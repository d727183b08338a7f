package main

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

const plainLog = "../../testdata/jsonl/quiz_log.jsonl"

// JSON Lines no format claims are plain records: every field exported as
// written (JSONL and CSV) and queryable by its short values (the plain
// package tests the search); check notes that no format recognised the
// file.
func TestPlainRecordsCommands(t *testing.T) {
	out, _, code := runCmd(t, "export", plainLog)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d rows:\n%s", len(lines), out)
	}
	var row struct {
		Kind   string         `json:"kind"`
		ID     string         `json:"id"`
		Fields map[string]any `json:"fields"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &row); err != nil {
		t.Fatal(err)
	}
	if row.Kind != "jsonl" || row.ID != "q2" || row.Fields["model_output"] != "Spiders have six legs.\nInsects have six; spiders have eight." ||
		row.Fields["tokens"] != 14.0 || row.Fields["meta"].(map[string]any)["source"] != "bio-quiz" || len(row.Fields) != 8 {
		t.Errorf("row = %+v", row)
	}
	// Fields keep the file's order.
	if i, j := strings.Index(lines[1], `"lang":"en","question"`), strings.Index(lines[1], `"meta":{"source"`); i < 0 || j < i {
		t.Errorf("fields out of order: %s", lines[1])
	}
	out, _, _ = runCmd(t, "export", "--format", "csv", plainLog)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 4 {
		t.Fatalf("csv: %v\n%s", err, out)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	if recs[3][col["field:tags"]] != `["geography","capitals"]` || recs[1][col["field:answer"]] != "Canberra" || recs[1][col["field:tags"]] != "" {
		t.Errorf("csv fields: %v", recs)
	}
	for _, c := range []struct{ where, ids string }{
		{"lang=fr", "q3"},
		{"correct=false", "q2"},
		{"tokens>10", "q2 q3"},
		{"labels.answer~^Ott", "q3"}, // answer is a built-in field: the label is reached so
		{"-lang=en", "q3"},
	} {
		out, errOut, code := runCmd(t, "export", "--where", c.where, plainLog)
		var ids []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var r struct{ ID string }
			if l != "" && json.Unmarshal([]byte(l), &r) == nil {
				ids = append(ids, r.ID)
			}
		}
		if code != 0 || strings.Join(ids, " ") != c.ids {
			t.Errorf("--where %q: exit %d, ids %v, want %s; %s", c.where, code, ids, c.ids, errOut)
		}
	}
	out, _, code = runCmd(t, "check", plainLog)
	if code != 0 || !strings.Contains(out, "note: no format recognised this file") || !strings.HasSuffix(out, "0 errors, 0 warnings, 1 note in 1 dataset (3 records)\n") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	out, _, _ = runCmd(t, "check", "--as", "jsonl", plainLog)
	if out != "0 errors, 0 warnings in 1 dataset (3 records)\n" {
		t.Errorf("check --as jsonl:\n%s", out)
	}
}

// export --where reaches every field of plain records, a multi-line text
// too, and writes no empty label for a field held in the record alone.
func TestExportWherePlainLongField(t *testing.T) {
	out, errOut, code := runCmd(t, "export", "--where", "model_output~six", "../../testdata/jsonl/quiz_log.jsonl")
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(out, `"id":"q2"`) {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if strings.Contains(out, `"model_output":""`) || strings.Contains(out, `"meta":""`) {
		t.Errorf("an empty label for a field held in the record: %s", out)
	}
}
