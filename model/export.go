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
	Dataset  string                  `json:"dataset"`
	Kind     Kind                    `json:"kind"`
	Task     string                  `json:"task"`
	ID       string                  `json:"id"`
	Title    string                  `json:"title"`
	Status   string                  `json:"status"`
	Score    *float64                `json:"score"`
	Target   string                  `json:"target,omitempty"`
	Filters  map[string]ExportFilter `json:"filters,omitempty"`
	Attempts int                     `json:"attempts"`
	// AttemptScores are the attempts' weighted scores (run zips), nil for
	// unscored attempts.
	AttemptScores []*float64        `json:"attempt_scores,omitempty"`
	Labels        map[string]string `json:"labels,omitempty"`
	Tags          []string          `json:"tags,omitempty"`
	Errors        int               `json:"errors"`
	Warnings      int               `json:"warnings"`
	// Fields are every field of a record that is nothing but its fields
	// (plain JSON Lines: see ExportsFields), in the record's order.
	Fields ExportFields `json:"fields,omitempty"`
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
