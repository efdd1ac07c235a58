package sitemap_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gositemap/sitemap"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
)

const bom = "\xEF\xBB\xBF"

func TestEncodingSpecExample(t *testing.T) {
	// ENC-1, ENC-3: the example of the spec, to the letter.
	// "\xe9" is the letter "é" in ISO-8859-1
	content := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n" +
		"  <url><loc>https://example.com/caf\xe9</loc></url>\n" +
		"</urlset>"
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &content)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got := s.GetURLs(); len(got) != 1 || got[0].Loc != "https://example.com/caf%C3%A9" {
		t.Errorf("URLs %q, want [https://example.com/caf%%C3%%A9]", locsOf(got))
	}
	noErrors(t, s)

	// The same, fetched and read in small pieces.
	for _, d := range deliveries {
		t.Run(d.name, func(t *testing.T) {
			srv := newServer(t)
			body := strings.ReplaceAll(content, "https://example.com/caf", srv.At("/caf"))
			s, err := d.parse(t, sitemap.New(), srv, "/sitemap.xml", []byte(body))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{srv.At("/caf%C3%A9")})
		})
	}
}

// pctEncode percent-encodes every byte of s that is not ASCII, as tolerant
// mode gives a path.
func pctEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func TestEncodingsOfWHATWG(t *testing.T) {
	// ENC-1, ENC-2, ENC-4, ENC-5: documents built with the encoders of
	// golang.org/x/text, in tolerant and strict mode.
	tests := []struct {
		label string
		enc   encoding.Encoding
		text  string
	}{
		{"windows-1252", charmap.Windows1252, "caf\u00e9\u20ac\u201c\u201d"}, // € and quotes: 0x80, 0x93, 0x94
		{"ISO-8859-2", charmap.ISO8859_2, "\u017c\u00f3\u0142w"},
		{"windows-1251", charmap.Windows1251, "\u043f\u0440\u0438\u0432\u0435\u0442"},
		{"KOI8-R", charmap.KOI8R, "\u043f\u0440\u0438\u0432\u0435\u0442"},
		{"Shift_JIS", japanese.ShiftJIS, "\u65e5\u672c\u8a9e\u30b5\u30a4\u30c8"},
		{"EUC-JP", japanese.EUCJP, "\u65e5\u672c\u8a9e"},
		{"EUC-KR", korean.EUCKR, "\ud55c\uad6d\uc5b4"},
		{"GBK", simplifiedchinese.GBK, "\u4e2d\u6587\u7f51\u9875"},
		{"gb18030", simplifiedchinese.GB18030, "\u4e2d\u6587\u20ac"},
		{"Big5", traditionalchinese.Big5, "\u7e41\u9ad4\u4e2d\u6587"},
		{"US-ASCII", charmap.Windows1252, "plain"},
		{"shift_jis", japanese.ShiftJIS, "\u65e5\u672c"}, // labels are not case-sensitive
	}
	for _, tt := range tests {
		for _, strict := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/strict=%v", tt.label, strict), func(t *testing.T) {
				doc := `<?xml version="1.0" encoding="` + tt.label + `"?>
<urlset xmlns="` + sitemapNS + `" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/` + tt.text + `</loc>
    <image:image><image:loc>https://example.com/i.jpg</image:loc><image:title>` + tt.text + ` title</image:title></image:image>
  </url>
</urlset>`
				encoded, err := tt.enc.NewEncoder().String(doc)
				if err != nil {
					t.Fatalf("encode: %v", err)
				}
				if tt.text != "plain" && encoded == doc {
					t.Fatalf("the %s document is the same as in UTF-8", tt.label)
				}
				s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap.xml", &encoded)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				noErrors(t, s)
				urls := s.GetURLs()
				if len(urls) != 1 {
					t.Fatalf("URLs %q", locsOf(urls))
				}
				want := "https://example.com/" + pctEncode(tt.text)
				if strict {
					want = "https://example.com/" + tt.text // as written, in UTF-8
				}
				if urls[0].Loc != want {
					t.Errorf("Loc %q, want %q", urls[0].Loc, want)
				}
				if len(urls[0].Images) != 1 || urls[0].Images[0].Title != tt.text+" title" {
					t.Errorf("images %+v, want the title %q", urls[0].Images, tt.text+" title")
				}
				for _, v := range []string{urls[0].Loc, urls[0].Images[0].Title} {
					if !utf8.ValidString(v) {
						t.Errorf("%q is not UTF-8", v)
					}
				}
			})
		}
	}
}

