package sitemap

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/url"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// Fuzz targets of the feed and text parse stages (white-box), with the
// properties every input has to keep: no panic, every URL kept an absolute
// HTTP or HTTPS URL that names a host, of at most 2,048 characters, every
// error one of the four typed errors, and the same result however the
// input is cut into reads. The seeds run with every go test; a crash the
// fuzzer finds goes to testdata/fuzz/<target>/ and runs with them from then
// on, as a regression case.

const fuzzFeedRoot = "https://example.com/feed.xml"

// fuzzFeedSeeds are RSS and Atom documents of every dialect, well-formed
// and not.
var fuzzFeedSeeds = []string{
	`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><link>https://example.com/</link><pubDate>Tue, 02 Jan 2024 00:00:00 GMT</pubDate>` +
		`<item><link>https://example.com/a</link><pubDate>Mon, 15 Jan 2024 10:30:00 GMT</pubDate></item>` +
		`<item><link>/relative?a=1&amp;b=2</link><pubDate>15 Jan 24 10:30 EST</pubDate></item>` +
		`<item><title>no link</title></item><item><link></link></item></channel></rss>`,
	"<rss version=\"0.91\"><channel><item><link>\n  https://example.com/b\n</link><description><![CDATA[<p>x</p>]]></description></item></channel></rss>",
	`<rss version="2.0"><channel><item><source url="https://o.example/"><link>https://o.example/x</link></source><link>https://example.com/c</link><pubDate>2024-01-15T10:30:00Z</pubDate></item>`,
	`<rss><channel><item><link>https://example.com/d</link><pubDate>Mon, 15 Jan 2024 10:30:00 CET</pubDate><item><link>https://bücher.example/é é</link>`,
	`<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><item><link>https://example.com/caf` + "\xe9" + `</link></item></channel></rss>`,
	`<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><updated>2024-01-03T00:00:00Z</updated>` +
		`<entry><link rel="self" href="https://example.com/self"/><link href="https://example.com/e"/><updated>2024-01-15T10:30:00+01:00</updated><published>2023-01-01</published></entry>` +
		`<entry><link rel="alternate" href="//cdn.example.com/f"/><updated>bad</updated></entry>` +
		`<entry><source><link href="https://o.example/"/><updated>2020-01-01</updated></source></entry></feed>`,
	`<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><link rel="alternate" type="text/html" href="https://example.com/g"/><modified>2024-01-15T10:30:00Z</modified></entry></feed>`,
	`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">` +
		`<channel rdf:about="https://example.com/"><link>https://example.com/</link></channel>` +
		`<item rdf:about="https://example.com/h"><link>https://example.com/h</link><dc:date>2024-01-15</dc:date></item></rdf:RDF>`,
	`<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>a&nbsp;b & c</title><link href="https://example.com/i"/><content type="html"><p>x<br>y</p></content></entry>`,
	`<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:entry><a:link href="https:///nohost"/></a:entry><a:entry><a:link href="ftp://example.com/x"/></a:entry></a:feed>`,
	`<rss><channel><item><link>https://example.com/` + strings.Repeat("x", 2100) + `</link></item></channel></rss>`,
}

// fuzzTextSeeds are text sitemaps.
var fuzzTextSeeds = []string{
	"https://example.com/a\nhttp://example.com/b\n\n# comment\nnot a url\n",
	"\xEF\xBB\xBFhttps://example.com/a\r\n\xEF\xBB\xBFhttps://example.com/b\r\n",
	"  https://example.com/indented\t\n\tHTTPS://Example.com/upper \nhttp://\nhttps:///x\nhttps://:8080/y\n",
	"https://bücher.example/café summer sale\nhttps://example.com/a|b\nhttps://example.com/caf\xe9",
	"https://example.com/" + strings.Repeat("a", 3000) + "\nhttps://example.com/after",
	"#" + strings.Repeat("c", 4000) + "\nhttps://example.com/after-a-long-comment\n",
}

// fuzzCall returns a call and a document of it, as call.read makes them
// for the root document.
func fuzzCall(strict bool) (*S, *call, *doc) {
	s := New().SetStrict(strict).SetMultiThread(false)
	c := newCall(context.Background(), s, s.cfg, fuzzFeedRoot)
	base, _ := url.Parse(fuzzFeedRoot)
	return s, c, newDoc(c, base, fuzzFeedRoot)
}

