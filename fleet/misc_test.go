package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A crawl whose settings have another version is refused by name: status
// says which worker refused it and why, and its documents stay queued.
func TestVersionRefused(t *testing.T) {
	_, f := startNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rec, _ := json.Marshal(crawlRecord{Settings: Crawl{Version: Version + 1, MaxDepth: 1}, Roots: []string{"http://127.0.0.1:1/s.xml"}})
	if _, err := f.crawls.Create(ctx, "future", rec); err != nil {
		t.Fatal(err)
	}
	if _, err := f.queue(ctx, "future", "", job{URL: "http://127.0.0.1:1/s.xml"}, false); err != nil {
		t.Fatal(err)
	}
	refused := make(chan string, 1)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go f.Work(wctx, WorkerOptions{Name: "old", Logf: func(format string, args ...any) {
		select {
		case refused <- format:
		default:
		}
	}})
	select {
	case <-refused:
	case <-ctx.Done():
		t.Fatal("the worker did not refuse the crawl")
	}
	st, err := f.Status(ctx, "future")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Refused, fmt.Sprint("version ", Version+1)) || !strings.Contains(st.Refused, fmt.Sprintf("reads version %d", Version)) || !strings.Contains(st.Refused, "worker old") || st.Finished || st.Queued != 1 {
		t.Errorf("status %+v; want the refusal of worker old, by version, and the document queued", st)
	}
}

