package tui

import (
	"context"
	"strings"
	"testing"

	"evalview/model"
	"evalview/tui/list"
)

// rawIndex is a big index that can search its "source": each record's
// source text is its title plus a hidden word on every 7th record.
type rawIndex struct {
	*model.MemIndex
	calls int
}

func (r *rawIndex) SearchRaw(ctx context.Context, needle string, fold bool, hit func(int)) error {
	r.calls++
	for i := 0; i < r.Len(); i++ {
		src := r.Summary(i).Title
		if i%7 == 0 {
			src += " hiddenword"
		}
		if fold {
			src = strings.ToLower(src)
		}
		if strings.Contains(src, needle) {
			hit(i)
		}
		if i%1000 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

func TestListSearchWholeRecord(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
	press(m, "/")
	typeText(m, "70000") // only in doc 2's target, answers and response
	press(m, "enter")
	if got := m.list.Hits(); len(got) != 1 || got[0] != 2 {
		t.Fatalf("matches %v, want [2]", got)
	}
	// ~ makes it a regex.
	press(m, "/")
	typeText(m, "~#### (18|624)\\b")
	press(m, "enter")
	if got := m.list.Hits(); len(got) != 3 {
		t.Errorf("regex matches %v, want docs 0, 3 and 5", got)
	}
}

func TestListSearchRawStreams(t *testing.T) {
	ds := bigDataset(list.RecordSearchMax + 100)
	idx := &rawIndex{MemIndex: ds.Records.(*model.MemIndex)}
	ds.Records = idx
	m := newTestModel(t, []*model.Dataset{ds}, 100, 30)
	press(m, "/")
	typeText(m, "hiddenword")
	press(m, "enter")
	want := (list.RecordSearchMax + 100 + 6) / 7
	if got := len(m.list.Hits()); got != want {
		t.Fatalf("%d raw matches, want %d", got, want)
	}
	if idx.calls == 0 {
		t.Error("the raw searcher was not used")
	}
	press(m, "n")
	if got := selected(t, m); got != 7 {
		t.Errorf("n selects %d, want 7", got)
	}
}

func TestListSearchBigWithoutRawMatchesTitles(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{bigDataset(list.RecordSearchMax + 1)}, 100, 30)
	press(m, "/")
	typeText(m, "question 500")
	press(m, "enter")
	// "question 500" and "question 5000".."question 5001" (the last is 5000).
	if got := len(m.list.Hits()); got != 2 {
		t.Errorf("%d matches, want 2", got)
	}
}

// growingRawIndex is rawIndex whose index has given the list only its
// first n records so far, while its raw search finds hits in all of them
// (the search places a hit as soon as the index holds its record; the
// list takes the index's records in at its ticks).
type growingRawIndex struct {
	*rawIndex
	n int
}

func (g *growingRawIndex) Len() int   { return g.n }
func (g *growingRawIndex) Done() bool { return g.n == g.rawIndex.Len() }

// TestRawCountFinalOnlyWhenListHasTheHits: a raw search that ends while
// the list has not yet taken in the records of its last hits shows its
// count as still counting ("1/N…"), not as a final count short of them;
// the count is final once the list has them.
func TestRawCountFinalOnlyWhenListHasTheHits(t *testing.T) {
	const total = list.RecordSearchMax + 100
	ds := bigDataset(total)
	g := &growingRawIndex{rawIndex: &rawIndex{MemIndex: ds.Records.(*model.MemIndex)}, n: total - 50}
	ds.Records = g
	m := newTestModel(t, []*model.Dataset{ds}, 100, 30)
	// The raw search reads the whole file: records the list lacks too.
	press(m, "/")
	typeText(m, "hiddenword")
	press(m, "enter")
	want := (total + 6) / 7
	if !m.list.Counting() {
		t.Fatalf("the count shows as final (%d matches in the list) while %d hits are in records the list has not taken in",
			len(m.list.Hits()), want-len(m.list.Hits()))
	}
	if s := m.View().Content; !strings.Contains(s, "…") {
		t.Errorf("the status does not say the count goes on:\n%s", s)
	}
	g.n = total
	send(m, indexTickMsg{})
	if m.list.Counting() || len(m.list.Hits()) != want {
		t.Errorf("once the list has every record: counting %v, %d matches, want final and %d", m.list.Counting(), len(m.list.Hits()), want)
	}
}
