package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The fetch timeout of the command (TIMEOUT-1, TIMEOUT-3): -timeout is
// charged to the time a request waits for its server, for the response
// and then inside each read of the body, added up; the time the output
// takes is not the server's.

// shortTimeouts makes -timeout count milliseconds until the test ends, so
// that no test waits out a real timeout.
func shortTimeouts(t *testing.T) {
	old := timeoutUnit
	timeoutUnit = time.Millisecond
	t.Cleanup(func() { timeoutUnit = old })
}

// stallHead is the start of a urlset with three complete entries.
const stallHead = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
	`<url><loc>https://example.com/1</loc></url><url><loc>https://example.com/2</loc></url><url><loc>https://example.com/3</loc></url>`

// badServer serves /stall.xml, which sends stallHead and then nothing,
// /drip.xml, which sends stallHead and then a space every tick, each wait
// shorter than the timeout, and /header.xml, which sends no response. Each
// holds its request until the client gives it up. Its connections are
// closed when the test ends, so that a run that never gives up fails the
// test rather than hangs it.
func badServer(t *testing.T, tick time.Duration) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/header.xml" {
			<-r.Context().Done()
			return
		}
		io.WriteString(w, stallHead)
		w.(http.Flusher).Flush()
		if r.URL.Path != "/drip.xml" {
			<-r.Context().Done()
			return
		}
		tk := time.NewTicker(tick)
		defer tk.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-tk.C:
				io.WriteString(w, " ")
				w.(http.Flusher).Flush()
			}
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(srv.CloseClientConnections) // first
	return srv
}

// runGuarded runs the command with args, its standard output written to
// stdout, and fails the test when it has not ended in 20 seconds: a
// request that is never cut.
func runGuarded(t *testing.T, stdout io.Writer, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, strings.NewReader(""), stdout, &stderr) }()
	select {
	case code := <-done:
		return code, stderr.String()
	case <-time.After(20 * time.Second):
		t.Fatalf("%v did not end: -timeout did not cut the request", args)
		return 0, ""
	}
}

// heldWriter is an output whose first write waits for hold: a consumer
// slower than the timeout.
type heldWriter struct {
	hold <-chan time.Time
	once sync.Once
	mu   sync.Mutex
	buf  bytes.Buffer
}

func (w *heldWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { <-w.hold })
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

// A large sitemap whose output goes to a consumer that holds it past
// -timeout, from a server that sends as fast as it is read, is read whole:
// the time the command spends writing URLs is not the server's. With a
// client's Timeout, which covers the body, it was cut at -timeout.
func TestTimeoutSlowConsumer(t *testing.T) {
	shortTimeouts(t)
	const n, timeout = 10000, 200
	var doc bytes.Buffer
	doc.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range n {
		fmt.Fprintf(&doc, "<url><loc>https://example.com/page/%d</loc></url>\n", i)
	}
	doc.WriteString("</urlset>\n")
	body := doc.Bytes()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// 32 KiB at a time, each flushed: the server is held back only by
		// the client's reading.
		for b := body; len(b) > 0; {
			k := min(len(b), 32<<10)
			if _, err := w.Write(b[:k]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			b = b[k:]
		}
	}))
	t.Cleanup(srv.Close)
	out := &heldWriter{hold: time.After(3 * timeout * time.Millisecond)}
	code, stderr := runGuarded(t, out, "-timeout", fmt.Sprint(timeout), srv.URL+"/sitemap.xml")
	out.mu.Lock()
	defer out.mu.Unlock()
	if got := strings.Count(out.buf.String(), "\n"); code != 0 || got != n {
		t.Fatalf("exit status %d, %d URLs; want 0 and %d; stderr:\n%s", code, got, n, stderr)
	}
	if want := fmt.Sprintf("Summary: 1 document fetched, %d URLs, 0 sitemaps listed, 0 errors\n", n); stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// A server that sends part of a document and stalls, or that sends a byte
