package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gositemap/sitemap"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	xunicode "golang.org/x/text/encoding/unicode"
)

func TestGzipMembersAndTrailer(t *testing.T) {
	// GZIP-2, GZIP-3, MAXSIZE-3
	urlset := urlset(pages("p", 6)...)
	cut1, cut2 := len(urlset)/3, 2*len(urlset)/3
	text := "https://example.com/p-1\nhttps://example.com/p-2\nhttps://example.com/p-3\nhttps://example.com/p-4\nhttps://example.com/p-5\nhttps://example.com/p-6\n"
	tcut := strings.Index(text, "p-3") // inside a line
	tests := []struct {
		name string
		body []byte
	}{
		{"one member", gzipOf(urlset)},
		{"three members split inside elements", gzipMembers(t, urlset[:cut1], urlset[cut1:cut2], urlset[cut2:])},
		{"text split inside a line", gzipMembers(t, text[:tcut], text[tcut:])},
		{"empty members between", gzipMembers(t, "", urlset[:cut1], "", urlset[cut1:], "")},
		{"trailing newline", append(gzipOf(urlset), '\n')},
		{"trailing CRLF after members", append(gzipMembers(t, urlset[:cut1], urlset[cut1:]), '\r', '\n')},
		{"trailing bytes that are no member", append(gzipOf(urlset), []byte("\n\x00\x00junk that is no gzip member\n")...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range deliveries {
				t.Run(d.name, func(t *testing.T) {
					srv := newServer(t)
					s, err := d.parse(t, sitemap.New(), srv, "/sitemap.xml.gz", tt.body)
					if err != nil {
						t.Fatalf("Parse: %v", err)
					}
					noErrors(t, s)
					equalStrings(t, "URLs", locsOf(s.GetURLs()), pages("p", 6))
				})
			}
		})
	}
}

func TestGzipTruncated(t *testing.T) {
	// GZIP-4: nothing of the document is kept, one *ParseError with exactly
	// this cause.
	const cause = "gzip decompression failed: unexpected EOF"
	// Entries that would yield URLs, a validation error and a sitemap, so
	// that whatever was read before the cut would show.
	urlset := urlset(append(pages("p", 50), "")...)
	index := index("https://example.com/s1.xml", "", "https://example.com/s2.xml") + strings.Repeat("<!-- padding -->\n", 200)
	full := gzipOf(urlset)
	fullIndex := gzipOf(index)
	tests := []struct {
		name string
		body []byte
	}{
		{"magic bytes only", full[:2]},
		{"inside the header", full[:6]},
		{"after the header", full[:10]},
		{"in the middle of the data", full[:len(full)/2]},
		{"trailer missing", full[:len(full)-8]},
		{"half of the trailer", full[:len(full)-4]},
		{"one byte short", full[:len(full)-1]},
		// GZIP-7 (decision): a member after the last one that is cut short
		// fails the document.
		{"second member cut", append(gzipOf(urlset[:100]), gzipOf(urlset[100:])[:40]...)},
		{"index in the middle", fullIndex[:len(fullIndex)-30]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range deliveries {
				t.Run(d.name, func(t *testing.T) {
					srv := newServer(t)
					s, err := d.parse(t, sitemap.New(), srv, "/sitemap.xml.gz", tt.body)
					want := `parse "` + srv.At("/sitemap.xml.gz") + `": ` + cause
					var perr *sitemap.ParseError
					if !errors.As(err, &perr) || err.Error() != want {
						t.Fatalf("Parse error = %v, want %s", err, want)
					}
					equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{want})
					if s.GetURLCount() != 0 || s.GetSitemapCount() != 0 {
						t.Errorf("kept %d URLs and %d sitemaps of a broken document", s.GetURLCount(), s.GetSitemapCount())
					}
					if srv.Total() > 1 {
						t.Errorf("requested %q", srv.Log())
					}
				})
			}
		})
	}
}

func TestGzipTruncatedChild(t *testing.T) {
	// GZIP-4 for a listed sitemap: reported once for it, the others read;
	// what the broken one took from the URL limit is given back (MAXURLS-3).
	srv := newServer(t)
	broken := gzipOf(urlset("https://example.com/broken-1", "https://example.com/broken-2", "") + strings.Repeat("<!-- pad -->\n", 300))
	srv.Bytes("/broken.xml.gz", broken[:len(broken)-20])
	srv.Doc("/good.xml", urlset(pages("good", 3)...))
	srv.Doc("/index.xml", index(srv.At("/broken.xml.gz"), srv.At("/good.xml")))
	s, err := sitemap.New().SetMultiThread(false).SetMaxURLs(3).Parse(srv.At("/index.xml"), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{
		`parse "` + srv.At("/broken.xml.gz") + `": gzip decompression failed: unexpected EOF`,
	})
	equalStrings(t, "URLs", locsOf(s.GetURLs()), pages("good", 3))
}

