package sitemap_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// lintStreamSite serves an index of /bad.xml, whose one entry has a
// priority out of range, and /slow.xml, which answers only once its
// request is cancelled; arrived gets a value when /slow.xml is requested,
// cancelled when its request ends.
func lintStreamSite(t *testing.T) (srv *httptest.Server, arrived, cancelled chan struct{}, requests *atomic.Int32) {
	arrived, cancelled, requests = make(chan struct{}, 4), make(chan struct{}, 4), new(atomic.Int32)
	mux := http.NewServeMux()
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		fmt.Fprintf(w, `<sitemapindex %s><sitemap><loc>http://%s/bad.xml</loc></sitemap><sitemap><loc>http://%s/slow.xml</loc></sitemap></sitemapindex>`, xmlnsAttr, r.Host, r.Host)
	})
	mux.HandleFunc("/bad.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset %s><url><loc>http://%s/a</loc><priority>9</priority></url></urlset>`, xmlnsAttr, r.Host)
	})
	mux.HandleFunc("/slow.xml", func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-r.Context().Done()
		cancelled <- struct{}{}
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, arrived, cancelled, requests
}

// Issue 30 item 1: Lint yields the findings of a document while the call
// is still reading others, and breaking out of the loop cancels the call:
// the request in flight ends, and no goroutine of the call is left.
func TestLintYieldsWhileReadingAndBreakCancels(t *testing.T) {
	srv, arrived, cancelled, _ := lintStreamSite(t)
	s := sitemap.New().SetFetchTimeout(60).SetMultiThread(false)
	var got []sitemap.Finding
	guard(t, guardTimeout, func() {
		for f := range s.Lint(context.Background(), srv.URL+"/index.xml", nil, &sitemap.LintOptions{NoRobots: true}) {
			// /slow.xml answers only once the call is cancelled: the
			// finding came while the call was still running.
			got = append(got, f)
			recv(t, arrived, "the request of /slow.xml")
			break
		}
	})
	if len(got) != 1 || got[0].Code != sitemap.CodePriorityInvalid || !strings.HasSuffix(got[0].Document, "/bad.xml") {
		t.Fatalf("findings before the break:%s", lintDump(got))
	}
	recv(t, cancelled, "the cancellation of /slow.xml")
	srv.CloseClientConnections()
	noCallGoroutines(t)
}

// Ranging over the iterator of Lint twice runs two calls, each with all
// its findings.
func TestLintRangedTwiceRunsTwice(t *testing.T) {
	srv := lintServe(t, map[string]string{
		"/sitemap.xml": us(`<url><loc>SRV/a</loc><priority>9</priority></url>`),
	})
	seq := sitemap.New().SetFetchTimeout(60).Lint(context.Background(), srv.URL+"/sitemap.xml", nil, &sitemap.LintOptions{NoRobots: true})
	for i := range 2 {
		var fs []sitemap.Finding
		for f := range seq {
			fs = append(fs, f)
		}
		if len(fs) != 1 || fs[0].Code != sitemap.CodePriorityInvalid {
			t.Errorf("range %d:%s", i+1, lintDump(fs))
		}
	}
}

// A panic in the body of the loop of Lint ends the call before it goes on
// up, as in Stream: the request in flight is cancelled.
func TestLintPanicInLoopEndsCall(t *testing.T) {
	srv, arrived, cancelled, _ := lintStreamSite(t)
	s := sitemap.New().SetFetchTimeout(60).SetMultiThread(false)
	var recovered any
	guard(t, guardTimeout, func() {
		defer func() { recovered = recover() }()
		for range s.Lint(context.Background(), srv.URL+"/index.xml", nil, &sitemap.LintOptions{NoRobots: true}) {
			recv(t, arrived, "the request of /slow.xml")
			panic("the body of the loop")
		}
	})
	if recovered != "the body of the loop" {
		t.Fatalf("recovered %v", recovered)
	}
	recv(t, cancelled, "the cancellation of /slow.xml")
}

// The caps of the options each bound what they name: MaxRobots the hosts
// whose robots.txt is fetched.
func TestLintMaxRobots(t *testing.T) {
	var robots atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robots.Add(1)
			http.NotFound(w, r)
			return
		}
		// Two hosts of the loopback: 127.0.0.1 and localhost.
		_, port, _ := strings.Cut(r.Host, ":")
		fmt.Fprintf(w, `<urlset %s><url><loc>http://127.0.0.1:%s/a</loc></url><url><loc>http://localhost:%s/b</loc></url></urlset>`, xmlnsAttr, port, port)
	}))
	defer srv.Close()
	var capped int
	for f := range sitemap.New().SetFetchTimeout(60).Lint(context.Background(), srv.URL+"/sitemap.xml", nil, &sitemap.LintOptions{MaxRobots: 1, Now: time.Now()}) {
		if f.Code == sitemap.CodeLintCapped {
			capped++
		}
	}
	if robots.Load() != 1 || capped != 1 {
		t.Errorf("%d robots.txt fetched, %d lint-capped; want 1 and 1", robots.Load(), capped)
	}
}

// Issue 34: with EachURL, Lint keeps no URL and hands each to EachURL on
// the goroutine of the loop; breaking out of the loop still ends the call
// and cancels the request in flight.
func TestLintEachURL(t *testing.T) {
	srv, arrived, cancelled, _ := lintStreamSite(t)
	s := sitemap.New().SetFetchTimeout(60).SetMultiThread(false)
	var urls []string
	o := &sitemap.LintOptions{NoRobots: true, EachURL: func(u sitemap.URL) { urls = append(urls, u.Loc) }}
	var got []sitemap.Finding
	guard(t, guardTimeout, func() {
		for f := range s.Lint(context.Background(), srv.URL+"/index.xml", nil, o) {
			got = append(got, f)
			recv(t, arrived, "the request of /slow.xml")
			break
		}
	})
	recv(t, cancelled, "the cancellation of /slow.xml")
	srv.CloseClientConnections()
	noCallGoroutines(t)
	if len(got) != 1 || got[0].Code != sitemap.CodePriorityInvalid {
		t.Fatalf("findings:%s", lintDump(got))
	}
	if s.GetURLCount() != 0 {
		t.Errorf("%d URLs kept, want none", s.GetURLCount())
	}
	// The URL of /bad.xml comes in the batch of its document, which the
	// call hands on before it commits the document; its finding came
	// first, so the URL may not have been handed on yet at the break.
	if len(urls) > 1 || len(urls) == 1 && urls[0] != srv.URL+"/a" {
		t.Errorf("URLs handed on: %q", urls)
	}
	var counted int
	for _, d := range s.GetDocuments() {
		counted += d.URLs
	}
	if counted != 1 {
		t.Errorf("the tree counts %d URLs, want 1 (that of /bad.xml)", counted)
	}
}
