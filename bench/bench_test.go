package bench_test

// The benchmarks of issue 19, all in one process so that one benchstat
// table holds them. Each top-level benchmark is one workload; its
// sub-benchmarks are the library's parse of it and the references over the
// same bytes:
//
//	parse            the library: sitemap.New().Parse(url, &content)
//	parse-gzip       the same, the content gzipped
//	gosax-extract    bench.Extract, the frozen reference extractor
//	gosax-events     a bare gosax event loop (the floor of a scanner)
//	scan             the library's scanner alone (internal/xmlscan), strict,
//	                 with its namespaces and end-tag matching (scan_test.go)
//	rawtoken         a bare encoding/xml RawToken loop
//	linescan         a bare bufio.Scanner line loop (text only)
//	linescan-kept    the same keeping each URL line as a string (text only)
//
// Small holds two small urlsets, each parsed plain and gzipped. W3 is
// served over loopback; its sub-benchmarks are parse (warm), stream,
// and first-call, which runs Parse as the first call of a new process.

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
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/bench"
	"github.com/orisano/gosax"
)

// inputs is the workload in use, generated on first use. It holds one
// workload at a time, so that a benchmark's heap holds no input of another:
// W3's peak heap would otherwise depend on the 60 MB of W1 and W2 kept
// beside it, which let the garbage collector wait longer.
var inputs struct {
	sync.Mutex
	family string
	docs   map[string][]byte
}

// families are the workloads by name, each a set of documents by name.
var families = map[string]func() map[string][]byte{
	"W1": func() map[string][]byte {
		doc := bench.W1()
		return map[string][]byte{"plain": doc, "gzip": bench.Gzip(doc)}
	},
	"W2": func() map[string][]byte {
		doc := bench.W2()
		return map[string][]byte{"plain": doc, "gzip": bench.Gzip(doc)}
	},
	"RSS":  func() map[string][]byte { return map[string][]byte{"plain": bench.RSS()} },
	"Text": func() map[string][]byte { return map[string][]byte{"plain": bench.Text()} },
	"W3": func() map[string][]byte {
		return map[string][]byte{"index": bench.W3Index(), "child": bench.W3Child()}
	},
	"Small": func() map[string][]byte {
		docs := map[string][]byte{}
		for _, n := range smallSizes {
			doc := bench.URLSet(n, 0)
			docs[fmt.Sprint(n)], docs[fmt.Sprint(n, "-gzip")] = doc, bench.Gzip(doc)
		}
		return docs
	},
}

// input returns the document name of the workload family, dropping the
// documents of any other workload first.
func input(family, name string) []byte {
	inputs.Lock()
	defer inputs.Unlock()
	if inputs.family != family {
		inputs.family, inputs.docs = "", nil
		runtime.GC()
		inputs.family, inputs.docs = family, families[family]()
	}
	return inputs.docs[name]
}

// benchParse parses doc, passed as content under url, with the library and
// reports the allocations per URL kept. size is the size of the document
// decompressed, so that the MB/s of a gzipped form compare with those of
// the plain one.
func benchParse(b *testing.B, doc []byte, size int, url string, want int) {
	content := string(doc)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	m0, c0 := mallocs(), startCPU()
	for b.Loop() {
		s, err := sitemap.New().Parse(url, &content)
		if err != nil || s.GetErrorsCount() != 0 || s.GetURLCount() != int64(want) {
			b.Fatalf("%v, %d URLs, errors %v", err, s.GetURLCount(), s.GetErrors())
		}
	}
	c0.report(b)
	b.ReportMetric(float64(mallocs()-m0)/float64(b.N)/float64(want), "allocs/url")
}

// benchExtract runs the reference extractor over doc.
func benchExtract(b *testing.B, doc []byte, want int) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	rd := bytes.NewReader(doc)
	m0, c0 := mallocs(), startCPU()
	for b.Loop() {
		rd.Reset(doc)
		urls, err := bench.Extract(rd)
		if err != nil || len(urls) != want {
			b.Fatalf("%v, %d URLs", err, len(urls))
		}
	}
	c0.report(b)
	b.ReportMetric(float64(mallocs()-m0)/float64(b.N)/float64(want), "allocs/url")
}

