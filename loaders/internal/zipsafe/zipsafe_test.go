package zipsafe

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestLimit: the ratio binds past the floor, the absolute limit above it.
func TestLimit(t *testing.T) {
	for _, c := range []struct {
		compressed uint64
		limit      int64
		want       int64
		byRatio    bool
	}{
		{100, 1 << 30, RatioFloor, true},
		{1 << 20, 1 << 30, MaxRatio << 20, true},
		{1 << 20, 64 << 20, 64 << 20, false},
		{1 << 62, 1 << 30, 1 << 30, false},
	} {
		n, br := Limit(&zip.File{FileHeader: zip.FileHeader{CompressedSize64: c.compressed}}, c.limit)
		if n != c.want || br != c.byRatio {
			t.Errorf("Limit(%d, %d) = %d, %v; want %d, %v", c.compressed, c.limit, n, br, c.want, c.byRatio)
		}
	}
}

// zipFile writes one deflated member of data and returns the archive.
func zipFile(t *testing.T, data []byte) string {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create("m.json")
	w.Write(data)
	zw.Close()
	p := filepath.Join(t.TempDir(), "a.zip")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpenLimited: 32 MB of zeros deflate about 1000 times: past the
// floor, refused as a bomb unread; a member within its ratio is read.
func TestOpenLimited(t *testing.T) {
	zr, release, err := Acquire(zipFile(t, make([]byte, 32<<20)))
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if _, err := OpenLimited(zr.File[0], 1<<30); !errors.Is(err, ErrRatio) {
		t.Errorf("a bomb opened: %v", err)
	}
	if _, err := ReadLimited(zr.File[0], 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a member over the limit opened: %v", err)
	}
	zr2, release2, err := Acquire(zipFile(t, bytes.Repeat([]byte(`{"a": 1}`), 100)))
	if err != nil {
		t.Fatal(err)
	}
	defer release2()
	rc, err := OpenLimited(zr2.File[0], 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || len(data) != 800 {
		t.Errorf("read %d bytes, %v", len(data), err)
	}
}

// TestAcquireReopensChanged: a zip replaced on disk (a log flushed again)
// is opened again; one unchanged is not.
func TestAcquireReopensChanged(t *testing.T) {
	p := zipFile(t, []byte("one"))
	_, rel, err := Acquire(p)
	if err != nil {
		t.Fatal(err)
	}
	rel()
	before := Opens()
	_, rel, _ = Acquire(p)
	rel()
	if Opens() != before {
		t.Error("an unchanged zip was opened again")
	}
	data, _ := os.ReadFile(zipFile(t, []byte("two, longer")))
	os.WriteFile(p, data, 0o644)
	zr, rel, err := Acquire(p)
	if err != nil {
		t.Fatal(err)
	}
	defer rel()
	if Opens() != before+1 || zr.File[0].UncompressedSize64 != 11 {
		t.Error("the changed zip was not reopened")
	}
}
