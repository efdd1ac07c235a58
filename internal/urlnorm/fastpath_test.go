package urlnorm

import (
	"strings"
	"testing"
)

// fastPathCases are URLs on both sides of isNormalHTTP's line.
var fastPathCases = []string{
	"https://www.example.com/", "http://example.com", "https://example.com:8080/a?b=c&d=e#f",
	"https://cdn.example.com/images/1/photo-2.jpg", "https://a.example/%41%7e", "https://a.example/%4", "https://a.example/%zz",
	"https://a.example/%", "HTTPS://a.example/", "Https://a.example/", "https://user@a.example/", "https://a.example:/x",
	"https://[::1]/", "https://ex ample.com/", "https://a.example/ x", "https://a.example/é", "https://bücher.example/",
	"https://a.example/<x>", "https://a.example/?q=<x>", "https://a.example/#x y", "https://a.example/a\\b", "https://",
	"http:///x", "https://a.example?x", "https://a.example#x", "https://a.example/a/../b", "ftp://a.example/",
	"https://a.example/\x7f", "https://a.example:8a/", "https:a.example", "//a.example/x", "/x",
	"https://a.example/" + strings.Repeat("a", MaxLength), "https://a.example/" + strings.Repeat("a", MaxLength-len("https://a.example/")),
}

// TestNormalHTTP holds the one-pass check of issue 19 to the whole
// normalisation: a URL it lets through is one that Loc and Link return
// unchanged, without an error, and it lets through the common forms.
func TestNormalHTTP(t *testing.T) {
	for _, s := range fastPathCases {
		checkNormalHTTP(t, s)
	}
	for _, s := range []string{"https://www.example.com/products/category-1/item-2.html?ref=feed&page=3", "http://example.com:80/a%20b#top"} {
		if !isNormalHTTP(s) {
			t.Errorf("isNormalHTTP(%q) = false", s)
		}
	}
}

// checkNormalHTTP fails when isNormalHTTP lets s through and the whole
// normalisation does not return s as it is.
func checkNormalHTTP(t *testing.T, s string) {
	t.Helper()
	if !isNormalHTTP(s) {
		return
	}
	if out, err := normalizeAbsolute(s); out != s || err != nil {
		t.Fatalf("isNormalHTTP(%q), but normalizeAbsolute gives %q, %v", s, out, err)
	}
	if colon := schemeEnd(s); colon <= 0 || s[:colon] != "http" && s[:colon] != "https" {
		t.Fatalf("isNormalHTTP(%q) with scheme %d", s, colon)
	}
}

// FuzzNormalHTTP is TestNormalHTTP on what the fuzzer makes.
func FuzzNormalHTTP(f *testing.F) {
	for _, s := range fastPathCases {
		f.Add(s)
	}
	f.Fuzz(checkNormalHTTP)
}