// benchEvents is a bare gosax event loop over doc that only counts the
// events, with the extractor's buffer size.
func benchEvents(b *testing.B, doc []byte) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	rd := bytes.NewReader(doc)
	c0 := startCPU()
	defer c0.report(b)
	for b.Loop() {
		rd.Reset(doc)
		x := gosax.NewReaderSize(rd, bench.ReadBufferSize)
		n := 0
		for {
			e, err := x.Event()
			if err != nil {
				b.Fatal(err)
			}
			if e.Type() == gosax.EventEOF {
				break
			}
			n++
		}
		if n == 0 {
			b.Fatal("no events")
		}
	}
}

// benchRawToken is a bare encoding/xml RawToken loop over doc.
func benchRawToken(b *testing.B, doc []byte) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	rd := bytes.NewReader(doc)
	c0 := startCPU()
	defer c0.report(b)
	for b.Loop() {
		rd.Reset(doc)
		d := xml.NewDecoder(rd)
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

// benchURLSetFamily runs the sub-benchmarks of a urlset workload.
func benchURLSetFamily(b *testing.B, family string) {
	const url = "https://www.example.com/sitemap.xml"
	b.Run("parse", func(b *testing.B) {
		doc := input(family, "plain")
		benchParse(b, doc, len(doc), url, bench.URLSetURLs)
	})
	b.Run("parse-gzip", func(b *testing.B) {
		benchParse(b, input(family, "gzip"), len(input(family, "plain")), url+".gz", bench.URLSetURLs)
	})
	b.Run("gosax-extract", func(b *testing.B) { benchExtract(b, input(family, "plain"), bench.URLSetURLs) })
	b.Run("gosax-events", func(b *testing.B) { benchEvents(b, input(family, "plain")) })
	b.Run("scan", func(b *testing.B) { benchScan(b, input(family, "plain")) })
	b.Run("rawtoken", func(b *testing.B) { benchRawToken(b, input(family, "plain")) })
}

// BenchmarkW1 is the 50,000-URL urlset with loc, lastmod, changefreq and
// priority.
func BenchmarkW1(b *testing.B) { benchURLSetFamily(b, "W1") }

// BenchmarkW2 is W1 with 2 to 5 images a URL.
func BenchmarkW2(b *testing.B) { benchURLSetFamily(b, "W2") }

// BenchmarkRSS is the RSS feed of 10,000 items.
func BenchmarkRSS(b *testing.B) {
	b.Run("parse", func(b *testing.B) {
		doc := input("RSS", "plain")
		benchParse(b, doc, len(doc), "https://www.example.com/feed.xml", bench.RSSItems)
	})
	b.Run("gosax-extract", func(b *testing.B) { benchExtract(b, input("RSS", "plain"), bench.RSSItems) })
	b.Run("gosax-events", func(b *testing.B) { benchEvents(b, input("RSS", "plain")) })
	b.Run("scan", func(b *testing.B) { benchScan(b, input("RSS", "plain")) })
	b.Run("rawtoken", func(b *testing.B) { benchRawToken(b, input("RSS", "plain")) })
}

// smallSizes are the URLs of the urlsets of BenchmarkSmall.
var smallSizes = []int{10, 100}

// BenchmarkSmall is a call of one small urlset of W1's shape, plain and
// gzipped: what a call costs beyond its URLs, which a crawler that reads
// many small sitemaps pays for each (not a target of issue 19).
func BenchmarkSmall(b *testing.B) {
	for _, n := range smallSizes {
		b.Run(fmt.Sprintf("parse-%d", n), func(b *testing.B) {
			doc := input("Small", fmt.Sprint(n))
			benchParse(b, doc, len(doc), "https://www.example.com/sitemap.xml", n)
		})
		b.Run(fmt.Sprintf("parse-gzip-%d", n), func(b *testing.B) {
			benchParse(b, input("Small", fmt.Sprint(n, "-gzip")), len(input("Small", fmt.Sprint(n))), "https://www.example.com/sitemap.xml.gz", n)
		})
	}
}

// BenchmarkText is the text sitemap of 50,000 lines.
func BenchmarkText(b *testing.B) {
	b.Run("parse", func(b *testing.B) {
		doc := input("Text", "plain")
		benchParse(b, doc, len(doc), "https://www.example.com/sitemap.txt", bench.TextLines)
	})
	b.Run("linescan", func(b *testing.B) { benchLines(b, input("Text", "plain"), false) })
	b.Run("linescan-kept", func(b *testing.B) { benchLines(b, input("Text", "plain"), true) })
}

// benchLines scans doc line by line, keeping each URL line as a string when
// keep is set: the least that a parser returning the URLs does.
func benchLines(b *testing.B, doc []byte, keep bool) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	rd := bytes.NewReader(doc)
	c0 := startCPU()
	defer c0.report(b)
	for b.Loop() {
		rd.Reset(doc)
		sc := bufio.NewScanner(rd)
		var lines []string
		n := 0
		for sc.Scan() {
			if bytes.HasPrefix(sc.Bytes(), []byte("http")) {
				n++
				if keep {
					lines = append(lines, sc.Text())
				}
			}
		}
		if n != bench.TextLines || keep && len(lines) != n {
			b.Fatal(n, len(lines))
		}
	}
}

