package sample

import (
	"fmt"
	"strconv"
	"strings"

	"evalview/model"
)

// stats gathers the dataset's header facts while the file is indexed.
type stats struct {
	records     int
	versions    counter
	taskTypes   counter
	predictions int
	status      [4]int // by model.Status
	scored      int
	scoreSum    float64
	doubled     int
	legacy      int
}

// counter counts values in first-seen order.
type counter struct {
	order []string
	n     map[string]int
}

func (c *counter) add(v string) {
	if c.n == nil {
		c.n = map[string]int{}
	}
	if _, ok := c.n[v]; !ok {
		c.order = append(c.order, v)
	}
	c.n[v]++
}

// String lists the values with their counts: "agent (2), dialogue (1)".
func (c *counter) String() string {
	parts := make([]string, len(c.order))
	for i, v := range c.order {
		parts[i] = v + " (" + strconv.Itoa(c.n[v]) + ")"
	}
	return strings.Join(parts, ", ")
}

func newStats() *stats { return &stats{} }

// add counts one record.
func (s *stats) add(r *model.Record) {
	s.records++
	version := "(missing)"
	for _, f := range r.Fields {
		if f.Name == "schema_version" {
			version = f.Value
			break
		}
	}
	s.versions.add(version)
	if t := r.Labels.Get("task_type"); t != "" {
		s.taskTypes.add(t)
	}
	s.predictions += len(r.Attempts)
	if int(r.Status) < len(s.status) {
		s.status[r.Status]++
	}
	if r.HasScore {
		s.scored++
		s.scoreSum += r.Score
	}
	doubled, legacy := false, false
	for _, is := range r.Issues {
		doubled = doubled || is.Code == "double-encoded"
		legacy = legacy || is.Code == "legacy-mapped"
	}
	if doubled {
		s.doubled++
	}
	if legacy {
		s.legacy++
	}
}

// facts are the dataset's header facts, most useful first.
func (s *stats) facts() []model.Fact {
	f := []model.Fact{{Key: "records", Value: strconv.Itoa(s.records)}}
	if s.records == 0 {
		return f
	}
	if len(s.versions.order) == 1 {
		f = append(f, model.Fact{Key: "schema version", Value: s.versions.order[0]})
	} else {
		f = append(f, model.Fact{Key: "schema versions", Value: s.versions.String()})
	}
	if len(s.taskTypes.order) > 0 {
		f = append(f, model.Fact{Key: "task types", Value: s.taskTypes.String()})
	}
	if s.predictions > 0 {
		f = append(f, model.Fact{Key: "predictions", Value: strconv.Itoa(s.predictions)})
	}
	pass, fail, errs := s.status[model.StatusPass], s.status[model.StatusFail], s.status[model.StatusError]
	if pass+fail > 0 {
		f = append(f, model.Fact{Key: "judged", Value: fmt.Sprintf("%d: %d pass, %d fail (%.1f%% pass)",
			pass+fail, pass, fail, 100*float64(pass)/float64(pass+fail))})
	}
	if errs > 0 {
		f = append(f, model.Fact{Key: "errored", Value: strconv.Itoa(errs)})
	}
	if s.scored > 0 {
		f = append(f, model.Fact{Key: "mean score", Value: fmt.Sprintf("%.4g over %d", s.scoreSum/float64(s.scored), s.scored)})
	}
	if s.doubled > 0 {
		f = append(f, model.Fact{Key: "double-encoded lines", Value: strconv.Itoa(s.doubled)})
	}
	if s.legacy > 0 {
		f = append(f, model.Fact{Key: "legacy records", Value: strconv.Itoa(s.legacy)})
	}
	return f
}
