package main

import "testing"

// The site a local file is taken to be on in strict mode is the origin of
// its first location, built as the library builds origins: in lower case,
// the host in its Punycode form, with no user information.
func TestFirstSiteIsAnOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"<loc>HTTPS://Example.COM/a</loc>":       "https://example.com",
		"Sitemap: http://user@example.com:81/s":  "http://example.com:81",
		"<link>https://bücher.example/</link>":   "https://xn--bcher-kva.example",
		"no location here":                       "",
		"<loc>ftp://example.com/</loc>":          "",
		"https://example.com/page\nhttp://other": "https://example.com",
	} {
		if got := firstSite([]byte(in)); got != want {
			t.Errorf("firstSite(%q) = %q, want %q", in, got, want)
		}
	}
}
