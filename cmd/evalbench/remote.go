package main

// The remote rows (issue 19): a samples file served by an S3 server on
// 127.0.0.1 that answers every request after an injected latency, read
// through s3:// as a user would. The server is a minimal S3 (HEAD, ranged
// GET, ListObjectsV2) over the generated file on disk, so that a 1 GB
// object costs no memory in this process.

import (
	"encoding/xml"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"evalview/loaders/lmevalgen"
	"evalview/loaders/source"
)

// serveS3 serves the files of dir as bucket "bench" after latency per
// request, and points the AWS environment (of this process and its
// children) at it.
func serveS3(dir string, latency time.Duration) (func(), error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(latency)
		bucket, key, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		if bucket != "bench" {
			http.Error(w, "NoSuchBucket", http.StatusNotFound)
			return
		}
		if key == "" {
			listS3(w, dir, r.URL.Query().Get("prefix"))
			return
		}
		if !filepath.IsLocal(filepath.FromSlash(key)) {
			// "../x" or "/etc/x": only the files of dir are served.
			http.Error(w, "NoSuchKey", http.StatusNotFound)
			return
		}
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(key)))
		if err != nil {
			http.Error(w, "NoSuchKey", http.StatusNotFound)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || st.IsDir() {
			http.Error(w, "NoSuchKey", http.StatusNotFound)
			return
		}
		w.Header().Set("ETag", fmt.Sprintf(`"%x-%x"`, st.Size(), st.ModTime().UnixNano()))
		http.ServeContent(w, r, "", st.ModTime(), f)
	})
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	type saved struct {
		v   string
		set bool
	}
	old := map[string]saved{}
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL_S3": "http://" + l.Addr().String(), "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench",
		"AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull,
	} {
		was, set := os.LookupEnv(k)
		old[k] = saved{was, set}
		os.Setenv(k, v)
	}
	// stop gives the environment back as it was: the rows measured after
	// (or a -serve-s3 caller) see the user's own AWS settings again.
	return func() {
		srv.Close()
		for k, s := range old {
			if s.set {
				os.Setenv(k, s.v)
			} else {
				os.Unsetenv(k)
			}
		}
	}, nil
}

type s3Object struct {
	Key  string `xml:"Key"`
	Size int64  `xml:"Size"`
	ETag string `xml:"ETag"`
}

type s3Prefix struct {
	Prefix string `xml:"Prefix"`
}

func listS3(w http.ResponseWriter, dir, prefix string) {
	type result struct {
		XMLName        xml.Name   `xml:"ListBucketResult"`
		Name           string     `xml:"Name"`
		Prefix         string     `xml:"Prefix"`
		IsTruncated    bool       `xml:"IsTruncated"`
		Contents       []s3Object `xml:"Contents"`
		CommonPrefixes []s3Prefix `xml:"CommonPrefixes"`
	}
	res := result{Name: "bench", Prefix: prefix}
	ents, _ := os.ReadDir(filepath.Join(dir, filepath.FromSlash(prefix)))
	for _, e := range ents {
		if e.IsDir() {
			res.CommonPrefixes = append(res.CommonPrefixes, s3Prefix{prefix + e.Name() + "/"})
		} else if st, err := e.Info(); err == nil {
			res.Contents = append(res.Contents, s3Object{Key: prefix + e.Name(), Size: st.Size(), ETag: fmt.Sprintf(`"%x-%x"`, st.Size(), st.ModTime().UnixNano())})
		}
	}
	w.Header().Set("Content-Type", "application/xml")
	io.WriteString(w, xml.Header)
	xml.NewEncoder(w).Encode(res)
}

// childRemoteRecord opens a remote samples file as the commands do, then
// opens a record in its middle as the browser does on enter, and prints
// the seconds and the range requests that took.
func childRemoteRecord(path string) error {
	ds, err := openWait(path)
	if err != nil || len(ds) == 0 {
		return fmt.Errorf("open: %v", err)
	}
	n := ds[0].Records.Len()
	before := source.Requests()
	start := time.Now()
	if _, err := ds[0].Records.Record(n / 2); err != nil {
		return err
	}
	fmt.Printf("%.4f %d\n", time.Since(start).Seconds(), source.Requests()-before)
	return nil
}

