package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"evalview/loaders"
	"evalview/loaders/source"
	"evalview/loaders/source/sourcetest"
	"evalview/tui"
)

// upload puts every file under dir into put, keyed by its slash path
// under prefix.
func upload(t *testing.T, dir, prefix string, put func(key string, data []byte)) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		put(prefix+filepath.ToSlash(rel), b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// zipOf is dir packed as a run zip.
func zipOf(t *testing.T, dir string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	upload(t, dir, "", func(key string, data []byte) {
		w, err := zw.Create(key)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	})
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gz(t *testing.T, data []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(data)
	w.Close()
	return buf.Bytes()
}

// sameOutput runs args on the local path and on the remote one and wants
// the same exit code and output, but for the paths named.
func sameOutput(t *testing.T, local, remote string, args ...string) {
	t.Helper()
	source.Reset() // read the remote copy anew each time
	lout, lerr, lcode := runCmd(t, append(args, local)...)
	rout, rerr, rcode := runCmd(t, append(args, remote)...)
	// Sample media are looked for by absolute path, beside the file.
	abs, _ := filepath.Abs(local)
	absDir, _ := filepath.Abs(filepath.Dir(local))
	for _, r := range [][2]string{{abs, remote}, {local, remote}, {absDir + "/", source.Dir(remote) + "/"}} {
		lout = strings.ReplaceAll(lout, r[0], r[1])
		lerr = strings.ReplaceAll(lerr, r[0], r[1])
	}
	if lcode != rcode || lout != rout || lerr != rerr {
		t.Errorf("%v %s: exit %d, local %d\n--- remote:\n%s%s\n--- local:\n%s%s", args, remote, rcode, lcode, rout, rerr, lout, lerr)
	}
	if rcode == 2 || strings.TrimSpace(rout) == "" {
		t.Errorf("%v %s: exit %d, nothing to compare: %q %q", args, remote, rcode, rout, rerr)
	}
}

// Remote copies of the fixtures give the same summary and check as the
// files on disk, byte for byte but for their paths: an output folder of
// model folders and one model folder over S3 and the Hub, a run zip (its
// members read from the central directory), a gzip samples file.
func TestRemoteSummaryAndCheckMatchLocal(t *testing.T) {
	remoteTest(t)
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s3 := sourcetest.NewS3(t, "evals")
	hub := sourcetest.NewHub(t)
	overview := filepath.Join(fixtures, "overview")
	two := filepath.Join(fixtures, "two_filters")
	upload(t, overview, "out/", func(k string, b []byte) { s3.Put(t, k, b) })
	upload(t, two, "org__model/", func(k string, b []byte) { hub.Put("datasets/org/details", k, b) })
	runDir := filepath.Join("..", "..", "testdata", "run", "valid")
	s3.Put(t, "runs/run.zip", zipOf(t, runDir))
	local := t.TempDir()
	os.WriteFile(filepath.Join(local, "run.zip"), zipOf(t, runDir), 0o644)
	samples, _ := os.ReadFile(filepath.Join(two, "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"))
	os.WriteFile(filepath.Join(local, "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl.gz"), gz(t, samples), 0o644)
	s3.Put(t, "gz/samples_gsm8k_2025-08-07T11-42-40.066002.jsonl.gz", gz(t, samples))

	for _, args := range [][]string{{"summary", "--json"}, {"summary"}, {"check"}, {"check", "--json"}} {
		sameOutput(t, overview, "s3://evals/out", args...)
		sameOutput(t, two, "hf://datasets/org/details/org__model", args...)
		sameOutput(t, filepath.Join(local, "run.zip"), "s3://evals/runs/run.zip", args...)
		sameOutput(t, filepath.Join(local, "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl.gz"), "s3://evals/gz/samples_gsm8k_2025-08-07T11-42-40.066002.jsonl.gz", args...)
	}
	// Every other format through the same source: Inspect logs (a zip
	// read by its directory), lighteval parquet (by its footer), Sample,
	// testset and plain JSON Lines, files and folders.
	td := filepath.Join("..", "..", "testdata")
	upload(t, td, "td/", func(k string, b []byte) { s3.Put(t, k, b) })
	for _, p := range []string{"inspect/capitals_zstd.eval", "inspect/capitals.json", "inspect/broken.eval", "lighteval/output",
		"sample/spec_en.jsonl", "sample/dir", "testset/spec", "testset/broken", "jsonl/quiz_log.jsonl", "lmeval/broken", "lmeval/renamed"} {
		for _, args := range [][]string{{"summary", "--json"}, {"check"}} {
			sameOutput(t, filepath.Join(td, filepath.FromSlash(p)), "s3://evals/td/"+p, args...)
		}
	}
	// export reads the records back, one range request each.
	for _, format := range []string{"jsonl", "csv"} {
		sameOutput(t, two, "hf://datasets/org/details/org__model", "export", "--format", format)
		sameOutput(t, overview, "s3://evals/out", "export", "--format", format)
	}
}

// A remote path that fails says which and why, exit 2, with no credential
// shown.
func TestRemoteErrors(t *testing.T) {
	remoteTest(t)
	t.Setenv("HF_TOKEN", "hf_doNotShowThisToken")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s3 := sourcetest.NewS3(t, "evals")
	hub := sourcetest.NewHub(t)
	hub.Token = "hf_theRightToken"
	s3.Put(t, "x/results_2025-01-01T00-00-00.json", []byte("{}"))
	for _, c := range []struct{ path, want string }{
		{"s3://evals/nothing/here.jsonl", "s3://evals/nothing/here.jsonl: not found"},
		{"hf://datasets/org/private/a.jsonl", "forbidden (HTTP 401; sent the token in HF_TOKEN)"},
		{"https://127.0.0.1:1/x.jsonl", "https://127.0.0.1:1/x.jsonl: network error"},
	} {
		out, errOut, code := runCmd(t, "summary", c.path)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", c.path, code, errOut, c.want)
		}
		for _, secret := range []string{"hf_doNotShowThisToken", sourcetest.Secret, sourcetest.Key} {
			if strings.Contains(out+errOut, secret) {
				t.Errorf("%s: a credential is shown: %s%s", c.path, out, errOut)
			}
		}
	}
}

// remoteTest shortens the retries' backoff and forgets the stores of
// earlier tests (whose servers are gone) before and after t.
func remoteTest(t *testing.T) {
	old := source.Backoff
	source.Backoff = time.Millisecond
	source.Reset()
	t.Cleanup(func() {
		source.Backoff = old
		source.Reset()
	})
}

// --cache keeps the blocks read on disk: the same version read again
// costs no range request (only the looks at its version tag), and a
// replaced object is read anew.
func TestRemoteDiskCache(t *testing.T) {
	remoteTest(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	defer source.SetDiskCache("")
	s3 := sourcetest.NewS3(t, "evals")
	two := filepath.Join(fixtures, "two_filters")
	upload(t, two, "m/", func(k string, b []byte) { s3.Put(t, k, b) })
	first, _, code := runCmd(t, "summary", "--json", "--cache", "s3://evals/m")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if ents, _ := os.ReadDir(filepath.Join(cache, "evalview", "blocks")); len(ents) == 0 {
		t.Fatal("nothing kept under $XDG_CACHE_HOME/evalview/blocks")
	}
	source.Reset()
	before := source.Requests()
	again, _, _ := runCmd(t, "summary", "--json", "--cache", "s3://evals/m")
	if again != first || source.Requests() != before {
		t.Errorf("read again: %d range requests, same output %v", source.Requests()-before, again == first)
	}
	// Replaced: the new version is read.
	s3.Put(t, "m/samples_gsm8k_2025-08-07T11-42-40.066002.jsonl", []byte(`{"doc_id": 0, "doc": {}, "target": "1", "arguments": {}, "resps": [], "filtered_resps": [], "filter": "none", "metrics": ["exact_match"], "exact_match": 1.0}`+"\n"))
	source.Reset()
	changed, _, _ := runCmd(t, "summary", "--json", "--cache", "s3://evals/m")
	if changed == first {
		t.Error("a replaced object was read from the disk cache")
	}
}

// The browser's opening of a remote path on a stalled server ends in a
// timeout naming it (the browser shows meanwhile, and says so after).
func TestRemoteStalledOpenTimesOut(t *testing.T) {
	remoteTest(t)
	t.Setenv("HF_TOKEN", "")
	hub := sourcetest.NewHub(t)
	hub.Put("datasets/o/n", "samples_x_2025-01-01T00-00-00.jsonl", []byte("{}\n"))
	hub.Fail(sourcetest.Fault{Match: "/cdn/", Stall: time.Minute})
	oldT := source.Timeout
	source.Timeout = 300 * time.Millisecond
	defer func() { source.Timeout = oldT }()
	source.Reset()
	b := &browserOpening{}
	err := b.open([]string{"hf://datasets/o/n/samples_x_2025-01-01T00-00-00.jsonl"}, loaders.Options{Background: true})(context.Background(), &tui.Opening{})
	if err == nil || !strings.Contains(err.Error(), "timed out") || !strings.Contains(err.Error(), "hf://datasets/o/n/samples_x") {
		t.Errorf("a stalled server: %v", err)
	}
	if b.failed() != err {
		t.Errorf("the command would say %v after the browser", b.failed())
	}
}

// A presigned https:// URL opens, and its query (the signature) shows
// nowhere: not in the output's paths, not in an error.
func TestRemotePresignedURLHidesItsQuery(t *testing.T) {
	remoteTest(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	name := "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"
	data, err := os.ReadFile(filepath.Join(fixtures, "two_filters", name))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("X-Amz-Signature") != "s3cr3tSIG" {
			http.Error(w, "SignatureDoesNotMatch", http.StatusForbidden)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
	}))
	defer srv.Close()
	base := srv.URL + "/runs/" + name
	out, errOut, code := runCmd(t, "summary", "--json", base+"?X-Amz-Credential=AKIAEXAMPLE%2F20260101&X-Amz-Signature=s3cr3tSIG")
	if code != 0 || !strings.Contains(out, `"path": "`+base+`"`) || !strings.Contains(out, `"records": 4`) {
		t.Errorf("presigned URL: exit %d\n%s%s", code, out, errOut)
	}
	source.Reset() // another run of evalview
	out2, errOut2, code := runCmd(t, "check", base+"?X-Amz-Signature=wrongSIG")
	if code != 2 || !strings.Contains(out2, base+": error: cannot open: forbidden (HTTP 403") {
		t.Errorf("wrong signature: exit %d %s%s", code, out2, errOut2)
	}
	for _, s := range []string{out, errOut, out2, errOut2} {
		if strings.Contains(s, "s3cr3tSIG") || strings.Contains(s, "wrongSIG") || strings.Contains(s, "AKIAEXAMPLE") {
			t.Errorf("a URL's query is shown:\n%s", s)
		}
	}
}

// A user name and password in an https:// URL open the file (sent as
// basic authentication) and show nowhere: not in check, summary, export,
// an error, or the reading… line.
func TestRemoteURLPasswordShowsNowhere(t *testing.T) {
	remoteTest(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	name := "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"
	data, err := os.ReadFile(filepath.Join(fixtures, "two_filters", name))
	if err != nil {
		t.Fatal(err)
	}
	var authed atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "ann" || p != "pa55word" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		authed.Add(1)
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	withPw := "http://ann:pa55word@" + host + "/runs/" + name
	base := srv.URL + "/runs/" + name
	var outs []string
	out, errOut, code := runCmd(t, "summary", "--json", withPw)
	if code != 0 || !strings.Contains(out, `"path": "`+base+`"`) || !strings.Contains(out, `"records": 4`) {
		t.Errorf("summary: exit %d\n%s%s", code, out, errOut)
	}
	outs = append(outs, out, errOut)
	source.Reset()
	out, errOut, code = runCmd(t, "check", withPw)
	if code != 0 || !strings.Contains(out, base) {
		t.Errorf("check: exit %d\n%s%s", code, out, errOut)
	}
	outs = append(outs, out, errOut)
	source.Reset()
	out, errOut, code = runCmd(t, "export", withPw)
	if code != 0 || out == "" {
		t.Errorf("export: exit %d\n%s%s", code, out, errOut)
	}
	outs = append(outs, out, errOut)
	source.Reset()
	out, errOut, code = runCmd(t, "check", "http://ann:WRONGpass@"+host+"/runs/"+name)
	if code != 2 || !strings.Contains(out, base+": error: cannot open: forbidden (HTTP 401") {
		t.Errorf("wrong password: exit %d %s%s", code, out, errOut)
	}
	outs = append(outs, out, errOut)
	source.Reset()
	if err := (&browserOpening{}).open([]string{withPw}, loaders.Options{Background: true})(context.Background(), &tui.Opening{}); err != nil {
		outs = append(outs, err.Error())
	}
	if authed.Load() == 0 {
		t.Error("the server never got the credential")
	}
	for _, s := range outs {
		if strings.Contains(s, "pa55word") || strings.Contains(s, "WRONGpass") || strings.Contains(s, "ann:") {
			t.Errorf("a URL's password is shown:\n%s", s)
		}
	}
}
