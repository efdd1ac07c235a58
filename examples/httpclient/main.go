// HTTPClient sets an HTTP client of one's own: here one whose transport
// adds the credentials a server asks for. The client is used as it is: its
// Timeout applies, and SetFetchTimeout does not.
package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context()) // a RoundTripper must not change the request it is given
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func main() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/members/</loc></url>
</urlset>`)
	}))
	defer srv.Close()

	// With the default client, the server turns the request away.
	_, err := sitemap.New().Parse(srv.URL+"/sitemap.xml", nil)
	fmt.Println("default client:", err)
	var netErr *sitemap.NetworkError
	demo.Expect(errors.As(err, &netErr), "a *NetworkError: 401 Unauthorized")

	client := &http.Client{
		Timeout:   30 * time.Second,
		Transport: &bearer{token: "s3cret", next: http.DefaultTransport},
	}
	s, err := sitemap.New().SetHTTPClient(client).Parse(srv.URL+"/sitemap.xml", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range s.GetURLs() {
		fmt.Println("own client:", u.Loc)
	}
	demo.Expect(s.GetURLCount() == 1, "1 URL with the credentials")
}
