package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"evalview/internal/termsafe"
	"evalview/loaders"
	"evalview/model"
)

// summary --json writes its reports as they come, byte for byte what a
// json.Encoder indenting by two spaces writes for the whole list (which it
// wrote before), for no, one and many datasets.
func TestReportStreamIsTheEncodersJSON(t *testing.T) {
	dss, _ := loaders.Open([]string{"../../testdata"}, loaders.Options{})
	if len(dss) < 10 {
		t.Fatalf("%d datasets", len(dss))
	}
	for _, n := range []int{0, 1, len(dss)} {
		reports := make([]model.DatasetReport, 0, n)
		var got bytes.Buffer
		s := &reportStream{w: &got, json: true}
		for _, ds := range dss[:n] {
			r := model.Report(ds)
			if ds.Kind == model.KindRun {
				runReport(&r, ds, nil)
			}
			reports = append(reports, r)
			if err := s.add(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.close(); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(termsafe.JSONWriter{W: &want}) // what summary --json wrote before, sanitized
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"datasets": reports}); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d datasets: stream differs from the encoder:\n%s\nwant:\n%s", n, got.String(), want.String())
		}
	}
}
