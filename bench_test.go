package sitemap_test

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// benchURLs is how many URLs the benchmark urlset holds: as many as the
// sitemaps.org protocol allows in one sitemap.
const benchURLs = 50000

// benchDoc is a urlset of 50,000 URLs with loc, lastmod, changefreq and
// priority, about 10 MB, generated once.
var benchDoc = sync.OnceValue(func() string {
	freqs := []string{"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}
	var b strings.Builder
	b.Grow(11 << 20)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range benchURLs {
		fmt.Fprintf(&b, " <url>\n"+
			"  <loc>https://www.example.com/catalogue/section-%03d/item-%06d-slug.html</loc>\n"+
			"  <lastmod>2024-%02d-%02dT10:30:00+00:00</lastmod>\n"+
			"  <changefreq>%s</changefreq>\n"+
			"  <priority>0.%d</priority>\n"+
			" </url>\n",
			i%1000, i, i%12+1, i%28+1, freqs[i%len(freqs)], i%10)
	}
	b.WriteString("</urlset>\n")
	return b.String()
})

// benchParseS parses the benchmark document b.N times with s and reports
// the allocations per URL of the document and the bytes allocated per
// document, counted from runtime.MemStats around the loop, and the heap the
// results of the last call hold on to. It returns the number of URLs the
// last call kept.
func benchParseS(b *testing.B, s *sitemap.S) int {
	doc := benchDoc()
	const url = "https://www.example.com/sitemap.xml"
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	cpu0, cpuOK := cpuTime()
	for b.Loop() {
		if _, err := s.Parse(url, &doc); err != nil {
			b.Fatal(err)
		}
	}
	cpu1, _ := cpuTime()
	runtime.ReadMemStats(&after)
	n := float64(b.N)
	if cpuOK {
		// The CPU time of the process (GC included), which a loaded
		// machine inflates far less than the time on the clock.
		b.ReportMetric(float64(cpu1-cpu0)/n/1e6, "cpu-ms/doc")
	}
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n/benchURLs, "allocs/url")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/doc")
	// What the results of the last call hold on to, the garbage gone.
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)), "B-retained")
	if s.GetErrorsCount() != 0 {
		b.Fatalf("errors: %q", messagesOf(s.GetErrors()[:min(3, s.GetErrorsCount())]))
	}
	return int(s.GetURLCount())
}

// BenchmarkParseURLSet50k parses a 50,000-URL urlset passed as content and
// keeps every URL.
func BenchmarkParseURLSet50k(b *testing.B) {
	if kept := benchParseS(b, sitemap.New()); kept != benchURLs {
		b.Fatalf("%d URLs kept, want %d", kept, benchURLs)
	}
}

// BenchmarkParseURLSet50kNoneKept parses the same document with a URL rule
// that no URL matches, so that none is kept: set against
// BenchmarkParseURLSet50k, it shows that memory grows with the URLs kept,
// not with the document read.
func BenchmarkParseURLSet50kNoneKept(b *testing.B) {
	if kept := benchParseS(b, sitemap.New().SetRules([]string{`^$`})); kept != 0 {
		b.Fatalf("%d URLs kept, want 0", kept)
	}
}

// cpuTime returns the user and system CPU time of the process so far,
// read from /proc/self/stat (in clock ticks of 10ms); ok is false where
// there is no such file.
func cpuTime() (d time.Duration, ok bool) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, false
	}
	// The fields after the command name, which is in parentheses.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, true
}
