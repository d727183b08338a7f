package lmeval

import (
	"path/filepath"
	"strings"
	"testing"

	"evalview/model"
)

// roles writes msgs as "role[few-shot label]" joined by commas.
func roles(msgs []model.Message) string {
	var out []string
	for _, m := range msgs {
		s := string(m.Role)
		if m.FewShot {
			s += "[few-shot " + m.Label + "]"
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

func TestMarkFewShot(t *testing.T) {
	user := func(s string) []model.Message { return []model.Message{textMessage(model.RoleUser, s, "prompt")} }
	gsm := "Question: 15 trees, 21 trees?\nAnswer: 21 - 15 = 6.\n#### 6\n\n" +
		"Question: 3 cars and 2 more?\n\nThink twice.\nAnswer: 3 + 2 = 5.\n#### 5\n\n" +
		"Question: Janet's ducks lay 16 eggs.\nAnswer:"
	cases := []struct {
		name     string
		msgs     []model.Message
		question string
		want     string
		last     string // the text of the last message
	}{
		{"gsm8k: the examples one by one, one holding a blank line", user(gsm), "Janet's ducks lay 16 eggs.",
			"user[few-shot example 1],user[few-shot example 2],user", "Question: Janet's ducks lay 16 eggs.\nAnswer:"},
		{"mmlu 0-shot: a description is no example", user("The following are questions about algebra.\n\nFind the degree of Q(sqrt 2).\nA. 0\nB. 2\nAnswer:"),
			"Find the degree of Q(sqrt 2).", "user", ""},
		{"mmlu 2-shot: the description goes with the first example",
			user("About algebra.\n\nWhat is 1+1?\nA. 2\nB. 3\nAnswer: A\n\nWhat is 2+2?\nA. 4\nB. 5\nAnswer: A\n\nFind the degree.\nA. 0\nB. 2\nAnswer:"),
			"Find the degree.", "user[few-shot example 1],user[few-shot example 2],user", "Find the degree.\nA. 0\nB. 2\nAnswer:"},
		{"the question is not in the prompt", user(gsm), "Something else", "user", ""},
		{"no question known", user(gsm), "", "user", ""},
		{"chat few-shot as multiturn", []model.Message{
			textMessage(model.RoleSystem, "Be brief.", ""),
			textMessage(model.RoleUser, "Q1", ""), textMessage(model.RoleAssistant, "A1", ""),
			textMessage(model.RoleUser, "Q2", ""), textMessage(model.RoleAssistant, "A2", ""),
			textMessage(model.RoleUser, "Q3", ""), textMessage(model.RoleAssistant, "", "generation starts here"),
		}, "Q3", "system,user[few-shot example 1],assistant[few-shot example 1 answer],user[few-shot example 2],assistant[few-shot example 2 answer],user,assistant", "Q3"},
		{"one chat turn", []model.Message{textMessage(model.RoleUser, "Q3", "")}, "Q3", "user", ""},
		{"a chat template's one user turn", []model.Message{textMessage(model.RoleUser, gsm, ""), textMessage(model.RoleAssistant, "", "generation starts here")},
			"Janet's ducks lay 16 eggs.", "user[few-shot example 1],user[few-shot example 2],user,assistant", "Question: Janet's ducks lay 16 eggs.\nAnswer:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := markFewShot(c.msgs, c.question)
			if r := roles(got); r != c.want {
				t.Errorf("roles %q, want %q", r, c.want)
			}
			if c.last != "" {
				if l := got[len(got)-1]; l.Role == model.RoleAssistant {
					l = got[len(got)-2]
					if l.Text() != c.last {
						t.Errorf("question turn %q, want %q", l.Text(), c.last)
					}
				} else if l.Text() != c.last {
					t.Errorf("question turn %q, want %q", l.Text(), c.last)
				}
			}
			// Nothing of the prompt is lost: the turns hold it all.
			if len(c.msgs) == 1 {
				var all []string
				for _, m := range got {
					all = append(all, m.Text())
				}
				if strings.Join(all, "\n\n") != c.msgs[0].Text() {
					t.Errorf("the turns do not add up to the prompt:\n%q", strings.Join(all, "\n\n"))
				}
			}
		})
	}
}

// TestSharedFewShotFolded: the real gsm8k prompts (8 examples inline,
// and as one chat message) split into their examples and the question.
func TestSharedFewShotFolded(t *testing.T) {
	root := sharedData(t)
	for _, dir := range []string{"gsm8k_phi3_two_filters", "gsm8k_chat_completions"} {
		dss, err := Open(filepath.Join(root, dir))
		if err != nil || len(dss) == 0 {
			t.Fatalf("%s: %v", dir, err)
		}
		rec, err := dss[0].Records.Record(0)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range rec.Messages {
			if m.FewShot {
				n++
			}
		}
		var last model.Message
		for _, m := range rec.Messages {
			if m.Role == model.RoleUser {
				last = m
			}
		}
		if n < 3 || last.FewShot || !strings.Contains(last.Text(), rec.Title) {
			t.Errorf("%s: %d few-shot turns, question turn %q (title %q)", dir, n, last.Text(), rec.Title)
		}
	}
}