// at a time, each wait shorter than -timeout, is cut once the waits add up
// to -timeout: the URLs before are printed, then the *NetworkError with
// the message of a timeout (the library's words for its own client), and
// the run exits 1.
func TestTimeoutServerStallsOrDrips(t *testing.T) {
	shortTimeouts(t)
	const timeout = 100
	srv := badServer(t, timeout*time.Millisecond/5)
	for _, name := range []string{"stall", "drip"} {
		t.Run(name, func(t *testing.T) {
			u := srv.URL + "/" + name + ".xml"
			var stdout bytes.Buffer
			code, stderr := runGuarded(t, &stdout, "-timeout", fmt.Sprint(timeout), u)
			if want := "https://example.com/1\nhttps://example.com/2\nhttps://example.com/3\n"; code != 1 || stdout.String() != want {
				t.Errorf("exit status %d, stdout %q; want 1 and %q", code, stdout.String(), want)
			}
			ls := lines(stderr)
			if len(ls) != 2 || !strings.HasPrefix(ls[0], `NetworkError: fetch "`+u+`": `) ||
				!strings.HasSuffix(ls[0], ": the server took longer than the -timeout of 100ms: context deadline exceeded") ||
				ls[1] != "Summary: 1 document fetched, 3 URLs, 0 sitemaps listed, 1 error" {
				t.Errorf("stderr:\n%s\nwant the *NetworkError of a timeout in the body, then the summary", stderr)
			}
		})
	}
}

// sitemap lint and sitemap report of a FILE read in its directory, which
// lists remote sitemaps by absolute URLs: one that stalls mid-body, one
// that drips, one that sends no response. Each is cut once it has been
// waited for -timeout in all, and is an error of lint. Before, the
// client of the file had no timeout and its transport bounded only the
// wait for the response: the first two were never cut.
func TestTimeoutLintLocalFileListsRemote(t *testing.T) {
	shortTimeouts(t)
	const timeout = 100
	srv := badServer(t, timeout*time.Millisecond/5)
	names := []string{"stall", "drip", "header"}
	index := `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`
	for _, name := range names {
		index += "<sitemap><loc>" + srv.URL + "/" + name + ".xml</loc></sitemap>"
	}
	index += "</sitemapindex>"
	path := filepath.Join(t.TempDir(), "index.xml")
	if err := os.WriteFile(path, []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("lint", func(t *testing.T) {
		var stdout bytes.Buffer
		code, stderr := runGuarded(t, &stdout, "lint", "-timeout", fmt.Sprint(timeout), path)
		if code != 1 {
			t.Errorf("exit status %d, want 1; stderr:\n%s", code, stderr)
		}
		for _, name := range names {
			if !strings.Contains(stdout.String(), srv.URL+"/"+name+".xml:0:0: error fetch-failed: ") {
				t.Errorf("no fetch-failed error about %s.xml in\n%s", name, stdout.String())
			}
		}
	})
	t.Run("report", func(t *testing.T) {
		var stdout bytes.Buffer
		code, stderr := runGuarded(t, &stdout, "report", "-timeout", fmt.Sprint(timeout), path)
		// The index and the three sitemaps, the URLs of the two cut
		// mid-body.
		if code != 1 || !strings.HasPrefix(stderr, "Summary: 4 documents, 6 URLs; ") || !strings.Contains(stdout.String(), "fetch-failed") {
			t.Errorf("exit status %d, stderr %q; want 1 and the three sitemaps cut", code, stderr)
		}
	})
}

// The requests of a redirect share one timeout: a server that takes
// three fifths of -timeout to redirect, then as long to answer, is cut,
// though neither request waited -timeout.
func TestTimeoutRedirectChain(t *testing.T) {
	shortTimeouts(t)
	const timeout = 100
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(timeout * time.Millisecond * 3 / 5):
		case <-r.Context().Done():
			return
		}
		if r.URL.Path == "/old.xml" {
			http.Redirect(w, r, "/sitemap.xml", http.StatusMovedPermanently)
			return
		}
		io.WriteString(w, stallHead+"</urlset>")
	}))
	t.Cleanup(srv.Close)
	var stdout bytes.Buffer
	code, stderr := runGuarded(t, &stdout, "-timeout", fmt.Sprint(timeout), srv.URL+"/old.xml")
	ls := lines(stderr)
	if code != 1 || len(ls) != 2 || !strings.HasPrefix(ls[0], `NetworkError: fetch "`+srv.URL+`/old.xml": `) || !strings.HasPrefix(ls[1], "Summary: 0 documents fetched, 0 URLs") {
		t.Errorf("exit status %d, stderr:\n%s\nwant 1 and the *NetworkError of the URL given", code, stderr)
	}
}
