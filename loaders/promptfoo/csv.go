package promptfoo

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// The CSV promptfoo writes (src/util/eval/evalTableUtils.ts,
// buildCsvHeaders and tableRowToCsvValues, the same as the web viewer's
// download): an optional Description column, the vars, then for each
// prompt on each provider "[provider] label", Status (PASS, FAIL,
// ERROR), Score and Named Scores (both rounded to two decimals), a
// "Metric: name" column per named score, Grader Reason and Comment.
// Earlier CSVs (a cell of "[PASS] (score) output" text per prompt) are
// not read.

// csvGroup is where one prompt's columns are in a row.
type csvGroup struct {
	label, status, score, named, reason, comment int
}

// isCSVHead reports a header row promptfoo's CSV writer wrote.
func isCSVHead(head []byte) bool {
	line := head
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return bytes.Contains(line, []byte(",Status,Score,Named Scores,")) && bytes.Contains(line, []byte("Grader Reason")) &&
		bytes.Contains(line, []byte("Comment"))
}

// readCSV reads a CSV export: its cells; no metrics (the CSV has none).
func readCSV(p string) (*eval, error) {
	data, err := jsonl.ReadRegular(p, maxExport)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("not promptfoo's CSV: %w", err)
	}
	if len(head) > 0 {
		head[0] = strings.TrimPrefix(head[0], "\ufeff")
	}
	e := &eval{path: p, shape: "CSV (scores rounded to two decimals; no metrics)", version: 3}
	// A group starts at a column followed by Status and Score.
	var groups []csvGroup
	firstGroup := -1
	for i := 0; i+2 < len(head); i++ {
		if head[i+1] != "Status" || head[i+2] != "Score" {
			continue
		}
		g := csvGroup{label: i, status: i + 1, score: i + 2, named: -1, reason: -1, comment: -1}
		j := i + 3
		if j < len(head) && head[j] == "Named Scores" {
			g.named = j
			j++
		}
		for j < len(head) && strings.HasPrefix(head[j], "Metric: ") {
			j++
		}
		if j < len(head) && head[j] == "Grader Reason" {
			g.reason = j
			j++
		}
		if j < len(head) && head[j] == "Comment" {
			g.comment = j
			j++
		}
		if firstGroup < 0 {
			firstGroup = i
		}
		groups = append(groups, g)
		i = j - 1
	}
	if len(groups) == 0 {
		return nil, errors.New("not promptfoo's CSV: no prompt column followed by Status and Score")
	}
	descCol := -1
	varStart := 0
	if head[0] == "Description" {
		descCol, varStart = 0, 1
	}
	varNames := head[varStart:firstGroup]
	for gi, g := range groups {
		c := &column{idx: gi, label: head[g.label]}
		if m := providerPrefix.FindStringSubmatch(head[g.label]); m != nil {
			c.provider, c.providerID, c.label = m[1], m[1], m[2]
		}
		e.columns = append(e.columns, c)
	}
	for row := 0; ; row++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			e.issues = append(e.issues, model.Errorf("bad-csv", p, line, "", "%v; the rows before are shown", err))
			break
		}
		at := func(i int) string {
			if i < 0 || i >= len(rec) {
				return ""
			}
			return rec[i]
		}
		vars := map[string]json.RawMessage{}
		for vi, n := range varNames {
			b, _ := json.Marshal(at(varStart + vi))
			vars[n] = b
		}
		for gi, g := range groups {
			status := at(g.status)
			if status == "" && at(g.label) == "" {
				continue // no result of this test in this column
			}
			tc := &tableCell{Text: at(g.label)}
			pass := status == "PASS"
			tc.Pass = &pass
			if status == "ERROR" {
				fr := failureError
				tc.FailureReason = &fr
			}
			if s, err := strconv.ParseFloat(at(g.score), 64); err == nil {
				tc.Score = &s
			}
			if ns := at(g.named); ns != "" {
				_ = json.Unmarshal([]byte(ns), &tc.NamedScores)
			}
			if reason, comment := at(g.reason), at(g.comment); reason != "" || comment != "" {
				tc.GradingResult = &gradingResult{Pass: pass, Reason: reason, Comment: comment}
			}
			raw := map[string]string{head[g.label]: at(g.label), "Status": status, "Score": at(g.score)}
			if g.named >= 0 {
				raw["Named Scores"] = at(g.named)
			}
			if g.reason >= 0 {
				raw["Grader Reason"] = at(g.reason)
			}
			if g.comment >= 0 {
				raw["Comment"] = at(g.comment)
			}
			tc.raw, _ = json.MarshalIndent(raw, "", "  ")
			e.cells = append(e.cells, &cell{test: row, col: gi, tc: tc, vars: vars, varOrder: varNames,
				description: at(descCol), line: line})
		}
	}
	return e, nil
}
