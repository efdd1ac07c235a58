package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gositemap/sitemap"
)

// oneOf returns the one error of errs that wraps sentinel, failing the
// test unless there is exactly one. Its message must not show the text of
// the sentinel (LIMITERR-6).
func oneOf(t *testing.T, errs []error, sentinel error) *sitemap.ParseError {
	t.Helper()
	var found []*sitemap.ParseError
	for _, e := range errs {
		if errors.Is(e, sentinel) {
			var perr *sitemap.ParseError
			if !errors.As(e, &perr) {
				t.Errorf("%v wraps %v but is no *ParseError", e, sentinel)
				continue
			}
			found = append(found, perr)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d errors wrap %v, want 1; errors: %q", len(found), sentinel, messagesOf(errs))
	}
	if strings.Contains(found[0].Error(), sentinel.Error()) {
		t.Errorf("message %q shows the sentinel's text", found[0].Error())
	}
	return found[0]
}

// noneOf fails the test when an error of errs wraps sentinel.
func noneOf(t *testing.T, errs []error, sentinel error) {
	t.Helper()
	if n := countIs(errs, sentinel); n != 0 {
		t.Errorf("%d errors wrap %v, want none: %q", n, sentinel, messagesOf(errs))
	}
}

// textOfSize returns a text sitemap of exactly n bytes listing one page.
func textOfSize(n int) string {
	line := "https://example.com/sized\n"
	if n < len(line)+2 {
		panic("too small")
	}
	return line + "#" + strings.Repeat("x", n-len(line)-2) + "\n"
}

// --- Max response size -----------------------------------------------------

func TestMaxResponseSizeBoundary(t *testing.T) {
	// MAXSIZE-1, MAXSIZE-2, MAXSIZE-5, LIMITERR-2, LIMITERR-5; passed-in
	// content is capped as well (decision).
	const limit = 3000
	for _, d := range deliveries {
		t.Run(d.name, func(t *testing.T) {
			t.Run("exactly the limit", func(t *testing.T) {
				srv := newServer(t)
				body := textOfSize(limit)
				s, err := d.parse(t, sitemap.New().SetMaxResponseSize(limit), srv, "/sitemap.txt", []byte(body))
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				noErrors(t, s)
				equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/sized"})
			})
			t.Run("one byte more", func(t *testing.T) {
				srv := newServer(t)
				body := textOfSize(limit + 1)
				s, err := d.parse(t, sitemap.New().SetMaxResponseSize(limit), srv, "/sitemap.txt", []byte(body))
				if !errors.Is(err, sitemap.ErrMaxResponseSize) {
					t.Fatalf("Parse error = %v, want one wrapping ErrMaxResponseSize", err)
				}
				if d.name == "content" {
					var perr *sitemap.ParseError
					if !errors.As(err, &perr) || perr.URL != srv.At("/sitemap.txt") {
						t.Errorf("error = %#v, want *ParseError naming the URL", err)
					}
				} else {
					var nerr *sitemap.NetworkError
					if !errors.As(err, &nerr) || nerr.URL != srv.At("/sitemap.txt") {
						t.Errorf("error = %#v, want *NetworkError naming the URL", err)
					}
				}
				if got := s.GetErrors(); len(got) != 1 || got[0] != err {
					t.Errorf("GetErrors = %q, want the returned error alone", messagesOf(got))
				}
				if s.GetURLCount() != 0 {
					t.Errorf("kept %d URLs of a document over the limit", s.GetURLCount())
				}
			})
		})
	}
}

func TestMaxResponseSizeKeepsNothingOfTheDocument(t *testing.T) {
	// MAXSIZE-2: a document over the limit yields nothing, not the part of
	// it that was read before the limit.
	var lines []string
	for i := range 400 {
		lines = append(lines, fmt.Sprintf("https://example.com/p-%d", i))
	}
	for _, body := range []string{strings.Join(lines, "\n") + "\n", urlset(lines...)} {
		for _, d := range deliveries {
			overLimitCase(t, d, body)
		}
	}
}

func overLimitCase(t *testing.T, d delivery, body string) {
	t.Run(d.name, func(t *testing.T) {
		srv := newServer(t)
		s, err := d.parse(t, sitemap.New().SetMaxResponseSize(int64(len(body)/2)), srv, "/sitemap", []byte(body))
		if !errors.Is(err, sitemap.ErrMaxResponseSize) {
			t.Fatalf("Parse error = %v", err)
		}
		if s.GetURLCount() != 0 || s.GetErrorsCount() != 1 {
			t.Errorf("%d URLs and errors %q", s.GetURLCount(), messagesOf(s.GetErrors()))
		}
	})
}

func TestMaxResponseSizeContentLength(t *testing.T) {
	// MAXSIZE-2, MAXSIZE-9 (decision): a Content-Length over the limit is
	// refused before the body is read. The handler sends a few bytes and
	// then waits for the client to go away: a client that read on would
	// hang.
	srv := newServer(t)
	srv.Handle("/big.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5000")
		w.Write([]byte("https://example.com/x\n"))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-srv.stop:
		}
	})
	srv.Doc("/index.xml", index(srv.At("/big.xml")))
	for _, root := range []string{"/big.xml", "/index.xml"} {
		t.Run(root, func(t *testing.T) {
			var s *sitemap.S
			var err error
			guard(t, guardTimeout, func() { s, err = sitemap.New().SetMaxResponseSize(4999).Parse(srv.At(root), nil) })
			var nerr *sitemap.NetworkError
			errs := s.GetErrors()
			if root == "/big.xml" {
				if !errors.As(err, &nerr) || !errors.Is(err, sitemap.ErrMaxResponseSize) {
					t.Fatalf("Parse error = %v, want *NetworkError wrapping ErrMaxResponseSize", err)
				}
			} else if err != nil {
				t.Fatalf("Parse error = %v, want nil: a listed sitemap does not fail the call", err)
			}
			if len(errs) != 1 || !errors.As(errs[0], &nerr) || nerr.URL != srv.At("/big.xml") || !errors.Is(errs[0], sitemap.ErrMaxResponseSize) {
				t.Errorf("errors = %q, want one *NetworkError for /big.xml wrapping ErrMaxResponseSize", messagesOf(errs))
			}
		})
	}
	// A Content-Length of exactly the limit is read.
	srv.Doc("/exact.txt", textOfSize(4999))
	s, err := sitemap.New().SetMaxResponseSize(4999).Parse(srv.At("/exact.txt"), nil)
	if err != nil || s.GetURLCount() != 1 {
		t.Errorf("exact Content-Length: err %v, %d URLs", err, s.GetURLCount())
	}
}

