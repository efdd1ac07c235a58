package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gositemap/sitemap"
)

// A Code is an error: the cause of a *ValidationError wraps the code of the
// rule the entry broke, which errors.Is tells, while the message stays the
// one the documentation gives. Lint lists the same failure under the same
// code.
func ExampleCode_Error() {
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/search?tags=summer|sale</loc></url>
  <url><loc>https://example.com/page</loc><priority>1.5</priority></url>
</urlset>`
	s := sitemap.New().SetStrict(true)
	s.ParseReader(context.Background(), "https://example.com/sitemap.xml", strings.NewReader(doc))
	for _, err := range s.GetErrors() {
		for _, code := range []sitemap.Code{sitemap.CodeLocNotEscaped, sitemap.CodePriorityInvalid} {
			if errors.Is(err, code) {
				fmt.Printf("%s (%s): %v\n", code, code.Severity(), err)
			}
		}
	}
	// Output:
	// loc-not-escaped (error): validate "https://example.com/search?tags=summer|sale": strict mode: URL contains the character '|', which it has to give as "%7C"
	// priority-invalid (error): validate "https://example.com/page": strict mode: <priority> value "1.5" is not between 0.0 and 1.0
}

// Severity tells how much a rule's failure weighs: an error breaks the
// protocol, a warning is what search engines frown on, info is a remark.
func ExampleCode_Severity() {
	for _, code := range []sitemap.Code{sitemap.CodeLocTooLong, sitemap.CodeDuplicateLoc} {
		fmt.Println(code, code.Severity())
	}
	// Output:
	// loc-too-long error
	// duplicate-loc warning
}
