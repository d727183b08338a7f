package main

import (
	"encoding/json"
	"evalview/internal/termsafe"
	"fmt"
	"io"
	"strconv"
	"strings"

	"evalview/model"
	"evalview/model/overview"
	"evalview/tui/text"
)

// summary --format table|markdown|json (issue 17): the overview of the
// datasets as the browser's overview sheet shows it, one row per task,
// one column per model or run, each value followed by its delta against
// a baseline column. The entries are small (a few figures per dataset),
// so a folder of many files is still read one dataset at a time.

// summaryFormats are --format's values; "" is the per-dataset report.
var summaryFormats = []string{"table", "markdown", "json"}

// checkFormat validates --format beside --json.
func checkFormat(format string, asJSON bool) (string, error) {
	if format == "" {
		if asJSON {
			return "json-datasets", nil
		}
		return "", nil
	}
	for _, f := range summaryFormats {
		if f == format {
			if asJSON && f != "json" {
				return "", fmt.Errorf("--json and --format %s: choose one", f)
			}
			return f, nil
		}
	}
	return "", fmt.Errorf("--format %q: want one of %s", format, strings.Join(summaryFormats, ", "))
}

// overviewEntries collects each dataset's overview entry as the command
// reads them.
type overviewEntries []overview.Entry

func (e *overviewEntries) add(ds *model.Dataset) {
	*e = append(*e, overview.EntryOf(len(*e), ds, model.RecomputeMetrics(ds)))
}

// baselineColumn finds --baseline among the columns: a column number
// (from 1), else the one column whose label or model contains the text;
// "" is the first column.
func baselineColumn(t *overview.Table, spec string) (int, error) {
	if spec == "" || len(t.Columns) == 0 {
		return 0, nil
	}
	if n, err := strconv.Atoi(spec); err == nil {
		if n < 1 || n > len(t.Columns) {
			return 0, fmt.Errorf("--baseline %d: there are %d columns", n, len(t.Columns))
		}
		return n - 1, nil
	}
	found := -1
	for i, c := range t.Columns {
		if strings.Contains(c.Label, spec) || strings.Contains(c.Name(), spec) {
			if found >= 0 {
				return 0, fmt.Errorf("--baseline %q: both %s and %s match; give a column number", spec, t.Columns[found].Name(), c.Name())
			}
			found = i
		}
	}
	if found < 0 {
		var names []string
		for i, c := range t.Columns {
			names = append(names, strconv.Itoa(i+1)+" "+c.Name())
		}
		return 0, fmt.Errorf("--baseline %q: no column matches; the columns are %s", spec, strings.Join(names, ", "))
	}
	return found, nil
}

