package inspect

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"evalview/loaders/internal/jsonscan"
	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/internal/zipsafe"
	"evalview/model"
)

// logData is what a log holds for the view, whichever file format it
// came from.
type logData struct {
	path string
	// header is header.json (or the JSON log's top level); running is set
	// when only _journal/start.json was there.
	header    logHeader
	hasHeader bool
	running   bool
	// count is the number of summaries, deduplicated by (id, epoch);
	// summaries holds them (the last of each winning) only where the
	// scorers must be learnt from them (a running log, a .json log whose
	// results come last).
	count      int
	summaries  []sampleSummary
	reductions []reduction
	issues     []model.Issue
	// sample returns a stream of one sample's JSON and how issues name it;
	// has reports whether the log holds that sample at all.
	sample func(id string, epoch int) (io.ReadCloser, string, error)
	has    func(id string, epoch int) bool
	// orphans are sample members no summary lists.
	orphans []string
	format  string
}

// openEval reads an .eval zip's header (or journal start) and lists its
// samples from their summaries in a background scan (scan.go), which the
// commands wait for. Samples are read later, one member at a time.
func openEval(path string, background bool) (*model.Dataset, error) {
	zr, release, err := zipsafe.Acquire(path)
	if err != nil {
		return nil, fmt.Errorf("not a readable zip archive: %w", err)
	}
	return evalFromZip(path, zr, release, func(a *archive, name string) (io.ReadCloser, error) {
		return openMember(path, a, name)
	}, background)
}

// evalFromZip reads the log in zr, named path; the scan calls release
// when it is done with zr; member opens a sample member later (the fuzz
// targets read a zip held in memory).
func evalFromZip(path string, zr *zip.Reader, release func(), member func(a *archive, name string) (io.ReadCloser, error), background bool) (*model.Dataset, error) {
	a := listArchive(path, zr)
	ld := &logData{path: path, issues: a.issues, format: ".eval (zip)"}

	switch {
	case a.has(headerJSON):
		if is, ok := a.readJSON(zr, headerJSON, maxHeaderMember, &ld.header); !ok {
			ld.issues = append(ld.issues, is)
		} else {
			ld.hasHeader = true
		}
	case a.has(startJSON):
		if is, ok := a.readJSON(zr, startJSON, maxHeaderMember, &ld.header); !ok {
			ld.issues = append(ld.issues, is)
		}
		ld.running = true
	default:
		ld.issues = append(ld.issues, model.Errorf("missing-header", path, 0, "",
			"neither header.json nor _journal/start.json is in the zip: not an Inspect log, or a damaged one"))
	}
	ld.has = func(id string, epoch int) bool { return a.has(sampleName(id, epoch)) }
	ld.sample = func(id string, epoch int) (io.ReadCloser, string, error) {
		name := sampleName(id, epoch)
		rc, err := member(a, name)
		return rc, a.at(name), err
	}
	x := &index{ld: ld, cache: map[int]*model.Record{}, scan: newScan()}
	stream := false
	if r := ld.header.Results; r != nil && (len(r.Scores) > 0 || r.Scorer != nil) {
		stream = true
		x.views = viewsOf(ld)
	}
	x.scan.ds = newDataset(ld, x.views)
	close(x.scan.head)
	go x.scanEval(zr, a, release, stream)
	return x.dataset(background)
}

// scanEval lists the samples from summaries.json once the log is
// finished, else from the journal's numbered files
// (_read_all_summaries_async), then reads reductions.json and finds the
// members no summary lists.
func (x *index) scanEval(zr *zip.Reader, a *archive, release func(), stream bool) {
	defer release()
	ld := x.ld
	b := newLister(x)
	b.stream = stream
	names := a.journalSummaries()
	if a.has(summariesJSON) {
		names = []string{summariesJSON}
	}
	for _, name := range names {
		err := a.streamSummaries(zr, name, func(raw []byte) error {
			if x.scan.stop.Load() {
				return errStopped
			}
			if err := b.add(raw); err != nil {
				return err
			}
			if afterSample != nil {
				afterSample()
			}
			return nil
		}, &ld.issues)
		if errors.Is(err, errStopped) {
			x.end()
			return
		}
	}
	if a.has(reductionsJSON) {
		if is, ok := a.readJSON(zr, reductionsJSON, maxReductionsMember, &ld.reductions); !ok {
			ld.issues = append(ld.issues, is)
		}
	}
	listed := b.members()
	for _, name := range a.sampleMembers() {
		if !listed[name] {
			ld.orphans = append(ld.orphans, name)
		}
	}
	b.finish()
	x.end()
}

