package sample

import (
	"encoding/json"
	"strconv"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// recordOptions returns the options: `options` as the spec writes them,
// else legacy `choices` holding options, else metadata.option_map (where
// the runtime keeps them, in order).
func (p *parser) recordOptions(o jsonl.Object) []model.Option {
	if v, ok := o.Get("options"); ok && jsonl.KindOf(v) != jsonl.KindNull {
		return p.options(v, "$.options", false)
	}
	if v, ok := o.Get("choices"); ok && !jsonl.IsEmpty(v) && !choicesHoldAnswers(v) {
		if opts := p.options(v, "$.choices", true); len(opts) > 0 {
			p.warnf("legacy-mapped", "$.choices", "legacy choices shown as options")
			return opts
		}
	}
	if md, ok := o.Get("metadata"); ok {
		if mo, ok := jsonl.ParseObject(md); ok {
			if om, ok := mo.Get("option_map"); ok {
				if omo, ok := jsonl.ParseObject(om); ok {
					opts := make([]model.Option, 0, len(omo.Members))
					for _, m := range omo.Members {
						opts = append(opts, model.Option{ID: m.Key, Text: jsonl.ScalarText(m.Value)})
					}
					return opts
				}
			}
		}
	}
	return nil
}

// options parses an options list of {id, content} items. Legacy choices
// may be bare strings, which take their letter silently: the legacy-mapped
// warning already covers them.
func (p *parser) options(raw json.RawMessage, path string, legacy bool) []model.Option {
	arr, ok := jsonl.Array(raw)
	if !ok {
		p.errorf("bad-type", path, "options is %s, not a list", jsonl.KindName(raw))
		return nil
	}
	out := make([]model.Option, 0, len(arr))
	seen := map[string]int{}
	for i, it := range arr {
		ip := jsonIndex(path, i)
		var opt model.Option
		if s, ok := jsonl.String(it); ok {
			opt = model.Option{ID: letter(i), Text: s}
			if !legacy {
				p.warnf("bad-option", ip, "option is a bare string; id %s assumed from its position", opt.ID)
			}
		} else if io, ok := jsonl.ParseObject(it); ok {
			idRaw, hasID := io.Get("id")
			if !hasID {
				idRaw, hasID = io.Get("label") // legacy choices
			}
			opt.ID = jsonl.ScalarText(idRaw)
			if !hasID || opt.ID == "" {
				opt.ID = letter(i)
				p.errorf("bad-option", jsonPath(ip, "id"), "option has no id (shown as %s)", opt.ID)
			}
			c, hasC := io.Get("content")
			if !hasC {
				c, hasC = io.Get("text")
			}
			opt.Text = answerText(c)
			if !hasC || strings.TrimSpace(opt.Text) == "" {
				p.errorf("bad-option", jsonPath(ip, "content"), "option %s has no content", opt.ID)
			}
		} else {
			p.errorf("bad-option", ip, "option is %s, not an object", jsonl.KindName(it))
			continue
		}
		if first, dup := seen[opt.ID]; dup {
			p.errorf("duplicate-option-id", jsonPath(ip, "id"), "option id %q repeats option %d", opt.ID, first+1)
		} else {
			seen[opt.ID] = i
		}
		out = append(out, opt)
	}
	return out
}

// letter returns the option letter for position i: A, B, ... Z, 27...
func letter(i int) string {
	if i >= 0 && i < 26 {
		return string(rune('A' + i))
	}
	return strconv.Itoa(i + 1)
}

// choicesHoldAnswers reports whether legacy choices carry ground truth
// (`choices[].message`) rather than options.
func choicesHoldAnswers(raw json.RawMessage) bool {
	arr, _ := jsonl.Array(raw)
	for _, it := range arr {
		if o, ok := jsonl.ParseObject(it); ok && o.Has("message") {
			return true
		}
	}
	return false
}

// answerText renders a reference answer or option content as text: a
// string as is, segments joined (media as their URL), anything else as
// JSON.
func answerText(raw json.RawMessage) string {
	if arr, ok := jsonl.Array(raw); ok {
		parts := make([]string, 0, len(arr))
		for _, it := range arr {
			parts = append(parts, partText(it))
		}
		return strings.Join(parts, "\n")
	}
	if jsonl.KindOf(raw) == jsonl.KindObject {
		return partText(raw)
	}
	return jsonl.ScalarText(raw)
}

// partText renders one content part as text.
func partText(raw json.RawMessage) string {
	o, ok := jsonl.ParseObject(raw)
	if !ok {
		return jsonl.ScalarText(raw)
	}
	if s, ok := o.Str("text"); ok {
		return s
	}
	typ, _ := o.Str("type")
	if v, ok := o.Get(typ); ok && typ != "" {
		if s, ok := jsonl.String(v); ok {
			return s
		}
		if vo, ok := jsonl.ParseObject(v); ok {
			if s, ok := vo.Str("url"); ok {
				return s
			}
		}
	}
	if s, ok := o.Str("url"); ok {
		return s
	}
	return jsonl.Compact(raw)
}

// references parses the references list into answer texts.
func (p *parser) references(raw json.RawMessage, path string) []string {
	arr, ok := jsonl.Array(raw)
	if !ok {
		if jsonl.KindOf(raw) == jsonl.KindString || jsonl.KindOf(raw) == jsonl.KindNumber {
			p.warnf("bad-type", path, "references is %s, not a list; read as one reference", jsonl.KindName(raw))
			return []string{jsonl.ScalarText(raw)}
		}
		p.errorf("bad-type", path, "references is %s, not a list", jsonl.KindName(raw))
		return nil
	}
	out := make([]string, 0, len(arr))
	for i, it := range arr {
		io, isObj := jsonl.ParseObject(it)
		if !isObj {
			out = append(out, answerText(it))
			continue
		}
		ans, ok := io.Get("answer")
		if !ok {
			p.warnf("bad-reference", jsonIndex(path, i), "reference jsonl.Object has no answer")
			out = append(out, jsonl.Compact(it))
			continue
		}
		out = append(out, answerText(ans))
	}
	return out
}

// groundTruth fills References and Target from references and label, or
// from legacy shapes (choices[].message, a trailing assistant turn, answer)
// when the record has neither, and checks that label agrees with
// references[0].
func (p *parser) groundTruth(o jsonl.Object, rec *model.Record, msgs []model.Message) {
	refsRaw, hasRefs := o.Get("references")
	hasRefs = hasRefs && jsonl.KindOf(refsRaw) != jsonl.KindNull
	if hasRefs {
		rec.References = p.references(refsRaw, "$.references")
	}
	labelRaw, hasLabel := o.Get("label")
	hasLabel = hasLabel && jsonl.KindOf(labelRaw) != jsonl.KindNull
	if hasLabel {
		switch jsonl.KindOf(labelRaw) {
		case jsonl.KindString, jsonl.KindNumber:
			rec.Target = jsonl.ScalarText(labelRaw)
		default:
			p.warnf("bad-type", "$.label", "label is %s, not a string", jsonl.KindName(labelRaw))
			rec.Target = jsonl.Compact(labelRaw)
		}
	}
	if len(rec.References) == 0 && !hasLabel {
		if refs := p.legacyTruth(o, msgs, !hasRefs); refs != nil {
			rec.References = refs
			hasRefs = true // mapped, with its own warning
		}
	}
	switch {
	case !hasRefs && hasLabel:
		rec.References = []string{rec.Target}
		p.warnf("missing-field", "$.references", "references is missing; label %q used as the reference", rec.Target)
	case !hasRefs:
		p.warnf("missing-field", "$.references", "references is missing")
	}
	if hasLabel && hasRefs && len(rec.References) > 0 && !labelMatches(labelRaw, rec.References[0], rec.Options) {
		p.warnf("label-mismatch", "$.label", "label %q does not match references[0] %q",
			jsonl.Clip(rec.Target, 80), jsonl.Clip(rec.References[0], 80))
	}
}

// legacyTruth finds ground truth in legacy places: choices[].message, then
// (only when references is absent, not merely empty) a trailing assistant
// turn or a legacy answer field. It warns saying what was mapped.
func (p *parser) legacyTruth(o jsonl.Object, msgs []model.Message, refsAbsent bool) []string {
	if v, ok := o.Get("choices"); ok && choicesHoldAnswers(v) {
		arr, _ := jsonl.Array(v)
		var refs []string
		for _, it := range arr {
			io, _ := jsonl.ParseObject(it)
			m, ok := io.Get("message")
			if !ok {
				continue
			}
			mo, _ := jsonl.ParseObject(m)
			c, _ := mo.Get("content")
			refs = append(refs, answerText(c))
		}
		p.warnf("legacy-mapped", "$.choices", "legacy record: ground truth taken from choices[].message")
		return refs
	}
	if !refsAbsent {
		return nil // an empty references list is a choice, not a legacy shape
	}
	if n := len(msgs); n > 1 && msgs[n-1].Role == model.RoleAssistant {
		last := &msgs[n-1]
		if t := last.Text(); t != "" {
			last.Label = "ground truth (legacy)"
			p.warnf("legacy-mapped", jsonIndex("$.messages", n-1),
				"legacy record: the trailing assistant turn is taken as the ground truth")
			return []string{t}
		}
	}
	if v, ok := o.Get("answer"); ok && !jsonl.IsEmpty(v) {
		p.warnf("legacy-mapped", "$.answer", "legacy record: answer used as the reference")
		return []string{answerText(v)}
	}
	return nil
}

// labelCandidates are the texts a label may stand for: itself and, for an
// integer label (an index, as in piqa), the option id at that position.
func labelCandidates(labelRaw json.RawMessage, opts []model.Option) []string {
	t := jsonl.ScalarText(labelRaw)
	out := []string{t}
	if jsonl.KindOf(labelRaw) == jsonl.KindNumber {
		if i, err := strconv.Atoi(t); err == nil && i >= 0 {
			if i < len(opts) {
				out = append(out, opts[i].ID)
			} else if len(opts) == 0 {
				out = append(out, letter(i))
			}
		}
	}
	return out
}

// labelMatches reports whether label agrees with ref once normalized,
// directly, through the option it indexes, or through an option whose id
// and content are the two.
func labelMatches(labelRaw json.RawMessage, ref string, opts []model.Option) bool {
	r := normalize(ref)
	for _, c := range labelCandidates(labelRaw, opts) {
		n := normalize(c)
		if n == r {
			return true
		}
		for _, o := range opts {
			id, text := normalize(o.ID), normalize(o.Text)
			if (id == n && text == r) || (text == n && id == r) {
				return true
			}
		}
	}
	return false
}

// markCorrect marks the option that references[0] (or the label) names,
// by id first and by content when no id matches.
func markCorrect(opts []model.Option, refs []string, o jsonl.Object) {
	if len(opts) == 0 {
		return
	}
	var want []string
	if len(refs) > 0 {
		want = append(want, normalize(refs[0]))
	}
	if l, ok := o.Get("label"); ok && jsonl.KindOf(l) != jsonl.KindNull {
		for _, c := range labelCandidates(l, opts) {
			want = append(want, normalize(c))
		}
	}
	for _, w := range want {
		if w == "" {
			continue
		}
		for i := range opts {
			if normalize(opts[i].ID) == w {
				opts[i].Correct = true
				return
			}
		}
		for i := range opts {
			if normalize(opts[i].Text) == w {
				opts[i].Correct = true
				return
			}
		}
	}
}
