package inspect

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"

	"evalview/loaders/internal/jsonscan"
	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// An Inspect .json log is the whole EvalLog in one object, its samples
// inline after the header (version, status, eval, plan, results, stats,
// then samples and reductions), listed by a background scan (scan.go).
// Each sample is walked once to build its summary, as EvalSample.summary()
// would (skipping its messages, events and attachments), and its byte
// range is kept, so that opening a record rereads only that range.

// span is one sample's byte range in the file.
type span struct{ start, end int64 }

func spanKey(id string, epoch int) string { return fmt.Sprintf("%s\x00%d", id, epoch) }

// openJSONLog reads an Inspect .json log. With background set it returns
// once the header is read and the first rows are listed (or after
// firstRowsWait), the scan going on.
func openJSONLog(path string, background bool) (*model.Dataset, error) {
	return jsonLogFrom(path, func() (io.ReaderAt, io.Closer, error) {
		f, err := jsonl.OpenRegular(path)
		if err != nil {
			return nil, nil, err
		}
		return f, f, nil
	}, background)
}

// jsonLogFrom is openJSONLog over what open gives (a file, or for the
// fuzz targets bytes in memory): the scan reads it once, each record its
// sample's range.
func jsonLogFrom(path string, open func() (io.ReaderAt, io.Closer, error), background bool) (*model.Dataset, error) {
	ra, c, err := open()
	if err != nil {
		return nil, err
	}
	ld := &logData{path: path, format: "json"}
	x := &index{ld: ld, cache: map[int]*model.Record{}, scan: newScan()}
	sp := &spans{m: map[string]span{}}
	ld.has = func(id string, epoch int) bool {
		_, ok := sp.get(id, epoch)
		return ok
	}
	ld.sample = func(id string, epoch int) (io.ReadCloser, string, error) {
		sp, ok := sp.get(id, epoch)
		if !ok {
			return nil, path, os.ErrNotExist
		}
		ra, c, err := open()
		if err != nil {
			return nil, path, err
		}
		return struct {
			io.Reader
			io.Closer
		}{io.NewSectionReader(ra, sp.start, sp.end-sp.start), c}, path, nil
	}
	go x.scanJSON(io.NewSectionReader(ra, 0, math.MaxInt64), c, sp)
	return x.dataset(background)
}

// spans are the samples' byte ranges, by id and epoch, which the scan
// adds to while records are read.
type spans struct {
	mu sync.RWMutex
	m  map[string]span
}

func (s *spans) get(id string, epoch int) (span, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sp, ok := s.m[spanKey(id, epoch)]
	return sp, ok
}

func (s *spans) set(id string, epoch int, sp span) {
	s.mu.Lock()
	s.m[spanKey(id, epoch)] = sp
	s.mu.Unlock()
}

// scanJSON reads the log, listing records as their epochs complete.
func (x *index) scanJSON(r io.Reader, c io.Closer, sp *spans) {
	s, ld := x.scan, x.ld
	defer c.Close()
	headDone := false
	headerErr := error(nil)
	b := newLister(x)
	header := map[string]json.RawMessage{}
	startHeader := func() {
		if headDone {
			return
		}
		headDone = true
		headerErr = parseHeader(ld, header)
		if r := ld.header.Results; r != nil && (len(r.Scores) > 0 || r.Scorer != nil) {
			b.stream = true
			x.views = viewsOf(ld)
		}
		s.ds = newDataset(ld, x.views)
		close(s.head)
	}
	sc := jsonscan.New(r)
	defer sc.Release()
	err := sc.Object(func(key string) error {
		if s.stop.Load() {
			return errStopped
		}
		switch key {
		case "samples":
			startHeader()
			return sc.Array(func(i int) error {
				if s.stop.Load() {
					return errStopped
				}
				if _, ok := sc.Peek(); !ok {
					return io.ErrUnexpectedEOF
				}
				start := sc.Offset()
				raw, err := summaryFromSample(sc)
				if err != nil {
					return err
				}
				sm, err := parseSummary(raw)
				if err != nil {
					ld.issues = append(ld.issues, model.Errorf("bad-json", ld.path, 0, "", "sample %d is not of the expected shape: %s; not listed", i+1, jsonErrText(err)))
					return nil
				}
				sp.set(memberID(sm.ID), sm.Epoch, span{start, sc.Offset()})
				b.addParsed(raw, sm)
				if afterSample != nil {
					afterSample()
				}
				return nil
			})
		case "reductions":
			raw, cut, err := sc.Capture(int(maxJSONMember))
			if err != nil || cut {
				return err
			}
			if err := nonfinite.Unmarshal(raw, &ld.reductions); err != nil {
				ld.issues = append(ld.issues, model.Errorf("bad-json", ld.path, 0, "", "reductions: not of the expected shape: %s", jsonErrText(err)))
			}
			return nil
		}
		raw, cut, err := sc.Capture(64 << 20)
		if err == nil && !cut {
			header[key] = raw
		}
		return err
	})
	var se *jsonscan.SyntaxError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		ld.issues = append(ld.issues, model.Errorf("bad-json", ld.path, 0, "", "the log is not whole JSON: it ends inside the samples (truncated?); the samples before it are shown"))
	case errors.Is(err, errStopped):
		if !headDone {
			startHeader()
		}
		x.end()
		return
	case errors.As(err, &se):
		ld.issues = append(ld.issues, model.Errorf("bad-json", ld.path, 0, "", "the log is not whole JSON: %v; the samples before it are shown", err))
	case err != nil:
		s.err = err
		ld.issues = append(ld.issues, model.Errorf("read-error", ld.path, 0, "", "reading stopped: %v; the samples before are shown", err))
	}
	// The keys after the samples belong to the header too; once rows
	// are listed (and read by the browser), the header they were built
	// with stays.
	switch {
	case !headDone:
		startHeader()
	case !b.stream:
		headerErr = parseHeader(ld, header)
	}
	if headerErr != nil {
		ld.issues = append(ld.issues, model.Errorf("bad-json", ld.path, 0, "", "the log's header is not of the expected shape: %s", jsonErrText(headerErr)))
	}
	b.finish()
	x.end()
}

// parseHeader decodes the header keys read so far into ld.header.
func parseHeader(ld *logData, header map[string]json.RawMessage) error {
	hb, _ := json.Marshal(header)
	ld.header = logHeader{}
	ld.hasHeader = true
	return nonfinite.Unmarshal(hb, &ld.header)
}