func TestMaxResponseSizeOfAListedSitemap(t *testing.T) {
	// MAXSIZE-2: a listed sitemap over the limit is a *NetworkError in
	// GetErrors naming the requested URL; the others are read.
	for _, multi := range []bool{true, false} {
		t.Run(strconv.FormatBool(multi), func(t *testing.T) {
			srv := newServer(t)
			srv.Trickle("/big.txt", []byte(textOfSize(1001)))
			srv.Doc("/ok.txt", "https://example.com/ok\n")
			srv.Doc("/index.xml", index(srv.At("/big.txt"), srv.At("/ok.txt")))
			s, err := sitemap.New().SetMultiThread(multi).SetMaxResponseSize(1000).Parse(srv.At("/index.xml"), nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			errs := s.GetErrors()
			nerrs := errorsOf[*sitemap.NetworkError](errs)
			if len(errs) != 1 || len(nerrs) != 1 || nerrs[0].URL != srv.At("/big.txt") || !errors.Is(nerrs[0], sitemap.ErrMaxResponseSize) {
				t.Errorf("errors = %q", messagesOf(errs))
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/ok"})
		})
	}
}

func TestMaxResponseSizeGzip(t *testing.T) {
	// MAXSIZE-3, MAXSIZE-4, MAXSIZE-5, LIMITERR-2, ADOPTED-2: the limit caps the
	// decompressed content, all members together, fetched or passed in; the
	// error is a *ParseError naming the URL the document was served from.
	const limit = 2000
	tests := []struct {
		name string
		body []byte
		over bool
	}{
		{"decompresses to exactly the limit", gzipOf(textOfSize(limit)), false},
		{"decompresses to one byte more", gzipOf(textOfSize(limit + 1)), true},
		{"bomb", gzipOf("https://example.com/a\n" + strings.Repeat("\n", 1<<20)), true},
		{"members under the limit each, over it together", gzipMembers(t, textOfSize(1200), textOfSize(1200)), true},
		{"members at the limit together", gzipMembers(t, textOfSize(1000), textOfSize(1000)), false},
	}
	for _, tt := range tests {
		if len(tt.body) >= limit {
			t.Fatalf("%s: compressed to %d bytes, not under the limit", tt.name, len(tt.body))
		}
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range deliveries {
				t.Run(d.name, func(t *testing.T) {
					srv := newServer(t)
					s, err := d.parse(t, sitemap.New().SetMaxResponseSize(limit), srv, "/sitemap.txt.gz", tt.body)
					if !tt.over {
						if err != nil {
							t.Fatalf("Parse: %v", err)
						}
						noErrors(t, s)
						if s.GetURLCount() == 0 {
							t.Error("no URLs")
						}
						return
					}
					var perr *sitemap.ParseError
					if !errors.As(err, &perr) || !errors.Is(err, sitemap.ErrMaxResponseSize) || perr.URL != srv.At("/sitemap.txt.gz") {
						t.Fatalf("Parse error = %v, want *ParseError naming the document, wrapping ErrMaxResponseSize", err)
					}
					if got := s.GetErrors(); len(got) != 1 || got[0] != err {
						t.Errorf("GetErrors = %q, want the returned error alone", messagesOf(got))
					}
					if s.GetURLCount() != 0 {
						t.Errorf("kept %d URLs", s.GetURLCount())
					}
				})
			}
		})
	}
	t.Run("listed sitemap, reached by a redirect", func(t *testing.T) {
		srv := newServer(t)
		srv.Bytes("/real.xml.gz", gzipOf(textOfSize(limit+1)))
		srv.Redirect("/old.xml.gz", "/real.xml.gz")
		srv.Doc("/ok.txt", "https://example.com/ok\n")
		srv.Doc("/index.xml", index(srv.At("/old.xml.gz"), srv.At("/ok.txt")))
		s, err := sitemap.New().SetMaxResponseSize(limit).Parse(srv.At("/index.xml"), nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		perrs := errorsOf[*sitemap.ParseError](s.GetErrors())
		if s.GetErrorsCount() != 1 || len(perrs) != 1 || perrs[0].URL != srv.At("/real.xml.gz") || !errors.Is(perrs[0], sitemap.ErrMaxResponseSize) {
			t.Errorf("errors = %q", messagesOf(s.GetErrors()))
		}
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/ok"})
	})
}

// --- Max depth -------------------------------------------------------------

func TestMaxDepthSpecExample(t *testing.T) {
	// MAXDEPTH-2, MAXDEPTH-5, MAXDEPTH-6, MAXDEPTH-7, LIMITERR-3,
	// GETSITEMAPS-8: the message to the letter.
	for _, multi := range []bool{true, false} {
		t.Run(strconv.FormatBool(multi), func(t *testing.T) {
			fake := newFakeWeb(map[string]string{
				"https://example.com/sitemap-index.xml":   index("https://example.com/sitemap-1.xml", "https://example.com/sitemap-index-2.xml"),
				"https://example.com/sitemap-1.xml":       urlset("https://example.com/page-1"),
				"https://example.com/sitemap-index-2.xml": index("https://example.com/sitemap-3.xml"),
				"https://example.com/sitemap-3.xml":       urlset("https://example.com/page-3"),
			})
			s, err := sitemap.New().SetMultiThread(multi).SetHTTPClient(fake.Client()).SetMaxDepth(1).Parse("https://example.com/sitemap-index.xml", nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{`parse "https://example.com/sitemap-index-2.xml": max recursion depth of 1 reached`})
			oneOf(t, s.GetErrors(), sitemap.ErrMaxDepth)
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/page-1"})
			for _, u := range fake.Log() {
				if u == "https://example.com/sitemap-3.xml" {
					t.Error("a sitemap below the depth limit was fetched")
				}
			}
			sms := sitemapLocsOf(s.GetSitemaps())
			if len(sms) != 3 || sms[2] != "https://example.com/sitemap-3.xml" {
				t.Errorf("sitemaps %q: the one not followed should be listed", sms)
			}
		})
	}
}

// chainOfIndexes serves an index chain: /idx-0.xml lists /leaf-1.xml and
// /idx-1.xml; /idx-k.xml lists /leaf-(k+1).xml and /idx-(k+1).xml; the last
// index lists only its leaf. /leaf-k.xml is a urlset of one page.
func chainOfIndexes(srv *server, indexes int) {
	for k := range indexes {
		locs := []string{srv.At(fmt.Sprintf("/leaf-%d.xml", k+1))}
		if k+1 < indexes {
			locs = append(locs, srv.At(fmt.Sprintf("/idx-%d.xml", k+1)))
		}
		srv.Doc(fmt.Sprintf("/idx-%d.xml", k), index(locs...))
		srv.Doc(fmt.Sprintf("/leaf-%d.xml", k+1), urlset(fmt.Sprintf("https://example.com/leaf-%d", k+1)))
	}
}

func TestMaxDepthLevels(t *testing.T) {
	// MAXDEPTH-1, MAXDEPTH-3, MAXDEPTH-4, MAXDEPTH-5, MAXDEPTH-7: the root
	// is level 0, a robots.txt no level; sitemaps down to the depth are
	// fetched, and their URLs returned.
	const indexes = 4 // idx-0 … idx-3, leaves 1 … 4
	for _, robots := range []bool{false, true} {
		for _, depth := range []int{1, 2, 3, 4, 5} {
			for _, multi := range []bool{true, false} {
				t.Run(fmt.Sprintf("robots=%v/depth=%d/multi=%v", robots, depth, multi), func(t *testing.T) {
					srv := newServer(t)
					chainOfIndexes(srv, indexes)
					root := srv.At("/idx-0.xml")
					if robots {
						srv.Doc("/robots.txt", "Sitemap: "+root+"\n")
						root = srv.At("/robots.txt")
					}
					s, err := sitemap.New().SetMultiThread(multi).SetMaxDepth(depth).Parse(root, nil)
					if err != nil {
						t.Fatalf("Parse: %v", err)
					}
					var wantURLs []string
					for k := 1; k <= min(depth, indexes); k++ {
						wantURLs = append(wantURLs, fmt.Sprintf("https://example.com/leaf-%d", k))
					}
					got := locsOf(s.GetURLs())
					if !multi {
						equalStrings(t, "URLs", got, wantURLs)
					} else if len(got) != len(wantURLs) {
						t.Errorf("URLs %q, want %q in any order", got, wantURLs)
					}
					for k := 1; k < indexes; k++ {
						if want, n := btoi(k <= depth), srv.Hits(fmt.Sprintf("/idx-%d.xml", k)); n != want {
							t.Errorf("/idx-%d.xml requested %d times, want %d", k, n, want)
						}
					}
					for k := 1; k <= indexes; k++ {
						if want, n := btoi(k <= depth), srv.Hits(fmt.Sprintf("/leaf-%d.xml", k)); n != want {
							t.Errorf("/leaf-%d.xml requested %d times, want %d", k, n, want)
						}
					}
					if depth < indexes {
						want := fmt.Sprintf(`parse %q: max recursion depth of %d reached`, srv.At(fmt.Sprintf("/idx-%d.xml", depth)), depth)
						equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{want})
					} else {
						noErrors(t, s)
					}
				})
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestMaxDepthDefault(t *testing.T) {
	// MAXDEPTH-1: 10 by default.
	srv := newServer(t)
	chainOfIndexes(srv, 12)
	s, err := sitemap.New().Parse(srv.At("/idx-0.xml"), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{fmt.Sprintf(`parse %q: max recursion depth of 10 reached`, srv.At("/idx-10.xml"))})
	if srv.Hits("/idx-10.xml") != 1 || srv.Hits("/leaf-10.xml") != 1 || srv.Hits("/idx-11.xml") != 0 || srv.Hits("/leaf-11.xml") != 0 {
		t.Errorf("requests %q", srv.Log())
	}
	if s.GetURLCount() != 10 {
		t.Errorf("%d URLs, want 10", s.GetURLCount())
	}
}

func TestMaxDepthErrorPerIndex(t *testing.T) {
	// MAXDEPTH-5: one error for every index whose sitemaps are not
	// followed, naming it by its final URL; none for an index at the limit
	// that lists nothing or only what the follow rules leave out
	// (decision).
	srv := newServer(t)
	srv.Doc("/a.xml", index(srv.At("/a-child.xml")))
	srv.Doc("/b-final.xml", index(srv.At("/b-child.xml")))
	srv.Redirect("/b.xml", "/b-final.xml")
	srv.Doc("/empty.xml", index())
	srv.Doc("/excluded-only.xml", index(srv.At("/skip-child.xml")))
	srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/b.xml"), srv.At("/empty.xml"), srv.At("/excluded-only.xml")))
	s, err := sitemap.New().SetMultiThread(false).SetMaxDepth(1).SetFollow([]string{`/(a|b|empty|excluded-only|a-child|b-child)\.xml$`}).Parse(srv.At("/index.xml"), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{
		fmt.Sprintf(`parse %q: max recursion depth of 1 reached`, srv.At("/a.xml")),
		fmt.Sprintf(`parse %q: max recursion depth of 1 reached`, srv.At("/b-final.xml")),
	})
	for _, p := range []string{"/a-child.xml", "/b-child.xml", "/skip-child.xml"} {
		if srv.Hits(p) != 0 {
			t.Errorf("%s requested", p)
		}
	}
}

// --- Max sitemaps ----------------------------------------------------------

func TestMaxSitemapsSpecExample(t *testing.T) {
	// MAXSITEMAPS-8, MAXSITEMAPS-9, MAXSITEMAPS-12, MAXSITEMAPS-13,
	// MAXSITEMAPS-15 (decision: one error), LIMITERR-4: a limit of 1,000
	// and an index of 1,200 entries records the error whichever sitemaps
	// are followed.
	const want = `parse "https://example.com/index.xml": limit of 1000 sitemaps reached`
	tests := []struct {
		name    string
		follow  []string
		fetched int
	}{
		{"follow none", []string{`^$`}, 0},
		{"follow ten", []string{`/s1[0-9]\.xml$`}, 10},
		{"follow all", nil, 1000},
	}
	for _, tt := range tests {
		for _, multi := range []bool{true, false} {
			if tt.fetched == 1000 && !multi {
				continue // 1,000 fetches once are enough; order is tested apart
			}
			t.Run(fmt.Sprintf("%s/multi=%v", tt.name, multi), func(t *testing.T) {
				fake := fakeIndex(1200)
				s := sitemap.New().SetMultiThread(multi).SetHTTPClient(fake.Client()).SetMaxSitemaps(1000)
				if tt.follow != nil {
					s.SetFollow(tt.follow)
				}
				if _, err := s.Parse("https://example.com/index.xml", nil); err != nil {
					t.Fatalf("Parse: %v", err)
				}
				equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{want})
				oneOf(t, s.GetErrors(), sitemap.ErrMaxSitemaps)
				if n := len(fake.Log()) - 1; n != tt.fetched {
					t.Errorf("fetched %d sitemaps, want %d", n, tt.fetched)
				}
				sms := sitemapLocsOf(s.GetSitemaps())
				if len(sms) != 1000 || sms[0] != "https://example.com/s0.xml" || sms[999] != "https://example.com/s999.xml" {
					t.Errorf("%d sitemaps listed, from %q to %q; want the first 1000", len(sms), sms[0], sms[len(sms)-1])
				}
				if int(s.GetURLCount()) != tt.fetched {
					t.Errorf("%d URLs, want %d", s.GetURLCount(), tt.fetched)
				}
			})
		}
	}
}

func TestMaxSitemapsSequentialFirstN(t *testing.T) {
	// MAXSITEMAPS-7, MAXSITEMAPS-9, MAXSITEMAPS-10: with multi-threading off
	// the first n are fetched, in listed order.
	srv := newServer(t)
	var locs []string
	for i := 1; i <= 5; i++ {
		p := fmt.Sprintf("/s%d.xml", i)
		srv.Doc(p, urlset(fmt.Sprintf("https://example.com/s%d", i)))
		locs = append(locs, srv.At(p))
	}
	srv.Doc("/robots.txt", "Sitemap: "+strings.Join(locs, "\nSitemap: ")+"\n")
	srv.Doc("/index.xml", index(locs...))
	for _, root := range []string{"/index.xml", "/robots.txt"} {
		t.Run(root, func(t *testing.T) {
			before := srv.Total()
			s, err := sitemap.New().SetMultiThread(false).SetMaxSitemaps(3).Parse(srv.At(root), nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			equalStrings(t, "requests", srv.Log()[before:], []string{root, "/s1.xml", "/s2.xml", "/s3.xml"})
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/s1", "https://example.com/s2", "https://example.com/s3"})
			equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{fmt.Sprintf(`parse %q: limit of 3 sitemaps reached`, srv.At(root))})
		})
	}
}

func TestMaxSitemapsCounting(t *testing.T) {
	// MAXSITEMAPS-2, MAXSITEMAPS-3, MAXSITEMAPS-4, MAXSITEMAPS-5,
	// MAXSITEMAPS-6, MAXSITEMAPS-11, decision: the root listed by itself is
	// not fetched again.
	t.Run("across levels, depth first", func(t *testing.T) {
		srv := newServer(t)
		srv.Doc("/a.xml", index(srv.At("/c.xml"), srv.At("/d.xml")))
		for _, p := range []string{"/b.xml", "/c.xml", "/d.xml"} {
			srv.Doc(p, urlset("https://example.com"+strings.TrimSuffix(p, ".xml")))
		}
		srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/b.xml")))
		s, err := sitemap.New().SetMultiThread(false).SetMaxSitemaps(3).Parse(srv.At("/index.xml"), nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "requests", srv.Log(), []string{"/index.xml", "/a.xml", "/c.xml", "/d.xml"})
		oneOf(t, s.GetErrors(), sitemap.ErrMaxSitemaps)
		if s.GetErrorsCount() != 1 {
			t.Errorf("errors %q", messagesOf(s.GetErrors()))
		}
	})
	t.Run("robots.txt and indexes together", func(t *testing.T) {
		srv := newServer(t)
		srv.Doc("/x.xml", index(srv.At("/a.xml"), srv.At("/b.xml")))
		srv.Doc("/a.xml", urlset("https://example.com/a"))
		srv.Doc("/b.xml", urlset("https://example.com/b"))
		srv.Doc("/robots.txt", "Sitemap: "+srv.At("/x.xml")+"\n")
		s, err := sitemap.New().SetMultiThread(false).SetMaxSitemaps(2).Parse(srv.At("/robots.txt"), nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "requests", srv.Log(), []string{"/robots.txt", "/x.xml", "/a.xml"})
		oneOf(t, s.GetErrors(), sitemap.ErrMaxSitemaps)
	})
	t.Run("failed requests count", func(t *testing.T) {
		srv := newServer(t)
		srv.Status("/fails.xml", http.StatusInternalServerError)
		srv.Doc("/ok1.xml", urlset("https://example.com/1"))
		srv.Doc("/ok2.xml", urlset("https://example.com/2"))
		srv.Doc("/index.xml", index(srv.At("/missing.xml"), srv.At("/fails.xml"), srv.At("/ok1.xml"), srv.At("/ok2.xml")))
		s, err := sitemap.New().SetMultiThread(false).SetMaxSitemaps(3).Parse(srv.At("/index.xml"), nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "requests", srv.Log(), []string{"/index.xml", "/missing.xml", "/fails.xml", "/ok1.xml"})
		if n := len(errorsOf[*sitemap.NetworkError](s.GetErrors())); n != 2 {
			t.Errorf("%d *NetworkError, want 2: %q", n, messagesOf(s.GetErrors()))
		}
		oneOf(t, s.GetErrors(), sitemap.ErrMaxSitemaps)
	})
	t.Run("duplicates count once, the root not at all", func(t *testing.T) {
		for _, multi := range []bool{true, false} {
			srv := newServer(t)
			srv.Doc("/a.xml", index(srv.At("/b.xml"), srv.At("/a.xml")))
			srv.Doc("/b.xml", urlset("https://example.com/b"))
			srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/a.xml"), srv.At("/b.xml")))
			s, err := sitemap.New().SetMultiThread(multi).SetMaxSitemaps(2).Parse(srv.At("/index.xml"), nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			noErrors(t, s) // MAXSITEMAPS-11: exactly 2 fetched, 2 listed
			for _, p := range []string{"/index.xml", "/a.xml", "/b.xml"} {
				if srv.Hits(p) != 1 {
					t.Errorf("%s requested %d times", p, srv.Hits(p))
				}
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/b"})
		}
	})
	t.Run("root listed by itself is listed, not fetched again", func(t *testing.T) {
		srv := newServer(t)
		srv.Doc("/a.xml", urlset("https://example.com/a"))
		srv.Doc("/index.xml", index(srv.At("/index.xml"), srv.At("/a.xml")))
		s, err := sitemap.New().SetMaxSitemaps(2).Parse(srv.At("/index.xml"), nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		noErrors(t, s)
		if srv.Hits("/index.xml") != 1 {
			t.Errorf("root requested %d times", srv.Hits("/index.xml"))
		}
		equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{srv.At("/index.xml"), srv.At("/a.xml")})
	})
	t.Run("unfollowed sitemaps are not fetched and do not count", func(t *testing.T) {
		srv := newServer(t)
		srv.Doc("/a.xml", urlset("https://example.com/a"))
		srv.Doc("/b.xml", urlset("https://example.com/b"))
		srv.Doc("/index.xml", index(srv.At("/skip-1.xml"), srv.At("/a.xml"), srv.At("/skip-2.xml"), srv.At("/b.xml")))
		s, err := sitemap.New().SetMultiThread(false).SetMaxSitemaps(4).SetFollow([]string{`/[ab]\.xml$`}).Parse(srv.At("/index.xml"), nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		noErrors(t, s)
		equalStrings(t, "requests", srv.Log(), []string{"/index.xml", "/a.xml", "/b.xml"})
	})
	t.Run("exactly n, multi-thread", func(t *testing.T) {
		fake := fakeIndex(7)
		s, err := sitemap.New().SetHTTPClient(fake.Client()).SetMaxSitemaps(7).Parse("https://example.com/index.xml", nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		noErrors(t, s)
		if s.GetURLCount() != 7 || s.GetSitemapCount() != 7 {
			t.Errorf("%d URLs, %d sitemaps", s.GetURLCount(), s.GetSitemapCount())
		}
	})
	t.Run("0 is no limit", func(t *testing.T) {
		fake := fakeIndex(120)
		s, err := sitemap.New().SetHTTPClient(fake.Client()).SetMaxSitemaps(0).Parse("https://example.com/index.xml", nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		noErrors(t, s)
		if s.GetURLCount() != 120 || s.GetSitemapCount() != 120 {
			t.Errorf("%d URLs, %d sitemaps", s.GetURLCount(), s.GetSitemapCount())
		}
	})
}

func TestMaxSitemapsMultiThreadRequestsExactlyN(t *testing.T) {
	// Decision: with multi-threading on, exactly the limit is requested.
	for _, conc := range []int{0, 1, 4} {
		t.Run(strconv.Itoa(conc), func(t *testing.T) {
			fake := fakeIndex(20)
			s, err := sitemap.New().SetHTTPClient(fake.Client()).SetMaxConcurrency(conc).SetMaxSitemaps(5).Parse("https://example.com/index.xml", nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if n := len(fake.Log()) - 1; n != 5 {
				t.Errorf("%d sitemaps requested, want 5", n)
			}
			if s.GetURLCount() != 5 {
				t.Errorf("%d URLs", s.GetURLCount())
			}
			oneOf(t, s.GetErrors(), sitemap.ErrMaxSitemaps)
			if s.GetErrorsCount() != 1 {
				t.Errorf("errors %q", messagesOf(s.GetErrors()))
			}
		})
	}
}

func TestMaxSitemapsListingCountedApart(t *testing.T) {
	// MAXSITEMAPS-12, MAXSITEMAPS-13: more listed than the limit records
	// the error even when few are fetched; the first ones found are kept.
	srv := newServer(t)
	srv.Doc("/a.xml", index(srv.At("/a1.xml"), srv.At("/a2.xml")))
	srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/b.xml")))
	s, err := sitemap.New().SetMultiThread(false).SetMaxSitemaps(3).SetFollow([]string{`/a\.xml$`}).Parse(srv.At("/index.xml"), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "requests", srv.Log(), []string{"/index.xml", "/a.xml"})
	equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{srv.At("/a.xml"), srv.At("/b.xml"), srv.At("/a1.xml")})
	equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{fmt.Sprintf(`parse %q: limit of 3 sitemaps reached`, srv.At("/index.xml"))})
}

func TestCallLimitsFixedWhenCallStarts(t *testing.T) {
	// MAXSITEMAPS-14, MAXURLS-10, MAXVALERR-9, THREAD-9: a limit set while
	// a call runs does not change that call.
	srv := newServer(t)
	s := sitemap.New().SetMultiThread(false)
	var once sync.Once
	srv.Handle("/a.xml", func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { s.SetMaxSitemaps(1).SetMaxURLs(1).SetMaxValidationErrors(1) })
		io.WriteString(w, urlset("https://example.com/a1", "https://example.com/a2", "", ""))
	})
	srv.Doc("/b.xml", urlset("https://example.com/b1", "https://example.com/b2"))
	srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/b.xml")))
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if s.GetURLCount() != 4 || srv.Hits("/b.xml") != 1 {
		t.Errorf("%d URLs, /b.xml requested %d times", s.GetURLCount(), srv.Hits("/b.xml"))
	}
	if n := len(errorsOf[*sitemap.ValidationError](s.GetErrors())); n != 2 || s.GetErrorsCount() != 2 {
		t.Errorf("errors %q", messagesOf(s.GetErrors()))
	}
	if s.GetMaxSitemaps() != 1 || s.GetMaxURLs() != 1 || s.GetMaxValidationErrors() != 1 {
		t.Error("the values set during the call were not kept for the next one")
	}
}

// --- Max URLs --------------------------------------------------------------

func TestMaxURLsMessage(t *testing.T) {
	// MAXURLS-6, MAXURLS-7, LIMITERR-4
	fake := newFakeWeb(map[string]string{
		"https://example.com/sitemap-index.xml": index("https://example.com/sitemap-1.xml"),
		"https://example.com/sitemap-1.xml":     urlset(pages("p", 5)...),
	})
	s, err := sitemap.New().SetHTTPClient(fake.Client()).SetMaxURLs(3).Parse("https://example.com/sitemap-index.xml", nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{`parse "https://example.com/sitemap-index.xml": limit of 3 URLs reached`})
	oneOf(t, s.GetErrors(), sitemap.ErrMaxURLs)
	equalStrings(t, "URLs", locsOf(s.GetURLs()), pages("p", 3))
}

func TestMaxURLsRestOfDocumentUnread(t *testing.T) {
	// MAXURLS-4: what is left of the document is not read, so it adds no
	// errors: no validation errors, not even broken XML.
	tests := []struct{ name, body string }{
		{"urlset", urlset(append(pages("p", 4), "", "ftp://example.com/x", "https://example.com/p-5")...) + "<<< broken"},
		{"text", strings.Join(pages("p", 4), "\n") + "\nhttps://:80/no-host\nhttps://example.com/p-5\n"},
		{"cut XML", urlset(pages("p", 4)...)[:len(urlset(pages("p", 4)...))-30]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range deliveries {
				t.Run(d.name, func(t *testing.T) {
					srv := newServer(t)
					s, err := d.parse(t, sitemap.New().SetMaxURLs(2), srv, "/sitemap.xml", []byte(tt.body))
					if err != nil {
						t.Fatalf("Parse: %v", err)
					}
					equalStrings(t, "URLs", locsOf(s.GetURLs()), pages("p", 2))
					equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{fmt.Sprintf(`parse %q: limit of 2 URLs reached`, srv.At("/sitemap.xml"))})
				})
			}
		})
	}
}

func TestMaxURLsRemainingSitemapsNotFetched(t *testing.T) {
	// MAXURLS-2, MAXURLS-5, MAXURLS-8: counted across sitemaps; the first
	// n in listed order with multi-threading off; the sitemaps left are not
	// requested.
	tests := []struct {
		limit    int
		requests []string
		urls     []string
	}{
		{3, []string{"/index.xml", "/s1.xml", "/s2.xml"}, []string{"https://example.com/s1-1", "https://example.com/s1-2", "https://example.com/s2-1"}},
		// MAXURLS-11: the limit is full after s1: s2 may hold URLs, so it
		// is reported, and s2 is not fetched.
		{2, []string{"/index.xml", "/s1.xml"}, []string{"https://example.com/s1-1", "https://example.com/s1-2"}},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.limit), func(t *testing.T) {
			srv := newServer(t)
			for i := 1; i <= 3; i++ {
				srv.Doc(fmt.Sprintf("/s%d.xml", i), urlset(fmt.Sprintf("https://example.com/s%d-1", i), fmt.Sprintf("https://example.com/s%d-2", i)))
			}
			srv.Doc("/index.xml", index(srv.At("/s1.xml"), srv.At("/s2.xml"), srv.At("/s3.xml")))
			s, err := sitemap.New().SetMultiThread(false).SetMaxURLs(tt.limit).Parse(srv.At("/index.xml"), nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			equalStrings(t, "requests", srv.Log(), tt.requests)
			equalStrings(t, "URLs", locsOf(s.GetURLs()), tt.urls)
			equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{fmt.Sprintf(`parse %q: limit of %d URLs reached`, srv.At("/index.xml"), tt.limit)})
			// GETSITEMAPS-8: those not fetched are listed all the same.
			if s.GetSitemapCount() != 3 {
				t.Errorf("%d sitemaps listed", s.GetSitemapCount())
			}
		})
	}
}

func TestMaxURLsWhatCounts(t *testing.T) {
	// MAXURLS-3, MAXURLS-9, RULES-5: invalid entries and URLs the rules
	// leave out do not count; nothing is recorded if nothing was left out.
	body := urlset(
		"https://example.com/other/1",
		"",
		"https://example.com/keep/1",
		"ftp://example.com/keep/x",
		"https://example.com/other/2",
		"https://example.com/keep/2",
	)
	s, err := sitemap.New().SetRules([]string{`/keep/`}).SetMaxURLs(2).Parse("https://example.com/sitemap.xml", &body)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/keep/1", "https://example.com/keep/2"})
	noneOf(t, s.GetErrors(), sitemap.ErrMaxURLs)
	if n := len(errorsOf[*sitemap.ValidationError](s.GetErrors())); n != 2 || s.GetErrorsCount() != 2 {
		t.Errorf("errors %q, want the two validation errors", messagesOf(s.GetErrors()))
	}

	t.Run("exactly n across sitemaps", func(t *testing.T) {
		for _, multi := range []bool{true, false} {
			srv := newServer(t)
			srv.Doc("/a.xml", urlset("https://example.com/a1", "https://example.com/a2"))
			srv.Doc("/b.txt", "https://example.com/b1\n")
			srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/b.txt")))
			s, err := sitemap.New().SetMultiThread(multi).SetMaxURLs(3).Parse(srv.At("/index.xml"), nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			noErrors(t, s)
			if s.GetURLCount() != 3 {
				t.Errorf("%d URLs", s.GetURLCount())
			}
		}
	})
	t.Run("0 is no limit", func(t *testing.T) {
		body := urlset(pages("p", 500)...)
		s, err := sitemap.New().SetMaxURLs(0).Parse("https://example.com/sitemap.xml", &body)
		if err != nil || s.GetURLCount() != 500 || s.GetErrorsCount() != 0 {
			t.Errorf("err %v, %d URLs, errors %q", err, s.GetURLCount(), messagesOf(s.GetErrors()))
		}
	})
}

func TestMaxURLsMultiThread(t *testing.T) {
	// MAXURLS-8: with multi-threading on, n URLs all the same, one error.
	docs := map[string]string{}
	var locs []string
	for i := 1; i <= 10; i++ {
		loc := fmt.Sprintf("https://example.com/s%d.xml", i)
		locs = append(locs, loc)
		docs[loc] = urlset(pages(fmt.Sprintf("s%d", i), 4)...)
	}
	docs["https://example.com/index.xml"] = index(locs...)
	fake := newFakeWeb(docs)
	s, err := sitemap.New().SetHTTPClient(fake.Client()).SetMaxConcurrency(0).SetMaxURLs(10).Parse("https://example.com/index.xml", nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if s.GetURLCount() != 10 {
		t.Errorf("%d URLs", s.GetURLCount())
	}
	oneOf(t, s.GetErrors(), sitemap.ErrMaxURLs)
	if s.GetErrorsCount() != 1 {
		t.Errorf("errors %q", messagesOf(s.GetErrors()))
	}
}

// closeSignal is a transport that closes a channel when the body of the
// response for one path is closed: the client is done with that document.
type closeSignal struct {
	path   string
	closed chan struct{}
	once   sync.Once
}

func (c *closeSignal) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || req.URL.Path != c.path {
		return resp, err
	}
	body := resp.Body
	resp.Body = struct {
		io.Reader
		io.Closer
	}{body, closerFunc(func() error {
		c.once.Do(func() { close(c.closed) })
		return body.Close()
	})}
	return resp, nil
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

func TestMaxURLsSitemapUnderWayNotParsed(t *testing.T) {
	// MAXURLS-5: a sitemap whose request was under way when the limit was
	// reached is not parsed.
	srv := newServer(t)
	signal := &closeSignal{path: "/a.xml", closed: make(chan struct{})}
	// /a.xml answers once /b.xml is requested, so that the request of
	// /b.xml is under way, whatever the scheduler's timing, when the URLs
	// of /a.xml reach the limit.
	bRequested := make(chan struct{})
	srv.Handle("/a.xml", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-bRequested:
		case <-srv.stop:
		}
		io.WriteString(w, urlset("https://example.com/a1", "https://example.com/a2"))
	})
	srv.Handle("/b.xml", func(w http.ResponseWriter, r *http.Request) {
		close(bRequested)
		// Answer once /a.xml is read and its URLs taken.
		select {
		case <-signal.closed:
		case <-srv.stop:
		}
		io.WriteString(w, urlset("https://example.com/b1", "", "https://example.com/b2"))
	})
	srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/b.xml")))
	var s *sitemap.S
	var err error
	guard(t, guardTimeout, func() {
		s, err = sitemap.New().SetHTTPClient(&http.Client{Transport: signal}).SetMaxConcurrency(0).SetMaxURLs(2).Parse(srv.At("/index.xml"), nil)
	})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/a1", "https://example.com/a2"})
	equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{fmt.Sprintf(`parse %q: limit of 2 URLs reached`, srv.At("/index.xml"))})
	if srv.Hits("/b.xml") != 1 {
		t.Errorf("/b.xml requested %d times, want 1 (under way)", srv.Hits("/b.xml"))
	}
}

