package sitemap_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
)

func TestRedirectSpecExample(t *testing.T) {
	// REDIRECT-1, REDIRECT-2, REDIRECT-3, REDIRECT-5, STRICT-3:
	// http://example.com/sitemap.xml redirects to
	// https://www.example.com/sitemap.xml.
	docs := map[string]string{
		"http://example.com/sitemap.xml": fakeRedirect + "https://www.example.com/sitemap.xml",
		"https://www.example.com/sitemap.xml": urlset(
			"/page",
			"https://www.example.com/on-final-host",
			"http://example.com/on-requested-host",
		),
	}
	t.Run("tolerant", func(t *testing.T) {
		fake := newFakeWeb(docs)
		s, err := sitemap.New().SetHTTPClient(fake.Client()).Parse("http://example.com/sitemap.xml", nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		noErrors(t, s)
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{
			"https://www.example.com/page",
			"https://www.example.com/on-final-host",
			"http://example.com/on-requested-host",
		})
	})
	t.Run("strict", func(t *testing.T) {
		fake := newFakeWeb(docs)
		s, err := sitemap.New().SetStrict(true).SetHTTPClient(fake.Client()).Parse("http://example.com/sitemap.xml", nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://www.example.com/on-final-host"})
		var rejected []string
		for _, v := range errorsOf[*sitemap.ValidationError](s.GetErrors()) {
			rejected = append(rejected, v.URL)
		}
		equalStrings(t, "rejected", rejected, []string{"/page", "http://example.com/on-requested-host"})
		if s.GetErrorsCount() != 2 {
			t.Errorf("errors %q", messagesOf(s.GetErrors()))
		}
	})
}

func TestRedirectAcrossServers(t *testing.T) {
	// REDIRECT-2, REDIRECT-3, REDIRECT-6, HOST-4: the root, a sitemap of an
	// index and one a robots.txt names, each redirected to another server.
	for _, via := range []string{"root", "index", "robots.txt"} {
		for _, strict := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/strict=%v", via, strict), func(t *testing.T) {
				a, b := newServer(t), newServer(t)
				b.Doc("/real/sitemap.xml", urlset(b.At("/on-b"), a.At("/on-a")))
				b.Doc("/real/tolerant.xml", urlset("/abs", "rel", b.At("/on-b")))
				name := "sitemap.xml"
				if !strict {
					name = "tolerant.xml"
				}
				a.Redirect("/"+name, b.At("/real/"+name))
				a.Doc("/index.xml", index(a.At("/"+name)))
				a.Doc("/robots.txt", "Sitemap: "+a.At("/"+name)+"\n")
				root := map[string]string{"root": "/" + name, "index": "/index.xml", "robots.txt": "/robots.txt"}[via]
				s, err := sitemap.New().SetStrict(strict).Parse(a.At(root), nil)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if !strict {
					noErrors(t, s)
					equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{b.At("/abs"), b.At("/real/rel"), b.At("/on-b")})
					return
				}
				equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{b.At("/on-b")})
				hostA := strings.TrimPrefix(a.At(""), "http://")
				hostB := strings.TrimPrefix(b.At(""), "http://")
				equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{
					fmt.Sprintf(`validate %q: strict mode: host %q does not match sitemap host %q`, a.At("/on-a"), hostA, hostB),
				})
			})
		}
	}
}

