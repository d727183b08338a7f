package source

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"

	"evalview/loaders/source/sourcetest"
)

// fresh forgets stores, known versions and cached blocks, with short
// timeouts and backoff, for one test.
func fresh(t *testing.T) {
	t.Helper()
	oldT, oldB, oldS := Timeout, Backoff, StatFor
	Timeout, Backoff, StatFor = 2*time.Second, time.Millisecond, 0
	resetStores()
	blocks = newBlockCache()
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_HOME", t.TempDir())
	t.Cleanup(func() {
		// A read-ahead may outlive its test: it reads Timeout.
		blocks.fetches.Wait()
		diskState.wg.Wait()
		Timeout, Backoff, StatFor = oldT, oldB, oldS
		resetStores()
		blocks = newBlockCache()
	})
}

func data(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `{"doc_id": %d, "text": "line %d"}`+"\n", i, i)
	}
	return b.Bytes()[:n]
}

func TestPaths(t *testing.T) {
	for _, c := range []struct{ in, display, dir string }{
		{"s3://b/run/x.jsonl", "s3://b/run/x.jsonl", "s3://b/run"},
		{"s3:/b/run/x.jsonl", "s3://b/run/x.jsonl", "s3://b/run"},
		{"S3://b", "s3://b", "s3://b"},
		{"hf://datasets/o/n@v1/a/b.json", "hf://datasets/o/n@v1/a/b.json", "hf://datasets/o/n@v1/a"},
		{"hf://datasets/o/n", "hf://datasets/o/n", "hf://datasets/o/n"},
		{"https://h:8080/a/../b", "https://h:8080/b", "https://h:8080"},
		{"local/s3:/x", "local/s3:/x", "local/s3:"},
		{"https://h/a/x.jsonl?X-Amz-Credential=K%2F1/2&X-Amz-Signature=s#f", "https://h/a/x.jsonl", "https://h/a"},
		{"hf:name", "hf:name", "."},
	} {
		if got := Display(c.in); got != c.display {
			t.Errorf("Display(%q) = %q, want %q", c.in, got, c.display)
		}
		if got := Dir(c.in); got != c.dir {
			t.Errorf("Dir(%q) = %q, want %q", c.in, got, c.dir)
		}
	}
	if got := Join("s3://b/run", "sub", "x.json"); got != "s3://b/run/sub/x.json" {
		t.Errorf("Join = %q", got)
	}
	if got := Join("s3://b/run", "../../../etc"); got != "s3://etc" {
		t.Errorf("Join kept .. outside the path's scheme: %q", got)
	}
	if IsRemote("/tmp/x") || IsRemote("C:/x") || !IsRemote("http://h/x") {
		t.Error("IsRemote")
	}
}

// check reads p whole, sequentially and at offsets, and compares with want.
func check(t *testing.T, p string, want []byte) {
	t.Helper()
	st, err := Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.IsDir() || st.Size() != int64(len(want)) || !st.Mode().IsRegular() || Version(st) == "" {
		t.Fatalf("Stat(%s) = dir %v size %d version %q", p, st.IsDir(), st.Size(), Version(st))
	}
	if tag, ok := st.Sys().(fmt.Stringer); !ok || tag.String() != Version(st) {
		t.Fatalf("Stat(%s).Sys() is not the version tag as a fmt.Stringer: %#v", p, st.Sys())
	}
	got, err := ReadFile(p)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadFile(%s): %d bytes, %v", p, len(got), err)
	}
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, off := range []int64{0, 1, blockSize - 3, blockSize, int64(len(want)) - 10} {
		buf := make([]byte, 20)
		n, err := f.ReadAt(buf, off)
		end := min(off+20, int64(len(want)))
		if n != int(end-off) || !bytes.Equal(buf[:n], want[off:end]) || (n < 20) != (err == io.EOF) {
			t.Fatalf("ReadAt(%d) = %d, %v", off, n, err)
		}
	}
	if _, err := f.Seek(5, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(rest, want[5:]) {
		t.Fatalf("Read after Seek: %d bytes, %v", len(rest), err)
	}
}

