// Package testset loads Prompt Lab pipeline testsets: JSONL files of test
// cases, v1 flat records ({"id", "text", "expected_output"}) and v2 records
// (inputs, step_inputs, batch_items, expected_outputs, expected_aggregation,
// intermediate_expectations, evaluation_config), mixed in one file. Lines
// starting with // are comments. Each file is one dataset; each test case
// one record, whose steps and batch items become table sections.
//
// Bad input never stops a load: every problem becomes a model.Issue, and
// every good record still loads. Issue codes are a contract for scripts.
//
// Dataset issues (no record to attach them to), all errors:
//
//	bad-json          a line, or a pretty-printed span, is not JSON
//	not-object        a line is JSON but not an object
//	no-records        the file holds no test case
//	read-error        the file could not be read to the end
//	lfs-pointer       the file is a Git LFS pointer, not data
//	line-too-long     a line is longer than 128 MB; it is not read
//
// Dataset warnings, once per file:
//
//	bom               the file starts with a UTF-8 byte-order mark (line 1)
//	crlf              Windows line ends, from the line named
//
// Record errors (with the record's line, id and JSON path):
//
//	missing-id        no id, or a null one
//	empty-id          the id is an empty string
//	bad-id            the id is neither a string nor an integer
//	duplicate-id      an earlier record of the file has the same id
//	bad-type          tags, inputs, step_inputs (or one step's inputs),
//	                  batch_items (or one item), expected_outputs,
//	                  intermediate_expectations or evaluation_config has
//	                  the wrong JSON type
//	multiline-record  the record spans several lines (not JSONL)
//	bad-utf8          the record is not valid UTF-8
//
// Record warnings:
//
//	id-not-string     the id is an integer (Prompt Lab accepts it)
//	id-charset        the id has characters outside [A-Za-z0-9_-]
//	empty-tag         a tag is ""
//	duplicate-tag     a tag is repeated
//	duplicate-key     the record, or an object in it, gives a key twice
//	                  (the last value wins, as in encoding/json)
//	number-out-of-range
//	                  a number is beyond float64 (1e400)
//	empty-batch       batch_items is an empty list
//	batch-without-aggregation
//	                  batch_items without expected_aggregation
//	expectation-without-step-inputs
//	                  a step with an intermediate expectation has no
//	                  step_inputs (a hint: the pipeline is not known here)
//	expectation-not-object
//	                  an intermediate expectation is not an object
//	bad-config-value  an evaluation_config value has the wrong type
//	unknown-config-key
//	                  an evaluation_config key the spec does not know
//	v1-key-in-v2      expected_output in a v2 record (not converted)
package testset

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// maxSniffObjects bounds how many records of a head SniffFile looks at.
const maxSniffObjects = 20

// strongKeys are v2 keys no other format uses: one of them makes a record
// a test case.
var strongKeys = []string{keyExpectedOutputs, keyStepInputs, keyBatchItems, keyIntermediate, keyExpectedAgg, keyEvaluationConfig}

// SniffFile scores how likely a file is a testset from its first bytes: 2
// when its records carry testset keys (v2 keys, or expectation keys:
// expected, expected_output, expected_intent, any other expected_*,
// without messages or doc_id), or when it starts with // comment lines; 1
// for records with id and inputs, or under a name containing "testset";
// 0 for other formats' records (lm-eval doc_id+resps, Sample
// messages+references/schema_version).
func SniffFile(name string, head []byte) int {
	score, _ := sniff(name, head)
	return score
}

// SniffPath is SniffFile with the file's folder: Prompt Lab keeps an
// agent's or pipeline's testsets in a testsets/ folder (agents/NAME/
// testsets/case.jsonl, testsets/unit/...), where records of any keys are
// test cases (real ones carry neither id nor an expectation), so JSON
// records there that no other format claims score 2.
func SniffPath(path string, head []byte) int {
	score, foreign := sniff(filepath.Base(path), head)
	if score < 2 && !foreign && inTestsetsFolder(path) {
		if objs, _, ok := headObjects(head); ok && len(objs) > 0 {
			return 2
		}
	}
	return score
}

// inTestsetsFolder reports whether path sits in a folder named testsets,
// or one level below one.
func inTestsetsFolder(path string) bool {
	dir := source.Dir(path)
	for range 2 {
		if strings.EqualFold(filepath.Base(dir), "testsets") {
			return true
		}
		dir = source.Dir(dir)
	}
	return false
}

