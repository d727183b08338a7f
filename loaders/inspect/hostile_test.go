package inspect

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"evalview/internal/hostile"
	"evalview/loaders/internal/zipsafe"
	"evalview/model"
)

// Hostile .eval logs, handled as run zips are (loaders/runzip/hostile_test.go):
// every variant opens with issues naming the member, or fails with a clear
// error; nothing panics, hangs, decompresses a bomb or is written to disk.

// writeEval writes a zip to a temporary .eval file.
func writeEval(t testing.TB, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "log.eval")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// openOne opens path, which must give one dataset.
func openOne(t testing.TB, path string) *model.Dataset {
	t.Helper()
	dss, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(dss) != 1 {
		t.Fatalf("%d datasets, want 1", len(dss))
	}
	return dss[0]
}

// allIssues opens every record and returns every issue.
func allIssues(t testing.TB, ds *model.Dataset) []model.Issue {
	t.Helper()
	is, err := ds.AllIssues()
	if err != nil {
		t.Fatal(err)
	}
	return is
}

func issueList(is []model.Issue) string {
	var b strings.Builder
	for _, i := range is {
		fmt.Fprintf(&b, "\n  %s %s", i.Code, i)
	}
	return b.String()
}

// hasIssue reports an issue with code whose file ends with file.
func hasIssue(is []model.Issue, code, file string) bool {
	for _, i := range is {
		if i.Code == code && strings.HasSuffix(i.File, file) {
			return true
		}
	}
	return false
}

// allocated runs fn and returns how many bytes it allocated.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// withoutMember is the finished zstd log's members but name.
func withoutMember(name string) []member {
	var out []member
	for _, m := range finishedMembers(zipsafe.MethodZstd, false, true) {
		if m.name != name {
			out = append(out, m)
		}
	}
	return out
}

// zstdBomb is 1 GB of zeros as zstd: one 64 MB frame repeated (a stream
// may hold many frames), about 30,000 times smaller than what it gives.
func zstdBomb(t testing.TB) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	frame := enc.EncodeAll(make([]byte, 64<<20), nil)
	return bytes.Repeat(frame, 16)
}

// TestEvalZipBomb: a sample member and the summaries as bombs, deflate
// and zstd, with an honest header (refused unread by the ratio or the
// absolute cap) or a lying one (cut off where the header says it ends).
// The log opens, the other samples open, and nothing near a GB is ever
// decompressed.
func TestEvalZipBomb(t *testing.T) {
	deflated, crc := hostile.Bomb(1024)
	zstded := zstdBomb(t)
	const target = "samples/2_epoch_1.json"
	cases := []struct {
		name, member string
		raw          []byte
		method       uint16
		size         uint64
		code         string
	}{
		{"deflate, honest header", target, deflated, zip.Deflate, 1 << 30, "zip-bomb"},
		{"zstd, honest header", target, zstded, zipsafe.MethodZstd, 1 << 30, "zip-bomb"},
		{"deflate, lying header", target, deflated, zip.Deflate, 1000, "bad-zip-entry"},
		{"zstd, lying header", target, zstded, zipsafe.MethodZstd, 1000, "bad-zip-entry"},
		{"deflate, header claims nothing", target, deflated, zip.Deflate, 0, "bad-zip-entry"},
		{"summaries, honest header", summariesJSON, zstded, zipsafe.MethodZstd, 1 << 30, "zip-bomb"},
		{"summaries, over the absolute cap", summariesJSON, deflated, zip.Deflate, 1 << 30, "entry-too-large"},
		{"summaries, lying header", summariesJSON, zstded, zipsafe.MethodZstd, 2000, "bad-zip-entry"},
		{"header, honest header", headerJSON, zstded, zipsafe.MethodZstd, 1 << 30, "zip-bomb"},
		// Within the ratio, past what a header is read whole to (reading
		// 500 MB of it took 1.4 GB): refused by its declared size, unread.
		{"header declaring 500 MB", headerJSON, deflated, zip.Deflate, 500 << 20, "entry-too-large"},
		{"reductions declaring 500 MB", reductionsJSON, deflated, zip.Deflate, 500 << 20, "entry-too-large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeEval(t, zipWith(withoutMember(c.member), func(zw *zip.Writer) {
				w, err := zw.CreateRaw(&zip.FileHeader{Name: c.member, Method: c.method, CRC32: crc,
					CompressedSize64: uint64(len(c.raw)), UncompressedSize64: c.size})
				if err != nil {
					t.Fatal(err)
				}
				w.Write(c.raw)
			}))
			var ds *model.Dataset
			var issues []model.Issue
			n := allocated(func() {
				ds = openOne(t, p)
				issues = allIssues(t, ds)
			})
			if n > 128<<20 {
				t.Errorf("opening the bomb allocated %d MB", n>>20)
			}
			if !hasIssue(issues, c.code, "!"+c.member) {
				t.Errorf("no %s for %s:%s", c.code, c.member, issueList(issues))
			}
			if c.member == target && ds.Records.Len() != 3 {
				t.Errorf("records = %d, want 3", ds.Records.Len())
			}
		})
	}
}

