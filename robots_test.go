package sitemap_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
)

func TestRobotsSitemapLines(t *testing.T) {
	// ROBOTS-7, ROBOTS-8, ROBOTS-9, ROBOTS-11
	tests := []struct {
		name  string
		lines []string // {} is replaced with the server URL
		want  []string // paths of the sitemaps named
	}{
		{"canonical", []string{"Sitemap: {}/a.xml"}, []string{"/a.xml"}},
		{"lower case", []string{"sitemap: {}/a.xml"}, []string{"/a.xml"}},                                // ROBOTS-8
		{"upper case", []string{"SITEMAP: {}/a.xml"}, []string{"/a.xml"}},                                // ROBOTS-8
		{"mixed case", []string{"SiteMap: {}/a.xml"}, []string{"/a.xml"}},                                // ROBOTS-8
		{"indented with spaces", []string{"    Sitemap: {}/a.xml"}, []string{"/a.xml"}},                  // ROBOTS-8
		{"indented with a tab", []string{"\tSitemap: {}/a.xml"}, []string{"/a.xml"}},                     // ROBOTS-8
		{"no space after colon", []string{"Sitemap:{}/a.xml"}, []string{"/a.xml"}},                       // ROBOTS-8
		{"trailing comment", []string{"Sitemap: {}/a.xml # the main one"}, []string{"/a.xml"}},           // ROBOTS-9
		{"comment glued to value", []string{"Sitemap: {}/a.xml#note"}, []string{"/a.xml"}},               // ROBOTS-9, ROBOTS-10
		{"commented-out line", []string{"# Sitemap: {}/b.xml", "Sitemap: {}/a.xml"}, []string{"/a.xml"}}, // ROBOTS-9
		{"indented comment", []string{"  # Sitemap: {}/b.xml"}, nil},                                     // ROBOTS-9
		{"CRLF line endings", []string{"Sitemap: {}/a.xml\r", "Sitemap: {}/b.xml\r"}, []string{"/a.xml", "/b.xml"}},
		{"other directives ignored", []string{ // ROBOTS-7
			"User-agent: *",
			"Disallow: /private/",
			"Allow: {}/c.xml",
			"Host: {}/d.xml",
			"Crawl-delay: 10",
			"{}/e.xml",
			"Sitemaps: {}/f.xml",
			"Sitemap-Index: {}/g.xml",
			"Sitemap: {}/a.xml",
			"",
			"User-agent: Googlebot",
			"Sitemap: {}/b.xml",
		}, []string{"/a.xml", "/b.xml"}},
		{"no Sitemap line", []string{"User-agent: *", "Disallow:"}, nil}, // decision: no error
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			for _, p := range []string{"/a.xml", "/b.xml", "/c.xml", "/d.xml", "/e.xml", "/f.xml", "/g.xml"} {
				srv.Doc(p, urlset("https://example.com/page"+strings.TrimSuffix(p, ".xml")))
			}
			body := strings.ReplaceAll(strings.Join(tt.lines, "\n")+"\n", "{}", srv.At(""))
			for _, d := range deliveries {
				t.Run(d.name, func(t *testing.T) {
					before := srv.Log()
					s, err := d.parse(t, sitemap.New().SetMultiThread(false), srv, "/robots.txt", []byte(body))
					if err != nil {
						t.Fatalf("Parse: %v", err)
					}
					noErrors(t, s)
					var wantSitemaps, wantURLs, wantFetched []string
					for _, p := range tt.want {
						wantSitemaps = append(wantSitemaps, srv.At(p))
						wantURLs = append(wantURLs, "https://example.com/page"+strings.TrimSuffix(p, ".xml"))
						wantFetched = append(wantFetched, p)
					}
					equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), wantSitemaps)
					equalStrings(t, "URLs", locsOf(s.GetURLs()), wantURLs) // ROBOTS-11
					var fetched []string
					for _, p := range srv.Log()[len(before):] {
						if p != "/robots.txt" {
							fetched = append(fetched, p)
						}
					}
					equalStrings(t, "fetched", fetched, wantFetched) // ROBOTS-11
				})
			}
		})
	}
}

