package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gositemap/sitemap"
)

// The examples read documents passed in as content, or served by an
// httptest server on the loopback interface: none of them needs a network.

// exampleHost writes the URLs of srv in s as https://example.com, since
// the port of the server changes from one run to the next.
func exampleHost(srv *server, s string) string {
	return strings.ReplaceAll(s, srv.URL, "https://example.com")
}

func ExampleNew() {
	s := sitemap.New()
	fmt.Println(s.GetUserAgent())
	fmt.Println(s.GetFetchTimeout(), s.GetMaxResponseSize(), s.GetMaxDepth(), s.GetMaxConcurrency())
	fmt.Println(s.GetMaxSitemaps(), s.GetMaxURLs(), s.GetMaxValidationErrors())
	fmt.Println(s.GetMultiThread(), s.GetStrict(), s.GetHTTPClient() == nil)
	// Output:
	// gositemap (+https://github.com/gositemap/sitemap/blob/main/README.md)
	// 3 52428800 10 16
	// 50000 10000000 100000
	// true false true
}

// The content of a document can be passed in: then nothing is fetched for
// it, and it is located at the URL given.
func ExampleS_Parse() {
	content := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc></url>
  <url><loc>/about</loc></url>
</urlset>`
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	// Output:
	// https://example.com/
	// https://example.com/about
}

// With nil content, the document is fetched.
func ExampleS_Parse_fetch() {
	srv := serveDocs(nil, map[string]string{
		"/sitemap.xml": urlset("https://example.com/", "https://example.com/contact"),
	})
	defer srv.Close()

	s, err := sitemap.New().Parse(srv.URL+"/sitemap.xml", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.GetURLCount(), "URLs")
	// Output:
	// 2 URLs
}

func ExampleS_ParseContext() {
	srv := serveDocs(nil, map[string]string{
		"/sitemap.xml": urlset("https://example.com/", "https://example.com/contact"),
	})
	defer srv.Close()

	// The deadline bounds the whole call: every request it makes.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := sitemap.New().ParseContext(ctx, srv.URL+"/sitemap.xml", nil)
	fmt.Println(s.GetURLCount(), err)
	// Output:
	// 2 <nil>
}

// A call whose context ends before its first request gets the
// *NetworkError of that request, which wraps the error of the context.
func ExampleS_ParseContext_cancelled() {
	srv := serveDocs(nil, map[string]string{"/sitemap.xml": urlset("https://example.com/")})
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := sitemap.New().ParseContext(ctx, srv.URL+"/sitemap.xml", nil)
	var netErr *sitemap.NetworkError
	fmt.Println(errors.As(err, &netErr), errors.Is(err, context.Canceled))
	// Output:
	// true true
}

func ExampleS_SetUserAgent() {
	agents := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		agents <- r.UserAgent()
		io.WriteString(w, urlset("https://example.com/"))
	}))
	defer srv.Close()

	s := sitemap.New().SetUserAgent("teabot/1.0 (+https://example.org/bot)")
	if _, err := s.Parse(srv.URL+"/sitemap.xml", nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(<-agents)
	// Output:
	// teabot/1.0 (+https://example.org/bot)
}

func ExampleS_SetFetchTimeout() {
	s := sitemap.New().SetFetchTimeout(10)
	fmt.Println(s.GetFetchTimeout())

	// 0 is rejected: the setting keeps its value and a *ConfigError is
	// recorded until a valid value is set.
	s.SetFetchTimeout(0)
	var cfgErr *sitemap.ConfigError
	fmt.Println(s.GetFetchTimeout(), errors.As(s.GetErrors()[0], &cfgErr), cfgErr.Field)
	s.SetFetchTimeout(5)
	fmt.Println(s.GetFetchTimeout(), s.GetErrorsCount())
	// Output:
	// 10
	// 10 true fetchTimeout
	// 5 0
}

func ExampleS_SetMaxResponseSize() {
	content := strings.Repeat("https://example.com/page\n", 10) // 250 bytes
	s := sitemap.New().SetMaxResponseSize(100)
	_, err := s.Parse("https://example.com/sitemap.txt", &content)

	var parseErr *sitemap.ParseError
	fmt.Println(errors.As(err, &parseErr), parseErr.URL)
	fmt.Println(errors.Is(err, sitemap.ErrMaxResponseSize))
	// Output:
	// true https://example.com/sitemap.txt
	// true
}

func ExampleS_SetMaxDepth() {
	srv := serveDocs(nil, map[string]string{
		"/sitemap-index.xml":   index("/sitemap-index-2.xml"),
		"/sitemap-index-2.xml": index("/sitemap.xml"),
		"/sitemap.xml":         urlset("https://example.com/"),
	})
	defer srv.Close()

	// Level 1, sitemap-index-2.xml, is read; the sitemaps it lists are not.
	s, err := sitemap.New().SetMaxDepth(1).Parse(srv.URL+"/sitemap-index.xml", nil)
	fmt.Println(err, s.GetURLCount())
	for _, e := range s.GetErrors() {
		fmt.Println(errors.Is(e, sitemap.ErrMaxDepth), exampleHost(srv, e.Error()))
	}
	// Output:
	// <nil> 0
	// true parse "https://example.com/sitemap-index-2.xml": max recursion depth of 1 reached
}

func ExampleS_SetMaxConcurrency() {
	var inFlight, most atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if r.URL.Path == "/sitemap-index.xml" {
			io.WriteString(w, index("/a.xml", "/b.xml", "/c.xml", "/d.xml", "/e.xml"))
			return
		}
		io.WriteString(w, urlset("https://example.com"+strings.TrimSuffix(r.URL.Path, ".xml")))
	}))
	defer srv.Close()

	s := sitemap.New().SetMaxConcurrency(2)
	if _, err := s.Parse(srv.URL+"/sitemap-index.xml", nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.GetMaxConcurrency(), s.GetURLCount(), most.Load() <= 2)
	// Output:
	// 2 5 true
}

func ExampleS_SetMaxSitemaps() {
	srv := serveDocs(nil, map[string]string{
		"/a.xml": urlset("https://example.com/a"),
		"/b.xml": urlset("https://example.com/b"),
		"/c.xml": urlset("https://example.com/c"),
	})
	defer srv.Close()
	index := index(srv.URL+"/a.xml", srv.URL+"/b.xml", srv.URL+"/c.xml")

	// One at a time, so that it is the first two that are fetched.
	s, err := sitemap.New().SetMaxSitemaps(2).SetMultiThread(false).
		Parse("https://example.com/sitemap-index.xml", &index)
	fmt.Println(err, s.GetURLCount(), s.GetSitemapCount())
	for _, e := range s.GetErrors() {
		fmt.Println(errors.Is(e, sitemap.ErrMaxSitemaps), e)
	}
	// Output:
	// <nil> 2 2
	// true parse "https://example.com/sitemap-index.xml": limit of 2 sitemaps reached
}

func ExampleS_SetMaxURLs() {
	content := urlset("https://example.com/1", "https://example.com/2", "https://example.com/3",
		"https://example.com/4", "https://example.com/5")
	s, err := sitemap.New().SetMaxURLs(3).Parse("https://example.com/sitemap.xml", &content)
	fmt.Println(err, s.GetURLCount())
	for _, e := range s.GetErrors() {
		fmt.Println(errors.Is(e, sitemap.ErrMaxURLs), e)
	}
	// Output:
	// <nil> 3
	// true parse "https://example.com/sitemap.xml": limit of 3 URLs reached
}

func ExampleS_SetMaxValidationErrors() {
	// Three entries without a location, and one with.
	content := urlset("", "", "", "https://example.com/")
	s, _ := sitemap.New().SetMaxValidationErrors(2).Parse("https://example.com/sitemap.xml", &content)

	var invalid, limit int
	for _, e := range s.GetErrors() {
		var valErr *sitemap.ValidationError
		switch {
		case errors.As(e, &valErr):
			invalid++
		case errors.Is(e, sitemap.ErrMaxValidationErrors):
			limit++
			fmt.Println(e)
		}
	}
	// The limit takes nothing off the URLs.
	fmt.Println(s.GetURLCount(), invalid, limit)
	// Output:
	// parse "https://example.com/sitemap.xml": limit of 2 validation errors reached
	// 1 2 1
}

func ExampleS_SetMultiThread() {
	srv := serveDocs(nil, map[string]string{
		"/sitemap-index.xml": index("/c.xml", "/a.xml", "/b.xml"),
		"/a.xml":             urlset("https://example.com/a"),
		"/b.xml":             urlset("https://example.com/b"),
		"/c.xml":             urlset("https://example.com/c"),
	})
	defer srv.Close()

	// With multi-threading off, the sitemaps are read one after the other,
	// in the order the index lists them.
	s, err := sitemap.New().SetMultiThread(false).Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	// Output:
	// https://example.com/c
	// https://example.com/a
	// https://example.com/b
}

func ExampleS_SetStrict() {
	content := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc></url>
  <url><loc>https://other.example/page</loc></url>
  <url><loc>https://example.com/sale</loc><priority>1.5</priority></url>
</urlset>`
	for _, strict := range []bool{false, true} {
		s, _ := sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap.xml", &content)
		fmt.Printf("strict %v: %d URLs\n", strict, s.GetURLCount())
		for _, e := range s.GetErrors() {
			fmt.Println(e)
		}
	}
	// Output:
	// strict false: 3 URLs
	// strict true: 1 URLs
	// validate "https://other.example/page": strict mode: host "other.example" does not match sitemap host "example.com"
	// validate "https://example.com/sale": strict mode: <priority> value "1.5" is not between 0.0 and 1.0
}

