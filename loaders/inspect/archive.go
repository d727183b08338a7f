package inspect

import (
	"archive/zip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/internal/zipsafe"
	"evalview/model"
)

// Limits, variables so tests can lower them.
var (
	// maxJSONMember caps what summaries.json and a journal's summaries may
	// decompress to (they are read as a stream, a summary at a time), and
	// a sample member read whole for the pager.
	maxJSONMember int64 = 512 << 20
	// maxHeaderMember caps header.json and _journal/start.json, which are
	// read whole and decoded: a log's header (its spec, plan, results and
	// stats; the samples are members of their own) takes a few KB. A
	// header declaring 500 MB, within the ratio, took 1.4 GB to read.
	maxHeaderMember int64 = 32 << 20
	// maxReductionsMember caps reductions.json, read whole and decoded:
	// a reduced score per sample and scorer, a few hundred bytes each.
	maxReductionsMember int64 = 128 << 20
	// maxSampleMember caps what one sample member may decompress to. It is
	// read as a stream and only a bounded part is kept, so the cap only
	// stops a zip bomb from spinning the decompressor for minutes.
	maxSampleMember int64 = 4 << 30
)

// Member names, from inspect_ai/log/_recorders/eval.py.
const (
	headerJSON     = "header.json"
	summariesJSON  = "summaries.json"
	reductionsJSON = "reductions.json"
	startJSON      = "_journal/start.json"
	journalSummary = "_journal/summaries/"
	samplesDir     = "samples/"
)

// archive is the member list of an .eval zip as Inspect reads it: a name
// written twice (a requeued sample, a re-logged summary) resolves to its
// last entry, as zipfile's name lookup does.
type archive struct {
	path string
	// index maps a member name to its entry in zip.Reader.File.
	index map[string]int
	// names are the member names in first-written order, each once.
	names  []string
	issues []model.Issue
}

func (a *archive) at(name string) string { return a.path + "!" + name }

// listArchive applies the zip rules shared with run zips (unsafe names and
// special entries are reported and never read) and indexes the members.
func listArchive(zipPath string, zr *zip.Reader) *archive {
	a := &archive{path: zipPath, index: map[string]int{}}
	dups := map[string]int{}
	for i, zf := range zr.File {
		name := zf.Name
		if strings.HasSuffix(name, "/") || zipsafe.IgnoredName(name) {
			continue
		}
		if m := zf.Mode(); m&fs.ModeType != 0 {
			code, what := "special-entry", "is "+zipsafe.ModeName(m)+", not a regular file"
			if m&fs.ModeSymlink != 0 {
				code, what = "symlink-entry", "is a symbolic link"
			}
			a.issues = append(a.issues, model.Errorf(code, a.at(name), 0, "", "member %q %s; evalview does not read or follow it", name, what))
			continue
		}
		if why := zipsafe.UnsafeName(name); why != "" {
			a.issues = append(a.issues, model.Errorf("unsafe-path", a.at(name), 0, "", "member name %q %s; evalview does not read it", name, why))
			continue
		}
		if _, seen := a.index[name]; seen {
			dups[name]++
		} else {
			a.names = append(a.names, name)
		}
		a.index[name] = i
	}
	dupNames := make([]string, 0, len(dups))
	for n := range dups {
		dupNames = append(dupNames, n)
	}
	sort.Strings(dupNames)
	for _, n := range dupNames {
		a.issues = append(a.issues, model.Warnf("duplicate-member", a.at(n), 0, "",
			"the member is written %d times (a re-logged sample or summary); the last one is read, as Inspect reads it", dups[n]+1))
	}
	return a
}

func (a *archive) has(name string) bool { _, ok := a.index[name]; return ok }

// maxSummary caps one sample's summary (Inspect thins their input and
// metadata to a few KB each).
const maxSummary = 64 << 20

// openJSON opens a JSON member for streaming, under the JSON members'
// caps.
func (a *archive) openJSON(zr *zip.Reader, name string) (io.ReadCloser, error) {
	i, ok := a.index[name]
	if !ok || i >= len(zr.File) {
		return nil, os.ErrNotExist
	}
	return zipsafe.OpenLimited(zr.File[i], maxJSONMember)
}

