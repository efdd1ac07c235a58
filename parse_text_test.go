package sitemap_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
)

func TestTextLinesAndLeadingSpace(t *testing.T) {
	// TEXT-1, TEXT-2: a line is a URL when it begins with http:// or
	// https://, the first line of the document as much as any other; white
	// space before an XML document is no part of it.
	tests := []struct {
		name, body string
		want       []string
	}{
		{"indented first line is skipped like any indented line", "  https://example.com/a\nhttps://example.com/b\n  https://example.com/c\n", []string{"https://example.com/b"}},
		{"blank lines before the first URL", "\n\r\n\nhttps://example.com/a\n", []string{"https://example.com/a"}},
		{"long blank run before the first URL", strings.Repeat("\n", 3000) + "https://example.com/a\n", []string{"https://example.com/a"}},
		{"CRLF and no final newline", "https://example.com/a\r\nhttps://example.com/b", []string{"https://example.com/a", "https://example.com/b"}},
		{"XML after long white space", strings.Repeat(" \n\t", 1000) + urlset("https://example.com/x"), []string{"https://example.com/x"}},
		{"XML after long white space without newline", strings.Repeat(" ", 3000) + urlset("https://example.com/x"), []string{"https://example.com/x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range deliveries {
				t.Run(d.name, func(t *testing.T) {
					srv := newServer(t)
					s, err := d.parse(t, sitemap.New(), srv, "/sitemap.txt", []byte(tt.body))
					if err != nil {
						t.Fatalf("Parse: %v", err)
					}
					noErrors(t, s)
					equalStrings(t, "URLs", locsOf(s.GetURLs()), tt.want)
				})
			}
		})
	}
}

func TestTextLongCommentLines(t *testing.T) {
	// TEXT-2, TOLERANT-6: a line of any length, around the size of the
	// reader's buffer and past what is kept of a line, is read past, and
	// the lines after it are read; a URL line that long is rejected.
	for _, n := range []int{4095, 4096, 32767, 32768, 32769, 65535, 65536, 65537, 200000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			comment := "#" + strings.Repeat("x", n-1)
			content := comment + "\nhttps://example.com/after-comment\n" + comment + "\r\nhttps://example.com/after-crlf\n"
			s, err := sitemap.New().Parse("https://example.com/sitemap.txt", &content)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			noErrors(t, s)
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/after-comment", "https://example.com/after-crlf"})
		})
	}
}

func TestTextLongURLLineRejected(t *testing.T) {
	// TOLERANT-6, ROBOTS-12: a URL line longer than 2,048 characters, as
	// long as the reader's buffer or longer than what is kept of a line,
	// is rejected, and the lines after it are read.
	for _, n := range []int{4095, 32768, 65537, 200000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			comment := "#" + strings.Repeat("x", n-1)
			long := "https://example.com/" + strings.Repeat("a", n)
			content := long + "\nhttps://example.com/after\n"
			s, err := sitemap.New().Parse("https://example.com/sitemap.txt", &content)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/after"})
			if v := errorsOf[*sitemap.ValidationError](s.GetErrors()); len(v) != 1 || s.GetErrorsCount() != 1 {
				t.Errorf("errors %q, want one *ValidationError", short(messagesOf(s.GetErrors())))
			}

			robots := "Sitemap: " + long + "\n" + comment + "\nSitemap: https://example.com/after.xml\n"
			s, err = sitemap.New().SetFollow([]string{`^$`}).Parse("https://example.com/robots.txt", &robots)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{"https://example.com/after.xml"})
		})
	}
}

const textURL = "https://example.com/sitemap.txt"

