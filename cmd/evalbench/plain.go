package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"evalview/loaders/lmevalgen"
)

// The plain JSON Lines rows (issue 30): check, summary and export on a
// plain file of N short records (10 million took 6 GB before the index
// kept offsets rather than records) and on a file of one line of SIZE
// (2 GB took 12 GB before a long line was walked as a stream), each held
// to the commands' memory budget: 150 MB plus 5% of the input.

// plainRecords writes a plain JSON Lines file of n records of about 80
// bytes (an id, a text, a language and a number: no format claims them)
// in dir, or reuses the one an earlier run left there.
func plainRecords(dir string, n int) (string, error) {
	p := filepath.Join(dir, fmt.Sprintf("plain-%d.jsonl", n))
	return p, generate(p, fmt.Sprintf("%d plain records", n), func(w *bufio.Writer) {
		for i := range n {
			fmt.Fprintf(w, "{\"id\": %d, \"text\": \"what is %d plus %d today?\", \"lang\": \"en\", \"v\": %d}\n", i, i, i*7%1000, i%5)
		}
	})
}

// plainLine writes a plain JSON Lines file of one record whose text is
// size bytes, written a piece at a time, in dir (or reuses it).
func plainLine(dir string, size int64) (string, error) {
	p := filepath.Join(dir, fmt.Sprintf("plain-line-%d.jsonl", size))
	return p, generate(p, fmt.Sprintf("a plain line of %d bytes", size), func(w *bufio.Writer) {
		w.WriteString(`{"id": "huge", "prompt": "a short prompt", "text": "`)
		piece := strings.Repeat("lorem ipsum dolor sit amet ", 4096)
		for n := int64(0); n < size; n += int64(len(piece)) {
			w.WriteString(piece)
		}
		w.WriteString("\", \"lang\": \"en\"}\n")
	})
}

// generate writes file p through write, unless a run before left it
// there: into p.part, renamed to p once whole, so that a run stopped
// halfway leaves no file to be reused.
func generate(p, what string, write func(w *bufio.Writer)) error {
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	fmt.Fprintf(os.Stderr, "generating %s…\n", what)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.Create(p + ".part")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	write(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(p+".part", p)
}

// measurePlain measures check, summary and export on plain files of each
// count of records (-plain) and of one line of each size (-plain-line).
func measurePlain(bin, dir, counts, lines string) ([]row, error) {
	var paths, labels []string
	for _, c := range strings.Split(counts, ",") {
		if c = strings.TrimSpace(c); c == "" {
			continue
		}
		n, err := strconv.Atoi(strings.ReplaceAll(c, "_", ""))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-plain: bad record count %q", c)
		}
		p, err := plainRecords(filepath.Join(dir, "plain"), n)
		if err != nil {
			return nil, err
		}
		paths, labels = append(paths, p), append(labels, fmt.Sprintf("plain %s records", c))
	}
	for _, s := range strings.Split(lines, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		size, err := lmevalgen.ParseSize(s)
		if err != nil {
			return nil, fmt.Errorf("-plain-line: %v", err)
		}
		p, err := plainLine(filepath.Join(dir, "plain"), size)
		if err != nil {
			return nil, err
		}
		paths, labels = append(paths, p), append(labels, "plain "+s+" line")
	}
	var rows []row
	for k, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		budget := 150 + 0.05*float64(st.Size())/(1<<20)
		for _, cmd := range []string{"check", "summary", "export"} {
			// Through a shell that execs it, so that the rows export
			// writes go to /dev/null, not into this process.
			r, err := shell("exec " + shellQuote(bin) + " " + cmd + " " + shellQuote(p) + " > /dev/null")
			if err != nil {
				return nil, fmt.Errorf("%s %s: %v", cmd, p, err)
			}
			mb := float64(st.Size()) / (1 << 20)
			rows = append(rows, row{size: fmt.Sprintf("%s (%.0f MB)", labels[k], mb), what: "evalview " + cmd,
				secs: r.secs, cpu: r.cpu, rss: r.rssMB, mbps: mb / max(r.secs, 1e-9),
				target: fmt.Sprintf("≤ %.0f MB", budget), ok: r.rssMB <= budget})
		}
	}
	return rows, nil
}
