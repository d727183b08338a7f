package compare

import (
	"math"
	"reflect"
	"testing"

	"evalview/model"
)

// repeats builds a record whose attempts carry one extraction each for
// filter f: answers[i], right when it equals target, not counted from
// index counted on (-1: all counted).
func repeats(f, target string, counted int, answers ...string) *model.Record {
	r := &model.Record{}
	for i, a := range answers {
		st := model.StatusFail
		if a == target {
			st = model.StatusPass
		}
		e := model.Extraction{Filter: f, Answer: a, Status: st, Start: -1, End: -1}
		if counted >= 0 && i >= counted {
			e.Note = NotCounted + "dropped by take_first_k"
		}
		r.Attempts = append(r.Attempts, model.Attempt{Index: i + 1, Extractions: []model.Extraction{e, {Filter: "other", Answer: "zzz"}}})
	}
	return r
}

func TestVotes(t *testing.T) {
	cases := []struct {
		name string
		r    *model.Record
		want []Vote
	}{
		{"majority", repeats("maj", "18", -1, "17", "18", "18", "[invalid]", "17", "18"),
			[]Vote{{"18", 3, true, true}, {"17", 2, false, false}, {"[invalid]", 1, false, false}}},
		// A tie goes to the answer seen first, as Counter.most_common does.
		{"tie", repeats("maj", "5", -1, "4", "5", "5", "4"),
			[]Vote{{"4", 2, false, true}, {"5", 2, true, false}}},
		{"take_first_k drops the rest", repeats("maj", "1", 2, "2", "1", "1", "1", "1"),
			[]Vote{{"2", 1, false, true}, {"1", 1, true, false}}},
		{"no extraction", repeats("maj", "1", -1, "1"), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := "maj"
			if c.want == nil {
				f = "absent"
			}
			if got := Votes(c.r, f); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestRepeatsRight(t *testing.T) {
	r := repeats("f", "3", 1, "3", "3", "4", "3")
	r.Attempts = append(r.Attempts, model.Attempt{Extractions: []model.Extraction{{Filter: "f", Answer: "?"}}}) // unscored
	if n, c := RepeatsRight(r, "f"); n != 4 || c != 3 {
		t.Errorf("RepeatsRight = %d, %d; want 4, 3", n, c)
	}
}

// binom is C(n, k) as a float, for an independent pass@k.
func binom(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

func TestMeanPassAtK(t *testing.T) {
	docs := []RepeatCount{{8, 0}, {8, 3}, {8, 8}, {4, 1}, {0, 0}}
	ks := KValues(8)
	if !reflect.DeepEqual(ks, []int{1, 2, 4, 8}) {
		t.Fatalf("KValues(8) = %v", ks)
	}
	got := MeanPassAtK(docs, ks)
	for _, k := range ks {
		sum, n := 0.0, 0
		for _, d := range docs {
			if d.N >= k {
				sum += 1 - binom(d.N-d.C, k)/binom(d.N, k)
				n++
			}
		}
		if want := sum / float64(n); math.Abs(got[k]-want) > 1e-12 {
			t.Errorf("pass@%d = %v, want %v", k, got[k], want)
		}
	}
	if _, ok := MeanPassAtK(docs, []int{16})[16]; ok {
		t.Error("pass@16 reported with at most 8 repeats")
	}
	if v := PassAtK(8, 3, 1); math.Abs(v-3.0/8) > 1e-12 {
		t.Errorf("PassAtK(8,3,1) = %v", v)
	}
}
