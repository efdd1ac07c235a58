package sitemap

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// The limits of a fuzzed call: small, so that inputs reach them.
const (
	fuzzExtMaxURLs    = 40
	fuzzExtMaxValErrs = 40
	fuzzExtBase       = "https://example.com/sitemap.xml"
)

var fuzzExtSeeds = []string{
	`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url>
  <loc>https://example.com/page</loc>
  <lastmod>2024-01-15T10:30:00Z</lastmod>
  <changefreq>Daily</changefreq>
  <priority>0.8</priority>
  <image:image>
    <image:loc> https://cdn.example.com/summer sale.jpg </image:loc>
    <image:title>Summer</image:title><image:caption>A caption</image:caption>
    <image:geo_location>Limerick, Ireland</image:geo_location>
    <image:license>https://example.com/license</image:license>
  </image:image>
  <image:image><image:loc>/relative/café.jpg</image:loc></image:image>
  <news:news>
    <news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication>
    <news:publication_date>2024-01-15</news:publication_date>
    <news:title>Companies A, B in Merger Talks</news:title>
  </news:news>
  <video:video>
    <video:thumbnail_loc>https://bücher.example/thumb.jpg</video:thumbnail_loc>
    <video:title>Grilling steaks</video:title>
    <video:description>How to</video:description>
    <video:content_loc>ftp://cdn.example.com/video.mp4</video:content_loc>
    <video:player_loc>https://example.com/player?a=1&amp;b=2</video:player_loc>
    <video:duration>600</video:duration>
    <video:expiration_date>2030-11-05T19:20:30+08:00</video:expiration_date>
    <video:rating>4.2</video:rating>
    <video:view_count>12345</video:view_count>
    <video:publication_date>2024-01-15T10:30:00Z</video:publication_date>
    <video:family_friendly>yes</video:family_friendly>
    <video:restriction relationship="allow">IE GB</video:restriction>
    <video:platform relationship="deny">tv</video:platform>
    <video:requires_subscription>no</video:requires_subscription>
    <video:uploader info="https://example.com/users/x">X</video:uploader>
    <video:live>no</video:live>
    <video:tag>steak</video:tag><video:tag>meat</video:tag>
  </video:video>
  <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/page"/>
  <xhtml:link rel="alternate" hreflang="x-default" href=" https://example.com/ "/>
</url>
<url><loc>/relative</loc><video:video><video:duration>x</video:duration><video:thumbnail_loc>t.jpg</video:thumbnail_loc></video:video></url>
<url><loc>https://other.example/p</loc><news:news><news:publication_date>bad</news:publication_date></news:news></url>
</urlset>`,
	`<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>https://example.com/a</s:loc>
<i:image xmlns:i="http://www.google.com/schemas/sitemap-image/1.1"><i:loc>https://cdn.example.com/a.jpg</i:loc></i:image>
<o:image xmlns:o="http://example.com/other"><o:loc>https://cdn.example.com/b.jpg</o:loc></o:image>
<image xmlns="https://www.google.com/schemas/sitemap-image/1.1/"><loc>https://cdn.example.com/c.jpg</loc></image>
</s:url></s:urlset>`,
	`<urlset><url><loc>https://example.com/a</loc><image:image><image:loc>https://cdn.example.com/a.jpg`,
	`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc><video:video><video:thumbnail_loc>https://x/</video:thumbnail_loc><video:tag>a</video:tag><video:tag>b</video:tag></video:video></url><url><loc>https://example.com/b&c</loc></url>`,
	`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>https://example.com/a</loc><xhtml:link rel="canonical" href="x"/><xhtml:link hreflang="" href=""/></url></urlset>`,
	`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/s.xml</loc><lastmod>2024</lastmod></sitemap></sitemapindex>`,
	`<urlset><url><loc><![CDATA[https://example.com/a b]]></loc><priority></priority><news:news><news:title>&nbsp;T&amp;</news:title></news:news></url></urlset>`,
	"",
	"<",
	"<html><body>not a sitemap</body></html>",
}