// --- Max validation errors -------------------------------------------------

func TestMaxValidationErrors(t *testing.T) {
	// MAXVALERR-1, MAXVALERR-2, MAXVALERR-3, MAXVALERR-4, MAXVALERR-5,
	// MAXVALERR-8, MAXVALERR-10, LIMITERR-4
	const root = "https://example.com/sitemap.xml"
	twoBad := `<?xml version="1.0"?><urlset xmlns="` + sitemapNS + `">
<url><loc>https://example.com/a</loc><lastmod>yesterday</lastmod><priority>high</priority></url>
<url><loc>https://example.com/b</loc></url>
</urlset>`
	wantTwo := []string{
		`validate "https://example.com/a": invalid <lastmod> value "yesterday"`,
		`validate "https://example.com/a": invalid <priority> value "high"`,
	}
	limitMsg := func(n int) string { return fmt.Sprintf(`parse %q: limit of %d validation errors reached`, root, n) }
	tests := []struct {
		name    string
		limit   int
		valErrs []string
		limited bool
	}{
		{"an entry with two bad values counts twice", 2, wantTwo, false},
		{"limit of 1", 1, wantTwo[:1], true},
		{"0 is no limit", 0, wantTwo, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := sitemap.New().SetMaxValidationErrors(tt.limit).Parse(root, &twoBad)
			if err != nil {
				t.Fatalf("Parse: %v (reaching the limit does not fail the call)", err)
			}
			var valErrs []string
			for _, e := range errorsOf[*sitemap.ValidationError](s.GetErrors()) {
				valErrs = append(valErrs, e.Error())
			}
			equalStrings(t, "validation errors", valErrs, tt.valErrs)
			if tt.limited {
				if perr := oneOf(t, s.GetErrors(), sitemap.ErrMaxValidationErrors); perr.Error() != limitMsg(tt.limit) {
					t.Errorf("limit error %q, want %q", perr.Error(), limitMsg(tt.limit))
				}
			} else {
				noneOf(t, s.GetErrors(), sitemap.ErrMaxValidationErrors)
			}
			if int(s.GetErrorsCount()) != len(tt.valErrs)+btoi(tt.limited) {
				t.Errorf("errors %q", messagesOf(s.GetErrors()))
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/a", "https://example.com/b"})
		})
	}
	t.Run("strict mode, an entry with two bad values", func(t *testing.T) {
		body := `<urlset xmlns="` + sitemapNS + `"><url><loc>https://example.com/a</loc><changefreq>Daily</changefreq><priority>1.5</priority></url></urlset>`
		s, err := sitemap.New().SetStrict(true).SetMaxValidationErrors(2).Parse("https://example.com/sitemap.xml", &body)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{
			`validate "https://example.com/a": strict mode: invalid <changefreq> value "Daily"`,
			`validate "https://example.com/a": strict mode: <priority> value "1.5" is not between 0.0 and 1.0`,
		})
	})
}

