package opencompass

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"evalview/loaders/internal/outdir"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// summary is a summarizer's table (summarizers/default.py _format_table):
// dataset, version, metric, mode, then one column per model, each value
// '{:.02f}' or "-".
type summary struct {
	path   string
	models []string
	rows   []summaryRow
}

type summaryRow struct {
	dataset, version, metric, mode string
	// values by model; absent for "-".
	values map[string]float64
	line   int
}

// summaryErr is a summary that could not be read.
type summaryErr struct {
	path string
	err  error
}

// latestSummary reads the work folder's newest summary (summary_<ts>.csv,
// else its .md or .txt), nil when there is none.
func latestSummary(root string) (*summary, *summaryErr) {
	names, err := outdir.Entries(source.Join(root, "summary"))
	if err != nil {
		return nil, nil
	}
	pick := func(ext string) string {
		var fs []string
		for _, n := range names {
			if strings.HasPrefix(n, "summary_") && strings.HasSuffix(n, ext) {
				fs = append(fs, n)
			}
		}
		sort.Strings(fs)
		if len(fs) == 0 {
			return ""
		}
		return fs[len(fs)-1]
	}
	for _, ext := range []string{".csv", ".md", ".txt"} {
		if n := pick(ext); n != "" {
			p := source.Join(root, "summary", n)
			s, err := readSummary(p)
			if err != nil {
				return nil, &summaryErr{p, err}
			}
			return s, nil
		}
	}
	return nil, nil
}

// readSummary reads a summary: its CSV, the markdown table of its .md,
// or the CSV section of its .txt.
func readSummary(path string) (*summary, error) {
	data, err := jsonl.ReadRegular(path, maxSummary)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var table [][]string
	var first int
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md":
		table, first = markdownTable(data)
	default:
		at := bytes.Index(data, []byte("dataset,version,metric,mode"))
		if at < 0 {
			return nil, errors.New("no table headed dataset,version,metric,mode")
		}
		first = 1 + bytes.Count(data[:at], []byte("\n"))
		block := data[at:]
		if end := bytes.Index(block, []byte("\n\n")); end >= 0 {
			block = block[:end]
		}
		r := csv.NewReader(bytes.NewReader(block))
		r.FieldsPerRecord = -1
		table, err = r.ReadAll()
		if err != nil {
			return nil, fmt.Errorf("the summary's CSV: %w", err)
		}
	}
	if len(table) == 0 || len(table[0]) < 4 {
		return nil, errors.New("no table headed dataset,version,metric,mode")
	}
	s := &summary{path: path, models: table[0][4:]}
	for i, row := range table[1:] {
		if len(row) < 4 || strings.Trim(row[0], "-") == "" {
			continue
		}
		sr := summaryRow{dataset: row[0], version: row[1], metric: row[2], mode: row[3], values: map[string]float64{}, line: first + 1 + i}
		for j, m := range s.models {
			if 4+j >= len(row) {
				break
			}
			if f, err := strconv.ParseFloat(strings.TrimSpace(row[4+j]), 64); err == nil {
				sr.values[m] = f
			}
		}
		s.rows = append(s.rows, sr)
	}
	return s, nil
}

// markdownTable reads the first "| a | b |" table of data and the line
// it starts on.
func markdownTable(data []byte) ([][]string, int) {
	var out [][]string
	first := 0
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "|") {
			if len(out) > 0 {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
			continue // the rule under the heading
		}
		if len(out) == 0 {
			first = i + 1
		}
		out = append(out, cells)
	}
	return out, first
}

// forUnit are the summary's values of a model's dataset, by metric.
func (s *summary) forUnit(u *unit) ([]summaryRow, string) {
	col := ""
	for _, m := range s.models {
		if m == u.model && u.judge == "" || u.judge != "" && m == u.model+"_judged-by--"+u.judge {
			col = m
		}
	}
	if col == "" && u.judge != "" {
		for _, m := range s.models {
			if m == u.model {
				col = m
			}
		}
	}
	if col == "" {
		return nil, ""
	}
	var out []summaryRow
	for _, r := range s.rows {
		if r.dataset == u.dataset {
			if _, ok := r.values[col]; ok {
				out = append(out, r)
			}
		}
	}
	return out, col
}