// Cancel ends a crawl: its queued jobs are dropped and a reader of its
// URLs comes to its end.
func TestCancel(t *testing.T) {
	_, f := startNode(t)
	s := newSite(t, 20, 10, true)
	startWorkers(t, f, 1, WorkerOptions{Concurrency: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	crawl, err := f.Submit(ctx, DefaultCrawl(), s.URL+"/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	<-s.reached
	if err := f.Cancel(ctx, crawl); err != nil {
		t.Fatal(err)
	}
	s.open()
	got, _ := collect(t, ctx, f, crawl)
	st, _ := f.Status(ctx, crawl)
	if !st.Cancelled || !st.Finished || len(got) >= 20*10 {
		t.Errorf("status %+v, %d URLs; want cancelled, finished, and fewer than all", st, len(got))
	}
}

// Bad input gets what the library gives it: a sitemap that is missing is
// the *NetworkError the library records, as a DocError of the output, and
// a failed document in status.
func TestDocumentErrors(t *testing.T) {
	_, f := startNode(t)
	s := newSite(t, 2, 3, false)
	startWorkers(t, f, 1, WorkerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	crawl, err := f.Submit(ctx, DefaultCrawl(), s.URL+"/index.xml", s.URL+"/s/99.xml")
	if err != nil {
		t.Fatal(err)
	}
	got, errs := collect(t, ctx, f, crawl)
	var de *DocError
	if len(got) != 6 || len(errs) != 1 || !errors.As(errs[0], &de) || de.Type != "NetworkError" || !strings.Contains(de.Message, "404") {
		t.Errorf("%d URLs, errors %v; want 6 and the 404 of s/99.xml as a NetworkError", len(got), errs)
	}
	if st, _ := f.Status(ctx, crawl); st.Failed != 1 || st.Done != 3 || st.Errors != 1 {
		t.Errorf("status %+v", st)
	}
	if _, err := f.Submit(ctx, Crawl{MaxDepth: 1, MaxURLs: -1}, s.URL+"/index.xml"); err == nil {
		t.Error("a crawl of -1 URLs submitted")
	} else if ce := (*sitemap.ConfigError)(nil); !errors.As(err, &ce) || ce.Field != "maxURLs" {
		t.Errorf("a crawl of -1 URLs: %v; want the library's *ConfigError for maxURLs", err)
	}
}

// A server that cannot be reached, and a stream of another shape under a
// name of the fleet, are clear errors, never a hang.
func TestOpenErrors(t *testing.T) {
	if _, err := nats.Connect("nats://127.0.0.1:1", nats.Timeout(time.Second)); err == nil {
		t.Error("a connection to a port nobody listens on")
	}
	srv, err := StartServer(ServerOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: jobsStream, Subjects: []string{"other.>"}}); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, nc, Options{})
	if err == nil || !strings.Contains(err.Error(), jobsStream) || !strings.Contains(err.Error(), "another shape") {
		t.Errorf("Open over a stream of another shape: %v", err)
	}
}

func TestVersionAtLeast(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{{"2.9.10", true}, {"2.9.9", false}, {"2.10.0", true}, {"2.11.0-beta.1", true}, {"2.2.6", false}, {"v3.0.0", true}} {
		if got := versionAtLeast(tc.v, MinServerVersion); got != tc.want {
			t.Errorf("versionAtLeast(%q) = %v", tc.v, got)
		}
	}
}

// Since crosses the wire with the crawl: the URLs older than it are left
// out, as the library leaves them out in one process.
func TestSince(t *testing.T) {
	_, f := startNode(t)
	s := newSite(t, 3, 28, false)
	startWorkers(t, f, 1, WorkerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := DefaultCrawl()
	c.Since = time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)
	crawl, err := f.Submit(ctx, c, s.URL+"/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := collect(t, ctx, f, crawl)
	want := 0
	for range sitemap.New().SetIncremental(sitemap.Incremental{Since: c.Since}).Stream(ctx, s.URL+"/index.xml", nil) {
		want++
	}
	if len(got) != want || want != 3*14 {
		t.Errorf("%d URLs, want %d as the library reads, 42", len(got), want)
	}
}

// Remove drops what the fleet keeps of a crawl: its record, the record of
// its documents, its output; the crawl is no more.
func TestRemove(t *testing.T) {
	_, f := startNode(t)
	s := newSite(t, 5, 3, false)
	startWorkers(t, f, 1, WorkerOptions{Concurrency: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	crawl, err := f.Submit(ctx, DefaultCrawl(), s.URL+"/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := collect(t, ctx, f, crawl); len(got) != 15 {
		t.Fatalf("%d URLs, want 15", len(got))
	}
	if err := f.Remove(ctx, crawl); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Status(ctx, crawl); err == nil || !strings.Contains(err.Error(), "no crawl") {
		t.Errorf("status of a crawl removed: %v", err)
	}
	if names, err := f.Crawls(ctx); err != nil || len(names) != 0 {
		t.Errorf("crawls %q, %v; want none", names, err)
	}
	for _, st := range []jetstream.Stream{f.out, f.jobs} {
		info, err := st.Info(ctx)
		if err != nil || info.State.Msgs != 0 {
			t.Errorf("stream %s keeps %d messages (%v)", info.Config.Name, info.State.Msgs, err)
		}
	}
	if keys, err := f.docs.Keys(ctx); !errors.Is(err, jetstream.ErrNoKeysFound) {
		t.Errorf("the documents of a crawl removed: %q (%v)", keys, err)
	}
}

// The counters of a crawl written by two processes in turn: each writes
// first by the revision it last wrote, and finds the other's write.
func TestCountersOfTwoProcesses(t *testing.T) {
	srv, f1 := startNode(t)
	f2 := openFleet(t, srv, Options{AckWait: testAckWait})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range 6 {
		f := []*Fleet{f1, f2}[i%2]
		if _, err := f.count(ctx, "c", func(c *counters) bool { c.Redelivered++; return true }); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []*Fleet{f1, f2} {
		c, err := f.count(ctx, "c", func(*counters) bool { return false })
		if err != nil || c.Redelivered != 6 {
			t.Errorf("counters %+v, %v; want 6", c, err)
		}
	}
	// The one that wrote last writes by its revision; the other reads them anew.
	for _, f := range []*Fleet{f2, f1} {
		if _, err := f.count(ctx, "c", func(c *counters) bool { c.URLs += 10; return true }); err != nil {
			t.Fatal(err)
		}
	}
	if c, err := f1.count(ctx, "c", func(*counters) bool { return false }); err != nil || c.URLs != 20 || c.Redelivered != 6 {
		t.Errorf("counters %+v, %v; want 20 URLs", c, err)
	}
}

// A document read for longer than readingAfter is in flight in status;
// once read, it is done, never left in flight.
func TestReadingShown(t *testing.T) {
	defer func(d time.Duration) { readingAfter = d }(readingAfter)
	readingAfter = 50 * time.Millisecond
	_, f := startNode(t)
	s := newSite(t, 4, 2, true)
	startWorkers(t, f, 1, WorkerOptions{Concurrency: 4})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	crawl, err := f.Submit(ctx, DefaultCrawl(), s.URL+"/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	<-s.reached
	for {
		st, err := f.Status(ctx, crawl)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reading == 2 { // the two sitemaps past half, at the gate
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("status %+v: the documents at the gate are not in flight", st)
		case <-time.After(10 * time.Millisecond):
		}
	}
	s.open()
	if got, _ := collect(t, ctx, f, crawl); len(got) != 8 {
		t.Errorf("%d URLs, want 8", len(got))
	}
	st, err := f.Status(ctx, crawl)
	if err != nil || st.Done != 5 || st.Reading != 0 {
		t.Errorf("status %+v (%v): want 5 done, none in flight", st, err)
	}
}
