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
)

// redirectSite is a loopback site whose listed sitemaps redirect: its
// index lists a and b, which redirect to t (listed nowhere), s, and c,
// which redirects to s; the index i2 it lists too lists d, which
// redirects to t, and e, which redirects to s.
func redirectSite(t testing.TB) *httptest.Server {
	urlset := func(name string) string {
		var b bytes.Buffer
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := range 3 {
			fmt.Fprintf(&b, "<url><loc>https://r.example/%s/%d</loc></url>", name, i)
		}
		b.WriteString("</urlset>")
		return b.String()
	}
	var srv *httptest.Server
	index := func(names ...string) string {
		var b bytes.Buffer
		b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, n := range names {
			fmt.Fprintf(&b, "<sitemap><loc>%s/%s.xml</loc></sitemap>", srv.URL, n)
		}
		b.WriteString("</sitemapindex>")
		return b.String()
	}
	redirects := map[string]string{"/a.xml": "/t.xml", "/b.xml": "/t.xml", "/c.xml": "/s.xml", "/d.xml": "/t.xml", "/e.xml": "/s.xml"}
	// Started once srv is set: its handler reads srv.URL.
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if to, ok := redirects[r.URL.Path]; ok {
			http.Redirect(w, r, to, http.StatusMovedPermanently)
			return
		}
		switch r.URL.Path {
		case "/index.xml":
			fmt.Fprint(w, index("a", "b", "s", "c", "i2"))
		case "/i2.xml":
			fmt.Fprint(w, index("d", "e"))
		case "/t.xml", "/s.xml":
			fmt.Fprint(w, urlset(strings.TrimSuffix(r.URL.Path[1:], ".xml")))
		default:
			http.NotFound(w, r)
		}
	}))
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// REDIRECT-10: listed sitemaps that redirect to one sitemap, or to one
// listed too, are read once by the fleet as by the library: sitemap-fleet
// run prints what sitemap prints (each URL once), in text (the sitemap a
// URL names in jsonl is the first of the spellings to reach it, in the
// fleet as in the library), and its summary counts the duplicates apart.
func TestRunRedirectedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the commands")
	}
	fleetBin, sitemapBin := buildCommand(t), buildSitemap(t)
	srv := redirectSite(t)
	root := srv.URL + "/index.xml"
	sorted := func(b []byte) []string {
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		slices.Sort(lines)
		return lines
	}
	want, err := exec.Command(sitemapBin, "-format", "text", root).Output()
	if err != nil {
		t.Fatalf("sitemap: %v", err)
	}
	if n := len(sorted(want)); n != 6 {
		t.Fatalf("sitemap printed %d URLs, want 6:\n%s", n, want)
	}
	for range 3 { // which duplicate is read first varies
		var stderr bytes.Buffer
		cmd := exec.Command(fleetBin, "run", "-dir", t.TempDir(), "-format", "text", root)
		cmd.Stderr = &stderr
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("run: %v\n%s", err, stderr.String())
		}
		sameLines(t, sorted(got), sorted(want))
		if !strings.Contains(stderr.String(), "Summary: 4 documents read, 0 documents failed, 6 URLs, 0 errors") {
			t.Errorf("stderr %q", stderr.String())
		}
	}
}

// REDIRECT-10, through the Go API: each URL of the redirect site once,
// and status counts the four documents redirected to a sitemap of the
// crawl claimed first as duplicates, not as read.
func TestRedirectedOnce(t *testing.T) {
	_, f := startNode(t)
	srv := redirectSite(t)
	startWorkers(t, f, 2, WorkerOptions{Concurrency: 4})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	crawl, err := f.Submit(ctx, DefaultCrawl(), srv.URL+"/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	lines, errs := collect(t, ctx, f, crawl)
	var got []string
	for _, l := range lines {
		u, err := ParseLine([]byte(l))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, u.Loc)
	}
	slices.Sort(got)
	var want []string
	for _, name := range []string{"s", "t"} {
		for i := range 3 {
			want = append(want, fmt.Sprintf("https://r.example/%s/%d", name, i))
		}
	}
	sameLines(t, got, want)
	st, err := f.Status(ctx, crawl)
	if err != nil || len(errs) > 0 || st.Done != 4 || st.Duplicate != 4 || st.URLs != 6 {
		t.Errorf("status %+v, %v, errors %v; want 4 read, 4 duplicates, 6 URLs", st, err, errs)
	}
}
