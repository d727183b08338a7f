package lmeval

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"evalview/loaders/source"
	"evalview/model"
)

// origin says which task, model and run a samples file of the run r (nil
// without a results file) is. The model is the one the results file
// names; without one, the harness's output layout names it:
// OUTPUT/<model_name_sanitized>/samples_<task>_<stamp>.jsonl, where the
// harness wrote "/" as "__" (sanitize_model_name), which is turned back
// and said in the note.
func origin(samplesPath, task string, r *results) model.Origin {
	o := model.Origin{Task: task, Run: stampOf(filepath.Base(samplesPath))}
	if r != nil {
		o.Model = r.model()
		o.Groups = r.parents(task)
		o.Config = r.Config
		o.TaskConfig = r.taskConfig(task)
		if o.Run == "" {
			o.Run = r.Stamp
		}
		if o.Run == "" && !r.Date.IsZero() {
			// A results file renamed by hand keeps its run's start in
			// "date" (UTC), which tells its runs apart and orders them.
			o.Run = r.Date.Format("2006-01-02T15:04:05Z")
		}
	}
	if o.Model == "" {
		if dir := filepath.Base(source.Dir(samplesPath)); dir != "." && dir != string(filepath.Separator) {
			o.Model = strings.ReplaceAll(dir, "__", "/")
			o.Note = "model named after its folder (" + dir + "): no results file names it"
		}
	}
	return o
}

// model is the model the results file names ("model" fact), "" for none.
func (r *results) model() string {
	for _, f := range r.Facts {
		if f.Key == "model" {
			return f.Value
		}
	}
	return ""
}

// groupTree is group_subtasks read once for every samples file of the
// run: each task's group, and each group's leaves (groupsOf asks, for
// every samples file, which groups hold its task).
type groupTree struct {
	once   sync.Once
	up     map[string]string
	leaves map[string]map[string]bool
}

// groups reads group_subtasks into the tree, once.
func (r *results) groups() *groupTree {
	t := &r.tree
	t.once.Do(func() {
		t.up, t.leaves = map[string]string{}, map[string]map[string]bool{}
		for _, g := range slices.Sorted(maps.Keys(r.Subtasks)) {
			for _, c := range r.Subtasks[g] {
				if _, ok := t.up[c]; !ok && c != g {
					t.up[c] = g
				}
			}
			t.leaves[g] = map[string]bool{}
			for _, l := range r.leaves(g, map[string]bool{}) {
				t.leaves[g][l] = true
			}
		}
	})
	return t
}

// parents lists the groups task sits under in group_subtasks, outermost
// first: each group's first parent in name order, so that a task listed
// under two groups gets one path, the same every time.
func (r *results) parents(task string) []string {
	if len(r.Subtasks) == 0 {
		return nil
	}
	up := r.groups().up
	var out []string
	seen := map[string]bool{task: true}
	for p, ok := up[task]; ok && !seen[p]; p, ok = up[p] {
		seen[p] = true
		out = append(out, p)
	}
	slices.Reverse(out)
	return out
}

// taskReports lists what a results file alone reports, one entry per
// record resultsDataset made (tasks, then groups), for the overview.
func (r *results) taskReports(recs []*model.Record) []model.TaskReport {
	out := make([]model.TaskReport, 0, len(recs))
	for i, rec := range recs {
		t := rec.ID
		out = append(out, model.TaskReport{
			Task: t, Record: i, Group: rec.Labels.Get("type") == "group",
			Groups: r.parents(t), Metrics: r.Metrics[t], Config: r.taskConfig(t),
		})
	}
	return out
}
