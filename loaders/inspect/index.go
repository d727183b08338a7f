package inspect

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/internal/zipsafe"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// index holds every sample's list row and builds a record's detail on
// demand, reading its epochs' members; the last few records are cached so
// that moving back and forth does not reread them. An .eval's index is
// complete when built; a JSON log's grows while a background scan reads
// the file (jsonindex.go).
type index struct {
	ld    *logData
	views []view

	// rmu guards rows and red, which the scan appends to (and, once at
	// its end, rewrites in place when reductions.json changes a row),
	// and the views' continuous marks, which the scan sets.
	rmu  sync.RWMutex
	rows []row
	red  map[redKey]json.RawMessage
	done atomic.Bool
	// scan is the background scan that lists the records.
	scan *bgScan

	mu    sync.Mutex
	cache map[int]*model.Record
	order []int
}

const cacheSize = 4

// Len returns the number of samples known so far.
func (x *index) Len() int {
	x.rmu.RLock()
	defer x.rmu.RUnlock()
	return len(x.rows)
}

// Summary returns sample i's list row.
func (x *index) Summary(i int) model.Summary {
	x.rmu.RLock()
	defer x.rmu.RUnlock()
	return x.rows[i].sum
}

// row is one listed record: its list row, its issues known from the
// summaries (most rows have none), and its epochs' summaries.
type row struct {
	sum    model.Summary
	issues []model.Issue
	g      *stored
}

// rec builds record i as the summaries give it.
func (x *index) rec(i int) *model.Record {
	x.rmu.RLock()
	g, red, views := x.rows[i].g, x.red, slices.Clone(x.views)
	x.rmu.RUnlock()
	return baseRecord(x.ld, g.parse(nil), views, red)
}

// Done reports whether every sample is known: at once for an .eval
// (its summaries are read whole when it opens), at the end of its scan
// for a JSON log.
func (x *index) Done() bool { return x.done.Load() }

// Record returns sample i with its members read.
func (x *index) Record(i int) (*model.Record, error) {
	x.mu.Lock()
	if r, ok := x.cache[i]; ok {
		x.mu.Unlock()
		return r, nil
	}
	x.mu.Unlock()
	r := x.detail(i)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.cache[i] = r
	x.order = append(x.order, i)
	if len(x.order) > cacheSize {
		delete(x.cache, x.order[0])
		x.order = x.order[1:]
	}
	return r, nil
}

// detail copies the base record and adds what each epoch's member holds.
// A member that cannot be read leaves the summary's view of that epoch
// and a bad-sample issue; the record still opens.
func (x *index) detail(i int) *model.Record {
	base := x.rec(i)
	r := *base
	r.Attempts = append([]model.Attempt(nil), base.Attempts...)
	r.Issues = append([]model.Issue(nil), base.Issues...)
	r.Raw = append([]model.RawPart(nil), base.Raw...)
	r.Labels = base.Labels
	var scores []model.Section
	for ai := range r.Attempts {
		a := &r.Attempts[ai]
		d, where, issues := x.readEpoch(r.ID, a.Index, false)
		r.Issues = append(r.Issues, issues...)
		if d != nil {
			x.applyEpoch(&r, a, d, where, &scores)
		}
	}
	r.Sections = append(scores, r.Sections...)
	r.Errors, r.Warnings = model.CountIssues(r.Issues)
	return &r
}

