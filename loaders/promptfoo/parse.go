package promptfoo

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// eval is an export of any shape, read into one form: its columns (a
// prompt on a provider), its cells (a test in a column) and what it
// reports.
type eval struct {
	path             string
	shape            string
	version          int
	evalID           string
	timestamp        string
	description      string
	promptfooVersion string
	exportedAt       string
	shareURL         string
	columns          []*column
	cells            []*cell
	stats            *stats
	jsonl            bool
	issues           []model.Issue
}

// column is one prompt on one provider: a column of promptfoo's matrix.
type column struct {
	idx                  int
	provider, providerID string
	label, raw           string
	metrics              *promptMetrics
}

// cell is one test in one column, from a result, a table cell, or both.
type cell struct {
	test, col   int
	res         *result
	tc          *tableCell
	rawResult   json.RawMessage
	line        int
	vars        map[string]json.RawMessage
	varOrder    []string
	description string
}

// The sizes promptfoo's exports are read to (variables, so that tests
// can lower them). A JSON or CSV export is read whole: promptfoo writes
// one with a single JSON.stringify, which Node caps at about 512 MB. A
// line of -o out.jsonl holds one result, as a Sample line holds a
// record.
var (
	maxExport = int64(512 << 20)
	maxLine   = 128 << 20
)

// readJSON reads a JSON export.
func readJSON(p string) (*eval, error) {
	data, err := jsonl.ReadRegular(p, maxExport)
	if err != nil {
		return nil, err
	}
	return parseJSON(p, data, 0)
}

// parseJSON reads a JSON export's bytes; depth counts the wrappers
// ({data: ...}) unwrapped.
func parseJSON(p string, data []byte, depth int) (*eval, error) {
	var f outputFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not promptfoo's JSON output: %w", err)
	}
	if len(f.Results) == 0 && len(f.Data) > 0 && f.Data[0] == '{' && depth == 0 {
		return parseJSON(p, f.Data, depth+1)
	}
	e := &eval{path: p, evalID: f.EvalID, shareURL: f.ShareableURL}
	if f.Metadata != nil {
		e.promptfooVersion, e.exportedAt = f.Metadata.PromptfooVersion, f.Metadata.ExportedAt
		e.timestamp = f.Metadata.EvaluationCreatedAt
	}
	var cfg struct {
		Description string `json:"description"`
	}
	_ = json.Unmarshal(f.Config, &cfg)
	e.description = cfg.Description

	var s summary
	switch {
	case len(f.Results) > 0 && f.Results[0] == '{':
		// {results: summary, config, shareableUrl}
		if err := json.Unmarshal(f.Results, &s); err != nil {
			return nil, fmt.Errorf("results: not promptfoo's summary: %w", err)
		}
		e.shape = "results version " + strconv.Itoa(s.Version)
	case len(f.Results) > 0 && f.Results[0] == '[':
		// The summary itself (or an Eval object: results, prompts).
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("not promptfoo's summary: %w", err)
		}
		switch {
		case f.Version != nil:
			e.shape = "summary version " + strconv.Itoa(*f.Version) + " (the file is the summary itself)"
		case s.Table == nil && len(s.Prompts) > 0:
			e.shape = "an Eval object (the node package's evaluate() result written as is)"
			e.evalID = f.ID
			var ms float64
			if json.Unmarshal(f.CreatedAt, &ms) == nil && ms > 0 {
				e.timestamp = unixMillis(ms)
			}
		default:
			e.shape = "summary without a version (2023)"
		}
	default:
		return nil, errors.New("not promptfoo's JSON output: no results")
	}
	e.version = s.Version
	if s.Timestamp != "" {
		e.timestamp = s.Timestamp
	}
	e.stats = s.Stats
	if s.Table != nil && len(s.Prompts) == 0 {
		e.fromTable(s)
	} else {
		e.fromResults(s.Prompts, s.Results, nil)
	}
	return e, nil
}

