package fleet_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/fleet"
)

// exampleSite serves an index of two sitemaps of two URLs each.
func exampleSite() *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/a.xml</loc></sitemap><sitemap><loc>%[1]s/b.xml</loc></sitemap></sitemapindex>`, srv.URL)
		case "/a.xml", "/b.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com%[1]s/1</loc></url><url><loc>https://example.com%[1]s/2</loc></url></urlset>`, r.URL.Path[:2])
		default:
			http.NotFound(w, r)
		}
	}))
	return srv
}

// exampleFleet starts an embedded server in a temporary directory and
// opens the fleet on it; stop ends both.
func exampleFleet() (f *fleet.Fleet, stop func()) {
	dir, err := os.MkdirTemp("", "fleet-example")
	if err != nil {
		log.Fatal(err)
	}
	srv, err := fleet.StartServer(fleet.ServerOptions{Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	nc, err := srv.Connect()
	if err != nil {
		log.Fatal(err)
	}
	f, err = fleet.Open(context.Background(), nc, fleet.Options{AckWait: 5 * time.Second})
	if err != nil {
		log.Fatal(err)
	}
	return f, func() {
		nc.Close()
		srv.Stop()
		os.RemoveAll(dir)
	}
}

// The whole of a crawl in one process: an embedded server, a worker, a
// crawl submitted, and its URLs read until it is done.
func ExampleStartServer() {
	site := exampleSite()
	defer site.Close()
	dir, _ := os.MkdirTemp("", "fleet-example")
	defer os.RemoveAll(dir)
	srv, err := fleet.StartServer(fleet.ServerOptions{Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Stop()
	nc, _ := srv.Connect()
	defer nc.Close()
	ctx := context.Background()
	f, err := fleet.Open(ctx, nc, fleet.Options{})
	if err != nil {
		log.Fatal(err)
	}
	wctx, stopWorker := context.WithCancel(ctx)
	defer stopWorker()
	go f.Work(wctx, fleet.WorkerOptions{})
	crawl, _ := f.Submit(ctx, fleet.DefaultCrawl(), site.URL+"/index.xml")
	var locs []string
	for u, err := range f.URLs(ctx, crawl) {
		if err == nil {
			locs = append(locs, u.Loc)
		}
	}
	slices.Sort(locs)
	fmt.Println(locs)
	// Output:
	// [https://example.com/a/1 https://example.com/a/2 https://example.com/b/1 https://example.com/b/2]
}

// Open creates the streams and buckets of the fleet, or checks those
// there, on a connection to any NATS server with JetStream from 2.9.10 on.
func ExampleOpen() {
	f, stop := exampleFleet()
	defer stop()
	crawls, err := f.Crawls(context.Background())
	fmt.Println(len(crawls), err)
	// Output:
	// 0 <nil>
}

// A crawl's settings are those of the library; limits count across the
// fleet, and the host limits hold for every worker together.
func ExampleDefaultCrawl() {
	c := fleet.DefaultCrawl()
	c.MaxHostConcurrency, c.HostRate = 4, 2
	c.Follow = []string{`/news/`}
	fmt.Println(c.Version == fleet.Version, c.MaxURLs == sitemap.DefaultMaxURLs, c.MaxHostConcurrency, c.HostRate)
	// Output:
	// true true 4 2
}

// Submit queues a crawl and returns its name at once; the workers read it.
func ExampleFleet_Submit() {
	f, stop := exampleFleet()
	defer stop()
	ctx := context.Background()
	c := fleet.DefaultCrawl()
	c.MaxURLs = 1000
	crawl, err := f.Submit(ctx, c, "https://example.com/sitemap.xml")
	st, _ := f.Status(ctx, crawl)
	fmt.Println(err, st.Queued, st.Finished)
	// Output:
	// <nil> 1 false
}

// Work runs a worker until its context ends; any number of them, on any
// machines, share the crawls of the server.
func ExampleFleet_Work() {
	site := exampleSite()
	defer site.Close()
	f, stop := exampleFleet()
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- f.Work(ctx, fleet.WorkerOptions{Name: "example", Concurrency: 4}) }()
	crawl, _ := f.Submit(ctx, fleet.DefaultCrawl(), site.URL+"/index.xml")
	n := 0
	for _, err := range f.URLs(ctx, crawl) {
		if err == nil {
			n++
		}
	}
	cancel()
	fmt.Println(n, <-done)
	// Output:
	// 4 <nil>
}

// URLs hands on a crawl's URLs as the workers publish them, and the
// errors of its documents as *DocError, until the crawl is done.
func ExampleFleet_URLs() {
	site := exampleSite()
	defer site.Close()
	f, stop := exampleFleet()
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.Work(ctx, fleet.WorkerOptions{})
	crawl, _ := f.Submit(ctx, fleet.DefaultCrawl(), site.URL+"/a.xml", site.URL+"/missing.xml")
	for u, err := range f.URLs(ctx, crawl) {
		if de, ok := err.(*fleet.DocError); ok {
			fmt.Println(de.Type)
			continue
		}
		fmt.Println(u.Loc, u.Sitemap == site.URL+"/a.xml")
	}
	// Unordered output:
	// https://example.com/a/1 true
	// https://example.com/a/2 true
	// NetworkError
}

// Status counts a crawl's documents, its URLs and the jobs delivered again.
func ExampleFleet_Status() {
	site := exampleSite()
	defer site.Close()
	f, stop := exampleFleet()
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.Work(ctx, fleet.WorkerOptions{})
	crawl, _ := f.Submit(ctx, fleet.DefaultCrawl(), site.URL+"/index.xml")
	for range f.URLs(ctx, crawl) {
	}
	st, _ := f.Status(ctx, crawl)
	fmt.Println(st.Done, st.Failed, st.URLs, st.Finished)
	// Output:
	// 3 0 4 true
}

// Cancel ends a crawl: what is queued is dropped.
func ExampleFleet_Cancel() {
	f, stop := exampleFleet()
	defer stop()
	ctx := context.Background()
	crawl, _ := f.Submit(ctx, fleet.DefaultCrawl(), "https://example.com/sitemap.xml")
	fmt.Println(f.Cancel(ctx, crawl))
	st, _ := f.Status(ctx, crawl)
	fmt.Println(st.Cancelled, st.Finished)
	// Output:
	// <nil>
	// true true
}

// Crawls lists the crawls the fleet keeps.
func ExampleFleet_Crawls() {
	f, stop := exampleFleet()
	defer stop()
	ctx := context.Background()
	f.Submit(ctx, fleet.DefaultCrawl(), "https://example.com/sitemap.xml")
	crawls, _ := f.Crawls(ctx)
	fmt.Println(len(crawls))
	// Output:
	// 1
}

// The store of a crawl's State is the library's Store on a bucket: an
// instance of one's own can share it with the fleet.
func ExampleFleet_Store() {
	f, stop := exampleFleet()
	defer stop()
	st, _ := f.Store("news")
	ctx := context.Background()
	st.Put(ctx, "https://example.com/sitemap.xml", sitemap.Record{ETag: `"v1"`})
	r, ok, _ := st.Get(ctx, "https://example.com/sitemap.xml")
	fmt.Println(r.ETag, ok)
	s := sitemap.New().SetStore(st)
	fmt.Println(s.GetStore() == st)
	// Output:
	// "v1" true
	// true
}

// Connect reaches the server in process when it listens on no port, as
// sitemap-fleet run has it.
func ExampleServer_Connect() {
	dir, _ := os.MkdirTemp("", "fleet-example")
	defer os.RemoveAll(dir)
	srv, err := fleet.StartServer(fleet.ServerOptions{Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Stop()
	nc, err := srv.Connect()
	fmt.Println(err, nc.IsConnected())
	nc.Close()
	// Output:
	// <nil> true
}

// A record larger than the largest message of the server is kept in parts
// and read back whole.
func ExampleStore_Put() {
	f, stop := exampleFleet()
	defer stop()
	st, _ := f.Store("big")
	ctx := context.Background()
	var r sitemap.Record
	for i := range 30000 {
		r.Children = append(r.Children, sitemap.StoredChild{Loc: fmt.Sprintf("https://example.com/sitemap-%d.xml", i)})
	}
	fmt.Println(st.Put(ctx, "https://example.com/index.xml", r))
	got, ok, _ := st.Get(ctx, "https://example.com/index.xml")
	fmt.Println(len(got.Children), ok)
	// Output:
	// <nil>
	// 30000 true
}

// Get reports false for a sitemap no crawl of the State read whole.
func ExampleStore_Get() {
	f, stop := exampleFleet()
	defer stop()
	st, _ := f.Store("news")
	_, ok, err := st.Get(context.Background(), "https://example.com/never.xml")
	fmt.Println(ok, err)
	// Output:
	// false <nil>
}

// The errors of a crawl's documents come as *DocError: the name of the
// library's type, and the message.
func ExampleDocError_Error() {
	err := &fleet.DocError{Type: "NetworkError", Message: `fetch "https://example.com/gone.xml": status 404`}
	fmt.Println(err.Type+":", err)
	// Output:
	// NetworkError: fetch "https://example.com/gone.xml": status 404
}

// Stop shuts the embedded server down once its state is written out.
func ExampleServer_Stop() {
	dir, _ := os.MkdirTemp("", "fleet-example")
	defer os.RemoveAll(dir)
	srv, err := fleet.StartServer(fleet.ServerOptions{Dir: dir, Listen: "127.0.0.1:0"})
	if err != nil {
		log.Fatal(err)
	}
	srv.Stop()
	fmt.Println(srv.Running())
	// Output:
	// false
}

// Lines hands on each URL as its line of "sitemap -format jsonl", for a
// reader that writes them as they are; ParseLine reads one.
func ExampleFleet_Lines() {
	site := exampleSite()
	defer site.Close()
	f, stop := exampleFleet()
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.Work(ctx, fleet.WorkerOptions{})
	crawl, _ := f.Submit(ctx, fleet.DefaultCrawl(), site.URL+"/a.xml")
	for line, err := range f.Lines(ctx, crawl) {
		if err == nil {
			u, _ := fleet.ParseLine(line)
			fmt.Println(u.Loc)
		}
	}
	// Unordered output:
	// https://example.com/a/1
	// https://example.com/a/2
}

func ExampleParseLine() {
	u, err := fleet.ParseLine([]byte(`{"loc":"https://example.com/a","lastmod":"2024-01-15T00:00:00Z","changefreq":null,"priority":0.5,"sitemap":"https://example.com/sitemap.xml"}`))
	fmt.Println(u.Loc, *u.LastMod, *u.Priority, u.ChangeFreq == nil, u.Sitemap, err)
	// Output:
	// https://example.com/a 2024-01-15T00:00:00Z 0.5 true https://example.com/sitemap.xml <nil>
}

// Change detection across the fleet: with a State and Changes, each URL
// says what became of it since the last crawl of the same roots under
// that State, and with OnlyChanges only the changes are handed on; the
// URLs gone come last, once the crawl is done. Here b.xml drops /b/2 and
// a.xml gains it: it moved, and nothing is printed of it; a.xml's /a/1 is
// gone.
func ExampleCrawl_changes() {
	var srv *httptest.Server
	var second atomic.Bool
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		urls := map[string][]string{"/a.xml": {"/a/1", "/a/2"}, "/b.xml": {"/b/1", "/b/2"}}
		if second.Load() {
			urls = map[string][]string{"/a.xml": {"/a/2", "/b/2", "/a/3"}, "/b.xml": {"/b/1"}}
		}
		if r.URL.Path == "/index.xml" {
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/a.xml</loc></sitemap><sitemap><loc>%[1]s/b.xml</loc></sitemap></sitemapindex>`, srv.URL)
			return
		}
		fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, u := range urls[r.URL.Path] {
			fmt.Fprintf(w, `<url><loc>https://example.com%s</loc></url>`, u)
		}
		fmt.Fprint(w, `</urlset>`)
	}))
	defer srv.Close()
	f, stop := exampleFleet()
	defer stop()
	ctx := context.Background()
	wctx, stopWorker := context.WithCancel(ctx)
	defer stopWorker()
	go f.Work(wctx, fleet.WorkerOptions{})

	c := fleet.DefaultCrawl()
	c.State, c.Changes, c.OnlyChanges = "example", true, true
	for _, round := range []string{"first", "second"} {
		second.Store(round == "second")
		crawl, err := f.Submit(ctx, c, srv.URL+"/index.xml")
		if err != nil {
			log.Fatal(err)
		}
		var lines []string
		for u, err := range f.URLs(ctx, crawl) {
			if err == nil {
				lines = append(lines, u.Change+" "+u.Loc)
			}
		}
		slices.Sort(lines)
		st, _ := f.Status(ctx, crawl)
		fmt.Println(round, lines, *st.Changes)
	}
	// Output:
	// first [new https://example.com/a/1 new https://example.com/a/2 new https://example.com/b/1 new https://example.com/b/2] {4 0 0 0 0}
	// second [gone https://example.com/a/1 new https://example.com/a/3] {1 0 1 3 0}
}

// A listing crawl hands on the sitemaps its documents list, with the
// dates their indexes give them, and no URL; its status counts the URLs
// its documents read and the sitemaps they list.
func ExampleFleet_Sitemaps() {
	site := exampleSite()
	defer site.Close()
	f, stop := exampleFleet()
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.Work(ctx, fleet.WorkerOptions{})
	c := fleet.DefaultCrawl()
	c.Sitemaps = true
	crawl, _ := f.Submit(ctx, c, site.URL+"/index.xml")
	for sm, err := range f.Sitemaps(ctx, crawl) {
		fmt.Println(sm.Loc[len(site.URL):], err)
	}
	st, _ := f.Status(ctx, crawl)
	fmt.Println(st.URLs, "URLs read,", st.Listed, "sitemaps listed")
	// Output:
	// /a.xml <nil>
	// /b.xml <nil>
	// 4 URLs read, 2 sitemaps listed
}

// Settings gives back what a crawl was submitted with: a reader of a
// crawl it did not submit learns so whether it is a listing.
func ExampleFleet_Settings() {
	f, stop := exampleFleet()
	defer stop()
	ctx := context.Background()
	c := fleet.DefaultCrawl()
	c.Sitemaps, c.MaxURLs = true, 500
	crawl, _ := f.Submit(ctx, c, "https://example.com/sitemap.xml")
	got, err := f.Settings(ctx, crawl)
	fmt.Println(got.Sitemaps, got.MaxURLs, got.Version == fleet.Version, err)
	// Output:
	// true 500 true <nil>
}

// Remove drops a crawl before its retention ends: its name no longer
// answers.
func ExampleFleet_Remove() {
	f, stop := exampleFleet()
	defer stop()
	ctx := context.Background()
	crawl, _ := f.Submit(ctx, fleet.DefaultCrawl(), "https://example.com/sitemap.xml")
	fmt.Println(f.Remove(ctx, crawl))
	_, err := f.Status(ctx, crawl)
	fmt.Println(err != nil)
	// Output:
	// <nil>
	// true
}