// TEXT-1, TEXT-2, TEXT-3, FEED-1 to FEED-3: every line that begins with
// http:// or https:// is a page; every other line is skipped without an
// error; a page has its location and nothing else.
func TestTextLines(t *testing.T) {
	doc := strings.Join([]string{
		"https://example.com/a",
		"http://example.com/b",
		"",
		"# https://example.com/commented",
		"#https://example.com/commented-too",
		"www.example.com/no-scheme",
		"example.com/no-scheme",
		"/relative/path",
		"relative.html",
		"ftp://example.com/file",
		"mailto:someone@example.com",
		"see https://example.com/in-a-sentence",
		"Sitemap: https://example.com/sitemap.xml",
		"<https://example.com/in-brackets>",
		"<url><loc>https://example.com/xml-in-text</loc></url>",
		"http:/example.com/one-slash",
		"https//example.com/no-colon",
		"https://example.com/c?q=1&r=2#frag",
		"https://example.com/d",
		"",
	}, "\n")
	for _, m := range feedModes {
		t.Run(m.name, func(t *testing.T) {
			s, err := feedParse(t, m.strict, textURL, doc)
			feedCheck(t, s, err, []string{
				"https://example.com/a",
				"http://example.com/b",
				"https://example.com/c?q=1&r=2#frag",
				"https://example.com/d",
			}, nil)
			for _, u := range s.GetURLs() {
				feedCheckBare(t, u)
				if u.LastMod != nil {
					t.Errorf("%s: LastMod %v, want nil", u.Loc, u.LastMod)
				}
			}
		})
	}
}

// TEXT-4, VALUE-8: the white space after a line's URL is no part of it:
// the CR of a CRLF line ending and trailing blanks. Decisions on TEXT-5: an
// indented line does not begin with http:// or https:// and is skipped,
// the first line of the document as much as any other (main's 7c39e19);
// the prefix is matched in any letter case, the scheme being a URL's scheme
// whatever its case.
func TestTextLineForms(t *testing.T) {
	cases := []struct {
		name, doc string
		tolerant  []string
		strict    []string // nil: as tolerant
	}{
		{"LF", "https://example.com/a\nhttps://example.com/b\n", []string{"https://example.com/a", "https://example.com/b"}, nil},
		{"CRLF", "https://example.com/a\r\nhttps://example.com/b\r\n\r\n", []string{"https://example.com/a", "https://example.com/b"}, nil},
		{"no newline at the end", "https://example.com/a\nhttps://example.com/b", []string{"https://example.com/a", "https://example.com/b"}, nil},
		{"CRLF without one at the end", "https://example.com/a\r\nhttps://example.com/b\r", []string{"https://example.com/a", "https://example.com/b"}, nil},
		{"a single line", "https://example.com/a", []string{"https://example.com/a"}, nil},
		{"trailing blanks", "https://example.com/a \t \nhttps://example.com/b\t\r\n", []string{"https://example.com/a", "https://example.com/b"}, nil},
		{"indented lines are skipped", "  https://example.com/a\nhttps://example.com/b\n\thttps://example.com/c\n \t http://example.com/d \n", []string{"https://example.com/b"}, nil},
		{"blank lines of white space", "\n \n\t\n\r\nhttps://example.com/a\n \n", []string{"https://example.com/a"}, nil},
		{"upper-case scheme", "HTTPS://example.com/a\nHttp://example.com/b\n",
			[]string{"https://example.com/a", "http://example.com/b"},
			[]string{"HTTPS://example.com/a", "Http://example.com/b"}},
		{"host as written", "https://Example.COM/Page\n", []string{"https://Example.COM/Page"}, nil},
	}
	for _, c := range cases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				want := c.tolerant
				if m.strict && c.strict != nil {
					want = c.strict
				}
				s, err := feedParse(t, m.strict, textURL, c.doc)
				feedCheck(t, s, err, want, nil)
			})
		}
	}
}