// TestEvalAbsoluteCap: a member that compresses like real JSON but is
// over the absolute cap is refused unread: the ratio alone does not let
// it through.
func TestEvalAbsoluteCap(t *testing.T) {
	defer func(v int64) { maxSampleMember = v }(maxSampleMember)
	maxSampleMember = 1 << 10
	p := writeEval(t, finishedLog(zipsafe.MethodZstd, false))
	issues := allIssues(t, openOne(t, p))
	for _, m := range []string{"samples/1_epoch_1.json", "samples/3_epoch_2.json"} {
		if !hasIssue(issues, "entry-too-large", "!"+m) {
			t.Errorf("no entry-too-large for %s:%s", m, issueList(issues))
		}
	}
}

// TestEvalHostileNames: ".." and absolute member names, backslashes, a
// symbolic link and a device entry standing for samples, and a summary
// whose id climbs out of samples/: each is an issue, none is read or
// followed, nothing is written, and the valid samples still open.
func TestEvalHostileNames(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ms := withoutMember("samples/2_epoch_2.json")
	ms = append(ms, member{name: "../evil.json", data: "{}"}, member{name: "/abs/samples/1_epoch_1.json", data: "{}"},
		member{name: `samples\1_epoch_1.json`, data: "{}"}, member{name: "samples/../../up.json", data: "{}"},
		member{name: "C:/windows/samples/x.json", data: "{}"})
	p := writeEval(t, zipWith(ms, func(zw *zip.Writer) {
		link := &zip.FileHeader{Name: "samples/2_epoch_2.json"}
		link.SetMode(fs.ModeSymlink | 0o777)
		w, _ := zw.CreateHeader(link)
		w.Write([]byte("../../../../etc/passwd"))
		dev := &zip.FileHeader{Name: "samples/7_epoch_1.json"}
		dev.SetMode(fs.ModeDevice | fs.ModeCharDevice | 0o666)
		w, _ = zw.CreateHeader(dev)
		w.Write([]byte("{}"))
	}))
	dir := filepath.Dir(p)
	ds := openOne(t, p)
	issues := allIssues(t, ds)
	for _, w := range []struct{ code, file string }{
		{"unsafe-path", "!../evil.json"},
		{"unsafe-path", "!/abs/samples/1_epoch_1.json"},
		{"unsafe-path", `!samples\1_epoch_1.json`},
		{"unsafe-path", "!samples/../../up.json"},
		{"unsafe-path", "!C:/windows/samples/x.json"},
		{"symlink-entry", "!samples/2_epoch_2.json"},
		{"special-entry", "!samples/7_epoch_1.json"},
		// The symlink stands for a sample the summaries list: its member
		// is missing, as Inspect's viewer would find.
		{"missing-member", "!samples/2_epoch_2.json"},
	} {
		if !hasIssue(issues, w.code, w.file) {
			t.Errorf("no %s for %s:%s", w.code, w.file, issueList(issues))
		}
	}
	if ds.Records.Len() != 3 {
		t.Fatalf("records = %d, want 3", ds.Records.Len())
	}
	r, err := ds.Records.Record(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Attempts) != 2 || r.Attempts[0].Text != "Lima" {
		t.Errorf("sample 2 did not open from its good epoch: %+v", r.Attempts)
	}
	for _, d := range []string{tmp, dir} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if e.Name() != "log.eval" {
				t.Errorf("%s appeared in %s", e.Name(), d)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "evil.json")); err == nil {
		t.Error("evil.json was written next to the log's folder")
	}
}

// TestEvalDuplicateMembers: a sample and the header written twice; the
// last copy is read, as Inspect's zip reader reads it, with a warning.
func TestEvalDuplicateMembers(t *testing.T) {
	ms := finishedMembers(zipsafe.MethodZstd, false, true)
	s := sample(1, 1, "What is the capital of France?", "Paris", "Paris, France", "C", nil)
	ms = append(ms, member{name: "samples/1_epoch_1.json", data: js(s, false), method: zipsafe.MethodZstd})
	var header member
	for _, m := range ms {
		if m.name == headerJSON {
			header = m
		}
	}
	header.data = strings.Replace(header.data, `"task":"capitals"`, `"task":"capitals-rescored"`, 1)
	ms = append(ms, header)
	ds := openOne(t, writeEval(t, zipOf(ms)))
	if ds.Task != "capitals-rescored" {
		t.Errorf("task = %q: the first header.json was read, not the last", ds.Task)
	}
	for _, m := range []string{"samples/1_epoch_1.json", headerJSON} {
		if !hasIssue(ds.Issues, "duplicate-member", "!"+m) {
			t.Errorf("no duplicate-member for %s:%s", m, issueList(ds.Issues))
		}
	}
	r, err := ds.Records.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Attempts[0].Text; got != "Paris, France" {
		t.Errorf("epoch 1 text = %q: the first copy of the member was read", got)
	}
}