func ExampleS_SetFollow() {
	srv := serveDocs(nil, map[string]string{
		"/sitemap-index.xml":    index("/sitemap-products.xml", "/sitemap-blog.xml"),
		"/sitemap-products.xml": urlset("https://example.com/products/teapot"),
		"/sitemap-blog.xml":     urlset("https://example.com/blog/tea"),
	})
	defer srv.Close()

	s, err := sitemap.New().SetFollow([]string{`/sitemap-products\.xml$`}).Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Both sitemaps are listed; only the one that matches is fetched.
	for _, sm := range s.GetSitemaps() {
		fmt.Println("sitemap:", exampleHost(srv, sm.Loc))
	}
	for _, u := range s.GetURLs() {
		fmt.Println("URL:", u.Loc)
	}
	// Output:
	// sitemap: https://example.com/sitemap-products.xml
	// sitemap: https://example.com/sitemap-blog.xml
	// URL: https://example.com/products/teapot
}

func ExampleS_SetRules() {
	content := urlset("https://example.com/", "https://example.com/products/teapot",
		"https://example.com/category/tea", "https://example.com/about")
	s, err := sitemap.New().SetRules([]string{`/products/`, `/category/`}).
		Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	// Output:
	// https://example.com/products/teapot
	// https://example.com/category/tea
}

