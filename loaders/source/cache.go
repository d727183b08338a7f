package source

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// The block cache sits between the loaders and remote stores: objects
// are read in aligned blocks, kept in a bounded LRU keyed by URL and
// version tag (a replaced object is another key), optionally on disk too.
// A sequential reader (the line indexer's one pass over a samples file)
// keeps several multi-block range requests in flight ahead of it; a
// random read (a record opened again) asks for the blocks it lacks in
// one range request.
const (
	blockSize = 256 << 10
	// runBlocks is how many blocks one read-ahead request asks for.
	runBlocks = 16
	// inFlight is how many read-ahead requests an object has at once.
	inFlight = 6
)

// CacheBytes bounds the blocks kept in memory (a sequential pass reads
// each block once: the cache serves records opened again and the heads
// detection reads twice).
var CacheBytes int64 = 32 << 20

type bkey struct {
	url, version string
	idx          int64
}

type block struct {
	data []byte
	err  error
	done chan struct{}
	elem *list.Element // in the LRU once read
}

type blockCache struct {
	mu    sync.Mutex
	m     map[bkey]*block
	lru   *list.List // of bkey, most recent first
	bytes int64
	ahead map[string]int // read-ahead requests in flight, per object version
	disk  string         // folder of the on-disk cache; "" for none
	// requests counts range requests made (tests and the benchmark read it).
	requests int64
}

var blocks = newBlockCache()

func newBlockCache() *blockCache {
	return &blockCache{m: map[bkey]*block{}, lru: list.New(), ahead: map[string]int{}}
}

// SetDiskCache keeps the blocks read from remote objects in dir too
// ("" turns it off), so that opening the same version again reads no
// byte over the network. The blocks of a replaced object are not used.
func SetDiskCache(dir string) {
	blocks.mu.Lock()
	blocks.disk = dir
	blocks.mu.Unlock()
}

// DefaultDiskCache is the on-disk cache's folder:
// $XDG_CACHE_HOME/evalview/blocks ($HOME/.cache when it is unset).
func DefaultDiskCache() string {
	dir := os.Getenv("XDG_CACHE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".cache")
	}
	return filepath.Join(dir, "evalview", "blocks")
}

// Requests is how many range requests remote reads made so far.
func Requests() int64 {
	blocks.mu.Lock()
	defer blocks.mu.Unlock()
	return blocks.requests
}

func (o *object) bk(idx int64) bkey { return bkey{o.url, o.version, idx} }

func (o *object) lastBlock() int64 { return (o.size - 1) / blockSize }

