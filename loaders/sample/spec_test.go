package sample

import (
	"testing"

	"evalview/model"
)

const (
	txt   = model.SegText
	img   = model.SegImage
	aud   = model.SegAudio
	vid   = model.SegVideo
	file  = model.SegFile
	call  = model.SegToolCall
	reply = model.SegToolResult
)

// specCase is what one example of the spec (section 1.6) must load as.
type specCase struct {
	id       string
	taskType string
	title    string
	kinds    [][]model.SegmentType // of every message, few-shot first
	fewShot  int                   // how many messages are few-shot
	refs     []string
	target   string
	correct  string // id of the option marked correct, "" for none
	options  int
	tabs     []string
	issues   []string
}

func checkSpecCase(t *testing.T, r *model.Record, c specCase) {
	t.Helper()
	if r.Title != c.title {
		t.Errorf("title %q, want %q", r.Title, c.title)
	}
	if got := r.Labels.Get("task_type"); got != c.taskType {
		t.Errorf("task_type label %q, want %q", got, c.taskType)
	}
	same(t, "segment kinds", kinds(r.Messages), c.kinds)
	few := 0
	for _, m := range r.Messages {
		if m.FewShot {
			few++
		}
	}
	if few != c.fewShot {
		t.Errorf("%d few-shot messages, want %d", few, c.fewShot)
	}
	same(t, "references", r.References, c.refs)
	if r.Target != c.target {
		t.Errorf("target %q, want %q", r.Target, c.target)
	}
	if len(r.Options) != c.options {
		t.Errorf("%d options, want %d", len(r.Options), c.options)
	}
	correct := ""
	for _, o := range r.Options {
		if o.Correct {
			correct += o.ID
		}
	}
	if correct != c.correct {
		t.Errorf("correct option %q, want %q", correct, c.correct)
	}
	same(t, "tabs", tabs(r), c.tabs)
	same(t, "issue codes", codes(r.Issues), c.issues)
	if r.Status != model.StatusUnscored || r.HasScore || len(r.Attempts) != 0 {
		t.Errorf("authored sample has status %s, score %v, %d attempts", r.Status, r.HasScore, len(r.Attempts))
	}
}