func names(t *testing.T, p string) string {
	t.Helper()
	ents, err := ReadDir(p)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		out = append(out, n)
	}
	return strings.Join(out, " ")
}

func TestHubListAndRead(t *testing.T) {
	fresh(t)
	hub := sourcetest.NewHub(t)
	hub.PageSize = 2 // the listing comes in pages
	big := data(3*blockSize + 777)
	hub.Put("datasets/org/name", "org__model/samples_gsm8k_2025.jsonl", big)
	hub.Put("datasets/org/name", "org__model/results_2025.json", []byte(`{"results": {}}`))
	hub.Put("datasets/org/name", "org__model/sub/x.json", []byte(`{}`))
	hub.Put("datasets/org/name", "README.md", []byte(`# hi`))
	if got := names(t, "hf://datasets/org/name"); got != "README.md org__model/" {
		t.Errorf("root lists %q", got)
	}
	if got := names(t, "hf://datasets/org/name/org__model"); got != "results_2025.json samples_gsm8k_2025.jsonl sub/" {
		t.Errorf("folder lists %q", got)
	}
	if st, err := Stat("hf://datasets/org/name/org__model/"); err != nil || !st.IsDir() {
		t.Errorf("a folder stats as %v, %v", st, err)
	}
	check(t, "hf://datasets/org/name/org__model/samples_gsm8k_2025.jsonl", big)
	check(t, "hf:/datasets/org/name@main/org__model/samples_gsm8k_2025.jsonl", big) // as filepath.Join leaves it
	if _, err := Stat("hf://datasets/org/name/nope.json"); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "hf://datasets/org/name/nope.json") {
		t.Errorf("a missing file: %v", err)
	}
	// The file's version is the Hub's X-Linked-Etag (the CDN's ETag
	// changes from request to request here): a new commit of the file is
	// noticed, a CDN's whim is not.
	p := "hf://datasets/org/name/org__model/samples_gsm8k_2025.jsonl"
	blocks = newBlockCache()
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	if _, err := f.ReadAt(buf, 0); err != nil {
		t.Fatal(err)
	}
	hub.Put("datasets/org/name", "org__model/samples_gsm8k_2025.jsonl", bytes.Repeat([]byte("n"), len(big)))
	if _, err := f.ReadAt(buf, 2*blockSize); !errors.Is(err, ErrChanged) {
		t.Fatalf("a new commit of the file: %v", err)
	}
}

func TestS3ListAndRead(t *testing.T) {
	fresh(t)
	s := sourcetest.NewS3(t, "bkt")
	big := data(5*blockSize + 11)
	s.Put(t, "runs/a/samples_x_2025.jsonl", big)
	s.Put(t, "runs/a/results_2025.json", []byte(`{}`))
	s.Put(t, "runs/b/run.zip", []byte("PK"))
	s.Put(t, "top.txt", []byte("top"))
	if got := names(t, "s3://bkt"); got != "runs/ top.txt" {
		t.Errorf("bucket lists %q", got)
	}
	if got := names(t, "s3://bkt/runs/"); got != "a/ b/" {
		t.Errorf("prefix lists %q", got)
	}
	if st, err := Stat("s3://bkt/runs/a"); err != nil || !st.IsDir() {
		t.Errorf("a prefix stats as %v, %v", st, err)
	}
	check(t, "s3://bkt/runs/a/samples_x_2025.jsonl", big)
	if _, err := Open("s3://bkt/runs/a"); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("opening a prefix: %v", err)
	}
	if _, err := Stat("s3://bkt/runs/zzz"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing prefix: %v", err)
	}
}

