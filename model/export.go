package model

import (
	"bytes"
	"encoding/json"
)

// ExportFilter is one lm-eval filter's result in an export row.
type ExportFilter struct {
	Answer  string             `json:"answer"`
	Status  string             `json:"status"`
	Metrics map[string]float64 `json:"metrics"`
}

// ExportRow is one record of the normalized view model as `export` writes
// it. Field names are a contract for scripts.
type ExportRow struct {
	Dataset string   `json:"dataset"`
	Kind    Kind     `json:"kind"`
	Task    string   `json:"task"`
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Status  string   `json:"status"`
	Score   *float64 `json:"score"`
	Target  string   `json:"target,omitempty"`
	// Prompt is what the model was asked, as text, when the record's
	// conversation is one message; Messages is the conversation when it
	// is more (few-shot turns, a system prompt, tool results), in order.
	Prompt   string          `json:"prompt,omitempty"`
	Messages []ExportMessage `json:"messages,omitempty"`
	// Responses are the model's answers, one per attempt (lm-eval
	// repeats, a run's attempts, Inspect's epochs), in order; "" for an
	// attempt the artifact holds no text of.
	// For a multiple-choice record (Options), Responses is the option
	// the model picked, and Options lists every option: its text,
	// whether the references mark it correct, whether it is the pick.
	Responses []string                `json:"responses,omitempty"`
	Options   []ExportOption          `json:"options,omitempty"`
	Filters   map[string]ExportFilter `json:"filters,omitempty"`
	Attempts  int                     `json:"attempts"`
	// AttemptScores are the attempts' weighted scores (run zips), nil for
	// unscored attempts.
	AttemptScores []*float64 `json:"attempt_scores,omitempty"`
	// RecordLabels are the record's own labels as the artifact gives
	// them (its target, a category, a doc field), not the user's: those
	// are the export's user_labels. Labels is the same map under its
	// first name, kept for scripts that read it.
	RecordLabels map[string]string `json:"record_labels,omitempty"`
	Labels       map[string]string `json:"labels,omitempty"`
	Tags         []string          `json:"tags,omitempty"`
	Errors       int               `json:"errors"`
	Warnings     int               `json:"warnings"`
	// Fields are every field of a record that is nothing but its fields
	// (plain JSON Lines: see ExportsFields), in the record's order.
	Fields ExportFields `json:"fields,omitempty"`
}

// ExportMessage is one turn of a record's conversation in an export
// row.
type ExportMessage struct {
	Role    string `json:"role"`
	Name    string `json:"name,omitempty"`
	Content string `json:"content"`
	FewShot bool   `json:"few_shot,omitempty"`
}

// ExportOption is one option of a multiple-choice record in an export
// row.
type ExportOption struct {
	ID      string `json:"id"`
	Text    string `json:"text"`
	Correct bool   `json:"correct,omitempty"`
	Picked  bool   `json:"picked,omitempty"`
}

// PromptText is the row's prompt as one text: Prompt, or the messages
// as "role: content" blocks (CSV has one cell for it).
func (r ExportRow) PromptText() string {
	if len(r.Messages) == 0 {
		return r.Prompt
	}
	var b bytes.Buffer
	for i, m := range r.Messages {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(m.Role)
		if m.FewShot {
			b.WriteString(" (few-shot)")
		}
		b.WriteString(": ")
		b.WriteString(m.Content)
	}
	return b.String()
}

// ExportsFields reports the kinds whose records are nothing but their
// fields, which export writes whole: plain JSON Lines have no prompt,
// answer or score to map them to.
func ExportsFields(k Kind) bool { return k == KindJSONL }

// ExportFields are a record's fields, written as one JSON object in
// their order: strings as strings, other values as their JSON.
type ExportFields []Field

