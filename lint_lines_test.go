package sitemap_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
)

// The findings of the formats read by line: a finding about one line of a
// robots.txt (a Sitemap: value) or of a text sitemap (a URL line) is at
// that line, counted from 1 in the document as it is read (decompressed,
// after a byte order mark), and at the byte where its value starts; one
// about the document as a whole stays at 0:0.

// place is where a finding of a code is expected.
type place struct {
	code      sitemap.Code
	line, col int
}

// placesOf returns the places of the findings of fs, of the codes of want,
// in the order they came.
func placesOf(fs []sitemap.Finding, want []place) []place {
	codes := map[sitemap.Code]bool{}
	for _, p := range want {
		codes[p.code] = true
	}
	var got []place
	for _, f := range fs {
		if codes[f.Code] {
			got = append(got, place{f.Code, f.Line, f.Column})
		}
	}
	return got
}

func samePlaces(a, b []place) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ROBOTS-13: lint lists the Sitemap: values the call reads only by
// guessing, or refuses, at their line, and at the byte of the line their
// value starts at (past the indentation, the directive, the colon and the
// white space after it).
func TestLintRobotsLines(t *testing.T) {
	lines := []string{
		"User-agent: *",           // 1
		"Disallow: /private",      // 2
		"Sitemap: /sitemap.xml",   // 3: relative
		"",                        // 4
		"# Googlebot's own group", // 5
		"User-agent: Googlebot",   // 6
		"  sitemap :  {{ site.url }}/news.xml # a template", // 7: braces
		"Crawl-delay: 5",                        // 8
		"",                                      // 9
		"Sitemap: https://example.com/good.xml", // 10
		"Disallow:",                             // 11
		"Sitemap:\thttp://[::1/sitemap.xml",     // 12: no URL
	}
	want := []place{
		{sitemap.CodeRobotsSitemapValue, 3, 10},
		{sitemap.CodeRobotsSitemapValue, 7, 14},
		{sitemap.CodeLocInvalid, 12, 10},
	}
	for _, c := range []struct {
		name, doc string
	}{
		{"LF", strings.Join(lines, "\n") + "\n"},
		{"CRLF, no final line break", strings.Join(lines, "\r\n")},
		{"BOM", "\uFEFF" + strings.Join(lines, "\n")},
		{"gzip", gzipped(strings.Join(lines, "\n")+"\n", 0)},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := lintOf(t, "https://example.com/robots.txt", c.doc, nil)
			if got := placesOf(fs, want); !samePlaces(got, want) {
				t.Errorf("places %v, want %v:%s", got, want, lintDump(fs))
			}
		})
	}
}

// TEXT-1: each finding about a URL line of a text sitemap is at its line,
// blank lines and lines that are no URL counted, at column 1 (a URL line
// begins with its URL); whatever the line ends, the first line's byte
// order mark, the compression, the blank lines before the first URL that
// are dropped before the parse, or a last line without its line break.
func TestLintTextLines(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("x", 2100)
	lines := []string{
		"https://example.com/a",    // 1
		"",                         // 2
		"https://example.com/a",    // 3: duplicate-loc
		"not a URL: skipped",       // 4
		"https://other.example/b",  // 5: loc-other-host
		"https://example.com/c",    // 6
		"https://exa mple.com/d",   // 7: loc-not-escaped
		long,                       // 8: loc-too-long
		"   https://example.com/e", // 9: indented, no URL line
		"http://[::1/x",            // 10: loc-invalid
		"https://example.com/c",    // 11: duplicate-loc
	}
	want := func(skip int) []place {
		return []place{
			{sitemap.CodeDuplicateLoc, 3 + skip, 1},
			{sitemap.CodeLocOtherHost, 5 + skip, 1},
			{sitemap.CodeLocNotEscaped, 7 + skip, 1},
			{sitemap.CodeLocTooLong, 8 + skip, 1},
			{sitemap.CodeLocInvalid, 10 + skip, 1},
			{sitemap.CodeDuplicateLoc, 11 + skip, 1},
		}
	}
	lf := strings.Join(lines, "\n")
	for _, c := range []struct {
		name, doc string
		skip      int // the lines before the first of lines
	}{
		{"LF", lf + "\n", 0},
		{"no final line break", lf, 0},
		{"CRLF", strings.Join(lines, "\r\n") + "\r\n", 0},
		{"BOM", "\uFEFF" + lf + "\n", 0},
		{"gzip", gzipped(lf, 0), 0},
		{"gzip, BOM, CRLF", gzipped("\uFEFF"+strings.Join(lines, "\r\n"), 0), 0},
		{"blank lines first", "\n \n\t\r\n" + lf, 3},
		{"BOM, blank lines first", "\uFEFF\n\n" + lf, 2},
		// More white space before the first URL than decode looks at at once.
		{"3000 blank lines first", strings.Repeat(" \n", 3000) + lf, 3000},
		{"gzip, 3000 blank lines first", gzipped(strings.Repeat("\r\n", 3000)+lf, 0), 3000},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := lintOf(t, "https://example.com/sitemap.txt", c.doc, nil)
			if got := placesOf(fs, want(c.skip)); !samePlaces(got, want(c.skip)) {
				t.Errorf("places %v, want %v:%.2000s", got, want(c.skip), lintDump(fs))
			}
		})
	}
}

// A finding about a text sitemap or a robots.txt as a whole has no line.
func TestLintLinesWhole(t *testing.T) {
	var b strings.Builder
	for i := range 120 {
		fmt.Fprintf(&b, "https://example.com/%d\n", i)
	}
	for _, c := range []struct {
		base, doc string
		code      sitemap.Code
	}{
		{"https://example.com/sitemap.txt", "no URL here\n\nnor here\n", sitemap.CodeNotSitemap},
		{"https://example.com/sitemap.txt", gzipped(b.String(), 60), sitemap.CodeGzipCorrupt},
	} {
		fs := lintOf(t, c.base, c.doc, nil)
		n := 0
		for _, f := range fs {
			if f.Code == c.code {
				n++
				if f.Line != 0 || f.Column != 0 {
					t.Errorf("%s at %d:%d, want 0:0", f.Code, f.Line, f.Column)
				}
			}
		}
		if n == 0 {
			t.Errorf("no %s:%s", c.code, lintDump(fs))
		}
	}
}
