package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
)

// The string decoder (issue 22, item 11): every loader's fast path
// decodes JSON strings with loaders/internal/jsonstr. Its Go benchmark,
// BenchmarkDecode, measures it against encoding/json and, built with
// GOEXPERIMENT=jsonv2, against encoding/json/jsontext's AppendUnquote, on
// the texts the loaders decode most. The table gives each decoder's best
// throughput of the runs.

var decodeLine = regexp.MustCompile(`^BenchmarkDecode/([^/]+)/(\S+?)-\d+\s+\d+\s+[\d.]+ ns/op\s+([\d.]+) MB/s`)

// measureDecoder runs BenchmarkDecode with jsontext built in and prints
// its table.
func measureDecoder(runs int) error {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", "^BenchmarkDecode$", "-benchtime", "200ms",
		"-count", strconv.Itoa(runs), "./loaders/internal/jsonstr/")
	cmd.Env = append(os.Environ(), "GOEXPERIMENT=jsonv2")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("BenchmarkDecode: %v\n%s", err, out.String())
	}
	best := map[[2]string]float64{}
	var texts []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		m := decodeLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		mbs, _ := strconv.ParseFloat(m[3], 64)
		k := [2]string{m[1], m[2]}
		if _, seen := best[[2]string{m[1], "jsonstr"}]; !seen && m[2] == "jsonstr" {
			texts = append(texts, m[1])
		}
		best[k] = max(best[k], mbs)
	}
	if len(texts) == 0 {
		return fmt.Errorf("BenchmarkDecode printed no figures:\n%s", out.String())
	}
	fmt.Printf("\nJSON string decoding (BenchmarkDecode, best of %d runs, MB/s of the literal):\n\n", runs)
	fmt.Println("| text | jsonstr | encoding/json/jsontext | encoding/json | jsonstr vs jsontext |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, t := range texts {
		js, jt, ej := best[[2]string{t, "jsonstr"}], best[[2]string{t, "jsontext"}], best[[2]string{t, "encoding-json"}]
		ratio := ""
		if jt > 0 {
			ratio = fmt.Sprintf("%.2fx", js/jt)
		}
		fmt.Printf("| %s | %.0f | %.0f | %.0f | %s |\n", t, js, jt, ej, ratio)
	}
	return nil
}
