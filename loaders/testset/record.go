package testset

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// Record kinds, the "kind" label. The rule, first match wins, with S = the
// record names at least one step (step_inputs or intermediate_expectations),
// B = batch_items is a non-empty list, A = expected_aggregation is present
// and not null:
//
//	full         S and B and A
//	aggregation  B and A
//	batch        B
//	multi-step   S
//	aggregation  A (an aggregation checked without batch_items, whose items
//	             come from another input, as in Prompt Lab's own examples)
//	simple       otherwise
const (
	KindSimple      = "simple"
	KindMultiStep   = "multi-step"
	KindBatch       = "batch"
	KindAggregation = "aggregation"
	KindFull        = "full"
)

// Format versions, the "version" label. A record is v2 when it has any of
// the v2 keys (inputs, step_inputs, batch_items, expected_outputs,
// expected_aggregation, intermediate_expectations, evaluation_config), v1
// otherwise; id and tags belong to both.
const (
	VersionV1 = "v1"
	VersionV2 = "v2"
)

// Field names of the spec.
const (
	keyID               = "id"
	keyTags             = "tags"
	keyInputs           = "inputs"
	keyStepInputs       = "step_inputs"
	keyBatchItems       = "batch_items"
	keyExpectedOutputs  = "expected_outputs"
	keyExpectedAgg      = "expected_aggregation"
	keyIntermediate     = "intermediate_expectations"
	keyEvaluationConfig = "evaluation_config"
	// keyV1Expected is the v1 expected output, which v2 spells
	// expected_outputs.output.
	keyV1Expected = "expected_output"
)

// v2Keys are the keys whose presence makes a record v2.
var v2Keys = map[string]bool{
	keyInputs: true, keyStepInputs: true, keyBatchItems: true, keyExpectedOutputs: true,
	keyExpectedAgg: true, keyIntermediate: true, keyEvaluationConfig: true,
}

// isReserved reports whether key is one of the spec's fields rather than an
// input (v1) or a custom field (v2).
func isReserved(key string) bool { return key == keyID || key == keyTags || v2Keys[key] }

// v1ExpectationKeys are flat v1 keys that hold expectations. Only
// expected_output is converted (the spec's rule); the others stay inputs,
// as the spec says, but are also listed as references. Real testsets name
// more of them after what they expect (expected_summary,
// expected_entities): see isExpectationKey.
var v1ExpectationKeys = map[string]bool{keyV1Expected: true, "expected": true, "expected_intent": true}

// isExpectationKey reports a flat key that holds an expectation: one of
// v1ExpectationKeys, or any other expected_* key.
func isExpectationKey(k string) bool {
	return v1ExpectationKeys[k] || strings.HasPrefix(k, "expected_")
}

// maxTitle caps list titles: real records carry 47 KB strings (export
// writes the whole title, Record.FullTitle).
const maxTitle = 200

// caseBuilder turns one JSON object of a testset into a record.
type caseBuilder struct {
	file    string
	line    int
	members []jsonl.Member
	// fields are the record's top-level values by key.
	fields map[string]json.RawMessage
	rec    *model.Record
	// idOK is true when the record has a usable id (for the uniqueness
	// check); rec.ID is then that id.
	idOK bool
	// version is VersionV1 or VersionV2.
	version string
	// steps are the step ids in first-seen order; batch counts items.
	steps []string
	batch int
	// objects memoizes the members of top-level objects, which several
	// checks and views walk (records can be hundreds of KB).
	objects map[string][]jsonl.Member
}

// object returns the members of the top-level field key when it is an
// object; ok is false when it is absent or not an object.
func (b *caseBuilder) object(key string) (ms []jsonl.Member, ok bool) {
	if ms, ok := b.objects[key]; ok {
		return ms, true
	}
	v, present := b.fields[key]
	if !present || jsonl.KindOf(v) != jsonl.KindObject {
		return nil, false
	}
	ms = objectMembers(v)
	if b.objects == nil {
		b.objects = map[string][]jsonl.Member{}
	}
	b.objects[key] = ms
	return ms, true
}

