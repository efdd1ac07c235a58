// Report makes the HTML report of a small site, served on loopback, from
// one call of Lint: the URLs go to the report through EachURL (the call
// keeps none), the findings through the loop, and the page is rendered
// with the tree of the call. It prints what the page shows; given a file
// name, it writes the page there too (go run ./examples/report report.html).
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
	"github.com/gositemap/sitemap/report"
)

func main() {
	site := map[string]string{
		"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>HOST/sitemap-pages.xml</loc></sitemap>
  <sitemap><loc>HOST/sitemap-gone.xml</loc></sitemap>
</sitemapindex>`,
		"/sitemap-pages.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>HOST/</loc><lastmod>2024-04-01</lastmod></url>
  <url><loc>HOST/tea pots</loc><lastmod>2024-05-12</lastmod></url>
  <url><loc>HOST/kettles</loc><lastmod>2024-05-30</lastmod><priority>2</priority></url>
  <url><loc>HOST/cups</loc></url>
</urlset>`,
	}
	srv := demo.Serve(site)
	defer srv.Close()
	for path, doc := range site {
		site[path] = strings.ReplaceAll(doc, "HOST", srv.URL)
	}

	rep := &report.Report{Title: "The sitemaps of the tea shop"}
	s := sitemap.New().SetMultiThread(false)
	o := &sitemap.LintOptions{NoRobots: true, EachURL: rep.AddURL}
	for f := range s.Lint(context.Background(), srv.URL+"/sitemap-index.xml", nil, o) {
		rep.AddFinding(f)
	}
	var page bytes.Buffer
	if err := rep.WriteHTML(&page, s.GetDocuments()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	html := page.String()
	cards := map[string]string{}
	for _, m := range regexp.MustCompile(`<p class="label">([^<]*)</p><p class="value">([^<]*)</p>`).FindAllStringSubmatch(html, -1) {
		cards[m[1]] = m[2]
		fmt.Printf("%-16s %s\n", m[1], m[2])
	}
	codes := regexp.MustCompile(`<a href="#code-([a-z-]+)">`).FindAllStringSubmatch(html, -1)
	for _, m := range codes {
		fmt.Println("finding:", m[1])
	}
	bars := strings.Count(html, `<rect class="bar"`)
	fmt.Printf("%d bars in the histogram; the page is %d bytes, and the instance kept %d URLs\n", bars, page.Len(), s.GetURLCount())

	demo.Expect(cards["Documents"] == "3" && cards["URLs"] == "4" && cards["Without lastmod"] == "25.0%" &&
		cards["Newest lastmod"] == "2024-05-30" && len(codes) == 3 && bars == 2 && s.GetURLCount() == 0 &&
		!strings.Contains(html, "<script"),
		"3 documents, 4 URLs, one without lastmod, 3 codes, April and May, no URL kept")
	if len(os.Args) > 1 {
		if err := os.WriteFile(os.Args[1], page.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("written to", os.Args[1])
	}
}
