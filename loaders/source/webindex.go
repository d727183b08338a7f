package source

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/html"
)

// list lists the folder at key from the index page the web server makes
// for it: `python -m http.server`, nginx's and Apache's autoindex, Caddy's
// file_server browse, Go's http.FileServer. Each link to a name in the
// folder is an entry, a folder when it ends in "/"; links elsewhere (the
// parent, sorting links, other hosts, absolute paths outside the folder)
// are not. A server that gives no such page has folders that cannot be
// listed, and says so.
func (s *webStore) list(ctx context.Context, key string) ([]entry, error) {
	dir := strings.TrimSuffix(key, "/")
	u := s.url(dir)
	if dir != "" {
		u += "/"
	}
	name := strings.TrimSuffix(s.url(key), "/")
	var page []byte
	var final *url.URL
	noIndex := false // an answer that is no HTML page
	err := s.w.get(ctx, "list", name, u, "", func(resp *http.Response) error {
		if ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); ct != "text/html" {
			noIndex = true
			return nil
		}
		b, err := readListing(resp, name, "the folder's index page")
		if err != nil {
			return err
		}
		page, final = b, resp.Request.URL
		return nil
	})
	if noIndex || errors.Is(err, fs.ErrNotExist) {
		return nil, pathErr("list", name, "not found, and the server gives no index page for this folder (name a file, or use hf:// or s3://)", fs.ErrNotExist)
	}
	if err != nil {
		return nil, err
	}
	out := indexLinks(page, final)
	if len(out) == 0 {
		return nil, pathErr("list", name, "not found (the folder's index page links to no file or folder in it)", fs.ErrNotExist)
	}
	return out, nil
}

// indexLinks returns the entries an index page at base links to: each
// href that resolves to a name directly inside base's folder, once.
func indexLinks(page []byte, base *url.URL) []entry {
	folder := base.Path
	if !strings.HasSuffix(folder, "/") {
		folder = folder[:strings.LastIndex(folder, "/")+1]
	}
	seen := map[string]bool{}
	var out []entry
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tag, hasAttr := z.TagName()
		if string(tag) != "a" || !hasAttr {
			continue
		}
		for {
			k, v, more := z.TagAttr()
			if string(k) == "href" {
				if e, ok := indexEntry(string(v), base, folder); ok && !seen[e.name] {
					seen[e.name] = true
					out = append(out, e)
				}
			}
			if !more {
				break
			}
		}
	}
}

// indexEntry is the entry a link names, when it names one inside folder
// (a URL path ending in "/") on base's host.
func indexEntry(href string, base *url.URL, folder string) (entry, bool) {
	ref, err := url.Parse(href)
	if err != nil || ref.RawQuery != "" && ref.Path == "" || ref.Fragment != "" && ref.Path == "" {
		return entry{}, false
	}
	abs := base.ResolveReference(ref)
	if abs.Scheme != base.Scheme || abs.Host != base.Host || abs.RawQuery != "" {
		return entry{}, false // another host, or a sorting link (?C=N;O=D)
	}
	rest, ok := strings.CutPrefix(abs.Path, folder)
	if !ok || rest == "" {
		return entry{}, false // the folder itself, its parent, elsewhere
	}
	dir := strings.HasSuffix(rest, "/")
	rest = strings.TrimSuffix(rest, "/")
	if rest == "" || rest == "." || rest == ".." || strings.Contains(rest, "/") {
		return entry{}, false // deeper: not an entry of this folder
	}
	return entry{name: rest, dir: dir}, true
}
