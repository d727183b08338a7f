package runzip

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"evalview/internal/hostile"
	"evalview/model"
)

// zipWithRaw writes the run plus one pre-compressed entry whose header
// claims size bytes.
func zipWithRaw(t *testing.T, rs runSet, name string, raw []byte, crc uint32, size uint64) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range rs.entries("run/") {
		w, _ := zw.Create(e.name)
		w.Write(e.data)
	}
	w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(len(raw)), UncompressedSize64: size})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(raw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "bomb.zip")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// allocated runs fn and returns how many bytes it allocated.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestZipBomb: a GB of zeros compressed to a MB, as a sample. With an
// honest header it is refused unread; with a header that lies it is cut
// off where the header said it ends; either way the other samples load
// and nothing near a GB is ever decompressed.
func TestZipBomb(t *testing.T) {
	raw, crc := hostile.Bomb(1024)
	if len(raw) > 4<<20 {
		t.Fatalf("bomb is %d bytes compressed", len(raw))
	}
	const name = "run/samples/0009_bomb.json"
	for _, c := range []struct {
		name string
		size uint64
		code string
	}{
		{"honest header", 1 << 30, "entry-too-large"},
		{"lying header", 1000, "bad-zip-entry"},
		{"header claims nothing", 0, "bad-zip-entry"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := zipWithRaw(t, validRun(t), name, raw, crc, c.size)
			var ds *model.Dataset
			var issues []model.Issue
			n := allocated(func() {
				ds = openOne(t, p)
				issues = allIssues(t, ds)
			})
			if n > 64<<20 {
				t.Errorf("opening the bomb allocated %d MB", n>>20)
			}
			checkIssues(t, p, issues, []want{{code: c.code, file: "samples/0009_bomb.json", sev: model.SeverityError}})
			if ds.Records.Len() != 3 {
				t.Errorf("records = %d, want the 3 good samples", ds.Records.Len())
			}
		})
	}
}

// TestRunBudget: many entries that are each under the entry cap but
// together over the run's cap stop at the run's cap, mid-entry: the run
// never decompresses more than maxRunBytes (plus one byte).
func TestRunBudget(t *testing.T) {
	defer func(v int64) { maxRunBytes = v }(maxRunBytes)
	maxRunBytes = 10 << 20
	raw, crc := hostile.Bomb(4)
	rs := validRun(t)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range rs.entries("") {
		w, _ := zw.Create(e.name)
		w.Write(e.data)
	}
	for i := range 5 {
		w, _ := zw.CreateRaw(&zip.FileHeader{Name: "samples/9" + string(rune('0'+i)) + ".json", Method: zip.Deflate,
			CRC32: crc, CompressedSize64: uint64(len(raw)), UncompressedSize64: 4 << 20})
		w.Write(raw)
	}
	zw.Close()
	p := filepath.Join(t.TempDir(), "big.zip")
	os.WriteFile(p, buf.Bytes(), 0o644)
	var issues []model.Issue
	n := allocated(func() { issues = allIssues(t, openOne(t, p)) })
	// Two 4 MB entries fit; the third is over what is left and is refused
	// by its header, unread.
	if n > 40<<20 {
		t.Errorf("allocated %d MB for a 10 MB budget", n>>20)
	}
	found := false
	for _, is := range issues {
		if is.Code == "run-too-large" {
			found = true
			if is.File != p+"!samples/92.json" {
				t.Errorf("run-too-large names %s, want the third big entry", is.File)
			}
		}
	}
	if !found {
		t.Errorf("no run-too-large:%s", dump(issues))
	}
}

// TestHostileZipEntries: symlinks, device entries, names that are not
// UTF-8 or hold escape sequences, exact duplicates: each is an issue or
// loads, never a panic, and the valid run around them still loads.
func TestHostileZipEntries(t *testing.T) {
	rs := validRun(t)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range rs.entries("run/") {
		w, _ := zw.Create(e.name)
		w.Write(e.data)
	}
	link := &zip.FileHeader{Name: "run/samples/0007_link.json"}
	link.SetMode(fs.ModeSymlink | 0o777)
	w, _ := zw.CreateHeader(link)
	w.Write([]byte("../../../../etc/passwd"))
	dev := &zip.FileHeader{Name: "run/samples/0008_dev.json"}
	dev.SetMode(fs.ModeDevice | fs.ModeCharDevice | 0o666)
	w, _ = zw.CreateHeader(dev)
	w.Write([]byte("{}"))
	// Names that are not UTF-8, with the flag that says so and without.
	for _, h := range []*zip.FileHeader{
		{Name: "run/samples/\xff\xfe_latin1_\xe9.json", NonUTF8: true},
		{Name: "run/samples/\x1b]2;pwned\x07.json"},
	} {
		w, _ = zw.CreateHeader(h)
		w.Write(rs[s1])
	}
	// An exact duplicate name.
	w, _ = zw.Create("run/" + s2)
	w.Write(rs[s2])
	zw.Close()
	p := filepath.Join(t.TempDir(), "hostile.zip")
	os.WriteFile(p, buf.Bytes(), 0o644)

	ds := openOne(t, p)
	issues := allIssues(t, ds)
	for _, w := range []struct{ code, file string }{
		{"symlink-entry", "run/samples/0007_link.json"},
		{"special-entry", "run/samples/0008_dev.json"},
		{"duplicate-path", s2},
	} {
		found := false
		for _, is := range issues {
			found = found || (is.Code == w.code && is.File == p+"!"+w.file)
		}
		if !found {
			t.Errorf("no %s for %s:%s", w.code, w.file, dump(issues))
		}
	}
	// The three good samples and the two oddly named copies of the first.
	if n := ds.Records.Len(); n != 5 {
		t.Errorf("records = %d, want 5;%s", n, dump(issues))
	}
	for i := 0; i < ds.Records.Len(); i++ {
		if _, err := ds.Records.Record(i); err != nil {
			t.Errorf("record %d: %v", i, err)
		}
	}
}

