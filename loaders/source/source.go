// Package source is where the loaders get their bytes: local files, or
// remote objects named by a URL (hf://, s3://, https://, http://). Each
// function takes a path as the loaders have it and behaves exactly as its
// os counterpart for a local path; a remote path goes to its store (the
// Hugging Face Hub, an S3 bucket, a web server) through a bounded block
// cache, so that a loader reads a remote file as it reads a local one:
// a reader-at with a size, listed folders, zip archives from their
// central directory.
//
// Remote paths survive filepath.Join and filepath.Clean, which fold
// "s3://b/k" into "s3:/b/k": both spellings name the same object, and
// Display gives the one with two slashes for messages.
package source

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// File is an open file: a sequential reader, a reader-at and a seeker,
// with the file's size and version through Stat. *os.File is one.
type File interface {
	io.Reader
	io.ReaderAt
	io.Seeker
	io.Closer
	Stat() (fs.FileInfo, error)
}

// schemes are the remote path prefixes, lower case.
var schemes = []string{"hf", "s3", "https", "http"}

// split returns a remote path's scheme and what follows its slashes
// ("s3://b/k" and "s3:/b/k" both give "s3", "b/k"); ok is false for a
// local path.
func split(p string) (scheme, rest string, ok bool) {
	i := strings.Index(p, ":")
	if i < 2 { // "" or a Windows drive letter ("C:")
		return "", "", false
	}
	s := strings.ToLower(p[:i])
	known := false
	for _, k := range schemes {
		known = known || s == k
	}
	if !known {
		return "", "", false
	}
	r, _ := cutQuery(s, p[i+1:])
	r = strings.ReplaceAll(r, `\`, "/")
	if !strings.HasPrefix(r, "/") {
		return "", "", false // "hf:name" is a local file name
	}
	r = strings.TrimLeft(r, "/")
	r, _ = cutUser(s, r)
	// Clean the key as filepath.Join would, keeping it inside the store.
	r = strings.TrimPrefix(path.Clean("/"+r), "/")
	return s, r, true
}

// cutQuery splits a web URL's query (and fragment) off what follows its
// scheme: a presigned URL's query is a credential, never part of a path
// shown.
func cutQuery(scheme, rest string) (string, string) {
	if scheme != "http" && scheme != "https" {
		return rest, ""
	}
	rest, _, _ = strings.Cut(rest, "#")
	r, q, _ := strings.Cut(rest, "?")
	return r, q
}

// cutUser splits a web URL's userinfo ("user:password@") off its host:
// a credential, never part of a path shown or a store's URL.
func cutUser(scheme, rest string) (string, string) {
	if scheme != "http" && scheme != "https" {
		return rest, ""
	}
	host, key, slash := strings.Cut(rest, "/")
	i := strings.LastIndex(host, "@")
	if i < 0 {
		return rest, ""
	}
	if slash {
		return host[i+1:] + "/" + key, host[:i]
	}
	return host[i+1:], host[:i]
}

// users holds the userinfo Canon took off web URLs ("user:password@"):
// by the URL it came with, and by the server ("https://host") as the
// last one given for it. A URL Canon saw without one is kept as nil: it
// gets none, whatever another URL of its server was given.
var users = struct {
	sync.Mutex
	url, host map[string]*url.Userinfo
}{url: map[string]*url.Userinfo{}, host: map[string]*url.Userinfo{}}

// userFor is the userinfo to send with a request for the web URL u (as
// Canon gives it, without its query): the one given with u, none when u
// was given without one, else the last given for u's server (a file the
// loaders name beside one given, which Canon never saw).
func userFor(u string) *url.Userinfo {
	users.Lock()
	defer users.Unlock()
	if ui, ok := users.url[u]; ok {
		return ui
	}
	s, r, _ := split(u)
	host, _, _ := strings.Cut(r, "/")
	return users.host[s+"://"+host]
}

// queries holds the queries Canon took off web URLs, by the URL without
// them: requests for that object send it again.
var queries = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// Canon is the path loaders carry for p: a web URL without its query
// (a presigned URL's signature) and its userinfo (user:password@), which
// are kept aside and sent with every request for that object (the
// userinfo as basic authentication, to that host only), so that no
// message, path or output shows them. Other paths are returned unchanged.
func Canon(p string) string {
	s, r, ok := split(p)
	if !ok || s != "http" && s != "https" {
		return p
	}
	rest, q := cutQuery(s, p[strings.Index(p, ":")+1:])
	d := s + "://" + r
	if q != "" {
		queries.Lock()
		queries.m[d] = q
		queries.Unlock()
	}
	rest = strings.TrimLeft(strings.ReplaceAll(rest, `\`, "/"), "/")
	_, ui := cutUser(s, rest)
	users.Lock()
	defer users.Unlock()
	if ui == "" {
		// Given without a credential: none is sent for it, unless it was
		// given with one before (the path Canon returned, given again).
		if _, seen := users.url[d]; !seen {
			users.url[d] = nil
		}
		return d
	}
	// url.Parse decodes the escapes of the name and password.
	if u, err := url.Parse(s + "://" + ui + "@h/"); err == nil && u.User != nil {
		host, _, _ := strings.Cut(r, "/")
		users.url[d] = u.User
		users.host[s+"://"+host] = u.User
	}
	return d
}

// queryFor is the query Canon kept for the web URL u ("" for none).
func queryFor(u string) string {
	queries.Lock()
	defer queries.Unlock()
	return queries.m[u]
}

// IsRemote tells whether p names a remote object (hf://, s3://, https://,
// http://) rather than a local file.
func IsRemote(p string) bool {
	_, _, ok := split(p)
	return ok
}

// Display is p as a user writes it: a remote path with its two slashes
// back ("s3:/b/k" -> "s3://b/k"); a local path unchanged.
func Display(p string) string {
	s, r, ok := split(p)
	if !ok {
		return p
	}
	return s + "://" + r
}

// Join is filepath.Join for local paths, and joins a remote path's key
// with slashes, keeping its "scheme://".
func Join(elem ...string) string {
	if len(elem) == 0 || !IsRemote(elem[0]) {
		return filepath.Join(elem...)
	}
	s, r, _ := split(elem[0])
	parts := append([]string{r}, elem[1:]...)
	for i := range parts {
		parts[i] = strings.ReplaceAll(parts[i], `\`, "/")
	}
	_, r, _ = split(s + "://" + path.Join(parts...))
	return s + "://" + r
}

// Dir is filepath.Dir for local paths; for a remote path, the folder
// holding it (the store's root stays the root).
func Dir(p string) string {
	s, r, ok := split(p)
	if !ok {
		return filepath.Dir(p)
	}
	root := rootLen(s, r)
	if strings.Count(r, "/") <= root {
		return s + "://" + r
	}
	d := path.Dir(r)
	if strings.Count(d, "/") < root-1 || d == "." {
		return s + "://" + r
	}
	return s + "://" + d
}

// rootLen is how many slashes a remote path's root has: "bucket" (0),
// "host" (0), "datasets/org/name" (2), "org/name" for models (1).
func rootLen(scheme, rest string) int {
	if scheme != "hf" {
		return 0
	}
	if first, _, _ := strings.Cut(rest, "/"); first == "datasets" || first == "spaces" || first == "models" {
		return 2
	}
	return 1
}

// Open opens a file for reading: os.Open for a local path.
func Open(p string) (File, error) { return OpenContext(context.Background(), p) }

// Stat is os.Stat for a local path; for a remote one, the object's size,
// modification time and version tag (Sys() is the tag), or a folder when
// the path is a prefix with objects under it.
func Stat(p string) (fs.FileInfo, error) { return StatContext(context.Background(), p) }

// ReadDir is os.ReadDir for a local path; for a remote one, the objects
// and folders directly under the prefix, sorted by name.
func ReadDir(p string) ([]fs.DirEntry, error) { return ReadDirContext(context.Background(), p) }

// ReadFile is os.ReadFile for a local path; a remote file is read whole.
func ReadFile(p string) ([]byte, error) { return ReadFileContext(context.Background(), p) }

// The Context variants of Open, Stat, ReadDir and ReadFile end their
// remote requests when ctx is done, and return at once with an error
// that names the path and wraps ctx's (errors.Is(err, context.Canceled)):
// a browser quitting, or a user giving up on a slow server, need not wait
// for the request's timeout. A file opened with OpenContext keeps ctx:
// every read of it ends the same way when ctx is done, and so does every
// read under way when the file is closed (with an error "file already
// closed"). A request that no read waits for any more is ended too. A
// local path's os call is not interrupted; it is not made when ctx is
// already done.

// OpenContext is Open, ended when ctx is done (see above).
func OpenContext(ctx context.Context, p string) (File, error) {
	if !IsRemote(p) {
		if err := ctx.Err(); err != nil {
			return nil, &fs.PathError{Op: "open", Path: p, Err: err}
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	return openRemote(ctx, p)
}

// StatContext is Stat, ended when ctx is done.
func StatContext(ctx context.Context, p string) (fs.FileInfo, error) {
	if !IsRemote(p) {
		if err := ctx.Err(); err != nil {
			return nil, &fs.PathError{Op: "stat", Path: p, Err: err}
		}
		return os.Stat(p)
	}
	return statRemote(ctx, p)
}

// ReadDirContext is ReadDir, ended when ctx is done.
func ReadDirContext(ctx context.Context, p string) ([]fs.DirEntry, error) {
	if !IsRemote(p) {
		if err := ctx.Err(); err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: p, Err: err}
		}
		return readDirLocal(p)
	}
	return readDirRemote(ctx, p)
}

// ReadFileContext is ReadFile, ended when ctx is done.
func ReadFileContext(ctx context.Context, p string) ([]byte, error) {
	if !IsRemote(p) {
		if err := ctx.Err(); err != nil {
			return nil, &fs.PathError{Op: "read", Path: p, Err: err}
		}
		return os.ReadFile(p)
	}
	// Read whole, so the version of the moment (Open trusts a version
	// learnt recently, for the offsets of an index made from it).
	if _, err := statRemote(ctx, p); err != nil {
		return nil, err
	}
	f, err := openRemote(ctx, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, _ := f.Stat()
	if n := st.Size(); n < 0 || n > MaxReadFile {
		return nil, &fs.PathError{Op: "read", Path: Display(p), Err: fmt.Errorf("the server claims a size of %d bytes; a file read whole may have at most %d", n, MaxReadFile)}
	}
	buf := make([]byte, st.Size())
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// Version is the version tag of a file's info from Stat: a remote
// object's ETag ("" for a local file, whose size and modification time
// tell instead).
func Version(st fs.FileInfo) string {
	if v, ok := st.Sys().(remoteVersion); ok {
		return string(v)
	}
	return ""
}

// ZipReader is an open zip archive, as zip.ReadCloser is: a remote one is
// read from its central directory at the end of the object, then member
// by member.
type ZipReader struct {
	*zip.Reader
	f File
}

// Close closes the archive's file.
func (z *ZipReader) Close() error { return z.f.Close() }

// OpenZip is zip.OpenReader through Open: like it, an archive with
// insecure names comes back with zip.ErrInsecurePath, ready to read.
func OpenZip(p string) (*ZipReader, error) {
	f, err := Open(p)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	zr, err := zip.NewReader(f, st.Size())
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		f.Close()
		return nil, err
	}
	return &ZipReader{Reader: zr, f: f}, err
}
