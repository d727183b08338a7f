package lmeval

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/internal/jsonhead"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
)

// Detection: the harness's file names and stamps, sniffing a file or a
// folder by its head, and finding a folder's lm-eval files.

var stampRE = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}[-:]\d{2}[-:]\d{2}(?:\.\d+)?`)

// stampOf returns the run timestamp in a file name, or "": what stampRE
// finds first. It is matched by hand: opening a folder asks it of every
// file a few times, and the regexp took a quarter of the browser's time to
// open a folder of 5,000 samples files (stamp_test.go checks both agree).
func stampOf(name string) string {
	const fixed = len("2006-01-02T15-04-05")
	for i := 0; i+fixed <= len(name); i++ {
		if !stampAt(name[i:]) {
			continue
		}
		end := i + fixed
		if end+1 < len(name) && name[end] == '.' && isDigit(name[end+1]) {
			end += 2
			for end < len(name) && isDigit(name[end]) {
				end++
			}
		}
		return name[i:end]
	}
	return ""
}

// stampAt reports whether s starts with YYYY-MM-DDTHH?MM?SS, ? being - or :.
func stampAt(s string) bool {
	const shape = "dddd-dd-ddTdd:dd:dd"
	for i := 0; i < len(shape); i++ {
		c := s[i]
		switch shape[i] {
		case 'd':
			if !isDigit(c) {
				return false
			}
		case ':':
			if c != '-' && c != ':' {
				return false
			}
		default:
			if c != shape[i] {
				return false
			}
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// SniffFile scores a file: 2 for a samples_*.jsonl or results file whose
// content fits, 1 for content that fits under another name.
func SniffFile(name string, head []byte) int {
	if jsonl.IsLFSPointer(head) {
		return 1
	}
	if isResultsJSON(head) {
		return 2
	}
	if isSamplesHead(head) {
		if strings.HasPrefix(name, "samples_") {
			return 2
		}
		return 1
	}
	if resultsNameRE.MatchString(filepath.Base(name)) {
		return 1 // named as the harness names results files: read it, and say why it breaks
	}
	return 0
}

// isSamplesHead reports whether the first bytes look like samples rows:
// JSONL, the old harness's JSON array, or rows pretty-printed over several
// lines. A row without "doc_id" still counts when it has two of the row
// format's other fields: such a file is a samples file with errors, not
// something to skip.
func isSamplesHead(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf[")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	firstRow := t
	if i := bytes.IndexByte(t, '\n'); i > 0 && head[0] != '[' && len(bytes.TrimSpace(t[:i])) > 1 {
		firstRow = t[:i] // one row a line; a line of "{" alone opens a pretty-printed row
	}
	return samplesRow(firstRow)
}

// samplesRow reports whether row is one samples row, by its top-level
// keys (a key nested in a document does not count). A row with "doc_id"
// needs one of the row format's fields beside it, unless the row is cut
// by the head's end (its "doc" can be long) or broken before its end; a
// row without "doc_id" needs two of them, one a response.
func samplesRow(row []byte) bool {
	if !bytes.Contains(row, []byte(`"doc_id"`)) && !bytes.Contains(row, []byte(`resps"`)) {
		return false // the words first: most rows are not, and a parse costs
	}
	v := jsonhead.Parse(row, 0)
	if !v.Is(jsonhead.Object) {
		return false
	}
	if v.Has("doc_id") {
		return v.Count("resps", "arguments", "filtered_resps") > 0 || !v.Whole
	}
	return v.Count("doc", "target", "arguments", "resps", "filtered_resps") >= 2 && v.Count("resps", "filtered_resps") > 0
}

// samplesInHead reports whether a file's head holds a samples row: the
// first, or a later one when the first line is broken (a renamed samples
// file whose first row was cut or edited is a dataset with that error,
// not a file left out of its folder).
func samplesInHead(head []byte) bool {
	if isSamplesHead(head) {
		return true
	}
	rest := head
	for n := 0; n < 100 && len(rest) > 0; n++ {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return false // the last line may be cut by the head's end
		}
		line := bytes.TrimSpace(rest[:i])
		rest = rest[i+1:]
		if n > 0 && len(line) > 0 && line[0] == '{' && samplesRow(line) {
			return true
		}
	}
	return false
}

