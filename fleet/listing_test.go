package fleet

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/jsonline"
)

// listingSite is a site whose robots.txt names two indexes that list
// sitemaps in common, one under another spelling of its URL and with
// other dates, and a third index within the first: what a listing merges.
func listingSite(t testing.TB) *httptest.Server {
	var srv *httptest.Server
	index := func(entries ...string) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, e := range entries {
			b.WriteString("<sitemap>" + e + "</sitemap>")
		}
		b.WriteString("</sitemapindex>")
		return b.String()
	}
	loc := func(path, lastmod string) string {
		e := "<loc>" + srv.URL + path + "</loc>"
		if lastmod != "" {
			e += "<lastmod>" + lastmod + "</lastmod>"
		}
		return e
	}
	// Started once srv is set: its handler reads srv.URL.
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nSitemap: %s/a.xml\nSitemap: %s/b.xml\n", srv.URL, srv.URL)
		case "/a.xml":
			fmt.Fprint(w, index(loc("/s/1.xml", "2024-01-01"), loc("/s/2.xml", "2024-03-01T10:00:00Z"), loc("/s/3.xml", ""), loc("/c.xml", "2024-02-01")))
		case "/b.xml":
			upper := strings.Replace(srv.URL, "http://", "HTTP://", 1) // the same URL
			fmt.Fprint(w, index(loc("/s/1.xml", "2024-05-01"), loc("/s/2.xml", "2024-02-01"),
				"<loc>"+upper+"/s/3.xml</loc><lastmod>2023-12-31</lastmod>", loc("/s/4.xml", "")))
		case "/c.xml":
			fmt.Fprint(w, index(loc("/s/5.xml", "2024-04-01"), loc("/s/1.xml", "")))
		default:
			var i int
			if _, err := fmt.Sscanf(r.URL.Path, "/s/%d.xml", &i); err != nil {
				http.NotFound(w, r)
				return
			}
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://l.example/%d/a</loc></url><url><loc>https://l.example/%d/b</loc></url></urlset>`, i, i)
		}
	}))
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// referenceSitemaps returns the listing the library makes of root with
// the sitemap limit max, as the JSON lines of sitemap -sitemaps -format
// jsonl, sorted, and how many URLs it read.
func referenceSitemaps(t testing.TB, root string, max int) ([]string, int) {
	s := sitemap.New().SetMaxSitemaps(max)
	n := 0
	for _, err := range s.Stream(context.Background(), root, nil) {
		if err != nil {
			if max == 0 {
				t.Fatalf("reference: %v", err)
			}
			continue
		}
		n++
	}
	var lines []string
	for _, sm := range s.GetSitemaps() {
		var b bytes.Buffer
		if err := appendSitemapLine(&b, sitemapLine{Loc: sm.Loc, LastMod: jsonline.Date(sm.LastMod)}); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.TrimSuffix(b.String(), "\n"))
	}
	slices.Sort(lines)
	return lines, n
}

// A listing (Crawl.Sitemaps) lists what the library lists of the same
// root: each sitemap once, whatever the spelling of its URL, with the
// latest date a document gives it; within the sitemap limit; and hands on
// no URL, while it counts them.
func TestListing(t *testing.T) {
	_, f := startNode(t)
	srv := listingSite(t)
	startWorkers(t, f, 2, WorkerOptions{Concurrency: 3})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// With a limit, the listing is the first sitemaps found: those of one
	// index, as it lists them.
	for _, tc := range []struct {
		root string
		max  int
	}{{srv.URL + "/robots.txt", 0}, {srv.URL + "/a.xml", 2}} {
		root, max := tc.root, tc.max
		c := DefaultCrawl()
		c.Sitemaps, c.MaxSitemaps = true, max
		crawl, err := f.Submit(ctx, c, root)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for sm, err := range f.Sitemaps(ctx, crawl) {
			if err != nil {
				if max == 0 || !strings.Contains(err.Error(), "sitemaps reached") {
					t.Errorf("max %d: %v", max, err)
				}
				continue
			}
			got = append(got, string(sm.JSON))
		}
		slices.Sort(got)
		want, urls := referenceSitemaps(t, root, max)
		if max == 0 && len(want) != 8 || max > 0 && len(want) != max {
			t.Fatalf("the reference lists %d sitemaps: %q", len(want), want)
		}
		sameLines(t, got, want)
		for line, err := range f.Lines(ctx, crawl) {
			if _, ok := err.(*DocError); !ok {
				t.Errorf("max %d: a listing's output holds a URL: %s %v", max, line, err)
			}
		}
		st, err := f.Status(ctx, crawl)
		if err != nil {
			t.Fatal(err)
		}
		if st.URLs != int64(urls) {
			t.Errorf("max %d: %d URLs counted, the library read %d", max, st.URLs, urls)
		}
	}
}

// sitemap-fleet run -sitemaps prints what sitemap -sitemaps prints for the
// same URL, in each format (sorted, compared), and says how many it
// listed.
func TestRunSitemaps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the commands")
	}
	fleetBin, sitemapBin := buildCommand(t), buildSitemap(t)
	srv := listingSite(t)
	dir := t.TempDir()
	root := srv.URL + "/robots.txt"
	for _, format := range []string{"text", "jsonl", "csv"} {
		var stderr bytes.Buffer
		cmd := exec.Command(fleetBin, "run", "-dir", dir, "-sitemaps", "-format", format, root)
		cmd.Stderr = &stderr
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("run -format %s: %v\n%s", format, err, stderr.String())
		}
		want, err := exec.Command(sitemapBin, "-sitemaps", "-format", format, root).Output()
		if err != nil {
			t.Fatalf("sitemap -format %s: %v", format, err)
		}
		sorted := func(b []byte) []string {
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			slices.Sort(lines)
			return lines
		}
		sameLines(t, sorted(got), sorted(want))
		if !strings.Contains(stderr.String(), "Summary: 9 documents read, 0 documents failed, 10 URLs, 8 sitemaps listed, 0 errors") {
			t.Errorf("-format %s: stderr %q", format, stderr.String())
		}
	}
}

// status says what a listing counts: the URLs its documents read (none is
// handed on) and the sitemaps they list, each document's summed.
func TestListingStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := buildCommand(t)
	srv, err := StartServer(ServerOptions{Dir: t.TempDir(), Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	f := openFleet(t, srv, Options{AckWait: testAckWait})
	startWorkers(t, f, 1, WorkerOptions{})
	site := listingSite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := DefaultCrawl()
	c.Sitemaps = true
	crawl, err := f.Submit(ctx, c, site.URL+"/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range f.Sitemaps(ctx, crawl) {
		if err != nil {
			t.Fatal(err)
		}
	}
	// robots.txt lists 2, a.xml and b.xml 4 each, c.xml 2; 5 sitemaps of
	// 2 URLs are read.
	if st, err := f.Status(ctx, crawl); err != nil || st.Listed != 12 || st.URLs != 10 {
		t.Errorf("status %+v, %v; want 12 listed, 10 URLs", st, err)
	}
	out, err := exec.Command(bin, "status", "-nats", srv.ClientURL(), crawl).Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "; 10 URLs read, 12 sitemaps listed, 0 errors;") || strings.Contains(string(out), " out") {
		t.Errorf("status prints %q", out)
	}
}
