package sample

import (
	"testing"

	"evalview/model"
)

// An agent prediction logged as a trajectory plus its final message keeps
// the whole thread on the attempt, the final answer as its text, and the
// judge's verdict beside it.
func TestAgentPredictionThread(t *testing.T) {
	recs := records(t, openOne(t, "agent.jsonl"))
	if len(recs) != 1 {
		t.Fatalf("%d records, want 1", len(recs))
	}
	r := recs[0]
	if len(r.Issues) != 0 {
		t.Errorf("issues: %v", r.Issues)
	}
	if r.Status != model.StatusPass || !r.HasScore || r.Score != 1 {
		t.Errorf("status %v score %v/%v, want pass 1", r.Status, r.Score, r.HasScore)
	}
	if len(r.Attempts) != 1 {
		t.Fatalf("%d attempts, want 1", len(r.Attempts))
	}
	a := r.Attempts[0]
	if a.Text != "Booked **UA 512** SFO→JFK on 2025-12-01 for $189 (PNR `Q7X2LM`)." {
		t.Errorf("attempt text %q", a.Text)
	}
	var roles []model.Role
	for _, m := range a.Messages {
		roles = append(roles, m.Role)
	}
	same(t, "thread roles", roles, []model.Role{model.RoleAssistant, model.RoleTool, model.RoleAssistant, model.RoleTool, model.RoleAssistant})
	same(t, "second call", a.Messages[2].Segments, []model.Segment{{Type: call, ToolName: "book_flight", ToolCallID: "c2", Arguments: "{\n  \"flight_id\": \"UA512\"\n}"}})
	if a.Judge != "correct: Booked the cheapest flight, as the reference does." || a.DurationMS != 4210 || a.Raw == "" {
		t.Errorf("judge %q, latency %v, raw %q", a.Judge, a.DurationMS, a.Raw)
	}
	same(t, "labels", r.Labels.Map(), map[string]string{"task_type": "agent", "data_tag.domain": "travel", "data_tag.difficulty": "medium"})
}

// A trajectory without a final message answers with its last assistant
// turn; a final message equal to the trajectory's last turn is not repeated.
func TestPredictionThreadOnly(t *testing.T) {
	line := `{"schema_version":"v1","id":"a","messages":[{"role":"user","content":"q"}],"references":["x"],` +
		`"predict_result":[{"messages":[{"role":"assistant","content":"thinking"},{"role":"assistant","content":"done"}]},` +
		`{"messages":[{"role":"assistant","content":"x"}],"message":{"role":"assistant","content":"x"}}]}`
	rec, is := parseLine("f.jsonl", "/tmp", 1, []byte(line), false)
	if is != nil {
		t.Fatal(is)
	}
	if got := rec.Attempts[0].Text; got != "done" {
		t.Errorf("attempt 0 text %q, want done", got)
	}
	if n := len(rec.Attempts[1].Messages); n != 1 {
		t.Errorf("attempt 1 thread has %d turns, want 1 (final message not repeated)", n)
	}
}
