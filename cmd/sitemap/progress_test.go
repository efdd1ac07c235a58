package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// TestProgressLine: the progress line counts the documents of the call
// done, being read and waiting. The server holds the first sitemap back
// while the line is drawn: the index is done, that sitemap is being read
// and the two after it wait.
func TestProgressLine(t *testing.T) {
	requested, gate := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/index.xml":
			w.Write([]byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
				<sitemap><loc>/a.xml</loc></sitemap><sitemap><loc>/b.xml</loc></sitemap><sitemap><loc>/c.xml</loc></sitemap>
			</sitemapindex>`))
		case "/a.xml":
			close(requested)
			select {
			case <-gate:
			case <-r.Context().Done():
			}
			fallthrough
		default:
			w.Write([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>`))
		}
	}))
	defer srv.Close()
	s := sitemap.New().SetMultiThread(false).SetFetchTimeout(60)
	done := make(chan error, 1)
	go func() {
		_, err := s.Parse(srv.URL+"/index.xml", nil)
		done <- err
	}()
	select {
	case <-requested:
	case err := <-done:
		t.Fatalf("the call ended (%v) before /a.xml was requested", err)
	case <-time.After(60 * time.Second):
		t.Fatal("/a.xml was not requested")
	}
	c := &command{}
	c.urls.Store(7)
	got := c.progressLine(s)
	close(gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if want := "1 document done, 1 reading, 2 waiting, 7 URLs found"; got != want {
		t.Errorf("progress line %q, want %q", got, want)
	}
	if got, want := c.progressLine(s), "4 documents done, 0 reading, 0 waiting, 7 URLs found"; got != want {
		t.Errorf("at the end: progress line %q, want %q", got, want)
	}
}

// TestConsoleClearsProgress: on a terminal, the progress line is cleared
// before the URLs and the error lines are written, so that neither is
// written after it on its line.
func TestConsoleClearsProgress(t *testing.T) {
	var screen strings.Builder // stdout and stderr on one terminal
	con := newConsole(&screen, &screen, true)
	con.draw("1 document done, 0 reading, 0 waiting, 0 URLs found")
	con.locked(func() error {
		con.stdout.WriteString("https://example.com/\n")
		return con.stdout.Flush()
	})
	con.draw("1 document done, 0 reading, 0 waiting, 1 URL found")
	con.errorLine("NetworkError: fetch ...")
	const clear = "\r\x1b[K"
	want := clear + "1 document done, 0 reading, 0 waiting, 0 URLs found" + clear + "https://example.com/\n" +
		clear + "1 document done, 0 reading, 0 waiting, 1 URL found" + clear + "NetworkError: fetch ...\n"
	if screen.String() != want {
		t.Errorf("screen %q, want %q", screen.String(), want)
	}
}
