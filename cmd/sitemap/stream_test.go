package main

import (
	"bytes"
	"compress/gzip"
	"io"
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

// Issue 31 bug 2: a server that sends three complete entries and stalls
// has them printed while it stalls, plain and gzipped. The server sends
// the rest only once the third URL is on standard output, so a command
// that holds them back until the document goes on never ends.
func TestOutputWhileServerStallsMidDocument(t *testing.T) {
	head := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/1</loc></url><url><loc>https://example.com/2</loc></url><url><loc>https://example.com/3</loc></url>`
	tail := `<url><loc>https://example.com/4</loc></url></urlset>`
	for _, gzipped := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "gzipped"}[gzipped], func(t *testing.T) {
			out := &watchWriter{want: "https://example.com/3\n", seen: make(chan struct{})}
			seen := out.seen
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var dst io.Writer = w
				var zw *gzip.Writer
				if gzipped {
					zw = gzip.NewWriter(w)
					dst = zw
				}
				io.WriteString(dst, head)
				if zw != nil {
					zw.Flush()
				}
				w.(http.Flusher).Flush()
				select {
				case <-seen:
				case <-r.Context().Done():
					return
				}
				io.WriteString(dst, tail)
				if zw != nil {
					zw.Close()
				}
			}))
			defer srv.Close()
			done := make(chan int, 1)
			var stderr bytes.Buffer
			go func() {
				done <- run([]string{srv.URL + "/sitemap.xml"}, strings.NewReader(""), out, &stderr)
			}()
			select {
			case code := <-done:
				t.Fatalf("the run ended (exit status %d) before its output was seen; stderr:\n%s", code, stderr.String())
			case <-seen:
			case <-time.After(60 * time.Second):
				t.Fatal("the three URLs were not written while the server stalled")
			}
			if code := <-done; code != 0 {
				t.Fatalf("exit status %d; stderr:\n%s", code, stderr.String())
			}
			out.mu.Lock()
			defer out.mu.Unlock()
			if !strings.HasSuffix(out.buf.String(), "https://example.com/4\n") {
				t.Errorf("stdout %q lacks the URL sent after the stall", out.buf.String())
			}
		})
	}
}