// A sequential read keeps several range requests in flight, each of
// several blocks; a record read again costs one request at most.
func TestS3SequentialAndRecordRequests(t *testing.T) {
	fresh(t)
	s := sourcetest.NewS3(t, "bkt")
	big := data(40*blockSize + 5)
	s.Put(t, "big.jsonl", big)
	f, err := Open("s3://bkt/big.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	before := Requests()
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("read %d bytes, %v", len(got), err)
	}
	if n := Requests() - before; n > 41/runBlocks+3 {
		t.Errorf("a sequential read of 41 blocks made %d range requests", n)
	}
	blocks = newBlockCache()
	before = s.Requests.Load()
	f2, _ := Open("s3://bkt/big.jsonl") // known from the Open above: no request
	buf := make([]byte, 300)
	if _, err := f2.ReadAt(buf, 7*blockSize-100); err != nil || !bytes.Equal(buf, big[7*blockSize-100:7*blockSize+200]) {
		t.Fatalf("ReadAt across two blocks: %v", err)
	}
	if n := s.Requests.Load() - before; n != 1 {
		t.Errorf("opening a record across two blocks made %d requests, want 1", n)
	}
}

func TestReplacedObjectIsNoticed(t *testing.T) {
	fresh(t)
	s := sourcetest.NewS3(t, "bkt")
	s.Put(t, "x.jsonl", data(2*blockSize))
	f, err := Open("s3://bkt/x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	st1, _ := f.Stat()
	buf := make([]byte, 10)
	if _, err := f.ReadAt(buf, 0); err != nil {
		t.Fatal(err)
	}
	s.Put(t, "x.jsonl", bytes.Repeat([]byte("z"), 2*blockSize))
	// The cached block still reads; an uncached one finds the new version.
	if _, err := f.ReadAt(buf, blockSize+1); !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "s3://bkt/x.jsonl") {
		t.Fatalf("reading a replaced object: %v", err)
	}
	st2, err := Stat("s3://bkt/x.jsonl")
	if err != nil || Version(st2) == Version(st1) {
		t.Fatalf("Stat does not see the new version: %q then %q, %v", Version(st1), Version(st2), err)
	}
	g, _ := Open("s3://bkt/x.jsonl")
	if _, err := g.ReadAt(buf, 0); err != nil || string(buf) != "zzzzzzzzzz" {
		t.Fatalf("reopened: %q, %v (the old version's cached block was used)", buf, err)
	}
}

func TestErrorsNameTheURL(t *testing.T) {
	fresh(t)
	hub := sourcetest.NewHub(t)
	body := data(blockSize + 100)
	hub.Put("datasets/o/n", "f.jsonl", body)
	p := "hf://datasets/o/n/f.jsonl"

	// 429 twice, then the answer: retried with backoff.
	hub.Fail(sourcetest.Fault{Match: "/cdn/", Status: 429, RetryAfter: "0", Times: 2})
	if _, err := Stat(p); err != nil {
		t.Fatalf("a rate limit that passes: %v", err)
	}
	// 429 always: said so.
	resetStores()
	hub.Fail(sourcetest.Fault{Match: "/cdn/", Status: 429})
	if _, err := Stat(p); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "rate limited") {
		t.Fatalf("rate limited: %v", err)
	}
	hub.Clear()

	// A connection dropped mid-body once: the read is retried.
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	hub.Fail(sourcetest.Fault{Match: "/cdn/", Drop: true, Times: 1})
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("after a dropped connection: %d bytes, %v", len(got), err)
	}
	// Dropped every time: an error naming the file.
	blocks = newBlockCache()
	hub.Fail(sourcetest.Fault{Match: "/cdn/", Drop: true})
	buf := make([]byte, 10)
	if _, err := f.ReadAt(buf, 0); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "dropped") {
		t.Fatalf("dropped every time: %v", err)
	}
	hub.Clear()

	// A server that stalls: a timeout, not a hang.
	Timeout = 200 * time.Millisecond
	resetStores()
	blocks = newBlockCache()
	hub.Fail(sourcetest.Fault{Match: "/cdn/", Stall: time.Minute})
	start := time.Now()
	_, err = Stat(p)
	if err == nil || !strings.Contains(err.Error(), "timed out") || !strings.Contains(err.Error(), p) {
		t.Fatalf("a stalled server: %v", err)
	}
	if time.Since(start) > 20*time.Second {
		t.Fatalf("a stalled server held Stat for %s", time.Since(start))
	}
	hub.Clear()
	Timeout = 2 * time.Second

	// 404, and 401/403 naming the credential sent, never the token nor
	// the CDN's signature.
	resetStores()
	if _, err := Stat("hf://datasets/o/n/missing.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("404: %v", err)
	}
	hub.Token = "hf_secretTOKENvalue"
	t.Setenv("HF_TOKEN", "hf_wrongTOKENvalue")
	resetStores()
	_, err = Stat(p)
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "the token in HF_TOKEN") {
		t.Fatalf("401: %v", err)
	}
	for _, secret := range []string{"hf_wrongTOKENvalue", "hf_secretTOKENvalue", "s3cr3t"} {
		if strings.Contains(err.Error(), secret) {
			t.Fatalf("the message shows a secret: %v", err)
		}
	}
	// The token file's token, sent to the Hub and not on to the CDN (the
	// Hub imitation redirects to another host name).
	t.Setenv("HF_TOKEN", "")
	home := t.TempDir()
	t.Setenv("HF_HOME", home)
	os.WriteFile(home+"/token", []byte("hf_secretTOKENvalue\n"), 0o600)
	resetStores()
	if _, err := Stat(p); err != nil {
		t.Fatalf("with the token file: %v", err)
	}
	if hub.Auth.Load() == 0 {
		t.Fatal("the token file's token was not sent")
	}
	if hub.Leaked.Load() != 0 {
		t.Fatal("the token was sent on to the CDN's host")
	}
	hub.Token = ""
	hub.Fail(sourcetest.Fault{Match: "/cdn/", Status: 403})
	resetStores()
	if _, err := Stat(p); !errors.Is(err, fs.ErrPermission) || strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), "the token in "+home) {
		t.Fatalf("403 from the CDN: %v", err)
	}
}