func TestRobotsValueChecks(t *testing.T) {
	// ROBOTS-12, ROBOTS-13, ROBOTS-14, ROBOTS-15, ROBOTS-16 (decision)
	t.Run("ftp value is skipped and reported", func(t *testing.T) {
		for _, strict := range []bool{false, true} {
			fake := newFakeWeb(map[string]string{
				"https://example.com/sitemap.xml": urlset("https://example.com/page"),
			})
			content := "Sitemap: ftp://example.com/sitemap.xml\nSitemap: https://example.com/sitemap.xml\n"
			s, err := sitemap.New().SetStrict(strict).SetHTTPClient(fake.Client()).Parse("https://example.com/robots.txt", &content)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			want := `validate "ftp://example.com/sitemap.xml": unsupported scheme "ftp"`
			if strict {
				// The spec gives the message of the default mode; strict
				// mode may say that it is strict mode that rejects it.
				if msgs := messagesOf(s.GetErrors()); len(msgs) != 1 || !strings.HasPrefix(msgs[0], `validate "ftp://example.com/sitemap.xml": `) || !strings.HasSuffix(msgs[0], `unsupported scheme "ftp"`) {
					t.Errorf("errors %q, want one like %q", msgs, want)
				}
			} else {
				equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{want})
			}
			if v := errorsOf[*sitemap.ValidationError](s.GetErrors()); len(v) != 1 {
				t.Errorf("want one *ValidationError, got %d", len(v))
			}
			equalStrings(t, "requested", fake.Log(), []string{"https://example.com/sitemap.xml"})
			equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{"https://example.com/sitemap.xml"})
		}
	})
	t.Run("empty value names the robots.txt", func(t *testing.T) {
		content := "Sitemap:\nSitemap:    # nothing\n"
		s, err := sitemap.New().Parse("https://example.com/robots.txt", &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		want := `validate "https://example.com/robots.txt": <loc> of an entry is empty or missing`
		equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{want, want})
	})
	t.Run("value without host", func(t *testing.T) {
		fake := newFakeWeb(nil)
		content := "Sitemap: https://:8080/sitemap.xml\n"
		s, err := sitemap.New().SetHTTPClient(fake.Client()).Parse("https://example.com/robots.txt", &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{`validate "https://:8080/sitemap.xml": missing host`})
		equalStrings(t, "requested", fake.Log(), nil)
		equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), nil)
	})
	t.Run("over 2048 characters", func(t *testing.T) {
		fake := newFakeWeb(nil)
		long := "https://example.com/" + strings.Repeat("a", 2049-len("https://example.com/")) // 2,049
		content := "Sitemap: " + long + "\n"
		s, err := sitemap.New().SetHTTPClient(fake.Client()).Parse("https://example.com/robots.txt", &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		if v := errorsOf[*sitemap.ValidationError](s.GetErrors()); len(v) != 1 || s.GetErrorsCount() != 1 {
			t.Errorf("want one *ValidationError, got %q", short(messagesOf(s.GetErrors())))
		}
		equalStrings(t, "requested", fake.Log(), nil)
	})
	t.Run("tolerant resolves a relative value and encodes a space", func(t *testing.T) {
		srv := newServer(t)
		srv.Doc("/maps/a b.xml", urlset("https://example.com/spaced"))
		srv.Doc("/maps/rel.xml", urlset("https://example.com/rel"))
		content := "Sitemap: /maps/a b.xml\nSitemap: maps/rel.xml\n"
		s, err := sitemap.New().SetMultiThread(false).Parse(srv.At("/robots.txt"), &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		noErrors(t, s)
		equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{srv.At("/maps/a%20b.xml"), srv.At("/maps/rel.xml")})
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/spaced", "https://example.com/rel"})
	})
	t.Run("strict rejects a relative value and a space", func(t *testing.T) {
		srv := newServer(t)
		content := "Sitemap: /maps/rel.xml\nSitemap: " + srv.At("/a b.xml") + "\n"
		s, err := sitemap.New().SetStrict(true).Parse(srv.At("/robots.txt"), &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		if v := errorsOf[*sitemap.ValidationError](s.GetErrors()); len(v) != 2 || s.GetErrorsCount() != 2 {
			t.Errorf("want two *ValidationError, got %q", messagesOf(s.GetErrors()))
		}
		if srv.Total() != 0 {
			t.Errorf("requested %q", srv.Log())
		}
		equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), nil)
	})
	t.Run("another host is allowed in both modes", func(t *testing.T) {
		for _, strict := range []bool{false, true} {
			other := newServer(t)
			other.Doc("/sitemap.xml", urlset(other.At("/page")))
			srv := newServer(t)
			srv.Doc("/robots.txt", "Sitemap: "+other.At("/sitemap.xml")+"\n")
			s, err := sitemap.New().SetStrict(strict).Parse(srv.At("/robots.txt"), nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			noErrors(t, s)
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{other.At("/page")})
		}
	})
}

func TestRobotsRootErrors(t *testing.T) {
	// A robots.txt that cannot be fetched fails the call like any root.
	srv := newServer(t)
	s, err := sitemap.New().Parse(srv.At("/robots.txt"), nil)
	var nerr *sitemap.NetworkError
	if !errors.As(err, &nerr) || nerr.URL != srv.At("/robots.txt") {
		t.Fatalf("Parse error = %v, want *NetworkError for the robots.txt", err)
	}
	if got := s.GetErrors(); len(got) != 1 || got[0] != err {
		t.Errorf("GetErrors = %q, want the returned error alone", messagesOf(got))
	}
}

func TestRobotsGzip(t *testing.T) {
	// GZIP-1: a robots.txt may be gzip compressed; it is still told by URL.
	srv := newServer(t)
	srv.Doc("/a.xml", urlset("https://example.com/a"))
	body := gzipOf("User-agent: *\nSitemap: " + srv.At("/a.xml") + "\n")
	for _, d := range deliveries {
		t.Run(d.name, func(t *testing.T) {
			s, err := d.parse(t, sitemap.New(), srv, "/robots.txt", body)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			noErrors(t, s)
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/a"})
		})
	}
}

// ROBOTS-10 (open; pinned as the code has it, robots.go: a # starts a
// comment): a # ends the value even inside the URL, where it would begin a
// fragment; white space may stand between Sitemap and the colon.
func TestRobotsFragmentAndSpaceBeforeColon(t *testing.T) {
	content := "Sitemap: https://example.com/a.xml#part\n" +
		"Sitemap : https://example.com/b.xml\n" +
		"Sitemap\t:\thttps://example.com/c.xml\n" +
		"sitemap:https://example.com/d.xml#\n"
	want := []string{"https://example.com/a.xml", "https://example.com/b.xml", "https://example.com/c.xml", "https://example.com/d.xml"}
	for _, strict := range []bool{false, true} {
		s, _ := offline()
		if _, err := s.SetStrict(strict).SetFollow([]string{`^$`}).Parse("https://example.com/robots.txt", &content); err != nil {
			t.Fatalf("strict=%v: Parse: %v", strict, err)
		}
		equalStrings(t, fmt.Sprintf("strict=%v: sitemaps", strict), sitemapLocsOf(s.GetSitemaps()), want)
		noErrors(t, s)
	}
}