// TestCorruptArchive cuts and damages a valid zip everywhere that matters
// (the central directory, its end record, local headers): every variant
// is an error or a dataset with issues, never a panic or a hang.
func TestCorruptArchive(t *testing.T) {
	data, err := os.ReadFile(validRun(t).zip(t, "run/"))
	if err != nil {
		t.Fatal(err)
	}
	cd := bytes.LastIndex(data, []byte("PK\x01\x02"))
	eocd := bytes.LastIndex(data, []byte("PK\x05\x06"))
	variants := map[string][]byte{}
	for i := 1; i < 16; i++ {
		variants["cut at "+string(rune('a'+i))] = data[:len(data)*i/16]
	}
	flip := func(name string, at int) {
		d := bytes.Clone(data)
		d[at] ^= 0xff
		variants[name] = d
	}
	flip("central directory signature", cd)
	flip("central directory name length", cd+28)
	flip("central directory offset", eocd+16)
	flip("central directory size", eocd+12)
	flip("entry count", eocd+10)
	flip("first local header", 0)
	flip("local header name length", 26)
	for name, d := range variants {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "run.zip")
			os.WriteFile(p, d, 0o644)
			dss, err := Open(p)
			if err != nil {
				if !strings.Contains(err.Error(), "not a readable zip") {
					t.Errorf("error %v does not say the zip is unreadable", err)
				}
				return
			}
			for _, ds := range dss {
				if _, err := ds.AllIssues(); err != nil {
					// A record the index listed but cannot read is
					// reported, not a crash.
					t.Logf("%v", err)
				}
			}
		})
	}
}

// TestNothingExtracted opens the hostile zips with TMPDIR pointed at an
// empty folder: nothing is written there or beside the zip.
func TestNothingExtracted(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	rs := validRun(t)
	p := filepath.Join(dir, "run.zip")
	data, _ := os.ReadFile(rs.zip(t, "run/", entry{name: "run/../evil.json", data: []byte("{}")}, entry{name: "/abs.json", data: []byte("{}")}))
	os.WriteFile(p, data, 0o644)
	ds := openOne(t, p)
	allIssues(t, ds)
	for _, d := range []string{tmp, dir, filepath.Dir(dir)} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if d == dir && e.Name() == "run.zip" || d == filepath.Dir(dir) {
				continue
			}
			t.Errorf("%s appeared in %s", e.Name(), d)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "evil.json")); err == nil {
		t.Error("evil.json was written next to the zip's folder")
	}
}

// TestBrokenRunFiles breaks one sample file of a run folder and of a run
// zip in each way the line-based formats are broken: the file gets an
// issue with its line, and the other samples load.
func TestBrokenRunFiles(t *testing.T) {
	good := validRun(t)[s3]
	deep := 100_000
	cases := []struct {
		name  string
		data  []byte
		loads bool // the sample still loads
		line  int  // line of the bad-json issue, when it does not
	}{
		{"truncated", good[:len(good)/2], false, bytes.Count(good[:len(good)/2], []byte("\n")) + 1},
		{"NUL bytes", append(bytes.Clone(good), 0, 0, 0), false, bytes.Count(good, []byte("\n")) + 1},
		{"NUL inside", bytes.Replace(good, []byte(`"status"`), []byte("\"sta\x00tus\""), 1), false, 0},
		{"deep", []byte("{\"x\":\n" + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "}"), false, 2},
		{"deep unclosed", []byte("{\"x\":\n" + strings.Repeat("{\"a\":", deep)), false, 2},
		{"CRLF", bytes.ReplaceAll(good, []byte("\n"), []byte("\r\n")), true, 0},
		{"duplicate keys", bytes.Replace(good, []byte("{"), []byte(`{"sample_index": 77, "zz": 1, "zz": 2,`), 1), true, 0},
		{"big numbers", bytes.Replace(good, []byte("{"), []byte(`{"zz_big": 1e400, "zz_long": 123456789012345678901234567890123,`), 1), true, 0},
	}
	for _, c := range cases {
		for _, asZip := range []bool{false, true} {
			t.Run(c.name+map[bool]string{false: " folder", true: " zip"}[asZip], func(t *testing.T) {
				rs := validRun(t)
				rs[s3] = c.data
				p := rs.dir(t)
				if asZip {
					p = rs.zip(t, "")
				}
				ds := openOne(t, p)
				issues := allIssues(t, ds)
				want := 2
				if c.loads {
					want = 3
				}
				if n := ds.Records.Len(); n != want {
					t.Errorf("records = %d, want %d;%s", n, want, dump(issues))
				}
				if c.loads {
					return
				}
				found := false
				for _, is := range issues {
					if is.Code == "bad-json" && strings.HasSuffix(is.File, s3) && (c.line == 0 || is.Line == c.line) {
						found = true
					}
				}
				if !found {
					t.Errorf("no bad-json for %s line %d;%s", s3, c.line, dump(issues))
				}
			})
		}
	}
}