// writeOverview prints the table or the markdown of t against base.
func writeOverview(w io.Writer, format string, t *overview.Table, base int) error {
	g := t.Grid(base)
	if len(g.Rows) == 0 {
		msg := "no tasks"
		if h := hiddenText(t); h != "" {
			msg = "no task has a value; " + h
		}
		_, err := fmt.Fprintln(w, msg)
		return err
	}
	if format == "markdown" {
		return writeMarkdown(w, t, g, base)
	}
	rows := [][]string{g.Head}
	for _, r := range g.Rows {
		rows = append(rows, append([]string{strings.Repeat("  ", r.Depth) + r.Task, r.Metric}, r.Cells...))
	}
	widths := make([]int, len(g.Head))
	for _, r := range rows {
		for c, cell := range r {
			widths[c] = max(widths[c], text.Width(text.OneLine(cell)))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for c, cell := range r {
			cell = text.OneLine(cell)
			if c < 2 {
				b.WriteString(text.Pad(cell, widths[c]))
			} else {
				b.WriteString(text.PadLeft(cell, widths[c]))
			}
			if c < len(r)-1 {
				b.WriteString("  ")
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
	}
	return writeLegend(w, t, g, base, "")
}

// writeMarkdown prints the table for a pull-request comment: the columns
// named in full, then task rows (a group named "(group)", its subtasks
// under it), the values worse than the baseline's in bold: bold means
// that alone, as the legend says.
func writeMarkdown(w io.Writer, t *overview.Table, g overview.Grid, base int) error {
	cell := func(s string) string { return strings.ReplaceAll(text.OneLine(s), "|", `\|`) }
	var b strings.Builder
	head := make([]string, len(g.Head))
	align := []string{"---", "---"}
	for c, h := range g.Head {
		head[c] = cell(h)
		if c >= 2 {
			align = append(align, "---:")
		}
	}
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|" + strings.Join(align, "|") + "|\n")
	for _, r := range g.Rows {
		task := cell(r.Task)
		if r.Group {
			task += " (group)"
		}
		if r.Depth > 0 {
			task = strings.Repeat("↳ ", r.Depth) + task
		}
		cells := []string{task, cell(r.Metric)}
		for c, v := range r.Cells {
			v = cell(v)
			if r.Worse[c] {
				v = "**" + v + "**"
			}
			cells = append(cells, v)
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return writeLegend(w, t, g, base, "- ")
}

// writeLegend names the columns in full and says what the marks of g
// mean.
func writeLegend(w io.Writer, t *overview.Table, g overview.Grid, base int, item string) error {
	var b strings.Builder
	b.WriteString("\n")
	for i, c := range t.Columns {
		what := c.Name()
		if c.Run == "" && c.Runs > 1 {
			what += " (" + strconv.Itoa(c.Runs) + " runs)"
		}
		if c.Note != "" {
			what += "; " + c.Note
		}
		role := ""
		if i == base && len(t.Columns) > 1 {
			role = " (baseline: deltas are against it)"
		}
		b.WriteString(item + text.OneLine(c.Label) + ": " + text.OneLine(what) + ", " + text.Plural(c.Tasks, "task") + role + "\n")
	}
	var all strings.Builder
	for _, r := range g.Rows {
		all.WriteString(strings.Join(r.Cells, " "))
	}
	var marks []string
	for _, m := range []struct{ mark, says string }{
		{"≠", "≠: the samples recompute another value than the one reported (summary --json has both)"},
		{"*", "*: the column has no value for the row's metric and shows its own main one"},
		{"–", "–: no value (not run by that model, or nothing scored)"},
		{" unscored", "N unscored: a dataset of N records none of which is scored (a testset's cases)"},
		{overview.RerunMark, overview.RerunMark + ": the task ran more than once in that column, the latest run's value is shown (--format json lists every run)"},
	} {
		if strings.Contains(all.String(), m.mark) {
			marks = append(marks, m.says)
		}
	}
	if item != "" && len(t.Columns) > 1 {
		marks = append([]string{"bold: worse than the baseline"}, marks...)
	}
	if h := hiddenText(t); h != "" {
		marks = append(marks, h)
	}
	// One mark a line: joined on one line of 200 characters or more, a
	// terminal wrapped the legend and could leave its last "." alone on
	// a line.
	if len(marks) > 0 {
		b.WriteString("\n")
		for _, m := range marks {
			b.WriteString(item + m + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// hiddenText says what Build left out for having no value, "" when
// nothing was.
func hiddenText(t *overview.Table) string {
	var parts []string
	if t.HiddenRows > 0 {
		parts = append(parts, text.Plural(t.HiddenRows, "row"))
	}
	if t.HiddenColumns > 0 {
		parts = append(parts, text.Plural(t.HiddenColumns, "column"))
	}
	var out []string
	if len(parts) > 0 {
		out = append(out, "not shown: "+strings.Join(parts, " and ")+" with no value (--show-empty shows them)")
	}
	if m := t.MergedNote(); m != "" {
		out = append(out, m)
	}
	return strings.Join(out, "; ")
}

// closeWithOverview ends `summary --format json`: the datasets array,
// then the overview.
func (s *reportStream) closeWithOverview(ov overview.JSON) error {
	b, err := json.MarshalIndent(ov, "  ", "  ")
	if err != nil {
		return err
	}
	start := "\n  ]"
	if s.n == 0 {
		start = "{\n  \"datasets\": []"
	}
	_, err = io.WriteString(s.w, start+",\n  \"overview\": "+string(b)+"\n}\n")
	return err
}

// runOverview is `summary --format table|markdown`: the overview alone,
// without the deep check (its figures do not need it).
func runOverview(args []string, common *commonFlags, stdout, stderr io.Writer, format, baseline string, opts overview.Options) error {
	tuneBatchGC(args)
	var entries overviewEntries
	openErrs, err := eachDataset(args, common, false, stderr, func(ds *model.Dataset, _ artifactNotes) error {
		entries.add(ds)
		return nil
	})
	if err != nil {
		return err
	}
	t := overview.Build(entries, opts)
	base, err := baselineColumn(t, baseline)
	if err != nil {
		return usageError(stderr, err)
	}
	if err := writeOverview(termsafe.Writer{W: stdout}, format, t, base); err != nil {
		return err
	}
	return openFailures(stderr, openErrs)
}

// openFailures prints the paths that could not be opened, after the
// output, and gives their exit code.
func openFailures(stderr io.Writer, openErrs []error) error {
	for _, e := range openErrs {
		fmt.Fprintln(stderr, "evalview:", e)
	}
	if len(openErrs) > 0 {
		return exitError{exitOpenFails}
	}
	return nil
}
