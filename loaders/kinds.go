package loaders

import (
	"strings"

	"evalview/model"
)

// Kinds lists the formats the loaders open, in detection order: the one
// list that help texts, completions and messages name, so that a new
// format appears everywhere with its registry line (formats).
func Kinds() []model.Kind {
	fs := formats()
	out := make([]model.Kind, len(fs))
	for i, f := range fs {
		out[i] = f.kind
	}
	return out
}

// KindList names the formats, sep between them and last before the last
// one: KindList(", ", " or ") is "lm-eval, run, sample or testset".
func KindList(sep, last string) string {
	var b strings.Builder
	ks := Kinds()
	for i, k := range ks {
		switch {
		case i == 0:
		case i == len(ks)-1:
			b.WriteString(last)
		default:
			b.WriteString(sep)
		}
		b.WriteString(string(k))
	}
	return b.String()
}

// kindWhat says in a few words what each format is, for help texts and
// messages; a format without an entry fails TestEveryKindIsDescribed.
var kindWhat = map[model.Kind]string{
	model.KindLMEval:      "lm-evaluation-harness --log_samples output (samples_*.jsonl, results_*.json, model and output folders)",
	model.KindRun:         "eval run zips and run folders (manifest.json)",
	model.KindSample:      "standardized Sample JSONL",
	model.KindTestset:     "Prompt Lab pipeline testsets, v1 and v2",
	model.KindInspect:     "Inspect AI logs (.eval, .json, log folders)",
	model.KindLighteval:   "lighteval details and results (details_*.parquet, results_*.json)",
	model.KindEvalScope:   "EvalScope output folders (predictions, reviews, reports)",
	model.KindOpenCompass: "OpenCompass work folders (predictions, results, summary)",
	model.KindHELM:        "HELM run and suite folders (run_spec.json, scenario_state.json, stats.json)",
	model.KindPromptfoo:   "promptfoo eval exports (-o out.json, out.jsonl, out.csv)",
	model.KindJSONL:       "any other JSON Lines, as plain records",
}

// KindWhat says what format k is ("standardized Sample JSONL"); the kind
// itself when nothing is said of it.
func KindWhat(k model.Kind) string {
	if s, ok := kindWhat[k]; ok {
		return s
	}
	return string(k)
}

// KindHelp lists every format, one per line, each indented by indent:
// "lm-eval     lm-evaluation-harness ...", for --help.
func KindHelp(indent string) string {
	w := 0
	for _, k := range Kinds() {
		w = max(w, len(k))
	}
	var b strings.Builder
	for _, k := range Kinds() {
		b.WriteString(indent)
		b.WriteString(string(k))
		b.WriteString(strings.Repeat(" ", w-len(k)+2))
		b.WriteString(KindWhat(k))
		b.WriteByte('\n')
	}
	return b.String()
}
