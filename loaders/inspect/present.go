package inspect

import "evalview/model"

// Presentation is how the browser shows an Inspect log, where the plain
// default is poor: an epoch's score is the scorer's value read as a
// number (C is 1, I is 0), not a weighted score; the queries worth
// knowing are the sample's error, limit and metadata labels; and each
// epoch's conversation (its messages with tool calls, as Inspect's
// viewer shows them) has a tab after the answers.
func Presentation() model.Presentation {
	return model.Presentation{
		AttemptScore: "score",
		QueryHint:    "errored=yes limit=… metadata.KEY=… status=fail",
		IDsPerTask:   true,
		// Each epoch's conversation follows its answer (Responses).
		Tabs: []model.DetailTab{
			model.DefaultTabs[0], model.DefaultTabs[1], {Content: model.TabSections, Name: messagesTab},
			model.DefaultTabs[2], model.DefaultTabs[3],
		},
	}
}

// messagesTab is the detail tab of the epochs' conversations.
const messagesTab = "Messages"

// Present gives ds the Inspect presentation.
func Present(ds *model.Dataset) { ds.Presentation = Presentation() }
