package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 18: sitemap lint URL|FILE prints DOCUMENT:LINE:COL: SEVERITY CODE:
// message lines, a summary by code, and exits 1 when an error was found.

const lintDoc = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>/relative</loc></url>
<url><loc>https://example.com/a</loc><changefreq>Weekly</changefreq></url>
<url><loc>https://example.com/a</loc></url>
</urlset>`

func writeLintFile(t *testing.T, doc string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sitemap.xml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLintFile(t *testing.T) {
	path := writeLintFile(t, lintDoc)
	r := runCLI(t, "", "lint", "-no-robots", "-base", "https://example.com/sitemap.xml", path)
	if r.code != 1 {
		t.Errorf("exit status %d, want 1 (errors found)", r.code)
	}
	want := []string{
		"https://example.com/sitemap.xml:2:6: error loc-invalid: URL is not absolute (read as https://example.com/relative) (/relative)",
		"https://example.com/sitemap.xml:3:6: error changefreq-invalid: invalid <changefreq> value \"Weekly\" (https://example.com/a)",
		"https://example.com/sitemap.xml:4:6: warning duplicate-loc: the location is listed before in this document (https://example.com/a)",
	}
	if got := lines(r.stdout); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, strings.Join(want, "\n"))
	}
	for _, s := range []string{"changefreq-invalid   error    1", "duplicate-loc        warning  1", "Summary: 2 errors, 1 warning, 0 notes"} {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
		}
	}
}

func TestLintJSONLAndClean(t *testing.T) {
	path := writeLintFile(t, lintDoc)
	r := runCLI(t, "", "lint", "-no-robots", "-format", "jsonl", "-base", "https://example.com/sitemap.xml", path)
	ls := lines(r.stdout)
	if len(ls) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(ls), r.stdout)
	}
	var f struct {
		Code, Severity, Document, URL, Message string
		Line, Column                           int
	}
	if err := json.Unmarshal([]byte(ls[2]), &f); err != nil {
		t.Fatal(err)
	}
	if f.Code != "duplicate-loc" || f.Severity != "warning" || f.Line != 4 || f.Column != 6 || f.URL != "https://example.com/a" {
		t.Errorf("%+v", f)
	}
	// Warnings alone exit 0; a clean document prints nothing on stdout.
	warn := writeLintFile(t, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc><priority>0.5</priority><lastmod>2024-01-01</lastmod></url></urlset>`)
	if r := runCLI(t, "", "lint", "-no-robots", warn); r.code != 0 || !strings.Contains(r.stdout, "warning element-order") {
		t.Errorf("lastmod after priority: status %d, stdout %q", r.code, r.stdout)
	}
	// An empty urlset is an error (issue 35): the schema and Search
	// Console reject it.
	empty := writeLintFile(t, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`)
	if r := runCLI(t, "", "lint", "-no-robots", empty); r.code != 1 || !strings.Contains(r.stdout, "error empty") {
		t.Errorf("empty sitemap: status %d, stdout %q", r.code, r.stdout)
	}
	clean := writeLintFile(t, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>`)
	if r := runCLI(t, "", "lint", "-no-robots", clean); r.code != 0 || r.stdout != "" {
		t.Errorf("clean sitemap: status %d, stdout %q", r.code, r.stdout)
	}
	if r := runCLI(t, "", "lint", "-format", "csv", clean); r.code != 2 {
		t.Errorf("-format csv: status %d, want 2", r.code)
	}
}
