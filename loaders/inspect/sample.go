package inspect

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"evalview/loaders/internal/jsonscan"
	"evalview/loaders/internal/nonfinite"
)

// Caps on what one sample keeps of its member. The member is read as a
// stream; fields past their cap are skipped and the detail says what was
// left out.
var (
	// fieldCap bounds each kept field (messages, output, scores...).
	fieldCap = 16 << 20
	// eventCap bounds one event's kept bytes; maxEvents and eventsCap the
	// transcript's events and bytes.
	eventCap  = 256 << 10
	maxEvents = 5000
	eventsCap = 24 << 20
	// attachmentsCap bounds the attachments kept (only those the kept
	// fields reference are kept at all, and attachmentsSpare of the others
	// when the message pool, read after them, may need them).
	attachmentsCap   = 32 << 20
	attachmentsSpare = 16 << 20
	// rawHeadCap is how much of the member the Raw tab shows.
	rawHeadCap = 256 << 10
)

// sampleDetail is what a sample member gives the detail view.
type sampleDetail struct {
	fields map[string]json.RawMessage
	// truncated names fields longer than their cap.
	truncated []string
	events    []json.RawMessage
	// eventCount counts every event, kept or not; eventsCut is set when
	// events were left out.
	eventCount int
	eventsCut  bool
	// eventsRead is set once the events array has streamed by.
	eventsRead bool
	attach     resolver
	// attachSkipped is set when an attachment nothing kept so far
	// references was skipped (the pool, read after, may need it).
	attachSkipped bool
	pool          pool
	// light is set for a check of the member alone (Deep): values are
	// walked as when they are kept, so that the same damage fails the
	// same way, but nothing is kept.
	light bool
	// head is the member's first bytes, for the Raw tab.
	head []byte
	size int64
}

// keptFields are the top-level keys of an EvalSample the view reads.
var keptFields = map[string]bool{
	"messages": true, "output": true, "scores": true, "metadata": true,
	"error": true, "limit": true, "model_usage": true, "total_time": true,
	"working_time": true, "error_retries": true, "store": true, "sandbox": true,
	"input": true, "target": true, "uuid": true,
}

// readSample walks a sample member (EvalSample JSON) as a stream. reopen,
// when not nil, reads the member again from its start: the attachments
// the message pool references are read in a second pass when the first
// did not keep them.
func readSample(r io.Reader, reopen func() (io.ReadCloser, error)) (*sampleDetail, error) {
	return walkSample(r, reopen, false)
}

// checkSample walks a member as readSample does, keeping nothing: what it
// finds (an error, the fields over their cap in d.truncated) is what
// opening the record would find.
func checkSample(r io.Reader) (*sampleDetail, error) { return walkSample(r, nil, true) }

func walkSample(r io.Reader, reopen func() (io.ReadCloser, error), light bool) (*sampleDetail, error) {
	hr := &headRecorder{r: r, limit: rawHeadCap}
	if light {
		hr.limit = 0
	}
	sc := jsonscan.New(hr)
	defer sc.Release()
	d := &sampleDetail{fields: map[string]json.RawMessage{}, attach: newResolver(), light: light}
	var attachRefs map[string]bool
	err := sc.Object(func(key string) error {
		switch {
		case key == "events":
			defer func() { d.eventsRead = true }()
			return d.readEvents(sc)
		case key == "events_data":
			return d.readEventsData(sc)
		case key == "message_pool":
			return d.readPool(sc)
		case key == "attachments":
			if _, seen := d.fields["messages"]; !seen {
				// Written before what references it (Inspect writes it
				// last; other writers may not): keep all, capped.
				return d.readAttachments(sc, nil)
			}
			if attachRefs == nil {
				attachRefs = d.references()
			}
			return d.readAttachments(sc, attachRefs)
		case keptFields[key] && light:
			n, err := sc.Len()
			if err == nil && n > int64(fieldCap) {
				d.truncated = append(d.truncated, key)
			}
			return err
		case keptFields[key]:
			raw, cut, err := sc.Capture(fieldCap)
			if err != nil {
				return err
			}
			if cut {
				d.truncated = append(d.truncated, key)
				return nil
			}
			d.fields[key] = nonfinite.Sanitize(raw)
			return nil
		}
		return sc.Skip()
	})
	d.head = hr.head
	d.size = sc.Offset()
	if err == nil && d.attachSkipped {
		if missing := d.missingAttachments(); len(missing) > 0 {
			if reopen == nil {
				d.attach.cut = true
			} else if err = d.rereadAttachments(reopen, missing); err != nil {
				d.attach.cut = true
			}
		}
	}
	return d, err
}

