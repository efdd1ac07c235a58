package sitemap

import (
	"bufio"
	"strings"
	"testing"
)

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