// sniff scores a head as SniffFile does; foreign tells that its records
// are another format's.
func sniff(name string, head []byte) (score int, foreign bool) {
	if jsonl.IsLFSPointer(head) {
		return 0, true
	}
	objs, comment, ok := headObjects(head)
	if !ok {
		return 0, false
	}
	if comment {
		score = 2
	}
	for _, o := range objs {
		switch {
		case o["doc_id"] && (o["resps"] || o["filtered_resps"] || o["arguments"]):
			return 0, true
		case o["messages"] && (o["references"] || o["schema_version"]):
			return 0, true
		case isTestCase(o):
			score = 2
		case o[keyID] && o[keyInputs] && score < 1:
			score = 1
		}
	}
	if score == 0 && len(objs) > 0 && strings.Contains(strings.ToLower(name), "testset") {
		for _, o := range objs {
			if o[keyID] {
				return 1, false
			}
		}
	}
	return score, false
}

// isTestCase reports whether a record's top-level keys are a test case's.
func isTestCase(o map[string]bool) bool {
	for _, k := range strongKeys {
		if o[k] {
			return true
		}
	}
	if o["messages"] || o["doc_id"] {
		return false
	}
	for k := range o {
		if isExpectationKey(k) {
			return true
		}
	}
	return false
}

// headObjects returns the top-level keys of the objects at the start of a
// file, tolerating a cut last record; comment tells whether the file
// starts with a // comment line. ok is false when the content (comments
// aside) is not a run of JSON objects.
func headObjects(head []byte) (objs []map[string]bool, comment, ok bool) {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	var body bytes.Buffer
	seenContent := false
	for _, ln := range bytes.Split(head, []byte("\n")) {
		t := bytes.TrimSpace(ln)
		if bytes.HasPrefix(t, []byte("//")) {
			if !seenContent {
				comment = true
			}
			continue // comments would stop the decoder
		}
		if len(t) > 0 {
			seenContent = true
		}
		body.Write(ln)
		body.WriteByte('\n')
	}
	dec := json.NewDecoder(&body)
	type frame struct{ object, expectKey bool }
	var stack []frame
	for len(objs) <= maxSniffObjects {
		tok, err := dec.Token()
		if err != nil {
			// io.EOF, or a record cut by the head's end: what was read
			// decides.
			return objs, comment, len(objs) > 0 || (comment && errors.Is(err, io.EOF))
		}
		d, isDelim := tok.(json.Delim)
		if len(stack) == 0 {
			if !isDelim || d != '{' {
				return nil, comment, false
			}
			objs = append(objs, map[string]bool{})
			stack = append(stack, frame{object: true, expectKey: true})
			continue
		}
		top := &stack[len(stack)-1]
		if isDelim && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].expectKey = true
			}
			continue
		}
		if top.object && top.expectKey {
			if len(stack) == 1 {
				key, _ := tok.(string)
				objs[len(objs)-1][key] = true
			}
			top.expectKey = false
			continue
		}
		if isDelim {
			stack = append(stack, frame{object: d == '{', expectKey: d == '{'})
			continue
		}
		if top.object {
			top.expectKey = true
		}
	}
	return objs, comment, true
}

// format is the testset loader as a folder sees it: the .jsonl files of
// the folder and of its subfolders (as in the spec's testsets/unit,
// testsets/integration layout) that sniff as testsets, and deeper, those
// in a testsets/ folder (a Prompt Lab project: agents/NAME/testsets/,
// data/pipelines/NAME/testsets/).
var format = folder.Format{
	Kind:      model.KindTestset,
	What:      "testset .jsonl files",
	Depth:     1,
	Nested:    inTestsetsFolder,
	Sniff:     SniffFile,
	SniffPath: SniffPath,
	OpenFile:  openFile,
	Title:     filepath.Base,
}

// SniffDir scores a folder: 1 when it or one of its subfolders holds a
// .jsonl file that sniffs as a testset.
func SniffDir(dir string, names []string) int {
	return format.SniffDir(dir, names, maxSniffFiles)
}

// maxSniffFiles bounds how many .jsonl files SniffDir reads: detection
// must stay quick on a folder of thousands of other files.
const maxSniffFiles = 50

// Open loads a testset file, or every testset .jsonl file of a folder and
// its subfolders (one dataset each, a file that cannot be read becoming a
// dataset holding only the issue). The files are only read.
func Open(path string) ([]*model.Dataset, error) { return format.Open(path) }

// Each is Open handing each dataset to fn as soon as it is loaded, for
// callers that need one at a time (see loaders.Each).
func Each(path string, fn func(*model.Dataset) error) error { return format.Each(path, fn) }

func openFile(path string) (*model.Dataset, error) {
	f, err := source.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return load(path, f), nil
}
