package sitemap_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// The benchmarks of web-scale workloads. Their inputs are generated here,
// not committed. Each parse benchmark has its floor beside it in the same
// run: a bare encoding/xml RawToken loop, or a bare line scan, over the same
// bytes, so that every figure can be read as a ratio to it.
//
//	go test -run '^$' -bench 'W1URLSet|W2Image|RSS10k|Text50k' -count 6 | tee new.txt
//	go test -run '^$' -bench 'W3Index' -count 6 | tee -a new.txt
//	benchstat new.txt
//
// Run W3Index on its own: its peak-MiB is the heap a call takes above what
// was in use before it, and the inputs of the other benchmarks, once
// generated, stay in use and let the garbage collector wait longer.

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

// The inputs, each generated on first use only, so that a benchmark's heap
// holds no input of another.
var (
	benchW1   = sync.OnceValue(func() []byte { return benchURLSet(50_000, 0, "www.example.com") })
	benchW2   = sync.OnceValue(func() []byte { return benchURLSet(50_000, -1, "www.example.com") })
	benchW1gz = sync.OnceValue(func() []byte { return gzipOf(string(benchW1())) })
	benchW2gz = sync.OnceValue(func() []byte { return gzipOf(string(benchW2())) })
	benchRSS  = sync.OnceValue(func() []byte {
		var rss bytes.Buffer
		rss.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>Feed</title><link>https://www.example.com/</link>` + "\n")
		for i := range 10_000 {
			fmt.Fprintf(&rss, "<item><title>Post number %d</title><link>https://www.example.com/blog/%d/a-post-about-things</link><pubDate>Mon, %02d Jan 2024 10:%02d:00 GMT</pubDate><description>Some words about post %d, which are not read.</description></item>\n", i, i, 1+i%28, i%60, i)
		}
		rss.WriteString("</channel></rss>\n")
		return rss.Bytes()
	})
	benchText = sync.OnceValue(func() []byte {
		var text bytes.Buffer
		for i := range 50_000 {
			fmt.Fprintf(&text, "https://www.example.com/products/category-%d/item-%d-with-a-longer-slug.html\n", i%97, i)
		}
		return text.Bytes()
	})
	benchW3Index = sync.OnceValue(func() []byte {
		var idx bytes.Buffer
		idx.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := range benchW3Children {
			fmt.Fprintf(&idx, "<sitemap><loc>/sitemap-%d.xml</loc><lastmod>2024-01-15</lastmod></sitemap>\n", i)
		}
		idx.WriteString(`</sitemapindex>`)
		return idx.Bytes()
	})
	benchW3Child = sync.OnceValue(func() []byte { return benchURLSet(benchW3PerFile, 0, "www.example.com") })
)

const benchW3Children, benchW3PerFile = 200, 5000

