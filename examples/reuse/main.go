// Reuse uses one instance for several calls. Every call starts from a
// clean state, so the results describe the latest call only; a *ConfigError
// belongs to the instance and stays until the setting is given a valid
// value.
package main

import (
	"errors"
	"fmt"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	srv := demo.Serve(map[string]string{
		"/shop/sitemap.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url></urlset>`,
		"/blog/sitemap.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/blog/</loc></url></urlset>`,
	})
	defer srv.Close()

	s := sitemap.New()
	for _, path := range []string{"/shop/sitemap.xml", "/blog/sitemap.xml", "/gone/sitemap.xml"} {
		if _, err := s.Parse(srv.URL+path, nil); err != nil {
			fmt.Printf("%s: failed, %d URLs, %d errors\n", path, s.GetURLCount(), s.GetErrorsCount())
			continue
		}
		fmt.Printf("%s: %d URLs, %d errors\n", path, s.GetURLCount(), s.GetErrorsCount())
	}
	demo.Expect(s.GetURLCount() == 0 && s.GetErrorsCount() == 1, "the last call's results only")

	// A rejected setting: nothing is parsed until it is set right.
	s.SetMaxDepth(0)
	_, err := s.Parse(srv.URL+"/shop/sitemap.xml", nil)
	fmt.Println("with max depth 0:", err)
	var cfgErr *sitemap.ConfigError
	demo.Expect(errors.As(s.GetErrors()[0], &cfgErr) && s.GetURLCount() == 0, "a *ConfigError, and nothing parsed")

	s.SetMaxDepth(5) // clears the error recorded for maxDepth
	_, err = s.Parse(srv.URL+"/shop/sitemap.xml", nil)
	fmt.Printf("with max depth 5: %v, %d URLs, %d errors\n", err, s.GetURLCount(), s.GetErrorsCount())
	demo.Expect(err == nil && s.GetURLCount() == 2 && s.GetErrorsCount() == 0, "parsed again")
}
