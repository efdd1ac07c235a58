package fleet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// libraryOutput returns what the library reads from root with the limits
// of c: the number of URLs and of errors of each limit.
func libraryOutput(t *testing.T, root string, c Crawl) (urls int, limitErrs map[string]int) {
	t.Helper()
	limitErrs = map[string]int{}
	s := sitemap.New().SetMaxURLs(c.MaxURLs).SetMaxSitemaps(c.MaxSitemaps)
	for _, err := range s.Stream(context.Background(), root, nil) {
		switch {
		case err == nil:
			urls++
		case errors.Is(err, sitemap.ErrMaxURLs):
			limitErrs["urls"]++
		case errors.Is(err, sitemap.ErrMaxSitemaps):
			limitErrs["sitemaps"]++
		default:
			t.Fatalf("library: %v", err)
		}
	}
	return urls, limitErrs
}

// limitsOf counts the errors of the limits among errs.
func limitsOf(t *testing.T, errs []error) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, err := range errs {
		switch {
		case strings.Contains(err.Error(), "URLs"):
			n["urls"]++
		case strings.Contains(err.Error(), "sitemaps"):
			n["sitemaps"]++
		default:
			t.Errorf("error: %v", err)
		}
	}
	return n
}

// The limits of a crawl, counted across the fleet, give what sitemap
// prints with the same limits (SPEC MAXURLS, MAXSITEMAPS): as many URLs,
// each a URL of the site once, and one error of the limit, with documents
// read at once by several workers, which take room a batch at a time.
func TestLimitsAsTheLibrary(t *testing.T) {
	_, f := startNode(t)
	s := newSite(t, 24, 600, false)
	startWorkers(t, f, 3, WorkerOptions{Concurrency: 4})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	root := s.URL + "/index.xml"
	all := reference(t, root)
	for _, tc := range []struct{ urls, sitemaps int }{{2500, 0}, {0, 7}, {4000, 9}} {
		c := DefaultCrawl()
		c.MaxURLs, c.MaxSitemaps = tc.urls, tc.sitemaps
		name, err := f.Submit(ctx, c, root)
		if err != nil {
			t.Fatal(err)
		}
		got, errs := collect(t, ctx, f, name)
		wantURLs, wantErrs := libraryOutput(t, root, c)
		if len(got) != wantURLs || !maps(limitsOf(t, errs), wantErrs) {
			t.Errorf("limits %+v: %d URLs, errors %v; sitemap gives %d URLs, errors of limits %v", tc, len(got), errs, wantURLs, wantErrs)
		}
		if i := slices.IndexFunc(got, func(l string) bool { _, ok := slices.BinarySearch(all, l); return !ok }); i >= 0 {
			t.Errorf("limits %+v: a line not of the site: %s", tc, got[i])
		}
		if len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Errorf("limits %+v: a line twice", tc)
		}
	}
}