func TestMaxValidationErrorsTakeNothingElse(t *testing.T) {
	// MAXVALERR-6, MAXVALERR-7, MAXVALERR-8: documents are read to the end
	// and sitemaps fetched; errors of the other types are recorded; the
	// validation errors kept are the first ones in reading order.
	srv := newServer(t)
	srv.Doc("/a.xml", urlset("", "https://example.com/a1", "", "https://example.com/a2", ""))
	srv.Doc("/broken.xml", `<urlset xmlns="`+sitemapNS+`"><url><loc>https://example.com/x</loc></url><url><loc>`)
	srv.Status("/gone.xml", http.StatusGone)
	srv.Doc("/b.txt", "https://example.com/b1\nftp://example.com/not-a-line\nhttps://:1/no-host\nhttps://example.com/b2\n")
	srv.Doc("/index.xml", index("", srv.At("/a.xml"), "", srv.At("/broken.xml"), srv.At("/gone.xml"), srv.At("/b.txt")))
	s, err := sitemap.New().SetMultiThread(false).SetMaxValidationErrors(2).Parse(srv.At("/index.xml"), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	// TOLERANT-13: the complete entry of /broken.xml is kept.
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/a1", "https://example.com/a2", "https://example.com/x", "https://example.com/b1", "https://example.com/b2"})
	if s.GetSitemapCount() != 4 {
		t.Errorf("%d sitemaps listed", s.GetSitemapCount())
	}
	var valErrs []string
	for _, e := range errorsOf[*sitemap.ValidationError](s.GetErrors()) {
		valErrs = append(valErrs, e.Error())
	}
	noLoc := fmt.Sprintf(`validate %q: <loc> of an entry is empty or missing`, srv.At("/index.xml"))
	equalStrings(t, "validation errors", valErrs, []string{noLoc, noLoc})
	if n := len(errorsOf[*sitemap.NetworkError](s.GetErrors())); n != 1 {
		t.Errorf("%d *NetworkError, want 1", n)
	}
	parseErrs := 0
	for _, e := range errorsOf[*sitemap.ParseError](s.GetErrors()) {
		if e.URL == srv.At("/broken.xml") {
			parseErrs++
		}
	}
	if parseErrs != 1 {
		t.Errorf("%d *ParseError for /broken.xml, want 1: %q", parseErrs, messagesOf(s.GetErrors()))
	}
	oneOf(t, s.GetErrors(), sitemap.ErrMaxValidationErrors)
	if s.GetErrorsCount() != 5 {
		t.Errorf("errors %q", messagesOf(s.GetErrors()))
	}
}

func TestLimitSettersRejectAndKeep(t *testing.T) {
	// MAXSIZE-6, MAXSIZE-7, MAXDEPTH-8, MAXSITEMAPS-14, MAXURLS-10,
	// MAXVALERR-9, MAXCONC-6, TIMEOUT-1, TIMEOUT-2, CONFIG-11 (decision):
	// a rejected value records a *ConfigError for its setting and leaves
	// the value as it was.
	tests := []struct {
		field string
		good  func(*sitemap.S) *sitemap.S
		bad   func(*sitemap.S) *sitemap.S
		get   func(*sitemap.S) int64
		want  int64
	}{
		{"maxResponseSize", func(s *sitemap.S) *sitemap.S { return s.SetMaxResponseSize(math.MaxInt64) }, func(s *sitemap.S) *sitemap.S { return s.SetMaxResponseSize(0) },
			func(s *sitemap.S) int64 { return s.GetMaxResponseSize() }, math.MaxInt64},
		{"maxResponseSize", func(s *sitemap.S) *sitemap.S { return s.SetMaxResponseSize(1) }, func(s *sitemap.S) *sitemap.S { return s.SetMaxResponseSize(-1) },
			func(s *sitemap.S) int64 { return s.GetMaxResponseSize() }, 1},
		{"maxDepth", func(s *sitemap.S) *sitemap.S { return s.SetMaxDepth(3) }, func(s *sitemap.S) *sitemap.S { return s.SetMaxDepth(0) },
			func(s *sitemap.S) int64 { return int64(s.GetMaxDepth()) }, 3},
		{"maxSitemaps", func(s *sitemap.S) *sitemap.S { return s.SetMaxSitemaps(0) }, func(s *sitemap.S) *sitemap.S { return s.SetMaxSitemaps(-1) },
			func(s *sitemap.S) int64 { return int64(s.GetMaxSitemaps()) }, 0},
		{"maxURLs", func(s *sitemap.S) *sitemap.S { return s.SetMaxURLs(7) }, func(s *sitemap.S) *sitemap.S { return s.SetMaxURLs(-7) },
			func(s *sitemap.S) int64 { return int64(s.GetMaxURLs()) }, 7},
		{"maxValidationErrors", func(s *sitemap.S) *sitemap.S { return s.SetMaxValidationErrors(0) }, func(s *sitemap.S) *sitemap.S { return s.SetMaxValidationErrors(-2) },
			func(s *sitemap.S) int64 { return int64(s.GetMaxValidationErrors()) }, 0},
		{"maxConcurrency", func(s *sitemap.S) *sitemap.S { return s.SetMaxConcurrency(0) }, func(s *sitemap.S) *sitemap.S { return s.SetMaxConcurrency(-1) },
			func(s *sitemap.S) int64 { return int64(s.GetMaxConcurrency()) }, 0},
		{"fetchTimeout", func(s *sitemap.S) *sitemap.S { return s.SetFetchTimeout(65535) }, func(s *sitemap.S) *sitemap.S { return s.SetFetchTimeout(0) },
			func(s *sitemap.S) int64 { return int64(s.GetFetchTimeout()) }, 65535},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			s := tt.good(sitemap.New())
			noErrors(t, s)
			tt.bad(s)
			cerrs := errorsOf[*sitemap.ConfigError](s.GetErrors())
			if len(cerrs) != 1 || cerrs[0].Field != tt.field || s.GetErrorsCount() != 1 {
				t.Errorf("errors %q, want one *ConfigError for %s", messagesOf(s.GetErrors()), tt.field)
			}
			if got := tt.get(s); got != tt.want {
				t.Errorf("value %d after a rejected one, want %d", got, tt.want)
			}
			tt.good(s)
			noErrors(t, s)
		})
	}
	// The largest size limit is a limit all the same: a document is read,
	// passed in or fetched, compressed or not.
	srv := newServer(t)
	srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/b.xml.gz")))
	srv.Doc("/a.xml", urlset("https://example.com/a"))
	srv.Bytes("/b.xml.gz", gzipOf(urlset("https://example.com/b")))
	content := urlset("https://example.com/a")
	s, err := sitemap.New().SetMaxResponseSize(math.MaxInt64).Parse("https://example.com/sitemap.xml", &content)
	if err != nil || s.GetURLCount() != 1 {
		t.Errorf("MaxInt64, passed in: err %v, %d URLs", err, s.GetURLCount())
	}
	s, err = sitemap.New().SetMaxResponseSize(math.MaxInt64).Parse(srv.At("/index.xml"), nil)
	if err != nil || s.GetURLCount() != 2 || s.GetErrorsCount() != 0 {
		t.Errorf("MaxInt64, fetched: err %v, %d URLs, errors %q", err, s.GetURLCount(), messagesOf(s.GetErrors()))
	}
}

