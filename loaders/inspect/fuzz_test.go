package inspect

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"testing"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/internal/zipsafe"
)

// The fuzz targets read from memory: writing a file per input cost more
// than the reading it tested. Their seeds are small, since the fuzzer
// minimizes every input that finds new code, one run per byte it tries to
// drop: the fixtures (9 KB of zstd) made each minimization take the
// minute it is allowed, and the targets seemed to stall at 5 inputs.
// Byte-level targets feed the JSON parsers directly; the whole-file ones
// keep members stored with no CRC, so that mutations reach the JSON
// through the zip rather than only breaking its compressed data.

// tinyMembers is a finished log of two samples, one of them pooled, in
// the fewest bytes that still reach every part of the reader.
func tinyMembers() (header, summaries, reductions, sample1, sample2 string) {
	header = `{"version":2,"status":"success","eval":{"task":"t","created":"2025-07-05T09:59","config":{"epochs":1},"model":"m"},` +
		`"results":{"total_samples":2,"scores":[{"name":"s","scorer":"s","reducer":"mean","metrics":{"accuracy":{"name":"accuracy","value":0.5},"stderr":{"name":"stderr","value":0.5}}}]}}`
	summaries = `[{"id":1,"epoch":1,"input":"q1","target":"a","scores":{"s":{"value":"C","answer":"a"}}},` +
		`{"id":"x","epoch":1,"input":[{"role":"user","content":"q2"}],"target":["b"],"scores":{"s":{"value":NaN}},"error":"boom","limit":"token"}]`
	reductions = `[{"scorer":"s","reducer":"mean","samples":[{"sample_id":1,"value":1},{"sample_id":"x","value":0}]}]`
	sample1 = `{"id":1,"epoch":1,"input":"q1","messages":[{"role":"user","content":"attachment://ab"},{"role":"assistant","content":[{"type":"text","text":"a"}],"tool_calls":[{"id":"c","function":"f","arguments":{}}]}],` +
		`"output":{"completion":"a","choices":[]},"scores":{"s":{"value":"C"}},"events":[{"event":"span_begin","name":"solvers"},{"event":"model","input_refs":[[0,2]],"output":{}},{"event":"tool","function":"f"},{"event":"span_end"}],` +
		`"attachments":{"ab":"q1 long","cd":"pool text"},"events_data":{"messages":[{"role":"user","content":"attachment://cd"},{"role":"tool","content":"t"}],"calls":[]}}`
	sample2 = `{"id":"x","epoch":1,"messages":[],"events":[{"event":"model","input":[{"role":"user","content":"q2"}]}],"error":{"message":"boom","traceback":"tb"},"limit":{"type":"token","limit":9},"message_pool":[]}`
	return
}

// storedZip writes members stored, with no CRC (archive/zip then checks
// none), so that a mutated byte of a member is a mutated byte of its JSON.
func storedZip(members ...string) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for i := 0; i+1 < len(members); i += 2 {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: members[i], Method: zip.Store,
			CompressedSize64: uint64(len(members[i+1])), UncompressedSize64: uint64(len(members[i+1]))})
		if err != nil {
			panic(err)
		}
		io.WriteString(w, members[i+1])
	}
	zw.Close()
	return b.Bytes()
}

// openAll opens every record of an .eval held in memory.
func openAll(data []byte) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return
	}
	zipsafe.Register(zr)
	ds, err := evalFromZip("fuzz.eval", zr, func() {}, func(a *archive, name string) (io.ReadCloser, error) { return a.open(zr, name) }, false)
	if err != nil {
		return
	}
	for i := 0; i < ds.Records.Len(); i++ {
		_, _ = ds.Records.Record(i)
	}
}

// FuzzOpenEval opens arbitrary bytes as an .eval and reads every record:
// damaged zips must give issues, never a panic or a hang.
func FuzzOpenEval(f *testing.F) {
	h, s, r, s1, s2 := tinyMembers()
	f.Add(storedZip(headerJSON, h, summariesJSON, s, reductionsJSON, r, "samples/1_epoch_1.json", s1, "samples/x_epoch_1.json", s2))
	f.Add(storedZip(startJSON, h, "_journal/summaries/1.json", s, "samples/1_epoch_1.json", s1, "samples/1_epoch_1.json", s2))
	f.Add(zipOf([]member{{name: headerJSON, data: h, method: zipsafe.MethodZstd}, {name: summariesJSON, data: s, method: zip.Deflate},
		{name: "samples/1_epoch_1.json", data: s1, method: zipsafe.MethodZstd}}))
	// A header and reductions declaring 500 MB (archive.go's caps).
	f.Add(declaring(storedZip(headerJSON, h, summariesJSON, s, reductionsJSON, r), 500<<20, headerJSON, reductionsJSON))
	f.Fuzz(func(t *testing.T, data []byte) { openAll(data) })
}

