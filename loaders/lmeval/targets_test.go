package lmeval

import (
	"reflect"
	"testing"

	"evalview/model"
)

// TestTargetList: a list target as v0.4.0-v0.4.4 log it (JSON) and as
// v0.4.5 on log it (Python's str() of the list); other text is no list.
func TestTargetList(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`["A", "B", "C", "D"]`, []string{"A", "B", "C", "D"}},
		{`['Paris', 'paris', 'Paris, France']`, []string{"Paris", "paris", "Paris, France"}},
		{`['Lorient', "l'Orient", 'a\'b\\c\n', '\xe9t\u00e9']`, []string{"Lorient", "l'Orient", "a'b\\c\n", "été"}},
		{`[1, 2.5, True, None]`, []string{"1", "2.5", "True", "None"}},
		{`[]`, []string{}},
	} {
		got, ok := targetList(c.in)
		if !ok || !reflect.DeepEqual(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("targetList(%s) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, in := range []string{"Paris", "#### 18", "[x]", "['a' 'b']", "['unterminated]", `[["nested"]]`, "[1, 2"} {
		if got, ok := targetList(in); ok {
			t.Errorf("targetList(%q) = %q, want no list", in, got)
		}
	}
}

// TestMultipleTargetRescore: triviaqa (v0.4.8, target str() of the
// aliases list): a row whose answer matches any alias is right, as the
// harness scores it; no false rescore-mismatch (issue 14). A row logging
// the wrong value is still caught.
func TestMultipleTargetRescore(t *testing.T) {
	ds := byTask(t, "multiple_target")["triviaqa"]
	if is := allIssues(t, ds); len(is) != 0 {
		t.Errorf("issues: %v", is)
	}
	re := &reextractor{em: &exactMatch{ignoreCase: true, ignorePunctuation: true}}
	sc := re.newScorer(`['Lorient', "l'Orient", "L'Orient"]`)
	for answer, want := range map[string]model.Status{"L'Orient": model.StatusPass, "lorient": model.StatusPass, "Marseille": model.StatusFail} {
		if got := sc.status(answer); got != want {
			t.Errorf("%q: %v, want %v", answer, got, want)
		}
	}
	// A one-string target is scored as one string, as before.
	if got := re.newScorer("Paris").status("paris"); got != model.StatusPass {
		t.Errorf("plain target: %v", got)
	}
}

// TestDocToChoiceRescore: a generate_until task with doc_to_choice
// (super_glue boolq-seq2seq, v0.4.8) logs the target's index; the harness
// scores against choices[target], and so does the re-scoring: no false
// rescore-mismatch. A doc_to_choice template evalview cannot evaluate
// leaves the answers unscored rather than scored against the index.
func TestDocToChoiceRescore(t *testing.T) {
	ds := byTask(t, "seq2seq_choices")["boolq-seq2seq"]
	if is := allIssues(t, ds); len(is) != 0 {
		t.Errorf("issues: %v", is)
	}
	em := &exactMatch{ignoreCase: true, ignorePunctuation: true}
	listed := &reextractor{em: em, choices: []string{" no", " yes"}}
	if got := listed.newScorer("1").status(" Yes"); got != model.StatusPass {
		t.Errorf("choices[1]: %v", got)
	}
	if got := listed.newScorer("7").status(" yes"); got != model.StatusUnscored {
		t.Errorf("an index out of range: %v", got)
	}
	choices, unknown := docChoices([]byte(`"{{choices.text}}"`))
	templ := &reextractor{em: em, choices: choices, choicesUnknown: unknown}
	if got := templ.newScorer("1").status("1"); !unknown || got != model.StatusUnscored {
		t.Errorf("a template: %v (unknown %v)", got, unknown)
	}
	if c, u := docChoices([]byte("null")); c != nil || u {
		t.Errorf("null doc_to_choice: %v %v", c, u)
	}
}