// fuzzExtResult is what the parse stage kept of one input.
type fuzzExtResult struct {
	urls     []URL
	valErrs  []error // the *ValidationError values of the document
	callErrs []error // what the call recorded: the limit errors
	err      error   // the error of the parse stage
}

func fuzzExtParse(data []byte, strict bool, oneByte bool) fuzzExtResult {
	s := New()
	cfg := s.cfg
	cfg.strict = strict
	cfg.maxURLs = fuzzExtMaxURLs
	cfg.maxValidationErrors = fuzzExtMaxValErrs
	c := newCall(context.Background(), s, cfg, fuzzExtBase)
	base, _ := url.Parse(fuzzExtBase)
	d := newDoc(c, base, fuzzExtBase)
	r := bytes.NewReader(data)
	var tok tokenizer = newTokenizer(r, strict)
	if oneByte {
		tok = newTokenizer(iotest.OneByteReader(r), strict)
	}
	err := parseXML(tok, strict, d, &xmlHooks{})
	return fuzzExtResult{urls: slices.Concat(d.buf.urls...), valErrs: d.errs, callErrs: s.GetErrors(), err: err}
}

func FuzzParseURLSet(f *testing.F) {
	for _, s := range fuzzExtSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	// The small extension documents of the corpus, where it is there.
	docs, _ := filepath.Glob("../shared/corpus/docs/*")
	for _, p := range docs {
		name := filepath.Base(p)
		if !strings.HasSuffix(name, ".xml") || !strings.ContainsAny(name[4:5], "ihnv") {
			continue
		}
		if b, err := os.ReadFile(p); err == nil && len(b) <= 16<<10 {
			f.Add(b, false)
			f.Add(b, true)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		res := fuzzExtParse(data, strict, false)
		checkFuzzExtResult(t, res, strict)

		// The result does not depend on how the input is cut into reads.
		again := fuzzExtParse(data, strict, true)
		if a, b := fuzzExtDump(res), fuzzExtDump(again); a != b {
			t.Fatalf("read a byte at a time, the input yields another result:\n%s\nwhole:\n%s", b, a)
		}
	})
}

// fuzzExtDump writes a result in a form two results compare by.
func fuzzExtDump(r fuzzExtResult) string {
	var b strings.Builder
	urls, err := json.Marshal(r.urls)
	if err != nil {
		return "json: " + err.Error()
	}
	b.Write(urls)
	for _, e := range r.valErrs {
		b.WriteString("\n" + e.Error())
	}
	for _, e := range r.callErrs {
		b.WriteString("\n" + e.Error())
	}
	if r.err != nil {
		b.WriteString("\nerr: " + r.err.Error())
	}
	return b.String()
}

