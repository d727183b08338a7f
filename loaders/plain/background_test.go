package plain

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"evalview/model"
)

// bigFile writes n records (past backgroundSize), one of them broken
// and one id given twice, and returns its path.
func bigFile(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		switch i {
		case 7:
			b.WriteString("{not json\n")
		case 9:
			b.WriteString(`{"id":"3","question":"again","answer":"x"}` + "\n")
		default:
			fmt.Fprintf(&b, `{"id":"%d","question":"what is %d plus %d?","answer":"%d","pad":"%s"}`+"\n", i, i, i, 2*i, strings.Repeat("p", 40))
		}
	}
	if b.Len() < backgroundSize {
		t.Fatalf("%d bytes: not past backgroundSize", b.Len())
	}
	p := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBackgroundOpen: a large file opened for the browser is handed over
// with its first records (or whole), and once its scan ends and the
// dataset is synced, its records, facts and issues are those Open gives.
func TestBackgroundOpen(t *testing.T) {
	p := bigFile(t, 30000)
	want, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := OpenBackground(p)
	if err != nil || len(got) != 1 {
		t.Fatalf("%d datasets, %v", len(got), err)
	}
	ds := got[0]
	if n := ds.Records.Len(); n == 0 && !ds.Records.Done() {
		t.Fatal("handed over with no record while the scan goes on")
	}
	if !ds.Records.Done() {
		if s := ds.Records.Summary(0); s.ID != "0" {
			t.Errorf("first early row %+v", s)
		}
		if rec, err := ds.Records.Record(0); err != nil || rec.ID != "0" || len(rec.Fields) == 0 {
			t.Errorf("early record 0: %v %v", rec, err)
		}
	}
	if w, ok := ds.Records.(interface{ Wait() error }); ok {
		if err := w.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if s, ok := ds.Records.(interface{ SyncDataset(*model.Dataset) bool }); ok && !s.SyncDataset(ds) {
		t.Error("the scan's end did not change the dataset")
	}
	w := want[0]
	if ds.Records.Len() != w.Records.Len() {
		t.Fatalf("%d records, Open gives %d", ds.Records.Len(), w.Records.Len())
	}
	for _, i := range []int{0, 8, 9, ds.Records.Len() - 1} {
		if a, b := ds.Records.Summary(i), w.Records.Summary(i); !reflect.DeepEqual(a, b) {
			t.Errorf("summary %d: %+v, Open gives %+v", i, a, b)
		}
	}
	if !reflect.DeepEqual(ds.Facts, w.Facts) {
		t.Errorf("facts %v, Open gives %v", ds.Facts, w.Facts)
	}
	if !reflect.DeepEqual(ds.Issues, w.Issues) {
		t.Errorf("issues %v, Open gives %v", ds.Issues, w.Issues)
	}
}

// TestBackgroundStop: Stop ends the scan; what it indexed stays readable
// and Done turns true.
func TestBackgroundStop(t *testing.T) {
	p := bigFile(t, 60000)
	got, err := OpenBackground(p)
	if err != nil {
		t.Fatal(err)
	}
	x := got[0].Records
	if s, ok := x.(model.Stopper); ok {
		s.Stop()
	}
	if w, ok := x.(interface{ Wait() error }); ok {
		_ = w.Wait()
	}
	if !x.Done() || x.Len() == 0 {
		t.Fatalf("after Stop: done %v, %d records", x.Done(), x.Len())
	}
	if _, err := x.Record(x.Len() - 1); err != nil {
		t.Error(err)
	}
}

// TestBackgroundDocument: a large JSON document opened for the browser
// comes in whole at the scan's end, with the columns Open's dataset has.
func TestBackgroundDocument(t *testing.T) {
	var b strings.Builder
	b.WriteString("[\n")
	for i := range 20000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `  {"id": %d, "lang": "fr", "question": "what is %d plus %d and a long tail %s?"}`, i, i, i, strings.Repeat("x", 30))
	}
	b.WriteString("\n]\n")
	p := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	Present(want[0])
	got, err := OpenBackground(p)
	if err != nil {
		t.Fatal(err)
	}
	ds := got[0]
	Present(ds) // as the registry does when it hands the dataset over
	if w, ok := ds.Records.(interface{ Wait() error }); ok {
		_ = w.Wait()
	}
	if s, ok := ds.Records.(interface{ SyncDataset(*model.Dataset) bool }); ok {
		s.SyncDataset(ds)
	}
	if ds.Records.Len() != want[0].Records.Len() {
		t.Fatalf("%d records, Open gives %d", ds.Records.Len(), want[0].Records.Len())
	}
	if !reflect.DeepEqual(ds.Presentation.Columns, want[0].Presentation.Columns) {
		t.Errorf("columns %v, Open gives %v", ds.Presentation.Columns, want[0].Presentation.Columns)
	}
}
