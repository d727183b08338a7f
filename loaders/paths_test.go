package loaders

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"evalview/internal/hostile"
	"evalview/internal/testos"
	"evalview/model"
)

// openGuarded opens paths in a goroutine so that a loader blocking on a
// FIFO fails the test instead of hanging the suite. The guard is generous:
// it catches hangs, it does not measure speed.
func openGuarded(t *testing.T, paths []string, opt Options) ([]*model.Dataset, error) {
	t.Helper()
	type result struct {
		ds  []*model.Dataset
		err error
	}
	ch := make(chan result, 1)
	go func() {
		ds, err := Open(paths, opt)
		if err == nil {
			for _, d := range ds {
				for !d.Records.Done() {
					time.Sleep(time.Millisecond)
				}
				if _, e := d.AllIssues(); e != nil {
					err = e
				}
			}
		}
		ch <- result{ds, err}
	}()
	select {
	case r := <-ch:
		return r.ds, r.err
	case <-time.After(time.Minute):
		t.Fatalf("Open(%v) hangs", paths)
		return nil, nil
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := testos.Mkfifo(p); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// TestSpecialFiles: a FIFO or a device is refused without being opened (a
// FIFO's open blocks until a writer comes), whether named directly or
// found inside a folder of any format; the folder's real files still load.
func TestSpecialFiles(t *testing.T) {
	t.Run("direct", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "samples_x_2025-01-01T00-00-00.jsonl")
		mkfifo(t, fifo)
		paths := []string{fifo}
		if _, err := os.Stat("/dev/zero"); err == nil {
			paths = append(paths, "/dev/zero")
		}
		for _, p := range paths {
			for _, as := range []model.Kind{"", model.KindLMEval, model.KindRun, model.KindSample, model.KindTestset} {
				_, err := openGuarded(t, []string{p}, Options{As: as})
				var oe *OpenError
				if !errors.As(err, &oe) || !strings.Contains(err.Error(), "not a regular file") {
					t.Errorf("%s --as %q: error %v, want a refusal", p, as, err)
				}
			}
		}
	})
	files, err := hostile.Terminal()
	if err != nil {
		t.Fatal(err)
	}
	// Each format's folder gets a FIFO named as that format's files are.
	for _, c := range []struct{ dir, fifo string }{
		{"lmeval", "samples_arc_easy_2025-11-02T09-14-27.999999.jsonl"},
		{"sample", "fifo.jsonl"},
		{"testset", "fifo.jsonl"},
		{"run", "samples/0009_fifo.json"},
		{"run", "scores/0009_score.json"},
		{"run", "manifest.json"},
		{"", "fifo.zip"},
		{"", "fifo.jsonl"},
	} {
		t.Run(c.dir+"/"+c.fifo, func(t *testing.T) {
			root := t.TempDir()
			if err := hostile.WriteFiles(root, files); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(root, c.dir, filepath.FromSlash(c.fifo))
			os.Remove(p)
			mkfifo(t, p)
			ds, err := openGuarded(t, []string{filepath.Join(root, c.dir)}, Options{})
			if len(ds) == 0 {
				t.Errorf("nothing loaded: %v", err)
			}
		})
	}
}

// TestUnreadable: no read permission on a file or a folder is a clear open
// error. Root reads everything, so the test skips when run as root.
func TestUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores file permissions")
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "judged.jsonl")
	os.WriteFile(f, []byte(`{"id": "a", "messages": []}`+"\n"), 0o000)
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o000)
	defer os.Chmod(sub, 0o755)
	for _, p := range []string{f, sub} {
		_, err := openGuarded(t, []string{p}, Options{})
		var oe *OpenError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), "permission denied") {
			t.Errorf("%s: error %v, want permission denied", p, err)
		}
	}
}

