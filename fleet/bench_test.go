package fleet

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// memSite answers requests in process, with no network: an index of n
// sitemaps of one URL each.
type memSite struct{ n int }

func (m memSite) RoundTrip(r *http.Request) (*http.Response, error) {
	var body string
	if r.URL.Path == "/index.xml" {
		var b strings.Builder
		b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := range m.n {
			fmt.Fprintf(&b, "<sitemap><loc>https://mem.example/s/%d.xml</loc></sitemap>", i)
		}
		b.WriteString("</sitemapindex>")
		body = b.String()
	} else {
		body = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://mem.example` + r.URL.Path + `/page</loc></url></urlset>`
	}
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body)), Request: r, ContentLength: int64(len(body))}, nil
}

// BenchmarkEngine is the engine's own cost per document: an embedded
// server reached in process, a site answered in process, documents of one
// URL each. It reports documents a second.
func BenchmarkEngine(b *testing.B) {
	_, f := startNode(b)
	const docs = 2000
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.Work(ctx, WorkerOptions{Concurrency: 32, Client: &http.Client{Transport: memSite{n: docs}}, Logf: b.Logf})
	var total int
	var elapsed time.Duration
	for b.Loop() {
		start := time.Now()
		crawl, err := f.Submit(ctx, DefaultCrawl(), "https://mem.example/index.xml")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, err := range f.URLs(ctx, crawl) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != docs {
			b.Fatalf("%d URLs, want %d", n, docs)
		}
		total += docs + 1
		elapsed += time.Since(start)
	}
	b.ReportMetric(float64(total)/elapsed.Seconds(), "docs/s")
}