// fuzzCheckURL checks that loc is an absolute HTTP or HTTPS URL that names
// a host, of at most 2,048 characters (LOC-9, TOLERANT-6, STRICT-7).
func fuzzCheckURL(t *testing.T, loc string) {
	t.Helper()
	if len(loc) > maxURLLength {
		t.Fatalf("URL of %d bytes kept: %.100q…", len(loc), loc)
	}
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatalf("URL %q kept that net/url cannot parse: %v", loc, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		t.Fatalf("URL %q kept with scheme %q", loc, u.Scheme)
	}
	if u.Hostname() == "" {
		t.Fatalf("URL %q kept without a host", loc)
	}
}

// fuzzCheckErr checks that err is one of the four typed errors itself.
func fuzzCheckErr(t *testing.T, err error) {
	t.Helper()
	switch err.(type) {
	case *ConfigError, *NetworkError, *ParseError, *ValidationError:
	default:
		t.Fatalf("error %T %v is none of the four typed errors", err, err)
	}
}

// fuzzCheckPublic parses data through Parse, in both modes, and checks the
// URLs and the errors of the call.
func fuzzCheckPublic(t *testing.T, data []byte, feedOnly bool) {
	t.Helper()
	content := string(data)
	for _, strict := range []bool{false, true} {
		s, err := New().SetStrict(strict).SetMultiThread(false).Parse(fuzzFeedRoot, &content)
		if err != nil {
			fuzzCheckErr(t, err)
			if errs := s.GetErrors(); len(errs) == 0 || !slices.Contains(errs, err) {
				t.Fatalf("Parse returned %v, which GetErrors does not hold", err)
			}
		}
		for _, e := range s.GetErrors() {
			fuzzCheckErr(t, e)
		}
		for _, u := range s.GetURLs() {
			fuzzCheckURL(t, u.Loc)
			if u.LastMod != nil && u.LastMod.IsZero() {
				t.Fatalf("%s: a LastMod of the zero time", u.Loc)
			}
			if feedOnly && (u.ChangeFreq != nil || u.Priority != nil || u.Images != nil || u.News != nil || u.Videos != nil || u.Hreflangs != nil) {
				t.Fatalf("%s: a feed or text URL with more than a location and a date: %+v", u.Loc, u)
			}
		}
	}
}

// fuzzStageResult is what a parse stage handed to its document.
type fuzzStageResult struct {
	format docFormat
	locs   []string
	errs   []string
	failed bool
}

func fuzzResult(d *doc, err error) fuzzStageResult {
	r := fuzzStageResult{format: d.format, failed: err != nil}
	for _, u := range docURLs(d) {
		r.locs = append(r.locs, u.Loc)
	}
	for _, e := range d.errs {
		r.errs = append(r.errs, e.Error())
	}
	return r
}

func (r fuzzStageResult) equal(o fuzzStageResult) bool {
	return r.format == o.format && r.failed == o.failed && slices.Equal(r.locs, o.locs) && slices.Equal(r.errs, o.errs)
}

// FuzzParseFeed runs arbitrary bytes through the XML parse stage, driven
// from an io.Reader with no HTTP (ADOPTED-5), with the
// entries going to the document sink, in both modes; and then through
// Parse, which also tells the document's format by its content.
func FuzzParseFeed(f *testing.F) {
	for _, s := range fuzzFeedSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strict := range []bool{false, true} {
			var results []fuzzStageResult
			readers := []func(io.Reader) io.Reader{
				func(r io.Reader) io.Reader { return r },
				iotest.OneByteReader,
				iotest.HalfReader,
			}
			for _, wrap := range readers {
				_, _, d := fuzzCall(strict)
				err := parseXML(newTokenizer(wrap(bytes.NewReader(data)), strict), strict, d)
				r := fuzzResult(d, err)
				for _, u := range docURLs(d) {
					fuzzCheckURL(t, u.Loc)
					if d.format == formatRSS || d.format == formatRDF || d.format == formatAtom {
						if u.ChangeFreq != nil || u.Priority != nil || u.Images != nil || u.News != nil || u.Videos != nil || u.Hreflangs != nil {
							t.Fatalf("%s: a feed URL with more than a location and a date: %+v", u.Loc, u)
						}
					}
				}
				for _, e := range d.errs {
					fuzzCheckErr(t, e)
				}
				results = append(results, r)
			}
			for _, r := range results[1:] {
				if !r.equal(results[0]) {
					t.Fatalf("strict=%v: the result depends on how the input is read:\n%+v\n%+v", strict, results[0], r)
				}
			}
		}
		fuzzCheckPublic(t, data, false)
	})
}