// readJSON reads a small member whole, at most limit bytes of it, and
// decodes it into v, NaN allowed. The issue it returns (ok false) names
// the member and what is wrong; a member whose header declares more than
// limit is not read at all.
func (a *archive) readJSON(zr *zip.Reader, name string, limit int64, v any) (model.Issue, bool) {
	i, ok := a.index[name]
	if !ok || i >= len(zr.File) {
		return model.Errorf("missing-member", a.at(name), 0, "", "the member is missing"), false
	}
	if n := zr.File[i].UncompressedSize64; n > uint64(limit) {
		if c := zr.File[i].CompressedSize64; n > zipsafe.RatioFloor && n/zipsafe.MaxRatio > c {
			return readIssue(a.at(name), zipsafe.ErrRatio, limit, ""), false
		}
		return model.Errorf("entry-too-large", a.at(name), 0, "", "the member declares %s uncompressed; evalview reads at most %s of it; not read",
			zipsafe.SizeOf(int64(min(n, 1<<62))), zipsafe.SizeOf(limit)), false
	}
	data, err := zipsafe.ReadLimited(zr.File[i], limit)
	if err != nil {
		return readIssue(a.at(name), err, limit, ""), false
	}
	if err := nonfinite.Unmarshal(data, v); err != nil {
		return model.Errorf("bad-json", a.at(name), lineOf(data, err), "", "not valid JSON of the expected shape: %s", jsonErrText(err)), false
	}
	return model.Issue{}, true
}

// journalSummaries lists _journal/summaries/N.json in N order, as
// _read_all_summaries_async reads them (1..count), skipping names that are
// not a number.
func (a *archive) journalSummaries() []string {
	type js struct {
		n    int
		name string
	}
	var out []js
	for _, name := range a.names {
		rest, ok := strings.CutPrefix(name, journalSummary)
		if !ok || !strings.HasSuffix(rest, ".json") {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimSuffix(rest, ".json")); err == nil {
			out = append(out, js{n, name})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].n < out[j].n })
	names := make([]string, len(out))
	for i, j := range out {
		names[i] = j.name
	}
	return names
}

// sampleMembers returns the names under samples/ ending in .json.
func (a *archive) sampleMembers() []string {
	var out []string
	for _, name := range a.names {
		if dir, base := path.Split(name); dir == samplesDir && strings.HasSuffix(base, ".json") {
			out = append(out, name)
		}
	}
	return out
}

// sampleName is _sample_filename: samples/{id}_epoch_{epoch}.json.
func sampleName(id string, epoch int) string {
	return samplesDir + id + "_epoch_" + strconv.Itoa(epoch) + ".json"
}

// readIssue turns a failed member read into an issue; tail ends its
// message (what became of the member: "not read", or for a stream that
// failed midway, that what was read is shown).
func readIssue(where string, err error, limit int64, tail string) model.Issue {
	if tail == "" {
		tail = "not read"
	}
	switch {
	case errors.Is(err, zipsafe.ErrEncrypted):
		return model.Errorf("encrypted-entry", where, 0, "", "the member is encrypted; %s", tail)
	case errors.Is(err, zipsafe.ErrRatio):
		return model.Errorf("zip-bomb", where, 0, "", "the member expands to more than %d times its compressed size (a zip bomb); %s", zipsafe.MaxRatio, tail)
	case errors.Is(err, zipsafe.ErrTooLarge):
		return model.Errorf("entry-too-large", where, 0, "", "the member decompresses to more than %s; %s", zipsafe.SizeOf(limit), tail)
	case errors.Is(err, zip.ErrFormat):
		return model.Errorf("bad-zip-entry", where, 0, "", "the member's data does not match its header (corrupt, or larger than the header says); %s", tail)
	case errors.Is(err, zip.ErrChecksum):
		return model.Errorf("bad-zip-entry", where, 0, "", "the member's data fails its checksum (corrupt); %s", tail)
	case errors.Is(err, zip.ErrAlgorithm):
		return model.Errorf("bad-zip-entry", where, 0, "", "the member uses a compression method evalview cannot read (stored, deflate and zstd are read)")
	}
	return model.Errorf("bad-zip-entry", where, 0, "", "cannot read the member: %s; %s", strings.TrimPrefix(err.Error(), "zip: "), tail)
}

// isZipErr reports a read error that comes from the archive (its data or
// its limits), not from the JSON inside.
func isZipErr(err error) bool {
	for _, e := range []error{zipsafe.ErrEncrypted, zipsafe.ErrRatio, zipsafe.ErrTooLarge, zip.ErrFormat, zip.ErrChecksum, zip.ErrAlgorithm} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// jsonErrText words a decoding error for a message.
func jsonErrText(err error) string {
	var se *jsonSyntaxError
	if errors.As(err, &se) {
		return se.Error()
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// lineOf returns the 1-based line of a syntax error's offset in data, 0
// when the error has none.
func lineOf(data []byte, err error) int {
	var se *jsonSyntaxError
	if !errors.As(err, &se) || se.Offset <= 0 || se.Offset > int64(len(data)) {
		return 0
	}
	return 1 + strings.Count(string(data[:se.Offset]), "\n")
}