// readAt fills p from off, as io.ReaderAt; seq starts read-ahead past it.
func (c *blockCache) readAt(o *object, p []byte, off int64, seq bool) (int, error) {
	if off >= o.size {
		return 0, io.EOF
	}
	end := min(off+int64(len(p)), o.size)
	first, last := off/blockSize, (end-1)/blockSize
	n := 0
	for idx := first; idx <= last; idx++ {
		upto := last
		if seq {
			// A sequential reader asks for the rest of the aligned run.
			upto = max(last, min((idx/runBlocks+1)*runBlocks-1, o.lastBlock()))
		}
		b := c.get(o, idx, upto)
		if seq && idx == first {
			c.readAhead(o, last+1)
		}
		<-b.done
		if b.err != nil {
			return n, b.err
		}
		lo := max(off, idx*blockSize) - idx*blockSize
		hi := min(end, (idx+1)*blockSize) - idx*blockSize
		n += copy(p[n:], b.data[lo:hi])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// get returns block idx, read or being read, starting one request for it
// and the missing blocks after it up to last.
func (c *blockCache) get(o *object, idx, last int64) *block {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.m[o.bk(idx)]; ok {
		if b.elem != nil {
			c.lru.MoveToFront(b.elem)
		}
		return b
	}
	run := []*block{}
	for i := idx; i <= last; i++ {
		if _, ok := c.m[o.bk(i)]; ok {
			break
		}
		b := &block{done: make(chan struct{})}
		c.m[o.bk(i)] = b
		run = append(run, b)
	}
	go c.fetch(o, idx, run, "")
	return run[0]
}

// readAhead starts requests for the aligned runs of runBlocks blocks
// after the one holding block idx, up to inFlight runs ahead, each when
// none of its blocks is kept or being read; an object has at most
// inFlight such requests at once. Whole aligned runs keep every request
// as big as the first, however the reader's position moves.
func (c *blockCache) readAhead(o *object, idx int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ak := o.url + "\x00" + o.version
	last := o.lastBlock()
	for r := idx/runBlocks + 1; r <= idx/runBlocks+inFlight && r*runBlocks <= last && c.ahead[ak] < inFlight; r++ {
		start := r * runBlocks
		end := min(start+runBlocks-1, last)
		free := true
		for i := start; i <= end && free; i++ {
			_, kept := c.m[o.bk(i)]
			free = !kept
		}
		if !free {
			continue
		}
		run := make([]*block, 0, end-start+1)
		for i := start; i <= end; i++ {
			b := &block{done: make(chan struct{})}
			c.m[o.bk(i)] = b
			run = append(run, b)
		}
		c.ahead[ak]++
		go c.fetch(o, start, run, ak)
	}
}

// fetch reads the blocks of run, the first being block first, from the
// disk cache or with one range request, and hands them out.
func (c *blockCache) fetch(o *object, first int64, run []*block, ahead string) {
	c.mu.Lock()
	disk := c.disk
	c.mu.Unlock()
	var datas [][]byte
	var err error
	if disk != "" {
		datas = c.fromDisk(disk, o, first, len(run))
	}
	if datas == nil {
		datas, err = c.fromStore(o, first, len(run))
		if err == nil && disk != "" {
			c.toDisk(disk, o, first, datas)
		}
	}
	if errors.Is(err, ErrChanged) {
		objects.forget(o.url)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if ahead != "" {
		if c.ahead[ahead]--; c.ahead[ahead] <= 0 {
			delete(c.ahead, ahead)
		}
	}
	for i, b := range run {
		k := o.bk(first + int64(i))
		if err != nil {
			b.err = err
			delete(c.m, k) // the next read asks again
		} else {
			b.data = datas[i]
			b.elem = c.lru.PushFront(k)
			c.bytes += int64(len(b.data))
		}
		close(b.done)
	}
	for c.bytes > CacheBytes && c.lru.Len() > 0 {
		e := c.lru.Back()
		k := e.Value.(bkey)
		c.lru.Remove(e)
		if b, ok := c.m[k]; ok {
			c.bytes -= int64(len(b.data))
			delete(c.m, k)
		}
	}
}

func (c *blockCache) fromStore(o *object, first int64, n int) ([][]byte, error) {
	off := first * blockSize
	size := min(off+int64(n)*blockSize, o.size) - off
	c.mu.Lock()
	c.requests++
	c.mu.Unlock()
	data, err := o.s.read(context.Background(), o.key, off, size, o.version)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) != size {
		return nil, fmt.Errorf("%s: asked for %d bytes at %d, got %d", o.url, size, off, len(data))
	}
	// The blocks share the request's buffer (no copy): a sequential pass
	// drops them together.
	out := make([][]byte, n)
	for i := range out {
		lo := int64(i) * blockSize
		out[i] = data[lo:min(lo+blockSize, size):min(lo+blockSize, size)]
	}
	return out, nil
}

func diskDir(disk string, o *object) string {
	sum := sha256.Sum256([]byte(o.url + "\x00" + o.version))
	return filepath.Join(disk, hex.EncodeToString(sum[:12]))
}

// fromDisk returns the run's blocks when the disk cache has all of them.
func (c *blockCache) fromDisk(disk string, o *object, first int64, n int) [][]byte {
	dir := diskDir(disk, o)
	out := make([][]byte, n)
	for i := range out {
		idx := first + int64(i)
		want := min((idx+1)*blockSize, o.size) - idx*blockSize
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprint(idx)))
		if err != nil || int64(len(b)) != want {
			return nil
		}
		out[i] = b
	}
	return out
}

// toDisk keeps the blocks on disk, best effort: each appears whole or
// not at all.
func (c *blockCache) toDisk(disk string, o *object, first int64, datas [][]byte) {
	dir := diskDir(disk, o)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	for i, b := range datas {
		name := filepath.Join(dir, fmt.Sprint(first+int64(i)))
		tmp, err := os.CreateTemp(dir, ".part-*")
		if err != nil {
			return
		}
		_, werr := tmp.Write(b)
		if cerr := tmp.Close(); werr != nil || cerr != nil {
			os.Remove(tmp.Name())
			return
		}
		if os.Rename(tmp.Name(), name) != nil {
			os.Remove(tmp.Name())
		}
	}
}
