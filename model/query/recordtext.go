package query

import (
	"strings"

	"evalview/model"
)

// RecordText returns every text of a record, one piece per line, for the
// whole-record `/` search. It holds, in this order:
//
//   - the id and title;
//   - labels as "key: value" (sorted by key) and tags;
//   - every message: its label, name and text segments, tool calls (tool
//     name and arguments), tool results, and media references (URL);
//   - options as "id. text", references and the target;
//   - every attempt: text, status word, error type, error and error body,
//     judge note, facts as "key: value", score names, and raw response;
//   - every lm-eval filter row: filter name and answers;
//   - fields as "name: value";
//   - sections: title, text, JSON, table header and cells, facts and
//     messages;
//   - issues as "code: message", so a search finds records by problem.
//
// Raw source JSON is left out: it repeats the above and would make a
// search for a key name match every record. Numbers (scores, metrics) are
// left out too; the query language compares those.
func RecordText(r *model.Record) string {
	if r == nil {
		return ""
	}
	w := textWriter{}
	w.add(r.ID, r.Title)
	for k, v := range r.Labels.All() {
		w.pair(k, v)
	}
	w.add(r.Tags...)
	w.messages(r.Messages)
	for _, o := range r.Options {
		w.pair(o.ID, o.Text)
	}
	w.add(r.References...)
	w.add(r.Target)
	for _, a := range r.Attempts {
		w.add(a.Text, a.StatusText, a.ErrorType, a.Error, a.ErrorBody, a.Judge)
		w.facts(a.Facts)
		for _, s := range a.Scores {
			w.add(s.Name)
		}
		w.add(a.Raw)
	}
	for _, f := range r.Filters {
		w.add(f.Filter, f.Answer)
		if len(f.Answers) > 1 {
			w.add(f.Answers...)
		}
	}
	for _, f := range r.Fields {
		w.pair(f.Name, f.Value)
	}
	for _, s := range r.Sections {
		w.add(s.Title, s.Text, s.JSON)
		if s.Table != nil {
			w.add(s.Table.Columns...)
			for _, row := range s.Table.Rows {
				w.add(row...)
			}
		}
		w.facts(s.Facts)
		w.messages(s.Messages)
	}
	for _, is := range r.Issues {
		w.pair(is.Code, is.Message)
	}
	return w.b.String()
}

// textWriter joins non-empty texts with newlines.
type textWriter struct{ b strings.Builder }

func (w *textWriter) add(texts ...string) {
	for _, t := range texts {
		if t == "" {
			continue
		}
		if w.b.Len() > 0 {
			w.b.WriteByte('\n')
		}
		w.b.WriteString(t)
	}
}

// pair writes "key: value" (just the value when the key is empty).
func (w *textWriter) pair(key, value string) {
	switch {
	case value == "":
		w.add(key)
	case key == "":
		w.add(value)
	default:
		w.add(key + ": " + value)
	}
}

func (w *textWriter) facts(fs []model.Fact) {
	for _, f := range fs {
		w.pair(f.Key, f.Value)
	}
}

func (w *textWriter) messages(ms []model.Message) {
	for _, m := range ms {
		w.add(m.Label, m.Name)
		for _, s := range m.Segments {
			switch s.Type {
			case model.SegText, model.SegToolResult:
				w.add(s.Text)
			case model.SegToolCall:
				w.add(s.ToolName, s.Arguments)
			default:
				w.add(s.URL)
			}
		}
	}
}
