package model

import "strings"

// Origin says where a dataset's results come from, for the views that
// line datasets up side by side (the overview, `summary --format`): the
// task they are an instance of, the model evaluated, and the run. The
// loader fills it from what the artifact says; OriginOf fills the gaps.
type Origin struct {
	// Task names the task as runs of other models name it (lm-eval
	// "gsm8k", a run zip's source file); "" for a dataset of several
	// tasks (an lm-eval results file alone: see Dataset.Tasks).
	Task string
	// Model is the model evaluated ("meta-llama/Llama-3.1-8B"), "" when
	// the artifact does not say.
	Model string
	// Run tells runs of one model apart: the run's time as the artifact
	// writes it ("2025-09-09T13-31-53.431753", an ISO date), "" when
	// unknown.
	Run string
	// Groups are the groups the task sits under, outermost first
	// (lm-eval group_subtasks: "leaderboard", "leaderboard_bbh").
	Groups []string
	// Note says how the model or run was found where the artifact does
	// not state it ("model named after its folder: no results file names
	// it"), so that the header does not pass a guess off as a fact.
	Note string
	// Config are the settings that make this run a different
	// configuration of the model, as the artifact states them, in the
	// writer's order: lm-eval model_args besides the model itself
	// (revision=step1000, peft=..., steer_path=..., dtype), the chat
	// template, num_fewshot when the run set it for every task,
	// gen_kwargs, a limit; Inspect's model_args, generate config and
	// task_args; lighteval's model config; a promptfoo prompt's label; a
	// checkpoint path. Settings that change how a run ran but not what
	// was evaluated (a batch size, a device, GPU memory, trust_remote_code)
	// are left out. Runs of one Model with equal Config are runs of one
	// column of the overview (each task's cell its latest run); runs
	// that differ here are columns of their own, headed by what differs
	// (model/overview). Keys are the writer's ("revision"), a nested
	// setting's joined with dots ("gen_kwargs.temperature"); values are
	// text as the writer wrote them. Empty: the artifact states none.
	Config []Fact
	// TaskConfig are the settings of Task in this run that are the
	// task's own rather than the run's (lm-eval's n-shot: a task's
	// default when the run did not set it, so tasks of one run differ).
	// They tell columns apart only where one model ran one task with
	// different values (a few-shot sweep): otherwise every run of a
	// model that left each task at its default would split by task.
	TaskConfig []Fact
}

// TaskReport is one task a dataset reports without its samples (an
// lm-eval results file opened alone, whose records are its tasks): its
// metrics as reported, and the record that shows it.
type TaskReport struct {
	Task string
	// Record is the task's record in the dataset.
	Record int
	// Group marks a group's own aggregate (mmlu), whose subtasks are
	// tasks of their own.
	Group bool
	// Groups are the groups the task sits under, outermost first.
	Groups  []string
	Metrics []Metric
	// Config are the task's own settings in this run, as
	// Origin.TaskConfig for a dataset of one task.
	Config []Fact
}

// OriginOf is ds's Origin, its gaps filled: the task from Task (unless
// the dataset reports several), the model from a "model" fact.
func OriginOf(ds *Dataset) Origin {
	o := ds.Origin
	if o.Task == "" && len(ds.Tasks) == 0 {
		o.Task = ds.Task
	}
	if o.Model == "" {
		o.Model = strings.TrimSpace(ds.Fact("model"))
	}
	return o
}

// RunTime shortens a run stamp for people: "2025-09-09T13-31-53.431753"
// reads "2025-09-09 13:31"; a stamp that names its zone keeps it
// ("2025-09-09T13:31:53+00:00" reads "2025-09-09 13:31 UTC", "+08:00"
// stays "+08:00"), so that a time in UTC is not taken for the local time
// a folder's name may give (a run zip's created_at beside its folder
// name); text that is no such stamp is returned as it is.
func RunTime(run string) string {
	if len(run) < 16 || run[4] != '-' || run[7] != '-' || (run[10] != 'T' && run[10] != ' ' && run[10] != '_') {
		return run
	}
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15} {
		if run[i] < '0' || run[i] > '9' {
			return run
		}
	}
	if c := run[13]; c != ':' && c != '-' {
		return run
	}
	return run[:10] + " " + run[11:13] + ":" + run[14:16] + runZone(run[16:])
}

// runZone is the zone a stamp's tail names, as RunTime shows it: " UTC",
// " +08:00", or "" when it names none.
func runZone(tail string) string {
	switch {
	case strings.HasSuffix(tail, "Z"), strings.HasSuffix(tail, "+00:00"):
		return " UTC"
	case len(tail) >= 6 && (tail[len(tail)-6] == '+' || tail[len(tail)-6] == '-') && tail[len(tail)-3] == ':':
		return " " + tail[len(tail)-6:]
	}
	return ""
}

// HeaderFacts are ds's facts with its model and run added where the
// artifact's facts do not name them (a samples file without its results
// file, a Sample file), so that every header names both: the model after
// the task, the run after the model.
func HeaderFacts(ds *Dataset) []Fact {
	o := OriginOf(ds)
	facts := ds.Facts
	if o.Model != "" && ds.Fact("model") == "" {
		v := o.Model
		if o.Note != "" {
			v += " (" + o.Note + ")"
		}
		facts = insertFact(facts, Fact{Key: "model", Value: v}, "task")
	}
	if o.Run != "" && ds.Fact("run") == "" && ds.Fact("run id") == "" {
		facts = insertFact(facts, Fact{Key: "run", Value: RunTime(o.Run)}, "model")
	}
	return facts
}

// insertFact puts f after the fact named after, or first without one.
func insertFact(facts []Fact, f Fact, after string) []Fact {
	at := 0
	for i, x := range facts {
		if x.Key == after {
			at = i + 1
			break
		}
	}
	out := make([]Fact, 0, len(facts)+1)
	out = append(out, facts[:at]...)
	out = append(out, f)
	return append(out, facts[at:]...)
}
