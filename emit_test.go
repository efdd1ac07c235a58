package sitemap_test

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// TestStreamHandsOnWhatHasArrived: the URLs of a document are handed on in
// batches, but a batch does not wait for input that has not come: the loop
// gets the URLs of what the server has sent before it sends the rest (here
// the server waits for the loop to have them), plain or gzipped. What a
// document yields reaches the loop in order, a limit's error after the URLs
// before it.
func TestStreamHandsOnWhatHasArrived(t *testing.T) {
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			got3 := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var out io.Writer = w
				flush := func() { w.(http.Flusher).Flush() }
				if gz {
					z := gzip.NewWriter(w)
					defer z.Close()
					out = z
					flush = func() { z.Flush(); w.(http.Flusher).Flush() }
				}
				fmt.Fprintf(out, "<urlset %s>", xmlnsAttr)
				for i := range 3 {
					fmt.Fprintf(out, "<url><loc>/%d</loc></url>", i)
				}
				// More than the decode stage peeks at before it parses.
				fmt.Fprintf(out, "<!-- %s -->", strings.Repeat("x", 4<<10))
				flush()
				select {
				case <-got3:
				case <-r.Context().Done():
					return
				}
				fmt.Fprint(out, "<url><loc>/3</loc></url><url><loc>/4</loc></url></urlset>")
			}))
			defer srv.Close()

			for _, limit := range []int{0, 2} {
				s := sitemap.New().SetFetchTimeout(30)
				if limit > 0 {
					s.SetMaxURLs(limit)
				}
				var seen []string
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				for u, err := range s.Stream(ctx, srv.URL+"/sitemap.xml", nil) {
					if errors.Is(err, sitemap.ErrMaxURLs) {
						seen = append(seen, "ErrMaxURLs")
						continue
					} else if err != nil {
						seen = append(seen, "error: "+err.Error())
						continue
					}
					seen = append(seen, strings.TrimPrefix(u.Loc, srv.URL))
					if len(seen) == 3 {
						close(got3)
					}
				}
				cancel()
				want := []string{"/0", "/1", "/2", "/3", "/4"}
				if limit > 0 {
					want = []string{"/0", "/1", "ErrMaxURLs"}
				}
				if !slices.Equal(seen, want) {
					t.Errorf("limit %d: the loop got %q, want %q", limit, seen, want)
				}
				if limit == 0 {
					got3 = make(chan struct{}) // for the second request
				}
			}
		})
	}
}

// TestStreamBrokenDocumentURLsCount: the URLs a broken document handed on
// before its error count against the URL limit, as every URL the loop got.
func TestStreamBrokenDocumentURLsCount(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/index.xml":
			fmt.Fprintf(w, `<sitemapindex %s><sitemap><loc>/broken.xml</loc></sitemap><sitemap><loc>/good.xml</loc></sitemap></sitemapindex>`, xmlnsAttr)
		case "/broken.xml":
			fmt.Fprintf(w, `<urlset %s><url><loc>/b1</loc></url><url><loc>/b2</loc></url><url><loc>/b3`, xmlnsAttr)
		case "/good.xml":
			fmt.Fprintf(w, `<urlset %s><url><loc>/g1</loc></url><url><loc>/g2</loc></url><url><loc>/g3</loc></url></urlset>`, xmlnsAttr)
		}
	}))
	defer srv.Close()
	var got []string
	for u, err := range sitemap.New().SetMultiThread(false).SetMaxURLs(3).Stream(context.Background(), srv.URL+"/index.xml", nil) {
		var pe *sitemap.ParseError
		switch {
		case errors.Is(err, sitemap.ErrMaxURLs):
			got = append(got, "ErrMaxURLs")
		case errors.As(err, &pe):
			got = append(got, "ParseError "+strings.TrimPrefix(pe.URL, srv.URL))
		case err != nil:
			got = append(got, err.Error())
		default:
			got = append(got, strings.TrimPrefix(u.Loc, srv.URL))
		}
	}
	want := []string{"/b1", "/b2", "ParseError /broken.xml", "/g1", "ErrMaxURLs"}
	if !slices.Equal(got, want) {
		t.Errorf("the loop got %q, want %q", got, want)
	}
}