func TestS3ErrorsNameTheCredential(t *testing.T) {
	fresh(t)
	s := sourcetest.NewS3(t, "bkt")
	s.Put(t, "x.json", []byte("{}"))
	s.Fail(sourcetest.Fault{Match: "/bkt/x.json", Status: 403})
	_, err := Stat("s3://bkt/x.json")
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "s3://bkt/x.json") || !strings.Contains(err.Error(), "EnvConfigCredentials") {
		t.Fatalf("403: %v", err)
	}
	if strings.Contains(err.Error(), sourcetest.Secret) || strings.Contains(err.Error(), sourcetest.Key) {
		t.Fatalf("the message shows a credential: %v", err)
	}
	s.Clear()
	s.Fail(sourcetest.Fault{Match: "/bkt/x.json", Status: 503, Times: 2})
	if _, err := Stat("s3://bkt/x.json"); err != nil {
		t.Fatalf("a 503 that passes: %v", err)
	}
	if _, err := Stat("s3://bkt/none.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("404: %v", err)
	}
	// A stalled server: a timeout naming the object, not a hang.
	Timeout = 300 * time.Millisecond
	resetStores()
	s.Fail(sourcetest.Fault{Match: "/bkt/x.json", Stall: time.Minute})
	start := time.Now()
	if _, err := Stat("s3://bkt/x.json"); err == nil || !strings.Contains(err.Error(), "s3://bkt/x.json") || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("a stalled S3 server: %v", err)
	}
	if time.Since(start) > 20*time.Second {
		t.Fatalf("a stalled S3 server held Stat for %s", time.Since(start))
	}
	s.Clear()
	Timeout = 2 * time.Second
	resetStores()
	// No credentials anywhere: anonymous, and said so.
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	resetStores()
	if _, err := Stat("s3://bkt/x.json"); err != nil {
		t.Fatalf("anonymous on a public bucket: %v", err)
	}
	s.Fail(sourcetest.Fault{Match: "/bkt/x.json", Status: 403})
	if _, err := Stat("s3://bkt/x.json"); err == nil || !strings.Contains(err.Error(), "anonymous") {
		t.Fatalf("403 anonymous: %v", err)
	}
}