func checkFuzzExtResult(t *testing.T, res fuzzExtResult, strict bool) {
	t.Helper()
	// Every error is one of the documented types.
	if res.err != nil && !isParseStageError(res.err) {
		t.Fatalf("parse stage error %v (%T) is none the package documents", res.err, res.err)
	}
	for _, e := range res.valErrs {
		var ve *ValidationError
		if !errors.As(e, &ve) {
			t.Fatalf("document error %v (%T) is no *ValidationError", e, e)
		}
		if ve.URL == "" || len(ve.URL) > 2*maxURLLength+len("…") || ve.Err == nil {
			t.Fatalf("validation error %q names no URL, or one of %d bytes", e, len(ve.URL))
		}
	}
	seen := map[error]bool{}
	for _, e := range res.callErrs {
		var pe *ParseError
		if !errors.As(e, &pe) || pe.URL != fuzzExtBase {
			t.Fatalf("call error %v (%T) is no *ParseError naming the call", e, e)
		}
		var sentinel error
		switch {
		case errors.Is(e, ErrMaxURLs):
			sentinel = ErrMaxURLs
		case errors.Is(e, ErrMaxValidationErrors):
			sentinel = ErrMaxValidationErrors
		default:
			t.Fatalf("call error %v wraps no limit it could have reached", e)
		}
		if seen[sentinel] {
			t.Fatalf("limit error %v recorded twice", e)
		}
		seen[sentinel] = true
	}

	// Counts within the limits.
	if len(res.urls) > fuzzExtMaxURLs {
		t.Fatalf("%d URLs kept, the limit is %d", len(res.urls), fuzzExtMaxURLs)
	}
	if len(res.valErrs) > fuzzExtMaxValErrs {
		t.Fatalf("%d validation errors kept, the limit is %d", len(res.valErrs), fuzzExtMaxValErrs)
	}

	for i := range res.urls {
		u := &res.urls[i]
		checkFuzzExtLoc(t, u.Loc, strict)
		// No text value has white space around it, and none is longer
		// than the parse stage keeps of a value (VALUE-8).
		walkStrings(reflect.ValueOf(u).Elem(), func(path, s string) {
			if strings.TrimSpace(s) != s {
				t.Fatalf("URL %d: %s = %q has white space around it", i, path, s)
			}
			if len(s) > maxValueLength {
				t.Fatalf("URL %d: %s has %d bytes, more than a value is kept of", i, path, len(s))
			}
		})
		for _, im := range u.Images {
			checkFuzzExtKey(t, "Image.Loc", im.Loc, strict)
			checkFuzzExtOptional(t, "Image.License", im.License, strict)
		}
		for _, v := range u.Videos {
			checkFuzzExtKey(t, "Video.ThumbnailLoc", v.ThumbnailLoc, strict)
			checkFuzzExtOptional(t, "Video.ContentLoc", v.ContentLoc, strict)
			checkFuzzExtOptional(t, "Video.PlayerLoc", v.PlayerLoc, strict)
			if v.Uploader != nil {
				checkFuzzExtOptional(t, "Video.Uploader.Info", v.Uploader.Info, strict)
			}
		}
		for _, l := range u.Hreflangs {
			checkFuzzExtKey(t, "AlternateLink.Href", l.Href, strict)
			if strict && (l.Rel != "alternate" || l.Hreflang == "") {
				t.Fatalf("strict mode kept the alternate link %+v", l)
			}
		}
	}
}

// isParseStageError reports whether err is an error the XML parse stage
// may end a document with; the engine wraps it in a *ParseError.
func isParseStageError(err error) bool {
	var syn *xml.SyntaxError
	var notSitemap *notSitemapError
	switch {
	case errors.Is(err, errNoRoot), errors.Is(err, errEntryCutOff), errors.Is(err, errRootCutOff), errors.Is(err, errTooDeep),
		errors.As(err, &syn), errors.As(err, &notSitemap):
		return true
	}
	// encoding/xml's own words for a declaration it does not take.
	return strings.HasPrefix(err.Error(), "xml: unsupported version")
}

// checkFuzzExtLoc holds the Loc of a page to LOC-9: an HTTP or HTTPS URL
// that names a host and that net/url can parse, in both modes; strict mode
// returns it as written and accepts it, tolerant mode within 2,048
// characters (TOLERANT-6).
func checkFuzzExtLoc(t *testing.T, loc string, strict bool) {
	t.Helper()
	p, err := url.Parse(loc)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Hostname() == "" {
		t.Fatalf("Loc %q is no HTTP(S) URL with a host (%v)", loc, err)
	}
	if strict {
		if out, err := urlnorm.Loc(loc, nil, true); err != nil || out != loc {
			t.Fatalf("strict mode kept the Loc %q, which it does not accept as written (%q, %v)", loc, out, err)
		}
		return
	}
	if len(loc) > maxURLLength {
		t.Fatalf("Loc of %d characters kept", len(loc))
	}
}

// checkFuzzExtKey holds the URL an item is known by to its rules: there,
// within 2,048 characters in tolerant mode and returned as tolerant mode
// returns an extension URL (EXTURL-8, EXTURL-12, EXTURL-15), and accepted
// as written by strict mode (EXTURL-2, EXTURL-14).
func checkFuzzExtKey(t *testing.T, field, u string, strict bool) {
	t.Helper()
	if u == "" {
		t.Fatalf("%s is empty", field)
	}
	if !strict && utf8.RuneCountInString(u) > maxURLLength {
		t.Fatalf("%s of %d characters kept", field, utf8.RuneCountInString(u))
	}
	checkFuzzExtOptional(t, field, u, strict)
	if strict {
		if out, err := urlnorm.Link(u, true); err != nil || out != u {
			t.Fatalf("strict mode kept %s %q, which it does not accept as written (%q, %v)", field, u, out, err)
		}
	}
}

