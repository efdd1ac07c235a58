package sitemap

import (
	"bufio"
	"strings"
	"testing"
)

// movedOrigin takes the origin a home page was redirected to only when it
// is the site's own: over https, or with or without www., on the same port
// (or the default ports of an upgrade to https). Issue 17.
func TestMovedOrigin(t *testing.T) {
	for _, tc := range []struct{ origin, final, want string }{
		{"http://example.com", "https://example.com/", "https://example.com"},
		{"http://example.com", "https://www.example.com/home", "https://www.example.com"},
		{"https://www.example.com", "https://example.com/", "https://example.com"},
		{"https://Example.com", "https://WWW.example.com/", "https://WWW.example.com"},
		{"https://example.com", "http://example.com/", "https://example.com"},           // no downgrade
		{"https://example.com", "https://other.example/", "https://example.com"},        // another site
		{"https://example.com", "https://www.example.com.evil/", "https://example.com"}, // another site
		{"http://127.0.0.1:8080", "http://127.0.0.1:9090/", "http://127.0.0.1:8080"},    // another port
		{"http://example.com:8080", "https://example.com:8080/", "https://example.com:8080"},
		{"http://example.com", "https://example.com:8443/", "http://example.com"},
		{"https://example.com", "ftp://example.com/", "https://example.com"},
		{"https://example.com", "/relative", "https://example.com"},
		{"https://example.com", "https://example.com/", "https://example.com"},
	} {
		if got := movedOrigin(tc.origin, tc.final); got != tc.want {
			t.Errorf("movedOrigin(%q, %q) = %q, want %q", tc.origin, tc.final, got, tc.want)
		}
	}
}

// looksLikeHTML tells an HTML page by its start, in any letter case, and
// nothing else: a sitemap with a comment first is no HTML page.
func TestLooksLikeHTML(t *testing.T) {
	for in, want := range map[string]bool{
		"<!DOCTYPE html>":               true,
		"\n  <!doctype HTML><html>":     true,
		"<html lang=en>":                true,
		"<HEAD>":                        true,
		"<body>":                        true,
		"<html":                         false, // nothing after the name
		"<htmlx>":                       false,
		"<!-- generator --><urlset>":    false,
		`<?xml version="1.0"?><urlset>`: false,
		"https://example.com/page\n":    false,
		"<urlset xmlns='...'><url>":     false,
		"":                              false,
	} {
		if got := looksLikeHTML(bufioOf(in)); got != want {
			t.Errorf("looksLikeHTML(%q) = %v, want %v", in, got, want)
		}
	}
}

func bufioOf(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }
