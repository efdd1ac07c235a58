// Pagecheck asks for the pages a site's sitemaps list, as lint's page
// checks do (LintOptions.CheckPages, sitemap lint -check-pages): a page
// gone, one that moved, one that fails, one that asks search engines to
// leave it out, one that names another page as canonical, one changed
// after its <lastmod>, one robots.txt keeps crawlers away from (never
// asked for). The site is served on loopback, and its log shows the
// requests spaced by the pace of the host: one a second unless the
// politeness of the instance sets a rate, ten a second here.
package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

// hit is a request the site saw.
type hit struct {
	at   time.Time
	what string
}

func main() {
	var mu sync.Mutex
	var hits []hit
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, hit{time.Now(), r.Method + " " + r.URL.RequestURI()})
		mu.Unlock()
		host := "http://" + r.Host
		page := func(head string) {
			w.Header().Set("Content-Type", "text/html")
			if w.Header().Get("Last-Modified") == "" {
				w.Header().Set("Last-Modified", "Wed, 01 Jan 2020 00:00:00 GMT")
			}
			fmt.Fprint(w, "<!doctype html><html><head><title>A page</title>"+head+"</head><body>…</body></html>")
		}
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /drafts/\n")
		case "/sitemap-index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/shop.xml</loc></sitemap><sitemap><loc>%[1]s/blog.xml</loc></sitemap></sitemapindex>`, host)
		case "/shop.xml", "/blog.xml":
			paths := map[string][]string{
				"/shop.xml": {"/", "/kettles", "/old-teapots", "/checkout"},
				"/blog.xml": {"/blog/launch", "/blog/launch?print=1", "/blog/prices", "/drafts/next"},
			}[r.URL.Path]
			fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for _, p := range paths {
				fmt.Fprintf(w, "<url><loc>%s%s</loc><lastmod>2024-03-01</lastmod></url>", host, p)
			}
			fmt.Fprint(w, "</urlset>")
		case "/":
			page("")
		case "/blog/launch":
			if r.URL.RawQuery != "" {
				page(`<link rel="canonical" href="/blog/launch">`)
				return
			}
			page("")
		case "/old-teapots":
			http.Redirect(w, r, "/kettles", http.StatusMovedPermanently)
		case "/checkout":
			page(`<meta name="robots" content="noindex, nofollow">`)
		case "/blog/prices":
			w.Header().Set("Last-Modified", "Fri, 15 Mar 2024 09:30:00 GMT")
			page("")
		case "/kettles":
			http.Error(w, "out of stock", http.StatusBadGateway)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	s := sitemap.New().SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 10}})
	found := map[string]bool{}
	for f := range s.Lint(context.Background(), srv.URL+"/sitemap-index.xml", nil, &sitemap.LintOptions{CheckPages: 50}) {
		fmt.Println(strings.ReplaceAll(f.String(), srv.URL, "http://site"))
		found[string(f.Code)+" "+strings.TrimPrefix(f.URL, srv.URL)] = true
	}

	fmt.Println("\nThe requests the site saw:")
	mu.Lock()
	defer mu.Unlock()
	var last time.Time
	tooSoon, drafts := false, false
	for _, h := range hits {
		fmt.Printf("  %6.2fs  %s\n", h.at.Sub(hits[0].at).Seconds(), h.what)
		if isPage := !strings.HasSuffix(h.what, ".xml") && !strings.HasSuffix(h.what, ".txt"); isPage {
			if !last.IsZero() && h.at.Sub(last) < 90*time.Millisecond {
				tooSoon = true
			}
			last = h.at
		}
		drafts = drafts || strings.Contains(h.what, "/drafts/")
	}
	demo.Expect(found["page-redirect /old-teapots"] && found["page-status /kettles"] && found["page-noindex /checkout"] &&
		found["page-canonical-other /blog/launch?print=1"] && found["lastmod-stale /blog/prices"] &&
		found["robots-disallowed /drafts/next"] && !found["page-status /"] && !found["page-status /blog/launch"],
		"each page check on its page, and none on the good pages")
	demo.Expect(!drafts && !tooSoon, "no request for the disallowed page, and the pages a tenth of a second apart at least")
}