// summaryIssues compares the summary's values of a unit with its results
// file: the summary writes each to two decimals.
func summaryIssues(s *summary, rows []summaryRow, col string, reported []model.Metric) []model.Issue {
	var out []model.Issue
	for _, r := range rows {
		v := r.values[col]
		for _, m := range reported {
			if m.Name != r.metric {
				continue
			}
			if math.Abs(math.Round(m.Value*100)/100-v) > 0.0051 {
				out = append(out, model.Warnf("summary-differs", s.path, r.line, "",
					"%s %s of %s: the summary says %.2f, the results file %.6g (another run's results, or the summary written before a re-evaluation)",
					r.dataset, r.metric, col, v, m.Value))
			}
		}
	}
	return out
}

// summaryOnly are datasets for the summary's rows that no results file
// of the work folder gives: a summary group's average (mmlu over its
// subsets), or a dataset whose results were removed. Each has the
// summary's values and no records.
func summaryOnly(root, stamp string, s *summary, us []*unit) []*model.Dataset {
	have := map[[2]string]bool{}
	for _, u := range us {
		if u.results != "" {
			_, col := s.forUnit(u)
			have[[2]string{col, u.dataset}] = true
		}
	}
	type key struct{ model, dataset string }
	byKey := map[key]*model.Dataset{}
	var order []key
	for _, r := range s.rows {
		for _, m := range s.models {
			v, ok := r.values[m]
			if !ok || have[[2]string{m, r.dataset}] {
				continue
			}
			k := key{m, r.dataset}
			ds := byKey[k]
			if ds == nil {
				ds = summaryDataset(root, stamp, s, m, r)
				byKey[k] = ds
				order = append(order, k)
			}
			ds.Metrics = append(ds.Metrics, model.Metric{Name: r.metric, Value: v})
		}
	}
	out := make([]*model.Dataset, 0, len(order))
	for _, k := range order {
		out = append(out, byKey[k])
	}
	return out
}

// summaryDataset is a summary row's dataset, without records.
func summaryDataset(root, stamp string, s *summary, col string, r summaryRow) *model.Dataset {
	m, judge := splitJudge(col)
	ds := &model.Dataset{Kind: model.KindOpenCompass, Path: s.path, Task: r.dataset, Title: r.dataset + " (summary only)",
		Records: model.NewMemIndex(nil), MainMetric: r.metric}
	ds.Origin = model.Origin{Task: r.dataset, Model: m, Run: outdir.Run(stamp)}
	if judge != "" {
		ds.Origin.Config = []model.Fact{{Key: "judge", Value: judge}}
	}
	ds.Facts = []model.Fact{{Key: "model", Value: m}, {Key: "dataset", Value: r.dataset}, {Key: "run", Value: stamp},
		{Key: "summary", Value: s.path}}
	if r.version != "" && r.version != "-" {
		ds.Facts = append(ds.Facts, model.Fact{Key: "prompt version", Value: r.version})
	}
	if r.mode != "" && r.mode != "-" {
		ds.Facts = append(ds.Facts, model.Fact{Key: "mode", Value: r.mode})
	}
	ds.Issues = append(ds.Issues, model.Notef("summary-only", s.path, r.line, "",
		"%s is in the summary and has no results file in %s: a summary group's average, or results removed since; only its values are shown", r.dataset, root))
	ds.Presentation = presentation("")
	return ds
}

// openSummaryOnly opens a summary file by itself: its values, no records.
func openSummaryOnly(path string) ([]*model.Dataset, error) {
	s, err := readSummary(path)
	if err != nil {
		return nil, err
	}
	root := source.Dir(source.Dir(path))
	return summaryOnly(root, filepath.Base(root), s, nil), nil
}
