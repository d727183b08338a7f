// Package sample loads gage-eval standardized Sample JSONL files: one
// Sample object per line (OpenAI-style messages with typed segments,
// options, references and label, few-shot examples, golden trajectories,
// tools, sandbox, params, eval_config, metadata, data_tag, raw_assets,
// unconditioned_input) and the runtime results written back into it
// (predict_result, eval_result). Each file becomes one dataset; a folder
// of such files becomes one dataset per file.
//
// Real files drift from the spec (see the shared FORMATS notes): a missing
// schema_version, id or references is a warning, not a rejection; int
// labels index the options; lines may be double-encoded JSON strings;
// legacy records keep their ground truth in choices[].message or a
// trailing assistant turn. Such records load, with a warning that says
// what was read how.
//
// Issue codes (stable; scripts may match on them):
//
//	bad-json              error    a line is not valid JSON (dataset issue)
//	not-object            error    a line holds JSON that is not an object (dataset issue)
//	lfs-pointer           error    the file is a Git LFS pointer (dataset issue)
//	read-error            error    a file of a folder cannot be read, or reading stopped
//	                               part way (dataset issue)
//	empty-file            warning  the file holds no records (dataset issue)
//	line-too-long         error    a line is longer than 128 MB; it is not read (dataset issue)
//	bom                   warning  the file starts with a UTF-8 byte-order mark (dataset issue)
//	crlf                  warning  the file has Windows line ends, from the line named
//	                               (dataset issue, once per file)
//	duplicate-key         warning  an object of the record gives a key twice; the last
//	                               value wins, as in encoding/json and Python
//	number-out-of-range   warning  a number is beyond float64 (1e400); it is not used as
//	                               a number
//	duplicate-id          error    an id repeats an earlier record of the file
//	missing-field         error    messages, a role, a tool message's tool_call_id, a text
//	                               segment's text, a few-shot example's messages, or a
//	                               tool call's function name is missing
//	missing-field         warning  schema_version, id, references, a message's content, a
//	                               segment's type, a tool call's id is missing
//	bad-type              error/warning  a field has the wrong JSON type (error when the
//	                               value cannot be shown at all)
//	unknown-role          warning  a message role other than system, user, assistant,
//	                               tool, developer, function
//	unknown-segment-type  warning  a content segment type the spec does not define
//	missing-url           error    a media segment has no url
//	missing-media         warning  a local media file is not there
//	bad-arguments         warning  tool call arguments are not valid JSON
//	unknown-tool-call     error    a tool message answers a call id no earlier assistant
//	                               message made
//	bad-option            error    an option lacks its id or content (warning for a bare
//	                               string option)
//	duplicate-option-id   error    two options share an id
//	bad-reference         warning  a reference object has no answer
//	label-mismatch        warning  label differs from references[0], even normalized
//	nested-few-shot       error    a few-shot example holds few_shot_examples
//	few-shot-runtime-field warning a few-shot example holds predict_result, eval_result,
//	                               raw_assets or sandbox
//	deprecated-field      warning  model_prompt_tmpl or model_prompt_placeholder
//	double-encoded        warning  the line was a JSON string holding the object
//	legacy-mapped         warning  a legacy field was read in place of a spec field
//	                               (choices, trailing assistant turn, answer,
//	                               question_type, prompt/question/text)
package sample

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/internal/jsonhead"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// maxSniffed caps how many files SniffDir reads in a big folder.
const maxSniffed = 50

// strongKeys are the top-level fields that, beside messages, mark a
// Sample rather than any chat JSONL.
var strongKeys = []string{"references", "schema_version", "predict_result", "eval_result", "few_shot_examples", "label", "options"}

// otherFormatKeys mark records of other formats: lm-eval rows and Prompt
// Lab testset records.
var otherFormatKeys = []string{"expected_outputs", "step_inputs", "batch_items"}

