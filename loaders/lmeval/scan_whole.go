package lmeval

import (
	"bytes"
	"encoding/json"
	"io"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// Samples files that are not one row a line: the old harness's JSON
// array (v0.4.0 to v0.4.2 wrote json.dumps(samples, indent=2) to a
// .jsonl), and rows a user pretty-printed one after another. Both are
// read whole, keeping each row's bytes.

// prettyRows reports whether a samples file's first bytes open a row
// pretty-printed over several lines ("{" alone on the first line) rather
// than one row a line.
func prettyRows(t []byte) bool {
	i := bytes.IndexByte(t, '\n')
	return i > 0 && len(t) > 0 && t[0] == '{' && len(bytes.TrimSpace(t[:i])) == 1
}

// scanPretty reads rows pretty-printed over several lines (json.dumps with
// indent, one object after another), which the harness never writes but
// a user's re-formatting does: read as a stream of objects, and said.
func (s *scanned) scanPretty(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.dsIssue = append(s.dsIssue, model.Warnf("pretty-printed", s.path, 1, "",
		"rows are pretty-printed over several lines, not one a line as the harness writes them (JSONL): read as a stream of JSON objects"))
	s.mu.Unlock()
	return s.scanValues(data, false)
}

// scanArray reads the old harness's pretty-printed JSON array, keeping each
// element's bytes since their lines are not one per row.
func (s *scanned) scanArray(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	return s.scanValues(data, true)
}

// scanValues indexes the rows of data, a JSON array (array) or a stream of
// JSON objects, keeping each row's bytes.
func (s *scanned) scanValues(data []byte, array bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The decoder finds where each row starts and ends; NaN and Infinity
	// (Python's json writes them) are masked with numbers of their length
	// for it, and each row's bytes are taken from data itself.
	masked, _ := jsonl.MaskNonFinite(data)
	s.whole = data
	dec := json.NewDecoder(bytes.NewReader(masked))
	if _, err := dec.Token(); array && err != nil {
		s.dsIssue = append(s.dsIssue, model.Errorf("bad-json", s.path, 1, "", "not valid JSON: %v", err))
		return nil
	} else if !array {
		dec = json.NewDecoder(bytes.NewReader(masked)) // the stream's first "{" was a row's
	}
	for dec.More() {
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			line := 1 + bytes.Count(data[:min(int(start)+1, len(data))], []byte{'\n'})
			what := "JSON array"
			if !array {
				what = "the stream of JSON objects"
			}
			s.dsIssue = append(s.dsIssue, model.Errorf("bad-json", s.path, line, "", "%s breaks off here: %v; the rows before it are loaded", what, err))
			return nil
		}
		// InputOffset before Decode points at the separator; find the row.
		body := bytes.TrimLeft(data[start:dec.InputOffset()], ", \t\r\n")
		off := dec.InputOffset() - int64(len(body))
		line := 1 + bytes.Count(data[:off], []byte{'\n'})
		s.lines = line
		raw = data[off : off+int64(len(raw))]
		p := s.parse(raw, rowLoc{line: int32(line), off: off, size: uint32(len(raw))})
		s.apply(&p)
	}
	return nil
}
