package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// meta is what a store tells of one object.
type meta struct {
	size    int64
	version string // ETag, or another tag that changes when the object does
	// vkind is how the version was told (ETag, Last-Modified,
	// X-Linked-Etag): a later answer must tell it the same way.
	vkind string
	mod   time.Time
	// page is set when a web server answered with an HTML page at a URL
	// ending in "/" (after its redirects): a folder's index, not a file.
	page bool
}

// entry is one name under a listed prefix.
type entry struct {
	name string
	dir  bool
	meta
}

// store is one remote place objects live in (a bucket, a Hub repository
// at a revision, a web server). Keys are slash-separated, without a
// leading slash; "" is the root.
type store interface {
	// first returns an object's size and version with its first bytes
	// (up to blockSize; none for an empty object), from one request, or
	// an error wrapping fs.ErrNotExist when there is no object at key.
	first(ctx context.Context, key string) (meta, []byte, error)
	// stream opens bytes [off, off+n) of the object first answered as m
	// (its version must still be current, told the same way, and its
	// size the same: a replaced object is an error wrapping ErrChanged);
	// the body is read as it arrives, under the request's idle timer and
	// MinRate, and closing it ends the request.
	stream(ctx context.Context, key string, off, n int64, m meta) (io.ReadCloser, error)
	// list returns the objects and folders directly under the folder key,
	// or an error wrapping fs.ErrNotExist when there are none.
	list(ctx context.Context, key string) ([]entry, error)
	// url names key for messages: the path as the user wrote it.
	url(key string) string
}

// ErrChanged is wrapped by reads of an object replaced since it was
// opened (its version tag changed).
var ErrChanged = errors.New("the object changed since it was opened (its version tag differs)")

// Timeout bounds every request to a remote store (the time to its first
// byte and the wait for each byte of its body; MinRate bounds how slowly
// the body may come, see transfer.go); Attempts is how many times a request
// that failed for a reason that may pass (rate limited, a server error,
// a dropped connection, a timeout) is made in all, waiting Backoff, then
// twice as long, between them. Tests shorten them.
var (
	Timeout  = 30 * time.Second
	Attempts = 4
	Backoff  = 500 * time.Millisecond
)

// MaxReadFile bounds the size of a remote file ReadFile reads whole (a
// results file, a config: a few MB at most), so that a size a server
// claims cannot exhaust memory; maxPages bounds a listing's pages.
var (
	MaxReadFile int64 = 512 << 20
	maxPages          = 1000
)

var (
	storesMu sync.Mutex
	stores   = map[string]store{}
)

// locate returns the store a remote path is in and the key in it.
func locate(ctx context.Context, p string) (store, string, error) {
	scheme, rest, _ := split(p)
	var id, key string
	var mk func(context.Context) (store, error)
	switch scheme {
	case "s3":
		bucket, k, _ := strings.Cut(rest, "/")
		if bucket == "" {
			return nil, "", &fs.PathError{Op: "open", Path: Display(p), Err: errors.New("no bucket named (s3://BUCKET/PREFIX)")}
		}
		id, key = "s3://"+bucket, k
		mk = func(ctx context.Context) (store, error) { return newS3(ctx, bucket) }
	case "hf":
		repo, k, err := parseHF(rest)
		if err != nil {
			return nil, "", &fs.PathError{Op: "open", Path: Display(p), Err: err}
		}
		id, key = "hf://"+repo.String(), k
		mk = func(context.Context) (store, error) { return newHF(repo) }
	default:
		host, k, _ := strings.Cut(rest, "/")
		if host == "" {
			return nil, "", &fs.PathError{Op: "open", Path: Display(p), Err: errors.New("no host named")}
		}
		id, key = scheme+"://"+host, k
		mk = func(context.Context) (store, error) { return newHTTP(scheme + "://" + host), nil }
	}
	storesMu.Lock()
	s, ok := stores[id]
	storesMu.Unlock()
	if ok {
		return s, key, nil
	}
	// Made outside the lock: an S3 store asks for credentials and the
	// bucket's region (each up to Timeout), which must not hold up every
	// other remote path. Two paths of one new store may both make it;
	// the first kept is used by both.
	s, err := mk(ctx)
	if err != nil {
		return nil, "", &fs.PathError{Op: "open", Path: Display(p), Err: err}
	}
	storesMu.Lock()
	defer storesMu.Unlock()
	if kept, ok := stores[id]; ok {
		return kept, key, nil
	}
	stores[id] = s
	return s, key, nil
}

