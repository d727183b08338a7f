package helm

import "evalview/model"

// Presentation is how the browser shows a HELM run: the list shows each
// instance's correct reference beside its score; text starts raw (HELM's
// prompts are the plain text sent to the model, where `*` and `_` are
// not emphasis); two runs of a scenario compare by the instances whose
// right or wrong changed; instance ids are the scenario's own, so two
// runs pair record by record only within a scenario; the judges'
// annotations have a tab after the responses.
func Presentation() model.Presentation {
	return model.Presentation{
		Columns:        []string{"id", "title", "target", "score"},
		ColumnHeads:    map[string]string{"title": "input", "target": "correct"},
		ColumnRanks:    map[string]int{"target": 60},
		RawText:        true,
		CompareByFlips: true,
		IDsPerTask:     true,
		QueryHint:      "perturbation=… split=test status=fail score<1",
		Tabs: []model.DetailTab{
			model.DefaultTabs[0], model.DefaultTabs[1], {Content: model.TabSections, Name: "Scores"},
			{Content: model.TabSections, Name: "Judge"}, model.DefaultTabs[3],
		},
	}
}
