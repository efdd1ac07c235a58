package pagecheck

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadHead(t *testing.T) {
	for _, c := range []struct {
		page           string
		noindex, canon string
	}{
		{`<html><head><meta name="robots" content="noindex,follow"></head>`, "robots", ""},
		{`<html><head><META NAME="Robots" CONTENT="NONE">`, "robots", ""},
		{`<head><meta name="gositemap" content="noindex"><link rel="canonical" href="/a">`, "gositemap", "/a"},
		{`<head><meta name="googlebot" content="noindex"><link rel="alternate canonical" href=" https://x/b ">`, "", "https://x/b"},
		{`<head><meta name="robots" content="index, follow"><link rel="canonical" href="">`, "", ""},
		{`<head><title>t</title></head><body><meta name="robots" content="noindex"><link rel="canonical" href="/late">`, "", ""},
		{`<head><link rel="canonical" href="/first"><link rel="canonical" href="/second">`, "", "/first"},
		{``, "", ""},
		// What only looks like a meta in the head: in a comment, a
		// script, an attribute, a meta for another bot.
		{`<head><!-- <meta name="robots" content="noindex"> --></head>`, "", ""},
		{`<head><script>document.write('<meta name="robots" content="noindex">')</script>`, "", ""},
		{`<head><noscript><meta name="robots" content="noindex"></noscript>`, "", ""},
		{`<head><link rel="x" title='<meta name="robots" content="noindex">'>`, "", ""},
		{`<head><meta name="otherbot" content="noindex"><meta content="noindex">`, "", ""},
		{`<head><META NAME=" Robots " CONTENT=" NoIndex ,follow ">`, "robots", ""},
		// The head ends at </head>, at text and at an element of the
		// body, <body> written or not, as it does for Google.
		{`<html><head><title>x</title></head><meta name="robots" content="noindex"><link rel="canonical" href="/late">`, "", ""},
		{`<html><head><title>x</title>hello<meta name="robots" content="noindex">`, "", ""},
		{`<html><head><span>x</span><meta name="robots" content="noindex">`, "", ""},
		{`<html><head><img src=x><link rel="canonical" href="/late">`, "", ""},
		{"\ufeff<html><head><meta name=robots content=noindex>", "robots", ""},
		{"<html>\n<head>\n<title>a &amp; b</title>\n<style>p{}</style><meta name=robots content=noindex>", "robots", ""},
	} {
		h := ReadHead(strings.NewReader(c.page), "text/html", "GoSitemap")
		if h.Noindex != c.noindex || h.Canonical != c.canon {
			t.Errorf("%s: %+v; want noindex %q, canonical %q", c.page, h, c.noindex, c.canon)
		}
	}
}

func TestRobotsHeader(t *testing.T) {
	for _, c := range []struct {
		values []string
		want   bool
	}{
		{[]string{"noindex"}, true},
		{[]string{"NoIndex, nofollow"}, true},
		{[]string{"none"}, true},
		{[]string{"nofollow"}, false},
		{[]string{"googlebot: noindex"}, false},
		{[]string{"gositemap: noindex"}, true},
		{[]string{"unavailable_after: 25 Jun 2010 15:00:00 PST"}, false},
		{[]string{"max-snippet: 20, noindex"}, true},
		{[]string{"nofollow", "noindex"}, true},
		{nil, false},
	} {
		if got := RobotsHeader(c.values, "gositemap"); got != c.want {
			t.Errorf("%q: %v, want %v", c.values, got, c.want)
		}
	}
}

func TestLinkCanonical(t *testing.T) {
	for _, c := range []struct {
		values      []string
		want, other string
	}{
		{[]string{`<https://example.com/a>; rel="canonical"`}, "https://example.com/a", ""},
		{[]string{`<https://example.com/p2>; rel="next", <https://example.com/a,b>; rel=canonical`}, "https://example.com/a,b", ""},
		{[]string{`<https://example.com/x>; rel="alternate"; title="a, b"`, `</c>; REL="Canonical"`}, "/c", ""},
		{[]string{`<https://example.com/x>; rel="alternate"`}, "", ""},
		{[]string{`garbage`}, "", ""},
		{[]string{`</a>; rel=canonical, </a>; rel=canonical`, `</b>; rel="canonical"`}, "/a", "/b"},
	} {
		if got, other := LinkCanonical(c.values); got != c.want || other != c.other {
			t.Errorf("%q: %q, %q; want %q, %q", c.values, got, other, c.want, c.other)
		}
	}
}

// A page in UTF-16 is read as the browser reads it; a head cut short says
// why.
func TestReadHeadEncoding(t *testing.T) {
	page := `<html><head><meta name="robots" content="noindex"></head>`
	utf16 := []byte{0xff, 0xfe}
	for _, c := range page {
		utf16 = append(utf16, byte(c), 0)
	}
	if h := ReadHead(bytes.NewReader(utf16), "text/html; charset=utf-16le", "gositemap"); h.Noindex != "robots" {
		t.Errorf("UTF-16: %+v", h)
	}
	broken := io.MultiReader(strings.NewReader("<html><head><title>"), iotest.ErrReader(io.ErrUnexpectedEOF))
	if h := ReadHead(broken, "text/html", "gositemap"); h.Err != io.ErrUnexpectedEOF {
		t.Errorf("a head cut short: %+v", h)
	}
	if h := ReadHead(strings.NewReader(page), "text/html; charset=nonsense", "gositemap"); h.Noindex != "robots" || h.Err != nil {
		t.Errorf("an unknown charset: %+v", h)
	}
}
