package sitemap_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// ct1Resp is what ct1Serve answers for one path. In Body and in the
// values of Header, {base} stands for the URL of the server.
type ct1Resp struct {
	Status  int // 0 is 200 OK
	Body    string
	Header  map[string]string
	Handler http.HandlerFunc // when set, it answers instead
}

// ct1Serve returns a ct2Server that answers each path of routes with its
// ct1Resp, and any other path with 404.
func ct1Serve(t testing.TB, routes map[string]ct1Resp) *ct2Server {
	t.Helper()
	srv := ct2NewServer(t)
	expand := func(s string) string { return strings.ReplaceAll(s, "{base}", srv.URL("")) }
	for path, resp := range routes {
		if resp.Handler != nil {
			srv.Handle(path, resp.Handler)
			continue
		}
		body := expand(resp.Body)
		srv.Handle(path, func(w http.ResponseWriter, r *http.Request) {
			for k, v := range resp.Header {
				w.Header().Set(k, expand(v))
			}
			if resp.Status != 0 {
				w.WriteHeader(resp.Status)
			}
			fmt.Fprint(w, body)
		})
	}
	return srv
}

// ct1URLSet returns a urlset of the given locations.
func ct1URLSet(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "  <url><loc>%s</loc></url>\n", l)
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// ct1Index returns a sitemap index of the given entries, each a location
// optionally followed by "|" and a <lastmod> value.
func ct1Index(entries ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, e := range entries {
		loc, lastmod, dated := strings.Cut(e, "|")
		if dated {
			fmt.Fprintf(&b, "  <sitemap><loc>%s</loc><lastmod>%s</lastmod></sitemap>\n", loc, lastmod)
		} else {
			fmt.Fprintf(&b, "  <sitemap><loc>%s</loc></sitemap>\n", loc)
		}
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

// locsOf returns the Loc of every URL.
func locsOf(urls []sitemap.URL) []string {
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = u.Loc
	}
	return out
}

// sitemapLocsOf returns the Loc of every sitemap.
func sitemapLocsOf(sms []sitemap.Sitemap) []string {
	out := make([]string, len(sms))
	for i, sm := range sms {
		out[i] = sm.Loc
	}
	return out
}

// messagesOf returns the message of every error.
func messagesOf(errs []error) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

// ct1Within runs f in a goroutine and fails the test if it has not returned
// within d: the guard against a hung test, never a synchronisation.
func ct1Within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// ct1Blocker is a handler that announces each request it gets on entered
// and answers only once Release is called. Created before the server, it
// releases its requests when the test ends, so that a test that fails while
// a request is held does not leave the server's Close waiting for it.
type ct1Blocker struct {
	entered chan string
	release chan struct{}
	once    sync.Once
}

func newCt1Blocker(t testing.TB) *ct1Blocker {
	b := &ct1Blocker{entered: make(chan string, 16), release: make(chan struct{})}
	t.Cleanup(b.Release)
	return b
}

// Release lets every request held, and every later one, be answered.
func (b *ct1Blocker) Release() { b.once.Do(func() { close(b.release) }) }

// Wait holds a request until Release is called or the request ends; it
// reports whether the request is to be answered.
func (b *ct1Blocker) Wait(r *http.Request) bool {
	b.entered <- r.URL.Path
	select {
	case <-b.release:
		return true
	case <-r.Context().Done():
		return false
	}
}

func (b *ct1Blocker) handler(body func() string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if b.Wait(r) {
			fmt.Fprint(w, body())
		}
	}
}

// ct1Guard is how long a test waits for what should happen at once before
// it fails instead of hanging. It is generous: on a machine that runs
// several race binaries at once, ten seconds were once not enough for a
// streaming call over an index of gzipped sitemaps to end.
const ct1Guard = 60 * time.Second

// ct1Recv waits for a value on ch, failing the test after ct1Guard.
func ct1Recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(ct1Guard):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}
