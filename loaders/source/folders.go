package source

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Remote folders: listings kept for a while, a bound on the entries read
// with a notice for what is left out, and the files of a listed folder
// looked at a few ahead of the one stat'ed, several at once.
//
// The loaders go over a folder several times (detection, the artifacts
// beside a run, pairing samples with results), listing it and statting
// its files one after another: over a web server's index page of 100,000
// links that was 238,000 requests, one at a time. A listing is kept for
// StatFor, as a stat is (--follow sees a change within it); the files
// after the one stat'ed are looked at beforehand, statAhead of them,
// lookParallel at once, so that a pass over a folder waits for a round
// trip now and then instead of one per file; a command holds what it
// learnt while it opens its paths (Hold), so that a pass longer than
// StatFor asks nothing again; and a folder is read to MaxEntries entries
// at most.

// MaxEntries bounds the entries of one remote folder that are read: past
// it, the first MaxEntries by name are kept and a notice (Notices) says
// how many were left out. Tests lower it.
var MaxEntries = 10000

// statAhead is how many files of a listed folder past the one stat'ed
// are looked at beforehand; lookParallel bounds how many such looks run
// at once, over every folder.
var (
	statAhead    = 16
	lookParallel = 4
)

// foldersKept bounds how many remote folders' listings are kept.
const foldersKept = 16

type folderListing struct {
	url  string
	ents []entry // sorted by name
	at   time.Time
}

var folders struct {
	mu   sync.Mutex
	kept []*folderListing // most recent last
}

// keptListing is the listing of the folder at url, if one was taken
// within d (any age for d < 0).
func keptListing(url string, d time.Duration) *folderListing {
	folders.mu.Lock()
	defer folders.mu.Unlock()
	for _, l := range folders.kept {
		if l.url == url && (d < 0 || time.Since(l.at) <= d) {
			return l
		}
	}
	return nil
}

func keepListing(l *folderListing) {
	folders.mu.Lock()
	defer folders.mu.Unlock()
	kept := folders.kept[:0]
	for _, k := range folders.kept {
		if k.url != l.url {
			kept = append(kept, k)
		}
	}
	if len(kept) >= foldersKept {
		kept = append(kept[:0], kept[len(kept)-foldersKept+1:]...)
	}
	folders.kept = append(kept, l)
}

// listed is the store's listing of the folder at key: kept from a
// listing taken within StatFor (or the hold in force), else asked for. Names that are no entry
// of the folder are left out, the rest sorted by name and cut at
// MaxEntries (saying so); the versions of the files it gives are
// remembered.
func listed(ctx context.Context, s store, key string) ([]entry, error) {
	u := s.url(key)
	if l := keptListing(u, trustFor()); l != nil {
		return l.ents, nil
	}
	all, err := s.list(ctx, key)
	if err != nil {
		return nil, err
	}
	ents := make([]entry, 0, len(all))
	for _, e := range all {
		if e.name == "" || e.name == "." || e.name == ".." || strings.ContainsAny(e.name, "/\\") {
			continue // a listing never names anything outside the folder
		}
		ents = append(ents, e)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].name < ents[j].name })
	if len(ents) > MaxEntries {
		if _, web := s.(*webStore); web {
			addNotice(fmt.Sprintf("%s: the folder's index page links to %d entries; only the first %d by name are read, %d are left out (name a deeper folder)", u, len(ents), MaxEntries, len(ents)-MaxEntries))
		} else {
			addNotice(fmt.Sprintf("%s: the folder holds more than %d entries; only the first %d are read, the rest are left out (name a deeper folder)", u, MaxEntries, MaxEntries))
		}
		ents = ents[:MaxEntries:MaxEntries]
	}
	for _, e := range ents {
		if !e.dir && e.version != "" {
			objects.remember(s.url(joinKey(key, e.name)), e.meta)
		}
	}
	keepListing(&folderListing{url: u, ents: ents, at: time.Now()})
	return ents, nil
}

// notices are what listings left out, each said once.
var notices struct {
	mu   sync.Mutex
	seen map[string]bool
	list []string
}

func addNotice(msg string) {
	notices.mu.Lock()
	defer notices.mu.Unlock()
	if notices.seen == nil {
		notices.seen = map[string]bool{}
	}
	if !notices.seen[msg] {
		notices.seen[msg] = true
		notices.list = append(notices.list, msg)
	}
}

