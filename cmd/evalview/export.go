package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"evalview/internal/termsafe"
	"evalview/model"
	"evalview/model/runstats"
)

func newExportCmd(stdout, stderr io.Writer, common *commonFlags) *cobra.Command {
	var (
		format    string
		where     string
		threshold float64
	)
	cmd := &cobra.Command{
		Use:   "export [flags] PATH...",
		Short: "Write one JSONL line or CSV row per record of the normalized view model",
		Long: `export writes every record of every dataset in the normalized view model:
dataset, kind, task, id, title, status, score, target, the prompt (prompt,
or messages when it is a conversation), the model's responses (one per
attempt), per-filter answers, statuses and metrics (lm-eval), attempt
counts and scores, the record's own labels (record_labels; also as
labels), tags and issue counts, and your labels and note from the notes
file (user_labels, user_note; also as note_labels, note). CSV has the same
columns (prompt, response1..N, user_labels, user_note...).

--threshold T writes the statuses of run zips (pass, fail) at T: a sample
passes when its average weighted score is at or above T, as the browser's
list shows it after t, + or -; by default, at the run's scores_map
pass_threshold, else 8.5. --where reads statuses at the same threshold.

--where QUERY exports only the matching records, in the language of the
browser's : line: field comparisons (score<5, category=math, status=fail,
filter=flexible-extract, tag:critical, label:"extraction bug"), regexes
(title~^How), negation (-term) and bare words; terms are ANDed.

Exit codes: 0, or 2 when a path cannot be opened at all or the query is
invalid (the error names its column).`,
		Example: `  evalview export results/my-model/ > records.jsonl
  evalview export --format csv samples_gsm8k_*.jsonl > gsm8k.csv
  evalview export results/ | jq -c 'select(.status == "fail") | {id, target}'
  evalview export --where 'status=fail filter=flexible-extract' samples_gsm8k_*.jsonl
  evalview export --where 'category=math score<5' --format csv run.zip > low.csv`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "jsonl" && format != "csv" {
				return usageError(stderr, fmt.Errorf("unknown --format %q (want jsonl or csv)", format))
			}
			th, err := thresholdFlag(cmd, threshold)
			if err != nil {
				return usageError(stderr, err)
			}
			holdBatchBudget(args)
			// JSONL rows are written as each dataset is read, then the
			// dataset is dropped; CSV needs every row's columns first.
			var csvRows []exportLine
			openErrs, err := eachDataset(args, common, false, stderr, func(ds *model.Dataset, an artifactNotes) error {
				set := exportSet{ds: ds, notes: an, threshold: th}
				if where != "" {
					rows, err := whereRows(ds, where, set.notes, th)
					if err != nil {
						return usageError(stderr, fmt.Errorf("%s: %w", ds.Path, err))
					}
					set.rows = rows
				}
				return eachExportLine(set, stderr, func(line exportLine) error {
					if format == "csv" {
						csvRows = append(csvRows, line)
						return nil
					}
					return writeJSONL(stdout, line)
				})
			})
			if err != nil {
				return err
			}
			if format == "csv" {
				if err := writeCSV(stdout, csvRows); err != nil {
					return err
				}
			}
			for _, e := range openErrs {
				fmt.Fprintln(stderr, "evalview:", e)
			}
			if len(openErrs) > 0 {
				return exitError{exitOpenFails}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "jsonl", "output format: jsonl or csv")
	cmd.Flags().StringVar(&where, "where", "", "export only the records matching QUERY (the browser's : query language)")
	cmd.Flags().Float64Var(&threshold, "threshold", 0, "run zips: the pass threshold statuses are written at, 0 to 10 (default: the run's scores_map pass_threshold, else 8.5)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"jsonl", "csv"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func writeJSONL(w io.Writer, row exportLine) error {
	b, err := json.Marshal(row)
	if err != nil {
		return err
	}
	// <, > and & as they are (encoding/json escapes them for HTML, which
	// a JSON Lines file is not); lossless: C1 and bidi controls, which
	// encoding/json leaves raw, become \uXXXX escapes.
	_, err = w.Write(append(termsafe.EscapeJSON(plainHTML(b)), '\n'))
	return err
}

// plainHTML turns the \u003c, \u003e and \u0026 escapes encoding/json
// writes for <, > and & back into the characters, inside strings only
// and only where the backslash starts an escape (a string holding the
// six characters \u003c is written \\u003c and stays so). Every
// json.Marshal of the row's parts escapes them, nested MarshalJSON
// methods included, so this one pass over the whole line is simpler
// than an encoder without HTML escaping at every level.
func plainHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			in = !in
		case c == '\\' && in && i+1 < len(b):
			if b[i+1] == 'u' && i+6 <= len(b) {
				switch string(b[i+2 : i+6]) {
				case "003c":
					out = append(out, '<')
					i += 5
					continue
				case "003e":
					out = append(out, '>')
					i += 5
					continue
				case "0026":
					out = append(out, '&')
					i += 5
					continue
				}
			}
			out = append(out, c, b[i+1])
			i++
			continue
		}
		out = append(out, c)
	}
	return out
}