func TestDiskCache(t *testing.T) {
	fresh(t)
	dir := t.TempDir()
	SetDiskCache(dir)
	defer SetDiskCache("")
	s := sourcetest.NewS3(t, "bkt")
	body := data(3*blockSize + 1)
	s.Put(t, "x.jsonl", body)
	if got, err := ReadFile("s3://bkt/x.jsonl"); err != nil || !bytes.Equal(got, body) {
		t.Fatal(err)
	}
	blocks = newBlockCache()
	blocks.disk = dir
	before := s.Requests.Load()
	f, _ := Open("s3://bkt/x.jsonl")
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatal(err)
	}
	if n := s.Requests.Load() - before; n != 0 {
		t.Errorf("read again with the disk cache: %d requests", n)
	}
	// A replaced object does not read the old blocks.
	s.Put(t, "x.jsonl", bytes.Repeat([]byte("q"), len(body)))
	if got, err := ReadFile("s3://bkt/x.jsonl"); err != nil || got[0] != 'q' {
		t.Fatalf("after replacing: %q, %v", got[:1], err)
	}
}

// Stat trusts a version learnt within StatFor: opening a file stats it
// several times, one round trip in all.
func TestStatForSavesRoundTrips(t *testing.T) {
	fresh(t)
	StatFor = time.Minute
	s := sourcetest.NewS3(t, "bkt")
	s.Put(t, "x.json", []byte("{}"))
	before := s.Requests.Load()
	for range 3 {
		if _, err := Stat("s3://bkt/x.json"); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.Requests.Load() - before; n != 1 {
		t.Errorf("3 Stats within StatFor made %d requests, want 1", n)
	}
	StatFor = 0
	if _, err := Stat("s3://bkt/x.json"); err != nil || s.Requests.Load()-before != 2 {
		t.Errorf("a Stat after StatFor did not ask again: %v", err)
	}
}

// Prefetch asks for every range at once; the reads that follow make no
// request of their own (a record's rows, spread over the file, cost one
// round trip).
func etagOf(b []byte) string {
	sum := md5.Sum(b)
	return hex.EncodeToString(sum[:])
}

func TestPrefetch(t *testing.T) {
	fresh(t)
	s := sourcetest.NewS3(t, "bkt")
	body := data(30 * blockSize)
	s.Put(t, "x.jsonl", body)
	f, err := Open("s3://bkt/x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ranges := [][2]int64{{3*blockSize + 10, 100}, {20 * blockSize, blockSize + 5}, {29*blockSize + 1, 50}}
	Prefetch("s3:/bkt/x.jsonl", ranges)
	// Every block of the ranges is asked for when Prefetch returns.
	blocks.mu.Lock()
	for _, idx := range []int64{3, 20, 21, 29} {
		if _, ok := blocks.m[bkey{"s3://bkt/x.jsonl", `"` + etagOf(body) + `"`, idx}]; !ok {
			t.Errorf("block %d not asked for by Prefetch", idx)
		}
	}
	blocks.mu.Unlock()
	// The reads wait on the prefetched blocks: when they are done, every
	// request made is counted.
	for _, r := range ranges {
		buf := make([]byte, r[1])
		if _, err := f.ReadAt(buf, r[0]); err != nil || !bytes.Equal(buf, body[r[0]:r[0]+r[1]]) {
			t.Fatalf("ReadAt(%d): %v", r[0], err)
		}
	}
	if n := Requests(); n != 3 {
		t.Errorf("Prefetch of 3 ranges and reading them made %d range requests, want 3", n)
	}
	Prefetch("s3://bkt/x.jsonl", ranges)
	if n := Requests(); n != 3 {
		t.Errorf("Prefetch of kept blocks made %d more requests", n-3)
	}
	Prefetch("/tmp/local", ranges) // a local path: nothing
}

// Without a region named, the bucket's own is asked for: a bucket outside
// us-east-1 opens as given (S3 answers 301 to requests signed for
// another region).
func TestS3BucketRegion(t *testing.T) {
	fresh(t)
	s := sourcetest.NewS3(t, "bkt")
	s.Region = "eu-west-1"
	s.Put(t, "x.json", []byte("{}"))
	t.Setenv("AWS_REGION", "eu-west-1")
	if _, err := Stat("s3://bkt/x.json"); err != nil {
		t.Fatalf("with its region named: %v", err)
	}
	resetStores()
	t.Setenv("AWS_REGION", "")
	if got, err := ReadFile("s3://bkt/x.json"); err != nil || string(got) != "{}" {
		t.Fatalf("without a region named: %q, %v", got, err)
	}
	// A region named but wrong: S3's answer is an error naming the path.
	resetStores()
	t.Setenv("AWS_REGION", "us-west-2")
	if _, err := Stat("s3://bkt/x.json"); err == nil || !strings.Contains(err.Error(), "s3://bkt/x.json") || !strings.Contains(err.Error(), "AWS_REGION=eu-west-1") {
		t.Fatalf("the wrong region: %v", err)
	}
}

// A second sequential pass over an object bigger than the cache (the
// deep check after the index, a raw search) reads it as the first did:
// its read-ahead waits for its own reader, not for where the first one
// got to, and no block is dropped before it is read.
func TestSecondPassReadsAhead(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 2 x 80 MB")
	}
	fresh(t)
	s := sourcetest.NewS3(t, "bkt")
	body := bytes.Repeat([]byte("0123456789abcdef"), 80<<20/16)
	s.Put(t, "big.jsonl", body)
	pass := func() int64 {
		before := Requests()
		f, err := Open("s3://bkt/big.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		buf := make([]byte, 1<<20)
		var n int64
		for {
			m, err := f.Read(buf)
			if !bytes.Equal(buf[:m], body[n:n+int64(m)]) {
				t.Fatalf("wrong bytes at %d", n)
			}
			n += int64(m)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if n != int64(len(body)) {
			t.Fatalf("read %d bytes of %d", n, len(body))
		}
		return Requests() - before
	}
	first := pass()
	second := pass()
	// A run's worth of requests, a last short one, the version check and
	// one spare: a pass block by block would make 320.
	runs := int64(len(body)/(runBlocks*blockSize)) + 3
	if first > runs || second > runs {
		t.Errorf("passes made %d and %d range requests, want at most %d each", first, second, runs)
	}
}

// A read-ahead waits for the reader behind it, whatever another reader
// further on does: a second pass (the deep check, a search) is not let
// run 64 MB ahead because the first pass got to the end.
func TestReadAheadWaitsForItsOwnReader(t *testing.T) {
	c := newBlockCache()
	o := &object{url: "s3://b/x", meta: meta{size: 4000 * blockSize, version: `"v"`}}
	first, second := new(byte), new(byte)
	c.want(o, first, 3000) // the index has read to block 3000
	c.want(o, second, 10)  // the deep check starts again
	check := func(idx int64, readAhead, wantOK, wantAbandon bool) {
		t.Helper()
		c.mu.Lock()
		ok, abandon := c.allowed(o, idx, idx, readAhead)
		c.mu.Unlock()
		if ok != wantOK || abandon != wantAbandon {
			t.Errorf("block %d (read-ahead %v): ok %v abandon %v, want %v %v", idx, readAhead, ok, abandon, wantOK, wantAbandon)
		}
	}
	check(10+aheadBlocks, true, true, false)
	check(11+aheadBlocks, true, false, false) // waits for the deep check
	check(2999, true, false, false)
	check(3000+aheadBlocks, true, true, false)
	check(3001+aheadBlocks, true, false, false)
	check(5, true, false, true)  // behind every reader: given up
	check(5, false, true, false) // a read's own blocks, a prefetch: read
	c.forget(o, second)
	c.forget(o, first)
	check(20, true, false, true) // every reader gone: the read-ahead stops
	check(20, false, true, false)
}

// Detection reads a file's head and closes it: one block, one request (the
// open's, which brings the first block with the size), no read-ahead,
// however big the file (a folder of big samples files is sniffed file by
// file).
func TestHeadReadStartsNoReadAhead(t *testing.T) {
	fresh(t)
	s := sourcetest.NewS3(t, "bkt")
	s.Put(t, "big.jsonl", data(80*blockSize))
	f, err := Open("s3://bkt/big.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 64<<10)
	if _, err := io.ReadFull(f, head); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if n := s.Requests.Load(); n != 1 || Requests() != 0 {
		t.Errorf("opening and reading a 64 KB head made %d requests (%d for blocks), want 1 (0)", n, Requests())
	}
}