func TestSpecExamplesEnglish(t *testing.T) {
	d := openOne(t, "spec_en.jsonl")
	recs := records(t, d)
	one := [][]model.SegmentType{{txt}}
	none := []string{}
	cases := []specCase{
		{"qa_0001", "short-answer", "What is the capital of France?", one, 0, []string{"Paris"}, "Paris", "", 0, []string{TabMetadata}, none},
		{"mc_0001", "multiple-choice", "Which one is a mammal?", one, 0, []string{"B"}, "B", "B", 2, []string{TabMetadata}, none},
		{"dlg_0001", "dialogue", "Explain recursion.", [][]model.SegmentType{{txt}, {txt}, {txt}}, 0, []string{"..."}, "", "", 0, []string{}, none},
		{"imgqa_0001", "image-qa", "What fruit is shown in the image?", [][]model.SegmentType{{img, txt}}, 0, []string{"apple"}, "apple", "", 0, []string{}, none},
		{"aud_0001", "audio-translation", "Translate the audio into English.", [][]model.SegmentType{{aud, txt}}, 0, []string{"Hello"}, "Hello", "", 0, []string{}, []string{"missing-media"}},
		{"vid_0001", "video-qa", "Describe what happens in the video.", [][]model.SegmentType{{vid, txt}}, 0, []string{"..."}, "", "", 0, []string{}, []string{"missing-media"}},
		{"doc_0001", "doc-qa", "Summarize section 2.", [][]model.SegmentType{{file, txt}}, 0, []string{"..."}, "", "", 0, []string{}, []string{"missing-media"}},
		{"code_0001", "code-generation", "Write Python code to compute Fibonacci numbers.", one, 0, []string{"..."}, "", "", 0, []string{TabSandbox}, none},
		{"t2i_0001", "text-to-image", "Generate an image of an apple on a table.", one, 0, []string{"refs/apple_0001.png"}, "refs/apple_0001.png", "", 0, []string{}, none},
		{"i2i_0001", "image-to-image", "Colorize the sketch.", [][]model.SegmentType{{img, txt}}, 0, []string{"refs/color_0001.png"}, "refs/color_0001.png", "", 0, []string{}, none},
		{"t2a_0001", "text-to-audio", "Generate an audio clip of ocean waves.", one, 0, []string{"refs/ocean_0001.wav"}, "refs/ocean_0001.wav", "", 0, []string{}, none},
		{"t2v_0001", "text-to-video", "Generate a short video of a running dog.", one, 0, []string{"refs/dog_0001.mp4"}, "refs/dog_0001.mp4", "", 0, []string{}, none},
		{"agent_0001", "agent", "Search the weather and summarize.", one, 0, []string{"Paris is sunny at 22C."}, "", "", 0, []string{TabTrajectories, TabTools}, none},
	}
	if len(recs) != len(cases) {
		t.Fatalf("%d records, want %d", len(recs), len(cases))
	}
	for i, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			r := recs[i]
			if r.ID != c.id || r.Line != i+1 {
				t.Fatalf("record %d is %s on line %d, want %s on line %d", i, r.ID, r.Line, c.id, i+1)
			}
			checkSpecCase(t, r, c)
		})
	}

	// A few details the table does not cover.
	m := byID(recs)
	if s := m["imgqa_0001"].Messages[0].Segments[0]; s.URL != "inputs/apple_0001.png" || s.Exists == nil || !*s.Exists {
		t.Errorf("image segment %+v: want inputs/apple_0001.png, found on disk", s)
	}
	if s := section(t, m["code_0001"], "sandbox"); s.Type != model.SectionFacts ||
		!sameFacts(s.Facts, "image", "python:3.10", "setup", "python -V") {
		t.Errorf("sandbox section %+v", s)
	}
	traj := section(t, m["agent_0001"], "Golden trajectory 1")
	same(t, "trajectory kinds", kinds(traj.Messages), [][]model.SegmentType{{call}, {reply}, {txt}})
	if got := traj.Messages[0].Segments[0]; got.ToolName != "get_weather" || got.ToolCallID != "call_1" || got.Arguments != "{\n  \"city\": \"Paris\"\n}" {
		t.Errorf("trajectory tool call %+v", got)
	}
	if got := traj.Messages[1]; got.ToolCallID != "call_1" || got.Segments[0].Text != "Sunny, 22C" {
		t.Errorf("trajectory tool result %+v", got)
	}
	if e, w := d.IssueCounts(); e != 0 || w != 3 {
		t.Errorf("spec examples: %d errors, %d warnings; want 0 and 3 (missing media)", e, w)
	}
}

