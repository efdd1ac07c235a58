// Store reads only what changed since the last run. A state file keeps the
// ETag and Last-Modified of every sitemap; the next run sends them back,
// the server answers 304 Not Modified for what has not changed, and only
// the sitemap that changed is read again.
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
	"github.com/gositemap/sitemap/store"
)

func main() {
	var version, bodies atomic.Int64 // the version of /news.xml; the bodies sent
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		etag := fmt.Sprintf(`"%s"`, r.URL.Path)
		if r.URL.Path == "/news.xml" {
			etag = fmt.Sprintf(`"news-%d"`, version.Load())
		}
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		bodies.Add(1)
		switch r.URL.Path {
		case "/index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%[1]s/products.xml</loc></sitemap><sitemap><loc>%[1]s/news.xml</loc></sitemap></sitemapindex>`, srv.URL)
		case "/products.xml":
			fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/teapot</loc></url></urlset>`)
		case "/news.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/news/%d</loc></url></urlset>`, version.Load())
		}
	}))
	defer srv.Close()

	dir, err := os.MkdirTemp("", "sitemap-state")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	state := filepath.Join(dir, "state.json")

	var got []string
	for run := 1; run <= 3; run++ {
		if run == 3 {
			version.Add(1) // the news sitemap changes
		}
		bodies.Store(0)
		// Each run is a new instance, as a crawler started again would be:
		// what the last run learnt is in the file.
		f, err := store.OpenFile(state, nil)
		if err != nil {
			log.Fatal(err)
		}
		s := sitemap.New().SetStore(f)
		if _, err := s.Parse(srv.URL+"/index.xml", nil); err != nil {
			log.Fatal(err)
		}
		var statuses []string
		for _, d := range s.GetDocuments() {
			statuses = append(statuses, fmt.Sprintf("%s=%s", d.URL[len(srv.URL):], d.Status))
		}
		line := fmt.Sprintf("run %d: %d bodies, %d URLs: %s", run, bodies.Load(), s.GetURLCount(), strings.Join(statuses, " "))
		fmt.Println(line)
		got = append(got, line)
	}
	demo.Expect(strings.HasPrefix(got[1], "run 2: 0 bodies, 0 URLs") && strings.HasPrefix(got[2], "run 3: 1 bodies, 1 URLs"),
		"nothing read on the second run, the changed sitemap alone on the third")

	// The file keeps each record under the request key of its sitemap,
	// which a program reads the record by: news.xml's holds the ETag of
	// its second version.
	f, err := store.OpenFile(state, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	rec, ok, err := f.Get(context.Background(), store.RequestKey(srv.URL+"/news.xml"))
	fmt.Printf("record of /news.xml: ETag %s\n", rec.ETag)
	demo.Expect(ok && err == nil && rec.ETag == `"news-1"`, "the record of news.xml holds the ETag of its second version")
}