// TestEvalTruncated cuts a log everywhere that matters and damages its
// central directory (a lying one: offsets, sizes, counts, names): each
// variant is an error that says the zip is unreadable, or a dataset whose
// records all open, with issues; never a panic or a hang.
func TestEvalTruncated(t *testing.T) {
	data := finishedLog(zipsafe.MethodZstd, false)
	cd := bytes.Index(data, []byte("PK\x01\x02"))
	lastCD := bytes.LastIndex(data, []byte("PK\x01\x02"))
	eocd := bytes.LastIndex(data, []byte("PK\x05\x06"))
	variants := map[string][]byte{}
	for i := 1; i < 24; i++ {
		variants[fmt.Sprintf("cut at %d/24", i)] = data[:len(data)*i/24]
	}
	variants["central directory only"] = data[cd:]
	flip := func(name string, at int, b byte) {
		d := bytes.Clone(data)
		d[at] ^= b
		variants[name] = d
	}
	flip("first entry's offset", cd+42, 0x40)
	flip("first entry's compressed size", cd+20, 0x7f)
	flip("first entry's uncompressed size", cd+24, 0x7f)
	flip("first entry's name", cd+46, 0x01)
	flip("first entry's method", cd+10, 0x04)
	flip("last entry's offset", lastCD+42, 0x10)
	flip("last entry's size", lastCD+20, 0x01)
	flip("entry count", eocd+10, 0xff)
	flip("central directory offset", eocd+16, 0xff)
	flip("central directory size", eocd+12, 0x01)
	flip("a local header", 0, 0xff)
	flip("member data", cd/2, 0xff)
	for name, d := range variants {
		t.Run(name, func(t *testing.T) {
			p := writeEval(t, d)
			dss, err := Open(p)
			if err != nil {
				if !strings.Contains(err.Error(), "not a readable zip") {
					t.Errorf("error %v does not say the zip is unreadable", err)
				}
				return
			}
			for _, ds := range dss {
				allIssues(t, ds)
			}
		})
	}
}

// TestEvalSummariesWithoutMembers: a summaries.json listing thousands of
// samples of which the zip holds none: each is a missing-member, the list
// shows them all from the summaries, and every record opens.
func TestEvalSummariesWithoutMembers(t *testing.T) {
	const n = 2000
	var ms []member
	var sums []obj
	for i := 1; i <= n; i++ {
		sums = append(sums, sumOf(sample(i, 1, fmt.Sprintf("Question %d?", i), "x", "x", "C", nil)))
	}
	for _, m := range finishedMembers(zip.Deflate, false, true) {
		switch {
		case strings.HasPrefix(m.name, samplesDir):
		case m.name == summariesJSON:
			m.data = js(sums, false)
			ms = append(ms, m)
		case m.name == reductionsJSON:
		default:
			ms = append(ms, m)
		}
	}
	ds := openOne(t, writeEval(t, zipOf(ms)))
	if ds.Records.Len() != n {
		t.Fatalf("records = %d, want %d", ds.Records.Len(), n)
	}
	issues := allIssues(t, ds)
	missing := 0
	for _, is := range issues {
		if is.Code == "missing-member" {
			missing++
		}
	}
	if missing != n {
		t.Errorf("%d missing-member issues, want %d", missing, n)
	}
	r, err := ds.Records.Record(n - 1)
	if err != nil || r.Title != fmt.Sprintf("Question %d?", n) {
		t.Errorf("last record: %v %q", err, r.Title)
	}
}

// TestEvalZipOpenedOnce: the records of an .eval are read from the zip
// zipsafe keeps open, however many are read, from several goroutines;
// opening the zip for each record read its central directory each time.
func TestEvalZipOpenedOnce(t *testing.T) {
	p := writeEval(t, finishedLog(zipsafe.MethodZstd, false))
	ds := openOne(t, p)
	x := ds.Records.(*index)
	before := zipsafe.Opens()
	done := make(chan bool)
	for w := 0; w < 4; w++ {
		go func() {
			defer func() { done <- true }()
			for round := 0; round < 5; round++ {
				for i := 0; i < x.Len(); i++ {
					x.mu.Lock()
					x.cache, x.order = map[int]*model.Record{}, nil // past the record cache
					x.mu.Unlock()
					if r, err := x.Record(i); err != nil || len(r.Raw) < 2 {
						t.Errorf("record %d: %v", i, err)
					}
				}
			}
		}()
	}
	for w := 0; w < 4; w++ {
		<-done
	}
	if got := zipsafe.Opens() - before; got != 0 {
		t.Errorf("reading the records opened the zip %d more times; it is open since the log was", got)
	}
}
