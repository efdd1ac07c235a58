package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// checkTreeLine checks a line of the text tree: its indent, then the URL,
// then each of facts.
func checkTreeLine(t *testing.T, line string, depth int, url string, facts ...string) {
	t.Helper()
	if want := strings.Repeat("  ", depth) + url + " ("; !strings.HasPrefix(line, want) {
		t.Errorf("line %q does not start with %q", line, want)
	}
	for _, f := range facts {
		if !strings.Contains(line, f) {
			t.Errorf("line %q lacks %q", line, f)
		}
	}
}

// TestTree: the tree of the index of testdata, served and as a local file:
// the index, then its two sitemaps one level in, each with its format,
// status and counts.
func TestTree(t *testing.T) {
	srv := newServer(t, nil)
	local := filepath.Join(testdata, "sitemap-index.xml")
	for name, tt := range map[string]struct{ arg, pages, posts string }{
		"url":   {srv.URL + "/sitemap-index.xml", srv.URL + "/sitemap-pages.xml", srv.URL + "/sitemap-posts.xml"},
		"local": {local, filepath.Join(testdata, "sitemap-pages.xml"), filepath.Join(testdata, "sitemap-posts.xml")},
	} {
		t.Run(name, func(t *testing.T) {
			r := runCLI(t, "", "tree", "-sequential", tt.arg)
			got := lines(r.stdout)
			if r.code != 0 || len(got) != 3 {
				t.Fatalf("exit status %d, stdout:\n%s\nstderr:\n%s\nwant 0 and 3 lines", r.code, r.stdout, r.stderr)
			}
			checkTreeLine(t, got[0], 0, tt.arg, "(index, parsed)", "0 URLs", "0 errors", " B")
			checkTreeLine(t, got[1], 1, tt.pages, "(urlset, parsed)", "3 URLs", "0 errors")
			checkTreeLine(t, got[2], 1, tt.posts, "(urlset, parsed)", "2 URLs", "0 errors")
			if want := "Summary: 3 documents fetched, 5 URLs, 2 sitemaps listed, 0 errors"; lastLine(r.stderr) != want {
				t.Errorf("summary %q, want %q", lastLine(r.stderr), want)
			}
		})
	}
}

// TestTreeJSON: -format json is an array of the documents, each with its
// parent, depth, status, format and counts.
func TestTreeJSON(t *testing.T) {
	srv := newServer(t, nil)
	r := runCLI(t, "", "tree", "-sequential", "-format", "json", srv.URL+"/robots.txt")
	var docs []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &docs); err != nil || r.code != 0 {
		t.Fatalf("exit status %d, %v; stdout:\n%s", r.code, err, r.stdout)
	}
	want := []struct {
		url, found, status, format string
		parent, depth, urls        float64
	}{
		{srv.URL + "/robots.txt", "root", "parsed", "robots", -1, 0, 0},
		{srv.URL + "/sitemap-index.xml", "robots", "parsed", "index", 0, 1, 0},
		{srv.URL + "/sitemap-pages.xml", "index", "parsed", "urlset", 1, 2, 3},
		{srv.URL + "/sitemap-posts.xml", "index", "parsed", "urlset", 1, 2, 2},
	}
	if len(docs) != len(want) {
		t.Fatalf("%d documents, want %d:\n%s", len(docs), len(want), r.stdout)
	}
	for i, w := range want {
		d := docs[i]
		if d["url"] != w.url || d["found"] != w.found || d["status"] != w.status || d["format"] != w.format ||
			d["parent"] != w.parent || d["depth"] != w.depth || d["urls"] != w.urls || d["http_status"] != 200.0 || d["error"] != nil {
			t.Errorf("document %d = %v, want %+v", i, d, w)
		}
		if d["decoded_bytes"].(float64) <= 0 {
			t.Errorf("document %d has no size: %v", i, d)
		}
	}
	if docs[2]["lastmod"] == nil {
		t.Errorf("the pages sitemap has no lastmod from the index: %v", docs[2])
	}
}

