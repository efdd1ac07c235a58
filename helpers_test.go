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

// route is what serve answers for one path. In Body and in the
// values of Header, {base} stands for the URL of the server.
type route struct {
	Status  int // 0 is 200 OK
	Body    string
	Header  map[string]string
	Handler http.HandlerFunc // when set, it answers instead
}

// serve returns a server that answers each path of routes with its
// route, and any other path with 404.
func serve(t testing.TB, routes map[string]route) *server {
	t.Helper()
	srv := newServer(t)
	expand := func(s string) string { return strings.ReplaceAll(s, "{base}", srv.At("")) }
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

// urlset returns a urlset of one <url> for each entry: an entry that
// begins with "<" is the body of its <url> as it is (a <loc> with other
// children, or none), any other is the text of the <loc>.
func urlset(entries ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="` + sitemapNS + `">` + "\n")
	for _, e := range entries {
		if strings.HasPrefix(e, "<") {
			fmt.Fprintf(&b, "  <url>%s</url>\n", e)
			continue
		}
		fmt.Fprintf(&b, "  <url><loc>%s</loc></url>\n", e)
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// index returns a sitemap index of the given entries, each a location
// optionally followed by "|" and a <lastmod> value.
func index(entries ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<sitemapindex xmlns="` + sitemapNS + `">` + "\n")
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

// gate is a handler that announces each request it gets on entered
// and answers only once Release is called. Created before the server, it
// releases its requests when the test ends, so that a test that fails while
// a request is held does not leave the server's Close waiting for it.
type gate struct {
	entered chan string
	release chan struct{}
	once    sync.Once
}

func newGate(t testing.TB) *gate {
	b := &gate{entered: make(chan string, 16), release: make(chan struct{})}
	t.Cleanup(b.Release)
	return b
}

// Release lets every request held, and every later one, be answered.
func (b *gate) Release() { b.once.Do(func() { close(b.release) }) }

// Wait holds a request until Release is called or the request ends; it
// reports whether the request is to be answered.
func (b *gate) Wait(r *http.Request) bool {
	b.entered <- r.URL.Path
	select {
	case <-b.release:
		return true
	case <-r.Context().Done():
		return false
	}
}

func (b *gate) handler(body func() string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if b.Wait(r) {
			fmt.Fprint(w, body())
		}
	}
}

// guardTimeout is how long a test waits for what should happen at once before
// it fails instead of hanging. It is generous: on a machine that runs
// several race binaries at once, ten seconds were once not enough for a
// streaming call over an index of gzipped sitemaps to end.
const guardTimeout = 60 * time.Second

// recv waits for a value on ch, failing the test after guardTimeout.
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(guardTimeout):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}
