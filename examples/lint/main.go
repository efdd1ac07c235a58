// Lint checks a small site the way a site owner would before submitting it:
// its robots.txt names an index, the index lists two sitemaps (giving one
// a <lastmod> older than its pages' dates), and lint
// prints every problem of the tree with its code and place, then a count
// by severity. The site is served on loopback.
package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/gositemap/sitemap"
)

func main() {
	files := map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /drafts/\nSitemap: HOST/sitemap-index.xml\n",
		"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>HOST/sitemap-pages.xml</loc><lastmod>2024-04-01</lastmod></sitemap>
  <sitemap><loc>HOST/sitemap-gone.xml</loc></sitemap>
</sitemapindex>`,
		"/sitemap-pages.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>HOST/</loc><lastmod>2024-05-01</lastmod><changefreq>Daily</changefreq></url>
  <url><loc>HOST/drafts/new-kettle</loc></url>
  <url><loc>HOST/tea pots</loc></url>
  <url><loc>https://elsewhere.example/page</loc></url>
</urlset>`,
	}
	// Another host, whose robots.txt does not list the sitemap.
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	files["/sitemap-pages.xml"] = strings.ReplaceAll(files["/sitemap-pages.xml"], "https://elsewhere.example", other.URL)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, strings.ReplaceAll(body, "HOST", "http://"+r.Host))
	}))
	defer srv.Close()

	s := sitemap.New().SetMultiThread(false)
	bySeverity := map[sitemap.Severity]int{}
	codes := map[sitemap.Code]bool{}
	for f := range s.Lint(context.Background(), srv.URL+"/sitemap-index.xml", nil, nil) {
		line := strings.ReplaceAll(f.String(), srv.URL, "http://site")
		line = strings.ReplaceAll(line, other.URL, "http://other")
		line = strings.ReplaceAll(line, other.Listener.Addr().String(), "other")
		fmt.Println(strings.ReplaceAll(line, srv.Listener.Addr().String(), "site"))
		bySeverity[f.Severity]++
		codes[f.Code] = true
	}
	fmt.Printf("%d errors, %d warnings, %d notes\n",
		bySeverity[sitemap.SeverityError], bySeverity[sitemap.SeverityWarning], bySeverity[sitemap.SeverityInfo])
	for _, c := range []sitemap.Code{sitemap.CodeHTTPStatus, sitemap.CodeChangefreqInvalid, sitemap.CodeRobotsDisallowed,
		sitemap.CodeLocNotEscaped, sitemap.CodeLocOtherHost, sitemap.CodeIndexLastmodBehind} {
		if !codes[c] {
			fmt.Fprintln(os.Stderr, "lint: expected a finding of", c)
			os.Exit(1)
		}
	}
}