// Notices returns what remote listings left out since it was last
// called, a line each, naming the folder (a folder with more than
// MaxEntries entries is read in part). Each is given once.
func Notices() []string {
	notices.mu.Lock()
	defer notices.mu.Unlock()
	out := notices.list
	notices.list = nil
	return out
}

// A look at an object under way: others that want it wait for its
// answer instead of asking again.
type lookCall struct {
	done chan struct{}
	m    meta
	err  error
}

var looks = struct {
	mu sync.Mutex
	m  map[string]*lookCall
}{m: map[string]*lookCall{}}

// claim returns the look under way at url, or registers a new one, mine.
func claim(url string) (c *lookCall, mine bool) {
	looks.mu.Lock()
	defer looks.mu.Unlock()
	if c, ok := looks.m[url]; ok {
		return c, false
	}
	c = &lookCall{done: make(chan struct{})}
	looks.m[url] = c
	return c, true
}

// answer makes c, the look claimed at url (for key of s), and returns
// its answer: the version a look that ended as this one was claimed
// learnt, else the store's.
func (c *lookCall) answer(ctx context.Context, s store, key, url string) (meta, error) {
	m, ok := objects.getFor(url, trustFor())
	var err error
	if !ok {
		m, err = lookNow(ctx, s, key)
	}
	c.m, c.err = m, err
	looks.mu.Lock()
	delete(looks.m, url)
	looks.mu.Unlock()
	close(c.done)
	return m, err
}

// lookSlots bounds the looks ahead under way at once.
var lookSlots = struct {
	sync.Mutex
	n    int
	free *sync.Cond
}{}

func acquireLook() {
	lookSlots.Lock()
	defer lookSlots.Unlock()
	if lookSlots.free == nil {
		lookSlots.free = sync.NewCond(&lookSlots.Mutex)
	}
	for lookSlots.n >= lookParallel {
		lookSlots.free.Wait()
	}
	lookSlots.n++
}

func releaseLook() {
	lookSlots.Lock()
	lookSlots.n--
	lookSlots.free.Signal()
	lookSlots.Unlock()
}

// lookAhead starts looks at the files after key in its folder's kept
// listing (of any age: it only tells which come next) whose versions are
// not known (within StatFor, or the hold) and that no look is under way
// for, up to statAhead of them.
func lookAhead(s store, key string) {
	i := strings.LastIndex(key, "/")
	dir, name := "", key
	if i >= 0 {
		dir, name = key[:i], key[i+1:]
	}
	l := keptListing(s.url(dir), -1)
	if l == nil {
		return
	}
	j := sort.Search(len(l.ents), func(j int) bool { return l.ents[j].name >= name })
	if j == len(l.ents) || l.ents[j].name != name {
		return
	}
	for n := 0; j+1 < len(l.ents) && n < statAhead; j++ {
		e := l.ents[j+1]
		if e.dir {
			continue
		}
		n++
		k := joinKey(dir, e.name)
		u := s.url(k)
		if _, ok := objects.getFor(u, trustFor()); ok {
			continue
		}
		c, mine := claim(u)
		if !mine {
			continue
		}
		go func() {
			acquireLook()
			defer releaseLook()
			c.answer(context.Background(), s, k, u)
		}()
	}
}

// holds are the holds in force (Hold), since the earliest began.
var holds struct {
	sync.Mutex
	n     int
	since time.Time
}

// Hold makes Stat and ReadDir trust, until release is called, what was
// learnt since Hold was called, however long ago: a command opening its
// paths goes over a folder several times (detection, pairing, the files
// beside), and a pass longer than StatFor (a folder of thousands of
// files on a slow server) would ask for every file and listing again.
// A file changed meanwhile is still noticed by its reads, which check
// its version. Holds may overlap; release may be called more than once.
func Hold() (release func()) {
	holds.Lock()
	if holds.n == 0 {
		holds.since = time.Now()
	}
	holds.n++
	holds.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			holds.Lock()
			holds.n--
			holds.Unlock()
		})
	}
}

// trustFor is how long ago what was learnt of a remote object or folder
// may have been learnt to be trusted now: StatFor, or since the earliest
// hold in force began if that is longer.
func trustFor() time.Duration {
	holds.Lock()
	defer holds.Unlock()
	if holds.n > 0 {
		return max(StatFor, time.Since(holds.since))
	}
	return StatFor
}
