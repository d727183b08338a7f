package source

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"evalview/loaders/source/sourcetest"
)

// leaked says what of secrets (or any Authorization, Cookie or Referer
// header) the requests a sink got carried, "" for nothing.
func leaked(seen []sourcetest.Seen, secrets ...string) string {
	for _, r := range seen {
		for _, h := range []string{"Authorization", "Cookie", "Cookie2", "Referer", "X-Amz-Security-Token"} {
			if v := r.Header.Get(h); v != "" {
				return r.URL + ": " + h + ": " + v
			}
		}
		for _, s := range secrets {
			if strings.Contains(r.URL, s) {
				return r.URL + ": the URL holds " + s
			}
			for k, vs := range r.Header {
				for _, v := range vs {
					if strings.Contains(v, s) {
						return r.URL + ": " + k + " holds " + s
					}
				}
			}
		}
	}
	return ""
}

// A Hub token goes to the Hub only: a resolve URL redirected to a CDN on
// another port of the same host (Go's client keeps Authorization there)
// reaches it without the token, and without a Referer.
func TestRedirectHubTokenStaysHome(t *testing.T) {
	fresh(t)
	body := data(3000)
	hub := sourcetest.NewHub(t)
	hub.Token = "hf_s3cretToken"
	t.Setenv("HF_TOKEN", hub.Token)
	cdn := sourcetest.NewSink(t, body)
	hub.CDN = cdn.URL // 127.0.0.1, another port
	hub.Put("datasets/org/name", "r.json", body)
	got, err := ReadFile("hf://datasets/org/name/r.json")
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("read %d bytes, %v", len(got), err)
	}
	if hub.Auth.Load() == 0 {
		t.Error("the Hub never got the token")
	}
	if len(cdn.Seen()) == 0 {
		t.Fatal("the CDN got no request: the test tests nothing")
	}
	if l := leaked(cdn.Seen(), hub.Token); l != "" {
		t.Errorf("the CDN got %s", l)
	}
}

// A user name and password given in a URL go as basic authentication to
// its server only: not to another port it redirects to, nor back to it
// from there (a hop through another origin loses the credential for the
// rest of the chain).
func TestRedirectBasicAuthStaysHome(t *testing.T) {
	fresh(t)
	body := []byte(`{"a": 1}`)
	web := sourcetest.NewWeb(t)
	other := sourcetest.NewSink(t, body)
	web.Put("/r.json", body, "ann", "pw-s3cret")
	web.Put("/back.json", body, "ann", "pw-s3cret")
	web.Fail(sourcetest.Fault{Match: "/r.json", Redirect: other.URL})
	host := strings.TrimPrefix(web.URL, "http://")
	got, err := ReadFile(Canon("http://ann:pw-s3cret@" + host + "/r.json"))
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("read %q, %v", got, err)
	}
	if l := leaked(other.Seen(), "pw-s3cret"); l != "" {
		t.Errorf("the other port got %s", l)
	}
	// Out to the other port and back: the way back carries nothing.
	web.Fail(sourcetest.Fault{Match: "/go.json", Redirect: other.URL})
	other.Fail(sourcetest.Fault{Match: "/go.json", Redirect: web.URL + "/back.json#"})
	_, err = ReadFile(Canon("http://ann:pw-s3cret@" + host + "/go.json"))
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("back through another origin: %v, want the server's refusal (no credential sent)", err)
	}
	if sent := web.Sent("/back.json"); len(sent) == 0 || sent[0] != "" {
		t.Errorf("the way back carried users %q", sent)
	}
	if l := leaked(other.Seen(), "pw-s3cret"); l != "" {
		t.Errorf("the other port got %s", l)
	}
}

