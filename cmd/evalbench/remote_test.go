package main

import (
	"bufio"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The bench's S3 server serves the files of its folder only, and gives
// the AWS environment back when stopped.
func TestServeS3StaysInItsFolder(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "served")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "in.jsonl"), []byte("inside\n"), 0o644)
	os.WriteFile(filepath.Join(root, "secret.txt"), []byte("outside\n"), 0o644)
	t.Setenv("AWS_REGION", "eu-west-3")
	os.Unsetenv("AWS_ENDPOINT_URL_S3")
	t.Cleanup(func() { os.Unsetenv("AWS_ENDPOINT_URL_S3") })
	stop, err := serveS3(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimPrefix(os.Getenv("AWS_ENDPOINT_URL_S3"), "http://")
	get := func(path string) (int, string) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		// Written by hand: a client would clean the path.
		c.Write([]byte("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 512)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, b.String()
	}
	if code, body := get("/bench/in.jsonl"); code != 200 || body != "inside\n" {
		t.Errorf("a file of the folder: %d %q", code, body)
	}
	for _, p := range []string{"/bench/../secret.txt", "/bench/a/../../secret.txt", "/bench//" + filepath.Join(root, "secret.txt")} {
		if code, body := get(p); code != http.StatusNotFound || strings.Contains(body, "outside") {
			t.Errorf("%s: %d %q", p, code, body)
		}
	}
	stop()
	if v := os.Getenv("AWS_REGION"); v != "eu-west-3" {
		t.Errorf("AWS_REGION after stop: %q", v)
	}
	if v, set := os.LookupEnv("AWS_ENDPOINT_URL_S3"); set {
		t.Errorf("AWS_ENDPOINT_URL_S3 left set: %q", v)
	}
}