func TestEncodingEveryXMLFormat(t *testing.T) {
	// ENC-4: a sitemap index, RSS and Atom are transcoded too.
	const text = "caf\u00e9-\u20ac"
	enc := func(t *testing.T, doc string) string {
		s, err := charmap.Windows1252.NewEncoder().String(`<?xml version="1.0" encoding="windows-1252"?>` + "\n" + doc)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	t.Run("sitemapindex", func(t *testing.T) {
		content := enc(t, index("https://example.com/"+text+".xml"))
		s, err := sitemap.New().SetFollow([]string{`^$`}).Parse("https://example.com/index.xml", &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{"https://example.com/" + pctEncode(text) + ".xml"})
	})
	t.Run("RSS strict", func(t *testing.T) {
		// Strict mode: tolerant mode fails on every RSS <link>, see the
		// report of branch coretest2.
		content := enc(t, `<rss version="2.0"><channel><title>`+text+`</title><item><link>https://example.com/`+text+`</link></item></channel></rss>`)
		s, err := sitemap.New().SetStrict(true).Parse("https://example.com/feed.xml", &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/" + text})
	})
	t.Run("Atom", func(t *testing.T) {
		content := enc(t, `<feed xmlns="http://www.w3.org/2005/Atom"><title>`+text+`</title><entry><link href="https://example.com/`+text+`"/></entry></feed>`)
		s, err := sitemap.New().Parse("https://example.com/atom.xml", &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/" + pctEncode(text)})
	})
}

func TestEncodingUnsupported(t *testing.T) {
	// ENC-9, ENC-11, ENC-13: a declared encoding that cannot be read, and
	// UTF-16 and UTF-32 documents, are a *ParseError; one naming the
	// encoding it declares.
	declared := urlset("https://example.com/a")
	utf16 := func(e encoding.Encoding, s string) string {
		out, err := e.NewEncoder().String(s)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	le := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	be := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	plain := strings.Replace(declared, ` encoding="UTF-8"`, "", 1)
	tests := []struct {
		name, body string
		label      string // the encoding the message names, when it declares one
	}{
		{"unknown label", strings.Replace(declared, `encoding="UTF-8"`, `encoding="x-no-such-encoding"`, 1), "x-no-such-encoding"},
		{"EBCDIC", strings.Replace(declared, `encoding="UTF-8"`, `encoding="IBM037"`, 1), "IBM037"},
		{"declared UTF-16", strings.Replace(declared, `encoding="UTF-8"`, `encoding="UTF-16"`, 1), "UTF-16"},
		{"declared UTF-32", strings.Replace(declared, `encoding="UTF-8"`, `encoding="UTF-32"`, 1), "UTF-32"},
		{"UTF-16LE with BOM", "\xFF\xFE" + utf16(le, strings.Replace(declared, "UTF-8", "UTF-16", 1)), ""},
		{"UTF-16BE with BOM", "\xFE\xFF" + utf16(be, strings.Replace(declared, "UTF-8", "UTF-16", 1)), ""},
		{"UTF-16LE without BOM", utf16(le, plain), ""},
		{"UTF-16BE without BOM", utf16(be, plain), ""},
		{"UTF-32BE with BOM", "\x00\x00\xFE\xFF" + strings.Join(strings.Split(plain, ""), "\x00\x00\x00"), ""},
		{"UTF-16LE text with BOM", "\xFF\xFE" + utf16(le, "https://example.com/a\n"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			srv.Doc("/bad.xml", tt.body)
			srv.Doc("/ok.xml", urlset("https://example.com/ok"))
			srv.Doc("/index.xml", index(srv.At("/bad.xml"), srv.At("/ok.xml")))

			// As the root: returned.
			s, err := sitemap.New().Parse(srv.At("/bad.xml"), nil)
			var perr *sitemap.ParseError
			if !errors.As(err, &perr) || perr.URL != srv.At("/bad.xml") {
				t.Fatalf("Parse error = %v, want *ParseError", err)
			}
			if tt.label != "" && !strings.Contains(err.Error(), `"`+tt.label+`"`) {
				t.Errorf("error %q does not name the encoding %q", err.Error(), tt.label)
			}
			if s.GetURLCount() != 0 || s.GetErrorsCount() != 1 {
				t.Errorf("%d URLs, errors %q", s.GetURLCount(), messagesOf(s.GetErrors()))
			}
			// As a listed sitemap: recorded, the others read.
			s, err = sitemap.New().Parse(srv.At("/index.xml"), nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			perrs := errorsOf[*sitemap.ParseError](s.GetErrors())
			if s.GetErrorsCount() != 1 || len(perrs) != 1 || perrs[0].URL != srv.At("/bad.xml") {
				t.Errorf("errors %q", messagesOf(s.GetErrors()))
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/ok"})
		})
	}
}

func TestEncodingHTTPCharsetIgnored(t *testing.T) {
	// ENC-10, ENC-12: only the XML declaration counts; without one the
	// document is UTF-8; text is never transcoded.
	tests := []struct {
		name, ctype, body string
		want              string
	}{
		{"UTF-8 XML served as ISO-8859-1", "text/xml; charset=ISO-8859-1", urlset("https://example.com/caf\u00e9"), "https://example.com/caf%C3%A9"},
		{"XML without a declaration served as windows-1252", "application/xml; charset=windows-1252",
			`<urlset xmlns="` + sitemapNS + `"><url><loc>https://example.com/caf` + "\u00e9" + `</loc></url></urlset>`, "https://example.com/caf%C3%A9"},
		{"ISO-8859-1 XML served as UTF-8", "text/xml; charset=utf-8",
			"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><urlset xmlns=\"" + sitemapNS + "\"><url><loc>https://example.com/caf\xe9</loc></url></urlset>", "https://example.com/caf%C3%A9"},
		{"UTF-8 text served as ISO-8859-1", "text/plain; charset=ISO-8859-1", "https://example.com/caf\u00e9\n", "https://example.com/caf%C3%A9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			srv.Handle("/sitemap", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.ctype)
				w.Write([]byte(tt.body))
			})
			s, err := sitemap.New().Parse(srv.At("/sitemap"), nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{tt.want})
		})
	}
}

func TestEncodingTextAndRobotsNotTranscoded(t *testing.T) {
	// ENC-12: a text sitemap or a robots.txt with a byte of ISO-8859-1 in
	// it is not read as ISO-8859-1.
	content := "https://example.com/caf\xe9\n"
	s, err := sitemap.New().Parse("https://example.com/sitemap.txt", &content)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	for _, u := range s.GetURLs() {
		if u.Loc == "https://example.com/caf%C3%A9" {
			t.Errorf("text sitemap transcoded from ISO-8859-1: %q", u.Loc)
		}
	}
	robots := "Sitemap: https://example.com/caf\xe9.xml\n"
	s, err = sitemap.New().SetFollow([]string{`^$`}).Parse("https://example.com/robots.txt", &robots)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	for _, sm := range s.GetSitemaps() {
		if sm.Loc == "https://example.com/caf%C3%A9.xml" {
			t.Errorf("robots.txt transcoded from ISO-8859-1: %q", sm.Loc)
		}
	}
}

func TestByteOrderMark(t *testing.T) {
	// ENC-6, ENC-7: a UTF-8 BOM at the very start is ignored in every
	// format, in both modes, gzip compressed too.
	srv0 := "{}" // replaced with the server URL
	tests := []struct {
		name, body string
		urls       []string
		sitemaps   []string
		path       string
	}{
		{"XML", bom + urlset(srv0+"/a"), []string{srv0 + "/a"}, nil, "/sitemap.xml"},
		{"XML without declaration", bom + `<urlset xmlns="` + sitemapNS + `"><url><loc>` + srv0 + `/a</loc></url></urlset>`, []string{srv0 + "/a"}, nil, "/sitemap.xml"},
		{"XML after white space", bom + "\n\n" + urlset(srv0+"/a"), []string{srv0 + "/a"}, nil, "/sitemap.xml"},
		{"windows-1252 XML", bom + "<?xml version=\"1.0\" encoding=\"windows-1252\"?><urlset xmlns=\"" + sitemapNS + "\"><url><loc>" + srv0 + "/a</loc></url></urlset>", []string{srv0 + "/a"}, nil, "/sitemap.xml"},
		{"text", bom + srv0 + "/a\n" + srv0 + "/b\n", []string{srv0 + "/a", srv0 + "/b"}, nil, "/sitemap.txt"},
		{"robots.txt", bom + "Sitemap: " + srv0 + "/s.xml\n", nil, []string{srv0 + "/s.xml"}, "/robots.txt"},
	}
	for _, tt := range tests {
		for _, gz := range []bool{false, true} {
			for _, strict := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/gzip=%v/strict=%v", tt.name, gz, strict), func(t *testing.T) {
					for _, d := range deliveries {
						t.Run(d.name, func(t *testing.T) {
							srv := newServer(t)
							body := []byte(strings.ReplaceAll(tt.body, srv0, srv.At("")))
							if gz {
								body = gzipOf(string(body))
							}
							s, err := d.parse(t, sitemap.New().SetStrict(strict).SetFollow([]string{`^$`}), srv, tt.path, body)
							if err != nil {
								t.Fatalf("Parse: %v", err)
							}
							noErrors(t, s)
							equalStrings(t, "URLs", locsOf(s.GetURLs()), fill(srv.At(""), tt.urls))
							equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), fill(srv.At(""), tt.sitemaps))
						})
					}
				})
			}
		}
	}
}

