package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A folder served by a plain web server (Go's http.FileServer here, whose
// index pages are as bare as `python -m http.server`'s) is listed from its
// index page and read as the folder on disk: an output folder of model
// folders, with and without the trailing slash (the server redirects),
// and one model folder; a file of it still opens as a file.
func TestRemoteWebFolderMatchesLocal(t *testing.T) {
	remoteTest(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	root := t.TempDir()
	overview := filepath.Join(fixtures, "overview")
	upload(t, overview, "out/", func(k string, b []byte) {
		p := filepath.Join(root, filepath.FromSlash(k))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, b, 0o644)
	})
	srv := httptest.NewServer(http.FileServer(http.Dir(root)))
	defer srv.Close()
	models, err := os.ReadDir(overview)
	if err != nil || len(models) == 0 || !models[0].IsDir() {
		t.Fatalf("fixture %s: %v", overview, err)
	}
	model := models[0].Name()
	for _, args := range [][]string{{"summary", "--json"}, {"check"}} {
		sameOutput(t, overview, srv.URL+"/out", args...)
		sameOutput(t, filepath.Join(overview, model), srv.URL+"/out/"+model, args...)
		// With the trailing slash: the same, paths and all.
		out, errOut, code := runCmd(t, append(args, srv.URL+"/out")...)
		outSlash, errSlash, codeSlash := runCmd(t, append(args, srv.URL+"/out/")...)
		if out != outSlash || errOut != errSlash || code != codeSlash {
			t.Errorf("%v: /out/ differs from /out:\n%s%s\n---\n%s%s", args, outSlash, errSlash, out, errOut)
		}
	}
	abs, _ := filepath.Abs(filepath.Join(overview, model))
	files, _ := os.ReadDir(abs)
	for _, f := range files {
		if strings.HasPrefix(f.Name(), "samples_") {
			sameOutput(t, filepath.Join(abs, f.Name()), srv.URL+"/out/"+model+"/"+f.Name(), "summary", "--json")
			break
		}
	}
}

// A web server without index pages (or with an empty one) has folders
// that cannot be listed: the message says so, exit 2.
func TestRemoteWebFolderUnlisted(t *testing.T) {
	remoteTest(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/empty/" {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><body><a href="../">..</a><a href="?C=N;O=D">Name</a></body></html>`))
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	for path, want := range map[string]string{"/run/": "no index page", "/empty/": "links to no file or folder"} {
		_, errOut, code := runCmd(t, "summary", srv.URL+path)
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, %q; want exit 2 and %q", path, code, errOut, want)
		}
	}
}