// TestTreeFailedAndLimited: a sitemap that fails shows its error on its
// line; the sitemaps the listing limit leaves out are a count on their
// parent.
func TestTreeFailedAndLimited(t *testing.T) {
	srv := newServer(t, map[string]string{
		"/index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
			<sitemap><loc>/missing.xml</loc></sitemap>
			<sitemap><loc>/sitemap-pages.xml</loc></sitemap>
			<sitemap><loc>/sitemap-posts.xml</loc></sitemap>
		</sitemapindex>`,
	})
	r := runCLI(t, "", "tree", "-sequential", "-max-sitemaps", "2", srv.URL+"/index.xml")
	got := lines(r.stdout)
	if r.code != 0 || len(got) != 3 {
		t.Fatalf("exit status %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	checkTreeLine(t, got[0], 0, srv.URL+"/index.xml", "(index, parsed)", "1 more sitemap left out by the listing limit")
	checkTreeLine(t, got[1], 1, srv.URL+"/missing.xml", "failed", "404")
	checkTreeLine(t, got[2], 1, srv.URL+"/sitemap-pages.xml", "(urlset, parsed)", "3 URLs")
}

// TestTreeNoFollow: with -no-follow the tree shows the sitemaps listed,
// none of them read.
func TestTreeNoFollow(t *testing.T) {
	srv := newServer(t, nil)
	r := runCLI(t, "", "tree", "-no-follow", srv.URL+"/sitemap-index.xml")
	got := lines(r.stdout)
	if r.code != 0 || len(got) != 3 {
		t.Fatalf("exit status %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	checkTreeLine(t, got[1], 1, srv.URL+"/sitemap-pages.xml", "not-followed")
	checkTreeLine(t, got[2], 1, srv.URL+"/sitemap-posts.xml", "not-followed")
}

// TestTreeFlags: the tree has its own formats, and no -sitemaps; a file
// named tree is read as a file.
func TestTreeFlags(t *testing.T) {
	file := filepath.Join(testdata, "sitemap.xml")
	for _, tt := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"tree", "-format", "csv", file}, `sitemap: invalid value "csv" for flag -format: text or json expected for a tree`},
		{[]string{"tree", "-sitemaps", file}, "sitemap: -sitemaps is for a listing"},
		{[]string{"-format", "json", file}, `sitemap: invalid value "json" for flag -format: text, jsonl or csv expected`},
	} {
		r := runCLI(t, "", tt.args...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, tt.stderr) || r.stdout != "" {
			t.Errorf("%q: exit status %d, stderr %q; want 2 and %q", tt.args, r.code, r.stderr, tt.stderr)
		}
	}
	r := runCLI(t, "", "tree")
	if r.code != 1 || !strings.HasPrefix(r.stderr, "Error: open tree: ") {
		t.Errorf("sitemap tree alone: exit status %d, stderr %q; want the file tree not found", r.code, r.stderr)
	}
}

// TestTreeDepthFirst: each document is printed under the one that listed
// it, before the next sibling of that one, though the call came to know of
// the sitemaps of an index of indexes in another order (both inner indexes
// before what either lists).
func TestTreeDepthFirst(t *testing.T) {
	srv := newServer(t, map[string]string{
		"/top.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/i1.xml</loc></sitemap><sitemap><loc>/i2.xml</loc></sitemap></sitemapindex>`,
		"/i1.xml":  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/sitemap-pages.xml</loc></sitemap></sitemapindex>`,
		"/i2.xml":  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/sitemap-posts.xml</loc></sitemap></sitemapindex>`,
	})
	r := runCLI(t, "", "tree", srv.URL+"/top.xml")
	got := lines(r.stdout)
	if r.code != 0 || len(got) != 5 {
		t.Fatalf("exit status %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for i, want := range []struct {
		depth int
		path  string
	}{{0, "/top.xml"}, {1, "/i1.xml"}, {2, "/sitemap-pages.xml"}, {1, "/i2.xml"}, {2, "/sitemap-posts.xml"}} {
		checkTreeLine(t, got[i], want.depth, srv.URL+want.path)
	}
}