// FEED-4, the decision on FEED-5, LOC-2, TOLERANT-2, -3, -6, IDN-2,
// STRICT-4, -16: a text line is normalised and checked like a <loc>; the
// same-host rule of strict mode is not applied to it.
func TestTextNormalisation(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("a", 2049-len("https://example.com/"))
	cases := []struct {
		name, line string
		tolerant   string // the location kept, or the start of the error
		strict     string
	}{
		{"other host", "https://other.example/a", "https://other.example/a", "https://other.example/a"},
		{"other port", "https://example.com:8443/a", "https://example.com:8443/a", "https://example.com:8443/a"},
		{"space", "https://example.com/summer sale", "https://example.com/summer%20sale",
			`validate "https://example.com/summer sale": strict mode: URL contains a space`},
		{"space in the query", "https://example.com/search?q=summer sale", "https://example.com/search?q=summer%20sale",
			`validate "https://example.com/search?q=summer sale": strict mode: URL contains a space`},
		{"not ASCII", "https://example.com/café?q=café", "https://example.com/caf%C3%A9?q=caf%C3%A9", "https://example.com/café?q=café"},
		{"escape kept", "https://example.com/summer%20sale", "https://example.com/summer%20sale", "https://example.com/summer%20sale"},
		{"IDN", "https://bücher.example/page", "https://xn--bcher-kva.example/page", "https://bücher.example/page"},
		{"vertical bar", "https://example.com/a|b", "https://example.com/a%7Cb",
			`validate "https://example.com/a|b": strict mode: URL contains the character '|', which it has to give as "%7C"`},
		{"no host", "https:///page", `validate "https:///page": missing host`, `validate "https:///page": `},
		{"only the scheme", "http://", `validate "http://": missing host`, `validate "http://": `},
		{"port without host", "https://:8080/page", `validate "https://:8080/page": missing host`, `validate "https://:8080/page": `},
		{"2,049 characters", long, `validate "` + long + `": `, `validate "` + long + `": `},
		{"2,048 characters", long[:2048], long[:2048], long[:2048]},
	}
	for _, c := range cases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				want := c.tolerant
				if m.strict {
					want = c.strict
				}
				doc := "https://example.com/first\n" + c.line + "\nhttps://example.com/last\n"
				s, err := feedParse(t, m.strict, textURL, doc)
				if err != nil {
					t.Fatal(err)
				}
				locs, errs := feedLocs(s), feedErrTexts(s.GetErrors())
				if !strings.HasPrefix(want, "validate ") {
					if wantLocs := []string{"https://example.com/first", want, "https://example.com/last"}; !slices.Equal(locs, wantLocs) || len(errs) != 0 {
						t.Errorf("got %q and errors %q, want %q and none", locs, errs, wantLocs)
					}
					return
				}
				var verr *sitemap.ValidationError
				if wantLocs := []string{"https://example.com/first", "https://example.com/last"}; !slices.Equal(locs, wantLocs) ||
					len(errs) != 1 || !errors.As(s.GetErrors()[0], &verr) || !strings.HasPrefix(errs[0], want) {
					t.Errorf("got %q and errors %q, want %q and a *ValidationError %q…", locs, errs, wantLocs, want)
				}
			})
		}
	}
}

// ENC-12: a text sitemap is not transcoded: a byte that is not UTF-8 is
// encoded as the byte it is, not as a character of some other encoding.
func TestTextNoTranscoding(t *testing.T) {
	doc := "https://example.com/caf\xe9\nhttps://example.com/caf\xc3\xa9\n"
	s, err := feedParse(t, false, textURL, doc)
	feedCheck(t, s, err, []string{"https://example.com/caf%E9", "https://example.com/caf%C3%A9"}, nil)
}

// ENC-6, ENC-8: a UTF-8 BOM that begins the document is ignored; U+FEFF at
// the start of any other line keeps that line from being a URL line.
func TestTextBOM(t *testing.T) {
	const bom = "\xEF\xBB\xBF"
	cases := []struct {
		name, doc string
		want      []string
	}{
		{"BOM before the first URL", bom + "https://example.com/a\nhttps://example.com/b\n", []string{"https://example.com/a", "https://example.com/b"}},
		{"BOM before a comment", bom + "# list\nhttps://example.com/a\n", []string{"https://example.com/a"}},
		{"BOM, CRLF", bom + "https://example.com/a\r\n", []string{"https://example.com/a"}},
		{"U+FEFF on a later line", bom + "https://example.com/a\n" + bom + "https://example.com/b\nhttps://example.com/c\n", []string{"https://example.com/a", "https://example.com/c"}},
		{"U+FEFF on a later line without a BOM first", "https://example.com/a\n" + bom + "https://example.com/b\n", []string{"https://example.com/a"}},
	}
	for _, c := range cases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				s, err := feedParse(t, m.strict, textURL, c.doc)
				feedCheck(t, s, err, c.want, nil)
			})
		}
	}
}

