package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// What the viewers are looked for with: a file's first and last records'
// texts and the question a search finds.

// fileTexts are what the viewers' screens show of a generated samples
// file: docTexts, the last doc's id, and the text the search looks for.
type fileTexts struct {
	docTexts
	lastID int
	// search is the text searched for (searchTarget; "": none), hitID
	// the doc of the first row holding it, hitAt that row's place in
	// the file.
	search string
	hitID  int
	hitAt  int64
	// rows is the file's lines (a doc's row for each filter).
	rows int
}

// rawHead is how a doc's row begins in the file (the generator writes the
// keys in this order): a viewer showing raw lines shows it.
func rawHead(id int, question string) string {
	return fmt.Sprintf(`{"doc_id": %d, "doc": {"question": "%s`, id, question)
}

// readFileTexts reads what the viewers' screens show of a generated
// samples file, and what the search looks for.
func readFileTexts(path string) (fileTexts, error) {
	var f fileTexts
	d, err := readDocTexts(path)
	if err != nil {
		return f, err
	}
	f.docTexts, f.lastID = d, d.docs-1
	if f.rows, err = countLines(path); err != nil {
		return f, err
	}
	f.search, f.hitID, f.hitAt, err = searchTarget(path, d.lastQuestion)
	return f, err
}

// countLines counts a file's lines (its last may lack the line end).
func countLines(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	n, last := 0, byte('\n')
	for {
		k, err := f.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if last != '\n' {
		n++
	}
	return n, nil
}

// searchTarget is what the search looks for: the shortest run of the
// last doc's question's first words (four or more, at most 120 bytes:
// the status-quo script prints 200) that is on no more rows than the
// question, and the doc of the first row holding it, with that row's
// place in the file. A generated question can come back on other docs
// (the last doc of the 1 GB file asks what docs 10,838 and 13,636 do):
// the first of them is the hit every viewer goes to.
func searchTarget(path, question string) (text string, hitID int, at int64, err error) {
	count := func(s string) (int, error) {
		out, err := exec.Command("grep", "-c", "-F", "--", s, path).Output()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			return 0, nil // no line holds it
		}
		if err != nil {
			return 0, fmt.Errorf("grep -c %q: %v", s, err)
		}
		var n int
		_, err = fmt.Sscan(string(out), &n)
		return n, err
	}
	ws := strings.Fields(question)
	prefix := func(k int) string { return strings.Join(ws[:k], " ") }
	lo, hi := min(4, len(ws)), len(ws)
	for hi > 0 && len(prefix(hi)) > 120 {
		hi--
	}
	if hi < lo {
		return "", 0, 0, nil
	}
	rows, err := count(prefix(hi))
	if err != nil || rows == 0 {
		return "", 0, 0, err
	}
	// The least k whose prefix is on as few rows: a longer prefix is on
	// no more rows than a shorter one.
	for lo < hi {
		mid := (lo + hi) / 2
		n, err := count(prefix(mid))
		if err != nil {
			return "", 0, 0, err
		}
		if n == rows {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	text = prefix(hi)
	out, err := exec.Command("grep", "-m1", "-b", "-F", "--", text, path).Output()
	if err != nil {
		return "", 0, 0, fmt.Errorf("grep -m1 %q: %v", text, err)
	}
	off, line, _ := strings.Cut(string(out), ":")
	var hit struct {
		DocID int `json:"doc_id"`
	}
	if _, err := fmt.Sscan(off, &at); err != nil {
		return "", 0, 0, err
	}
	if err := json.Unmarshal([]byte(line), &hit); err != nil {
		return "", 0, 0, fmt.Errorf("%s, byte %d: %v", path, at, err)
	}
	return text, hit.DocID, at, nil
}