// checkFuzzExtOptional: tolerant mode returns an extension URL encoded
// where it can be, so normalising it again changes nothing.
func checkFuzzExtOptional(t *testing.T, field, u string, strict bool) {
	t.Helper()
	if strict || u == "" {
		return
	}
	if out, err := urlnorm.Link(u, false); err != nil || out != u {
		t.Fatalf("tolerant mode returned %s %q, which it would return as %q (%v)", field, u, out, err)
	}
}

// walkStrings calls f with every string v holds, through pointers, slices
// and structs.
func walkStrings(v reflect.Value, f func(path, s string)) {
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.String:
			f(path, v.String())
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i), path+"[]")
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i), path+"."+v.Type().Field(i).Name)
				}
			}
		}
	}
	walk(v, "URL")
}

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
				err := parseXML(newTokenizer(wrap(bytes.NewReader(data)), strict), strict, d, &xmlHooks{})
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
			for i, br := range readers {
				_, _, d := fuzzCall(strict)
				d.format = formatText
				err := parseText(br, d, i%2) // the second numbers its lines, as for lint: the same results
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

// The small limits of a fuzzed call: what it may keep stays far below what
// a fuzz worker can hold, and the properties check that it is never passed.
const (
	fuzzMaxURLs    = 1000
	fuzzMaxValErrs = 1000
	fuzzMaxSize    = 1 << 20
)

// The URLs a fuzzed document is read as: a sitemap, and a robots.txt (the
// only format recognised by its URL).
const (
	fuzzSitemapURL = "https://fuzz.example.com/dir/sitemap.xml"
	fuzzRobotsURL  = "https://fuzz.example.com/robots.txt"
)

// fuzzNoNetwork refuses every request: a fuzzed document that lists
// sitemaps must not send the fuzzer to the network. The refusals come back
// as *NetworkError values, which the properties allow.
type fuzzNoNetwork struct{}

func (fuzzNoNetwork) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("fuzz tests make no requests")
}

// fuzzParser is a fresh instance with the small limits.
func fuzzParser(strict bool) *S {
	return New().
		SetStrict(strict).
		SetMaxURLs(fuzzMaxURLs).
		SetMaxValidationErrors(fuzzMaxValErrs).
		SetMaxResponseSize(fuzzMaxSize).
		SetHTTPClient(&http.Client{Transport: fuzzNoNetwork{}})
}

// checkFuzzCall asserts the properties of one call on any input: every URL
// and every sitemap returned is an absolute HTTP(S) URL with a host (LOC-4),
// at most 2,048 characters in tolerant mode (LOC-9); the counts stay inside
// the limits (MAXURLS, MAXVALERR); every error is one of the typed errors
// (ERRORS), and no *ConfigError, as the configuration is valid.
func checkFuzzCall(t *testing.T, s *S, pageURL string, strict bool) {
	t.Helper()
	check := func(what, loc string) {
		t.Helper()
		u, err := url.Parse(loc)
		switch {
		case err != nil:
			t.Fatalf("%s (strict %v, read as %s) %q does not parse: %v", what, strict, pageURL, loc, err)
		case u.Scheme != "http" && u.Scheme != "https":
			t.Fatalf("%s (strict %v, read as %s) %q is not HTTP(S)", what, strict, pageURL, loc)
		case u.Hostname() == "":
			t.Fatalf("%s (strict %v, read as %s) %q has no host", what, strict, pageURL, loc)
		case !strict && len(loc) > maxURLLength:
			t.Fatalf("%s (tolerant, read as %s) is %d characters long, more than %d: %.100q…", what, pageURL, len(loc), maxURLLength, loc)
		}
	}
	urls := s.GetURLs()
	for _, u := range urls {
		check("URL", u.Loc)
	}
	for _, sm := range s.GetSitemaps() {
		check("sitemap", sm.Loc)
	}
	if n := s.GetURLCount(); n != int64(len(urls)) || n > fuzzMaxURLs {
		t.Fatalf("GetURLCount() = %d, %d URLs returned, limit %d", n, len(urls), fuzzMaxURLs)
	}
	valErrs := 0
	for _, err := range s.GetErrors() {
		var (
			pe *ParseError
			ve *ValidationError
			ne *NetworkError
			ce *ConfigError
		)
		switch {
		case errors.As(err, &ce):
			t.Fatalf("config error on a valid configuration: %v", err)
		case errors.As(err, &ve):
			valErrs++
		case errors.As(err, &pe), errors.As(err, &ne):
		default:
			t.Fatalf("untyped error %T: %v", err, err)
		}
	}
	if valErrs > fuzzMaxValErrs {
		t.Fatalf("%d validation errors recorded, limit %d", valErrs, fuzzMaxValErrs)
	}
}

