package inspect

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"evalview/loaders/internal/zipsafe"
)

// transcriptText is a record's transcript sections joined.
func transcriptText(t *testing.T, path string, rec int) string {
	t.Helper()
	r, err := openOne(t, path).Records.Record(rec)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range r.Sections {
		if s.Tab == "Transcript" {
			b.WriteString(s.Text + "\n")
		}
	}
	return b.String()
}

// TestPoolInput: every way a model event's input is written (events_data,
// the 0.3.195 message_pool, inline) shows the same new input, its long
// texts resolved from the attachments written before the pool.
func TestPoolInput(t *testing.T) {
	p := filepath.Join(fixtureDir, "agent_pool.eval")
	for rec := range 3 {
		got := transcriptText(t, p, rec)
		for _, want := range []string{
			"← system: You are an agent with a read_file tool.",
			"← user: Find the population of the city in file",
			"← 3 earlier input message(s)",
			"← tool: row " + string(rune('1'+rec)) + ": Lima 10,092,000;",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("sample %d: the transcript lacks %q:\n%s", rec+1, want, got)
			}
		}
	}
}

// TestPoolSecondPass: when the attachments the pool needs were skipped
// (no room to keep what nothing referenced yet), the member is read
// again for them alone; without a way to reread, the reference says it
// was not kept rather than that it is not in the sample.
func TestPoolSecondPass(t *testing.T) {
	defer func(v int) { attachmentsSpare = v }(attachmentsSpare)
	attachmentsSpare = 0
	p := filepath.Join(fixtureDir, "agent_pool.eval")
	if got := transcriptText(t, p, 0); !strings.Contains(got, "← tool: row 1: Lima 10,092,000;") {
		t.Errorf("the second pass did not resolve the tool result:\n%s", got)
	}
	zr, release, err := zipsafe.Acquire(p)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	var data []byte
	for _, f := range zr.File {
		if f.Name == "samples/1_epoch_1.json" {
			data, _ = zipsafe.ReadLimited(f, 1<<20)
		}
	}
	reopened := 0
	d, err := readSample(bytes.NewReader(data), func() (io.ReadCloser, error) {
		reopened++
		return io.NopCloser(bytes.NewReader(data)), nil
	})
	if err != nil || reopened != 1 || !strings.HasPrefix(d.attach.m[hashResult], "row 1") {
		t.Errorf("second pass: err %v, reopened %d times, result %q", err, reopened, d.attach.m[hashResult])
	}
	d, _ = readSample(bytes.NewReader(data), nil)
	if got := strings.Join(transcriptLines(d), "\n"); !strings.Contains(got, "← tool: attachment://"+hashResult+" (attachment not kept") {
		t.Errorf("an unresolved reference does not say it was not kept:\n%s", got)
	}
	attachmentsSpare = 16 << 20
	reopened = 0
	if _, err := readSample(bytes.NewReader(data), func() (io.ReadCloser, error) { reopened++; return nil, io.EOF }); err != nil || reopened != 0 {
		t.Errorf("the member was read again though its attachments were kept: %v, %d", err, reopened)
	}
}

func transcriptLines(d *sampleDetail) []string {
	var out []string
	for _, s := range transcript(d, 1) {
		out = append(out, strings.Split(s.Text, "\n")...)
	}
	return out
}

// TestPoolRefs: ranges expand as Python slices do; hostile ones (huge,
// reversed, negative, past the pool) neither hang nor index outside it.
func TestPoolRefs(t *testing.T) {
	refs := []refRange{{0, 1}, {3, 6}, {9, 10}}
	if got := lastPositions(refs, 3, -1); !slices.Equal(got, []int{9, 5, 4}) {
		t.Errorf("lastPositions = %v", got)
	}
	if got := lastPositions(refs, 3, 5); !slices.Equal(got, []int{4, 3, 0}) {
		t.Errorf("lastPositions in a pool of 5 = %v", got)
	}
	if got := countRefs(refs, 5); got != 3 {
		t.Errorf("countRefs = %d, want 3", got)
	}
	huge := []refRange{{0, 1 << 60}}
	if got := lastPositions(huge, 4, 2); !slices.Equal(got, []int{1, 0}) || countRefs(huge, 2) != 2 {
		t.Errorf("a huge range: %v %d", got, countRefs(huge, 2))
	}
	raw := parseRefsJSON(t, `[[5,2],[-1,3],[1],"x",[0,2]]`)
	if got := parseRefs(raw); !slices.Equal(got, []refRange{{0, 2}}) {
		t.Errorf("parseRefs kept %v", got)
	}
	d, err := readSample(strings.NewReader(`{"events":[{"event":"model","input_refs":[[0,1000000000000]],"output":{}}],"events_data":{"messages":[{"role":"user","content":"hi"}]}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The positions kept are picked before the pool's size is known: a
	// range far past it finds none of them, and says so.
	if got := strings.Join(transcriptLines(d), "\n"); !strings.Contains(got, "← ?: (pool message not kept)") {
		t.Errorf("a range past the pool: %s", got)
	}
}

func parseRefsJSON(t *testing.T, s string) []json.RawMessage {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		t.Fatal(err)
	}
	return raw
}