// The client is used as it is: its transport, and its timeout, which takes
// the place of the fetch timeout.
func ExampleS_SetHTTPClient() {
	srv := serveDocs(nil, map[string]string{
		"/sitemap-index.xml": index("/a.xml", "/b.xml"),
		"/a.xml":             urlset("https://example.com/a"),
		"/b.xml":             urlset("https://example.com/b"),
	})
	defer srv.Close()

	transport := &web{net: true}
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}
	s := sitemap.New().SetHTTPClient(client)
	if _, err := s.Parse(srv.URL+"/sitemap-index.xml", nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(transport.n.Load(), "requests,", s.GetURLCount(), "URLs")
	// Output:
	// 3 requests, 2 URLs
}

func ExampleS_GetUserAgent() {
	fmt.Println(sitemap.New().SetUserAgent("teabot/1.0").GetUserAgent())
	// Output:
	// teabot/1.0
}

func ExampleS_GetFetchTimeout() {
	fmt.Println(sitemap.New().GetFetchTimeout())
	fmt.Println(sitemap.New().SetFetchTimeout(10).GetFetchTimeout())
	// Output:
	// 3
	// 10
}

func ExampleS_GetMultiThread() {
	fmt.Println(sitemap.New().GetMultiThread())
	fmt.Println(sitemap.New().SetMultiThread(false).GetMultiThread())
	// Output:
	// true
	// false
}

func ExampleS_GetMaxResponseSize() {
	fmt.Println(sitemap.New().GetMaxResponseSize())
	fmt.Println(sitemap.New().SetMaxResponseSize(10 << 20).GetMaxResponseSize())
	// Output:
	// 52428800
	// 10485760
}

func ExampleS_GetMaxDepth() {
	fmt.Println(sitemap.New().GetMaxDepth())
	fmt.Println(sitemap.New().SetMaxDepth(5).GetMaxDepth())
	// Output:
	// 10
	// 5
}

func ExampleS_GetMaxConcurrency() {
	fmt.Println(sitemap.New().GetMaxConcurrency())
	fmt.Println(sitemap.New().SetMaxConcurrency(0).GetMaxConcurrency()) // 0: no limit
	// Output:
	// 16
	// 0
}

func ExampleS_GetMaxSitemaps() {
	fmt.Println(sitemap.New().GetMaxSitemaps())
	fmt.Println(sitemap.New().SetMaxSitemaps(1000).GetMaxSitemaps())
	// Output:
	// 50000
	// 1000
}

func ExampleS_GetMaxURLs() {
	fmt.Println(sitemap.New().GetMaxURLs())
	fmt.Println(sitemap.New().SetMaxURLs(100000).GetMaxURLs())
	// Output:
	// 10000000
	// 100000
}

func ExampleS_GetMaxValidationErrors() {
	fmt.Println(sitemap.New().GetMaxValidationErrors())
	fmt.Println(sitemap.New().SetMaxValidationErrors(1000).GetMaxValidationErrors())
	// Output:
	// 100000
	// 1000
}

// GetFollow returns a copy: changing it changes nothing else.
func ExampleS_GetFollow() {
	s := sitemap.New()
	fmt.Println(len(s.GetFollow()))
	s.SetFollow([]string{`\.xml$`, `\.xml\.gz$`})
	follow := s.GetFollow()
	follow[0] = "changed"
	fmt.Println(s.GetFollow())
	// Output:
	// 0
	// [\.xml$ \.xml\.gz$]
}

func ExampleS_GetRules() {
	s := sitemap.New().SetRules([]string{`product/`, `category/`})
	fmt.Println(s.GetRules())
	// Output:
	// [product/ category/]
}

func ExampleS_GetHTTPClient() {
	s := sitemap.New()
	fmt.Println(s.GetHTTPClient() == nil) // the default: a client of the instance's own
	client := &http.Client{Timeout: 30 * time.Second}
	fmt.Println(s.SetHTTPClient(client).GetHTTPClient() == client)
	// Output:
	// true
	// true
}

