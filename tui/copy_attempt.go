package tui

import (
	"encoding/json"
	"strconv"
	"strings"

	"evalview/model"
	"evalview/tui/content"
)

// The copy keys on Responses act on the attempt the user is looking at:
// in side by side, the side moved last (the left one until then); else
// the attempt whose heading is at or above the top of the view.

// focusedAttempt returns the position of the attempt the Responses tab
// shows at the top, or the chosen side of a side-by-side pair.
func (d *detailPane) focusedAttempt() int {
	n := d.attemptCount()
	if n < 2 {
		return 0
	}
	if d.pairOn {
		l, r, _ := content.PairPositions(d.pair, n)
		if d.pairSide == 1 {
			return r
		}
		return l
	}
	heads := d.attemptHeadings()
	top := d.vp.YOffset()
	at := 0
	for pos, line := range heads {
		if line >= 0 && line <= top {
			at = pos
		}
	}
	return at
}

// attemptHeadings finds the line of each attempt's heading in the
// rendered Responses tab ("── #2 of 3 …", "── prediction #2 of 3 …"),
// -1 where none is found.
func (d *detailPane) attemptHeadings() []int {
	rec := d.rec
	out := make([]int, len(rec.Attempts))
	sample := d.ds != nil && d.ds.Kind == model.KindSample
	from := 0
	for pos, a := range rec.Attempts {
		out[pos] = -1
		name := "#" + strconv.Itoa(pos+1)
		switch {
		case sample:
			name = "prediction #" + strconv.Itoa(a.Index+1)
		case a.Index > 0:
			name = "#" + strconv.Itoa(a.Index)
		}
		name = "── " + name + " of " + strconv.Itoa(len(rec.Attempts)) + " "
		for i := from; i < len(d.doc.Plain); i++ {
			if strings.HasPrefix(d.doc.Plain[i], name) || strings.HasPrefix(d.doc.Plain[i]+" ", name) {
				out[pos], from = i, i+1
				break
			}
		}
	}
	return out
}

// attemptLabel is how the copy note names attempt pos: "#3".
func attemptLabel(ds *model.Dataset, pos int, a model.Attempt) string {
	switch {
	case ds != nil && ds.Kind == model.KindSample:
		return "prediction #" + strconv.Itoa(a.Index+1)
	case a.Index > 0:
		return "#" + strconv.Itoa(a.Index)
	}
	return "#" + strconv.Itoa(pos+1)
}

// attemptPath is the jq-style path of attempt pos's text in the record's
// source: lm-eval `.resps[request][repeat]` (a loglikelihood choice
// `.resps[i][0]`), a run sample `samples/F.json: .attempts[i].response`,
// a Sample `.predict_result[i]…` down to the field holding the text.
func attemptPath(ds *model.Dataset, rec *model.Record, pos int) string {
	a := rec.Attempts[pos]
	switch ds.Kind {
	case model.KindLMEval:
		req, rep := 0, pos
		if r, ok := factInt(a.Facts, "request"); ok {
			req = r
			if k, ok := factInt(a.Facts, "repeat"); ok {
				rep = k - 1
			}
		} else if len(rec.Options) > 0 && len(rec.Options) == len(rec.Attempts) {
			req, rep = pos, 0 // one loglikelihood request per choice
		}
		return ".resps[" + strconv.Itoa(req) + "][" + strconv.Itoa(rep) + "]"
	case model.KindRun:
		p := ".attempts[" + strconv.Itoa(pos) + "].response"
		if len(rec.Raw) > 0 && rec.Raw[0].File != "" {
			return rec.Raw[0].File + ": " + p
		}
		return p
	case model.KindSample:
		return samplePredictionPath(rec, a.Index)
	}
	return "."
}

// samplePredictionPath names where predict_result[i]'s text is: the
// entry itself when a string, else its message (string or .content), or
// the first answer-like key the loader reads.
func samplePredictionPath(rec *model.Record, i int) string {
	p := ".predict_result[" + strconv.Itoa(i) + "]"
	if len(rec.Raw) == 0 {
		return p + ".message.content"
	}
	var root struct {
		PredictResult []json.RawMessage `json:"predict_result"`
	}
	if json.Unmarshal(rec.Raw[0].JSON, &root) != nil || i < 0 || i >= len(root.PredictResult) {
		return p + ".message.content"
	}
	var entry map[string]json.RawMessage
	if json.Unmarshal(root.PredictResult[i], &entry) != nil {
		return p // a bare string
	}
	if msg, ok := entry["message"]; ok {
		if len(msg) > 0 && msg[0] == '"' {
			return p + ".message"
		}
		return p + ".message.content"
	}
	for _, k := range []string{"answer", "text", "output", "prediction", "content", "messages"} {
		if _, ok := entry[k]; ok {
			return p + "." + jqKey(k)
		}
	}
	return p
}

// factInt reads an integer fact.
func factInt(fs []model.Fact, key string) (int, bool) {
	for _, f := range fs {
		if f.Key == key {
			n, err := strconv.Atoi(f.Value)
			return n, err == nil
		}
	}
	return 0, false
}