// FuzzLogMembers feeds arbitrary header, summaries, reductions and
// sample JSON to the .eval reader, through a zip built around them: the
// parsing and the mapping of each member, at byte level.
func FuzzLogMembers(f *testing.F) {
	h, s, r, s1, s2 := tinyMembers()
	f.Add([]byte(h), []byte(s), []byte(r), []byte(s1))
	f.Add([]byte(h), []byte(s), []byte(""), []byte(s2))
	f.Add([]byte(`{"results":{"scorer":{"name":"s"},"metrics":{"mean":{"value":1}}}}`), []byte(`[{"id":1,"epoch":2,"scores":{"s":{"value":{"a":1}}}}]`), []byte(`[]`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, header, summaries, reductions, sample []byte) {
		openAll(storedZip(headerJSON, string(header), summariesJSON, string(summaries), reductionsJSON, string(reductions),
			"samples/1_epoch_1.json", string(sample), "samples/x_epoch_1.json", string(sample)))
	})
}

// FuzzJSONLog reads arbitrary bytes as a .json log, every record.
func FuzzJSONLog(f *testing.F) {
	h, _, r, s1, s2 := tinyMembers()
	f.Add([]byte(h[:len(h)-1] + `,"samples":[` + s1 + `,` + s2 + `],"reductions":` + r + `}`))
	f.Add([]byte(`{"version":2,"samples":[` + s1 + `],"results":{"scores":[{"name":"s","scorer":"s"}]}}`))
	if data, err := os.ReadFile(filepath.Join(fixtureDir, "capitals.json")); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := jsonLogFrom("fuzz.json", func() (io.ReaderAt, io.Closer, error) {
			return bytes.NewReader(data), io.NopCloser(nil), nil
		}, false)
		if err != nil {
			return
		}
		for i := 0; i < ds.Records.Len(); i++ {
			_, _ = ds.Records.Record(i)
		}
	})
}

// FuzzReadSample feeds arbitrary bytes to the streaming sample reader: it
// must return (an error is fine), never panic or hang.
func FuzzReadSample(f *testing.F) {
	_, _, _, s1, s2 := tinyMembers()
	f.Add([]byte(s1))
	f.Add([]byte(s2))
	f.Add([]byte(`{"scores":{"m":{"value":NaN}},"events":[`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _ := readSample(bytes.NewReader(data), func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
		if d != nil {
			_ = transcript(d, 1)
		}
	})
}

// FuzzSanitize checks that sanitized JSON keeps every byte outside the
// literals it rewrites.
func FuzzSanitize(f *testing.F) {
	f.Add([]byte(`{"a":NaN,"b":"NaN","c":-Infinity}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := nonfinite.Sanitize(data)
		if back := nonfinite.Restore(out); !bytes.Contains(data, []byte("\\u0000")) && bytes.IndexByte(data, 0) < 0 && !bytes.Equal(back, data) {
			t.Errorf("Restore(Sanitize(%q)) = %q", data, back)
		}
	})
}

// declaring rewrites the zip data so that the named members declare size
// bytes uncompressed, in their local and central headers.
func declaring(data []byte, size uint32, names ...string) []byte {
	out := bytes.Clone(data)
	for _, name := range names {
		for _, sig := range []struct {
			magic string
			at    int // where the uncompressed size is, from the signature
			name  int // where the name starts
		}{{"PK\x03\x04", 22, 30}, {"PK\x01\x02", 24, 46}} {
			for i := 0; ; {
				k := bytes.Index(out[i:], []byte(sig.magic))
				if k < 0 {
					break
				}
				k += i
				if k+sig.name+len(name) <= len(out) && string(out[k+sig.name:k+sig.name+len(name)]) == name {
					binary.LittleEndian.PutUint32(out[k+sig.at:], size)
				}
				i = k + 4
			}
		}
	}
	return out
}
