package main

import (
	"path/filepath"
	"slices"
	"testing"
)

// sourceOfIndexURL returns the sitemap of the index of testdata that lists
// loc, under base.
func sourceOfIndexURL(base, loc string) string {
	if slices.Index(indexURLs, loc) < 3 {
		return base + "sitemap-pages.xml"
	}
	return base + "sitemap-posts.xml"
}

// checkSitemapColumn checks the sitemap column of the URL loc of the
// index of testdata read through srv, by its URL or as a file with -base
// at the server: either way its sitemaps are fetched from the server.
func checkSitemapColumn(t *testing.T, srv *server, variant, loc, got string) {
	t.Helper()
	if want := sourceOfIndexURL(srv.URL+"/", loc); got != want {
		t.Errorf("%s: sitemap of %s = %q, want %q", variant, loc, got, want)
	}
}

// TestSitemapField: every JSON line names the sitemap its URL came from;
// a sitemap read from a local file is named by its path, and a URL of the
// document given by the URL given.
func TestSitemapField(t *testing.T) {
	srv := newServer(t, nil)
	for name, tt := range map[string]struct{ arg, base string }{
		"url":   {srv.URL + "/sitemap-index.xml", srv.URL + "/"},
		"local": {filepath.Join(testdata, "sitemap-index.xml"), filepath.Clean(testdata) + string(filepath.Separator)},
	} {
		t.Run(name, func(t *testing.T) {
			r := runCLI(t, "", "-format", "jsonl", tt.arg)
			objs := decodeJSONL(t, r.stdout)
			if r.code != 0 || len(objs) != len(indexURLs) {
				t.Fatalf("exit status %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
			}
			for _, o := range objs {
				loc := o["loc"].(string)
				if want := sourceOfIndexURL(tt.base, loc); o["sitemap"] != want {
					t.Errorf("sitemap of %s = %v, want %s", loc, o["sitemap"], want)
				}
			}
		})
	}
	r := runCLI(t, "", "-format", "csv", srv.URL+"/sitemap-pages.xml")
	_, rows := decodeCSV(t, r.stdout)
	if len(rows) != 3 || rows[0][8] != srv.URL+"/sitemap-pages.xml" {
		t.Errorf("the sitemap given: rows %q", rows)
	}
}
