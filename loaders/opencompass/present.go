package opencompass

import "evalview/model"

// presentation is how the browser shows an OpenCompass dataset: the list
// shows each record's gold answer beside its correctness (the details'
// name for it heads the score column, where the header leads with the
// reported accuracy); text starts raw, as lm-eval's does (the same
// benchmarks: arithmetic and chains of thought); two runs compare by
// the records whose right or wrong changed; the evaluator's details and
// a PPL record's scores have their own tab.
func presentation(rowMetric string) model.Presentation {
	p := model.Presentation{
		Columns:        []string{"id", "title", "target", "score"},
		ColumnHeads:    map[string]string{"title": "prompt", "target": "gold"},
		ColumnRanks:    map[string]int{"target": 60},
		RawText:        true,
		CompareByFlips: true,
		IDsPerTask:     true,
		QueryHint:      "target=… status=fail",
		Tabs: []model.DetailTab{
			model.DefaultTabs[0], model.DefaultTabs[1], {Content: model.TabSections, Name: evalTab},
			model.DefaultTabs[3],
		},
		NoMetrics: "no results file: the predictions were not evaluated",
	}
	if rowMetric != "" {
		p.ColumnHeads["score"] = rowMetric
	}
	return p
}
