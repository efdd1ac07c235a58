// Errors shows the four error types and how to tell them apart with
// errors.As, and the errors of limits, which errors.Is tells by their
// sentinel.
package main

import (
	"errors"
	"fmt"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	srv := demo.Serve(map[string]string{
		"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/pages.xml</loc></sitemap>
  <sitemap><loc>/missing.xml</loc></sitemap>
  <sitemap><loc>/broken.xml</loc></sitemap>
</sitemapindex>`,
		"/pages.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>ftp://example.com/file</loc></url>
  <url><loc>https://example.com/</loc></url>
  <url><loc>https://example.com/about</loc></url>
</urlset>`,
		"/broken.xml": `<html><body>Moved</body></html>`,
	})
	defer srv.Close()

	// The sitemap index is read, so Parse returns no error; what went
	// wrong further on is in GetErrors. At most 1 URL is kept: the rest of
	// the sitemap that reaches the limit is left unread, and the sitemaps
	// after it are not fetched.
	s, err := sitemap.New().SetMaxURLs(1).SetMultiThread(false).Parse(srv.URL+"/sitemap-index.xml", nil)
	fmt.Println("Parse returned:", err)

	counts := map[string]int{}
	for _, err := range s.GetErrors() {
		var (
			netErr   *sitemap.NetworkError
			parseErr *sitemap.ParseError
			valErr   *sitemap.ValidationError
		)
		switch {
		case errors.As(err, &netErr):
			counts["network"]++
			fmt.Printf("could not fetch %s: %v\n", netErr.URL, netErr.Err)
		case errors.Is(err, sitemap.ErrMaxURLs):
			counts["limit"]++
			fmt.Println("the URLs are not all there:", err)
		case errors.As(err, &parseErr):
			counts["parse"]++
			fmt.Printf("could not parse %s: %v\n", parseErr.URL, parseErr.Err)
		case errors.As(err, &valErr):
			counts["validation"]++
			fmt.Printf("rejected %s: %v\n", valErr.URL, valErr.Err)
		}
	}
	demo.Expect(err == nil && s.GetURLCount() == 1, "no error from Parse, and 1 URL")
	demo.Expect(counts["validation"] == 1 && counts["limit"] == 1, "the ftp URL rejected, then the URL limit reached")

	// Without the URL limit, every sitemap is read.
	s, _ = sitemap.New().SetMultiThread(false).Parse(srv.URL+"/sitemap-index.xml", nil)
	var netErrs, parseErrs int
	for err := range s.Errors() {
		var netErr *sitemap.NetworkError
		var parseErr *sitemap.ParseError
		if errors.As(err, &netErr) {
			netErrs++
		}
		if errors.As(err, &parseErr) {
			parseErrs++
		}
	}
	fmt.Println("without the limit:", s.GetURLCount(), "URLs,", netErrs, "network error,", parseErrs, "parse error")
	demo.Expect(s.GetURLCount() == 2 && netErrs == 1 && parseErrs == 1, "2 URLs, the missing and the broken sitemap reported")

	// A setting that is rejected is a *ConfigError; while one is
	// outstanding, Parse parses nothing and returns an untyped error.
	s = sitemap.New().SetMaxDepth(0)
	_, err = s.Parse(srv.URL+"/sitemap-index.xml", nil)
	var cfgErr *sitemap.ConfigError
	errors.As(s.GetErrors()[0], &cfgErr)
	fmt.Printf("config error in %s: %v\n", cfgErr.Field, cfgErr.Err)
	fmt.Println("Parse returned:", err)
	demo.Expect(cfgErr.Field == "maxDepth" && err != nil && !errors.As(err, &cfgErr), "a *ConfigError, and an untyped error from Parse")
}
