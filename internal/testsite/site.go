// Package testsite is the loopback site of the tests of change detection
// (issue 32), for the library's and the command's: an index of urlsets,
// each served with an ETag and answered 304 Not Modified when a request
// carries it.
package testsite

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Site is a loopback site of an index and its urlsets, each served
// with an ETag and answered 304 when a request carries it (issue 32).
type Site struct {
	mu     sync.Mutex
	Maps   [][]Page                            // the URLs of each sitemap
	Status map[int]int                         // a status a sitemap answers instead
	Gate   map[int]func(w http.ResponseWriter) // called before sitemap i is served, the lock not held
	NoETag bool                                // serve no ETag: no request is answered 304
	notMod int                                 // requests answered 304
	*httptest.Server
}

// Page is a URL of a sitemap.
type Page struct{ Loc, Lastmod string }

// Cleaner is what New needs of a test: a *testing.T or *testing.B, named
// by this method alone so that the package does not import testing.
type Cleaner interface{ Cleanup(func()) }

// New starts a site of sitemaps urlsets of per URLs each, all with the
// lastmod 2026-01-01, at /s/N.xml, listed by the index at /index.xml; it
// is closed when t's test ends.
func New(t Cleaner, sitemaps, per int) *Site {
	cs := &Site{Status: map[int]int{}, Gate: map[int]func(http.ResponseWriter){}}
	cs.Server = httptest.NewServer(http.HandlerFunc(cs.serve))
	t.Cleanup(cs.Close)
	for i := range sitemaps {
		var ps []Page
		for j := range per {
			ps = append(ps, Page{fmt.Sprintf("%s/p/%d-%d", cs.URL, i, j), "2026-01-01"})
		}
		cs.Maps = append(cs.Maps, ps)
	}
	return cs
}

func (cs *Site) serve(w http.ResponseWriter, r *http.Request) {
	var body string
	var n int
	cs.mu.Lock()
	isIndex := r.URL.Path == "/index.xml"
	if !isIndex {
		if _, err := fmt.Sscanf(r.URL.Path, "/s/%d.xml", &n); err != nil || n >= len(cs.Maps) {
			cs.mu.Unlock()
			http.NotFound(w, r)
			return
		}
	}
	gate := cs.Gate[n]
	st := cs.Status[n]
	if isIndex {
		gate, st = nil, 0
		var b strings.Builder
		b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := range cs.Maps {
			fmt.Fprintf(&b, "<sitemap><loc>%s/s/%d.xml</loc></sitemap>", cs.URL, i)
		}
		b.WriteString("</sitemapindex>")
		body = b.String()
	} else {
		var b strings.Builder
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, p := range cs.Maps[n] {
			fmt.Fprintf(&b, "<url><loc>%s</loc><lastmod>%s</lastmod></url>", p.Loc, p.Lastmod)
		}
		b.WriteString("</urlset>")
		body = b.String()
	}
	noETag := cs.NoETag
	cs.mu.Unlock()
	if gate != nil {
		gate(w)
	}
	if st != 0 {
		w.WriteHeader(st)
		return
	}
	if noETag {
		w.Write([]byte(body))
		return
	}
	h := fnv.New64a()
	h.Write([]byte(body))
	etag := fmt.Sprintf(`"%x"`, h.Sum64())
	if r.Header.Get("If-None-Match") == etag {
		cs.mu.Lock()
		cs.notMod++
		cs.mu.Unlock()
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", etag)
	w.Write([]byte(body))
}

// Change applies f to the site, under its lock, and resets the count of
// 304s.
func (cs *Site) Change(f func()) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.notMod = 0
	f()
}

func (cs *Site) NotModified() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.notMod
}

// Reshape makes the changes of issue 32's scenario: 10 URLs added to
// sitemap 0, 5 removed from sitemap 1, 20 moved from sitemap 2 to sitemap
// 3 as they are, and the lastmod of 7 of sitemap 4 moved.
func (cs *Site) Reshape() {
	cs.Change(func() {
		for j := range 10 {
			cs.Maps[0] = append(cs.Maps[0], Page{fmt.Sprintf("%s/p/added-%d", cs.URL, j), "2026-02-01"})
		}
		cs.Maps[1] = cs.Maps[1][5:]
		cs.Maps[3] = append(cs.Maps[3], cs.Maps[2][:20]...)
		cs.Maps[2] = cs.Maps[2][20:]
		for j := range 7 {
			cs.Maps[4][j].Lastmod = "2026-02-02"
		}
	})
}