// writeCSV writes rows with one column group per filter and metric seen in
// any row, so that rows of different datasets line up. CSV has no escape:
// every cell shows dangerous characters visibly (termsafe.Visible), as
// the browser does, so that a CSV printed to a terminal cannot act on it.
func writeCSV(w io.Writer, rows []exportLine) error {
	filterMetrics := map[string]map[string]bool{}
	maxAttempts, maxResponses := 0, 0
	withNotes, withPrompt := false, false
	var fields []string // plain records' field names, in first-seen order
	seenField := map[string]bool{}
	for _, r := range rows {
		for _, f := range r.Fields {
			if !seenField[f.Name] {
				seenField[f.Name] = true
				fields = append(fields, f.Name)
			}
		}
		withNotes = withNotes || len(r.NoteLabels) > 0 || r.Note != ""
		for f, ef := range r.Filters {
			if filterMetrics[f] == nil {
				filterMetrics[f] = map[string]bool{}
			}
			for m := range ef.Metrics {
				filterMetrics[f][m] = true
			}
		}
		maxAttempts = max(maxAttempts, len(r.AttemptScores))
		maxResponses = max(maxResponses, len(r.Responses))
		withPrompt = withPrompt || r.Prompt != "" || len(r.Messages) > 0
	}
	filters := sortedKeys(filterMetrics)
	header := []string{"dataset", "kind", "task", "id", "title", "status", "score", "target", "attempts", "errors", "warnings"}
	if withPrompt {
		header = append(header, "prompt")
	}
	for i := 1; i <= maxResponses; i++ {
		header = append(header, "response"+strconv.Itoa(i))
	}
	for _, f := range filters {
		header = append(header, f+":answer", f+":status")
		for _, m := range sortedKeys(filterMetrics[f]) {
			header = append(header, f+":"+m)
		}
	}
	for i := 1; i <= maxAttempts; i++ {
		header = append(header, "attempt"+strconv.Itoa(i)+":score")
	}
	if withNotes {
		header = append(header, "user_labels", "user_note", "note_labels", "note")
	}
	for _, f := range fields {
		header = append(header, "field:"+f)
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(visibleCells(header)); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{r.Dataset, string(r.Kind), r.Task, r.ID, r.Title, r.Status, fptr(r.Score), r.Target,
			strconv.Itoa(r.Attempts), strconv.Itoa(r.Errors), strconv.Itoa(r.Warnings)}
		if withPrompt {
			rec = append(rec, r.PromptText())
		}
		for i := 0; i < maxResponses; i++ {
			if i < len(r.Responses) {
				rec = append(rec, r.Responses[i])
			} else {
				rec = append(rec, "")
			}
		}
		for _, f := range filters {
			ef, ok := r.Filters[f]
			rec = append(rec, ef.Answer, map[bool]string{true: ef.Status, false: ""}[ok])
			for _, m := range sortedKeys(filterMetrics[f]) {
				if v, ok := ef.Metrics[m]; ok {
					rec = append(rec, csvNum(v))
				} else {
					rec = append(rec, "")
				}
			}
		}
		for i := 0; i < maxAttempts; i++ {
			if i < len(r.AttemptScores) {
				rec = append(rec, fptr(r.AttemptScores[i]))
			} else {
				rec = append(rec, "")
			}
		}
		if withNotes {
			labels := strings.Join(r.NoteLabels, "; ")
			rec = append(rec, labels, r.Note, labels, r.Note)
		}
		if len(fields) > 0 {
			byName := make(map[string]string, len(r.Fields))
			for _, f := range r.Fields {
				byName[f.Name] = f.Value
			}
			for _, f := range fields {
				rec = append(rec, byName[f])
			}
		}
		if err := cw.Write(visibleCells(rec)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// visibleCells applies termsafe.Visible to each cell, in place.
func visibleCells(cells []string) []string {
	for i, c := range cells {
		cells[i] = termsafe.Visible(c)
	}
	return cells
}

func fptr(p *float64) string {
	if p == nil {
		return ""
	}
	return csvNum(*p)
}

// csvNum writes a number in full, and NaN and the infinities as Python's
// str() spells them (nan, inf, -inf), which float() and pandas read back.
func csvNum(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return model.FormatFloat(v, 0)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(a, b int) bool { return strings.ToLower(out[a]) < strings.ToLower(out[b]) })
	return out
}

// thresholdFlag is a command's --threshold when it was given (0 is a
// threshold: everything scored passes), nil when not: each run's own.
func thresholdFlag(cmd *cobra.Command, t float64) (*float64, error) {
	if !cmd.Flags().Changed("threshold") {
		return nil, nil
	}
	if !(t >= 0 && t <= runstats.ScoreMax) { // also NaN
		return nil, fmt.Errorf("--threshold %v: want a score from 0 to %v", t, runstats.ScoreMax)
	}
	return &t, nil
}