// fuzzParse reads data through the whole document path as the content of
// pageURL, failing the test where it panics or breaks a property.
func fuzzParse(t *testing.T, data []byte, pageURL string, strict bool) *S {
	t.Helper()
	content := string(data)
	s, _ := fuzzParser(strict).Parse(pageURL, &content)
	checkFuzzCall(t, s, pageURL, strict)
	return s
}

// fuzzPipelineSeeds are the files of testdata/ and, for each, its gzip, BOM,
// ISO-8859-1 and UTF-16 variants, so the fuzzer starts from every decode
// path (DECODE, ENC).
func fuzzPipelineSeeds(tb testing.TB) [][]byte {
	tb.Helper()
	paths, err := filepath.Glob("testdata/*")
	if err != nil {
		tb.Fatal(err)
	}
	var seeds [][]byte
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Size() > 64<<10 {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, data, fuzzGzip(data), append([]byte("\xEF\xBB\xBF"), data...))
	}
	latin1 := []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">" +
		"<url><loc>https://fuzz.example.com/caf\xe9 cr\xe8me</loc><lastmod>2024-01-02</lastmod></url>" +
		"<url><loc>/relative/\xfc</loc></url></urlset>")
	utf16doc := "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://fuzz.example.com/é</loc></url></urlset>"
	seeds = append(seeds,
		latin1, fuzzGzip(latin1),
		fuzzUTF16(utf16doc, binary.LittleEndian), fuzzUTF16(utf16doc, binary.BigEndian),
		fuzzGzip(fuzzUTF16(utf16doc, binary.LittleEndian)),
		[]byte("Sitemap: /a b.xml\nsitemap:https://bücher.example/s.xml\n"),
		[]byte("https://fuzz.example.com/a\n/relative\nhttps://münchen.example/ü\n"),
		append(fuzzGzip([]byte("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://fuzz.example.com/1</loc></url>")),
			fuzzGzip([]byte("<url><loc>https://fuzz.example.com/2</loc></url></urlset>"))...),
	)
	return seeds
}

// fuzzUTF16 encodes s as UTF-16 with a byte order mark.
func fuzzUTF16(s string, order binary.ByteOrder) []byte {
	units := append([]uint16{0xFEFF}, utf16.Encode([]rune(s))...)
	out := make([]byte, 2*len(units))
	for i, u := range units {
		order.PutUint16(out[2*i:], u)
	}
	return out
}

// FuzzDecodePipeline feeds arbitrary bytes through the whole document path
// of Parse (gzip, BOM, charset, sniffing, every parser, the entry checks and
// the commit), in both modes, read as a sitemap and as a robots.txt.
func FuzzDecodePipeline(f *testing.F) {
	for _, seed := range fuzzPipelineSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strict := range []bool{false, true} {
			for _, pageURL := range []string{fuzzSitemapURL, fuzzRobotsURL} {
				fuzzParse(t, data, pageURL, strict)
			}
		}
	})
}

