package lmeval

import (
	"encoding/json"
	"strconv"
	"strings"

	"evalview/loaders/internal/pylit"
)

// Multiple targets. A task whose doc_to_target gives a list (triviaqa's
// answer.aliases, nq_open's answer, a config listing the letters) is a
// multiple_target task: for generate_until the harness scores exact_match
// against every element and counts the row right when any matches
// (api/task.py ConfigurableTask.process_results, "return true if any are
// true", v0.4.0 to v0.4.12). The row logs that list as JSON up to v0.4.4,
// and as Python's str() of it from v0.4.5, whose EvaluationTracker writes
// sample["target"] = str(sample["target"]).

// normList normalises each element of a list target as the metric does;
// nil when target is not a list.
func (m *exactMatch) normList(target string) []string {
	elems, ok := targetList(target)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		if n, ok := m.norm(e); ok {
			out = append(out, n)
		}
	}
	return out
}

// targetList reads a logged target that is a list: a JSON array, or
// Python's repr of a list of strings and numbers. ok is false for any
// other text.
func targetList(t string) ([]string, bool) {
	t = strings.TrimSpace(t)
	if len(t) < 2 || t[0] != '[' || t[len(t)-1] != ']' {
		return nil, false
	}
	var raw []json.RawMessage
	if json.Unmarshal([]byte(t), &raw) == nil {
		out := make([]string, 0, len(raw))
		for _, r := range raw {
			if len(r) > 0 && (r[0] == '[' || r[0] == '{') {
				return nil, false
			}
			out = append(out, scalarText(r))
		}
		return out, true
	}
	return pyListLiteral(t)
}

// pyListLiteral parses Python's repr of a flat list of str, int, float,
// bool and None: "['Paris', \"l'Orient\", 3]".
func pyListLiteral(t string) ([]string, bool) {
	s := strings.TrimSpace(t[1 : len(t)-1])
	var out []string
	for s != "" {
		var v string
		var ok bool
		if s[0] == '\'' || s[0] == '"' {
			v, s, ok = pyStringLiteral(s)
		} else {
			end := strings.IndexByte(s, ',')
			if end < 0 {
				end = len(s)
			}
			v, s = strings.TrimSpace(s[:end]), s[end:]
			switch v {
			case "True", "False", "None":
				ok = true
			default:
				_, err := strconv.ParseFloat(v, 64)
				ok = err == nil
			}
		}
		if !ok {
			return nil, false
		}
		out = append(out, v)
		s = strings.TrimSpace(s)
		if s == "" {
			break
		}
		if s[0] != ',' {
			return nil, false
		}
		s = strings.TrimSpace(s[1:])
	}
	return out, true
}

// pyStringLiteral reads one quoted Python string literal at the start of
// s (as repr writes it) and returns its value and the rest of s.
func pyStringLiteral(s string) (string, string, bool) {
	v, n, err := pylit.String(s)
	return v, s[n:], err == nil
}

// docChoices reads a config's doc_to_choice: a list of strings gives the
// choices; anything else but null (a Jinja template, a field name) is a
// list evalview cannot compute, unknown.
func docChoices(raw json.RawMessage) (choices []string, unknown bool) {
	t := strings.TrimSpace(string(raw))
	if t == "" || t == "null" {
		return nil, false
	}
	if json.Unmarshal(raw, &choices) == nil && choices != nil {
		return choices, false
	}
	return nil, true
}

// choiceAt is choices[target] for a target that logs an index (an int,
// or its str() from v0.4.5); ok is false when it cannot be had.
func choiceAt(choices []string, target string) (string, bool) {
	i, err := strconv.Atoi(strings.TrimSpace(target))
	if err != nil || i < 0 || i >= len(choices) {
		return "", false
	}
	return choices[i], true
}
