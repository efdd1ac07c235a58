// Changes hands on only what changed since the last run: the URLs new,
// those whose lastmod moved, and those gone, with the sitemap that last
// listed them. A URL that moves from one sitemap to another is neither; a
// sitemap that fails leaves its URLs unknown, never gone. A selection in
// code keeps the product pages alone.
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
	"github.com/gositemap/sitemap/store"
)

func main() {
	// The site: an index of two urlsets, each page with its lastmod.
	var mu sync.Mutex
	pages := map[string][]string{
		"/a.xml": {"/products/teapot 2026-01-01", "/products/kettle 2026-01-01", "/products/cup 2026-01-01"},
		"/b.xml": {"/products/saucer 2026-01-01", "/about 2026-01-01"},
	}
	failing := ""
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == failing {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		if r.URL.Path == "/index.xml" {
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/a.xml</loc></sitemap><sitemap><loc>%[1]s/b.xml</loc></sitemap></sitemapindex>`, srv.URL)
			return
		}
		fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, p := range pages[r.URL.Path] {
			loc, lastmod, _ := strings.Cut(p, " ")
			fmt.Fprintf(w, "<url><loc>https://example.com%s</loc><lastmod>%s</lastmod></url>", loc, lastmod)
		}
		fmt.Fprint(w, `</urlset>`)
	}))
	defer srv.Close()

	dir, err := os.MkdirTemp("", "sitemap-changes")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	state := filepath.Join(dir, "state")

	run := func() []string {
		f, err := store.OpenFile(state, nil)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		s := sitemap.New().SetStore(f).
			SetIncremental(sitemap.Incremental{OnlyChanges: true, MaxGoneShare: 0.5}).
			SetSelection(sitemap.Selection{KeepURL: func(u sitemap.URL) bool { return strings.Contains(u.Loc, "/products/") }})
		var lines []string
		for u, err := range s.Stream(context.Background(), srv.URL+"/index.xml", nil) {
			if err != nil {
				fmt.Println("error:", err)
				continue
			}
			mark := map[sitemap.Change]string{sitemap.ChangeNew: "+", sitemap.ChangeLastMod: "~", sitemap.ChangeGone: "-"}[u.Source.Change()]
			lines = append(lines, fmt.Sprintf("%s %s (%s)", mark, u.Loc, u.Source.URL()[len(srv.URL):]))
		}
		slices.Sort(lines)
		n := s.GetDocuments()[0].Changes
		fmt.Printf("%d new, %d changed, %d gone, %d unchanged, %d unknown\n", n.New, n.LastMod, n.Gone, n.Unchanged, n.Unknown)
		for _, l := range lines {
			fmt.Println(" ", l)
		}
		return lines
	}

	fmt.Println("first run:")
	first := run()
	demo.Expect(len(first) == 4, "every product page new on the first run")

	mu.Lock()
	pages["/a.xml"] = []string{"/products/teapot 2026-02-01", "/products/cup 2026-01-01", "/products/mug 2026-02-01"}
	pages["/b.xml"] = append(pages["/b.xml"], "/products/kettle 2026-01-01") // moved, not changed
	pages["/b.xml"] = slices.DeleteFunc(pages["/b.xml"], func(p string) bool { return strings.HasPrefix(p, "/products/saucer") })
	mu.Unlock()
	fmt.Println("second run:")
	second := run()
	demo.Expect(slices.Equal(second, []string{
		"+ https://example.com/products/mug (/a.xml)",
		"- https://example.com/products/saucer (/b.xml)",
		"~ https://example.com/products/teapot (/a.xml)",
	}), "the new mug, the teapot's new lastmod, the saucer gone, nothing of the kettle that moved")

	mu.Lock()
	failing = "/a.xml"
	mu.Unlock()
	fmt.Println("third run, a.xml failing:")
	third := run()
	demo.Expect(len(third) == 0, "nothing gone while a sitemap fails")
}