func (d *sampleDetail) readEvents(sc *jsonscan.Scanner) error {
	kept := 0
	return sc.Array(func(int) error {
		d.eventCount++
		if len(d.events) >= maxEvents || kept >= eventsCap || d.light {
			d.eventsCut = true
			return sc.Skip()
		}
		raw, cut, err := sc.Capture(eventCap)
		if err != nil {
			return err
		}
		if cut {
			// Keep what identifies the event; its body is too long.
			raw = truncatedEvent(raw)
		}
		kept += len(raw)
		d.events = append(d.events, raw)
		return nil
	})
}

// truncatedEvent keeps an over-long event's kind and time: the first keys
// of its head, which Inspect writes before the bulky ones.
func truncatedEvent(head []byte) json.RawMessage {
	var ev struct {
		Event     string `json:"event"`
		Timestamp string `json:"timestamp"`
		SpanID    string `json:"span_id"`
	}
	s := string(head)
	for _, k := range []string{"event", "timestamp", "span_id"} {
		i := strings.Index(s, `"`+k+`":`)
		if i < 0 {
			continue
		}
		rest := strings.TrimLeft(s[i+len(k)+3:], " ")
		if len(rest) > 0 && rest[0] == '"' {
			if j := strings.IndexByte(rest[1:], '"'); j >= 0 {
				v := rest[1 : 1+j]
				switch k {
				case "event":
					ev.Event = v
				case "timestamp":
					ev.Timestamp = v
				case "span_id":
					ev.SpanID = v
				}
			}
		}
	}
	b, _ := json.Marshal(map[string]any{"event": ev.Event, "timestamp": ev.Timestamp, "span_id": ev.SpanID, "_truncated": true})
	return b
}

// references collects the attachment hashes the kept fields and events
// use, so that only those attachments are kept.
func (d *sampleDetail) references() map[string]bool {
	refs := map[string]bool{}
	for _, f := range d.fields {
		scanAttachmentRefs(f, refs)
	}
	for _, e := range d.events {
		scanAttachmentRefs(e, refs)
	}
	return refs
}

// scanAttachmentRefs adds the attachment hashes b references to refs.
func scanAttachmentRefs(b []byte, refs map[string]bool) {
	prefix := []byte(attachmentPrefix)
	for {
		i := bytes.Index(b, prefix)
		if i < 0 {
			return
		}
		b = b[i+len(prefix):]
		j := 0
		for j < len(b) && isHex(b[j]) {
			j++
		}
		if j > 0 {
			refs[string(b[:j])] = true
		}
		b = b[j:]
	}
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// readAttachments keeps the attachments refs names (nil: all), up to
// attachmentsCap. When the events take their input from the pool, which
// comes later, it keeps the others too while they fit in
// attachmentsSpare, so that the pool's references resolve without reading
// the member again.
func (d *sampleDetail) readAttachments(sc *jsonscan.Scanner, refs map[string]bool) error {
	kept := 0
	spare := 0
	if d.pooled() {
		spare = attachmentsSpare
	}
	if c, ok := sc.Peek(); ok && c != '{' {
		return sc.Skip() // null
	}
	return sc.Object(func(hash string) error {
		switch {
		case d.light:
			return sc.Skip()
		case refs != nil && !refs[hash] && kept >= spare:
			d.attachSkipped = true
			return sc.Skip()
		case kept >= attachmentsCap:
			d.attach.cut = true
			return sc.Skip()
		}
		raw, cut, err := sc.Capture(attachmentsCap - kept)
		if err != nil {
			return err
		}
		kept += len(raw)
		var s string
		if cut {
			d.attach.cut = true
		} else if json.Unmarshal(raw, &s) == nil {
			d.attach.m[hash] = s
		}
		return nil
	})
}

// headRecorder keeps the first limit bytes that pass through it.
type headRecorder struct {
	r     io.Reader
	head  []byte
	limit int
}

func (h *headRecorder) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if room := h.limit - len(h.head); room > 0 && n > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	return n, err
}
