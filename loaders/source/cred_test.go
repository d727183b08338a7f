package source

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"evalview/loaders/source/sourcetest"
)

// A web server's URLs each get the credential given with them, whatever
// came first: a URL without one after one with (none sent), with one
// after one without (sent), two users of one server (each its own), and
// a URL given again as Canon returned it (still sent).
func TestCredentialPerURLOfOneServer(t *testing.T) {
	fresh(t)
	web := sourcetest.NewWeb(t)
	host := strings.TrimPrefix(web.URL, "http://")
	web.Put("/pub.json", []byte(`{"pub": 1}`), "", "")
	web.Put("/ann.json", []byte(`{"ann": 1}`), "ann", "pw-a")
	web.Put("/bob.json", []byte(`{"bob": 1}`), "bob", "pw-b")
	read := func(raw, want string) {
		t.Helper()
		b, err := ReadFile(Canon(raw))
		if err != nil || string(b) != want {
			t.Errorf("%s: %q, %v", Display(raw), b, err)
		}
	}
	// The server is first opened without a credential, then with one.
	read("http://"+host+"/pub.json", `{"pub": 1}`)
	read("http://ann:pw-a@"+host+"/ann.json", `{"ann": 1}`)
	// Another user of the same server.
	read("http://bob:pw-b@"+host+"/bob.json", `{"bob": 1}`)
	// The first URL again, and the others as Canon gave them.
	Reset()
	read("http://"+host+"/pub.json", `{"pub": 1}`)
	read(web.URL+"/ann.json", `{"ann": 1}`)
	read(web.URL+"/bob.json", `{"bob": 1}`)
	for path, want := range map[string]string{"/pub.json": "", "/ann.json": "ann", "/bob.json": "bob"} {
		got := web.Sent(path)
		if len(got) == 0 || slices.ContainsFunc(got, func(u string) bool { return u != want }) {
			t.Errorf("%s: requests carried users %q, want only %q", path, got, want)
		}
	}
	// A file the loaders name beside one given (never given itself) gets
	// the last credential given for its server.
	web.Put("/bob-results.json", []byte(`{"r": 1}`), "bob", "pw-b")
	if b, err := ReadFile(web.URL + "/bob-results.json"); err != nil || string(b) != `{"r": 1}` {
		t.Errorf("beside: %q, %v", b, err)
	}
}

// A remote file's size and version come with its first block, in one
// request: a small file (a results file) is stat'ed and read whole with
// one request, from S3, the Hub (its redirect hop aside) and a web
// server; an empty one, which has no first byte, still opens.
func TestStatBringsTheFirstBlock(t *testing.T) {
	fresh(t)
	body := data(3000)
	s := sourcetest.NewS3(t, "bkt")
	s.Put(t, "r.json", body)
	s.Put(t, "empty.json", nil)
	hub := sourcetest.NewHub(t)
	hub.Put("datasets/org/name", "r.json", body)
	web := sourcetest.NewWeb(t)
	web.Put("/r.json", body, "", "")
	web.Put("/empty.json", nil, "", "")
	for _, c := range []struct {
		path  string
		count func() int64
		want  int64
	}{
		{"s3://bkt/r.json", s.Requests.Load, 1},
		{"hf://datasets/org/name/r.json", hub.Requests.Load, 2}, // resolve, then the CDN it redirects to
		{web.URL + "/r.json", web.Requests.Load, 1},
	} {
		before := c.count()
		if got, err := ReadFile(c.path); err != nil || !bytes.Equal(got, body) {
			t.Errorf("%s: %d bytes, %v", c.path, len(got), err)
		}
		if n := c.count() - before; n != c.want {
			t.Errorf("%s: stat and read whole made %d requests, want %d", c.path, n, c.want)
		}
	}
	for _, p := range []string{"s3://bkt/empty.json", web.URL + "/empty.json"} {
		if got, err := ReadFile(p); err != nil || len(got) != 0 {
			t.Errorf("%s: %q, %v", p, got, err)
		}
	}
}
