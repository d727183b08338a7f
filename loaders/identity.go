package loaders

import (
	"evalview/loaders/internal/intern"
	"fmt"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/internal/jsonhead"
	"evalview/model"
)

// A format claims a file only on positive evidence of its own structure
// (each format's sniffer). What none claims opens as plain records, with
// a note saying which format it came closest to and what it lacked:
// nearest reads that from the file's first bytes, for the note and for
// the reason a folder's file is left out.

// nearest says which format a file no format claims came closest to, and
// what it lacked, from its first bytes.
func nearest(name string, head []byte) string {
	v := jsonhead.Parse(head, 2)
	switch {
	case v == nil:
		return "not JSON"
	case v.Bad:
		return "not valid JSON"
	}
	rec := v // the first record: the top object, or an array's first element
	if v.Is(jsonhead.Array) {
		if len(v.Elems) == 0 {
			return "a JSON array with no element"
		}
		rec = v.Elems[0]
	}
	res := v.Get("results")
	switch {
	case v.Has("eval") || res != nil && v.Count("version", "status", "plan", "stats", "samples") >= 2:
		ev := v.Get("eval")
		var miss []string
		for _, k := range []string{"task", "model"} {
			if !ev.Has(k) {
				miss = append(miss, "eval."+k)
			}
		}
		if !ev.Is(jsonhead.Object) {
			miss = []string{"an \"eval\" object (task, model)"}
		}
		if v.Count("version", "status", "plan", "results", "stats") == 0 {
			miss = append(miss, "version, status, plan, results or stats beside it")
		}
		return "closest: inspect (a log's header), but it lacks " + strings.Join(miss, " and ")
	case v.Has("config_general"):
		return "closest: lighteval (results), but it has no \"results\" object of tasks"
	case res != nil:
		return "closest: lm-eval (results), but its \"results\" is not tasks' metrics (task → metric → value)"
	case rec.Has("doc_id") || rec.Count("resps", "filtered_resps", "arguments") > 0:
		return "closest: lm-eval (samples), but a row lacks doc_id with resps or arguments"
	case rec.Has("messages"):
		return "closest: sample, but its records have messages without schema_version, references, label, options, few_shot_examples, predict_result or eval_result"
	case rec.Count("expected_outputs", "step_inputs", "batch_items") > 0:
		return "closest: testset, but its records are not Prompt Lab test cases"
	case rec.Has("run_id"):
		return "closest: run, but a run's manifest.json or generation_summary.json is named so, in its run folder"
	}
	if rec.Is(jsonhead.Object) && len(rec.Keys) > 0 {
		return "no format came close: its fields are " + keyList(rec.Keys)
	}
	return "no format came close"
}

// keyList names keys, at most six of them.
func keyList(keys []string) string {
	if len(keys) <= 6 {
		return strings.Join(keys, ", ")
	}
	return strings.Join(keys[:6], ", ") + fmt.Sprintf(" and %d more", len(keys)-6)
}

// noteFallback notes that no format recognised the dataset's file, which
// opens as plain records: which format it came closest to and what it
// lacked (near, from nearest), and the way to read it as a format.
func noteFallback(ds *model.Dataset, near string) {
	var names []string
	for _, f := range formats() {
		if !f.fallback {
			names = append(names, string(f.kind))
		}
	}
	if near != "" {
		near = " (" + near + ")"
	}
	msg := fmt.Sprintf("no format recognised this file%s; it is shown as plain JSON records, every field listed: --as %s reads it as one of them, --as %s as plain records without this note",
		near, strings.Join(names, "|"), ds.Kind)
	// Not Notef: its Sprintf would copy the interned text again.
	ds.Issues = append(ds.Issues, model.Issue{Severity: model.SeverityNote, Code: "no-format", File: ds.Path, Message: fallbackNotes.Of(msg)})
}

// fallbackNotes keeps one copy of each fallback note's text: a folder of
// 200,000 files of one shape says the same 300 bytes 200,000 times.
var fallbackNotes intern.Table

// nearestOf is nearest for a file read again (a file named alone).
func nearestOf(path string) string {
	head, err := folder.ReadHead(path)
	if err != nil {
		return ""
	}
	return nearest("", head)
}
