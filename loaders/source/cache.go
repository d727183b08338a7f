package source

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
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
	runBlocks = 256
	// inFlight is how many read-ahead requests an object has at once.
	inFlight = 4
	// aheadBlocks is how far past the reader a request's body is read
	// before it waits for the reader: the requests are made early (their
	// latency overlaps), their bytes wait in the connection.
	aheadBlocks = 96
)

// CacheBytes bounds the blocks kept in memory (a sequential pass reads
// each block once: the cache serves records opened again and the heads
// detection reads twice). It holds more than aheadBlocks, so blocks read
// ahead are not dropped before the reader reaches them.
var CacheBytes int64 = 48 << 20

// errAbandoned fails the blocks of a read-ahead request whose reader
// went away (no read came near them within Timeout).
var errAbandoned = errors.New("read-ahead abandoned")

type bkey struct {
	url, version string
	idx          int64
}

type block struct {
	data []byte
	err  error
	done chan struct{}
	elem *list.Element // in the LRU once read
	// run is the request reading the block (nil for one seeded).
	run *run
	// users are the reads holding the block (get to release); evicted
	// tells it left the cache: its buffer is reused once both say so.
	users   int
	evicted bool
}

// run is one range request of the cache: the blocks it reads, the
// context that ends it, and whether it reads ahead of a sequential reader
// (else it reads for a read waiting on its first block, or a prefetch).
type run struct {
	blocks []*block
	ctx    context.Context
	cancel context.CancelFunc
	ahead  bool
}

// newRun makes the run reading blocks (already in the cache's map).
func newRun(blocks []*block, ahead bool) *run {
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{blocks: blocks, ctx: ctx, cancel: cancel, ahead: ahead}
	for _, b := range blocks {
		b.run = r
	}
	return r
}

// bufs are the buffers of evicted blocks, for new ones: a pass over a
// big object reuses a few MB instead of leaving a GB to the collector.
var bufs = sync.Pool{New: func() any { b := make([]byte, blockSize); return &b }}

// newBuf is a buffer for a block of n bytes.
func newBuf(n int64) []byte {
	if n != blockSize {
		return make([]byte, n)
	}
	return *bufs.Get().(*[]byte)
}

// recycle gives an evicted block's buffer back, once no read holds it.
// Called with c.mu held.
func (b *block) recycle() {
	if b.evicted && b.users == 0 && len(b.data) == blockSize {
		d := b.data
		b.data = nil
		bufs.Put(&d)
	}
}

// release ends a read's hold on b (from get).
func (c *blockCache) release(b *block) {
	c.mu.Lock()
	b.users--
	b.recycle()
	c.mu.Unlock()
}

type blockCache struct {
	mu    sync.Mutex
	m     map[bkey]*block
	lru   *list.List // of bkey, most recent first
	bytes int64
	ahead map[string]int // read-ahead requests in flight, per object version
	// aheadRuns are those requests, ended when the object's last reader
	// goes (a file closed mid-read).
	aheadRuns map[string]map[*run]bool
	// pos is, per object version, the block each reader is at (a file
	// reading on, or a read waiting for its blocks); moved is closed (and
	// replaced) when one moves, waking the requests that wait for their
	// reader.
	pos   map[string]map[any]int64
	moved chan struct{}
	disk  string // folder of the on-disk cache; "" for none
	// requests counts range requests made (tests and the benchmark read it).
	requests int64
	// fetches are the requests running (tests wait for them before
	// changing Timeout and the other settings they read).
	fetches sync.WaitGroup
}

var blocks = newBlockCache()

func newBlockCache() *blockCache {
	return &blockCache{m: map[bkey]*block{}, lru: list.New(), ahead: map[string]int{}, aheadRuns: map[string]map[*run]bool{},
		pos: map[string]map[any]int64{}, moved: make(chan struct{})}
}