// MAXURLS-11 (decision: the limit is checked when an entry starts): a
// document of exactly n URLs records nothing; an entry that starts once n
// URLs are kept records the error, even one that would not have been valid
// (it is left unread); and so does a sitemap left unfetched, even one that
// holds no URL.
func TestURLLimitErrorWhenAnEntryIsLeftOut(t *testing.T) {
	const root = "https://example.com/sitemap.xml"
	limitErr := `parse "` + root + `": limit of 2 URLs reached`
	tests := []struct {
		name string
		doc  string
		errs []string
	}{
		{"exactly n, nothing after", urlset("https://example.com/1", "https://example.com/2") + "<!-- the end -->\n", nil},
		{"exactly n, then an element that is no entry",
			`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/1</loc></url><url><loc>https://example.com/2</loc></url><other>x</other></urlset>`, nil},
		{"an entry without a location after n", urlset("https://example.com/1", "https://example.com/2", ""), []string{limitErr}},
		{"an entry of another scheme after n", urlset("https://example.com/1", "https://example.com/2", "ftp://example.com/3"), []string{limitErr}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := sitemap.New().SetMaxURLs(2).Parse(root, &tt.doc)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/1", "https://example.com/2"})
			equalStrings(t, "errors", messagesOf(s.GetErrors()), tt.errs)
		})
	}
	t.Run("a sitemap left unfetched", func(t *testing.T) {
		srv := newServer(t)
		srv.Doc("/s1.xml", urlset("https://example.com/1", "https://example.com/2"))
		srv.Doc("/s2.xml", urlset())
		index := index(srv.At("/s1.xml"), srv.At("/s2.xml"))
		s, err := sitemap.New().SetMultiThread(false).SetMaxURLs(2).Parse(srv.At("/index.xml"), &index)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "requests", srv.Log(), []string{"/s1.xml"})
		equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{`parse "` + srv.At("/index.xml") + `": limit of 2 URLs reached`})
	})
}