// measureRemote is the remote table: a plain sequential GET of the
// object, the full index over s3://, a record opened, and the browser's
// first screen, index and memory.
func measureRemote(self, bin, dir, sizes string, latency time.Duration) ([]row, error) {
	var rows []row
	for _, sz := range strings.Split(sizes, ",") {
		sz = strings.TrimSpace(sz)
		if sz == "" {
			continue
		}
		size, err := lmevalgen.ParseSize(sz)
		if err != nil {
			return nil, err
		}
		samples, err := generated(filepath.Join(dir, sz), lmevalgen.Config{Size: size, Repeats: 64})
		if err != nil {
			return nil, err
		}
		stop, err := serveS3(filepath.Dir(samples), latency)
		if err != nil {
			return nil, err
		}
		got, err := measureRemoteFile(self, bin, samples, sz, latency)
		stop()
		if err != nil {
			return nil, err
		}
		rows = append(rows, got...)
	}
	return rows, nil
}

func measureRemoteFile(self, bin, samples, sz string, latency time.Duration) ([]row, error) {
	label := fmt.Sprintf("%s s3 +%s", sz, latency)
	url := "s3://bench/" + filepath.Base(samples)
	st, err := os.Stat(samples)
	if err != nil {
		return nil, err
	}
	mb := float64(st.Size()) / 1e6
	// The baseline: one plain GET of the whole object, read to the end.
	var get float64
	for i := range repeats {
		start := time.Now()
		resp, err := http.Get(os.Getenv("AWS_ENDPOINT_URL_S3") + "/bench/" + filepath.Base(samples))
		if err != nil {
			return nil, err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if s := time.Since(start).Seconds(); i == 0 || s < get {
			get = s
		}
	}
	rows := []row{{size: label, what: "baseline: one sequential GET", secs: get, mbps: mb / get}}
	r, err := measure(self, "-index", url)
	if err != nil {
		return nil, err
	}
	idx, _ := fields2(r.out)
	rows = append(rows, row{size: label, what: "full index over s3://", secs: idx, cpu: r.cpu, rss: r.rssMB, mbps: mb / idx,
		ratio: fmt.Sprintf("%.2fx GET", idx/get), target: "≤ 2x GET", ok: idx <= 2*get})
	r, err = measure(self, "-remote-record", url)
	if err != nil {
		return nil, err
	}
	// Round trips: the time over the injected latency (the requests a
	// record's rows need are made together).
	secs, reqs := fields2(r.out)
	trips := secs / latency.Seconds()
	rows = append(rows, row{size: label, what: fmt.Sprintf("open a record (%d range requests, %.1f round trips)", int(reqs), trips), secs: secs,
		target: "≤ 2 round trips", ok: trips <= 2})
	d, err := readDocTexts(samples)
	if err != nil {
		return nil, err
	}
	wall, cpu, err := firstScreen(d.first, "q", bin, url)
	if err != nil {
		return nil, err
	}
	rows = append(rows, row{size: label, what: "seen: evalview, first screen (rows on screen)", secs: wall.Seconds(), cpu: cpu.Seconds(), target: "≤ 1 s", ok: wall <= time.Second})
	at, rss, err := remoteTrace(bin, url)
	if err != nil {
		return nil, err
	}
	budget := 150 + 0.05*mb
	rows = append(rows, row{size: label, what: "browser: index complete, peak memory", secs: at, rss: rss, mbps: mb / at,
		target: fmt.Sprintf("≤ %.0f MB", budget), ok: rss > 0 && rss <= budget})
	return rows, nil
}

// remoteTrace runs the browser on url in a pseudo-terminal with
// EVALVIEW_TRACE set until its index is complete: the seconds that took
// and its peak memory.
func remoteTrace(bin, url string) (float64, float64, error) {
	f, err := os.CreateTemp("", "evalbench-trace")
	if err != nil {
		return 0, 0, err
	}
	f.Close()
	defer os.Remove(f.Name())
	t, err := startTerm([]string{"EVALVIEW_TRACE=" + f.Name()}, bin, url)
	if err != nil {
		return 0, 0, err
	}
	defer t.stop("q")
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		if secs := readTrace(f.Name())["indexed"]; secs > 0 {
			return secs, peakRSS(t.pid()), nil
		}
	}
	return 0, 0, fmt.Errorf("%s: no index within 5 minutes", url)
}

// serveForever is -serve-s3: the bench's S3 server, by hand.
func serveForever(dir string, latency time.Duration) error {
	if _, err := serveS3(dir, latency); err != nil {
		return err
	}
	for _, k := range []string{"AWS_ENDPOINT_URL_S3", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "AWS_EC2_METADATA_DISABLED"} {
		fmt.Printf("export %s=%s\n", k, os.Getenv(k))
	}
	fmt.Println("# then: evalview s3://bench/PATH")
	select {}
}
