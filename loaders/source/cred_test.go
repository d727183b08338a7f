package source

import (
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
