package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"evalview/loaders/lmevalgen"
)

// The file-count table (issue 22, item 9): a folder of N small lm-eval
// samples files, each one doc with its filter rows (about 4 KB), and
// `check`, `summary` and `export` on it. Time and memory must grow with N
// no faster than N: the table gives each figure per file, and its ratio to
// the smallest N's. Memory is held to the commands' budget (150 MB plus 5%
// of the input): a folder is read one file at a time, its datasets never
// held together.

// manyFiles generates count small samples files in dir (or reuses those an
// earlier run left there) and returns dir.
func manyFiles(dir string, count int) (string, error) {
	if names, _ := filepath.Glob(filepath.Join(dir, "samples_*.jsonl")); len(names) == count {
		return dir, nil
	}
	fmt.Fprintf(os.Stderr, "generating %d samples files…\n", count)
	one, err := lmevalgen.Generate(lmevalgen.Config{Dir: filepath.Join(dir, ".one"), Docs: 1, Repeats: 1, NumFewshot: -1, Seed: 7})
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(one.SamplesPath)
	if err != nil {
		return "", err
	}
	stamp := strings.TrimSuffix(filepath.Base(one.SamplesPath), ".jsonl")
	stamp = stamp[strings.LastIndexByte(stamp, '_')+1:]
	if err := os.RemoveAll(filepath.Join(dir, ".one")); err != nil {
		return "", err
	}
	for i := range count {
		// One task per file, as a group task's subtasks are.
		name := fmt.Sprintf("samples_task%06d_%s.jsonl", i, stamp)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// measureFiles measures the commands on folders of each count of files.
func measureFiles(bin, dir, counts string) ([]row, error) {
	var rows []row
	type first struct{ perFile, rssPerFile float64 }
	base := map[string]first{}
	ns, err := fileCounts("-files", counts)
	if err != nil {
		return nil, err
	}
	for _, n := range ns {
		c := strconv.Itoa(n)
		folder, err := manyFiles(filepath.Join(dir, "files-"+c), n)
		if err != nil {
			return nil, err
		}
		mb := folderMB(folder)
		budget := 150 + 0.05*mb
		label := fmt.Sprintf("%d files", n)
		for _, cmd := range []string{"check", "summary", "export"} {
			r, err := measure(bin, cmd, folder)
			if err != nil {
				return nil, err
			}
			perFile := r.secs / float64(n) * 1e6
			ratio := ""
			if b, ok := base[cmd]; ok {
				ratio = fmt.Sprintf("%.2fx per file", perFile/b.perFile)
			} else {
				base[cmd] = first{perFile, r.rssMB / float64(n)}
			}
			rows = append(rows, row{size: label, what: fmt.Sprintf("evalview %s (%.0f µs per file)", cmd, perFile), secs: r.secs, cpu: r.cpu, rss: r.rssMB,
				mbps: mb / r.secs, ratio: ratio, target: fmt.Sprintf("≤ 1.5x per file, ≤ %.0f MB", budget),
				ok: (ratio == "" || perFile <= 1.5*base[cmd].perFile) && r.rssMB <= budget})
		}
	}
	return rows, nil
}

// folderMB is the size of a folder's files in MB.
func folderMB(dir string) float64 {
	ents, _ := os.ReadDir(dir)
	var n int64
	for _, e := range ents {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
	}
	return float64(n) / 1e6
}

// countsNote says what the file-count rows are, under the table.
func countsNote(rows []row) string {
	var b bytes.Buffer
	for _, r := range rows {
		if strings.HasSuffix(r.size, " files") {
			b.WriteString("\nFile-count rows: a folder of that many small lm-eval samples files (one doc each, no results file); the ratio compares the time per file with the smallest folder's.\n")
			break
		}
	}
	return b.String()
}