func TestRedirectErrorsNameFinalURL(t *testing.T) {
	// REDIRECT-4, ERRORS-5: errors about the document name the URL it was
	// served from; a failed fetch names the URL requested (REDIRECT-9).
	srv := newServer(t)
	srv.Redirect("/broken.xml", "/final/broken.xml")
	srv.Doc("/final/broken.xml", "<urlset xmlns=\""+sitemapNS+"\"><url><loc>https://example.com/x</loc>")
	srv.Redirect("/noloc.xml", "/final/noloc.xml")
	srv.Doc("/final/noloc.xml", urlset("", "https://example.com/ok"))
	srv.Redirect("/gone.xml", "/final/gone.xml")
	srv.Redirect("/empty.xml", "/final/empty.xml")
	srv.Doc("/final/empty.xml", "")

	t.Run("broken as root", func(t *testing.T) {
		_, err := sitemap.New().Parse(srv.At("/broken.xml"), nil)
		var perr *sitemap.ParseError
		if !errors.As(err, &perr) || perr.URL != srv.At("/final/broken.xml") {
			t.Errorf("Parse error = %v, want *ParseError naming /final/broken.xml", err)
		}
	})
	t.Run("empty as root", func(t *testing.T) {
		_, err := sitemap.New().Parse(srv.At("/empty.xml"), nil)
		if want := fmt.Sprintf(`parse %q: document is empty`, srv.At("/final/empty.xml")); err == nil || err.Error() != want {
			t.Errorf("Parse error = %v, want %s", err, want)
		}
	})
	t.Run("entry without location", func(t *testing.T) {
		s, err := sitemap.New().Parse(srv.At("/noloc.xml"), nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{fmt.Sprintf(`validate %q: <loc> of an entry is empty or missing`, srv.At("/final/noloc.xml"))})
	})
	t.Run("fetch fails after the redirect", func(t *testing.T) {
		_, err := sitemap.New().Parse(srv.At("/gone.xml"), nil)
		want := fmt.Sprintf(`fetch %q: unexpected HTTP status 404 Not Found`, srv.At("/gone.xml"))
		var nerr *sitemap.NetworkError
		if !errors.As(err, &nerr) || err.Error() != want {
			t.Errorf("Parse error = %v, want %s", err, want)
		}
	})
	t.Run("listed sitemaps", func(t *testing.T) {
		srv.Doc("/index.xml", index(srv.At("/broken.xml"), srv.At("/gone.xml")))
		s, err := sitemap.New().SetMultiThread(false).Parse(srv.At("/index.xml"), nil)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		perrs := errorsOf[*sitemap.ParseError](s.GetErrors())
		nerrs := errorsOf[*sitemap.NetworkError](s.GetErrors())
		if s.GetErrorsCount() != 2 || len(perrs) != 1 || perrs[0].URL != srv.At("/final/broken.xml") || len(nerrs) != 1 || nerrs[0].URL != srv.At("/gone.xml") {
			t.Errorf("errors %q", messagesOf(s.GetErrors()))
		}
	})
}

func TestRedirectContentPassedIn(t *testing.T) {
	// REDIRECT-7: with urlContent nothing is fetched and the document is
	// located at the URL given, even where that URL would redirect.
	srv := newServer(t)
	srv.Redirect("/sitemap.xml", "/elsewhere/sitemap.xml")
	content := urlset("page", "/abs")
	s, err := sitemap.New().Parse(srv.At("/dir/sitemap.xml"), &content)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{srv.At("/dir/page"), srv.At("/abs")})
	if srv.Total() != 0 {
		t.Errorf("requested %q", srv.Log())
	}
}

func TestRedirectDefaultClientStopsAfterTen(t *testing.T) {
	// REDIRECT-8, REDIRECT-9: the default client follows 9 redirects (10
	// requests) and stops at the 10th; the error names the URL requested.
	srv := newServer(t)
	for i := 1; i <= 10; i++ {
		srv.Redirect(fmt.Sprintf("/r/%d", i), fmt.Sprintf("/r/%d", i-1))
	}
	srv.Doc("/r/0", urlset("https://example.com/end"))
	srv.Redirect("/loop", "/loop")

	s, err := sitemap.New().Parse(srv.At("/r/9"), nil)
	if err != nil {
		t.Fatalf("9 redirects: %v", err)
	}
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/end"})

	for _, p := range []string{"/r/10", "/loop"} {
		before := srv.Total()
		_, err = sitemap.New().Parse(srv.At(p), nil)
		var nerr *sitemap.NetworkError
		if !errors.As(err, &nerr) || nerr.URL != srv.At(p) || !strings.Contains(err.Error(), "stopped after 10 redirects") {
			t.Errorf("%s: Parse error = %v, want *NetworkError naming it, stopped after 10 redirects", p, err)
		}
		if n := srv.Total() - before; n != 10 {
			t.Errorf("%s: %d requests, want 10", p, n)
		}
	}
}

func TestRedirectListedByTheURLTheDocumentGives(t *testing.T) {
	// GETSITEMAPS-4: a sitemap reached through a redirect is listed by the
	// URL the document gives.
	srv := newServer(t)
	srv.Redirect("/old.xml", "/new.xml")
	srv.Doc("/new.xml", urlset("https://example.com/p"))
	srv.Doc("/index.xml", index(srv.At("/old.xml")))
	s, err := sitemap.New().Parse(srv.At("/index.xml"), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{srv.At("/old.xml")})
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/p"})
}
