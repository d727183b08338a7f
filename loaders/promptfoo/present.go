package promptfoo

import "evalview/model"

// Presentation is how the browser shows a promptfoo column: each test's
// description and vars in the list, its score beside the writer's pass
// or fail; the assertions' verdicts have a tab after the response;
// markdown is rendered (promptfoo's outputs are prose and chat). Test
// indexes are the eval's own, so two columns pair test by test only
// within an eval: IDsPerTask.
func Presentation() model.Presentation {
	return model.Presentation{
		Columns:      []string{"id", "title", "score"},
		ColumnHeads:  map[string]string{"title": "test"},
		AttemptScore: "score",
		IDsPerTask:   true,
		QueryHint:    "status=fail provider=… prompt=… score<1",
		Tabs: []model.DetailTab{
			model.DefaultTabs[0], model.DefaultTabs[1], {Content: model.TabSections, Name: "Assertions"}, model.DefaultTabs[3],
		},
	}
}