// TestEmptyAndMisplaced: an empty file, an empty folder, and folders where
// files are expected (a folder named like a samples file, a run whose
// manifest.json is a folder) open with an error or issues, never a panic.
func TestEmptyAndMisplaced(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	emptyLM := filepath.Join(dir, "samples_x_2025-01-01T00-00-00.jsonl")
	os.WriteFile(emptyLM, nil, 0o644)
	emptyDir := filepath.Join(dir, "nothing")
	os.Mkdir(emptyDir, 0o755)
	dirAsFile := filepath.Join(dir, "d", "samples_y_2025-01-01T00-00-00.jsonl")
	os.MkdirAll(dirAsFile, 0o755)
	run := filepath.Join(dir, "run")
	os.MkdirAll(filepath.Join(run, "manifest.json"), 0o755)
	os.MkdirAll(filepath.Join(run, "samples", "0001.json"), 0o755)
	for _, p := range []string{empty, emptyLM, emptyDir, dirAsFile, run} {
		for _, as := range []model.Kind{"", model.KindLMEval, model.KindRun, model.KindSample, model.KindTestset} {
			ds, err := openGuarded(t, []string{p}, Options{As: as})
			if err == nil && len(ds) == 0 {
				t.Errorf("%s --as %q: neither datasets nor an error", p, as)
			}
			for _, d := range ds {
				if d.Records.Len() > 0 {
					t.Errorf("%s --as %q: %d records from nothing", p, as, d.Records.Len())
				}
			}
			if p == run && as == model.KindRun {
				issues, _ := ds[0].AllIssues()
				found := 0
				for _, is := range issues {
					if is.Code == "not-a-file" {
						found++
					}
				}
				if found != 2 {
					t.Errorf("run with folders for files: %d not-a-file issues, want 2: %v", found, issues)
				}
			}
			if p == empty && as == "" && (err == nil || !strings.Contains(err.Error(), "empty")) {
				t.Errorf("empty file: error %v does not say it is empty", err)
			}
		}
	}
}

// TestChangedWhileOpen truncates, rewrites or extends each line-based file
// after it was opened: reading a record then gives an error or a record,
// never a panic, and records still on disk keep loading.
func TestChangedWhileOpen(t *testing.T) {
	for _, f := range lineFormats {
		valid, err := os.ReadFile(filepath.Join(hostile.Root(), f.src))
		if err != nil {
			t.Fatal(err)
		}
		changes := map[string]func(p string){
			"truncated": func(p string) { os.Truncate(p, int64(len(valid)/2)) },
			"emptied":   func(p string) { os.Truncate(p, 0) },
			"grown":     func(p string) { os.WriteFile(p, append(append(clone(valid), valid...), valid...), 0o644) },
			"replaced":  func(p string) { os.WriteFile(p, []byte(strings.Repeat("x", len(valid))), 0o644) },
			"removed":   func(p string) { os.Remove(p) },
		}
		for name, change := range changes {
			t.Run(string(f.kind)+"/"+name, func(t *testing.T) {
				p := filepath.Join(t.TempDir(), f.name)
				os.WriteFile(p, valid, 0o644)
				ds, err := Open([]string{p}, Options{})
				if err != nil || len(ds) != 1 {
					t.Fatalf("%d datasets, %v", len(ds), err)
				}
				d := ds[0]
				waitDone(t, d)
				change(p)
				failed := 0
				for i := 0; i < d.Records.Len(); i++ {
					r, err := d.Records.Record(i)
					switch {
					case err != nil:
						failed++
						if strings.TrimSpace(err.Error()) == "" {
							t.Errorf("record %d: empty error", i)
						}
					case r == nil:
						t.Errorf("record %d: nil record and no error", i)
					}
				}
				if name == "grown" && failed > 0 {
					t.Errorf("%d records fail after the file only grew", failed)
				}
				t.Logf("%d of %d records fail to read", failed, d.Records.Len())
			})
		}
	}
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// TestPermissionMessage checks the message a permission error gives with
// an injected error, since TestUnreadable cannot run as root.
func TestPermissionMessage(t *testing.T) {
	p := "/data/samples.jsonl"
	err := &OpenError{Path: p, Err: cleanPathErr(&os.PathError{Op: "open", Path: p, Err: syscall.EACCES})}
	if got := err.Error(); got != p+": permission denied" {
		t.Errorf("message %q", got)
	}
	if !errors.Is(err, os.ErrPermission) {
		t.Error("the error no longer says it is a permission problem")
	}
}