// A presigned URL's query is its credential: a redirect to another port
// gets neither it nor a Referer naming it.
func TestRedirectPresignedQueryStaysHome(t *testing.T) {
	fresh(t)
	body := []byte(`{"a": 1}`)
	web := sourcetest.NewWeb(t)
	other := sourcetest.NewSink(t, body)
	web.Put("/p.json", body, "", "")
	web.Fail(sourcetest.Fault{Match: "/p.json", Redirect: other.URL + "/elsewhere"})
	const sig = "X-Amz-Signature=f00dfacesignature"
	got, err := ReadFile(Canon(web.URL + "/p.json?X-Amz-Credential=AKIAEXAMPLE%2F20260101&" + sig))
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("read %q, %v", got, err)
	}
	seen := other.Seen()
	if len(seen) == 0 {
		t.Fatal("the other port got no request: the test tests nothing")
	}
	if l := leaked(seen, "f00dfacesignature", "AKIAEXAMPLE"); l != "" {
		t.Errorf("the other port got %s", l)
	}
}

// A cookie a server sets goes nowhere: not to the port it redirects to.
func TestRedirectCookieStaysHome(t *testing.T) {
	fresh(t)
	body := []byte(`{"a": 1}`)
	web := sourcetest.NewWeb(t)
	other := sourcetest.NewSink(t, body)
	web.Put("/c.json", body, "", "")
	web.Fail(sourcetest.Fault{Match: "/c.json", Redirect: other.URL, Cookie: "session=c00kies3cret; Path=/"})
	got, err := ReadFile(web.URL + "/c.json")
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("read %q, %v", got, err)
	}
	if l := leaked(other.Seen(), "c00kies3cret"); l != "" {
		t.Errorf("the other port got %s", l)
	}
}

// An S3 request redirected to another endpoint (another port of the same
// host) is refused, with a message naming it: the SigV4 signature and the
// access key reach no other endpoint. A redirect within the endpoint is
// followed.
func TestRedirectS3SignatureStaysHome(t *testing.T) {
	fresh(t)
	body := data(3000)
	s := sourcetest.NewS3(t, "bkt")
	s.Put(t, "r.json", body)
	s.Put(t, "here.json", body)
	other := sourcetest.NewSink(t, body)
	s.Fail(sourcetest.Fault{Match: "/bkt/r.json", Redirect: other.URL})
	_, err := ReadFile("s3://bkt/r.json")
	if err == nil || !strings.Contains(err.Error(), "s3://bkt/r.json") || !strings.Contains(err.Error(), "redirected the request to another endpoint ("+strings.Replace(other.URL, "http://", "http://", 1)+")") {
		t.Errorf("a redirect to another endpoint: %v", err)
	}
	if n := len(other.Seen()); n != 0 {
		t.Errorf("the other endpoint got %d requests: %s", n, leaked(other.Seen(), sourcetest.Key))
	}
	for _, secret := range []string{sourcetest.Key, sourcetest.Secret} {
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("the message shows a credential: %v", err)
		}
	}
	// Within the endpoint: followed, signed as it was.
	s.Fail(sourcetest.Fault{Match: "/bkt/here.json", Redirect: s.URL, Times: 1})
	if got, err := ReadFile("s3://bkt/here.json"); err != nil || !bytes.Equal(got, body) {
		t.Errorf("a redirect within the endpoint: %d bytes, %v", len(got), err)
	}
}

// A Hub listing whose next page is on another server is not followed
// with the token: the listing says so, and the other server gets nothing.
func TestRedirectHubListingStaysHome(t *testing.T) {
	fresh(t)
	other := sourcetest.NewSink(t, []byte(`[]`))
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "<"+other.URL+"/api/datasets/o/n/tree/main?cursor=x>; rel=\"next\"")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"type": "file", "path": "a.json", "size": 2, "oid": "x"}]`)
	}))
	defer hub.Close()
	t.Setenv("HF_ENDPOINT", hub.URL)
	t.Setenv("HF_TOKEN", "hf_s3cretToken")
	_, err := ReadDir("hf://datasets/o/n")
	if err == nil || !strings.Contains(err.Error(), "continues on another server ("+other.URL+")") {
		t.Errorf("a next page elsewhere: %v", err)
	}
	if n := len(other.Seen()); n != 0 {
		t.Errorf("the other server got %d requests: %s", n, leaked(other.Seen(), "hf_s3cretToken"))
	}
}