func TestGzipContentPassedIn(t *testing.T) {
	// GZIP-5: gzip content passed in through urlContent, as a string of
	// the compressed bytes.
	content := string(gzipMembers(t, urlset("https://example.com/a")[:60], urlset("https://example.com/a")[60:]))
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml.gz", &content)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	noErrors(t, s)
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/a"})

	// Truncated, passed in: the same single error.
	cut := content[:len(content)-5]
	_, err = s.Parse("https://example.com/sitemap.xml.gz", &cut)
	if err == nil || err.Error() != `parse "https://example.com/sitemap.xml.gz": gzip decompression failed: unexpected EOF` {
		t.Errorf("Parse error = %v", err)
	}
	equalStrings(t, "errors", messagesOf(s.GetErrors()), []string{err.Error()})
}

func TestGzipMagicOnlyAtStart(t *testing.T) {
	// ADOPTED-1: gzip is told by the magic bytes at the start only; the same
	// bytes inside a text document are just bytes.
	content := "https://example.com/a\n\x1f\x8b not gzip\nhttps://example.com/b\n"
	s, err := sitemap.New().Parse("https://example.com/sitemap.txt", &content)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/a", "https://example.com/b"})
}

// A gzipped document is inflated by a goroutine of its own, ahead of the
// parse stage (readAhead in decode.go). When the parse stops before the end
// of the document (here: a streaming loop that breaks at its first URL, and
// a strict-mode syntax error), the call must not wait for that goroutine's
// read of a server that has stopped sending: it closes the body and
// returns.
func TestGzipStalledBodyDoesNotHoldTheCall(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/gzip")
		z := gzip.NewWriter(w)
		fmt.Fprintf(z, `<urlset xmlns="%s"><url><loc>http://%s/a</loc></url>`, sitemapNS, r.Host)
		if r.URL.Path == "/broken.xml.gz" {
			// What the decode stage peeks at, and then the error, well
			// before the stall: the parse ends while the read-ahead
			// waits for the network.
			fmt.Fprintf(z, "%s</urlset junk>", strings.Repeat(" ", 2<<10))
		} else {
			// More than the read-ahead and the buffers of the decode
			// stage hold: the stream's loop breaks while the read-ahead
			// waits for room.
			for i := range 5000 {
				fmt.Fprintf(z, "<url><loc>http://%s/p/%d</loc></url>\n", r.Host, i)
			}
		}
		z.Flush()
		w.(http.Flusher).Flush()
		select { // the rest of the document never comes
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()

	done := make(chan string, 2)
	go func() {
		s := sitemap.New().SetFetchTimeout(60)
		n := 0
		for u, err := range s.Stream(context.Background(), srv.URL+"/stalled.xml.gz", nil) {
			if err != nil {
				done <- "stream: " + err.Error()
				return
			}
			if u.Loc != srv.URL+"/a" {
				done <- "stream: got " + u.Loc
				return
			}
			n++
			break
		}
		done <- fmt.Sprintf("stream: %d URLs", n)
	}()
	go func() {
		s, err := sitemap.New().SetFetchTimeout(60).SetStrict(true).Parse(srv.URL+"/broken.xml.gz", nil)
		var pe *sitemap.ParseError
		done <- fmt.Sprintf("strict: %v %t", s.GetURLCount(), errors.As(err, &pe))
	}()
	want := map[string]bool{"stream: 1 URLs": true, "strict: 0 true": true}
	for range 2 {
		select {
		case got := <-done:
			if !want[got] {
				t.Errorf("got %q, want one of %v", got, want)
			}
			delete(want, got)
		case <-time.After(guardTimeout):
			t.Fatalf("a call still waits on a body the server stopped sending; left: %v", want)
		}
	}
}

// GZIP-7 (open; pinned as decode.go has it: whatever follows a member and
// begins with the gzip magic bytes is a member): a member that is cut or
// broken there fails the document like any gzip content that cannot be
// decompressed to its end, while other trailing bytes are ignored.
func TestGzipTrailingPartialMember(t *testing.T) {
	member := gzipOf(urlset("https://example.com/a", "https://example.com/b"))
	tests := []struct {
		name   string
		tail   []byte
		broken bool
	}{
		{"the magic bytes alone", []byte{0x1f, 0x8b}, true},
		{"the magic bytes and junk", append([]byte{0x1f, 0x8b}, "junk that is no member\n"...), true},
		{"a member header cut short", gzipOf("https://example.com/c\n")[:10], true},
		{"bytes that are no member", []byte("\n\x1f junk\n"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := append(slices.Clone(member), tt.tail...)
			for _, d := range deliveries {
				t.Run(d.name, func(t *testing.T) {
					srv := newServer(t)
					s, err := d.parse(t, sitemap.New(), srv, "/sitemap.xml.gz", body)
					if !tt.broken {
						if err != nil {
							t.Fatalf("Parse: %v", err)
						}
						equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/a", "https://example.com/b"})
						return
					}
					var perr *sitemap.ParseError
					if !errors.As(err, &perr) || !strings.HasPrefix(perr.Err.Error(), "gzip decompression failed: ") {
						t.Fatalf("Parse error = %v, want a *ParseError of a failed decompression", err)
					}
					if s.GetURLCount() != 0 || s.GetErrorsCount() != 1 {
						t.Errorf("%d URLs, errors %q: nothing of the document is kept, one error", s.GetURLCount(), messagesOf(s.GetErrors()))
					}
				})
			}
		})
	}
}

// ENC-14 (decision: the labels mean what the WHATWG Encoding Standard says):
// a document declared ISO-8859-1 is read as windows-1252, so its bytes 0x80
// to 0x9F are the characters of windows-1252 (€, Ÿ), not C1 controls.
func TestISO88591IsWindows1252(t *testing.T) {
	content := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.com/\x80\xe9\x9f</loc></url></urlset>"
	for _, tt := range []struct {
		strict bool
		want   string
	}{
		{false, "https://example.com/%E2%82%AC%C3%A9%C5%B8"},
		{true, "https://example.com/\u20ac\u00e9\u0178"},
	} {
		s, err := sitemap.New().SetStrict(tt.strict).Parse("https://example.com/sitemap.xml", &content)
		if err != nil {
			t.Fatalf("strict=%v: Parse: %v", tt.strict, err)
		}
		equalStrings(t, fmt.Sprintf("strict=%v: URLs", tt.strict), locsOf(s.GetURLs()), []string{tt.want})
		noErrors(t, s)
	}
}

// peakLiveHeap runs f and returns the largest live heap seen while it
// ran, above the live heap before: the garbage is collected before each
// look, every few milliseconds, so that garbage left to the next
// collection, which depends on what earlier tests keep alive, does not
// count.
func peakLiveHeap(f func()) uint64 {
	return peakOf(liveHeap, 5*time.Millisecond, f)
}

// ADOPTED-3: a document flows from the network through decompression and
// decoding into the parser and is never held whole: a document of 16 MiB,
// plain and gzipped, and in a declared encoding, is read with a heap that
// grows by far less than its size.
func TestDocumentStreamedNotHeld(t *testing.T) {
	const (
		pages   = 8
		padding = 2 << 20 // between two entries
		size    = pages * padding
	)
	comment := "<!--" + strings.Repeat("x", 1016) + "-->\n" // 1 KiB
	write := func(w io.Writer, host string) {
		io.WriteString(w, `<?xml version="1.0" encoding="ISO-8859-1"?>`+"\n"+`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		chunk := strings.Repeat(comment, 64)
		for i := range pages {
			fmt.Fprintf(w, "<url><loc>http://%s/p-%d</loc></url>\n", host, i)
			for range padding / len(chunk) {
				io.WriteString(w, chunk)
			}
		}
		io.WriteString(w, "</urlset>\n")
	}
	srv := newServer(t)
	srv.Handle("/plain.xml", func(w http.ResponseWriter, r *http.Request) { write(w, r.Host) })
	// Compressed before the measure: a compressor at work on the server
	// holds megabytes of its own.
	var packed bytes.Buffer
	z, _ := gzip.NewWriterLevel(&packed, gzip.BestCompression)
	write(z, strings.TrimPrefix(srv.At(""), "http://"))
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	srv.Bytes("/packed.xml.gz", packed.Bytes())
	for _, path := range []string{"/plain.xml", "/packed.xml.gz"} {
		t.Run(path, func(t *testing.T) {
			s := newParser()
			var err error
			heap := peakLiveHeap(func() { _, err = s.Parse(srv.At(path), nil) })
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if s.GetURLCount() != pages {
				t.Fatalf("%d URLs, want %d", s.GetURLCount(), pages)
			}
			t.Logf("peak live heap %.1f MiB for a document of %d MiB", float64(heap)/(1<<20), size>>20)
			// Held whole, the document alone would take 16 MiB; streamed, it
			// takes a few buffers.
			if heap > size/4 {
				t.Errorf("the live heap grew by %d MiB reading a document of %d MiB", heap>>20, size>>20)
			}
		})
	}
}

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
	le := xunicode.UTF16(xunicode.LittleEndian, xunicode.IgnoreBOM)
	be := xunicode.UTF16(xunicode.BigEndian, xunicode.IgnoreBOM)
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