func maps(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A worker that dies after it took room under the URL limit for the
// first batch of each of its documents: the documents are delivered again
// to another worker, which finds the room they hold, and the output is as
// long as sitemap's with the same limit, with its one error.
func TestURLLimitRedelivered(t *testing.T) {
	_, f := startNode(t)
	const n, m = 4, 2500
	gate := make(chan struct{})
	var atGate atomic.Int64
	stalled := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/index.xml" {
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range n {
				fmt.Fprintf(w, "<sitemap><loc>http://%s/s/%d.xml</loc></sitemap>", r.Host, i)
			}
			fmt.Fprint(w, "</sitemapindex>")
			return
		}
		var i int
		fmt.Sscanf(r.URL.Path, "/s/%d.xml", &i)
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for j := range m {
			if j == 1200 {
				// More than a batch is out: the first worker has taken
				// room for it. It waits here until it is stopped.
				w.(http.Flusher).Flush()
				select {
				case <-gate:
				default:
					if atGate.Add(1) == n {
						once.Do(func() { close(stalled) })
					}
					select {
					case <-gate:
					case <-r.Context().Done():
						return
					}
				}
			}
			fmt.Fprintf(w, "<url><loc>https://w3.example/%d/%d</loc></url>", i, j)
		}
		fmt.Fprint(w, "</urlset>")
	}))
	t.Cleanup(func() {
		select {
		case <-gate:
		default:
			close(gate)
		}
		srv.Close()
	})
	root := srv.URL + "/index.xml"
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := DefaultCrawl()
	c.MaxURLs = 9000
	name, err := f.Submit(ctx, c, root)
	if err != nil {
		t.Fatal(err)
	}
	// The first worker reads the four sitemaps at once, and is stopped
	// once each has waited at the gate.
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { f.Work(wctx, WorkerOptions{Name: "dies", Concurrency: n, Logf: t.Logf}) })
	select {
	case <-stalled:
	case <-ctx.Done():
		t.Fatal("the first worker did not reach the gate")
	}
	// The first batch of each is published (its room taken) before it
	// waits: the flush of 1,200 URLs holds more than a batch.
	for {
		counts, err := f.count(ctx, name, func(*counters) bool { return false })
		if err != nil {
			t.Fatal(err)
		}
		if counts.URLs == n*batchSize {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("room taken %d, want %d", counts.URLs, n*batchSize)
		case <-time.After(10 * time.Millisecond):
		}
	}
	stop()
	wg.Wait()
	close(gate)
	startWorkers(t, f, 2, WorkerOptions{Concurrency: 2})
	got, errs := collect(t, ctx, f, name)
	wantURLs, wantErrs := libraryOutput(t, root, c)
	if len(got) != wantURLs || !maps(limitsOf(t, errs), wantErrs) {
		t.Errorf("%d URLs, errors %v; sitemap gives %d URLs, errors of limits %v", len(got), errs, wantURLs, wantErrs)
	}
	if len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Error("a line twice")
	}
	st, err := f.Status(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if st.Redelivered < n {
		t.Errorf("%d jobs delivered again, want at least %d", st.Redelivered, n)
	}
}

// The sitemap limit counts the sitemaps listed across the crawl, not
// those of each document: an index of two indexes of six sitemaps each,
// read with limits that one index, or both, go past, gives what sitemap
// gives, with one error of the limit.
func TestSitemapLimitAcrossIndexes(t *testing.T) {
	_, f := startNode(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := "http://" + r.Host
		switch r.URL.Path {
		case "/index.xml", "/a.xml", "/b.xml":
			fmt.Fprint(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			if r.URL.Path == "/index.xml" {
				fmt.Fprintf(w, "<sitemap><loc>%[1]s/a.xml</loc></sitemap><sitemap><loc>%[1]s/b.xml</loc></sitemap>", host)
			} else {
				for i := range 6 {
					fmt.Fprintf(w, "<sitemap><loc>%s/s/%s%d.xml</loc></sitemap>", host, r.URL.Path[1:2], i)
				}
			}
			fmt.Fprint(w, "</sitemapindex>")
			return
		}
		fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for j := range 10 {
			fmt.Fprintf(w, "<url><loc>https://w3.example%s/%d</loc></url>", r.URL.Path, j)
		}
		fmt.Fprint(w, "</urlset>")
	}))
	t.Cleanup(srv.Close)
	startWorkers(t, f, 2, WorkerOptions{Concurrency: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	root := srv.URL + "/index.xml"
	for _, max := range []int{4, 9, 14, 30} {
		c := DefaultCrawl()
		c.MaxSitemaps = max
		name, err := f.Submit(ctx, c, root)
		if err != nil {
			t.Fatal(err)
		}
		got, errs := collect(t, ctx, f, name)
		wantURLs, wantErrs := libraryOutput(t, root, c)
		if len(got) != wantURLs || !maps(limitsOf(t, errs), wantErrs) {
			t.Errorf("MaxSitemaps %d: %d URLs, errors %v; sitemap gives %d URLs, errors of limits %v", max, len(got), errs, wantURLs, wantErrs)
		}
	}
}
