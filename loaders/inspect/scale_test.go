package inspect

import (
	"archive/zip"
	"bytes"
	"fmt"
	"hash/crc32"
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"evalview/loaders/internal/zipsafe"
	"evalview/model"
)

// TestEvalHugeEvents: a sample whose events array is 1 GB (generated here
// as zstd frames that compress about as real events do, one 64 MB block
// of events compressed once and repeated) opens with bounded memory: the
// events past the transcript's caps are skipped, the detail says how
// many were, and what follows the events (the attachments the messages
// reference) is still read.
func TestEvalHugeEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 1 GB member")
	}
	const target = "samples/2_epoch_1.json"
	p, events := hugeEventsLog(t, target, 1<<30)
	ds := openOne(t, p)
	var r *model.Record
	var err error
	n := allocated(func() { r, err = ds.Records.Record(1) })
	if err != nil {
		t.Fatal(err)
	}
	if n > 256<<20 {
		t.Errorf("opening the record allocated %d MB for a 1 GB member", n>>20)
	}
	var note string
	for _, sec := range r.Sections {
		if strings.HasSuffix(sec.Title, "not shown") {
			note = sec.Text
		}
	}
	if want := fmt.Sprintf("%d of %d events shown", maxEvents, events); !strings.Contains(note, want) {
		t.Errorf("the transcript does not say %q: %q", want, note)
	}
	if got := r.Attempts[0].Messages[1].Text(); got != "What is the capital of Peru?" {
		t.Errorf("user message = %q: the attachments after the events were not read", got)
	}
	for _, is := range r.Issues {
		if is.Severity == model.SeverityError {
			t.Errorf("issue %s", is)
		}
	}
}

// hugeEventsLog writes the finished log with member target's events
// array grown to about size bytes, and returns its path and how many
// events it holds.
func hugeEventsLog(t testing.TB, target string, size int64) (string, int64) {
	t.Helper()
	s := sample(2, 1, "What is the capital of Peru?", "Lima", "Lima", "C", nil)
	delete(s, "events")
	attachments := s["attachments"]
	delete(s, "attachments")
	head := js(s, false)
	head = head[:len(head)-1] + `,"events":[{"event":"info","data":"start"}`
	tail := `],"attachments":` + js(attachments, false) + "}"
	const blockSize = 64 << 20
	var block []byte
	perBlock := int64(0)
	for i := 0; len(block) < blockSize; i++ {
		block = fmt.Appendf(block, `,{"span_id":"s%d","timestamp":"2025-07-05T09:59:%02d.%06d+00:00","event":"info","source":"tool %d","data":"step %d of the agent: read %x bytes from file_%d.txt and found %d matches for pattern %q"}`,
			i%97, i%60, i%1000000, i%13, i, i*7919, i%1009, i%31, fmt.Sprint(i%503))
		perBlock++
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		t.Fatal(err)
	}
	blocks := int(max(size/int64(len(block)), 1))
	frame := enc.EncodeAll(block, nil)
	var raw bytes.Buffer
	raw.Write(enc.EncodeAll([]byte(head), nil))
	crc := crc32.Update(0, crc32.IEEETable, []byte(head))
	for range blocks {
		raw.Write(frame)
		crc = crc32.Update(crc, crc32.IEEETable, block)
	}
	raw.Write(enc.EncodeAll([]byte(tail), nil))
	crc = crc32.Update(crc, crc32.IEEETable, []byte(tail))
	total := uint64(len(head) + blocks*len(block) + len(tail))
	p := writeEval(t, zipWith(withoutMember(target), func(zw *zip.Writer) {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: target, Method: zipsafe.MethodZstd, CRC32: crc,
			CompressedSize64: uint64(raw.Len()), UncompressedSize64: total})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(raw.Bytes())
	}))
	return p, 1 + int64(blocks)*perBlock
}

// TestRunningLogFlushed: a running log that Inspect flushes again (a new
// file renamed over it, with more samples) opens with them all, and the
// dataset opened before still reads its records, from the new file: the
// zip kept open is not served once the file changed. This is what
// `--follow` relies on to reload a running log.
func TestRunningLogFlushed(t *testing.T) {
	spec := specOf("capitals", 1, nil)
	ss := []obj{
		sample(1, 1, "What is the capital of France?", "Paris", "Paris", "C", nil),
		sample(2, 1, "What is the capital of Peru?", "Lima", "Lima", "C", nil),
		sample(3, 1, "What is the capital of Chad?", "N'Djamena", "Abuja", "I", nil),
	}
	flush := func(n int) []byte {
		ms := []member{{name: startJSON, data: js(obj{"version": 2, "eval": spec, "plan": plan()}, false), method: zipsafe.MethodZstd}}
		for i, s := range ss[:n] {
			ms = append(ms,
				member{name: fmt.Sprintf("samples/%d_epoch_1.json", i+1), data: js(s, false), method: zipsafe.MethodZstd},
				member{name: fmt.Sprintf("_journal/summaries/%d.json", i+1), data: js([]obj{sumOf(s)}, false), method: zipsafe.MethodZstd})
		}
		return zipOf(ms)
	}
	p := writeEval(t, flush(2))
	before := openOne(t, p)
	if _, err := before.Records.Record(0); err != nil {
		t.Fatal(err)
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, flush(3), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	after := openOne(t, p)
	if n := after.Records.Len(); n != 3 {
		t.Fatalf("after the flush: %d records, want 3", n)
	}
	if r, err := after.Records.Record(2); err != nil || r.Attempts[0].Text != "Abuja" {
		t.Errorf("the new sample: %v %+v", err, r)
	}
	r, err := before.Records.Record(1)
	if err != nil || r.Attempts[0].Text != "Lima" || r.Errors != 0 {
		t.Errorf("the dataset opened before the flush: %v %+v%s", err, r, issueList(r.Issues))
	}
}
