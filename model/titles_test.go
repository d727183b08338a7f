package model

import "testing"

func TestSharedLead(t *testing.T) {
	for _, c := range []struct {
		name   string
		titles []string
		want   string
	}{
		{"one title", []string{"Question: a"}, ""},
		{"none shared", []string{"What is 2+2?", "Name a gas."}, ""},
		{"a few shared words stay", []string{"What is 2+2?", "What is the capital of France?"}, ""},
		{"a label", []string{"Question: Which gas?", "Question: What is water?"}, "Question: "},
		{"whole lines", []string{"Answer the following multiple choice question. Think step by step.\n\nWhich gas?", "Answer the following multiple choice question. Think step by step.\n\nWhat is water?"},
			"Answer the following multiple choice question. Think step by step.\n\n"},
		{"a long run cut at a space", []string{"Translate this sentence into Fre nch: cat", "Translate this sentence into French: dog"}, "Translate this sentence into "},
		{"the same text everywhere", []string{"Same prompt", "Same prompt"}, ""},
		{"not inside a character", []string{"Q. éa", "Q. éb"}, "Q. "},
	} {
		if got := SharedLead(c.titles); got != c.want {
			t.Errorf("%s: SharedLead = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestTitleAfter(t *testing.T) {
	for _, c := range []struct{ title, lead, want string }{
		{"Question: Which gas?", "Question: ", "Which gas?"},
		{"Which gas?", "Question: ", "Which gas?"},
		{"Question: ", "Question: ", "Question: "},
		{"The following are multiple choice questions (with answers) about anatomy.\n\nWhat is a bone?", "", "What is a bone?"},
		{"The following are multiple choice questions (with answers) about anatomy.", "", "The following are multiple choice questions (with answers) about anatomy."},
		{"Intro.\n\nAnswer the following multiple choice question.\nWhich?", "Intro.\n\n", "Which?"},
	} {
		if got := TitleAfter(c.title, c.lead); got != c.want {
			t.Errorf("TitleAfter(%q, %q) = %q, want %q", c.title, c.lead, got, c.want)
		}
	}
}
