package lmeval

import (
	"strings"
	"testing"
	"unsafe"

	"evalview/model"
)

// TestSharingShares checks that outcomes with the same answer and metrics
// end up holding one copy of each, and that different ones stay apart.
func TestSharingShares(t *testing.T) {
	sh := sharing{rows: shareAfter}
	mk := func(answer string, v float64) model.Outcome {
		return model.Outcome{
			Answer:  strings.Clone(answer),
			Metrics: append(make([]model.MetricValue, 0, 4), model.MetricValue{Name: strings.Clone("exact_match"), Value: v}),
		}
	}
	a, b, c := mk("42", 1), mk("42", 1), mk("41", 0)
	long := mk(strings.Repeat("x", maxSharedAnswer+1), 1)
	long2 := mk(long.Answer, 1)
	for _, o := range []*model.Outcome{&a, &b, &c, &long, &long2} {
		sh.share(o)
	}
	if unsafe.StringData(a.Answer) != unsafe.StringData(b.Answer) {
		t.Error("two rows answering 42 hold two copies")
	}
	if &a.Metrics[0] != &b.Metrics[0] {
		t.Error("two rows with exact_match 1 hold two metric lists")
	}
	if c.Answer != "41" || c.Metrics[0].Value != 0 || &c.Metrics[0] == &a.Metrics[0] {
		t.Errorf("a different row took another's values: %q %v", c.Answer, c.Metrics)
	}
	if cap(a.Metrics) != len(a.Metrics) {
		t.Errorf("a shared metric list has room to append into: cap %d", cap(a.Metrics))
	}
	if unsafe.StringData(long.Answer) == unsafe.StringData(long2.Answer) {
		t.Error("an answer longer than maxSharedAnswer was shared")
	}
	if &long.Metrics[0] != &a.Metrics[0] {
		t.Error("the long answers' metrics are not the shared list")
	}
	// A name that runs into the value must not make two lists one.
	x := model.Outcome{Metrics: []model.MetricValue{{Name: "ab", Value: 1}, {Name: "c", Value: 2}}}
	y := model.Outcome{Metrics: []model.MetricValue{{Name: "a", Value: 1}, {Name: "bc", Value: 2}}}
	sh.share(&x)
	sh.share(&y)
	if y.Metrics[0].Name != "a" || y.Metrics[1].Name != "bc" {
		t.Errorf("metrics %v took another list's names", y.Metrics)
	}
}

// TestSharingWaitsForRows: a file's first shareAfter rows keep their own
// copies (a file of a few rows would not gain from the tables); the
// rows after them share.
func TestSharingWaitsForRows(t *testing.T) {
	var sh sharing
	outs := make([]model.Outcome, shareAfter+2)
	for i := range outs {
		outs[i] = model.Outcome{Answer: strings.Clone("42")}
		sh.share(&outs[i])
	}
	if unsafe.StringData(outs[0].Answer) == unsafe.StringData(outs[1].Answer) || sh.answers != nil && len(sh.answers) > 1 {
		t.Error("the first rows of a file shared their answers")
	}
	if unsafe.StringData(outs[shareAfter].Answer) != unsafe.StringData(outs[shareAfter+1].Answer) {
		t.Error("rows past shareAfter did not share their answers")
	}
}
