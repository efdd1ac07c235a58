// Context cuts a call short with its context: the request under way ends,
// the sitemaps left are not fetched, the URLs collected until then are
// kept, and the call returns a *ParseError that wraps the context's error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	started := make(chan struct{}) // the slow sitemap was requested
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sitemap-index.xml":
			io.WriteString(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/fast.xml</loc></sitemap>
  <sitemap><loc>/slow.xml</loc></sitemap>
  <sitemap><loc>/never.xml</loc></sitemap>
</sitemapindex>`)
		case "/fast.xml":
			io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>`)
		case "/slow.xml":
			// This one does not answer until the client gives up.
			close(started)
			<-r.Context().Done()
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	// Cancel the call once the slow sitemap is under way, as a user who
	// presses Ctrl-C would; context.WithTimeout cuts a call the same way.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	s, err := sitemap.New().SetMultiThread(false).ParseContext(ctx, srv.URL+"/sitemap-index.xml", nil)

	fmt.Println("returned:", err)
	fmt.Println("cancelled:", errors.Is(err, context.Canceled))
	fmt.Println("URLs kept:", s.GetURLCount())
	for _, e := range s.GetErrors() {
		fmt.Println("error:", e)
	}

	var parseErr *sitemap.ParseError
	demo.Expect(errors.As(err, &parseErr) && errors.Is(err, context.Canceled), "a *ParseError wrapping context.Canceled")
	demo.Expect(s.GetURLCount() == 1, "the URL of the fast sitemap kept")
	// The request under way, and the call.
	demo.Expect(s.GetErrorsCount() == 2, "2 errors")
}