// streamSummaries reads a summaries member (a JSON array of
// EvalSampleSummary) as a stream, calling fn with each summary's JSON,
// NaN and Infinity sanitized. A summary fn refuses (of the wrong shape)
// is an issue and is skipped; damaged JSON or zip data ends the member
// with an issue, the summaries before it listed.
func (a *archive) streamSummaries(zr *zip.Reader, name string, fn func(raw []byte) error, issues *[]model.Issue) error {
	where := a.at(name)
	const tail = "the summaries before the damage are listed"
	rc, err := a.openJSON(zr, name)
	if err != nil {
		*issues = append(*issues, readIssue(where, err, maxJSONMember, ""))
		return err
	}
	defer rc.Close()
	sc := jsonscan.New(rc)
	defer sc.Release()
	err = sc.Array(func(i int) error {
		raw, cut, err := sc.Capture(maxSummary)
		if err != nil {
			return err
		}
		if cut {
			*issues = append(*issues, model.Errorf("bad-json", where, 0, "", "summary %d is longer than %s; not listed", i+1, zipsafe.SizeOf(maxSummary)))
			return nil
		}
		// Kept for the list: its exact size, not what the capture grew to.
		err = fn(bytes.Clone(nonfinite.Sanitize(raw)))
		if err != nil && !errors.Is(err, errStopped) {
			*issues = append(*issues, model.Errorf("bad-json", where, 0, "", "summary %d is not of the expected shape: %s; not listed", i+1, jsonErrText(err)))
			return nil
		}
		return err
	})
	switch {
	case err == nil, errors.Is(err, errStopped):
	case isZipErr(err):
		*issues = append(*issues, readIssue(where, err, maxJSONMember, tail))
	default:
		*issues = append(*issues, model.Errorf("bad-json", where, 0, "", "not valid JSON of the expected shape: %s; %s", jsonErrText(err), tail))
	}
	return err
}

// openMember opens a member of the zip at path for streaming, from the
// archive zipsafe keeps open (opening the zip for each record read its
// whole central directory every time: check of n samples took time in
// n²); closing the stream releases it. A log rewritten since it was
// listed (a run still writing replaces the file at each flush) is
// reopened by zipsafe and the member looked up again by name.
func openMember(path string, a *archive, name string) (io.ReadCloser, error) {
	zr, release, err := zipsafe.Acquire(path)
	if err != nil {
		return nil, err
	}
	rc, err := a.open(zr, name)
	if err != nil {
		release()
		return nil, err
	}
	return &memberReader{Reader: rc, rc: rc, release: release}, nil
}

// open opens member name of zr, the archive a was listed from or the same
// file rewritten since (then the name is looked up again, the last entry
// winning).
func (a *archive) open(zr *zip.Reader, name string) (io.ReadCloser, error) {
	var zf *zip.File
	if i, ok := a.index[name]; ok && i < len(zr.File) && zr.File[i].Name == name {
		zf = zr.File[i]
	} else {
		for _, f := range zr.File {
			if f.Name == name {
				zf = f
			}
		}
	}
	if zf == nil {
		return nil, os.ErrNotExist
	}
	return zipsafe.OpenLimited(zf, maxSampleMember)
}

type memberReader struct {
	io.Reader
	rc      io.Closer
	release func()
}

func (m *memberReader) Close() error {
	err := m.rc.Close()
	m.release()
	return err
}