func TestSpecExamplesChinese(t *testing.T) {
	recs := records(t, openOne(t, "spec_zh.jsonl"))
	one := [][]model.SegmentType{{txt}}
	none := []string{}
	missing := []string{"missing-media"}
	cases := []specCase{
		{"qa-0001", "short-answer", "2 + 2 等于多少", [][]model.SegmentType{{txt}, {txt}, {txt}}, 2, []string{"4"}, "4", "", 0, []string{TabEvalConfig}, none},
		{"mc-0001", "multiple-choice", "以下哪一项是哺乳动物", one, 0, []string{"B"}, "B", "B", 4, []string{TabUnconditioned}, none},
		{"dialog-0001", "dialogue", "推荐一部科幻电影", [][]model.SegmentType{{txt}, {txt}, {txt}}, 0, []string{"沙丘"}, "沙丘", "", 0, []string{}, none},
		{"vqa-0001", "image-qa", "图中品牌是什么", [][]model.SegmentType{{img, txt}}, 0, []string{"dakota"}, "dakota", "", 0, []string{}, missing},
		{"asr-0002", "audio-translation", "[audio] audios/xx.wav", [][]model.SegmentType{{aud}, {txt}}, 0, []string{"..."}, "...", "", 0, []string{}, missing},
		{"video-0001", "video-qa", "视频里的人在做什么", [][]model.SegmentType{{vid, txt}}, 0, []string{"跑步"}, "跑步", "", 0, []string{}, missing},
		{"doc-0001", "doc-qa", "报告中 2022 年营收是多少", [][]model.SegmentType{{file, txt}}, 0, []string{"31.1"}, "31.1", "", 0, []string{TabMetadata}, missing},
		{"code-0001", "code-generation", "请实现函数 distinctDifferenceArray", one, 0, []string{"<python_code>"}, "<python_code>", "", 0, []string{TabSandbox, TabMetadata}, none},
		{"t2i-0001", "text-to-image", "一只红色苹果放在木桌上", one, 0, []string{"refs/apple_0001.png"}, "refs/apple_0001.png", "", 0, []string{TabEvalConfig}, none},
		{"i2i-0001", "image-to-image", "请为草图上色", [][]model.SegmentType{{img, txt}}, 0, []string{"refs/color_0001.png"}, "refs/color_0001.png", "", 0, []string{TabEvalConfig}, none},
		{"t2a-0001", "text-to-audio", "生成一段温和的钢琴旋律", one, 0, []string{"refs/piano_0001.wav"}, "refs/piano_0001.wav", "", 0, []string{TabEvalConfig}, none},
		{"t2v-0001", "text-to-video", "日落时分海边慢镜头", one, 0, []string{"refs/sunset_0001.mp4"}, "refs/sunset_0001.mp4", "", 0, []string{TabEvalConfig}, none},
		{"agent-0001", "agent", "计算 2022 年 Q1 研发费用", [][]model.SegmentType{{txt}, {txt}}, 0, []string{"31.1"}, "31.1", "", 0, []string{TabTrajectories, TabTools, TabSandbox, TabEvalConfig}, none},
	}
	if len(recs) != len(cases) {
		t.Fatalf("%d records, want %d", len(recs), len(cases))
	}
	for i, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			if recs[i].ID != c.id {
				t.Fatalf("record %d is %s, want %s", i, recs[i].ID, c.id)
			}
			checkSpecCase(t, recs[i], c)
		})
	}

	m := byID(recs)
	// The few-shot example's answer is rendered as an assistant turn, as
	// the prompt renderer does.
	same(t, "few-shot messages", m["qa-0001"].Messages[:2], []model.Message{
		{Role: model.RoleUser, Segments: []model.Segment{{Type: txt, Text: "1 + 1 等于多少"}}, FewShot: true, Label: "few-shot 1"},
		{Role: model.RoleAssistant, Segments: []model.Segment{{Type: txt, Text: "2"}}, FewShot: true, Label: "few-shot 1 answer"},
	})
	same(t, "eval_config", section(t, m["qa-0001"], "eval_config").Facts, []model.Fact{{Key: "metrics", Value: "exact_match"}})
	un := section(t, m["mc-0001"], "unconditioned_input")
	if un.Type != model.SectionMessages || len(un.Messages) != 1 || un.Messages[0].Text() != "请只输出选项字母" {
		t.Errorf("unconditioned_input section %+v", un)
	}
	if got := m["doc-0001"].Labels.Get("data_tag.doc_type"); got != "report" {
		t.Errorf("data_tag.doc_type label %q", got)
	}
	files := section(t, m["code-0001"], "sandbox.files")
	if files.Type != model.SectionJSON || files.JSON != "{\n  \"tests.py\": \"s3://datasets/code/tests.py\"\n}" {
		t.Errorf("sandbox.files section %+v", files)
	}
	traj := section(t, m["agent-0001"], "Golden trajectory 1")
	same(t, "trajectory kinds", kinds(traj.Messages), [][]model.SegmentType{{txt, call}, {reply}, {txt}})
	if got := traj.Messages[0].Segments[1].Arguments; got != "{\n  \"metric\": \"研发费用[20220331]\"\n}" {
		t.Errorf("tool call arguments %q", got)
	}
}

// sameFacts reports whether facts are exactly the key/value pairs kv.
func sameFacts(facts []model.Fact, kv ...string) bool {
	if len(facts)*2 != len(kv) {
		return false
	}
	for i, f := range facts {
		if f.Key != kv[2*i] || f.Value != kv[2*i+1] {
			return false
		}
	}
	return true
}
