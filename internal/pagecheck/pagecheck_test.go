package pagecheck

import (
	"strings"
	"testing"
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
	} {
		h := ReadHead(strings.NewReader(c.page), "GoSitemap")
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
		values []string
		want   string
	}{
		{[]string{`<https://example.com/a>; rel="canonical"`}, "https://example.com/a"},
		{[]string{`<https://example.com/p2>; rel="next", <https://example.com/a,b>; rel=canonical`}, "https://example.com/a,b"},
		{[]string{`<https://example.com/x>; rel="alternate"; title="a, b"`, `</c>; REL="Canonical"`}, "/c"},
		{[]string{`<https://example.com/x>; rel="alternate"`}, ""},
		{[]string{`garbage`}, ""},
	} {
		if got := LinkCanonical(c.values); got != c.want {
			t.Errorf("%q: %q, want %q", c.values, got, c.want)
		}
	}
}
