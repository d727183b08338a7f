package testset

import (
	"fmt"
	"strconv"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// issue records a problem of the record at a JSON path.
func (b *caseBuilder) issue(sev model.Severity, code, path, format string, args ...any) {
	b.rec.Issues = append(b.rec.Issues, model.Issue{
		Severity: sev, Code: code, Message: fmt.Sprintf(format, args...),
		File: b.file, Line: b.line, Record: b.rec.ID, Path: path,
	})
}

// errorf records an error of the record.
func (b *caseBuilder) errorf(code, path, format string, args ...any) {
	b.issue(model.SeverityError, code, path, format, args...)
}

// warnf records a warning of the record.
func (b *caseBuilder) warnf(code, path, format string, args ...any) {
	b.issue(model.SeverityWarning, code, path, format, args...)
}

// readID sets the record's ID. Records without a usable id are listed as
// "line N" so that they can still be browsed.
func (b *caseBuilder) readID() {
	r := b.rec
	r.ID = fmt.Sprintf("line %d", b.line)
	raw, ok := b.fields[keyID]
	if !ok || jsonl.KindOf(raw) == jsonl.KindNull {
		b.errorf("missing-id", "$.id", "record has no id")
		return
	}
	switch jsonl.KindOf(raw) {
	case jsonl.KindString:
		s, _ := jsonl.String(raw)
		if strings.TrimSpace(s) == "" {
			b.errorf("empty-id", "$.id", "id is empty")
			return
		}
		r.ID, b.idOK = s, true
		if bad := badIDRunes(s); bad != "" {
			b.warnf("id-charset", "$.id", "id has characters outside the recommended letters, digits, \"_\" and \"-\": %s", bad)
		}
	case jsonl.KindNumber:
		lit := strings.TrimSpace(string(raw))
		if strings.ContainsAny(lit, ".eE") {
			b.errorf("bad-id", "$.id", "id is the number %s; it must be a string", lit)
			return
		}
		// Prompt Lab accepts integer ids (real testsets have them), the
		// spec asks for strings.
		r.ID, b.idOK = lit, true
		b.warnf("id-not-string", "$.id", "id is the number %s; the spec asks for a string", lit)
	default:
		b.errorf("bad-id", "$.id", "id is %s; it must be a string", jsonl.KindOf(raw))
	}
}

// badIDRunes lists, quoted, the distinct characters of id outside the
// recommended alphabet (letters, digits, "_", "-"), or "".
func badIDRunes(id string) string {
	var bad []string
	seen := map[rune]bool{}
	for _, c := range id {
		ok := c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		if !ok && !seen[c] {
			seen[c] = true
			bad = append(bad, strconv.Quote(string(c)))
		}
	}
	return strings.Join(bad, " ")
}

// readTags fills the record's tags and checks them. A single string is
// kept as one tag, as Prompt Lab's loader does, but is still an error.
func (b *caseBuilder) readTags() {
	raw, ok := b.fields[keyTags]
	if !ok {
		return
	}
	switch jsonl.KindOf(raw) {
	case jsonl.KindArray:
	case jsonl.KindString:
		s, _ := jsonl.String(raw)
		b.rec.Tags = []string{s}
		b.errorf("bad-type", "$.tags", "tags must be a list of strings, not a string")
		return
	default:
		b.errorf("bad-type", "$.tags", "tags must be a list of strings, not %s", jsonl.KindOf(raw))
		return
	}
	items, _ := parseArray(raw)
	seen := map[string]bool{}
	for i, it := range items {
		p := indexPath("$.tags", i)
		s, isStr := jsonl.String(it)
		switch {
		case !isStr:
			b.errorf("bad-type", p, "tag must be a string, not %s", jsonl.KindOf(it))
		case s == "":
			b.warnf("empty-tag", p, "tag is empty")
		case seen[s]:
			b.warnf("duplicate-tag", p, "tag %q is given more than once", s)
		default:
			seen[s] = true
			b.rec.Tags = append(b.rec.Tags, s)
		}
	}
}

// checkTypes checks the spec's type rules on the fields that are present.
func (b *caseBuilder) checkTypes() {
	for _, key := range []string{keyInputs, keyExpectedOutputs, keyIntermediate, keyEvaluationConfig} {
		if raw, ok := b.fields[key]; ok && jsonl.KindOf(raw) != jsonl.KindObject {
			b.errorf("bad-type", keyPath("$", key), "%s must be an object, not %s", key, jsonl.KindOf(raw))
		}
	}
	if raw, ok := b.fields[keyStepInputs]; ok {
		if jsonl.KindOf(raw) != jsonl.KindObject {
			b.errorf("bad-type", "$.step_inputs", "step_inputs must be an object of objects, not %s", jsonl.KindOf(raw))
		} else {
			ms, _ := b.object(keyStepInputs)
			for _, m := range ms {
				if jsonl.KindOf(m.Value) != jsonl.KindObject {
					b.errorf("bad-type", keyPath("$.step_inputs", m.Key), "step_inputs of step %q must be an object, not %s", m.Key, jsonl.KindOf(m.Value))
				}
			}
		}
	}
	if raw, ok := b.fields[keyBatchItems]; ok {
		switch jsonl.KindOf(raw) {
		case jsonl.KindNull: // the spec's default
		case jsonl.KindArray:
			items, _ := parseArray(raw)
			if len(items) == 0 {
				b.warnf("empty-batch", "$.batch_items", "batch_items is empty; Prompt Lab treats the case as having no batch")
			}
			for i, it := range items {
				if jsonl.KindOf(it) != jsonl.KindObject {
					b.errorf("bad-type", indexPath("$.batch_items", i), "batch item must be an object, not %s", jsonl.KindOf(it))
				}
			}
		default:
			b.errorf("bad-type", "$.batch_items", "batch_items must be a list of objects, not %s", jsonl.KindOf(raw))
		}
	}
	if ms, ok := b.object(keyIntermediate); ok {
		for _, m := range ms {
			if jsonl.KindOf(m.Value) != jsonl.KindObject {
				b.warnf("expectation-not-object", keyPath("$.intermediate_expectations", m.Key),
					"expectation of step %q is %s; Prompt Lab's validator wants an object", m.Key, jsonl.KindOf(m.Value))
			}
		}
	}
	if ms, ok := b.object(keyEvaluationConfig); ok {
		b.checkConfig(ms)
	}
}

// checkLogic applies the spec's logic rules, which are advice: warnings.
func (b *caseBuilder) checkLogic() {
	if b.batch > 0 && !b.hasAggregation() {
		b.warnf("batch-without-aggregation", "$.batch_items", "batch_items is given without expected_aggregation; the spec recommends one")
	}
	withInputs := map[string]bool{}
	si, _ := b.object(keyStepInputs)
	for _, m := range si {
		withInputs[m.Key] = true
	}
	if ie, ok := b.object(keyIntermediate); ok {
		for _, m := range ie {
			if !withInputs[m.Key] {
				b.warnf("expectation-without-step-inputs", keyPath("$.intermediate_expectations", m.Key),
					"step %q has an expectation but no step_inputs; check that the pipeline has this step", m.Key)
			}
		}
	}
	if _, ok := b.fields[keyV1Expected]; ok && b.isV2() {
		b.warnf("v1-key-in-v2", "$.expected_output",
			"expected_output is a v1 key; in a v2 record it is a custom field, not an expectation (use expected_outputs.output)")
	}
}

// checkConfig warns about evaluation_config values of the wrong type and
// about keys the spec does not know (often a typo, silently ignored).
func (b *caseBuilder) checkConfig(given []jsonl.Member) {
	for _, m := range given {
		p := keyPath("$.evaluation_config", m.Key)
		k := jsonl.KindOf(m.Value)
		switch m.Key {
		case cfgIntermediate, cfgFinal, cfgAggregation, cfgStrict:
			if k != jsonl.KindBool {
				b.warnf("bad-config-value", p, "%s should be true or false, not %s", m.Key, k)
			}
		case cfgTolerance:
			if k != jsonl.KindNumber {
				b.warnf("bad-config-value", p, "tolerance should be a number, not %s", k)
			} else if strings.HasPrefix(strings.TrimSpace(string(m.Value)), "-") {
				b.warnf("bad-config-value", p, "tolerance should not be negative")
			}
		case cfgIgnore:
			if k != jsonl.KindArray {
				b.warnf("bad-config-value", p, "ignore_fields should be a list of field names, not %s", k)
				continue
			}
			items, _ := parseArray(m.Value)
			for i, it := range items {
				if jsonl.KindOf(it) != jsonl.KindString {
					b.warnf("bad-config-value", indexPath(p, i), "ignored field should be a name (a string), not %s", jsonl.KindOf(it))
				}
			}
		default:
			b.warnf("unknown-config-key", p, "evaluation_config key %q is not one the spec knows (%s); it has no effect", m.Key, strings.Join(configKeys, ", "))
		}
	}
}
