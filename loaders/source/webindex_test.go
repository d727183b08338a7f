package source

import (
	"fmt"
	"net/url"
	"testing"
)

// The index pages that web servers make for a folder give its entries,
// and nothing else: the parent, sorting links, other hosts, deeper paths
// and the page's own links are left out; names are unescaped.
func TestIndexLinks(t *testing.T) {
	base, _ := url.Parse("http://h:8000/runs/out/")
	pages := map[string]string{
		// python -m http.server
		"python": `<!DOCTYPE HTML><html><head><title>Directory listing for /runs/out/</title></head><body><ul>
<li><a href="org__model/">org__model/</a></li>
<li><a href="results_2025.json">results_2025.json</a></li>
<li><a href="samples%20a_2025.jsonl">samples a_2025.jsonl</a></li>
</ul></body></html>`,
		// nginx autoindex
		"nginx": `<html><head><title>Index of /runs/out/</title></head><body><h1>Index of /runs/out/</h1><hr><pre><a href="../">../</a>
<a href="org__model/">org__model/</a>                                        27-Nov-2026 10:00       -
<a href="results_2025.json">results_2025.json</a>                                  27-Nov-2026 10:00    1234
<a href="samples%20a_2025.jsonl">samples a_2025.jsonl</a>                         27-Nov-2026 10:00   99999
</pre><hr></body></html>`,
		// Apache mod_autoindex, with its sorting links and parent
		"apache": `<html><body><h1>Index of /runs/out</h1><table>
<tr><th><a href="?C=N;O=D">Name</a></th><th><a href="?C=M;O=A">Last modified</a></th></tr>
<tr><td><a href="/runs/">Parent Directory</a></td></tr>
<tr><td><a href="org__model/">org__model/</a></td></tr>
<tr><td><a href="results_2025.json">results_2025.json</a></td></tr>
<tr><td><a href="samples%20a_2025.jsonl">samples a_2025.jsonl</a></td></tr>
</table><address>Apache Server</address></body></html>`,
		// Caddy's browse: ./-relative and absolute links, an icon link
		// to the same entry, a link to another site
		"caddy": `<html><body><a href="/">home</a> <a href="/runs/">runs</a>
<a href="./org__model/"><svg></svg></a><a href="./org__model/">org__model</a>
<a href="/runs/out/results_2025.json">results_2025.json</a>
<a href="./samples%20a_2025.jsonl">samples a_2025.jsonl</a>
<a href="./org__model/deeper.json">deeper</a>
<a href="https://caddyserver.com/">Caddy</a><a href="#top">top</a></body></html>`,
	}
	want := "[org__model/ results_2025.json samples a_2025.jsonl]"
	for server, page := range pages {
		var got []string
		for _, e := range indexLinks([]byte(page), base) {
			n := e.name
			if e.dir {
				n += "/"
			}
			got = append(got, n)
		}
		if fmt.Sprint(got) != want {
			t.Errorf("%s: entries %v, want %s", server, got, want)
		}
	}
	// A page whose URL has no trailing slash (list asks with one; a
	// server may redirect): its links resolve beside it, as a browser
	// resolves them, and only those into that folder count.
	noSlash, _ := url.Parse("http://h:8000/runs/out")
	if got := indexLinks([]byte(`<a href="out/x.json">x</a><a href="y.json">y</a>`), noSlash); len(got) != 1 || got[0].name != "y.json" {
		t.Errorf("page without its slash: %v", got)
	}
}
