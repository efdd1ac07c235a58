// MaxValidationErrors bounds how many validation errors a call records.
// Unlike the other limits, it takes nothing off what the call reads: the
// URLs are all there, only the errors beyond the limit are not, and one
// *ParseError wrapping ErrMaxValidationErrors says so.
package main

import (
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	// 100 good entries, and 1,000 without a location.
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range 1100 {
		if i%11 == 0 {
			fmt.Fprintf(&b, "<url><loc>https://example.com/page-%d</loc></url>", i)
		} else {
			b.WriteString("<url><loc></loc></url>")
		}
	}
	b.WriteString("</urlset>")
	content := b.String()

	s, err := sitemap.New().SetMaxValidationErrors(5).Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		log.Fatal(err)
	}
	var invalid int
	for _, e := range s.GetErrors() {
		var valErr *sitemap.ValidationError
		switch {
		case errors.As(e, &valErr):
			invalid++
		case errors.Is(e, sitemap.ErrMaxValidationErrors):
			fmt.Println("error:", e)
		}
	}
	fmt.Println(s.GetURLCount(), "URLs,", invalid, "validation errors recorded")
	demo.Expect(s.GetURLCount() == 100 && invalid == 5 && s.GetErrorsCount() == 6, "100 URLs, 5 validation errors and the limit error")
}