// w3Server serves the W3 index at /index.xml and the W3 child at every
// other path, each response held back by latency.
func w3Server(tb testing.TB, latency time.Duration) *httptest.Server {
	index, child := input("W3", "index"), input("W3", "child")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if latency > 0 {
			time.Sleep(latency) // the latency of a distant server, simulated
		}
		if r.URL.Path == "/index.xml" {
			w.Write(index)
			return
		}
		w.Write(child)
	}))
	tb.Cleanup(srv.Close)
	return srv
}

// w3Parse parses the W3 index at srv with the library and fails unless it
// kept every URL of every child without an error.
func w3Parse(tb testing.TB, srv *httptest.Server) {
	s, err := sitemap.New().SetFetchTimeout(60).Parse(srv.URL+"/index.xml", nil)
	if want := bench.W3Children * bench.W3PerChild; err != nil || s.GetErrorsCount() != 0 || s.GetURLCount() != int64(want) {
		tb.Fatalf("%v, %d URLs, errors %v", err, s.GetURLCount(), s.GetErrors()[:min(3, s.GetErrorsCount())])
	}
}

// BenchmarkW3 is the index of 200 sitemaps of 5,000 URLs each, served over
// loopback with no latency and with 20 ms a response. Each sub-benchmark
// reports peak-MiB, the most heap in use above what was in use before a
// call (see peakHeap).
func BenchmarkW3(b *testing.B) {
	for _, latency := range []time.Duration{0, 20 * time.Millisecond} {
		name := fmt.Sprintf("latency=%v", latency)
		b.Run(name+"/parse", func(b *testing.B) {
			srv := w3Server(b, latency)
			b.ReportAllocs()
			benchPeak(b, func() { w3Parse(b, srv) })
		})
		b.Run(name+"/stream", func(b *testing.B) {
			srv := w3Server(b, latency)
			b.ReportAllocs()
			benchPeak(b, func() {
				n := 0
				for _, err := range sitemap.New().SetFetchTimeout(60).Stream(context.Background(), srv.URL+"/index.xml", nil) {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != bench.W3Children*bench.W3PerChild {
					b.Fatalf("%d URLs", n)
				}
			})
		})
		b.Run(name+"/first-call", func(b *testing.B) { benchFirstCall(b, latency) })
	}
}

// benchPeak runs f b.N times and reports as peak-MiB the most heap that
// one run took above what was in use before it. The garbage is collected
// between runs, off the clock, so that what one run leaves does not count
// against the next. A first run, off the clock, warms the process: without
// it a benchmark of one iteration (W3's usual, at 500 ms a round) timed the
// process's first call, which first-call measures, and not a warm one.
func benchPeak(b *testing.B, f func()) {
	b.StopTimer()
	f()
	b.StartTimer()
	var peak uint64
	var cpu time.Duration
	for range b.N {
		b.StopTimer()
		runtime.GC()
		peak = max(peak, peakHeap(func() {
			c0, _ := cpuTime()
			b.StartTimer()
			f()
			b.StopTimer()
			c1, _ := cpuTime()
			cpu += c1 - c0
		}))
		b.StartTimer()
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
}

// peakHeap runs f and returns the most heap in use (HeapInuse, garbage not
// yet collected included) above what was in use when it started, sampled
// every 20 ms while f runs: the measure of the library's hPeakHeap, so that
// the figures compare with those of its tests and README.
func peakHeap(f func()) uint64 {
	read := func() uint64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse
	}
	base := read()
	var peak uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	<-done
	return max(peak, base) - base
}

// firstCallEnv names the W3 latency for TestW3FirstCallChild, in the
// environment of the process that benchFirstCall starts.
const firstCallEnv = "SITEMAP_BENCH_W3_FIRST_CALL"

// benchFirstCall runs, b.N times, a new process of this test binary that
// parses W3 once (TestW3FirstCallChild), and reports the time of that call
// as ns/op and its peak heap as peak-MiB: the cost of a process's first
// call, its heap touched for the first time. Starting the process and
// generating the input are not counted.
func benchFirstCall(b *testing.B, latency time.Duration) {
	var total, cpu time.Duration
	var peak uint64
	for range b.N {
		cmd := exec.Command(os.Args[0], "-test.run=^TestW3FirstCallChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), firstCallEnv+"="+latency.String())
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		var d, c time.Duration
		var p uint64
		for line := range strings.Lines(string(out)) {
			if _, err := fmt.Sscanf(line, "w3-first-call ns=%d cpu=%d peak=%d", &d, &c, &p); err == nil {
				break
			}
		}
		if d == 0 {
			b.Fatalf("no figures in the child's output: %s", out)
		}
		total += d
		cpu += c
		peak = max(peak, p)
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "ns/op")
	reportCPU(b, cpu)
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
}

// TestW3FirstCallChild is the process that benchFirstCall starts: it
// parses W3 once, as the first call of the process, and prints the time of
// the call and its peak heap. Run any other way it is skipped.
func TestW3FirstCallChild(t *testing.T) {
	env := os.Getenv(firstCallEnv)
	if env == "" {
		t.Skip("run by BenchmarkW3/*/first-call only")
	}
	latency, err := time.ParseDuration(env)
	if err != nil {
		t.Fatal(err)
	}
	srv := w3Server(t, latency)
	runtime.GC()
	var d, cpu time.Duration
	peak := peakHeap(func() {
		c0, _ := cpuTime()
		start := time.Now()
		w3Parse(t, srv)
		d = time.Since(start)
		c1, _ := cpuTime()
		cpu = c1 - c0
	})
	fmt.Printf("w3-first-call ns=%d cpu=%d peak=%d\n", d.Nanoseconds(), cpu.Nanoseconds(), peak)
}

// cpuStart is the CPU time of the process when a benchmark loop started.
type cpuStart time.Duration

// startCPU returns the CPU time of the process now.
func startCPU() cpuStart {
	d, _ := cpuTime()
	return cpuStart(d)
}

// report reports the CPU time since c, per iteration of b's loop.
func (c cpuStart) report(b *testing.B) {
	d, _ := cpuTime()
	reportCPU(b, d-time.Duration(c))
}

// reportCPU reports cpu, the CPU time of the process over all b.N
// iterations, as cpu-ns/op: the time of the whole process, the garbage
// collector and any server goroutine included, which a loaded machine
// inflates far less than the time on the clock. Nothing is reported where
// the CPU time is not known.
func reportCPU(b *testing.B, cpu time.Duration) {
	if _, ok := cpuTime(); ok && b.N > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// mallocs is the number of heap objects allocated so far.
func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}