// resetStores forgets the stores made so far (tests change endpoints and
// credentials between cases).
func resetStores() {
	storesMu.Lock()
	stores = map[string]store{}
	storesMu.Unlock()
	objects.reset()
	listings.mu.Lock()
	listings.m = map[string]listing{}
	listings.mu.Unlock()
	folders.mu.Lock()
	folders.kept = nil
	folders.mu.Unlock()
	notices.mu.Lock()
	notices.seen, notices.list = nil, nil
	notices.mu.Unlock()
}

// remoteVersion is a remote file's Sys(): its version tag, a
// fmt.Stringer so that who cannot import this package (the browser's
// follow mode) reads it too.
type remoteVersion string

func (v remoteVersion) String() string { return string(v) }

// info is a remote file's or folder's fs.FileInfo and fs.DirEntry.
type info struct {
	name string
	dir  bool
	meta
}

func (i info) Name() string { return i.name }
func (i info) Size() int64  { return i.size }
func (i info) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i info) ModTime() time.Time         { return i.mod }
func (i info) IsDir() bool                { return i.dir }
func (i info) Sys() any                   { return remoteVersion(i.version) }
func (i info) Type() fs.FileMode          { return i.Mode().Type() }
func (i info) Info() (fs.FileInfo, error) { return i, nil }

func baseName(key, p string) string {
	if key == "" {
		_, rest, _ := split(p)
		key = rest
	}
	return key[strings.LastIndex(key, "/")+1:]
}