// benchURLSet is a urlset of n URLs with lastmod, changefreq and priority,
// and images images per URL (2 to 5 when images is negative).
func benchURLSet(n, images int, host string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` + "\n")
	freqs := []string{"daily", "weekly", "monthly", "hourly"}
	for i := range n {
		fmt.Fprintf(&b, "  <url>\n    <loc>https://%s/products/category-%d/item-%d.html</loc>\n", host, i%97, i)
		fmt.Fprintf(&b, "    <lastmod>2024-%02d-%02dT%02d:%02d:00+00:00</lastmod>\n", 1+i%12, 1+i%28, i%24, i%60)
		fmt.Fprintf(&b, "    <changefreq>%s</changefreq>\n    <priority>0.%d</priority>\n", freqs[i%4], 1+i%9)
		k := images
		if k < 0 {
			k = 2 + i%4
		}
		for j := range k {
			fmt.Fprintf(&b, "   <image:image>\n    <image:loc>https://cdn.%s/images/products/%d/photo-%d.jpg</image:loc>\n", host, i, j)
			fmt.Fprintf(&b, "    <image:title>View %d</image:title>\n    <image:caption>Product %d seen from angle %d.</image:caption>\n   </image:image>\n", j, i, j)
		}
		b.WriteString("  </url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

// benchParse parses doc passed in as content, b.N times. size is the
// size of the document decompressed, so that the MB/s of a gzipped document
// compare with those of the plain one.
func benchParse(b *testing.B, doc []byte, size int, url string) {
	b.Helper()
	content := string(doc)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var urls int
	var mallocs uint64
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs = ms.Mallocs
	b.ResetTimer()
	for range b.N {
		s, err := sitemap.New().Parse(url, &content)
		if err != nil || s.GetErrorsCount() != 0 {
			b.Fatal(err, s.GetErrors()) // an input the parse finds fault with measures the wrong thing
		}
		urls = int(s.GetURLCount())
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	if urls > 0 {
		b.ReportMetric(float64(ms.Mallocs-mallocs)/float64(b.N)/float64(urls), "allocs/url")
	}
}

// benchRawToken is the floor: a bare encoding/xml RawToken loop over doc.
func benchRawToken(b *testing.B, doc []byte) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for range b.N {
		d := xml.NewDecoder(bytes.NewReader(doc))
		for {
			if _, err := d.RawToken(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

func BenchmarkW1URLSet(b *testing.B) {
	b.Run("parse", func(b *testing.B) { benchParse(b, benchW1(), len(benchW1()), "https://www.example.com/sitemap.xml") })
	b.Run("parse-gzip", func(b *testing.B) {
		benchParse(b, benchW1gz(), len(benchW1()), "https://www.example.com/sitemap.xml.gz")
	})
	b.Run("floor-rawtoken", func(b *testing.B) { benchRawToken(b, benchW1()) })
}

func BenchmarkW2ImageURLSet(b *testing.B) {
	b.Run("parse", func(b *testing.B) { benchParse(b, benchW2(), len(benchW2()), "https://www.example.com/sitemap.xml") })
	b.Run("parse-gzip", func(b *testing.B) {
		benchParse(b, benchW2gz(), len(benchW2()), "https://www.example.com/sitemap.xml.gz")
	})
	b.Run("floor-rawtoken", func(b *testing.B) { benchRawToken(b, benchW2()) })
}

func BenchmarkRSS10k(b *testing.B) {
	b.Run("parse", func(b *testing.B) { benchParse(b, benchRSS(), len(benchRSS()), "https://www.example.com/feed.xml") })
	b.Run("floor-rawtoken", func(b *testing.B) { benchRawToken(b, benchRSS()) })
}

func BenchmarkText50k(b *testing.B) {
	b.Run("parse", func(b *testing.B) {
		benchParse(b, benchText(), len(benchText()), "https://www.example.com/sitemap.txt")
	})
	b.Run("floor-linescan", func(b *testing.B) {
		b.SetBytes(int64(len(benchText())))
		b.ReportAllocs()
		for range b.N {
			sc := bufio.NewScanner(bytes.NewReader(benchText()))
			n := 0
			for sc.Scan() {
				if bytes.HasPrefix(sc.Bytes(), []byte("http")) {
					n++
				}
			}
			if n != 50_000 {
				b.Fatal(n)
			}
		}
	})
	// A second reference, beside the floor: the same scan keeping each
	// URL line as a string, the least a parser that returns the URLs does.
	b.Run("ref-linescan-kept", func(b *testing.B) {
		b.SetBytes(int64(len(benchText())))
		b.ReportAllocs()
		for range b.N {
			sc := bufio.NewScanner(bytes.NewReader(benchText()))
			var lines []string
			for sc.Scan() {
				if bytes.HasPrefix(sc.Bytes(), []byte("http")) {
					lines = append(lines, sc.Text())
				}
			}
			if len(lines) != 50_000 {
				b.Fatal(len(lines))
			}
		}
	})
}

// benchW3Server serves the W3 index and its children, each response
// delayed by latency.
func benchW3Server(b *testing.B, latency time.Duration) *httptest.Server {
	benchW3Index() // generated now, not on the clock of the first request
	benchW3Child()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if latency > 0 {
			time.Sleep(latency)
		}
		if r.URL.Path == "/index.xml" {
			w.Write(benchW3Index())
			return
		}
		w.Write(benchW3Child())
	}))
	b.Cleanup(srv.Close)
	return srv
}

// benchPeak runs f b.N times and reports, as the metric peak-MiB, the most
// heap in use that one run took above what was in use before it (see
// peakHeap). The heap is collected between runs, off the clock, so that
// what one run leaves behind does not count against the next.
func benchPeak(b *testing.B, f func()) {
	var peak uint64
	for range b.N {
		b.StopTimer()
		peak = max(peak, peakHeap(func() {
			b.StartTimer()
			f()
			b.StopTimer()
		}))
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
}

func BenchmarkW3Index(b *testing.B) {
	for _, latency := range []time.Duration{0, 20 * time.Millisecond} {
		srv := benchW3Server(b, latency)
		name := fmt.Sprintf("latency=%v", latency)
		b.Run(name+"/parse", func(b *testing.B) {
			b.ReportAllocs()
			benchPeak(b, func() {
				s, err := sitemap.New().SetFetchTimeout(60).Parse(srv.URL+"/index.xml", nil)
				if err != nil || s.GetURLCount() != benchW3Children*benchW3PerFile {
					b.Fatalf("%v, %d URLs, errors %v", err, s.GetURLCount(), s.GetErrors())
				}
			})
		})
		b.Run(name+"/stream", func(b *testing.B) {
			b.ReportAllocs()
			benchPeak(b, func() {
				n := 0
				for _, err := range sitemap.New().SetFetchTimeout(60).Stream(context.Background(), srv.URL+"/index.xml", nil) {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != benchW3Children*benchW3PerFile {
					b.Fatalf("%d URLs", n)
				}
			})
		})
	}
}

// TestBenchInputsParse keeps the generated inputs honest: every URL of each
// is read, with its fields, and nothing is reported. W1 and W2 are made by
// the generator of the benchmarks' at a tenth of their 50,000 URLs (the
// benchmarks' own calls fail on any error of the whole input: see
// benchParse), the others whole.
func TestBenchInputsParse(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("12 MB of input: too slow under -short or the race detector")
	}
	t.Parallel() // it measures no heap: on a second core beside the others
	for name, tc := range map[string]struct {
		doc    []byte
		url    string
		urls   int
		images int
	}{
		"W1":      {gzipOf(string(benchURLSet(5_000, 0, "www.example.com"))), "https://www.example.com/sitemap.xml", 5_000, 0},
		"W2":      {gzipOf(string(benchURLSet(5_000, -1, "www.example.com"))), "https://www.example.com/sitemap.xml", 5_000, 17_500},
		"RSS":     {benchRSS(), "https://www.example.com/feed.xml", 10_000, 0},
		"Text":    {benchText(), "https://www.example.com/sitemap.txt", 50_000, 0},
		"W3child": {benchW3Child(), "https://www.example.com/s.xml", benchW3PerFile, 0},
	} {
		content := string(tc.doc)
		s, err := sitemap.New().Parse(tc.url, &content)
		if err != nil || s.GetErrorsCount() != 0 {
			t.Fatalf("%s: %v %v", name, err, s.GetErrors())
		}
		images := 0
		for _, u := range s.GetURLs() {
			images += len(u.Images)
			if name != "Text" && u.LastMod == nil || strings.HasPrefix(name, "W") && (u.ChangeFreq == nil || u.Priority == nil) {
				t.Fatalf("%s: fields missing in %+v", name, u)
			}
		}
		if int(s.GetURLCount()) != tc.urls || images != tc.images {
			t.Errorf("%s: %d URLs and %d images, want %d and %d", name, s.GetURLCount(), images, tc.urls, tc.images)
		}
	}
}