// Requests is how many range requests remote reads made so far.
func Requests() int64 {
	blocks.mu.Lock()
	defer blocks.mu.Unlock()
	return blocks.requests
}

func (o *object) bk(idx int64) bkey { return bkey{o.url, o.version, idx} }

// ak names one version of an object in the cache's maps.
func (o *object) ak() string { return o.url + "\x00" + o.version }

func (o *object) lastBlock() int64 { return (o.size - 1) / blockSize }

// stop is what ends a read's waits: the context of its file, and its
// file being closed.
type stop struct {
	ctx    context.Context
	closed <-chan struct{}
}

// wait waits for block b (from get) to be read, or for st to end the
// read: the read lets go of b, and a request left with no read waiting
// on it is ended.
func (c *blockCache) wait(o *object, b *block, st stop) error {
	select {
	case <-b.done:
		return nil
	default:
	}
	select {
	case <-b.done:
		return nil
	case <-st.closed:
		c.giveUp(b)
		return errClosed
	case <-st.ctx.Done():
		c.giveUp(b)
		return pathErr("read", o.url, netWhat(st.ctx.Err()), st.ctx.Err())
	}
}

// giveUp lets go of b for a read that stopped waiting; when no read waits
// on a block of b's request any more, and the request is not reading
// ahead (whose reader's going ends it: forget), the request ends.
func (c *blockCache) giveUp(b *block) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b.users--
	b.recycle()
	r := b.run
	if r == nil || r.ahead {
		return
	}
	for _, rb := range r.blocks {
		select {
		case <-rb.done:
			continue
		default:
		}
		if rb.users > 0 {
			return
		}
	}
	r.cancel()
}