func TestZeroWidthNoBreakSpaceElsewhere(t *testing.T) {
	// ENC-8: U+FEFF anywhere but at the very start is taken as it stands:
	// a line that begins with it is not recognised.
	const feff = "\uFEFF"
	t.Run("text", func(t *testing.T) {
		content := "https://example.com/a\n" + feff + "https://example.com/b\nhttps://example.com/c\n"
		s, err := sitemap.New().Parse("https://example.com/sitemap.txt", &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/a", "https://example.com/c"})
	})
	t.Run("text with two marks at the start", func(t *testing.T) {
		content := bom + feff + "https://example.com/a\nhttps://example.com/b\n"
		s, err := sitemap.New().Parse("https://example.com/sitemap.txt", &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/b"})
	})
	t.Run("robots.txt", func(t *testing.T) {
		content := "Sitemap: https://example.com/a.xml\n" + feff + "Sitemap: https://example.com/b.xml\n"
		s, err := sitemap.New().SetFollow([]string{`^$`}).Parse("https://example.com/robots.txt", &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{"https://example.com/a.xml"})
	})
	t.Run("robots.txt with two marks at the start", func(t *testing.T) {
		content := bom + feff + "Sitemap: https://example.com/a.xml\nSitemap: https://example.com/b.xml\n"
		s, err := sitemap.New().SetFollow([]string{`^$`}).Parse("https://example.com/robots.txt", &content)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		equalStrings(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{"https://example.com/b.xml"})
	})
}
