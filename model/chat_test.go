package model

import "testing"

func TestChatMessagesJSON(t *testing.T) {
	msgs, ok := ChatMessagesJSON(`[{"role": "system", "content": "Be brief.\nVery."}, {"role": "user", "content": [{"type": "text", "text": "Hi"}, {"type": "image_url", "image_url": {"url": "x"}}]}]`)
	if !ok || len(msgs) != 2 {
		t.Fatalf("ok %v, %d messages", ok, len(msgs))
	}
	if msgs[0].Role != RoleSystem || msgs[0].Text() != "Be brief.\nVery." {
		t.Errorf("system message: %+v", msgs[0])
	}
	if msgs[1].Role != RoleUser || msgs[1].Text() != "Hi\n[image_url]" {
		t.Errorf("user message: %q", msgs[1].Text())
	}
	for _, s := range []string{"", "plain text", "[1, 2]", `[{"content": "no role"}]`, `[{"role": "user", "content": 3}]`, `[]`, `["a"]`} {
		if _, ok := ChatMessagesJSON(s); ok {
			t.Errorf("%q read as messages", s)
		}
	}
}

func TestChatMessagesValue(t *testing.T) {
	v := []any{map[string]any{"role": "user", "content": "Q"}, map[string]any{"role": "assistant", "content": "A"}}
	msgs, ok := ChatMessagesValue(v)
	if !ok || len(msgs) != 2 || msgs[1].Role != RoleAssistant || msgs[1].Text() != "A" {
		t.Fatalf("ok %v, %+v", ok, msgs)
	}
	if _, ok := ChatMessagesValue(`[{"role": "user", "content": "Q"}]`); !ok {
		t.Error("a string holding the JSON list is not read")
	}
}

func TestMarkFewShot(t *testing.T) {
	// One user turn: examples joined by blank lines before the question.
	p := "Question: 1+1?\nAnswer: 2\n\nQuestion: 2+2?\nAnswer: 4\n\nQuestion: 3+3?\nAnswer:"
	msgs := MarkFewShot([]Message{TextMessage(RoleUser, p, "prompt")}, "Question: 3+3?\nAnswer:")
	if len(msgs) != 3 || !msgs[0].FewShot || !msgs[1].FewShot || msgs[2].FewShot || msgs[2].Text() != "Question: 3+3?\nAnswer:" {
		t.Fatalf("%+v", msgs)
	}
	// Turns: every one before the last user turn, after the system turn.
	turns := []Message{TextMessage(RoleSystem, "s", ""), TextMessage(RoleUser, "q1", ""), TextMessage(RoleAssistant, "a1", ""), TextMessage(RoleUser, "q", "")}
	got := MarkFewShot(turns, "q")
	if got[0].FewShot || !got[1].FewShot || !got[2].FewShot || got[3].FewShot || got[2].Label != "example 1 answer" {
		t.Fatalf("%+v", got)
	}
	// No cue: left whole.
	if got := MarkFewShot([]Message{TextMessage(RoleUser, "Describe.\n\nWhat?", "")}, "What?"); len(got) != 1 || HasFewShot(got) {
		t.Fatalf("%+v", got)
	}
}

func TestShots(t *testing.T) {
	ds := &Dataset{Facts: []Fact{{Key: "n-shot", Value: "5"}}}
	if got := Shots(ds); got != 5 {
		t.Errorf("n-shot fact: %d", got)
	}
	ds = &Dataset{Origin: Origin{TaskConfig: []Fact{{Key: "num_fewshot", Value: "4"}}}}
	if got := Shots(ds); got != 4 {
		t.Errorf("task config: %d", got)
	}
	if got := Shots(&Dataset{Facts: []Fact{{Key: "n-shot", Value: "0"}}}); got != 0 {
		t.Errorf("0-shot: %d", got)
	}
}
