package inspect

import (
	"context"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"evalview/loaders/internal/zipsafe"
	"evalview/model"
)

// check reads every sample member for what only reading it finds (a
// member that is not a whole sample, a zip entry that fails, a field
// over its cap), without building the records: loading each record built
// its transcript from every kept event, which made `check` of a 1 GB log
// parse gigabytes of JSON it then dropped. The list's own issues (missing
// members, errors, limits, reductions) come from the index (IndexIssues).

// readEpoch reads sample id's epoch member, as the record's detail does,
// or (light) only walks it; d is nil when it could not be opened. The
// issues are those the member gives.
func (x *index) readEpoch(id string, epoch int, light bool) (d *sampleDetail, where string, issues []model.Issue) {
	if x.ld.sample == nil || (x.ld.has != nil && !x.ld.has(id, epoch)) {
		return nil, "", nil
	}
	rc, where, err := x.ld.sample(id, epoch)
	if err != nil {
		return nil, where, []model.Issue{sampleIssue(where, id, epoch, err, false)}
	}
	if light {
		d, err = checkSample(rc)
	} else {
		d, err = readSample(rc, func() (io.ReadCloser, error) {
			rc, _, err := x.ld.sample(id, epoch)
			return rc, err
		})
	}
	rc.Close()
	if err != nil {
		issues = append(issues, sampleIssue(where, id, epoch, err, true))
	}
	for _, f := range d.truncated {
		issues = append(issues, model.Warnf("field-too-long", where, 0, id, "epoch %d: %q is longer than %s and is not shown", epoch, f, zipsafe.SizeOf(int64(fieldCap))))
	}
	return d, where, issues
}

// IndexIssues returns record i's issues known from the summaries; Deep
// adds those its members give.
func (x *index) IndexIssues(i int) []model.Issue {
	x.rmu.RLock()
	defer x.rmu.RUnlock()
	return x.rows[i].issues
}

// deep walks every record's members, a few at a time, and reports their
// issues in record order.
func (x *index) deep(ctx context.Context, progress func(done, total int)) (*model.DeepReport, error) {
	n := x.Len()
	found := make([][]model.Issue, n)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 4) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				x.rmu.RLock()
				g := x.rows[i].g
				x.rmu.RUnlock()
				for _, e := range g.epochs {
					_, _, is := x.readEpoch(g.id, e.epoch, true)
					found[i] = append(found[i], is...)
				}
				if progress != nil {
					progress(int(done.Add(1)), n)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep := &model.DeepReport{}
	for i, is := range found {
		if len(is) > 0 {
			rep.Issues = append(rep.Issues, is...)
			rep.Flagged = append(rep.Flagged, i)
		}
	}
	return rep, nil
}
