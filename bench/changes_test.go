package bench_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/bench"
	"github.com/gositemap/sitemap/store"
)

// changesEnv turns on TestW3Changes, which takes a minute and 1 GB of
// disk traffic: SITEMAP_BENCH_CHANGES=1 go test -run TestW3Changes .
const changesEnv = "SITEMAP_BENCH_CHANGES"

// w3Distinct is a W3 whose 200 sitemaps list a million distinct URLs:
// sitemap N serves W3's child with its host's path prefixed by /cN, and an
// ETag of its version; a request that carries it is answered 304.
type w3Distinct struct {
	child []byte
	mu    sync.Mutex
	ver   []int
	*httptest.Server
}

func newW3Distinct(tb testing.TB) *w3Distinct {
	w := &w3Distinct{child: bench.W3Child(), ver: make([]int, bench.W3Children)}
	w.Server = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/index.xml" {
			rw.Header().Set("ETag", `"index"`)
			if r.Header.Get("If-None-Match") == `"index"` {
				rw.WriteHeader(http.StatusNotModified)
				return
			}
			rw.Write(bench.W3Index())
			return
		}
		var n int
		fmt.Sscanf(r.URL.Path, "/sitemap-%d.xml", &n)
		w.mu.Lock()
		etag := fmt.Sprintf(`"%d-%d"`, n, w.ver[n])
		w.mu.Unlock()
		if r.Header.Get("If-None-Match") == etag {
			rw.WriteHeader(http.StatusNotModified)
			return
		}
		rw.Header().Set("ETag", etag)
		rw.Write(bytes.ReplaceAll(w.child, []byte("www.example.com/products/"), fmt.Appendf(nil, "www.example.com/c%d/products/", n)))
	}))
	tb.Cleanup(w.Close)
	return w
}

// bump gives new versions to sitemaps from..to-1: their next answer is
// 200, the same URLs.
func (w *w3Distinct) bump(from, to int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := from; i < to; i++ {
		w.ver[i]++
	}
}

// streamW3 streams the W3 at w with st and changes on or off, and returns
// the URLs handed on, the time and the peak of live heap above the start.
func streamW3(tb testing.TB, w *w3Distinct, st sitemap.Store, changes bool) (n int, took time.Duration, peak uint64) {
	return streamW3Opening(tb, w, func() sitemap.Store { return st }, changes)
}

// streamW3Opening is streamW3 with the store opened by open, in the time
// and heap measured.
func streamW3Opening(tb testing.TB, w *w3Distinct, open func() sitemap.Store, changes bool) (n int, took time.Duration, peak uint64) {
	runtime.GC()
	base := heapLive()
	var max uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			if h := heapLive(); h > max {
				max = h
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	start := time.Now()
	s := sitemap.New().SetFetchTimeout(60).SetStore(open()).SetIncremental(sitemap.Incremental{Changes: changes})
	for _, err := range s.Stream(context.Background(), w.URL+"/index.xml", nil) {
		if err != nil {
			tb.Fatal(err)
		}
		n++
	}
	took = time.Since(start)
	close(done)
	<-sampled
	if max < base {
		return n, took, 0
	}
	return n, took, max - base
}

func heapLive() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func cpuSince(c0 time.Duration) time.Duration {
	c, _ := cpuTime()
	return c - c0
}

func median(d []time.Duration) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2]
}

// TestW3Changes measures change detection on a W3 of a million distinct
// URLs (issue 32): the bytes a URL of the state file after the first run,
// the peak heap of a second run where one sitemap changed, and the time
// of runs where every sitemap changed, changes on against off, each with
// a file store of its own, interleaved, medians of five.
func TestW3Changes(t *testing.T) {
	if os.Getenv(changesEnv) == "" {
		t.Skip("set " + changesEnv + "=1 to run")
	}
	w := newW3Distinct(t)
	dir := t.TempDir()
	on, err := store.OpenFile(filepath.Join(dir, "on"), nil)
	if err != nil {
		t.Fatal(err)
	}
	off, _ := store.OpenFile(filepath.Join(dir, "off"), nil)
	const urls = bench.W3Children * bench.W3PerChild
	if n, _, _ := streamW3(t, w, on, true); n != urls {
		t.Fatalf("first run: %d URLs", n)
	}
	streamW3(t, w, off, false)
	fi, _ := os.Stat(on.Path())
	t.Logf("state file after the first run: %d bytes, %.1f bytes a URL", fi.Size(), float64(fi.Size())/urls)

	var peaks []uint64
	for range 3 {
		w.bump(7, 8)
		n, _, peak := streamW3(t, w, on, true)
		if n != bench.W3PerChild {
			t.Fatalf("one sitemap changed, its URLs the same: %d handed on, want its %d", n, bench.W3PerChild)
		}
		peaks = append(peaks, peak)
	}
	slices.Sort(peaks)
	t.Logf("second run, one sitemap changed: peak heap %.1f MiB (median of %d)", float64(peaks[1])/(1<<20), len(peaks))
	// As the command runs it: the state file opened by the run.
	on.Close()
	peaks = peaks[:0]
	for range 3 {
		w.bump(7, 8)
		_, _, peak := streamW3Opening(t, w, func() sitemap.Store {
			f, err := store.OpenFile(filepath.Join(dir, "on"), nil)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}, true)
		peaks = append(peaks, peak)
	}
	slices.Sort(peaks)
	t.Logf("the same, the state file opened in the run: peak heap %.1f MiB (median of %d)", float64(peaks[1])/(1<<20), len(peaks))
	on, _ = store.OpenFile(filepath.Join(dir, "on"), nil)

	// Wall time, and the CPU time of the process (getrusage: user and
	// system, the server's share included, the same for both), which a
	// shared machine disturbs less.
	var tOn, tOff, cOn, cOff []time.Duration
	for range 5 {
		w.bump(0, bench.W3Children)
		c0, _ := cpuTime()
		n, d, _ := streamW3(t, w, on, true)
		if n != urls {
			t.Fatalf("every sitemap changed, changes on: %d URLs", n)
		}
		tOn, cOn = append(tOn, d), append(cOn, cpuSince(c0))
		w.bump(0, bench.W3Children)
		c0, _ = cpuTime()
		n, d, _ = streamW3(t, w, off, false)
		if n != urls {
			t.Fatalf("every sitemap changed, changes off: %d URLs", n)
		}
		tOff, cOff = append(tOff, d), append(cOff, cpuSince(c0))
	}
	t.Logf("every sitemap changed: wall: changes on %v, off %v, ratio %.2f; CPU: on %v, off %v, ratio %.2f (medians of 5 interleaved)",
		median(tOn), median(tOff), float64(median(tOn))/float64(median(tOff)),
		median(cOn), median(cOff), float64(median(cOn))/float64(median(cOff)))
}
