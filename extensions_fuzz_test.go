package sitemap

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// The fuzz target of the XML parse stage for urlsets and their extensions:
// arbitrary bytes go into the tokenizer and the token loop, and what the
// sink keeps is held to the properties the spec gives every result.

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
	err := parseXML(tok, strict, d)
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
	var notSitemap errNotSitemap
	switch {
	case errors.Is(err, errNoRoot), errors.Is(err, errEntryCutOff), errors.Is(err, errTooDeep),
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