// A line is as long as the response size limit lets it be: a line of a
// mebibyte neither breaks the lines that follow it nor costs more than
// itself, whatever it holds.
func TestTextLongLines(t *testing.T) {
	const mib = 1 << 20
	urlLine := "https://example.com/" + strings.Repeat("a", mib)
	after := "https://example.com/after"
	cases := []struct {
		name, line string
		wantErr    bool // the long line is a URL line, rejected as too long
	}{
		{"comment", "#" + strings.Repeat("c", mib), false},
		{"other text", strings.Repeat("x", mib), false},
		{"white space", strings.Repeat(" ", mib), false},
		{"URL", urlLine, true},
		{"URL with CRLF", urlLine + "\r", true},
		{"URL of 64 KiB and one byte", "https://example.com/" + strings.Repeat("b", 64<<10-len("https://example.com/")+1), true},
	}
	for _, c := range cases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				doc := "https://example.com/before\n" + c.line + "\n" + after + "\n"
				s, err := sitemap.New().SetStrict(m.strict).SetMaxResponseSize(int64(len(doc))).Parse(textURL, &doc)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if got, want := feedLocs(s), []string{"https://example.com/before", after}; !slices.Equal(got, want) {
					t.Errorf("locations %.200q, want %q", got, want)
				}
				errs := s.GetErrors()
				if !c.wantErr {
					if len(errs) != 0 {
						t.Errorf("errors %.300q, want none", feedErrTexts(errs))
					}
					return
				}
				// The error names the URL by its first 2,048 bytes.
				var verr *sitemap.ValidationError
				if len(errs) != 1 || !errors.As(errs[0], &verr) || verr.URL != c.line[:2048]+"…" {
					t.Errorf("errors %.300q, want one *ValidationError naming the first 2,048 bytes of the line", feedErrTexts(errs))
				}
			})
		}
	}
	// The limit is the response size limit: one byte over it is a
	// *ParseError wrapping ErrMaxResponseSize, and nothing of the document
	// is kept.
	t.Run("over the size limit", func(t *testing.T) {
		doc := "https://example.com/before\n" + strings.Repeat("x", mib) + "\n" + after + "\n"
		s, err := sitemap.New().SetMaxResponseSize(int64(len(doc)-1)).Parse(textURL, &doc)
		var perr *sitemap.ParseError
		if !errors.As(err, &perr) || !errors.Is(err, sitemap.ErrMaxResponseSize) {
			t.Fatalf("Parse: %v, want a *ParseError wrapping ErrMaxResponseSize", err)
		}
		if n := s.GetURLCount(); n != 0 {
			t.Errorf("%d URLs, want none", n)
		}
	})
}

// FORMAT-3 and the decisions on it: a text document without any URL line
// is no sitemap, an empty one is empty; both are a *ParseError.
func TestTextNotASitemap(t *testing.T) {
	cases := []struct {
		name, doc string
		cause     string // the cause, where a decision fixes it
	}{
		{"empty", "", "document is empty"},
		{"white space", " \n\t\r\n  \n", "document is empty"},
		{"BOM only", "\xEF\xBB\xBF", "document is empty"},
		{"comments only", "# a list of pages\n# https://example.com/a\n", ""},
		{"relative paths only", "index.html\nmodels/a.html\n/about\n", ""},
		{"a robots.txt by another name", "User-agent: *\nSitemap: https://example.com/sitemap.xml\n", ""},
		{"an HTML page that is not XML", "<!DOCTYPE html>\n<html><body><a href=\"https://example.com/\">x</a></body></html>", ""},
		{"URLs behind U+FEFF", "# list\n\xEF\xBB\xBFhttps://example.com/a\n", ""},
	}
	for _, c := range cases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				s, err := feedParse(t, m.strict, textURL, c.doc)
				var perr *sitemap.ParseError
				if !errors.As(err, &perr) || perr.URL != textURL {
					t.Fatalf("Parse: %v, want a *ParseError naming %s", err, textURL)
				}
				if c.cause != "" && perr.Err.Error() != c.cause {
					t.Errorf("cause %q, want %q", perr.Err, c.cause)
				}
				if errs := s.GetErrors(); len(errs) != 1 || errs[0] != err {
					t.Errorf("errors %q, want the one Parse returned", feedErrTexts(errs))
				}
			})
		}
	}
	// A document with a URL line is a text sitemap, even when that line is
	// rejected.
	t.Run("only a URL line without a host", func(t *testing.T) {
		s, err := feedParse(t, false, textURL, "# pages\nhttp://\n")
		feedCheck(t, s, err, []string{}, []string{`validate "http://": missing host`})
	})
}

