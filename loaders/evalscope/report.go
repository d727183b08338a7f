package evalscope

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// report is a dataset's report, in any of its shapes: 0.x's {name,
// metric, score, category: [{name, score, subset: [{name, score}]}],
// total_num}; 0.12 to 1.x's {name, dataset_name, model_name, score,
// metrics: [{name, num, score, categories: [{name: [...], num, score,
// subsets: [{name, score, num}]}]}]}; schema 2's metrics named by an
// identity {name, aggregation, dimensions}.
type report struct {
	path                   string
	modelName, datasetName string
	prettyName             string
	metrics                []repMetric
}

type repMetric struct {
	name  string
	score float64
	num   int
	// key and agg are the per-sample score the metric aggregates and
	// how, when the report says ("mean_acc": acc, mean); "" otherwise.
	key, agg   string
	categories []repCategory
	// legacy marks a 0.x report, whose overall score weighs the
	// subsets' unrounded means (gen_report), where 1.x weighs the
	// rounded ones (Subset rounds its score when it is made).
	legacy bool
}

type repCategory struct {
	name    string
	score   float64
	num     int
	subsets []repSubset
}

type repSubset struct {
	name      string
	score     float64
	num       int
	aggregate bool
}

func readReport(path string) (*report, error) {
	data, err := jsonl.ReadRegular(path, maxReport)
	if err != nil {
		return nil, err
	}
	var raw struct {
		Name        string            `json:"name"`
		DatasetName string            `json:"dataset_name"`
		ModelName   string            `json:"model_name"`
		Pretty      string            `json:"dataset_pretty_name"`
		Score       json.RawMessage   `json:"score"`
		Metric      string            `json:"metric"`
		Metrics     []json.RawMessage `json:"metrics"`
		Category    []struct {
			Name   json.RawMessage `json:"name"`
			Score  json.RawMessage `json:"score"`
			Subset []struct {
				Name  string          `json:"name"`
				Score json.RawMessage `json:"score"`
				Num   int             `json:"num"`
			} `json:"subset"`
		} `json:"category"`
		TotalNum int `json:"total_num"`
	}
	if err := nonfinite.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &raw); err != nil {
		return nil, fmt.Errorf("not an EvalScope report: %w", err)
	}
	r := &report{path: path, modelName: raw.ModelName, datasetName: raw.DatasetName, prettyName: raw.Pretty}
	if r.datasetName == "" {
		r.datasetName = raw.Name
	}
	for _, m := range raw.Metrics {
		if rm, ok := parseMetric(m); ok {
			r.metrics = append(r.metrics, rm)
		}
	}
	if len(raw.Metrics) == 0 && raw.Metric != "" {
		// 0.x: one metric; its aggregation is the adapter's
		// compute_metric, a mean for the (Weighted)AverageAccuracy
		// metrics.
		rm := repMetric{name: raw.Metric, num: raw.TotalNum, legacy: true}
		rm.score, _ = nonfinite.Float(raw.Score)
		if strings.Contains(raw.Metric, "AverageAccuracy") {
			rm.key, rm.agg = "result", "mean"
		}
		for _, c := range raw.Category {
			rc := repCategory{name: nameOf(c.Name)}
			rc.score, _ = nonfinite.Float(c.Score)
			for _, s := range c.Subset {
				sc, _ := nonfinite.Float(s.Score)
				rc.subsets = append(rc.subsets, repSubset{name: s.Name, score: sc, num: s.Num})
			}
			rm.categories = append(rm.categories, rc)
		}
		r.metrics = append(r.metrics, rm)
	}
	return r, nil
}

