package sitemap_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// exETagServer serves an index of two sitemaps, each with an ETag, and
// answers If-None-Match with 304 Not Modified.
func exETagServer() *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		etag := `"v1` + r.URL.Path + `"`
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if r.URL.Path == "/index.xml" {
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%[1]s/a.xml</loc></sitemap><sitemap><loc>%[1]s/b.xml</loc></sitemap></sitemapindex>`, srv.URL)
			return
		}
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com%s</loc></url></urlset>`,
			strings.TrimSuffix(r.URL.Path, ".xml"))
	}))
	return srv
}

func ExampleS_SetStore() {
	srv := exETagServer()
	defer srv.Close()

	s := sitemap.New().SetStore(store.NewMemory())
	for run := 1; run <= 2; run++ {
		if _, err := s.Parse(srv.URL+"/index.xml", nil); err != nil {
			fmt.Println(err)
			return
		}
		var statuses []string
		for _, d := range s.GetDocuments() {
			statuses = append(statuses, string(d.Status))
		}
		fmt.Printf("run %d: %d URLs, %s\n", run, s.GetURLCount(), strings.Join(statuses, " "))
	}
	// Output:
	// run 1: 2 URLs, parsed parsed parsed
	// run 2: 0 URLs, unchanged unchanged unchanged
}

// TrustIndexLastMod: a sitemap whose index gives it the <lastmod> of the
// last run is not fetched again.
func ExampleIncremental() {
	requests := 0
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		if r.URL.Path == "/index.xml" {
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%s/a.xml</loc><lastmod>2024-03-01</lastmod></sitemap></sitemapindex>`, srv.URL)
			return
		}
		fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>`)
	}))
	defer srv.Close()

	s := sitemap.New().SetMultiThread(false).SetStore(store.NewMemory()).SetIncremental(sitemap.Incremental{TrustIndexLastMod: true})
	for run := 1; run <= 2; run++ {
		requests = 0
		if _, err := s.Parse(srv.URL+"/index.xml", nil); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("run %d: %d requests, a.xml %s\n", run, requests, s.GetDocuments()[1].Status)
	}
	// Output:
	// run 1: 2 requests, a.xml parsed
	// run 2: 1 requests, a.xml unchanged
}

// Since: what is older is left out; what has no date is kept.
func ExampleS_SetIncremental() {
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/old</loc><lastmod>2024-01-14</lastmod></url>
<url><loc>https://example.com/same-day</loc><lastmod>2024-01-15</lastmod></url>
<url><loc>https://example.com/morning</loc><lastmod>2024-01-15T09:00:00Z</lastmod></url>
<url><loc>https://example.com/new</loc><lastmod>2024-02-01T10:00:00Z</lastmod></url>
<url><loc>https://example.com/undated</loc></url>
</urlset>`
	s := sitemap.New().SetIncremental(sitemap.Incremental{Since: time.Date(2024, 1, 15, 12, 0, 0, 0, time.UTC)})
	if _, err := s.Parse("https://example.com/sitemap.xml", &doc); err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	// Output:
	// https://example.com/same-day
	// https://example.com/new
	// https://example.com/undated
}
