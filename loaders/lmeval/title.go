package lmeval

import (
	"encoding/json"
	"strings"

	"evalview/loaders/jsonl"
)

// titleOf picks the doc's question-like field, or the prompt's last line,
// cut at maxTitle runes for the list. fields and err are docEntries(doc).
func titleOf(fields []entry, err error, doc, args json.RawMessage) string {
	return titleCut(fields, err, doc, args, maxTitle)
}

// titleCut is titleOf cut at n runes (0: whole, for the record that
// export writes).
func titleCut(fields []entry, err error, doc, args json.RawMessage, n int) string {
	if err == nil {
		for _, want := range []string{"question", "query", "problem", "prompt", "input", "instruction", "text", "goal", "ctx", "sentence", "premise", "passage", "context"} {
			for _, f := range fields {
				if strings.EqualFold(f.Key, want) {
					if t := firstLine(fastText(f.Val), n); t != "" {
						return t
					}
				}
			}
		}
		for _, f := range fields {
			if len(f.Val) > 0 && f.Val[0] == '"' {
				if t := firstLine(fastText(f.Val), n); t != "" {
					return t
				}
			}
		}
	} else if len(doc) > 0 && doc[0] == '"' {
		return firstLine(fastText(doc), n)
	}
	if p := parseArgs(args); len(p) > 0 {
		return lastLine(promptText(p[0].arg0), n)
	}
	return ""
}

const maxTitle = 300

func firstLine(s string, n int) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return jsonl.Own(clip(l, n), s)
		}
	}
	return ""
}

func lastLine(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(ls) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(ls[i]); l != "" {
			return jsonl.Own(clip(l, n), s)
		}
	}
	return ""
}

// clip cuts s at n runes, marking the cut with …; n <= 0 keeps it whole.
func clip(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
