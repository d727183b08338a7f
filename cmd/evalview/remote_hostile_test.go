package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"evalview/loaders/source"
	"evalview/loaders/source/sourcetest"
)

// bigJSONL is plain JSON Lines of about n bytes: several blocks of the
// remote cache, so that reading it takes several range requests.
func bigJSONL(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `{"id": %d, "question": "what is %d plus %d?", "answer": "%d"}`+"\n", i, i, i, 2*i)
	}
	return b.Bytes()
}

// hostileFile serves a big JSON Lines file from a web server for the
// commands, with the file on disk beside it.
func hostileFile(t *testing.T) (*sourcetest.Web, string, string) {
	t.Helper()
	remoteTest(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("NO_COLOR", "1")
	data := bigJSONL(700 << 10)
	local := filepath.Join(t.TempDir(), "quiz.jsonl")
	if err := os.WriteFile(local, data, 0o644); err != nil {
		t.Fatal(err)
	}
	web := sourcetest.NewWeb(t)
	web.Put("/runs/quiz.jsonl", data, "", "")
	return web, web.URL + "/runs/quiz.jsonl", local
}

// wantFails runs args and wants exit code with a message naming url and
// holding want, and no error blamed on a line of the file (the server's
// fault is not the file's).
func wantFails(t *testing.T, code int, url, want string, args ...string) {
	t.Helper()
	out, errOut, got := runCmd(t, append(args, url)...)
	if got != code || !strings.Contains(out+errOut, url) || !strings.Contains(out+errOut, want) {
		t.Errorf("%v %s: exit %d, want %d and %q:\n%s%s", args, url, got, code, want, out, errOut)
	}
	if strings.Contains(out+errOut, url+":") && strings.Contains(out+errOut, "not JSON") {
		t.Errorf("%v %s: a line is blamed:\n%s%s", args, url, out, errOut)
	}
	if why := plainUnsafe(out + errOut); why != "" {
		t.Errorf("%v: %s", args, why)
	}
}

// A server sending a byte at a time: check ends, saying so, within the
// rate's window (made short here), instead of reading for ever.
func TestRemoteHostileSlow(t *testing.T) {
	web, url, _ := hostileFile(t)
	oldR, oldW := source.MinRate, source.RateWindow
	source.MinRate, source.RateWindow = 1000, 50*time.Millisecond
	defer func() { source.MinRate, source.RateWindow = oldR, oldW }()
	web.Fail(sourcetest.Fault{Match: "/runs/", Drip: 10 * time.Millisecond})
	wantFails(t, 2, url, "too slow: ", "check")
}

// A server that answers another range than the one asked past its first
// answer: the records are not mixed, reading stops with an error naming
// the URL and the ranges (exit 1: the file opened, its reading failed),
// and no line is blamed. The same for an lm-eval samples file.
func TestRemoteHostileAnotherRange(t *testing.T) {
	web, url, _ := hostileFile(t)
	web.Fail(sourcetest.Fault{Match: "/runs/", After: 1, Shift: 1000})
	wantFails(t, 1, url, "reading stopped: read "+url+": the server answered bytes 263144-", "check")
	samples := lmevalSamples(t, 700<<10)
	name := "/runs/samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"
	web.Put(name, samples, "", "")
	web.Clear()
	web.Fail(sourcetest.Fault{Match: name, After: 1, Shift: 1000})
	wantFails(t, 1, web.URL+name, "the server answered bytes 263144-", "check")
}

// lmevalSamples is an lm-eval samples file of about n bytes: the
// fixture's records again and again, each its own doc_id.
func lmevalSamples(t *testing.T, n int) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(fixtures, "two_filters", "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(src), []byte("\n"))
	id := regexp.MustCompile(`^\{"doc_id": \d+`)
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		line := lines[i%len(lines)]
		if !id.Match(line) {
			t.Fatalf("the fixture's line does not start with its doc_id: %.40s", line)
		}
		b.Write(id.ReplaceAll(line, []byte(fmt.Sprintf(`{"doc_id": %d`, i))))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// A server that gives its ETag on its first answer only: reading stops,
// saying the file may have changed.
func TestRemoteHostileValidatorDropped(t *testing.T) {
	web, url, _ := hostileFile(t)
	web.Fail(sourcetest.Fault{Match: "/runs/", After: 1, NoValidator: true})
	wantFails(t, 1, url, "the file changed or the server stopped saying which version it serves", "check")
}

// A server that gzips the ranges it was asked for as stored: decoded,
// the output is the file's on disk.
func TestRemoteHostileGzippedRanges(t *testing.T) {
	web, url, local := hostileFile(t)
	web.Fail(sourcetest.Fault{Match: "/runs/", Gzip: true})
	for _, args := range [][]string{{"summary", "--json"}, {"check"}} {
		sameOutput(t, local, url, args...)
	}
}

// A folder whose index page links to more entries than are read: the
// first are read and a note on stderr says how many were left out.
func TestRemoteHostileManyLinks(t *testing.T) {
	remoteTest(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	old := source.MaxEntries
	source.MaxEntries = 5
	defer func() { source.MaxEntries = old }()
	root := t.TempDir()
	for i := range 12 {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("q%02d.jsonl", i)), []byte(`{"id": 1, "q": "x"}`+"\n"), 0o644)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(root)))
	defer srv.Close()
	out, errOut, code := runCmd(t, "summary", srv.URL+"/")
	want := "evalview: note: " + srv.URL + "/: the folder's index page links to 12 entries; only the first 5 by name are read, 7 are left out (name a deeper folder)\n"
	if code != 0 || !strings.Contains(errOut, want) || !strings.Contains(out, "q04.jsonl") || strings.Contains(out, "q05.jsonl") {
		t.Errorf("exit %d\n%s%s\nwant %q", code, out, errOut, want)
	}
}

// An S3 request redirected to another endpoint is refused: the command
// says where to, and nothing signed goes there.
func TestRemoteHostileS3Redirect(t *testing.T) {
	remoteTest(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s3 := sourcetest.NewS3(t, "evals")
	s3.Put(t, "x/quiz.jsonl", bigJSONL(1000))
	other := sourcetest.NewSink(t, nil)
	s3.Fail(sourcetest.Fault{Match: "/evals/x/", Redirect: other.URL})
	wantFails(t, 2, "s3://evals/x/quiz.jsonl", "the server redirected the request to another endpoint ("+other.URL+")", "check")
	if n := len(other.Seen()); n != 0 {
		t.Errorf("the other endpoint got %d requests", n)
	}
}