// MAXURLS-12 (decision: the document stops at the entry the limit leaves
// out, in strict mode too): a well-formedness error in the unread rest is
// never seen, so the URLs kept are returned and only the limit is reported.
// Without the limit, strict mode rejects the same document.
func TestURLLimitStrictRestUnread(t *testing.T) {
	// Strict mode holds the pages to the host of the sitemap: {} is the
	// server's URL.
	const tmpl = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>{}/1</loc></url>
  <url><loc>{}/2</loc></url>
  <url><loc>{}/3</lo></url>
<<< not XML
</urlset>
`
	for _, d := range deliveries {
		t.Run(d.name, func(t *testing.T) {
			srv := newServer(t)
			doc := strings.ReplaceAll(tmpl, "{}", srv.At(""))
			s, err := d.parse(t, sitemap.New().SetStrict(true).SetMaxURLs(2), srv, "/sitemap.xml", []byte(doc))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{srv.At("/1"), srv.At("/2")})
			equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{`parse "` + srv.At("/sitemap.xml") + `": limit of 2 URLs reached`})
		})
	}
	doc := strings.ReplaceAll(tmpl, "{}", "https://example.com")
	_, err := sitemap.New().SetStrict(true).Parse("https://example.com/sitemap.xml", &doc)
	var perr *sitemap.ParseError
	if !errors.As(err, &perr) {
		t.Errorf("without the limit: Parse error = %v, want a *ParseError: the fixture is not well-formed", err)
	}
}

// LIMITERR-2..6, MAXSIZE-4, MAXSIZE-5, MAXDEPTH-5, MAXDEPTH-6,
// MAXSITEMAPS-8, MAXURLS-6, MAXVALERR-4, ERRORS-6: each limit's error is of
// its type, names its URL, reads as the spec quotes it, wraps its own
// sentinel and no other, and does not show the sentinel's text.
func TestLimitErrors(t *testing.T) {
	big := urlset("https://example.com/page") + strings.Repeat(" ", 2000)
	srv := serve(t, map[string]route{
		"/big.xml":        {Body: big},
		"/index.xml":      {Body: index("{base}/nested.xml", "{base}/a.xml", "{base}/b.xml")},
		"/moved.xml":      {Status: 301, Header: map[string]string{"Location": "{base}/nested.xml"}},
		"/nested.xml":     {Body: index("{base}/deeper.xml")},
		"/deeper.xml":     {Body: urlset("{base}/deep")},
		"/a.xml":          {Body: urlset("{base}/a1", "{base}/a2")},
		"/b.xml":          {Body: urlset("{base}/b1")},
		"/invalid.xml":    {Body: urlset("", "ftp://example.com/x", "{base}/ok")},
		"/root-moved.xml": {Body: index("{base}/moved.xml")},
	})
	gz := string(gzipOf(big))
	cases := []struct {
		name     string
		s        *sitemap.S
		url      string
		content  *string
		returned bool // Parse returns the error
		sentinel error
		want     string // the message; {base} stands for the server
		typ      string
	}{
		{"response size", sitemap.New().SetMaxResponseSize(1000), srv.At("/big.xml"), nil, true,
			sitemap.ErrMaxResponseSize, "", "*sitemap.NetworkError"},
		{"decompressed size", sitemap.New().SetMaxResponseSize(1000), "https://example.com/s.xml.gz", &gz, true,
			sitemap.ErrMaxResponseSize, "", "*sitemap.ParseError"},
		{"depth", sitemap.New().SetMaxDepth(1).SetMultiThread(false), srv.At("/index.xml"), nil, false,
			sitemap.ErrMaxDepth, `parse "{base}/nested.xml": max recursion depth of 1 reached`, "*sitemap.ParseError"},
		// The depth error names the index by the URL it was served from.
		{"depth after a redirect", sitemap.New().SetMaxDepth(1), srv.At("/root-moved.xml"), nil, false,
			sitemap.ErrMaxDepth, `parse "{base}/nested.xml": max recursion depth of 1 reached`, "*sitemap.ParseError"},
		{"sitemaps", sitemap.New().SetMaxSitemaps(1).SetMultiThread(false), srv.At("/index.xml"), nil, false,
			sitemap.ErrMaxSitemaps, `parse "{base}/index.xml": limit of 1 sitemaps reached`, "*sitemap.ParseError"},
		{"URLs", sitemap.New().SetMaxURLs(1).SetMultiThread(false).SetFollow([]string{`/a\.xml`}), srv.At("/index.xml"), nil, false,
			sitemap.ErrMaxURLs, `parse "{base}/index.xml": limit of 1 URLs reached`, "*sitemap.ParseError"},
		{"validation errors", sitemap.New().SetMaxValidationErrors(1), srv.At("/invalid.xml"), nil, false,
			sitemap.ErrMaxValidationErrors, `parse "{base}/invalid.xml": limit of 1 validation errors reached`, "*sitemap.ParseError"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.s.Parse(c.url, c.content)
			var found []error
			for _, e := range c.s.GetErrors() {
				if errors.Is(e, c.sentinel) {
					found = append(found, e)
				}
			}
			if len(found) != 1 {
				t.Fatalf("%d errors wrap the sentinel, want 1: %q", len(found), messagesOf(c.s.GetErrors()))
			}
			e := found[0]
			if c.returned {
				if err != e {
					t.Errorf("Parse() returned %v, want the limit error %v", err, e) // LIMITERR-5
				}
				if !errors.Is(err, c.sentinel) {
					t.Errorf("errors.Is(Parse's error, sentinel) = false")
				}
			} else if err != nil {
				t.Errorf("Parse() = %v: reaching this limit does not fail the call", err)
			}
			if got := fmt.Sprintf("%T", e); got != c.typ {
				t.Errorf("type %s, want %s", got, c.typ)
			}
			if c.want != "" {
				if want := strings.ReplaceAll(c.want, "{base}", srv.At("")); e.Error() != want {
					t.Errorf("message %q, want %q", e.Error(), want)
				}
			}
			for _, other := range sentinels {
				if other.err != c.sentinel && errors.Is(e, other.err) {
					t.Errorf("the error wraps %s as well", other.name)
				}
				if strings.Contains(e.Error(), other.err.Error()) {
					t.Errorf("message %q shows the text of %s", e.Error(), other.name) // LIMITERR-6
				}
			}
			// The URL field: the root, or the index for the depth limit.
			var pe *sitemap.ParseError
			var ne *sitemap.NetworkError
			switch {
			case errors.As(e, &ne):
				if ne.URL != c.url {
					t.Errorf("NetworkError.URL = %q, want %q", ne.URL, c.url)
				}
			case errors.As(e, &pe):
				want := c.url
				if c.sentinel == sitemap.ErrMaxDepth {
					want = srv.At("/nested.xml")
				}
				if pe.URL != want {
					t.Errorf("ParseError.URL = %q, want %q", pe.URL, want)
				}
			}
		})
	}
}

// ERRORS-9, MAXVALERR-7: no more *ValidationError values than the limit,
// the errors of the other types all the same.
func TestValidationLimitKeepsOtherErrors(t *testing.T) {
	srv := serve(t, map[string]route{
		"/index.xml": {Body: index("", "ftp://example.com/x.xml", "https:///y.xml", "{base}/m1.xml", "{base}/m2.xml", "{base}/html.xml")},
		"/html.xml":  {Body: "<html/>"},
	})
	s := sitemap.New().SetMaxValidationErrors(1)
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatal(err)
	}
	errs := s.GetErrors()
	vals := errorsOf[*sitemap.ValidationError](errs)
	nets := errorsOf[*sitemap.NetworkError](errs)
	parses := errorsOf[*sitemap.ParseError](errs)
	if len(vals) != 1 || len(nets) != 2 || len(parses) != 2 {
		t.Errorf("%d validation, %d network, %d parse errors; want 1, 2, 2: %q", len(vals), len(nets), len(parses), messagesOf(errs))
	}
}

// TestStreamURLLimitAcrossGoroutines: sitemaps read at the same time count
// their URLs as they hand them on, and the limit holds exactly: the loop
// gets as many URLs as it allows, and the limit's error once.
func TestStreamURLLimitAcrossGoroutines(t *testing.T) {
	srv := indexSite(t, 12, 300)
	for range 5 {
		s := sitemap.New().SetMaxConcurrency(0).SetMaxURLs(1000)
		n, limits := 0, 0
		seen := map[string]bool{}
		for u, err := range s.Stream(context.Background(), srv.URL+"/index.xml", nil) {
			switch {
			case errors.Is(err, sitemap.ErrMaxURLs):
				limits++
			case err == nil:
				n++
				if seen[u.Loc] {
					t.Fatalf("%s twice", u.Loc)
				}
				seen[u.Loc] = true
			}
		}
		if n != 1000 || limits != 1 {
			t.Fatalf("the loop got %d URLs and %d limit errors, want 1000 and 1", n, limits)
		}
	}
}

// TestParseURLLimitAcrossGoroutines: the same with Parse, where the URLs of a
// sitemap are counted when it is committed: a sitemap that the others left
// less room for than it has keeps the first of its URLs, in order, and the
// call keeps exactly as many as the limit allows.
func TestParseURLLimitAcrossGoroutines(t *testing.T) {
	srv := indexSite(t, 6, 2500)
	for range 5 {
		s, err := sitemap.New().SetMaxConcurrency(0).SetMaxURLs(7000).Parse(srv.URL+"/index.xml", nil)
		if err != nil {
			t.Fatal(err)
		}
		urls := s.GetURLs()
		limits := 0
		for _, err := range s.GetErrors() {
			if errors.Is(err, sitemap.ErrMaxURLs) {
				limits++
			}
		}
		if len(urls) != 7000 || limits != 1 {
			t.Fatalf("%d URLs and %d limit errors, want 7000 and 1", len(urls), limits)
		}
		// Each sitemap's URLs stand together, /sN/0 first, in order.
		for i := 0; i < len(urls); {
			doc, _, _ := strings.Cut(strings.TrimPrefix(urls[i].Loc, srv.URL+"/"), "/")
			for j := 0; i < len(urls) && strings.HasPrefix(urls[i].Loc, srv.URL+"/"+doc+"/"); i, j = i+1, j+1 {
				if want := fmt.Sprintf("%s/%s/%d", srv.URL, doc, j); urls[i].Loc != want {
					t.Fatalf("URL %d is %s, want %s", i, urls[i].Loc, want)
				}
			}
		}
	}
}
