package inspect

import "evalview/model"

// Presentation is how the browser shows an Inspect log, where the plain
// default is poor: an epoch's score is the scorer's value read as a
// number (C is 1, I is 0), not a weighted score, and the queries worth
// knowing are the sample's error, limit and metadata labels.
func Presentation() model.Presentation {
	return model.Presentation{
		AttemptScore: "score",
		QueryHint:    "errored=yes limit=… metadata.KEY=… status=fail",
	}
}

// Present gives ds the Inspect presentation.
func Present(ds *model.Dataset) { ds.Presentation = Presentation() }