// buildCase builds the record of one JSON object found at line (a multi-line
// record starts there and ends at endLine). The keys the object gives twice
// (last argument) are found again, nested ones too, by jsonl.FindOddities.
func buildCase(file string, line, endLine int, raw []byte, members []jsonl.Member, _ []string) (*model.Record, bool) {
	b := &caseBuilder{file: file, line: line, members: members, fields: map[string]json.RawMessage{}, rec: &model.Record{}}
	for _, m := range members {
		b.fields[m.Key] = m.Value
	}
	r := b.rec
	r.Line = line
	b.version = VersionV1
	for _, m := range members {
		if v2Keys[m.Key] {
			b.version = VersionV2
			break
		}
	}
	b.readID()
	label := fmt.Sprintf("line %d", line)
	if endLine > line {
		label = fmt.Sprintf("lines %d-%d", line, endLine)
		b.errorf("multiline-record", "", "record spans lines %d-%d; a testset is JSONL, one record per line, and Prompt Lab's loader rejects it", line, endLine)
	}
	r.Raw = []model.RawPart{{Label: label, File: file, Line: line, JSON: append([]byte(nil), raw...)}}
	// The walk finds top-level and nested duplicate keys alike, and
	// numbers beyond float64.
	for _, od := range jsonl.FindOddities(raw, "$") {
		b.warnf(od.Code, od.Path, "%s", od.Msg)
	}
	b.readTags()
	b.checkTypes()
	if b.version == VersionV1 {
		b.buildV1()
	} else {
		b.buildV2()
	}
	b.steps = b.stepIDs()
	if v, ok := b.fields[keyBatchItems]; ok && jsonl.KindOf(v) == jsonl.KindArray {
		items, _ := parseArray(v)
		b.batch = len(items)
	}
	b.checkLogic()
	b.sections()
	// The list's title is cut; export writes it whole (Record.FullTitle).
	if t := b.title(); utf8.RuneCountInString(t) > maxTitle {
		r.Title, r.FullTitle = oneLine(t, maxTitle), t
	} else {
		r.Title = t
	}
	r.Labels = model.NewLabels(
		"kind", b.kind(),
		"version", b.version,
		"steps", strconv.Itoa(len(b.steps)),
		"batch_items", strconv.Itoa(b.batch),
	)
	r.Status = model.StatusUnscored
	r.Errors, r.Warnings = model.CountIssues(r.Issues)
	return r, b.idOK
}

func (b *caseBuilder) isV2() bool { return b.version == VersionV2 }

// hasAggregation reports whether expected_aggregation is given (not null).
func (b *caseBuilder) hasAggregation() bool {
	v, ok := b.fields[keyExpectedAgg]
	return ok && jsonl.KindOf(v) != jsonl.KindNull
}

// kind applies the kind rule documented on KindSimple and friends.
func (b *caseBuilder) kind() string {
	s, bt, a := len(b.steps) > 0, b.batch > 0, b.hasAggregation()
	switch {
	case s && bt && a:
		return KindFull
	case bt && a:
		return KindAggregation
	case bt:
		return KindBatch
	case s:
		return KindMultiStep
	case a:
		return KindAggregation
	}
	return KindSimple
}

// buildV1 maps a flat record: every key but id, tags and expected_output is
// an input; expected_output becomes expected_outputs.output.
func (b *caseBuilder) buildV1() {
	r := b.rec
	for _, m := range b.members {
		if m.Key == keyID || m.Key == keyTags || m.Key == keyV1Expected {
			continue
		}
		r.Fields = append(r.Fields, field(m))
	}
	for _, m := range b.members {
		if isExpectationKey(m.Key) {
			t, _ := valueText(m.Value)
			r.References = append(r.References, t)
		}
	}
	if v, ok := b.fields[keyV1Expected]; ok {
		r.Target, _ = valueText(v)
	}
}

// buildV2 maps a record with explicit inputs and expectations.
func (b *caseBuilder) buildV2() {
	r := b.rec
	if v, ok := b.fields[keyInputs]; ok {
		if ms, isObj := b.object(keyInputs); isObj {
			for _, m := range ms {
				r.Fields = append(r.Fields, field(m))
			}
		} else {
			r.Fields = append(r.Fields, field(jsonl.Member{Key: keyInputs, Value: v}))
		}
	}
	if ms, ok := b.object(keyExpectedOutputs); ok {
		for _, m := range ms {
			t, _ := valueText(m.Value)
			if len(ms) > 1 {
				t = m.Key + ": " + t
			}
			r.References = append(r.References, t)
			if m.Key == "output" {
				r.Target, _ = valueText(m.Value)
			}
		}
	}
}

// field renders one input.
func field(m jsonl.Member) model.Field {
	t, isJSON := valueText(m.Value)
	return model.Field{Name: m.Key, Value: t, IsJSON: isJSON}
}

// customMembers are a v2 record's keys outside the spec, kept as raw data.
func (b *caseBuilder) customMembers() []jsonl.Member {
	var out []jsonl.Member
	for _, m := range b.members {
		if !isReserved(m.Key) {
			out = append(out, m)
		}
	}
	return out
}
