package lighteval

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"evalview/model"
)

// TestOriginRun: a details file's run is its stamp.
func TestOriginRun(t *testing.T) {
	dss, err := Open(filepath.Join(realFixtures(t), "flat", "details_leaderboard|boolq|0_2025-03-01T10-00-00.000000.parquet"))
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	if o := model.OriginOf(dss[0]); model.RunTime(o.Run) != "2025-03-01 10:00" {
		t.Errorf("origin %+v", o)
	}
}

// TestOriginConfig: a run's settings are its model config (revision,
// dtype, generation parameters) and max_samples, without the model's
// name and what only says how it ran (GPUs, memory); a results file
// opened alone says its run and settings too.
func TestOriginConfig(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "results", "acme", "tiny-1b")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	res := `{"config_general": {"model_name": "acme/tiny-1b", "max_samples": 10,
	  "model_config": {"model_name": "acme/tiny-1b", "revision": "step1000", "dtype": "bfloat16", "gpu_memory_utilization": 0.9,
	    "generation_parameters": {"temperature": 0.6, "max_new_tokens": 1024}, "system_prompt": null}},
	  "results": {"lighteval|gsm8k|0": {"em": 0.5, "em_stderr": 0.1}, "all": {"em": 0.5}}}`
	path := filepath.Join(dir, "results_2025-07-05T09-59-00.123456.json")
	if err := os.WriteFile(path, []byte(res), 0o644); err != nil {
		t.Fatal(err)
	}
	dss, err := Open(path)
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	want := []model.Fact{{Key: "revision", Value: "step1000"}, {Key: "dtype", Value: "bfloat16"},
		{Key: "generation_parameters.temperature", Value: "0.6"}, {Key: "generation_parameters.max_new_tokens", Value: "1024"},
		{Key: "max_samples", Value: "10"}}
	if o := dss[0].Origin; !reflect.DeepEqual(o.Config, want) || o.Run != "2025-07-05T09-59-00.123456" {
		t.Errorf("origin %+v", o)
	}
}

// chrfRow is a generative task whose metric is a sentence's chrf.
type chrfRow struct {
	Doc           *docCol      `parquet:"doc,optional"`
	Metric        *chrfMetric  `parquet:"metric,optional"`
	ModelResponse *responseCol `parquet:"model_response,optional"`
}

type chrfMetric struct {
	Chrf *float64 `parquet:"chrf,optional"`
}

// TestScoreRowsPassOrFailNothing: a main metric whose rows are scores
// (a sentence's chrf) passes and fails no row; one of 0 and 1 (em) does.
func TestScoreRowsPassOrFailNothing(t *testing.T) {
	rows := []chrfRow{
		{Doc: &docCol{Query: p("Translate: Das Haus ist klein."), ID: p("0")}, Metric: &chrfMetric{Chrf: p(1.0)}, ModelResponse: &responseCol{Text: []string{"The house is small."}}},
		{Doc: &docCol{Query: p("Translate: Ich habe Hunger."), ID: p("1")}, Metric: &chrfMetric{Chrf: p(0.4173)}, ModelResponse: &responseCol{Text: []string{"I have hunger."}}},
	}
	path := filepath.Join(t.TempDir(), "details_wmt16_de_en_0_2025-07-05T09-59-00.123456.parquet")
	if err := os.WriteFile(path, write(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	dss, err := Open(path)
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	ds := dss[0]
	for i := 0; i < ds.Records.Len(); i++ {
		s := ds.Records.Summary(i)
		rec, err := ds.Records.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != model.StatusUnscored || !s.HasScore || rec.Status != model.StatusUnscored || rec.Attempts[0].Status != model.StatusUnscored {
			t.Errorf("row %d: list %v (score %v), record %v", i, s.Status, s.Score, rec.Status)
		}
	}
	dss, err = Open(filepath.Join(realFixtures(t), "output", "details", "acme", "tiny-1b", date, "details_gsm8k|5_"+date+".parquet"))
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	if s := dss[0].Records.Summary(0); s.Status != model.StatusPass {
		t.Errorf("em 1: %v", s.Status)
	}
}
