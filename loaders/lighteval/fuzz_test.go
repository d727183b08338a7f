package lighteval

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go/format"

	"evalview/internal/hostile"
	"evalview/model"
)

// The fuzz targets read from memory (writing a file per input cost more
// than the reading it tested), and the fuzzer's minimization is bounded
// (fuzzmin), which is what made them seem to stall.

// FuzzOpenDetails opens arbitrary bytes as a details parquet file and
// reads every row: a damaged file must give an error or issues, never a
// panic.
func FuzzOpenDetails(f *testing.F) {
	for name, data := range fixtures() {
		if filepath.Ext(name) == ".parquet" {
			f.Add(data)
		}
	}
	// Files that declare too much (bounds.go), and their valid twins.
	f.Add(hostile.ParquetDeepSchema(100))
	f.Add(hostile.ParquetDictionary(1))
	f.Add(hostile.ParquetDictionary(1<<31 - 1))
	f.Add(hostile.ParquetDeepLists(3, 10))
	f.Add(hostile.ParquetDeepLists(70, 10))
	for _, data := range hostile.ParquetLies() {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := detailsFrom("details_t|0_2025-01-01T00-00-00.000000.parquet", func() (*pqFile, error) {
			return parquetFrom(bytes.NewReader(data), int64(len(data)), io.NopCloser(nil))
		})
		if err != nil {
			return
		}
		for i := 0; i < ds.Records.Len(); i++ {
			_, _ = ds.Records.Record(i)
		}
	})
}

// FuzzRow feeds arbitrary rows, as parquet-go decodes them (maps, lists,
// strings, bytes, ints and floats), to the row mapping of each era, at
// byte level: JSON whose integral numbers become int64, strings starting
// with "b:" []byte and "nan" NaN.
func FuzzRow(f *testing.F) {
	f.Add([]byte(`{"doc":{"query":"q","choices":["a","b"],"gold_index":1,"instruction":"i"},"model_response":{"text":["a"],"text_post_processed":["a"],"reasonings":["r"],"logprobs":[-1.5,"nan"],"input":"p"},"metric":{"acc":1,"em":"nan"}}`), uint8(0))
	f.Add([]byte(`{"example":"q","choices":["a"],"gold":["a"],"gold_index":[0],"metrics":{"acc":1.0},"predictions":["[-0.1, True]"],"full_prompt":"b:p"}`), uint8(1))
	f.Add([]byte(`{"example":"q","choices":"[' a', ' b']","gold":"[' a']","gold_index":"[0]","metrics":"{'acc': 1.0}","predictions":"[(-0.05, True)]"}`), uint8(2))
	eras := []string{eraStruct, eraFlat, eraFlatStr}
	f.Fuzz(func(t *testing.T, data []byte, era uint8) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		m, ok := asParquet(v).(map[string]any)
		if !ok {
			return
		}
		e := eras[int(era)%len(eras)]
		r := normalize(m, e)
		s := summaryOf(0, r, "acc", "f.parquet")
		x := &index{path: "f.parquet", era: e, main: "acc", sums: []model.Summary{s}}
		_ = x.record(0, r, m)
	})
}

// asParquet turns decoded JSON into the values parquet-go gives.
func asParquet(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			x[k] = asParquet(c)
		}
	case []any:
		for i, c := range x {
			x[i] = asParquet(c)
		}
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
	case string:
		switch {
		case x == "nan":
			return math.NaN()
		case len(x) > 2 && x[:2] == "b:":
			return []byte(x[2:])
		}
	}
	return v
}

// FuzzResults feeds arbitrary bytes to the results file reader and its
// metrics and facts.
func FuzzResults(f *testing.F) {
	for name, data := range fixtures() {
		if filepath.Ext(name) == ".json" {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"results":{"t|0":{"acc":NaN,"acc_stderr":"x"},"all":{}},"config_general":{"model_name":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := parseResults("results.json", data)
		if err != nil {
			return
		}
		for _, task := range r.taskOrder {
			_ = r.metrics(task)
			_, _ = r.taskKey(task)
		}
		_ = r.facts()
	})
}

// FuzzParsePy feeds arbitrary text to the Python literal reader.
func FuzzParsePy(f *testing.F) {
	f.Add(`{'acc': 1.0, 'x': [(-0.5, True)], 'n': None}`)
	f.Fuzz(func(t *testing.T, s string) { _, _ = parsePy(s) })
}

// FuzzCheckFooter feeds arbitrary bytes to the footer check as a footer
// and as a page header: it never panics, never reads past what it is
// given, and what it lets through decodes without a panic.
func FuzzCheckFooter(f *testing.F) {
	f.Add(hostile.ParquetDeepSchema(3))
	for _, data := range hostile.ParquetLies() {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = checkFile(bytes.NewReader(data), int64(len(data)))
		n, err := thriftSize(data)
		if err != nil {
			return
		}
		if n > len(data) {
			t.Fatalf("thriftSize = %d of %d bytes", n, len(data))
		}
		var md format.FileMetaData
		_ = decode(data[:n], &md)
		var h format.PageHeader
		_ = decode(data[:n], &h)
	})
}
