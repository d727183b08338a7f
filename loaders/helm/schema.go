package helm

import (
	"encoding/json"
	"fmt"

	"evalview/loaders/jsonl"
	"evalview/loaders/source"
)

// schema is what this package reads of the schema.json helm-summarize
// writes in a suite folder (presentation/schema.py): each run group's
// main metric and split.
type schema struct {
	mains map[string]mainMetric
}

type mainMetric struct {
	name, split string
}

// readSchema reads suite/schema.json; nil when there is none or it
// cannot be read (the main metric is then chosen from stats.json), with
// the error why when it is there.
func readSchema(suite string) (*schema, error) {
	data, err := jsonl.ReadRegular(source.Join(suite, "schema.json"), maxSchema)
	if isNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var raw struct {
		RunGroups []struct {
			Name        string `json:"name"`
			Environment struct {
				MainName  string `json:"main_name"`
				MainSplit string `json:"main_split"`
			} `json:"environment"`
		} `json:"run_groups"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not the JSON helm-summarize writes: %w", err)
	}
	s := &schema{mains: map[string]mainMetric{}}
	for _, g := range raw.RunGroups {
		if g.Environment.MainName != "" {
			s.mains[g.Name] = mainMetric{g.Environment.MainName, g.Environment.MainSplit}
		}
	}
	return s, nil
}

// main is the main metric of the first of groups the schema names one
// for.
func (s *schema) main(groups []string) (mainMetric, bool) {
	if s == nil {
		return mainMetric{}, false
	}
	for _, g := range groups {
		if m, ok := s.mains[g]; ok {
			return m, true
		}
	}
	return mainMetric{}, false
}
