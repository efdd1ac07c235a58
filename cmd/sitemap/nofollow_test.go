package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNoFollow: -no-follow reads the document given, fetched when it is a
// URL, and lists the sitemaps it names without fetching any.
func TestNoFollow(t *testing.T) {
	srv := newServer(t, nil)
	index := srv.URL + "/sitemap-index.xml"

	r := runCLI(t, "", "-no-follow", index)
	want := []string{
		"Note: -no-follow: 2 sitemaps listed and not read; -sitemaps prints them, sitemap tree shows them",
		"Summary: 1 document fetched, 0 URLs, 2 sitemaps listed, 0 errors",
	}
	if r.code != 0 || r.stdout != "" || !slices.Equal(lines(r.stderr), want) {
		t.Errorf("exit status %d, stdout %q, stderr %q; want 0, nothing, %q", r.code, r.stdout, lines(r.stderr), want)
	}
	if got := srv.requested(); !slices.Equal(got, []string{"/sitemap-index.xml"}) {
		t.Errorf("requested %q, want the index only", got)
	}

	r = runCLI(t, "", "-no-follow", "-sitemaps", index)
	got := lines(r.stdout)
	if r.code != 0 || len(got) != 2 || !strings.HasPrefix(got[0], srv.URL+"/sitemap-pages.xml\t") || !strings.HasPrefix(got[1], srv.URL+"/sitemap-posts.xml\t") {
		t.Errorf("-sitemaps: exit status %d, stdout %q", r.code, r.stdout)
	}

	// A sitemap given is read as ever: its URLs are the listing.
	r = runCLI(t, "", "-no-follow", srv.URL+"/sitemap-pages.xml")
	if r.code != 0 || !slices.Equal(lines(r.stdout), indexURLs[:3]) || strings.Contains(r.stderr, "Note: ") {
		t.Errorf("a sitemap: exit status %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	// A local index: no file but the one given is read.
	r = runCLI(t, "", "-no-follow", "-sitemaps", filepath.Join(testdata, "sitemap-index.xml"))
	if r.code != 0 || len(lines(r.stdout)) != 2 || lastLine(r.stderr) != "Summary: 1 document fetched, 0 URLs, 2 sitemaps listed, 0 errors" {
		t.Errorf("a local index: exit status %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