// MarshalJSON writes the fields as an object, in order.
func (fs ExportFields) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Name)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		if f.IsJSON && json.Valid([]byte(f.Value)) {
			b.WriteString(f.Value)
			continue
		}
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// NewExportRow builds the export row of a loaded record of d. It writes
// full values, never the short forms lists and facets use: a label that
// stands for the target (lm-eval's "target", cut to 80 characters for the
// targets table and queries) is written as the whole target.
func NewExportRow(d *Dataset, r *Record) ExportRow {
	row := ExportRow{
		Dataset: d.Title, Kind: d.Kind, Task: d.Task, ID: r.ID, Title: r.Title,
		Status: r.Status.String(), Target: r.Target, Attempts: len(r.Attempts),
		Labels: fullLabels(d, r), Tags: r.Tags, Errors: r.Errors, Warnings: r.Warnings,
	}
	row.RecordLabels = row.Labels
	switch {
	case len(r.Messages) == 1 && r.Messages[0].Role != RoleSystem:
		row.Prompt = r.Messages[0].Text()
	case len(r.Messages) > 1:
		row.Messages = make([]ExportMessage, len(r.Messages))
		for i, m := range r.Messages {
			row.Messages[i] = ExportMessage{Role: string(m.Role), Name: m.Name, Content: m.Text(), FewShot: m.FewShot}
		}
	}
	switch {
	case len(r.Options) > 0 && len(r.Attempts) == len(r.Options):
		// Each attempt scores one option (lm-eval's log-likelihoods):
		// the pick is the one the loader gave an outcome.
		row.Options = make([]ExportOption, len(r.Options))
		for i, o := range r.Options {
			picked := r.Attempts[i].Status != StatusUnscored
			row.Options[i] = ExportOption{ID: o.ID, Text: o.Text, Correct: o.Correct, Picked: picked}
			if picked {
				row.Responses = append(row.Responses, o.Text)
			}
		}
	case len(r.Options) > 0:
		row.Options = make([]ExportOption, len(r.Options))
		for i, o := range r.Options {
			row.Options[i] = ExportOption{ID: o.ID, Text: o.Text, Correct: o.Correct}
		}
		fallthrough
	case len(r.Attempts) > 0:
		row.Responses = make([]string, len(r.Attempts))
		for i, a := range r.Attempts {
			row.Responses[i] = a.Text
		}
	}
	if r.FullTitle != "" {
		row.Title = r.FullTitle // the list's title is cut; export writes it whole
	}
	if r.HasScore {
		v := r.Score
		row.Score = &v
	}
	if ExportsFields(d.Kind) {
		row.Fields = r.Fields
	}
	if len(r.Filters) > 0 {
		row.Filters = map[string]ExportFilter{}
		for _, f := range r.Filters {
			ef := ExportFilter{Answer: f.Answer, Status: f.Status.String(), Metrics: map[string]float64{}}
			for _, m := range f.Metrics {
				ef.Metrics[m.Name] = m.Value
			}
			row.Filters[f.Filter] = ef
		}
	}
	for _, a := range r.Attempts {
		if a.HasWeighted {
			row.AttemptScores = make([]*float64, len(r.Attempts))
			break
		}
	}
	if row.AttemptScores != nil {
		for i, a := range r.Attempts {
			if a.HasWeighted {
				v := a.Weighted
				row.AttemptScores[i] = &v
			}
		}
	}
	return row
}

// LabelTarget is the label a loader may set to a record's target, cut
// short for lists and facets; Record.Target holds the whole of it.
const LabelTarget = "target"

// fullLabels returns r's labels with the target label written whole, and
// without the labels that only say a field is held in the record
// (Presentation.FieldLabels: its whole value is among the fields). The
// record's map is shared with other readers and left as it is.
func fullLabels(d *Dataset, r *Record) map[string]string {
	v, ok := r.Labels.Lookup(LabelTarget)
	cut := ok && r.Target != "" && v != r.Target
	if !cut && !d.Presentation.FieldLabels {
		return r.Labels.Map()
	}
	out := make(map[string]string, r.Labels.Len())
	for k, v := range r.Labels.All() {
		if v != "" || !d.Presentation.FieldLabels {
			out[k] = v
		}
	}
	if cut {
		out[LabelTarget] = r.Target
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
