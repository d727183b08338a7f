package lmeval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"evalview/model/compare"
	"evalview/model/query"
)

// writeDocs writes a samples file with one row per doc (filter "none").
func writeDocs(t *testing.T, docs []map[string]any, targets []any) string {
	t.Helper()
	var b strings.Builder
	for i, d := range docs {
		row := map[string]any{
			"doc_id": i, "doc": d, "target": targets[i],
			"arguments":      map[string]any{"gen_args_0": map[string]any{"arg_0": "Q?", "arg_1": map[string]any{}}},
			"resps":          [][]string{{"A"}},
			"filtered_resps": []string{"A"},
			"filter":         "none", "metrics": []string{"exact_match"}, "exact_match": 1,
		}
		line, err := json.Marshal(row)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "samples_demo_2025-01-01T00-00-00.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDocFields(t *testing.T) {
	doc := `{"subject": "algebra", "level": 3, "ok": true, "score": 0.5, "choices": ["a", "b"],
		"question": "` + strings.Repeat("x", 41) + `", "multi": "a\nb", "none": null, "esc": "caf\u00e9", "big": 123456789012345678901234}`
	entries, err := docEntries([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []docField{
		{key: "subject", val: "algebra"},
		{key: "level", val: "3"},
		{key: "ok", val: "true"},
		{key: "score", long: true},
		{key: "choices", long: true},
		{key: "question", long: true},
		{key: "multi", long: true},
		{key: "esc", val: "café"},
		{key: "big", long: true},
	}
	if got := docFields(entries, nil); !reflect.DeepEqual(got, want) {
		t.Errorf("docFields =\n%+v\nwant\n%+v", got, want)
	}
	keys := []string{"level", "esc", "score"}
	if got := docFields(entries, &keys); !reflect.DeepEqual(got, []docField{want[1], want[3], want[7]}) {
		t.Errorf("docFields of %v = %+v", keys, got)
	}
	if got := docFields(entries, &[]string{}); got != nil {
		t.Errorf("docFields of no keys = %+v", got)
	}
}

// TestTargetLabel: decoding only a long target's prefix gives the same
// label as decoding it all, whatever escapes stand at the cut.
func TestTargetLabel(t *testing.T) {
	long := strings.Repeat("x", 400)
	for _, target := range []string{
		"", "B", `short\nline`, long,
		strings.Repeat("é", 90) + long,
		strings.Repeat("y", 79) + `\\` + long,
		strings.Repeat("y", 79) + `\u00e9` + long,
		strings.Repeat("y", 79) + `\ud83d\ude00` + long, // a surrogate pair at the cut
		strings.Repeat("y", 80) + `\ud83d\ude00` + long,
		strings.Repeat(`\ud83d\ude00`, 100),
		strings.Repeat(`\u00e9\n`, 100),
		strings.Repeat("y", 79) + `\udc00\u0041` + long, // a lone low surrogate
		strings.Repeat("y", 79) + `\ud83d\u0041` + long, // a high surrogate alone
		strings.Repeat("y", 78) + `\ud83d\ud83d\ude00` + long,
		strings.Repeat("y", 80),
		strings.Repeat("y", 81),
	} {
		raw := []byte(`"` + target + `"`)
		if got, want := targetLabel(raw), clipRunes(fastText(raw), maxTargetLabel); got != want {
			t.Errorf("targetLabel(%.30s…) = %q, want %q", target, got, want)
		}
	}
	if got := targetLabel([]byte(`[1, 2]`)); got != "[1, 2]" && got != "[1,2]" {
		t.Errorf("list target label = %q", got)
	}
}

func TestClipRunes(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 80, "short"},
		{"abcdef", 3, "abc…"},
		{"ééééé", 3, "ééé…"},
		{"ééé", 3, "ééé"},
	} {
		if got := clipRunes(c.in, c.n); got != c.want {
			t.Errorf("clipRunes(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// TestDocLabels covers the choice of label keys: category-like fields
// become doc.KEY labels on every record (those before the decision too),
// long text, floats, lists, identifiers and empty fields do not.
func TestDocLabels(t *testing.T) {
	subjects := []string{"algebra", "geometry", "physics"}
	var docs []map[string]any
	var targets []any
	const n = 100 // more than labelSampleDocs: some docs come after the choice
	for i := range n {
		d := map[string]any{
			"question_id": 1000 + i,
			"rank":        5000 + i, // a unique int: an identifier by its values
			"question":    fmt.Sprintf("What is %d plus %d, written out as a number in words?", i, i),
			"subject":     subjects[i%3],
			"level":       i % 5,
			"hard":        i%2 == 0,
			"weight":      0.25,
			"choices":     []string{"1", "2"},
			"cot":         "",
		}
		if i == 90 {
			d["subject"] = strings.Repeat("long ", 20) // after the choice: no label
		}
		docs = append(docs, d)
		targets = append(targets, fmt.Sprintf("%c", 'A'+i%4))
	}
	targets[7] = strings.Repeat("é", 100) // cut to 80 runes
	targets[8] = 2                        // an int target
	ds := open1(t, writeDocs(t, docs, targets))
	if ds.Records.Len() != n {
		t.Fatalf("%d records", ds.Records.Len())
	}
	for i := 0; i < n; i++ {
		want := map[string]string{
			"target":      fmt.Sprintf("%c", 'A'+i%4),
			"doc.level":   fmt.Sprint(i % 5),
			"doc.hard":    fmt.Sprint(i%2 == 0),
			"doc.subject": subjects[i%3],
		}
		switch i {
		case 7:
			want["target"] = strings.Repeat("é", 80) + "…"
		case 8:
			want["target"] = "2"
		case 90:
			delete(want, "doc.subject")
		}
		if got := ds.Records.Summary(i).Labels.Map(); !reflect.DeepEqual(got, want) {
			t.Errorf("record %d labels = %v, want %v", i, got, want)
		}
	}
	// Records with the same labels share one slice of labels.
	a, b := ds.Records.Summary(0).Labels, ds.Records.Summary(60).Labels
	if reflect.ValueOf(a).Field(0).UnsafePointer() != reflect.ValueOf(b).Field(0).UnsafePointer() {
		t.Errorf("records 0 and 60 have equal labels %v but separate maps", a)
	}
}

// TestLabelerUniqueTargets: when every doc's labels differ, sharing stops
// and the labels stay right.
func TestLabelerUniqueTargets(t *testing.T) {
	var l labeler
	got := map[int]map[string]string{}
	fields := []docField{{key: "level", val: "2"}}
	for i := range 3000 {
		for _, a := range l.add(i, fmt.Sprint("t", i), fields) {
			got[a.rec] = a.labels.Map()
		}
	}
	if !l.noSets || l.sets != nil {
		t.Errorf("sharing still on after %d misses, %d hits", l.setMisses, l.setHits)
	}
	for i := range 3000 {
		want := map[string]string{"target": fmt.Sprint("t", i), "doc.level": "2"}
		if !reflect.DeepEqual(got[i], want) {
			t.Fatalf("record %d labels = %v, want %v", i, got[i], want)
		}
	}
}

// TestDocLabelsFewDocs: a file with fewer docs than the sample decides at
// the end of the scan; identifiers are known by name even when too few
// docs show their values all differ.
func TestDocLabelsFewDocs(t *testing.T) {
	docs := []map[string]any{
		{"id": "q1", "question_id": 7, "category": "law", "question": strings.Repeat("q", 60)},
		{"id": "q2", "question_id": 8, "category": "law", "question": "short"},
	}
	ds := open1(t, writeDocs(t, docs, []any{"B", "C"}))
	for i, want := range []map[string]string{
		{"target": "B", "doc.category": "law"},
		{"target": "C", "doc.category": "law"},
	} {
		if got := ds.Records.Summary(i).Labels.Map(); !reflect.DeepEqual(got, want) {
			t.Errorf("record %d labels = %v, want %v", i, got, want)
		}
	}
}

// TestDocLabelsQueryAndTargets: dotted label names are query fields, and
// the targets frequency table fills.
func TestDocLabelsQueryAndTargets(t *testing.T) {
	docs := []map[string]any{
		{"subject": "law"}, {"subject": "math"}, {"subject": "law"}, {"subject": "art"},
	}
	ds := open1(t, writeDocs(t, docs, []any{"A", "B", "A", "A"}))
	for _, c := range []struct {
		q    string
		want []int
	}{
		{"doc.subject=law", []int{0, 2}},
		{"doc.subject!=law", []int{1, 3}},
		{"doc.subject~^(art|math)$ target=A", []int{3}},
		{"labels.doc.subject=math", []int{1}},
		{"target=B", []int{1}},
	} {
		q, err := query.Parse(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if got := query.Filter(query.Env{Dataset: ds}, q); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s matched %v, want %v", c.q, got, c.want)
		}
	}
	var got []string
	for _, f := range compare.Targets(ds, 0, nil) {
		got = append(got, fmt.Sprintf("%s:%d", f.Value, f.Count))
	}
	if strings.Join(got, " ") != "A:3 B:1" {
		t.Errorf("targets = %v", got)
	}
	var slices []string
	for _, sl := range compare.Slices(ds, "doc.subject", nil) {
		slices = append(slices, fmt.Sprintf("%s:%d", sl.Value, sl.Count))
	}
	if strings.Join(slices, " ") != "law:2 art:1 math:1" {
		t.Errorf("slices = %v", slices)
	}
}

// TestSharedDocLabels: the real MMLU files carry their subject and
// category as labels.
func TestSharedDocLabels(t *testing.T) {
	root := sharedData(t)
	for _, c := range []struct {
		folder, key, value string
	}{
		{"v0.4.0_mmlu", "doc.subject", "abstract_algebra"},
		{"mmlu_pro_plus_two_runs/base", "doc.category", "chemistry"},
	} {
		ds, err := Open(filepath.Join(root, c.folder))
		if err != nil {
			t.Fatal(err)
		}
		s := ds[0].Records.Summary(0)
		if s.Labels.Get(c.key) != c.value || s.Labels.Get(compare.TargetLabel) == "" {
			t.Errorf("%s: labels %v, want %s=%s and a target", c.folder, s.Labels, c.key, c.value)
		}
		for k := range s.Labels.All() {
			if k == "doc.question" || k == "doc.question_id" || k == "doc.options" || k == "doc.choices" {
				t.Errorf("%s: %s should not be a label", c.folder, k)
			}
		}
		if len(compare.Targets(ds[0], 0, nil)) == 0 {
			t.Errorf("%s: empty targets table", c.folder)
		}
	}
}

// The list's title is cut at maxTitle runes; the record's, which export
// writes, is whole (issue 15.6: export wrote text cut for the screen).
func TestRecordTitleWhole(t *testing.T) {
	q := strings.Repeat("word ", 100) + "end?"
	ds := open1(t, writeDocs(t, []map[string]any{{"question": q + "\nsecond line"}, {"question": "short?"}}, []any{"1", "2"}))
	if s := ds.Records.Summary(0).Title; !strings.HasSuffix(s, "…") || len([]rune(s)) != maxTitle+1 {
		t.Errorf("list title %q", s)
	}
	if r := record(t, ds, 0); r.Title != q {
		t.Errorf("record title %q, want the whole first line", r.Title)
	}
	if r := record(t, ds, 1); r.Title != "short?" {
		t.Errorf("record title %q", r.Title)
	}
}
