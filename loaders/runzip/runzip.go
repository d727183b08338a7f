// Package runzip loads eval run zips and run folders (manifest.json,
// generation_summary.json, samples/*.json, scores/*.json) into the view
// model, and checks them exactly as the upload importer
// (/admin-api/evals/upload-run) does, so that `check` tells before an
// upload whether it would be accepted. Zips are read in place: nothing is
// extracted or written.
//
// # Mapping
//
// One dataset per run (Kind run, MainMetric "weighted_score"). One record
// per sample file, sorted by sample_index; ID is the sample_index (the
// in-run file path when the index is missing or repeats). A score file
// whose sample is missing (a run without samples/, like the spec's own
// reference run) is a record of its own, built from the score alone: its
// attempts carry the scores and judge notes, no text, and a "response"
// fact saying why (see scoreonly.go). A sample's
// attempts are joined with its score file's attempt_evals by attempt
// number. Summary.Score is the site's averageWeightedScore (see
// AverageWeightedScore) and Summary.Status is the sample's own outcome:
//
//   - error: the sample's status is "error", or every attempt errored;
//   - unscored: no attempt has a weighted_score;
//   - pass: the average is at or above the run's pass threshold;
//   - fail: below it.
//
// The pass threshold is DefaultThreshold (the site's default passThreshold)
// unless the run carries a scores_map.json with its own pass_threshold; the
// "pass threshold" fact says which, and Dataset.Scoring holds it.
// Attempts get pass/fail the same way from their own weighted_score.
// Labels: "category" (source_category), "sample_status" (the sample's own
// status text, named apart from the pass/fail "status" every dataset has,
// so the list, the column chooser and queries all say sample_status) and
// "errored" ("yes" when any attempt has status "error").
//
// # Issue codes
//
// Zip and layout (dataset issues):
//   - zip-too-large (warning): the zip is over the 64 MB upload limit.
//   - unsafe-path: an entry name holds "..", a backslash or an absolute
//     path; it is never read.
//   - duplicate-path: two entries give one path once the outer folder is
//     stripped; the first is read.
//   - symlink-entry, special-entry: an entry is a symbolic link or another
//     non-regular file (device, FIFO); it is never read or followed.
//   - not-a-file: in a run folder, a run file is a folder, FIFO or device;
//     it is not read (opening a FIFO would block).
//   - multiple-runs: the zip holds more than one run (each still opens).
//   - nested-run: the run is deeper than one outer folder.
//   - encrypted-entry, entry-too-large (over 256 MB decompressed),
//     bad-zip-entry (corrupt data), read-failed (folder files),
//     run-too-large (over 1 GB decompressed in total; reading stops at the
//     limit, mid-entry if need be): a file not read.
//   - bad-zip: a zip inside an opened folder of runs cannot be read (a
//     zip opened directly is an open error instead).
//   - missing-manifest, missing-generation-summary, no-samples: a required
//     piece is absent (no-samples names the score files it leaves without
//     a sample, listed in Issue.Items). no-scores (warning): no
//     scores/*.json.
//
// Files:
//   - bad-json: not valid JSON, or not an object (line of the error).
//   - utf8-bom: the file starts with a byte order mark.
//   - duplicate-key (warning): a key given twice in one object (the
//     last value wins, as in the importer's JSON parser).
//   - number-out-of-range (warning): a number beyond float64 (1e400).
//   - missing-field: a required field is absent or null.
//   - empty-field: a required text field is "".
//   - number-as-string: a number field holds a string ("5").
//   - not-integer: an index or count has a fraction.
//   - wrong-type: any other wrong type (warning for optional scalars).
//   - bad-scores-map (warning): scores_map.json, which the importer does
//     not read, cannot give a pass_threshold. Its figures are compared
//     with the score files' through ScoresMapOf (see scoresmap.go),
//     for summary, not as issues.
//
// Consistency (errors):
//   - run-id-mismatch: generation_summary.json or a sample disagrees with
//     manifest.json's run_id.
//   - status-mismatch: generation_summary.json's status differs from the
//     manifest's.
//   - duplicate-sample-index, duplicate-attempt (in a sample or in a score
//     file), orphan-score (score files whose sample_index no sample has:
//     one issue for all of them, listed in Issue.Items),
//     unknown-attempt (a scored attempt the sample lacks), score-mismatch
//     (rendering_name, prompt or source_category differ from the sample's).
//   - duplicate-score-file (warning): a second score file for one sample;
//     the first by name is used.
//
// Recommendations (warnings): repeat-count-mismatch (repeat_count_done
// is not the number of attempts), language-mismatch, task-type-mismatch
// (a sample disagrees with the manifest), english-language-code (an
// English run not written "en").
package runzip

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
	"evalview/model/runstats"
)

// DefaultThreshold is the site's default passThreshold: the minimum
// average weighted score of a "high score" sample.
const DefaultThreshold = runstats.DefaultThreshold

var zipMagic = []byte("PK\x03\x04")

// SniffFile scores a file: 2 for a zip holding manifest.json (among the
// names the first bytes show) and for manifest.json or
// generation_summary.json with a run_id; 1 for any other zip.
func SniffFile(name string, head []byte) int {
	if bytes.HasPrefix(head, zipMagic) || bytes.HasPrefix(head, []byte("PK\x05\x06")) {
		for _, n := range localNames(head) {
			if n == "manifest.json" || strings.HasSuffix(n, "/manifest.json") {
				return 2
			}
		}
		return 1
	}
	switch name {
	case "manifest.json", "generation_summary.json":
		if hasRunID(head) {
			return 2
		}
	}
	return 0
}