func ExampleS_GetStrict() {
	fmt.Println(sitemap.New().GetStrict())
	fmt.Println(sitemap.New().SetStrict(true).GetStrict())
	// Output:
	// false
	// true
}

func ExampleS_GetURLs() {
	content := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>https://example.com/</loc>
    <lastmod>2024-01-15</lastmod>
    <changefreq>daily</changefreq>
    <priority>1.0</priority>
  </url>
  <url><loc>https://example.com/about</loc></url>
</urlset>`
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The list is the instance's own: read it, do not change it.
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
		if u.LastMod != nil {
			fmt.Println("  last modified", u.LastMod.Format(time.DateOnly))
		}
		if u.ChangeFreq != nil && *u.ChangeFreq == sitemap.ChangeFreqDaily {
			fmt.Println("  changes daily")
		}
		if u.Priority != nil {
			fmt.Println("  priority", *u.Priority)
		}
	}
	// Output:
	// https://example.com/
	//   last modified 2024-01-15
	//   changes daily
	//   priority 1
	// https://example.com/about
}

// The URLs the iterator yields are copies: they may be changed and sorted.
func ExampleS_URLs() {
	content := urlset("https://example.com/b", "https://example.com/c", "https://example.com/a")
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	for u := range s.URLs() {
		fmt.Println(u.Loc)
	}

	urls := slices.AppendSeq(make([]sitemap.URL, 0, s.GetURLCount()), s.URLs())
	slices.SortFunc(urls, func(a, b sitemap.URL) int { return strings.Compare(a.Loc, b.Loc) })
	fmt.Println(urls[0].Loc, s.GetURLs()[0].Loc)
	// Output:
	// https://example.com/b
	// https://example.com/c
	// https://example.com/a
	// https://example.com/a https://example.com/b
}

func ExampleS_GetURLCount() {
	content := "https://example.com/\nhttps://example.com/about\n"
	s, _ := sitemap.New().Parse("https://example.com/sitemap.txt", &content)
	fmt.Println(s.GetURLCount())
	// Output:
	// 2
}

func ExampleS_GetRandomURLs() {
	content := urlset("https://example.com/1", "https://example.com/2", "https://example.com/3",
		"https://example.com/4", "https://example.com/5")
	s, _ := sitemap.New().Parse("https://example.com/sitemap.xml", &content)

	picked := s.GetRandomURLs(3)
	distinct := map[string]bool{}
	for _, u := range picked {
		distinct[u.Loc] = true
	}
	fmt.Println(len(picked), len(distinct))
	// More than there are: all of them, in random order; none: an empty slice.
	fmt.Println(len(s.GetRandomURLs(10)), len(s.GetRandomURLs(0)))
	// Output:
	// 3 3
	// 5 0
}

// To find the sitemaps a robots.txt or an index lists without fetching
// them, set a follow rule that no URL matches.
func ExampleS_GetSitemaps() {
	index := `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/sitemap-products.xml</loc><lastmod>2024-03-01</lastmod></sitemap>
  <sitemap><loc>https://example.com/sitemap-blog.xml</loc></sitemap>
</sitemapindex>`
	s, err := sitemap.New().SetFollow([]string{`^$`}).Parse("https://example.com/sitemap-index.xml", &index)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, sm := range s.GetSitemaps() {
		if sm.LastMod != nil {
			fmt.Println(sm.Loc, sm.LastMod.Format(time.DateOnly))
		} else {
			fmt.Println(sm.Loc, "(no date)")
		}
	}
	// Output:
	// https://example.com/sitemap-products.xml 2024-03-01
	// https://example.com/sitemap-blog.xml (no date)
}

func ExampleS_GetSitemapCount() {
	robots := "User-agent: *\nSitemap: https://example.com/sitemap-1.xml\nSitemap: https://example.com/sitemap-2.xml\n"
	s, _ := sitemap.New().SetFollow([]string{`^$`}).Parse("https://example.com/robots.txt", &robots)
	fmt.Println(s.GetSitemapCount())
	// Output:
	// 2
}

// A nil error from Parse means that the document given was read; what went
// wrong further on is in GetErrors.
func ExampleS_GetErrors() {
	srv := serveDocs(nil, map[string]string{
		"/sitemap-index.xml": index("/missing.xml", "ftp://example.com/sitemap.xml"),
	})
	defer srv.Close()

	s, err := sitemap.New().Parse(srv.URL+"/sitemap-index.xml", nil)
	fmt.Println(err)
	for _, e := range s.GetErrors() {
		var netErr *sitemap.NetworkError
		var valErr *sitemap.ValidationError
		switch {
		case errors.As(e, &netErr):
			fmt.Println("fetch failed:", exampleHost(srv, netErr.URL), netErr.Err)
		case errors.As(e, &valErr):
			fmt.Println("not valid:", valErr.URL, valErr.Err)
		}
	}
	// Output:
	// <nil>
	// not valid: ftp://example.com/sitemap.xml unsupported scheme "ftp"
	// fetch failed: https://example.com/missing.xml unexpected HTTP status 404 Not Found
}

// The errors are the values the instance keeps: the error Parse returned
// is among them.
func ExampleS_Errors() {
	content := "   "
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	for e := range s.Errors() {
		fmt.Println(e == err, e)
	}
	// Output:
	// true parse "https://example.com/sitemap.xml": document is empty
}

func ExampleS_GetErrorsCount() {
	content := urlset("https://example.com/", "", "ftp://example.com/file")
	s, _ := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	fmt.Println(s.GetURLCount(), s.GetErrorsCount())
	// Output:
	// 1 2
}

// A rejected setting is a *ConfigError, which stays until the setting is
// given a valid value; until then, Parse parses nothing.
func ExampleConfigError() {
	content := urlset("https://example.com/")
	s := sitemap.New().SetMaxDepth(0)
	_, err := s.Parse("https://example.com/sitemap.xml", &content)
	fmt.Println(err)
	var cfgErr *sitemap.ConfigError
	if errors.As(s.GetErrors()[0], &cfgErr) {
		fmt.Println(cfgErr.Field)
	}

	_, err = s.SetMaxDepth(5).Parse("https://example.com/sitemap.xml", &content)
	fmt.Println(err, s.GetURLCount())
	// Output:
	// errors occurred before parsing, see GetErrors() for details
	// maxDepth
	// <nil> 1
}

func ExampleConfigError_Error() {
	err := &sitemap.ConfigError{Field: "maxDepth", Err: errors.New("must be at least 1")}
	fmt.Println(err.Error())
	// Output:
	// config "maxDepth": must be at least 1
}

func ExampleConfigError_Unwrap() {
	s := sitemap.New().SetRules([]string{`(`})
	var cfgErr *sitemap.ConfigError
	errors.As(s.GetErrors()[0], &cfgErr)
	fmt.Println(cfgErr.Field, cfgErr.Unwrap() != nil)
	// Output:
	// rules true
}

func ExampleNetworkError() {
	srv := serveDocs(nil, nil)
	defer srv.Close()

	_, err := sitemap.New().Parse(srv.URL+"/sitemap.xml", nil)
	var netErr *sitemap.NetworkError
	if errors.As(err, &netErr) {
		fmt.Println(exampleHost(srv, netErr.URL))
		fmt.Println(netErr.Err)
	}
	// Output:
	// https://example.com/sitemap.xml
	// unexpected HTTP status 404 Not Found
}

func ExampleNetworkError_Error() {
	err := &sitemap.NetworkError{URL: "https://example.com/sitemap.xml", Err: errors.New("connection refused")}
	fmt.Println(err.Error())
	// Output:
	// fetch "https://example.com/sitemap.xml": connection refused
}

// A response over the size limit is a *NetworkError that wraps
// ErrMaxResponseSize.
func ExampleNetworkError_Unwrap() {
	srv := serveDocs(nil, map[string]string{"/sitemap.xml": urlset("https://example.com/", "https://example.com/about")})
	defer srv.Close()

	_, err := sitemap.New().SetMaxResponseSize(50).Parse(srv.URL+"/sitemap.xml", nil)
	var netErr *sitemap.NetworkError
	fmt.Println(errors.As(err, &netErr), errors.Is(netErr.Unwrap(), sitemap.ErrMaxResponseSize))
	// Output:
	// true true
}

func ExampleParseError() {
	content := ""
	_, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	var parseErr *sitemap.ParseError
	if errors.As(err, &parseErr) {
		fmt.Println(parseErr.URL)
		fmt.Println(parseErr.Err)
	}
	// Output:
	// https://example.com/sitemap.xml
	// document is empty
}

func ExampleParseError_Error() {
	err := &sitemap.ParseError{URL: "https://example.com/sitemap.xml", Err: errors.New("document is empty")}
	fmt.Println(err.Error())
	// Output:
	// parse "https://example.com/sitemap.xml": document is empty
}

// The *ParseError of a limit wraps the sentinel of that limit.
func ExampleParseError_Unwrap() {
	content := urlset("https://example.com/1", "https://example.com/2")
	s, _ := sitemap.New().SetMaxURLs(1).Parse("https://example.com/sitemap.xml", &content)
	var parseErr *sitemap.ParseError
	errors.As(s.GetErrors()[0], &parseErr)
	fmt.Println(errors.Is(parseErr.Unwrap(), sitemap.ErrMaxURLs))
	// Output:
	// true
}

func ExampleValidationError() {
	robots := "Sitemap: ftp://example.com/sitemap.xml\n"
	s, _ := sitemap.New().Parse("https://example.com/robots.txt", &robots)
	for _, e := range s.GetErrors() {
		var valErr *sitemap.ValidationError
		if errors.As(e, &valErr) {
			fmt.Println(valErr.URL)
			fmt.Println(valErr)
		}
	}
	// Output:
	// ftp://example.com/sitemap.xml
	// validate "ftp://example.com/sitemap.xml": unsupported scheme "ftp"
}

func ExampleValidationError_Error() {
	err := &sitemap.ValidationError{URL: "https://example.com/sitemap.xml", Err: errors.New("<loc> of an entry is empty or missing")}
	fmt.Println(err.Error())
	// Output:
	// validate "https://example.com/sitemap.xml": <loc> of an entry is empty or missing
}

func ExampleValidationError_Unwrap() {
	content := urlset("")
	s, _ := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	var valErr *sitemap.ValidationError
	errors.As(s.GetErrors()[0], &valErr)
	fmt.Println(valErr.Unwrap())
	// Output:
	// <loc> of an entry is empty or missing
}

// LastModTime embeds time.Time: its methods can be called on it, as the
// dates of sitemaps are compared here with the time of an earlier visit.
func ExampleLastModTime() {
	index := `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/sitemap-old.xml</loc><lastmod>2023-06-01</lastmod></sitemap>
  <sitemap><loc>https://example.com/sitemap-new.xml</loc><lastmod>2024-03-01T08:00:00Z</lastmod></sitemap>
  <sitemap><loc>https://example.com/sitemap-undated.xml</loc></sitemap>
</sitemapindex>`
	s, _ := sitemap.New().SetFollow([]string{`^$`}).Parse("https://example.com/sitemap-index.xml", &index)

	lastVisit := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, sm := range s.GetSitemaps() {
		// A sitemap without a date may have been modified as well.
		if sm.LastMod == nil || sm.LastMod.After(lastVisit) {
			fmt.Println("to read again:", sm.Loc)
		}
	}
	// Output:
	// to read again: https://example.com/sitemap-new.xml
	// to read again: https://example.com/sitemap-undated.xml
}

// The error of a limit that was reached tells the limit with errors.Is.
func Example_limitErrors() {
	content := urlset("https://example.com/1", "https://example.com/2", "", "")
	s, _ := sitemap.New().SetMaxURLs(1).SetMaxValidationErrors(1).Parse("https://example.com/sitemap.xml", &content)
	for _, err := range s.GetErrors() {
		switch {
		case errors.Is(err, sitemap.ErrMaxURLs):
			fmt.Println("the URLs are not all there")
		case errors.Is(err, sitemap.ErrMaxSitemaps):
			fmt.Println("the sitemaps were not all fetched or listed")
		case errors.Is(err, sitemap.ErrMaxDepth):
			fmt.Println("a sitemap index was not followed")
		case errors.Is(err, sitemap.ErrMaxValidationErrors):
			fmt.Println("the validation errors are not all there")
		case errors.Is(err, sitemap.ErrMaxResponseSize):
			fmt.Println("a document was too large")
		}
	}
	// Output:
	// the URLs are not all there
}

// A urlset: the <url> entries of a sitemap.
func Example_urlset() {
	content := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>https://example.com/products/teapot</loc>
    <lastmod>2024-02-20T10:30:00+01:00</lastmod>
    <changefreq>weekly</changefreq>
    <priority>0.8</priority>
  </url>
</urlset>`
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	u := s.GetURLs()[0]
	fmt.Println(u.Loc)
	fmt.Println(u.LastMod.Format(time.RFC3339), *u.ChangeFreq, *u.Priority)
	// Output:
	// https://example.com/products/teapot
	// 2024-02-20T10:30:00+01:00 weekly 0.8
}

// A sitemap index: the sitemaps it lists are fetched, relative locations
// resolved against the index.
func Example_sitemapIndex() {
	srv := serveDocs(nil, map[string]string{
		"/sitemap-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>sitemap-pages.xml</loc><lastmod>2024-03-01</lastmod></sitemap>
  <sitemap><loc>sitemap-posts.xml</loc></sitemap>
</sitemapindex>`,
		"/sitemap-pages.xml": urlset("https://example.com/", "https://example.com/about"),
		"/sitemap-posts.xml": urlset("https://example.com/blog/first-post"),
	})
	defer srv.Close()

	s, err := sitemap.New().SetMultiThread(false).Parse(srv.URL+"/sitemap-index.xml", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, sm := range s.GetSitemaps() {
		fmt.Println("sitemap:", exampleHost(srv, sm.Loc))
	}
	for _, u := range s.GetURLs() {
		fmt.Println("URL:", u.Loc)
	}
	// Output:
	// sitemap: https://example.com/sitemap-pages.xml
	// sitemap: https://example.com/sitemap-posts.xml
	// URL: https://example.com/
	// URL: https://example.com/about
	// URL: https://example.com/blog/first-post
}

// A robots.txt, told by its URL: the sitemaps its Sitemap: lines name are
// fetched; every other line is passed over.
func Example_robots() {
	srv := serveDocs(nil, map[string]string{
		"/robots.txt": `User-agent: *
Disallow: /cart/

Sitemap: /sitemap-pages.xml
  sitemap: /sitemap-posts.xml # the blog
`,
		"/sitemap-pages.xml": urlset("https://example.com/"),
		"/sitemap-posts.xml": urlset("https://example.com/blog/first-post"),
	})
	defer srv.Close()

	s, err := sitemap.New().SetMultiThread(false).Parse(srv.URL+"/robots.txt", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.GetSitemapCount(), "sitemaps")
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	// Output:
	// 2 sitemaps
	// https://example.com/
	// https://example.com/blog/first-post
}

// An Atom feed: the link of every entry, with its <updated> as LastMod.
func Example_atom() {
	content := `<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Blog</title>
  <updated>2024-03-10T08:30:00Z</updated>
  <link rel="self" href="https://example.com/feed.atom"/>
  <entry>
    <title>First post</title>
    <link rel="alternate" href="https://example.com/blog/first-post"/>
    <updated>2024-01-15T10:30:00Z</updated>
  </entry>
</feed>`
	s, err := sitemap.New().Parse("https://example.com/feed.atom", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc, u.LastMod.Format(time.RFC3339))
	}
	// Output:
	// https://example.com/blog/first-post 2024-01-15T10:30:00Z
}

// An RSS 2.0 feed: the <link> of every item, with its <pubDate> as the
// date. The dates of the channel are not read, and an item without a link
// is skipped.
func Example_rss() {
	content := `<rss version="2.0"><channel>
  <title>Blog</title>
  <link>https://example.com/</link>
  <lastBuildDate>Sun, 10 Mar 2024 08:30:00 GMT</lastBuildDate>
  <item>
    <title>First post</title>
    <link>https://example.com/blog/first-post</link>
    <pubDate>Mon, 15 Jan 2024 10:30:00 EST</pubDate>
  </item>
  <item><title>A note without a page</title></item>
  <item><link>/blog/second-post</link></item>
</channel></rss>`
	s, err := sitemap.New().Parse("https://example.com/feed.rss", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range s.GetURLs() {
		if u.LastMod != nil {
			fmt.Println(u.Loc, u.LastMod.UTC().Format(time.RFC3339))
		} else {
			fmt.Println(u.Loc, "no date")
		}
	}
	// Output:
	// https://example.com/blog/first-post 2024-01-15T15:30:00Z
	// https://example.com/blog/second-post no date
}

// A text sitemap: every line that begins with http:// or https://.
func Example_text() {
	content := `# the pages of example.com
https://example.com/
https://example.com/about

not a URL
`
	s, err := sitemap.New().Parse("https://example.com/sitemap.txt", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc, u.LastMod == nil)
	}
	// Output:
	// https://example.com/ true
	// https://example.com/about true
}

// Gzip compressed content is told by its first bytes and decompressed,
// whatever its URL.
func Example_gzip() {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	io.WriteString(zw, urlset("https://example.com/", "https://example.com/about"))
	zw.Close()

	content := buf.String()
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml.gz", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range s.GetURLs() {
		fmt.Println(u.Loc)
	}
	// Output:
	// https://example.com/
	// https://example.com/about
}

// A document in another encoding than UTF-8 is transcoded: every string
// returned is UTF-8.
func Example_encoding() {
	// "\xe9" is the letter "é" in ISO-8859-1.
	content := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n" +
		"  <url><loc>https://example.com/caf\xe9</loc></url>\n" +
		"</urlset>"
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.GetURLs()[0].Loc)
	// Output:
	// https://example.com/caf%C3%A9
}

// The Google image extension: the images of a page.
func Example_image() {
	content := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/products/teapot</loc>
    <image:image>
      <image:loc>https://cdn.example.com/teapot.jpg</image:loc>
      <image:title>Cast-iron teapot</image:title>
    </image:image>
    <image:image>
      <image:loc>https://cdn.example.com/teapot-side.jpg</image:loc>
    </image:image>
  </url>
</urlset>`
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, im := range s.GetURLs()[0].Images {
		fmt.Printf("%s %q\n", im.Loc, im.Title)
	}
	// Output:
	// https://cdn.example.com/teapot.jpg "Cast-iron teapot"
	// https://cdn.example.com/teapot-side.jpg ""
}

// The Google News extension: the article a page is.
func Example_news() {
	content := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
  <url>
    <loc>https://example.com/news/spring-sale</loc>
    <news:news>
      <news:publication>
        <news:name>The Example Times</news:name>
        <news:language>en</news:language>
      </news:publication>
      <news:publication_date>2024-03-10T09:30:00+01:00</news:publication_date>
      <news:title>Spring sale</news:title>
    </news:news>
  </url>
</urlset>`
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	n := s.GetURLs()[0].News
	fmt.Println(n.Title, "|", n.Publication.Name, "|", n.Publication.Language)
	fmt.Println(n.PublicationDate.Format(time.RFC3339))
	// Output:
	// Spring sale | The Example Times | en
	// 2024-03-10T09:30:00+01:00
}

// The Google video extension: the videos of a page.
func Example_video() {
	content := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
  <url>
    <loc>https://example.com/videos/brewing</loc>
    <video:video>
      <video:thumbnail_loc>https://cdn.example.com/brewing.jpg</video:thumbnail_loc>
      <video:title>How to brew green tea</video:title>
      <video:description>Water temperature and steeping time.</video:description>
      <video:content_loc>https://cdn.example.com/brewing.mp4</video:content_loc>
      <video:duration>320</video:duration>
      <video:rating>4.5</video:rating>
      <video:restriction relationship="allow">DE AT CH</video:restriction>
      <video:tag>tea</video:tag>
      <video:tag>brewing</video:tag>
    </video:video>
  </url>
</urlset>`
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	v := s.GetURLs()[0].Videos[0]
	fmt.Println(v.Title)
	fmt.Println(v.ThumbnailLoc, v.ContentLoc)
	fmt.Println(*v.Duration, *v.Rating, v.Restriction.Relationship, v.Restriction.Value, v.Tags)
	// Output:
	// How to brew green tea
	// https://cdn.example.com/brewing.jpg https://cdn.example.com/brewing.mp4
	// 320 4.5 allow DE AT CH [tea brewing]
}

// The xhtml:link alternates of a page: its versions in other languages.
func Example_hreflang() {
	content := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>https://example.com/en/</loc>
    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/>
    <xhtml:link rel="alternate" hreflang="de-ch" href="https://example.com/de-ch/"/>
  </url>
</urlset>`
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range s.GetURLs()[0].Hreflangs {
		fmt.Println(l.Rel, l.Hreflang, l.Href)
	}
	// Output:
	// alternate en https://example.com/en/
	// alternate de-ch https://example.com/de-ch/
}

// Code written for go-sitemap-parser v1.0.1 runs with its import path
// changed: the counts are int64, and a <url> decodes into sitemap.URL with
// encoding/xml, its extensions under their namespaces and its <lastmod>
// read by the library's own date parser.
func Example_migrateFromV101() {
	content := urlset("https://example.com/", "https://example.com/about")
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		fmt.Println(err)
		return
	}
	var count int64 = s.GetURLCount()
	var errorsCount int64 = s.GetErrorsCount()
	fmt.Println(count, "URLs,", errorsCount, "errors")

	var u sitemap.URL
	err = xml.Unmarshal([]byte(`<url xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <loc>https://example.com/page</loc><lastmod>2024-01-15T10:30:00Z</lastmod>
  <image:image><image:loc>https://cdn.example.com/a.jpg</image:loc></image:image>
</url>`), &u)
	fmt.Println(u.Loc, u.LastMod.Format(time.DateOnly), u.Images[0].Loc, err)

	var d sitemap.LastModTime
	fmt.Println(xml.Unmarshal([]byte(`<lastmod>15/01/2024</lastmod>`), &d))
	// Output:
	// 2 URLs, 0 errors
	// https://example.com/page 2024-01-15 https://cdn.example.com/a.jpg <nil>
	// invalid <lastmod> value "15/01/2024"
}

func ExampleS_Stream() {
	content := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>/first</loc></url>
  <url><lastmod>2024-01-15</lastmod></url>
  <url><loc>/second</loc></url>
</urlset>`
	s := sitemap.New()
	for u, err := range s.Stream(context.Background(), "https://example.com/sitemap.xml", &content) {
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(u.Loc)
	}
	fmt.Println("kept:", s.GetURLCount())
	// Output:
	// https://example.com/first
	// https://example.com/second
	// error: validate "https://example.com/sitemap.xml": <loc> of an entry is empty or missing
	// kept: 0
}

// panickingTransport is a RoundTripper of the caller's with a bug: it
// serves a sitemap index from memory, and panics on what the index lists.
type panickingTransport struct{}

func (panickingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path != "/index.xml" {
		panic("transport bug")
	}
	body := `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/a.xml</loc></sitemap></sitemapindex>`
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
}

// A panic of the caller's own code on a goroutine of the call, here the
// RoundTripper of the client fetching a child sitemap, reaches the caller's
// goroutine as a *PanicError once the call's other goroutines have ended: a
// recover there sees the value, and the stack of the goroutine that
// panicked.
func ExamplePanicError() {
	s := sitemap.New().SetMultiThread(true).SetHTTPClient(&http.Client{Transport: panickingTransport{}})
	defer func() {
		pe, ok := recover().(*sitemap.PanicError)
		if !ok {
			fmt.Println("no *PanicError")
			return
		}
		fmt.Println(pe.Value, strings.HasPrefix(pe.Error(), "sitemap: panic in a goroutine of the call: transport bug"))
		fmt.Println(pe.Unwrap() == nil, len(pe.Stack) > 0)
	}()
	s.Parse("https://example.com/index.xml", nil)
	// Output:
	// transport bug true
	// true true
}