// applyEpoch fills one attempt (and for the first epoch, the record's
// conversation) from a sample member.
func (x *index) applyEpoch(r *model.Record, a *model.Attempt, d *sampleDetail, where string, scores *[]model.Section) {
	res := d.attach
	f := d.fields
	if r.Messages == nil {
		if in, ok := f["input"]; ok {
			r.Messages = inputMessages(in, res)
		}
	}
	if msgs, ok := f["messages"]; ok {
		a.Messages = convertMessages(msgs, res)
		if len(a.Messages) > 0 {
			// The epoch's whole conversation (system prompt, tool calls
			// and their results, reasoning), as Inspect's viewer shows it
			// in its Messages tab: the Responses tab shows an epoch's
			// answer, not its thread.
			r.Sections = append(r.Sections, model.Section{
				Title: fmt.Sprintf("messages, epoch %d", a.Index), Type: model.SectionMessages,
				Tab: messagesTab, Messages: a.Messages,
			})
		}
	}
	if out, ok := f["output"]; ok {
		text, facts := outputOf(out, res)
		if text != "" {
			a.Text = text
		}
		a.Facts = append(a.Facts, facts...)
	}
	if a.Text == "" {
		for i := len(a.Messages) - 1; i >= 0; i-- {
			if a.Messages[i].Role == model.RoleAssistant {
				a.Text = a.Messages[i].Text()
				break
			}
		}
	}
	if raw, ok := f["scores"]; ok {
		// One block per epoch and scorer, its value, answer and
		// explanation as labelled lines that wrap: a scorer's
		// explanation runs to paragraphs, which a table's column of a
		// fifth of the pane cut to a few words a line.
		for _, s := range scoresOf(raw) {
			facts := []model.Fact{{Key: "value", Value: valueText(s.Value)}}
			if s.Answer != nil {
				facts = append(facts, model.Fact{Key: "answer", Value: res.text(*s.Answer)})
			}
			if s.Explanation != nil {
				facts = append(facts, model.Fact{Key: "explanation", Value: res.text(*s.Explanation)})
			}
			*scores = append(*scores, model.Section{Title: fmt.Sprintf("epoch %d · %s", a.Index, s.Name), Type: model.SectionFacts, Tab: "Scores", Facts: facts})
		}
	}
	if raw, ok := f["error"]; ok && string(raw) != "null" {
		var e evalError
		if json.Unmarshal(raw, &e) == nil {
			a.Status = model.StatusError
			a.Error = e.Message
			a.ErrorBody = e.Traceback
		}
	}
	if raw, ok := f["limit"]; ok && string(raw) != "null" {
		var l struct {
			Type  string          `json:"type"`
			Limit json.RawMessage `json:"limit"`
		}
		if json.Unmarshal(raw, &l) == nil {
			a.ErrorType = "limit: " + l.Type + " " + valueText(l.Limit)
		}
	}
	for _, k := range []string{"metadata", "store", "model_usage", "sandbox", "error_retries"} {
		raw, ok := f[k]
		if !ok || jsonl.IsEmpty(raw) {
			continue
		}
		if k == "metadata" && a.Index != r.Attempts[0].Index {
			continue
		}
		r.Sections = append(r.Sections, model.Section{
			Title: fmt.Sprintf("%s, epoch %d", k, a.Index), Type: model.SectionJSON,
			JSON: string(nonfinite.Restore([]byte(jsonl.Pretty(raw)))), Folded: k != "metadata",
		})
	}
	r.Sections = append(r.Sections, transcript(d, a.Index)...)
	part := model.RawPart{Label: fmt.Sprintf("sample, epoch %d", a.Index), File: where, JSON: d.head}
	if d.size > int64(len(d.head)) {
		part.Omitted = int(d.size) - len(d.head)
		id, epoch, ld := r.ID, a.Index, x.ld
		part.Full = func() ([]byte, error) { return readWhole(ld, id, epoch) }
	}
	r.Raw = append(r.Raw, part)
}

// readWhole reads a sample member whole for the pager, up to the JSON
// member cap.
func readWhole(ld *logData, id string, epoch int) ([]byte, error) {
	rc, _, err := ld.sample(id, epoch)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return zipsafe.ReadCapped(rc, maxJSONMember)
}

// inputMessages is a sample's input as messages: a string is one user
// message.
func inputMessages(raw json.RawMessage, res resolver) []model.Message {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []model.Message{{Role: model.RoleUser, Segments: []model.Segment{{Type: model.SegText, Text: res.text(s)}}, Label: "input"}}
	}
	return convertMessages(raw, res)
}

// outputOf gives the model output's text (completion, else the first
// choice's content) and its facts.
func outputOf(raw json.RawMessage, res resolver) (string, []model.Fact) {
	var o struct {
		Model      string `json:"model"`
		Completion string `json:"completion"`
		Choices    []struct {
			Message    rawMessage `json:"message"`
			StopReason string     `json:"stop_reason"`
		} `json:"choices"`
		Usage *modelUsage `json:"usage"`
		Time  *float64    `json:"time"`
		Error string      `json:"error"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return "", nil
	}
	var facts []model.Fact
	if o.Model != "" {
		facts = append(facts, model.Fact{Key: "model", Value: o.Model})
	}
	text := res.text(o.Completion)
	if len(o.Choices) > 0 {
		c := o.Choices[0]
		if text == "" {
			text = res.text(contentText(c.Message.Content))
		}
		if c.StopReason != "" {
			facts = append(facts, model.Fact{Key: "stop reason", Value: c.StopReason})
		}
	}
	if o.Usage != nil {
		facts = append(facts, model.Fact{Key: "tokens", Value: fmt.Sprintf("%d in, %d out, %d total", o.Usage.Input, o.Usage.Output, o.Usage.Total)})
	}
	if o.Error != "" {
		facts = append(facts, model.Fact{Key: "output error", Value: o.Error})
	}
	return text, facts
}

// sampleIssue words a sample member that could not be opened, or (read
// set) that failed midway: what the archive refused keeps the archive's
// codes, the rest is a bad-sample.
func sampleIssue(where, id string, epoch int, err error, read bool) model.Issue {
	tail := "not read"
	if read {
		tail = "what was read before is shown"
	}
	var is model.Issue
	switch {
	case errors.Is(err, os.ErrNotExist):
		is = model.Errorf("bad-sample", where, 0, "", "the sample's member is no longer in the log (rewritten since it was opened?)")
	case isZipErr(err):
		is = readIssue(where, err, maxSampleMember, tail)
	default:
		is = model.Errorf("bad-sample", where, 0, "", "the member is not a whole sample: %s; %s", strings.TrimPrefix(err.Error(), "zip: "), tail)
	}
	is.Record = id
	is.Message = fmt.Sprintf("epoch %d: %s", epoch, is.Message)
	return is
}