// FuzzParseText runs arbitrary bytes through the text parse stage, driven
// from an io.Reader with no HTTP (ADOPTED-5), with
// the entries going to the document sink, in both modes, through readers
// that cut the input anywhere and a line buffer of the smallest size; and
// then through Parse.
func FuzzParseText(f *testing.F) {
	for _, s := range fuzzTextSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// The lines that can yield a URL: those that begin with http://
		// or https://.
		candidates := 0
		for line := range bytes.Lines(data) {
			if hasHTTPPrefix(line) {
				candidates++
			}
		}
		for _, strict := range []bool{false, true} {
			var results []fuzzStageResult
			readers := []*bufio.Reader{
				bufio.NewReaderSize(bytes.NewReader(data), 64<<10),
				bufio.NewReaderSize(iotest.OneByteReader(bytes.NewReader(data)), 16),
				bufio.NewReaderSize(iotest.HalfReader(bytes.NewReader(data)), 16),
			}
			for _, br := range readers {
				_, _, d := fuzzCall(strict)
				d.format = formatText
				err := parseText(br, d)
				if err != nil {
					t.Fatalf("parseText: %v", err)
				}
				if d.lines != candidates {
					t.Fatalf("%d URL lines counted, want %d", d.lines, candidates)
				}
				if len(docURLs(d))+len(d.errs) > candidates {
					t.Fatalf("%d URLs and %d errors from %d URL lines", len(docURLs(d)), len(d.errs), candidates)
				}
				for _, u := range docURLs(d) {
					fuzzCheckURL(t, u.Loc)
					if u.LastMod != nil || u.ChangeFreq != nil || u.Priority != nil || u.Images != nil || u.News != nil || u.Videos != nil || u.Hreflangs != nil {
						t.Fatalf("%s: a text URL with more than a location: %+v", u.Loc, u)
					}
				}
				for _, e := range d.errs {
					fuzzCheckErr(t, e)
				}
				results = append(results, fuzzResult(d, err))
			}
			for _, r := range results[1:] {
				if !r.equal(results[0]) {
					t.Fatalf("strict=%v: the result depends on how the input is read:\n%+v\n%+v", strict, results[0], r)
				}
			}
		}
		// Content that is gzip or XML may be a urlset with extensions.
		isText := !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) &&
			!bytes.HasPrefix(bytes.TrimLeft(bytes.TrimPrefix(data, bom), " \t\r\n"), []byte("<"))
		fuzzCheckPublic(t, data, isText)
	})
}

// A text sitemap that is under way when another sitemap fills the URL
// limit adds nothing, and is no "not a sitemap" either (MAXURLS-5): its
// first URL line stops it, but makes it a text sitemap. Regression test of
// 96badf2; the situation needs two sitemaps in flight, so it is built here
// rather than timed through Parse.
func TestTextSitemapUnderWayAtURLLimit(t *testing.T) {
	s := New().SetMaxURLs(1)
	c := newCall(context.Background(), s, s.cfg, "https://example.com/index.xml")
	if !c.urls.take() || !c.urls.full() {
		t.Fatal("the URL limit of 1 is not full after one URL")
	}
	base, _ := url.Parse("https://example.com/b.txt")
	d := newDoc(c, base, base.String())
	if err := d.parse(strings.NewReader("# pages\nhttps://example.com/b1\nhttps://example.com/b2\n"), false, 0); err != nil {
		t.Fatalf("parse: %v, want no error for a text sitemap that the URL limit stops", err)
	}
	if len(docURLs(d)) != 0 || len(d.errs) != 0 {
		t.Errorf("the document yielded %d URLs and errors %v, want nothing", len(docURLs(d)), d.errs)
	}
	errs := s.GetErrors()
	if len(errs) != 1 || !errors.Is(errs[0], ErrMaxURLs) {
		t.Errorf("errors %v, want the URL limit alone", errs)
	}
}

// docURLs returns the URLs a document holds until it is committed.
func docURLs(d *doc) []URL { return slices.Concat(d.buf.urls...) }
