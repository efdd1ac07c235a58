package sitemap_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gositemap/sitemap"
)

func TestSmoke(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nSitemap: %s/index.xml\n", srv.URL)
	})
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/a.xml</loc><lastmod>2024-01-02</lastmod></sitemap><sitemap><loc>/b.xml</loc></sitemap></sitemapindex>`)
	})
	mux.HandleFunc("/a.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>/p1</loc><lastmod>2024-01-15T10:30:00Z</lastmod><changefreq>Daily</changefreq><priority>0.5</priority><image:image><image:loc>/i.jpg</image:loc></image:image></url><url><loc>/p2</loc><lastmod>bad</lastmod></url><url></url></urlset>`)
	})
	mux.HandleFunc("/b.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "http://example.com/t1\nnot a url\nhttps://example.com/t2\n")
	})
	s, err := sitemap.New().Parse(srv.URL+"/robots.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range s.GetURLs() {
		t.Logf("%+v", u)
	}
	for _, sm := range s.GetSitemaps() {
		t.Logf("sitemap %+v", sm)
	}
	for _, e := range s.GetErrors() {
		t.Logf("err %v", e)
	}
	if s.GetURLCount() != 4 {
		t.Errorf("got %d URLs", s.GetURLCount())
	}
}
