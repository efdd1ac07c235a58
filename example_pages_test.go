package sitemap_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gositemap/sitemap"
)

// Lint with CheckPages requests a sample of the pages the sitemaps list
// and reports what their answers say: here a page gone, one that moved,
// and one that asks search engines to leave it out. The pages are asked
// at one request a second a host unless a rate is set, as here.
func ExampleS_Lint_checkPages() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := "http://" + r.Host
		switch r.URL.Path {
		case "/sitemap.xml":
			fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for _, p := range []string{"/", "/gone", "/old", "/draft"} {
				fmt.Fprintf(w, "<url><loc>%s%s</loc></url>", host, p)
			}
			fmt.Fprint(w, `</urlset>`)
		case "/old":
			http.Redirect(w, r, "/", http.StatusMovedPermanently)
		case "/draft":
			w.Header().Set("X-Robots-Tag", "noindex")
		case "/":
			fmt.Fprint(w, "<html><head><title>Home</title></head><body></body></html>")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	s := sitemap.New().SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 100}})
	o := &sitemap.LintOptions{CheckPages: 10, NoRobots: true}
	for f := range s.Lint(context.Background(), srv.URL+"/sitemap.xml", nil, o) {
		fmt.Println(f.Severity, f.Code, strings.TrimPrefix(f.URL, srv.URL), strings.ReplaceAll(f.Message, srv.URL, ""))
	}
	// Unordered output:
	// error page-status /gone the page answers 404 Not Found
	// warning page-redirect /old the page redirects (301 Moved Permanently) to /, which answers 200 OK
	// error page-noindex /draft its X-Robots-Tag header says noindex: search engines leave the page out
}
