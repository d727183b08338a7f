package source

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"evalview/internal/xdg"
)

// hfRepo is a repository of the Hugging Face Hub at a revision.
type hfRepo struct {
	kind string // datasets, spaces or models
	id   string // ORG/NAME
	rev  string // "" for main
}

func (r hfRepo) String() string {
	s := r.kind + "/" + r.id
	if r.rev != "" {
		s += "@" + r.rev
	}
	return s
}

// parseHF reads what follows "hf://": [datasets/|spaces/|models/]ORG/NAME[@REV]/PATH
// (models when no kind is named, as the Hub's own paths do).
func parseHF(rest string) (hfRepo, string, error) {
	segs := strings.Split(rest, "/")
	r := hfRepo{kind: "models"}
	if segs[0] == "datasets" || segs[0] == "spaces" || segs[0] == "models" {
		r.kind, segs = segs[0], segs[1:]
	}
	if len(segs) < 2 || segs[0] == "" || segs[1] == "" {
		return r, "", errors.New("not a Hub path: want hf://datasets/ORG/NAME[@REVISION]/PATH")
	}
	name, rev, _ := strings.Cut(segs[1], "@")
	if u, err := url.PathUnescape(rev); err == nil {
		rev = u // refs%2Fpr%2F1
	}
	r.id, r.rev = segs[0]+"/"+name, rev
	return r, strings.Join(segs[2:], "/"), nil
}

// hfStore reads a Hub repository: its tree API lists folders, files are
// read with range requests on their resolve URLs (which redirect large
// files to a CDN; the client follows, and drops the token there).
type hfStore struct {
	w        *web
	repo     hfRepo
	endpoint string
}

// hfToken finds the user's Hub token as the Hub's own tools do: HF_TOKEN,
// else the token file (HF_TOKEN_PATH, $HF_HOME/token, or
// ~/.cache/huggingface/token). It returns the token and where it came
// from (the place, never the token).
func hfToken() (string, string) {
	for _, v := range []string{"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"} {
		if t := strings.TrimSpace(os.Getenv(v)); t != "" {
			return t, "the token in " + v
		}
	}
	p := os.Getenv("HF_TOKEN_PATH")
	if p == "" {
		home := os.Getenv("HF_HOME")
		if home == "" {
			if c, err := xdg.Dir("XDG_CACHE_HOME", ".cache"); err == nil {
				home = filepath.Join(c, "huggingface")
			}
		}
		p = filepath.Join(home, "token")
	}
	if b, err := os.ReadFile(p); err == nil {
		if t := strings.TrimSpace(string(b)); t != "" {
			return t, "the token in " + p
		}
	}
	return "", "no token (set HF_TOKEN or log in with `hf auth login` for private or gated repositories)"
}

func newHF(r hfRepo) (store, error) {
	ep := strings.TrimRight(os.Getenv("HF_ENDPOINT"), "/")
	if ep == "" {
		ep = "https://huggingface.co"
	}
	tok, cred := hfToken()
	return &hfStore{w: &web{client: httpClient(), token: tok, cred: cred}, repo: r, endpoint: ep}, nil
}

func (s *hfStore) url(key string) string {
	if key == "" {
		return "hf://" + s.repo.String()
	}
	return "hf://" + s.repo.String() + "/" + key
}

func (s *hfStore) rev() string {
	if s.repo.rev == "" {
		return "main"
	}
	return s.repo.rev
}

func escapeKey(key string) string {
	parts := strings.Split(key, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

func (s *hfStore) resolve(key string) string {
	prefix := s.repo.kind + "/"
	if s.repo.kind == "models" {
		prefix = ""
	}
	return s.endpoint + "/" + prefix + s.repo.id + "/resolve/" + url.PathEscape(s.rev()) + "/" + escapeKey(key)
}

func (s *hfStore) first(ctx context.Context, key string) (meta, []byte, error) {
	return s.w.rangeFirst(ctx, s.url(key), s.resolve(key))
}

func (s *hfStore) stream(ctx context.Context, key string, off, n int64, m meta) (io.ReadCloser, error) {
	return s.w.stream(ctx, s.url(key), s.resolve(key), off, n, m)
}

// hfEntry is one entry of the tree API's answer.
type hfEntry struct {
	Type string `json:"type"` // file or directory
	Path string `json:"path"`
	Size int64  `json:"size"`
	Oid  string `json:"oid"`
	LFS  *struct {
		Oid  string `json:"oid"`
		Size int64  `json:"size"`
	} `json:"lfs"`
}

func (s *hfStore) list(ctx context.Context, key string) ([]entry, error) {
	u := s.endpoint + "/api/" + s.repo.kind + "/" + s.repo.id + "/tree/" + url.PathEscape(s.rev())
	if key != "" {
		u += "/" + escapeKey(key)
	}
	name := s.url(key)
	var out []entry
	for pages := 0; u != ""; pages++ {
		if pages == maxPages {
			return nil, pathErr("list", name, fmt.Sprintf("the listing goes on past %d pages (stopped there; name a deeper folder)", maxPages), errors.New("too many pages"))
		}
		var next string
		err := s.w.get(ctx, "list", name, u, "", func(resp *http.Response) error {
			raw, err := readListing(resp, name, "a page of the Hub's tree listing")
			if err != nil {
				return err
			}
			var page []hfEntry
			if err := json.Unmarshal(raw, &page); err != nil {
				return pathErr("list", name, "the Hub's tree listing is not JSON: "+err.Error(), err)
			}
			for _, e := range page {
				n := e.Path[strings.LastIndex(e.Path, "/")+1:]
				en := entry{name: n, dir: e.Type == "directory"}
				en.size, en.version = e.Size, e.Oid
				if e.LFS != nil {
					en.size, en.version = e.LFS.Size, e.LFS.Oid
				}
				out = append(out, en)
			}
			next = ""
			if link := nextLink(resp.Header.Get("Link")); link != "" {
				nu, err := resp.Request.URL.Parse(link)
				if err != nil {
					return pathErr("list", name, "the Hub's tree listing names a next page that is no URL", err)
				}
				if ep, err := url.Parse(s.endpoint); err != nil || origin(nu) != origin(ep) {
					// The token goes to the Hub only.
					return pathErr("list", name, "the Hub's tree listing continues on another server ("+origin(nu)+"), where evalview does not send the token", errors.New("next page elsewhere"))
				}
				next = nu.String()
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		u = next
		if len(out) > MaxEntries {
			break // more than is read (listed says so)
		}
	}
	if len(out) == 0 {
		return nil, pathErr("list", name, "not found (an empty folder)", fs.ErrNotExist)
	}
	// The versions the listing gives are the Hub's ids, not the ETags a
	// read sees: only the sizes are kept.
	for i := range out {
		out[i].version = ""
	}
	return out, nil
}

// nextLink is the rel="next" URL of a Link header ("" when none).
func nextLink(h string) string {
	for _, part := range strings.Split(h, ",") {
		u, params, ok := strings.Cut(part, ";")
		if ok && strings.Contains(params, `rel="next"`) {
			return strings.Trim(strings.TrimSpace(u), "<>")
		}
	}
	return ""
}
