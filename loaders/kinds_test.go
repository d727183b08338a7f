package loaders

import "testing"

func TestKindList(t *testing.T) {
	if got := KindList(", ", " or "); got != "lm-eval, run, sample, testset, inspect, lighteval, helm, promptfoo or jsonl" {
		t.Errorf("KindList = %q", got)
	}
	if got := KindList("|", "|"); got != "lm-eval|run|sample|testset|inspect|lighteval|helm|promptfoo|jsonl" {
		t.Errorf("KindList = %q", got)
	}
	for _, k := range Kinds() {
		if got, err := ParseKind(string(k)); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %q, %v", k, got, err)
		}
	}
}
