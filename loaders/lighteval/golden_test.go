package lighteval

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/internal/dump"
)

func TestGolden(t *testing.T) {
	root := realFixtures(t)
	for _, dir := range []string{"output", "flat", "flat_str", "chat"} {
		t.Run(dir, func(t *testing.T) {
			dss, err := Open(filepath.Join(root, dir))
			if err != nil {
				t.Fatal(err)
			}
			dump.Check(t, *update, "list_and_detail", strings.ReplaceAll(dump.Datasets(t, dss), root, "testdata/lighteval"))
		})
	}
}

func TestParsePy(t *testing.T) {
	v, err := parsePy(`{'acc': 1.0, 'pred': [(-0.5, True), "it's"], 'n': None, 'x': nan}`)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["acc"] != 1.0 || m["n"] != nil || textOf(m["x"]) != "nan" || textOf(m["pred"]) != `[[-0.5,true],"it's"]` {
		t.Errorf("parsePy gave %#v", m)
	}
	for _, bad := range []string{"[1, 2", "{'a' 1}", "<object at 0x1>", strings.Repeat("[", 500)} {
		if _, err := parsePy(bad); err == nil {
			t.Errorf("parsePy(%q) should fail", bad)
		}
	}
}

// A chat prompt logged as JSON text shows as its messages; the examples
// before the question, as turns or in one text, are marked few-shot; the
// titles skip the instruction line every query opens with, and export
// keeps the query whole.
func TestChatPromptsAndTitles(t *testing.T) {
	dss, err := Open(filepath.Join(realFixtures(t), "chat"))
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	ds := dss[0]
	if got := ds.Records.Summary(0).Title; got != "Which planet is largest?" {
		t.Errorf("title 0 = %q", got)
	}
	rec, err := ds.Records.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range rec.Messages {
		roles = append(roles, fmt.Sprintf("%s few=%v", m.Role, m.FewShot))
	}
	if want := "system few=false|user few=true|assistant few=true|user few=false"; strings.Join(roles, "|") != want {
		t.Errorf("messages %q, want %q", strings.Join(roles, "|"), want)
	}
	if last := rec.Messages[len(rec.Messages)-1].Text(); !strings.HasSuffix(last, "D) Mercury") || strings.Contains(last, `\n`) {
		t.Errorf("question turn %q", last)
	}
	if !strings.HasPrefix(rec.FullTitle, "Answer the following multiple choice question.") {
		t.Errorf("full title %q", rec.FullTitle)
	}
	rec, err = ds.Records.Record(1)
	if err != nil {
		t.Fatal(err)
	}
	few := 0
	for _, m := range rec.Messages {
		if m.FewShot {
			few++
		}
	}
	if few != 2 || rec.Messages[len(rec.Messages)-1].FewShot {
		t.Errorf("one prompt text: %d few-shot examples marked, want 2 before the question: %+v", few, rec.Messages)
	}
}

// A prompt rendered with a chat template is its turns, the examples
// before the question marked few-shot.
func TestPromptChatTemplate(t *testing.T) {
	r := row{query: "Q: 3+3?", prompt: "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nQ: 1+1?<|im_end|>\n<|im_start|>assistant\n2<|im_end|>\n<|im_start|>user\nQ: 3+3?<|im_end|>\n<|im_start|>assistant\n"}
	msgs := promptMessages(r)
	var got []string
	for _, m := range msgs {
		got = append(got, fmt.Sprintf("%s:%s:%v", m.Role, m.Text(), m.FewShot))
	}
	if want := "system:Be brief.:false|user:Q: 1+1?:true|assistant:2:true|user:Q: 3+3?:false|assistant::false"; strings.Join(got, "|") != want {
		t.Errorf("turns %q, want %q", strings.Join(got, "|"), want)
	}
}
