package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// TestStreamSameAsParse: a streaming call yields what ParseContext keeps,
// and keeps none of it.
func TestStreamSameAsParse(t *testing.T) {
	srv := indexSite(t, 20, 50)
	for _, multi := range []bool{true, false} {
		t.Run(fmt.Sprintf("multithread=%v", multi), func(t *testing.T) {
			ref, err := newParser().SetMultiThread(multi).Parse(srv.URL+"/index.xml", nil)
			if err != nil {
				t.Fatal(err)
			}
			s := newParser().SetMultiThread(multi)
			var locs, errs []string
			for u, err := range s.Stream(context.Background(), srv.URL+"/index.xml", nil) {
				if err != nil {
					errs = append(errs, err.Error())
					continue
				}
				locs = append(locs, u.Loc)
			}
			var want, wantErrs []string
			for _, u := range ref.GetURLs() {
				want = append(want, u.Loc)
			}
			for _, e := range ref.GetErrors() {
				wantErrs = append(wantErrs, e.Error())
			}
			if !multi {
				if !slices.Equal(locs, want) {
					t.Errorf("sequential order differs: got %d URLs, want %d", len(locs), len(want))
				}
			}
			slices.Sort(locs)
			slices.Sort(want)
			slices.Sort(errs)
			slices.Sort(wantErrs)
			if !slices.Equal(locs, want) || len(locs) != 1000 {
				t.Errorf("got %d URLs, want the %d of ParseContext", len(locs), len(want))
			}
			if !slices.Equal(errs, wantErrs) {
				t.Errorf("errors %q, want %q", errs, wantErrs)
			}
			if s.GetURLCount() != 0 {
				t.Errorf("a streaming call kept %d URLs", s.GetURLCount())
			}
			if int(s.GetSitemapCount()) != 21 || int(s.GetErrorsCount()) != len(wantErrs) {
				t.Errorf("GetSitemaps %d, GetErrors %d: want 21 and %d", s.GetSitemapCount(), s.GetErrorsCount(), len(wantErrs))
			}
		})
	}
}

// TestStreamBreakCancels: breaking out of the loop cancels the requests in
// flight and returns once the goroutines of the call have ended.
func TestStreamBreakCancels(t *testing.T) {
	var inFlight, cancelled atomic.Int32
	arrived, ended := make(chan struct{}, 8), make(chan struct{}, 8)
	mux := http.NewServeMux()
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		b.WriteString(`<sitemapindex ` + xmlnsAttr + `><sitemap><loc>/fast.xml</loc></sitemap>`)
		for i := range 8 {
			fmt.Fprintf(&b, `<sitemap><loc>/slow%d.xml</loc></sitemap>`, i)
		}
		b.WriteString(`</sitemapindex>`)
		io.WriteString(w, b.String())
	})
	mux.HandleFunc("/fast.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset %s><url><loc>/a</loc></url><url><loc>/b</loc></url></urlset>`, xmlnsAttr)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		inFlight.Add(1)
		select {
		case arrived <- struct{}{}:
		default:
		}
		<-r.Context().Done()
		cancelled.Add(1)
		select {
		case ended <- struct{}{}:
		default:
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	s := sitemap.New().SetFetchTimeout(60)
	var got int
	guard(t, 10*time.Second, func() {
		for u, err := range s.Stream(context.Background(), srv.URL+"/index.xml", nil) {
			if err != nil {
				t.Errorf("error %v", err)
				continue
			}
			got++
			_ = u
			// Wait until the slow sitemaps are being requested, then leave.
			for range 8 {
				<-arrived
			}
			break
		}
	})
	if got != 1 {
		t.Errorf("loop ran %d times", got)
	}
	for range 8 {
		recv(t, ended, "the cancellation of a slow request")
	}
	if cancelled.Load() != 8 {
		t.Errorf("%d of 8 requests in flight were cancelled", cancelled.Load())
	}
	for _, err := range s.GetErrors() {
		var pe *sitemap.ParseError
		if errors.As(err, &pe) && errors.Is(err, context.Canceled) {
			t.Errorf("a loop that ended recorded %v", err)
		}
	}
	noCallGoroutines(t)
}

// TestStreamLimitsAndConfig: the URL limit counts the URLs handed on, and
// an outstanding *ConfigError is the only thing the loop gets.
func TestStreamLimitsAndConfig(t *testing.T) {
	srv := indexSite(t, 5, 10)
	s := sitemap.New().SetMultiThread(false).SetMaxURLs(15)
	var n int
	var limit bool
	for _, err := range s.Stream(context.Background(), srv.URL+"/index.xml", nil) {
		if err == nil {
			n++
		} else if errors.Is(err, sitemap.ErrMaxURLs) {
			limit = true
		}
	}
	if n != 15 || !limit {
		t.Errorf("got %d URLs and limit error %v, want 15 and true", n, limit)
	}

	s = sitemap.New().SetMaxDepth(0)
	var errs []error
	for u, err := range s.Stream(context.Background(), srv.URL+"/index.xml", nil) {
		if err == nil {
			t.Errorf("URL %s with a configuration error outstanding", u.Loc)
		}
		errs = append(errs, err)
	}
	if len(errs) != 1 || errs[0].Error() != "errors occurred before parsing, see GetErrors() for details" {
		t.Errorf("got %v", errs)
	}
}

// TestStreamHeapStaysFlat: a streaming call keeps no URL, so its heap stays
// flat however many pass through (issue 7). The loop looks at the live heap
// every 10,000 URLs: 100,000 URLs kept would be 20 MiB and more. (The heap
// in use, garbage included, depends on what other tests left live, which
// lets the collector wait longer. Looked at from another goroutine every
// 5 ms, as peakLiveHeap does, the same call reads about 12 MiB: what the
// parse allocates while the collector runs counts as live until the next
// collection.)
func TestStreamHeapStaysFlat(t *testing.T) {
	srv := indexSite(t, 20, 5000)
	base := liveHeap()
	var peak uint64
	n := 0
	var valErrs, broken int
	// newParser: the server of a loaded machine may take longer than the
	// default timeout; the time the loop takes is not charged (issue 13).
	for _, err := range newParser().Stream(context.Background(), srv.URL+"/index.xml", nil) {
		var ve *sitemap.ValidationError
		var pe *sitemap.ParseError
		switch {
		case err == nil:
			if n++; n%10_000 == 0 {
				peak = max(peak, liveHeap())
			}
		case errors.As(err, &ve) && ve.URL == "ftp://bad/":
			valErrs++
		case errors.As(err, &pe) && pe.URL == srv.URL+"/broken.xml":
			broken++
		default:
			t.Errorf("error %v", err)
		}
	}
	if n != 100_000 || valErrs != 20 || broken != 1 {
		t.Fatalf("the loop got %d URLs, %d errors about ftp://bad/ and %d about /broken.xml, want 100,000, 20 and 1", n, valErrs, broken)
	}
	// Up to 16 documents are read at once, each with its scanner's buffer
	// and, gzipped, its read-ahead blocks: a few MiB on a loaded machine,
	// where more of them are in flight together (4.1 MiB was seen under
	// four race binaries at once).
	if grown := int64(peak) - int64(base); grown > 8<<20 {
		t.Errorf("a streaming call held %.1f MiB more than before it began, want a few", float64(grown)/(1<<20))
	}
}