// readAt fills p from off, as io.ReaderAt, for reader who; seq starts
// read-ahead past it; st ends its waits.
func (c *blockCache) readAt(o *object, p []byte, off int64, seq bool, who any, st stop) (int, error) {
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
		c.want(o, who, idx) // before the read-ahead, which reads for it
		b := c.get(o, idx, upto)
		if seq && idx == first {
			c.readAhead(o, last+1)
		}
		if err := c.wait(o, b, st); err != nil {
			return n, err
		}
		// A read-ahead given up (its reader closed its file, or none came
		// near in time) is not this read's failure: ask again, now as
		// this read's own request. Bounded, though a read's own request
		// is always allowed its first block.
		for try := 0; errors.Is(b.err, errAbandoned) && try < Attempts; try++ {
			c.release(b)
			b = c.get(o, idx, upto)
			if err := c.wait(o, b, st); err != nil {
				return n, err
			}
		}
		if b.err != nil {
			c.release(b)
			return n, b.err
		}
		lo := max(off, idx*blockSize) - idx*blockSize
		hi := min(end, (idx+1)*blockSize) - idx*blockSize
		n += copy(p[n:], b.data[lo:hi])
		c.release(b)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// get returns block idx, read or being read, starting one request for it
// and the missing blocks after it up to last; the caller releases it.
func (c *blockCache) get(o *object, idx, last int64) *block {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.m[o.bk(idx)]; ok {
		if b.elem != nil {
			c.lru.MoveToFront(b.elem)
		}
		b.users++
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
	c.fetches.Add(1)
	go c.fetch(o, idx, newRun(run, false), "")
	run[0].users++
	return run[0]
}

// seed keeps data, read with the answer that told o's version, as block
// 0 of o (and on disk with the disk cache), unless the cache has it.
func (c *blockCache) seed(o *object, data []byte) {
	c.mu.Lock()
	disk := c.disk
	if _, ok := c.m[o.bk(0)]; ok {
		c.mu.Unlock()
		return
	}
	b := &block{done: make(chan struct{})}
	c.m[o.bk(0)] = b
	c.mu.Unlock()
	if disk != "" {
		c.toDisk(disk, o, 0, [][]byte{data})
	}
	c.deliver(o, 0, b, data, nil)
}

// readAhead starts requests for the aligned runs of runBlocks blocks
// after the one holding block idx, up to inFlight runs ahead, each when
// none of its blocks is kept or being read; an object has at most
// inFlight such requests at once. Whole aligned runs keep every request
// as big as the first, however the reader's position moves.
func (c *blockCache) readAhead(o *object, idx int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ak := o.ak()
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
		bs := make([]*block, 0, end-start+1)
		for i := start; i <= end; i++ {
			b := &block{done: make(chan struct{})}
			c.m[o.bk(i)] = b
			bs = append(bs, b)
		}
		c.ahead[ak]++
		r := newRun(bs, true)
		if c.aheadRuns[ak] == nil {
			c.aheadRuns[ak] = map[*run]bool{}
		}
		c.aheadRuns[ak][r] = true
		c.fetches.Add(1)
		go c.fetch(o, start, r, ak)
	}
}

// want tells that reader who is at block idx: the requests reading
// ahead of it may read up to aheadBlocks past it.
func (c *blockCache) want(o *object, who any, idx int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ps := c.pos[o.ak()]
	if ps == nil {
		ps = map[any]int64{}
		c.pos[o.ak()] = ps
	}
	if p, ok := ps[who]; ok && p == idx {
		return
	}
	ps[who] = idx
	close(c.moved)
	c.moved = make(chan struct{})
}

// forget drops reader who (a file closed, a read done), waking the
// requests that read ahead for it; with the object's last reader gone,
// they end (a request in the middle of a block from a slow server would
// otherwise run on until its idle timer or rate ends it).
func (c *blockCache) forget(o *object, who any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ps := c.pos[o.ak()]; ps != nil {
		delete(ps, who)
		if len(ps) == 0 {
			delete(c.pos, o.ak())
			for r := range c.aheadRuns[o.ak()] {
				r.cancel()
			}
		}
		close(c.moved)
		c.moved = make(chan struct{})
	}
}

// allowed tells whether a request reading blocks idx..end may read block
// idx now: it is within aheadBlocks of a reader at or before it, or a
// reader waits further on in the run (another file's read whose blocks
// this request is reading: it must not wait for the first reader). A
// read-ahead request with no reader before its end any more is given up
// (abandon: the reader closed its file, having read a head only, or went
// past); another request (a read waiting for its blocks, a prefetch)
// reads on. Called with c.mu held.
func (c *blockCache) allowed(o *object, idx, end int64, readAhead bool) (ok, abandon bool) {
	behind := false
	for _, p := range c.pos[o.ak()] {
		if p > idx && p <= end {
			return true, false
		}
		if p <= idx {
			behind = true
			if idx-p <= aheadBlocks {
				return true, false
			}
		}
	}
	if behind {
		return false, false
	}
	return !readAhead, readAhead
}

// waitFor waits until block idx of a request reading up to block end is
// allowed; false when it is given up or no reader came near within
// Timeout.
func (c *blockCache) waitFor(o *object, idx, end int64, readAhead bool) bool {
	var timer *time.Timer
	for {
		c.mu.Lock()
		ok, abandon := c.allowed(o, idx, end, readAhead)
		moved := c.moved
		c.mu.Unlock()
		if ok || abandon {
			if timer != nil {
				timer.Stop()
			}
			return ok
		}
		if timer == nil {
			timer = time.NewTimer(Timeout)
		}
		select {
		case <-moved:
		case <-timer.C:
			// A reader may have come as the timer fired.
			c.mu.Lock()
			ok, _ := c.allowed(o, idx, end, readAhead)
			c.mu.Unlock()
			return ok
		}
	}
}

// deliver hands out block idx (or its error) to whoever waits on b, and
// keeps it in the LRU.
func (c *blockCache) deliver(o *object, idx int64, b *block, data []byte, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := o.bk(idx)
	if err != nil {
		b.err = err
		if c.m[k] == b {
			delete(c.m, k) // the next read asks again
		}
	} else {
		b.data = data
		b.elem = c.lru.PushFront(k)
		c.bytes += int64(len(data))
	}
	close(b.done)
	for c.bytes > CacheBytes && c.lru.Len() > 0 {
		e := c.lru.Back()
		ek := e.Value.(bkey)
		c.lru.Remove(e)
		if eb, ok := c.m[ek]; ok && eb.elem == e {
			c.bytes -= int64(len(eb.data))
			delete(c.m, ek)
			eb.evicted = true
			eb.recycle()
		}
	}
}

// fetch reads the blocks of run, the first being block first, from the
// disk cache or with one range request whose body is handed out block by
// block as it arrives (a connection dropped mid-body is asked again from
// the block it stopped at, Attempts times in all).
func (c *blockCache) fetch(o *object, first int64, r *run, ahead string) {
	defer c.fetches.Done()
	defer r.cancel()
	defer func() {
		if ahead == "" {
			return
		}
		c.mu.Lock()
		if c.ahead[ahead]--; c.ahead[ahead] <= 0 {
			delete(c.ahead, ahead)
		}
		if delete(c.aheadRuns[ahead], r); len(c.aheadRuns[ahead]) == 0 {
			delete(c.aheadRuns, ahead)
		}
		c.mu.Unlock()
	}()
	run := r.blocks
	c.mu.Lock()
	disk := c.disk
	c.mu.Unlock()
	if disk != "" {
		if datas := c.fromDisk(disk, o, first, len(run)); datas != nil {
			for i, d := range datas {
				c.deliver(o, first+int64(i), run[i], d, nil)
			}
			return
		}
	}
	i := 0
	var last error
	for attempt := 0; i < len(run) && attempt < Attempts; attempt++ {
		off := (first + int64(i)) * blockSize
		end := min((first+int64(len(run)))*blockSize, o.size)
		c.mu.Lock()
		c.requests++
		c.mu.Unlock()
		body, err := o.s.stream(r.ctx, o.key, off, end-off, o.meta)
		if err != nil {
			last = err // the store retried what may pass
			break
		}
		for ; i < len(run); i++ {
			idx := first + int64(i)
			pb, _ := body.(interface{ pause() })
			if pb != nil {
				pb.pause()
			}
			ok := c.waitFor(o, idx, first+int64(len(run))-1, ahead != "")
			if rb, _ := body.(interface{ resume() }); rb != nil {
				rb.resume()
			}
			if !ok {
				body.Close()
				for ; i < len(run); i++ {
					c.deliver(o, first+int64(i), run[i], nil, errAbandoned)
				}
				return
			}
			buf := newBuf(min((idx+1)*blockSize, o.size) - idx*blockSize)
			_, err := io.ReadFull(body, buf)
			if err == nil && i == len(run)-1 {
				// The last block is handed out once the answer is known
				// to end where it should.
				if f, ok := body.(interface{ finish() error }); ok {
					err = f.finish()
				}
			}
			if err != nil {
				what := netWhat(err)
				if again(err) && !errors.As(err, new(*shortError)) {
					what = fmt.Sprintf("the connection dropped mid-read (tried %d times)", Attempts)
				}
				last = pathErr("read", o.url, what, err)
				break
			}
			if disk != "" {
				c.toDisk(disk, o, idx, [][]byte{buf})
			}
			c.deliver(o, idx, run[i], buf, nil)
		}
		body.Close()
		if last != nil && !again(last) {
			break // a stalled or slow server gets no second wait, nor a wrong answer
		}
	}
	if r.ctx.Err() != nil {
		last = errAbandoned // ended for want of a reader: whoever comes asks again
	}
	if errors.Is(last, ErrChanged) {
		objects.forget(o.url)
	}
	for ; i < len(run); i++ {
		c.deliver(o, first+int64(i), run[i], nil, last)
	}
}