// MAXURLS-3, MAXURLS-4, MAXVALERR-3, URL rules: the limits of a call and
// the URL rules apply to a text sitemap.
func TestTextLimitsAndRules(t *testing.T) {
	doc := "https://example.com/blog/1\nhttp://\nhttps://example.com/shop/2\nhttps:///x\nhttps://example.com/blog/3\nhttp://\n"
	for _, m := range feedModes {
		t.Run("maxURLs/"+m.name, func(t *testing.T) {
			s, err := sitemap.New().SetStrict(m.strict).SetMaxURLs(2).Parse(textURL, &doc)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := feedLocs(s), []string{"https://example.com/blog/1", "https://example.com/shop/2"}; !slices.Equal(got, want) {
				t.Errorf("locations %q, want %q", got, want)
			}
			// The line after the second URL is left unread: one line
			// without a host is reported, not the two after it.
			if nValidation, nLimit := feedCountErrs(t, s.GetErrors(), sitemap.ErrMaxURLs); nValidation != 1 || nLimit != 1 {
				t.Errorf("errors %q, want one line without a host and the URL limit", feedErrTexts(s.GetErrors()))
			}
		})
		t.Run("maxValidationErrors/"+m.name, func(t *testing.T) {
			s, err := sitemap.New().SetStrict(m.strict).SetMaxValidationErrors(2).Parse(textURL, &doc)
			if err != nil {
				t.Fatal(err)
			}
			if n := s.GetURLCount(); n != 3 {
				t.Errorf("%d URLs, want 3", n)
			}
			if nValidation, nLimit := feedCountErrs(t, s.GetErrors(), sitemap.ErrMaxValidationErrors); nValidation != 2 || nLimit != 1 {
				t.Errorf("errors %q, want two lines without a host and the limit", feedErrTexts(s.GetErrors()))
			}
		})
		t.Run("rules/"+m.name, func(t *testing.T) {
			s, err := sitemap.New().SetStrict(m.strict).SetRules([]string{`/shop/`, `/3$`}).Parse(textURL, &doc)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := feedLocs(s), []string{"https://example.com/shop/2", "https://example.com/blog/3"}; !slices.Equal(got, want) {
				t.Errorf("locations %q, want %q", got, want)
			}
		})
	}
}

// A text sitemap reached through a robots.txt or an index is recognised by
// its content, whatever its name says, compressed or not (FORMAT-2 and the
// decision on it), and its relative lines are skipped, not resolved.
func TestTextThroughRobotsAndIndex(t *testing.T) {
	docs := map[string]string{
		"/sitemap.xml":  "https://example.com/from-xml-name\nrelative/skipped\n",
		"/pages.txt.gz": string(gzipOf("\xEF\xBB\xBFhttps://example.com/from-gz\r\n")),
		"/feed":         "# a text sitemap at a feed's URL\n  https://example.com/indented\nhttps://example.com/at-a-feed-url\n",
		"/empty.txt":    "# nothing here\n",
		"/robots.txt":   "Sitemap: /sitemap.xml\nSitemap: /pages.txt.gz\nSitemap: /feed\nSitemap: /empty.txt\n",
	}
	srv := serveDocs(t, docs)
	docs["/index.xml"] = fmt.Sprintf(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%[1]s/sitemap.xml</loc></sitemap><sitemap><loc>%[1]s/pages.txt.gz</loc></sitemap>
<sitemap><loc>%[1]s/feed</loc></sitemap><sitemap><loc>%[1]s/empty.txt</loc></sitemap></sitemapindex>`, srv.URL)
	for _, root := range []string{"/robots.txt", "/index.xml"} {
		for _, m := range feedModes {
			if m.strict && root == "/robots.txt" {
				continue // strict mode needs absolute Sitemap: values (ROBOTS-14)
			}
			t.Run(root+"/"+m.name, func(t *testing.T) {
				s, err := sitemap.New().SetStrict(m.strict).SetMultiThread(false).Parse(srv.URL+root, nil)
				if err != nil {
					t.Fatal(err)
				}
				want := []string{"https://example.com/from-xml-name", "https://example.com/from-gz", "https://example.com/at-a-feed-url"}
				if got := feedLocs(s); !slices.Equal(got, want) {
					t.Errorf("locations %q, want %q", got, want)
				}
				// The text sitemap without a URL line is the one error.
				errs := s.GetErrors()
				var perr *sitemap.ParseError
				if len(errs) != 1 || !errors.As(errs[0], &perr) || perr.URL != srv.URL+"/empty.txt" {
					t.Errorf("errors %q, want one *ParseError for %s/empty.txt", feedErrTexts(errs), srv.URL)
				}
			})
		}
	}
}