// readJSONL reads `promptfoo eval -o out.jsonl`: one result a line.
func readJSONL(p string) (*eval, error) {
	f, err := jsonl.OpenRegular(p)
	if err != nil {
		return nil, jsonl.Bare(err)
	}
	defer f.Close()
	e := &eval{path: p, shape: "JSON Lines, one result a line", jsonl: true, version: 3}
	var raws []json.RawMessage
	var lines []int
	err = jsonl.ScanLinesMax(f, maxLine, func(l jsonl.Line) error {
		switch t := bytes.TrimSpace(l.Data); {
		case l.Cut:
			e.issues = append(e.issues, jsonl.LineTooLong(p, l, "a result", maxLine))
		case len(t) == 0:
		case json.Valid(t):
			raws = append(raws, append(json.RawMessage(nil), t...))
			lines = append(lines, l.N)
		default:
			e.issues = append(e.issues, model.Errorf("bad-json", p, l.N, "", "this line is not JSON; it is left out"))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	e.fromResults(nil, raws, lines)
	return e, nil
}

// fromResults reads results that carry their indexes (version 3, JSON
// Lines) into cells, the prompts into columns. A column no prompt and no
// result names is none: a promptIdx of 1,000,000 is one column, not a
// million empty ones before it.
func (e *eval) fromResults(prompts []prompt, raws []json.RawMessage, lines []int) {
	byIdx := map[int]*column{}
	for i, p := range prompts {
		c := &column{idx: i, provider: p.Provider, providerID: p.Provider, label: p.name(), raw: p.Raw, metrics: p.Metrics}
		e.columns = append(e.columns, c)
		byIdx[i] = c
	}
	defer func() { slices.SortStableFunc(e.columns, func(a, b *column) int { return cmp.Compare(a.idx, b.idx) }) }()
	for i, raw := range raws {
		line := 0
		if lines != nil {
			line = lines[i]
		}
		var r result
		if err := json.Unmarshal(raw, &r); err != nil {
			e.issues = append(e.issues, model.Errorf("bad-result", e.path, line, "", "result %d is not an EvaluateResult: %v; it is left out", i, err))
			continue
		}
		if r.PromptIdx == nil || r.TestIdx == nil {
			e.issues = append(e.issues, model.Errorf("bad-result", e.path, line, "", "result %d has no promptIdx or testIdx: its cell of the matrix is unknown; it is left out", i))
			continue
		}
		col := *r.PromptIdx
		if col < 0 || col > 1<<20 {
			e.issues = append(e.issues, model.Errorf("bad-result", e.path, line, "", "result %d has promptIdx %d; it is left out", i, col))
			continue
		}
		c := byIdx[col]
		if c == nil {
			c = &column{idx: col}
			byIdx[col] = c
			e.columns = append(e.columns, c)
		}
		if c.provider == "" && c.label == "" {
			c.provider, c.providerID = r.Provider.name(), r.Provider.ID
			c.label, c.raw = firstNonEmpty(r.Prompt.Label, r.Prompt.Display, r.Prompt.Raw), r.Prompt.Raw
		}
		if c.providerID == c.provider && r.Provider.ID != "" {
			c.providerID = r.Provider.ID
		}
		if r.Response == nil {
			r.Response = r.ProviderResponse
		}
		ce := &cell{test: *r.TestIdx, col: col, res: &r, rawResult: raw, line: line, vars: r.Vars}
		if r.TestCase != nil {
			ce.description = r.TestCase.Description
			if len(ce.vars) == 0 {
				ce.vars = r.TestCase.Vars
			}
		}
		if ce.description == "" {
			ce.description = r.Description
		}
		ce.varOrder = sortedVars(ce.vars)
		e.cells = append(e.cells, ce)
	}
}

// fromTable reads a summary of version 2 or before: the table gives the
// cells (rows are tests, outputs columns), each matched with its result
// (results then carry no indexes: they are listed as they finished).
func (e *eval) fromTable(s summary) {
	t := s.Table
	multi := len(t.Head.Prompts) > 1
	for i, p := range t.Head.Prompts {
		c := &column{idx: i, provider: p.Provider, providerID: p.Provider, label: p.name(), raw: p.Raw, metrics: p.Metrics}
		if c.provider == "" {
			// Before version 2, with several providers, the head names
			// each column "[provider] prompt".
			if m := providerPrefix.FindStringSubmatch(c.label); m != nil && multi {
				c.provider, c.providerID, c.label = m[1], m[1], m[2]
			}
		}
		e.columns = append(e.columns, c)
	}
	// The results, by what a cell knows of them.
	type cand struct {
		r   *result
		raw json.RawMessage
	}
	byKey := map[string][]cand{}
	var all []cand
	for i, raw := range s.Results {
		var r result
		if err := json.Unmarshal(raw, &r); err != nil {
			e.issues = append(e.issues, model.Errorf("bad-result", e.path, 0, "", "result %d is not an EvaluateResult: %v", i, err))
			continue
		}
		if r.Response == nil {
			r.Response = r.ProviderResponse
		}
		c := cand{&r, raw}
		all = append(all, c)
		k := matchKey(firstNonEmpty(r.Prompt.Label, r.Prompt.Display), r.Prompt.Raw, r.Provider, varsList(t.Head.Vars, r.Vars))
		byKey[k] = append(byKey[k], c)
	}
	used := map[*result]bool{}
	for ri, row := range t.Body {
		test := ri
		if row.TestIdx != nil {
			test = *row.TestIdx
		}
		vars := map[string]json.RawMessage{}
		for vi, name := range t.Head.Vars {
			if vi < len(row.Vars) {
				vars[name] = row.Vars[vi]
			}
		}
		desc := row.Description
		if desc == "" && row.Test != nil {
			desc = row.Test.Description
		}
		var rowVars []string
		for vi := range t.Head.Vars {
			v := ""
			if vi < len(row.Vars) {
				v = textOf(row.Vars[vi])
			}
			rowVars = append(rowVars, v)
		}
		for ci := range row.Outputs {
			if ci >= len(e.columns) {
				e.columns = append(e.columns, &column{idx: ci})
			}
			tc := row.Outputs[ci]
			col := e.columns[ci]
			ce := &cell{test: test, col: ci, tc: &tc, vars: vars, varOrder: t.Head.Vars, description: desc}
			pv := provider{ID: col.providerID}
			if tc.Provider != "" {
				pv = provider{ID: tc.Provider}
			}
			k := matchKey(col.label, tc.Prompt, pv, rowVars)
			for _, c := range byKey[k] {
				if !used[c.r] {
					used[c.r], ce.res, ce.rawResult = true, c.r, c.raw
					break
				}
			}
			if ce.res == nil {
				// Match on the rendered prompt and the vars alone.
				for _, c := range all {
					if !used[c.r] && (tc.Prompt == "" || c.r.Prompt.Raw == tc.Prompt) && sameStrings(varsList(t.Head.Vars, c.r.Vars), rowVars) &&
						(col.providerID == "" || c.r.Provider.ID == "" || c.r.Provider.ID == col.providerID || c.r.Provider.Label == col.providerID) &&
						sameLabel(firstNonEmpty(c.r.Prompt.Label, c.r.Prompt.Display), col, multi) {
						used[c.r], ce.res, ce.rawResult = true, c.r, c.raw
						break
					}
				}
			}
			if col.raw == "" && ce.res != nil {
				col.raw = ce.res.Prompt.Raw
			}
			e.cells = append(e.cells, ce)
		}
	}
	if n := len(all) - len(used); n > 0 {
		e.issues = append(e.issues, model.Warnf("unmatched-result", e.path, 0, "",
			"%d of the %d results match no cell of the table (by prompt, provider and vars): they are not shown", n, len(all)))
	}
}

// labelWithProvider is the label a result of the column gives its
// prompt: before version 2, "[provider] prompt" when there are several
// providers.
func (c *column) labelWithProvider(multi bool) string {
	if multi && c.providerID != "" && !strings.HasPrefix(c.label, "["+c.providerID+"] ") {
		return "[" + c.providerID + "] " + c.label
	}
	return c.label
}

// sameLabel reports whether a result's prompt label is the column's,
// with or without the provider before it.
func sameLabel(l string, c *column, multi bool) bool {
	return l == "" || c.label == "" || l == c.label || l == c.labelWithProvider(multi)
}

// unixMillis writes a time in milliseconds since 1970 as RFC 3339, UTC.
func unixMillis(ms float64) string {
	return time.UnixMilli(int64(ms)).UTC().Format(time.RFC3339)
}

var providerPrefix = regexp.MustCompile(`(?s)^\[([^\]]+)\] (.*)$`)

// matchKey is what a table cell and its result share.
func matchKey(label, rendered string, p provider, vars []string) string {
	b, _ := json.Marshal(vars)
	return label + "\x00" + rendered + "\x00" + p.ID + "\x00" + string(b)
}

// varsList is a result's vars in the table's order, as the table writes
// them (strings as they are, other values as JSON).
func varsList(names []string, vars map[string]json.RawMessage) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = textOf(vars[n])
	}
	return out
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sortedVars lists a test's vars, those promptfoo adds itself (starting
// with "_") last.
func sortedVars(vars map[string]json.RawMessage) []string {
	out := make([]string, 0, len(vars))
	for k := range vars {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		ui, uj := strings.HasPrefix(out[i], "_"), strings.HasPrefix(out[j], "_")
		if ui != uj {
			return uj
		}
		return out[i] < out[j]
	})
	return out
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
