// Redirect shows a sitemap reached through a redirect: it is located at
// the URL it was finally served from, so its relative locations are
// resolved against that URL and its errors name it.
package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	mux := http.NewServeMux()
	// The sitemap has moved to /v2/.
	mux.Handle("/sitemap.xml", http.RedirectHandler("/v2/sitemap.xml", http.StatusMovedPermanently))
	mux.HandleFunc("/v2/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>page</loc></url>
  <url><loc>/about</loc></url>
  <url><loc></loc></url>
</urlset>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	s, err := sitemap.New().Parse(srv.URL+"/sitemap.xml", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range s.GetURLs() {
		fmt.Println("URL:  ", u.Loc)
	}
	for _, e := range s.GetErrors() {
		fmt.Println("error:", e)
	}

	urls := s.GetURLs()
	demo.Expect(len(urls) == 2 && urls[0].Loc == srv.URL+"/v2/page" && urls[1].Loc == srv.URL+"/about",
		"the locations resolved against /v2/sitemap.xml")
	demo.Expect(s.GetErrorsCount() == 1 && s.GetErrors()[0].Error() == fmt.Sprintf(`validate "%s/v2/sitemap.xml": <loc> of an entry is empty or missing`, srv.URL),
		"the error naming /v2/sitemap.xml")
}
