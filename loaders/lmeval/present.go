package lmeval

import (
	"strconv"

	"evalview/model"
)

// Presentation is how the browser shows an lm-eval samples file: the
// doc's fields in a "Doc" tab beside the filters, the question as the
// title column, text raw (chains of thought and math, where markdown
// marks are arithmetic), and two runs compared by flips.
func Presentation() model.Presentation {
	return model.Presentation{
		ColumnHeads: map[string]string{"title": "question"},
		Tabs: []model.DetailTab{
			{Content: model.TabConversation, Name: "Prompt"}, {Content: model.TabAttempts, Name: "Responses"},
			{Content: model.TabFilterResults, Name: "Filters"}, {Content: model.TabFields, Name: "Doc"},
		},
		RawText:        true,
		CompareByFlips: true,
		IDsPerTask:     true,
		Paths: model.SourcePaths{
			Message:      func(*model.Record, int) string { return ".arguments[0][0]" },
			Attempt:      respPath,
			FilterAnswer: func(*model.Record, string) string { return ".filtered_resps[0]" },
			Field:        func(_ *model.Record, name string) string { return ".doc." + model.PathKey(name) },
		},
	}
}

// ResultsPresentation is how the browser shows a results file without
// samples: one record per task.
func ResultsPresentation() model.Presentation {
	p := Presentation()
	p.ColumnHeads = map[string]string{"title": "task"}
	p.NoMetrics = "metrics reported per task: one record each"
	return p
}

// respPath is the path of attempt pos's text: `.resps[request][repeat]`,
// or `.resps[i][0]` for a loglikelihood request per choice.
func respPath(rec *model.Record, pos int) string {
	a := rec.Attempts[pos]
	req, rep := 0, pos
	if r, ok := factInt(a.Facts, "request"); ok {
		req = r
		if k, ok := factInt(a.Facts, "repeat"); ok {
			rep = k - 1
		}
	} else if len(rec.Options) > 0 && len(rec.Options) == len(rec.Attempts) {
		req, rep = pos, 0 // one loglikelihood request per choice
	}
	return ".resps[" + strconv.Itoa(req) + "][" + strconv.Itoa(rep) + "]"
}

// factInt reads an integer fact.
func factInt(fs []model.Fact, key string) (int, bool) {
	for _, f := range fs {
		if f.Key == key {
			n, err := strconv.Atoi(f.Value)
			return n, err == nil
		}
	}
	return 0, false
}
