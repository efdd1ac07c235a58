package bench_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/bench"
)

// robotsOnly answers every request with a small robots.txt, in the process.
type robotsOnly struct{}

func (robotsOnly) RoundTrip(r *http.Request) (*http.Response, error) {
	body := "User-agent: *\nDisallow: /private/\nSitemap: https://www.example.com/sitemap.xml\n"
	return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{"Content-Type": {"text/plain"}},
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

// BenchmarkLintW2 lints W2, given as a reader, with page checks off: with
// robots.txt off, and with a robots.txt served in the process.
func BenchmarkLintW2(b *testing.B) {
	doc := bench.W2()
	for _, c := range []struct {
		name     string
		noRobots bool
	}{{"norobots", true}, {"robots", false}} {
		b.Run(c.name, func(b *testing.B) {
			s := sitemap.New()
			s.SetHTTPClient(&http.Client{Transport: robotsOnly{}})
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				for range s.Lint(context.Background(), "https://www.example.com/sitemap.xml", bytes.NewReader(doc), &sitemap.LintOptions{NoRobots: c.noRobots}) {
					n++
				}
				if n > 100000 {
					b.Fatal(n)
				}
			}
		})
	}
}