func statRemote(ctx context.Context, p string) (fs.FileInfo, error) {
	s, key, err := locate(ctx, p)
	if err != nil {
		return nil, err
	}
	if key != "" {
		if m, ok := objects.getFor(s.url(key), trustFor()); ok {
			return info{name: baseName(key, p), meta: m}, nil
		}
		lookAhead(s, key)
		m, err := look(ctx, s, key)
		if err == nil {
			return info{name: baseName(key, p), meta: m}, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	// No object there: a folder when objects sit under it.
	if _, err := listed(ctx, s, key); err != nil {
		return nil, err
	}
	return info{name: baseName(key, p), dir: true}, nil
}

func readDirRemote(ctx context.Context, p string) ([]fs.DirEntry, error) {
	s, key, err := locate(ctx, p)
	if err != nil {
		return nil, err
	}
	ents, err := listed(ctx, s, key)
	if err != nil {
		return nil, err
	}
	out := make([]fs.DirEntry, 0, len(ents))
	for _, e := range ents {
		out = append(out, info{name: e.name, dir: e.dir, meta: e.meta})
	}
	return out, nil
}

func joinKey(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// known remembers the size and version of objects recently listed or
// stat'ed, so that opening one (each record read opens its file again)
// costs no request. A read that finds another version forgets it.
type known struct {
	mu sync.Mutex
	m  map[string]knownMeta
}

type knownMeta struct {
	meta
	at time.Time
}

// knownFor is how long a remembered version is trusted before Open asks
// again (each record read opens its file again).
const knownFor = 30 * time.Second

// StatFor is how long Stat trusts a version learnt by an earlier look:
// opening one file stats it several times (detection, the loader, its
// stream), each a round trip otherwise. --follow, polling every second,
// sees a change within StatFor more.
var StatFor = 2 * time.Second

var objects = &known{m: map[string]knownMeta{}}

func (k *known) remember(url string, m meta) {
	k.mu.Lock()
	k.m[url] = knownMeta{m, time.Now()}
	k.mu.Unlock()
}

func (k *known) get(url string) (meta, bool) { return k.getFor(url, knownFor) }

// getFor is get trusting a version learnt at most d ago.
func (k *known) getFor(url string, d time.Duration) (meta, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	m, ok := k.m[url]
	if !ok || time.Since(m.at) > d {
		return meta{}, false
	}
	return m.meta, true
}

func (k *known) forget(url string) {
	k.mu.Lock()
	delete(k.m, url)
	k.mu.Unlock()
}

func (k *known) reset() {
	k.mu.Lock()
	k.m = map[string]knownMeta{}
	k.mu.Unlock()
}

// look asks the store for the object at key, or waits for the answer of
// a look at it under way (lookAhead's); a look of another caller that
// was cancelled is not this one's answer: it asks again.
func look(ctx context.Context, s store, key string) (meta, error) {
	u := s.url(key)
	for {
		c, mine := claim(u)
		if mine {
			return c.answer(ctx, s, key, u)
		}
		select {
		case <-c.done:
			if !isCanceled(c.err) || ctx.Err() != nil {
				return c.m, c.err
			}
		case <-ctx.Done():
			return meta{}, pathErr("stat", u, netWhat(ctx.Err()), ctx.Err())
		}
	}
}

// lookNow asks the store for the object at key and remembers its size
// and version; the first block, which comes with the same answer, is
// kept in the block cache: a file looked at is read from its head next
// (detection sniffs it, a results file is read whole), and that read
// costs no second round trip.
func lookNow(ctx context.Context, s store, key string) (meta, error) {
	m, head, err := s.first(ctx, key)
	if err != nil {
		return meta{}, err
	}
	u := s.url(key)
	objects.remember(u, m)
	if m.size > 0 && int64(len(head)) == min(m.size, blockSize) {
		blocks.seed(&object{s: s, key: key, url: u, meta: m}, head)
	}
	return m, nil
}

func openRemote(ctx context.Context, p string) (File, error) {
	s, key, err := locate(ctx, p)
	if err != nil {
		return nil, err
	}
	if key == "" {
		return nil, &fs.PathError{Op: "open", Path: Display(p), Err: errors.New("is a folder")}
	}
	u := s.url(key)
	m, ok := objects.get(u)
	if !ok {
		lookAhead(s, key)
		if m, err = look(ctx, s, key); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if _, lerr := listed(ctx, s, key); lerr == nil {
					return nil, &fs.PathError{Op: "open", Path: u, Err: errors.New("is a folder")}
				}
			}
			return nil, err
		}
	}
	return &remoteFile{obj: &object{s: s, key: key, url: u, meta: m}, name: baseName(key, p), ctx: ctx, closed: make(chan struct{})}, nil
}

// object is one version of a remote object, as the block cache reads it.
type object struct {
	s   store
	key string
	url string
	meta
}

// remoteFile is an open remote object: reads go through the block cache;
// sequential reads keep several blocks ahead in flight. Reads end when
// ctx is done or the file is closed.
type remoteFile struct {
	obj  *object
	name string
	ctx  context.Context
	mu   sync.Mutex
	pos  int64
	// done is set by Close, which may run while a ReadAt (no lock) reads;
	// closed is closed by it, ending the reads that wait.
	done      atomic.Bool
	closed    chan struct{}
	closeOnce sync.Once
}

func (f *remoteFile) stop() stop { return stop{ctx: f.ctx, closed: f.closed} }

var errClosed = errors.New("file already closed")

func (f *remoteFile) Stat() (fs.FileInfo, error) {
	return info{name: f.name, meta: f.obj.meta}, nil
}

func (f *remoteFile) ReadAt(p []byte, off int64) (int, error) {
	if f.done.Load() {
		return 0, errClosed
	}
	if off < 0 {
		return 0, fmt.Errorf("%s: negative offset", f.obj.url)
	}
	who := new(byte) // this read, while it waits
	defer blocks.forget(f.obj, who)
	return blocks.readAt(f.obj, p, off, false, who, f.stop())
}

func (f *remoteFile) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done.Load() {
		return 0, errClosed
	}
	if f.pos >= f.obj.size {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	// One block at a time, so that the read-ahead keeps pace. It starts
	// once the reader goes past the first block: detection reads the
	// heads of many files and closes them.
	end := min(f.pos+int64(len(p)), (f.pos/blockSize+1)*blockSize)
	n, err := blocks.readAt(f.obj, p[:end-f.pos], f.pos, f.pos >= blockSize, f, f.stop())
	f.pos += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

func (f *remoteFile) Seek(off int64, whence int) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch whence {
	case io.SeekCurrent:
		off += f.pos
	case io.SeekEnd:
		off += f.obj.size
	}
	if off < 0 {
		return 0, fmt.Errorf("%s: seek before the start", f.obj.url)
	}
	f.pos = off
	return off, nil
}

func (f *remoteFile) Close() error {
	f.done.Store(true)
	f.closeOnce.Do(func() { close(f.closed) })
	blocks.forget(f.obj, f)
	return nil
}

// Reset forgets every store, remembered version and cached block: the
// next remote path reads the environment (credentials, endpoints) again.
// The cache is emptied in place, under its lock: reads running meanwhile
// keep their blocks and finish.
func Reset() {
	resetStores()
	blocks.mu.Lock()
	defer blocks.mu.Unlock()
	for k, b := range blocks.m {
		if b.elem != nil { // a block being read stays, for its request
			delete(blocks.m, k)
			b.elem = nil
		}
	}
	blocks.lru.Init()
	blocks.bytes = 0
}

// Exists tells whether a file is at p: os.Stat for a local path; for a
// remote one, a look in its folder's listing, kept for a while, so that
// a file naming thousands of media beside it (Sample JSONL) costs one
// listing per folder, not a request per name.
func Exists(p string) bool {
	if !IsRemote(p) {
		_, err := os.Stat(p)
		return err == nil
	}
	dir, name := Dir(p), baseName("", p)
	listings.mu.Lock()
	l, ok := listings.m[dir]
	listings.mu.Unlock()
	if !ok || time.Since(l.at) > knownFor {
		l = listing{names: map[string]bool{}, at: time.Now()}
		if ents, err := ReadDir(dir); err == nil {
			for _, e := range ents {
				l.names[e.Name()] = !e.IsDir()
			}
		}
		listings.mu.Lock()
		listings.m[dir] = l
		listings.mu.Unlock()
	}
	return l.names[name]
}

type listing struct {
	names map[string]bool
	at    time.Time
}

var listings = struct {
	mu sync.Mutex
	m  map[string]listing
}{m: map[string]listing{}}

// Prefetch starts reading byte ranges ({offset, length}) of a remote file
// all at once, one range request per run of blocks not yet kept, so that
// reading them next (a record's rows, spread over the file) costs one
// round trip in all. It does not wait; a local path, or a remote one not
// opened or stat'ed lately, is left alone.
func Prefetch(p string, ranges [][2]int64) {
	if !IsRemote(p) {
		return
	}
	s, key, err := locate(context.Background(), p)
	if err != nil || key == "" {
		return
	}
	u := s.url(key)
	m, ok := objects.get(u)
	if !ok {
		return
	}
	o := &object{s: s, key: key, url: u, meta: m}
	for _, r := range ranges {
		off, n := r[0], r[1]
		if off < 0 || n <= 0 || off >= m.size {
			continue
		}
		first, last := off/blockSize, (min(off+n, m.size)-1)/blockSize
		for idx := first; idx <= last; idx++ {
			blocks.release(blocks.get(o, idx, last))
		}
	}
}