// parseMetric reads one metric of a 0.12+ report.
func parseMetric(raw json.RawMessage) (repMetric, bool) {
	var m struct {
		Name       string          `json:"name"`
		LegacyName string          `json:"legacy_name"`
		Score      json.RawMessage `json:"score"`
		Num        int             `json:"num"`
		Identity   *struct {
			Name        string                     `json:"name"`
			Aggregation string                     `json:"aggregation"`
			Dimensions  map[string]json.RawMessage `json:"dimensions"`
		} `json:"identity"`
		Categories []struct {
			Name    json.RawMessage `json:"name"`
			Num     int             `json:"num"`
			Score   json.RawMessage `json:"score"`
			Subsets []struct {
				Name        string          `json:"name"`
				Score       json.RawMessage `json:"score"`
				Num         int             `json:"num"`
				IsAggregate bool            `json:"is_aggregate"`
			} `json:"subsets"`
		} `json:"categories"`
	}
	if err := nonfinite.Unmarshal(raw, &m); err != nil {
		return repMetric{}, false
	}
	rm := repMetric{name: m.Name, num: m.Num}
	rm.score, _ = nonfinite.Float(m.Score)
	switch {
	case m.Identity != nil:
		rm.name = m.LegacyName
		if rm.name == "" {
			rm.name = m.Identity.Name + ":" + m.Identity.Aggregation
			if len(m.Identity.Dimensions) > 0 {
				rm.name += "[" + jsonl.Compact(mustJSON(m.Identity.Dimensions)) + "]"
			}
		}
		if m.Identity.Aggregation == "mean" && len(m.Identity.Dimensions) == 0 {
			rm.key, rm.agg = m.Identity.Name, "mean"
		}
	case strings.HasPrefix(m.Name, "mean_"):
		rm.key, rm.agg = strings.TrimPrefix(m.Name, "mean_"), "mean"
	case m.Name == "AverageAccuracy" || m.Name == "WeightedAverageAccuracy":
		// 0.12 to 0.17: the adapters' compute_metric averages the
		// reviews' results.
		rm.key, rm.agg = "result", "mean"
	}
	for _, c := range m.Categories {
		rc := repCategory{name: nameOf(c.Name), num: c.Num}
		rc.score, _ = nonfinite.Float(c.Score)
		for _, s := range c.Subsets {
			sc, _ := nonfinite.Float(s.Score)
			rc.subsets = append(rc.subsets, repSubset{name: s.Name, score: sc, num: s.Num, aggregate: s.IsAggregate})
		}
		rm.categories = append(rm.categories, rc)
	}
	return rm, rm.name != ""
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// nameOf reads a category's name: a string, or a list of strings (its
// path of categories).
func nameOf(raw json.RawMessage) string {
	if s, ok := jsonl.String(raw); ok {
		return s
	}
	if els, ok := jsonl.Array(raw); ok {
		var parts []string
		for _, e := range els {
			parts = append(parts, jsonl.ScalarText(e))
		}
		return strings.Join(parts, "/")
	}
	return jsonl.ScalarText(raw)
}

// subsets are the metric's real subsets (derived "aggregate" subsets
// left out), in the report's order.
func (m repMetric) subsets() []repSubset {
	var out []repSubset
	for _, c := range m.categories {
		for _, s := range c.subsets {
			if !s.aggregate {
				out = append(out, s)
			}
		}
	}
	return out
}

// reported are the report's metrics: each metric's score, and each
// subset's ("<metric>/<subset>") when it has several.
func (r *report) reported() []model.Metric {
	var out []model.Metric
	for _, m := range r.metrics {
		out = append(out, model.Metric{Name: m.name, Value: m.score})
		if ss := m.subsets(); len(ss) > 1 {
			for _, s := range ss {
				out = append(out, model.Metric{Name: m.name + "/" + s.name, Value: s.score})
			}
		}
	}
	return out
}

// round4 is Python's round(x, 4), EvalScope's normalize_score: the
// binary value correctly rounded to four decimals.
func round4(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 4, 64), 64)
	return f
}

// recomputeReport recomputes each metric whose aggregation is known from
// the reviews' values (values[subset] are the per-sample values of the
// metric's key), as EvalScope builds its report: the subset's mean,
// rounded; each category the subsets' mean weighted by their counts,
// rounded; the metric the categories' so too.
func recomputeReport(r *report, values func(key, subset string) []float64) []model.MetricComparison {
	var out []model.MetricComparison
	for _, m := range r.metrics {
		if m.agg != "mean" {
			continue
		}
		var cats []struct {
			score float64
			num   int
		}
		var subs []model.MetricComparison
		total := 0
		complete := true
		for _, c := range m.categories {
			sum, num := 0.0, 0
			for _, s := range c.subsets {
				if s.aggregate {
					continue
				}
				vs := values(m.key, s.name)
				if len(vs) == 0 {
					complete = false
					continue
				}
				mean := 0.0
				for _, v := range vs {
					mean += v
				}
				score := round4(mean / float64(len(vs)))
				subs = append(subs, model.MetricComparison{Name: m.name + "/" + s.name, Samples: score, N: len(vs), HasSamples: true,
					Aggregation: "mean, rounded to 4 decimals", Reported: s.score, HasReport: true})
				if m.legacy {
					score = mean / float64(len(vs))
				}
				sum += score * float64(len(vs))
				num += len(vs)
			}
			if num > 0 {
				cats = append(cats, struct {
					score float64
					num   int
				}{sum / float64(num), num})
				if !m.legacy {
					cats[len(cats)-1].score = round4(cats[len(cats)-1].score)
				}
				total += num
			}
		}
		if complete && total > 0 {
			sum := 0.0
			for _, c := range cats {
				sum += c.score * float64(c.num)
			}
			out = append(out, model.MetricComparison{Name: m.name, Samples: round4(sum / float64(total)), N: total, HasSamples: true,
				Aggregation: "subsets' means weighted by their counts, per category then overall (EvalScope's micro mean), rounded to 4 decimals",
				Reported:    m.score, HasReport: true})
		}
		if len(m.subsets()) > 1 {
			out = append(out, subs...)
		}
	}
	return out
}