// SniffFile scores a file from its first bytes: 2 when its first record is
// a Sample object (messages plus references, schema_version, label,
// options, few_shot_examples, predict_result or eval_result, or the legacy
// choices), plain or double-encoded; 1 for a first line too long to parse
// whose keys before the cut are messages and nothing of another tool's;
// 0 otherwise, other chat JSONL (messages alone), lm-eval rows and
// testset records included. The name does not matter: users rename files.
// Lines that are not JSON (a comment, a broken line) are skipped, up to a
// few.
func SniffFile(name string, head []byte) int {
	head = bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF})
	for tries := 0; len(head) > 0 && tries < 5; {
		line := head
		cut := true // the line may run past the end of head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head, cut = head[:i], head[i+1:], false
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		tries++
		if o, ok := lineObject(line); ok {
			return scoreKeys(o)
		}
		if cut {
			return sniffCut(line)
		}
	}
	return 0
}

// lineObject parses a line as a JSON object, plain or double-encoded.
func lineObject(line []byte) (jsonl.Object, bool) {
	if jsonl.KindOf(line) == jsonl.KindString {
		if !json.Valid(line) {
			return jsonl.Object{}, false
		}
		s, _ := jsonl.String(line)
		return validObject(bytes.TrimSpace([]byte(s)))
	}
	return validObject(line)
}

// validObject parses b as an object after checking it is valid JSON.
func validObject(b []byte) (jsonl.Object, bool) {
	if q, n := jsonl.QuoteNonFinite(b); n > 0 && json.Valid(q) {
		b = q // Python's NaN and Infinity
	}
	if jsonl.KindOf(b) != jsonl.KindObject || !json.Valid(b) {
		return jsonl.Object{}, false
	}
	return jsonl.ParseObject(b)
}

// scoreKeys scores a parsed first record by its top-level keys: a
// Sample has messages and one of the fields that make it one (strongKeys),
// or the legacy top-level choices (gage's older files kept the answer in
// choices[].message). Messages alone are any chat log's: EvalScope's
// predictions and reviews have them, with the model's own answer last,
// which a Sample would read as its reference.
func scoreKeys(o jsonl.Object) int {
	if o.Has("doc_id") && o.Has("resps") {
		return 0
	}
	for _, k := range otherFormatKeys {
		if o.Has(k) {
			return 0
		}
	}
	if !o.Has("messages") {
		return 0
	}
	for _, k := range strongKeys {
		if o.Has(k) {
			return 2
		}
	}
	if v, ok := o.Get("choices"); ok && jsonl.KindOf(v) == jsonl.KindArray {
		return 2
	}
	return 0
}

// sniffCut reads a first line too long for the head by the top-level
// keys before the cut: 2 with messages and a field that makes a Sample,
// 1 ("maybe") with messages alone and nothing of another tool's, the
// rest being past the cut.
func sniffCut(line []byte) int {
	if jsonl.KindOf(line) == jsonl.KindString {
		line = bytes.ReplaceAll(line, []byte(`\"`), []byte(`"`)) // double-encoded
		line = bytes.TrimPrefix(line, []byte(`"`))
	}
	v := jsonhead.Parse(line, 0)
	if !v.Is(jsonhead.Object) || v.Has("doc_id") || !v.Has("messages") || v.Count(otherFormatKeys...) > 0 {
		return 0
	}
	if v.Count(strongKeys...) > 0 {
		return 2
	}
	if v.Count(foreignKeys...) > 0 {
		return 0
	}
	return 1
}

// foreignKeys are other tools' fields beside messages (EvalScope's
// predictions and reviews: index, model_output, sample_score,
// agent_trace).
var foreignKeys = []string{"index", "model_output", "sample_score", "agent_trace"}

// format is the Sample loader as a folder sees it: the folder's own
// .jsonl files (not its subfolders) that sniff as Samples.
var format = folder.Format{
	Kind:     model.KindSample,
	What:     "Sample JSONL files",
	Sniff:    SniffFile,
	OpenFile: openFile,
	Title:    datasetName,
}

// SniffDir scores a folder: 1 when one of its .jsonl files holds Samples.
func SniffDir(dir string, names []string) int {
	return format.SniffDir(dir, names, maxSniffed)
}

// Open loads a Sample JSONL file, or every Sample JSONL file of a folder
// (not its subfolders), in name order. Problems inside files become
// issues; only a path that cannot be read at all is an error.
func Open(path string) ([]*model.Dataset, error) { return format.Open(path) }

// Each is Open handing each dataset to fn as soon as it is loaded, for
// callers that need one at a time (see loaders.Each).
func Each(path string, fn func(*model.Dataset) error) error { return format.Each(path, fn) }

// datasetName names a file's dataset: its base name without extension.
func datasetName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}