// localNames returns the entry names of the local file headers in head.
func localNames(head []byte) []string {
	var out []string
	for i := 0; ; {
		j := bytes.Index(head[i:], zipMagic)
		if j < 0 {
			return out
		}
		i += j
		if i+30 > len(head) {
			return out
		}
		n := int(head[i+26]) | int(head[i+27])<<8
		if i+30+n > len(head) {
			return out
		}
		out = append(out, string(head[i+30:i+30+n]))
		i += 4
	}
}

// hasRunID reports whether head starts a JSON object with a run_id.
func hasRunID(head []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, utf8BOM), " \t\r\n")
	return len(t) > 0 && t[0] == '{' && bytes.Contains(head, []byte(`"run_id"`))
}

func fileHasRunID(p string) bool {
	head, err := folder.ReadHead(p) // a FIFO in the folder must not block
	return err == nil && hasRunID(head)
}

// IsRunFolder reports whether a folder is a run folder on its own
// evidence: a manifest.json or generation_summary.json holding a run_id
// among names, its entries (folders ending in "/"). A search of a tree
// opens such a folder as one run: its samples/ and scores/ are its own.
func IsRunFolder(dir string, names []string) bool {
	for _, n := range names {
		if (n == "manifest.json" || n == "generation_summary.json") && fileHasRunID(source.Join(dir, n)) {
			return true
		}
	}
	return false
}

// Broken is the dataset of a run zip that cannot be read: empty, its
// error its issue, so that the runs beside it still open.
func Broken(path string, err error) *model.Dataset { return brokenZip(path, err) }

// SniffDir scores a folder: 2 when it holds a manifest.json or
// generation_summary.json with a run_id; 1 when its subfolders are run
// folders or it holds run zips (Open then opens every run inside).
func SniffDir(dir string, names []string) int {
	if IsRunFolder(dir, names) {
		return 2
	}
	for _, n := range names {
		switch {
		case strings.HasSuffix(n, "/") && n != "__MACOSX/":
			sub := source.Join(dir, strings.TrimSuffix(n, "/"))
			if fileHasRunID(source.Join(sub, "manifest.json")) || fileHasRunID(source.Join(sub, "generation_summary.json")) {
				return 1
			}
		case strings.HasSuffix(strings.ToLower(n), ".zip"):
			if isZipFile(source.Join(dir, n)) {
				return 1
			}
		}
	}
	return 0
}

func isZipFile(p string) bool {
	head, err := folder.ReadHead(p) // a FIFO in the folder must not block
	return err == nil && SniffFile(filepath.Base(p), head) == 2
}

// Open opens a run zip, a run folder, a folder of runs (subfolders and
// zips), or the run folder of a manifest.json or generation_summary.json.
// Runs open with whatever they hold; what is missing or wrong becomes
// issues. A file that is not a readable zip is an error.
func Open(path string) ([]*model.Dataset, error) {
	st, err := source.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		if isRunDir(path) {
			return []*model.Dataset{loadRun(listDir(path))}, nil
		}
		return openParent(path)
	}
	switch filepath.Base(path) {
	case "manifest.json", "generation_summary.json", "scores_map.json":
		return []*model.Dataset{loadRun(listDir(source.Dir(path)))}, nil
	}
	return openZip(path, st.Size())
}

// openZip opens every run of a zip.
func openZip(path string, size int64) ([]*model.Dataset, error) {
	zc, err := source.OpenZip(path)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fmt.Errorf("not a readable zip archive: %w", err)
	}
	defer zc.Close()
	var out []*model.Dataset
	for _, rf := range listZip(path, zc.Reader, size) {
		rf.zr = zc.Reader
		ds := loadRun(rf)
		rf.zr = nil // records are reread later, from a fresh reader
		out = append(out, ds)
	}
	return out, nil
}

// isRunDir reports whether dir is a run folder (even a broken one).
func isRunDir(dir string) bool {
	for _, n := range []string{"manifest.json", "generation_summary.json", "samples"} {
		if _, err := source.Stat(source.Join(dir, n)); err == nil {
			return true
		}
	}
	return false
}

// openParent opens the runs inside a folder: run subfolders and zips. A
// zip that cannot be read becomes an empty dataset with the error as its
// issue, so the other runs still open.
func openParent(dir string) ([]*model.Dataset, error) {
	ents, err := source.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	var out []*model.Dataset
	var errs []error
	for _, e := range ents {
		p := source.Join(dir, e.Name())
		switch {
		case e.IsDir() && e.Name() != "__MACOSX" && isRunDir(p):
			out = append(out, loadRun(listDir(p)))
		case !e.IsDir() && strings.HasSuffix(strings.ToLower(e.Name()), ".zip"):
			st, err := source.Stat(p)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if !st.Mode().IsRegular() {
				errs = append(errs, fmt.Errorf("%s: %w", p, jsonl.ErrNotRegular))
				continue
			}
			ds, err := openZip(p, st.Size())
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", p, err))
				out = append(out, brokenZip(p, err))
				continue
			}
			out = append(out, ds...)
		}
	}
	if len(out) == 0 {
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
		return nil, errors.New("no run folders or run zips found in this folder")
	}
	return out, nil
}

// brokenZip is the placeholder dataset of an unreadable zip in a folder.
func brokenZip(path string, err error) *model.Dataset {
	ds := &model.Dataset{
		Kind: model.KindRun, Path: path, Title: filepath.Base(path), Task: filepath.Base(path),
		MainMetric: "weighted_score",
		Issues:     []model.Issue{model.Errorf("bad-zip", path, 0, "", "%v", err)},
		Records:    model.NewMemIndex(nil),
		Scoring:    Scoring(DefaultThreshold, nil, map[string]string{}),
	}
	Present(ds)
	return ds
}