// FuzzRobots feeds arbitrary bytes to Parse as a robots.txt: every sitemap
// it lists is an absolute HTTP(S) URL (ROBOTS-13), and a robots.txt yields no
// URLs of its own.
func FuzzRobots(f *testing.F) {
	for _, seed := range []string{
		"User-agent: *\nDisallow: /\nSitemap: https://fuzz.example.com/sitemap.xml\n",
		"\xEF\xBB\xBFSitemap: /relative.xml\r\nsitemap:   //cdn.example.com/s.xml  \r\n",
		"SITEMAP: https://bücher.example/a b.xml\nSitemap:\nSitemap: mailto:x@example.com\n",
		"Sitemap: http://[::1]:namedport/x\nSitemap: https://fuzz.example.com/%zz\nHost: fuzz.example.com\n",
		"# comment\nSitemap: https://fuzz.example.com/s.xml # trailing comment\n",
	} {
		f.Add([]byte(seed))
	}
	if data, err := os.ReadFile("testdata/robots.txt"); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strict := range []bool{false, true} {
			s := fuzzParse(t, data, fuzzRobotsURL, strict)
			if n := s.GetURLCount(); n != 0 {
				// A robots.txt lists sitemaps; it has no URLs of its own.
				t.Fatalf("a robots.txt yields %d URLs", n)
			}
		}
	})
}

// FuzzStreamAndGzipAgree holds three ways of reading one document to the
// same result, on any input: Parse of it, Parse of it gzipped (inflated by
// the read-ahead of decode.go) and Stream of it (URLs handed on in batches
// flushed before every read). The URLs and the errors must be the same, in
// the same order.
func FuzzStreamAndGzipAgree(f *testing.F) {
	for _, seed := range fuzzPipelineSeeds(f) {
		f.Add(seed, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			return // gzipped already: a second layer is not undone
		}
		// One sitemap at a time, so that the errors of the sitemaps a
		// document lists come in the order listed.
		parser := func() *S { return fuzzParser(strict).SetMultiThread(false) }
		content, zipped := string(data), string(fuzzGzip(data))
		plain, _ := parser().Parse(fuzzSitemapURL, &content)
		gz, _ := parser().Parse(fuzzSitemapURL, &zipped)
		var streamed []string
		var streamErrs []string
		for u, err := range parser().Stream(context.Background(), fuzzSitemapURL, &content) {
			if err != nil {
				streamErrs = append(streamErrs, err.Error())
				continue
			}
			streamed = append(streamed, u.Loc)
		}
		locs := func(s *S) (out []string) {
			for _, u := range s.GetURLs() {
				out = append(out, u.Loc)
			}
			return out
		}
		errs := func(s *S) (out []string) {
			for _, err := range s.GetErrors() {
				out = append(out, err.Error())
			}
			return out
		}
		if !slices.Equal(locs(plain), locs(gz)) || !slices.Equal(errs(plain), errs(gz)) {
			t.Fatalf("gzipped, the document reads otherwise:\nplain %q %q\ngzip  %q %q", locs(plain), errs(plain), locs(gz), errs(gz))
		}
		// A streaming call hands on a document's validation errors after
		// its URLs, where GetErrors has them in the order recorded: the
		// same set of errors, not the same order. And it hands on the
		// URLs of a document before it turns out to be broken, where
		// Parse keeps none of them.
		want := errs(plain)
		slices.Sort(want)
		slices.Sort(streamErrs)
		sameURLs := slices.Equal(locs(plain), streamed)
		if !sameURLs && plain.GetURLCount() == 0 {
			for _, err := range plain.GetErrors() {
				var pe *ParseError
				if errors.As(err, &pe) && pe.URL == fuzzSitemapURL && !isLimitError(err) {
					sameURLs = true
				}
			}
		}
		if !sameURLs || !slices.Equal(want, streamErrs) {
			t.Fatalf("streamed, the document reads otherwise:\nparse  %q %q\nstream %q %q", locs(plain), want, streamed, streamErrs)
		}
	})
}

// isLimitError reports whether err is the error of a limit of the call,
// which, unlike a broken document, costs the URLs read before it nothing.
func isLimitError(err error) bool {
	return errors.Is(err, ErrMaxURLs) || errors.Is(err, ErrMaxSitemaps) ||
		errors.Is(err, ErrMaxValidationErrors) || errors.Is(err, ErrMaxDepth)
}
