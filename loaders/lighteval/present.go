package lighteval

import "evalview/model"

// Presentation is how the browser shows a lighteval task's details, where
// the plain default is poor: the list shows each row's gold answer
// (target) beside its score; text starts raw, as lm-eval's does (the same
// benchmarks: arithmetic and chains of thought, where `*` and `_` are not
// emphasis); two runs of a task compare by the rows whose right or wrong
// changed, with the 2x2 table, as lm-eval's do.
func Presentation() model.Presentation {
	return model.Presentation{
		Columns:        []string{"id", "title", "target", "score"},
		ColumnHeads:    map[string]string{"title": "query", "target": "gold"},
		ColumnRanks:    map[string]int{"target": 60},
		RawText:        true,
		CompareByFlips: true,
		IDsPerTask:     true,
		QueryHint:      "target=… status=fail score<1",
	}
}

// Present gives ds the lighteval presentation.
func Present(ds *model.Dataset) { ds.Presentation = Presentation() }