// SniffDir scores a folder: 2 when it holds lm-eval files, 1 when its
// subfolders do (an output folder of model folders).
//
// It stops at the first lm-eval file of the folder, then at the first of
// its subfolders: reading every file's head, as opening does, made
// detecting a folder of 100,000 samples files as slow as opening it.
func SniffDir(dir string, names []string) int {
	if hasFile(dir, 0, 0) {
		return 2
	}
	if hasFile(dir, 1, maxDepth) {
		return 1
	}
	return 0
}

// hasFile reports whether some folder from depth from to depth to below
// dir (0: dir itself) holds an lm-eval file, as findFiles would find it.
func hasFile(dir string, from, to int) bool {
	ents, err := source.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		p := source.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if to > 0 && !folder.SkipFolder(e.Name()) && hasFile(p, max(from-1, 0), to-1) {
				return true
			}
		case from == 0 && isLMEvalFile(p, e):
			return true
		}
	}
	return false
}

// isLMEvalFile reports whether the entry e at p is a file findFiles keeps.
func isLMEvalFile(p string, e os.DirEntry) bool {
	if !e.Type().IsRegular() || folder.IsNotes(e.Name()) {
		return false
	}
	ext := strings.ToLower(filepath.Ext(jsonl.TrimCompressedExt(e.Name())))
	if ext != ".json" && ext != ".jsonl" {
		return false
	}
	head, err := readHead(p)
	return err == nil && (isResultsJSON(head) || samplesInHead(head) ||
		jsonl.IsLFSPointer(head) && strings.HasPrefix(e.Name(), "samples_"))
}

// found is an lm-eval file met while walking folders.
type found struct {
	path    string
	results bool
	// companion marks a results file evalview found beside a samples file
	// the user named alone: it lends its config and metrics, but its other
	// tasks are not "missing" and it makes no dataset of its own.
	companion bool
}

// maxDepth bounds how deep SniffDir looks for lm-eval files (output
// folder -> model folder -> files); a search of a folder opened as
// lm-eval goes down to folder.MaxDepth.
const maxDepth = 2

func findFiles(dir string, depth int) ([]found, error) {
	ents, err := source.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []found
	for _, e := range ents {
		p := source.Join(dir, e.Name())
		if e.IsDir() {
			if depth < folder.MaxDepth && !folder.SkipFolder(e.Name()) {
				sub, _ := findFiles(p, depth+1)
				out = append(out, sub...)
			}
			continue
		}
		if !e.Type().IsRegular() || folder.IsNotes(e.Name()) {
			continue
		}
		ext := strings.ToLower(filepath.Ext(jsonl.TrimCompressedExt(e.Name())))
		if ext != ".json" && ext != ".jsonl" {
			continue
		}
		// The harness's own names are taken at their word, without
		// reading the file's head here (it is read when it is opened,
		// and a file that is not what its name says is a dataset with
		// errors, not left out): a folder of 5,000 samples files opened
		// 5,000 files twice.
		switch {
		case resultsNameRE.MatchString(e.Name()):
			out = append(out, found{path: p, results: true})
			continue
		case strings.HasPrefix(e.Name(), "samples_") && ext == ".jsonl":
			out = append(out, found{path: p})
			continue
		}
		head, err := readHead(p)
		if err != nil {
			continue
		}
		switch {
		case isResultsJSON(head), resultsNameRE.MatchString(e.Name()):
			out = append(out, found{path: p, results: true})
		case samplesInHead(head), jsonl.IsLFSPointer(head) && strings.HasPrefix(e.Name(), "samples_"):
			out = append(out, found{path: p})
		case ext == ".jsonl" && len(bytes.TrimSpace(head)) == 0:
			// An empty .jsonl among lm-eval files is a samples file
			// that got no rows (a task that crashed, a renamed file):
			// a dataset that says so, not left out.
			out = append(out, found{path: p})
		}
	}
	return out, nil
}

// readHead returns a file's first 64 KB, decompressed when it is gzip or
// zstd.
func readHead(path string) ([]byte, error) { return jsonl.ReadHead(path, 64<<10) }
