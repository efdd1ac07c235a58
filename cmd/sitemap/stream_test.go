package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// watchWriter is a standard output that tells when what was written holds
// a string.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if w.seen != nil && strings.Contains(w.buf.String(), w.want) {
		close(w.seen)
		w.seen = nil
	}
	return n, err
}

// TestOutputWhileRunning: the URLs of a sitemap reach standard output
// while the next sitemap is still being fetched. The server answers the
// second sitemap only once the URLs of the first are out, so a command
// that holds its output until the end never ends (the guard fails it).
func TestOutputWhileRunning(t *testing.T) {
	for _, format := range []string{"text", "jsonl", "csv"} {
		t.Run(format, func(t *testing.T) {
			out := &watchWriter{want: "https://shop.example.com/about", seen: make(chan struct{})}
			seen := out.seen
			files := http.FileServer(http.Dir(testdata))
			gated := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/sitemap-posts.xml" {
					select {
					case <-seen:
					case <-r.Context().Done():
						return
					}
				}
				files.ServeHTTP(w, r)
			})
			front := httptest.NewServer(gated)
			defer front.Close()
			// The index lists its sitemaps by relative locations: they are
			// requested from the front server, which holds the second back.
			done := make(chan int, 1)
			var stderr bytes.Buffer
			go func() {
				done <- run([]string{"-sequential", "-format", format, front.URL + "/sitemap-index.xml"}, strings.NewReader(""), out, &stderr)
			}()
			select {
			case code := <-done:
				t.Fatalf("the run ended (exit status %d) before its output was seen; stderr:\n%s", code, stderr.String())
			case <-seen:
			case <-time.After(60 * time.Second):
				t.Fatal("the URLs of the first sitemap were not written while the second was held back")
			}
			if code := <-done; code != 0 {
				t.Fatalf("exit status %d; stderr:\n%s", code, stderr.String())
			}
			out.mu.Lock()
			defer out.mu.Unlock()
			if !strings.Contains(out.buf.String(), "https://shop.example.com/blog/brewing-guide") {
				t.Errorf("stdout %q lacks the URLs of the second sitemap", out.buf.String())
			}
		})
	}
}
