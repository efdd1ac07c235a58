package fleet

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klauspost/compress/s2"
	"github.com/nats-io/nats.go"
)

// One node, three workers: the output of a crawl is what the library
// reads from the same root, each URL once.
func TestOneNode(t *testing.T) {
	_, f := startNode(t)
	s := newSite(t, 40, 50, false)
	startWorkers(t, f, 3, WorkerOptions{Concurrency: 4})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	crawl, err := f.Submit(ctx, DefaultCrawl(), s.URL+"/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	got, errs := collect(t, ctx, f, crawl)
	if len(errs) > 0 {
		t.Errorf("errors: %v", errs)
	}
	if n := s.requests.Load(); n != 41 {
		t.Errorf("%d requests, want 41: each document once", n)
	}
	sameLines(t, got, reference(t, s.URL+"/index.xml"))
	st, err := f.Status(ctx, crawl)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Finished || st.Done != 41 || st.URLs != 40*50 || st.Queued+st.Reading+st.Failed != 0 {
		t.Errorf("status %+v", st)
	}
	// The batches are stored compressed, which keeps the server's caches
	// of what it was last written (and so the memory of run) small.
	var stored, lines int
	for seq := uint64(1); ; seq++ {
		m, err := f.out.GetMsg(ctx, seq)
		if err != nil {
			break
		}
		if m.Header.Get(hdrKind) != kindURLs {
			continue
		}
		if m.Header.Get(hdrCoding) != codingS2 {
			t.Fatalf("batch %d is stored with encoding %q", seq, m.Header.Get(hdrCoding))
		}
		plain, err := s2.Decode(nil, m.Data)
		if err != nil {
			t.Fatal(err)
		}
		stored += len(m.Data)
		lines += len(plain)
	}
	if lines == 0 || stored*4 > lines {
		t.Errorf("the batches take %d bytes for %d bytes of lines", stored, lines)
	}
}

// Politeness across workers: three workers reading four documents each at
// once keep to K requests in flight to the site, and (on another site) to
// R requests a second.
func TestHostLimits(t *testing.T) {
	_, f := startNode(t)
	startWorkers(t, f, 3, WorkerOptions{Concurrency: 4})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const k, r = 2, 10
	crawl := func(s *site, c Crawl) {
		name, err := f.Submit(ctx, c, s.URL+"/index.xml")
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := collect(t, ctx, f, name); len(got) != s.n*s.m {
			t.Errorf("%d URLs, want %d", len(got), s.n*s.m)
		}
	}
	s := newSite(t, 40, 5, false)
	s.delay = 20 * time.Millisecond
	c := DefaultCrawl()
	c.MaxHostConcurrency = k
	crawl(s, c)
	t.Logf("at the site: at most %d requests in flight (K=%d)", s.maxInFlight.Load(), k)
	if n := s.maxInFlight.Load(); n > k {
		t.Errorf("%d requests in flight at once, K is %d", n, k)
	}

	s = newSite(t, 24, 5, false)
	c = DefaultCrawl()
	c.HostRate = r
	crawl(s, c)
	perSecond := s.maxPerSecond()
	t.Logf("at the site: at most %d requests within a second (R=%d)", perSecond, r)
	if perSecond > r+1 {
		t.Errorf("%d requests within a second, R is %d (one more for the first of a second)", perSecond, r)
	}
}

// The Crawl-delay of a robots.txt across the fleet: three workers that
// read a site from its robots.txt, which asks the crawl's user agent (in
// the group of *, not in another agent's) for 0.5 s between requests,
// send at most two a second to it (and one more for the first of a
// second, as in TestHostLimits); without CrawlDelay they send them all at
// once.
func TestCrawlDelay(t *testing.T) {
	_, f := startNode(t)
	startWorkers(t, f, 3, WorkerOptions{Concurrency: 4})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, honour := range []bool{false, true} {
		s := newSite(t, 6, 5, false)
		robots := "User-agent: otherbot\nCrawl-delay: 30\n\nUser-agent: *  # every other\nDisallow: /private\nCrawl-delay: 0.5\n\nSitemap: " + s.URL + "/index.xml\n"
		s.robots.Store(&robots)
		c := DefaultCrawl()
		c.CrawlDelay = honour
		name, err := f.Submit(ctx, c, s.URL+"/robots.txt")
		if err != nil {
			t.Fatal(err)
		}
		got, errs := collect(t, ctx, f, name)
		if len(got) != s.n*s.m || len(errs) > 0 {
			t.Fatalf("%d URLs, want %d; errors %v", len(got), s.n*s.m, errs)
		}
		perSecond := s.maxPerSecond()
		t.Logf("CrawlDelay %v: %d requests, at most %d within a second", honour, s.requests.Load(), perSecond)
		if honour && perSecond > 3 {
			t.Errorf("%d requests within a second, with a Crawl-delay of 0.5 s", perSecond)
		}
		if !honour && perSecond <= 3 {
			t.Errorf("%d requests within a second without CrawlDelay: the site does not tell", perSecond)
		}
	}
}

// The limits of a crawl count across the fleet: four workers hand on
// MaxURLs URLs in all, and queue MaxSitemaps sitemaps in all.
func TestFleetLimits(t *testing.T) {
	_, f := startNode(t)
	s := newSite(t, 30, 40, false)
	startWorkers(t, f, 4, WorkerOptions{Concurrency: 3})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, tc := range []struct {
		name           string
		urls, sitemaps int
		want           int
	}{
		{"urls", 250, 0, 250},
		{"sitemaps", 0, 7, 7 * 40},
	} {
		c := DefaultCrawl()
		c.MaxURLs, c.MaxSitemaps = tc.urls, tc.sitemaps
		crawl, err := f.Submit(ctx, c, s.URL+"/index.xml")
		if err != nil {
			t.Fatal(err)
		}
		got, errs := collect(t, ctx, f, crawl)
		if len(got) != tc.want || len(errs) != 1 {
			t.Errorf("%s: %d URLs, errors %v; want %d URLs and one error of the limit", tc.name, len(got), errs, tc.want)
		}
	}
}

// The reader of a crawl's output learns that the crawl is done from the
// documents' entries, which it watches, not by asking the server over
// and over: on a crawl whose documents take a while (40 sitemaps of 20
// ms, two at a time), it makes one stream Info request (the count of the
// output, once done), where it made one each time the output was quiet
// for a few milliseconds.
func TestReaderDoesNotPoll(t *testing.T) {
	srv, f := startNode(t)
	defer func(p time.Duration) { slowPoll = p }(slowPoll)
	slowPoll = time.Hour // the safety net out of the way
	s := newSite(t, 40, 5, false)
	s.delay = 20 * time.Millisecond
	startWorkers(t, f, 1, WorkerOptions{Concurrency: 2})
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var infos atomic.Int64
	sub, err := nc.Subscribe("$JS.API.STREAM.INFO.>", func(*nats.Msg) { infos.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	nc.Flush()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	crawl, err := f.Submit(ctx, DefaultCrawl(), s.URL+"/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	got, errs := collect(t, ctx, f, crawl)
	if len(got) != 40*5 || len(errs) > 0 {
		t.Fatalf("%d URLs, errors %v", len(got), errs)
	}
	nc.Flush()
	if n := infos.Load(); n != 1 {
		t.Errorf("%d stream Info requests; want 1", n)
	}
}
