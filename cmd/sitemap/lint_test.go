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

// Issue 34: sitemap lint FILE reads the sitemaps a saved index lists from
// its directory, as sitemap, sitemap tree and sitemap report do, and names
// each document by its path; the checks of where a URL stands are left out
// for a file, which has no site, and no robots.txt is fetched. lint and
// report of the same file find the same.
func TestLintFileReadsItsDirectory(t *testing.T) {
	index := filepath.Join(testdata, "sitemap-index.xml")
	r := runCLI(t, "", "lint", index)
	if r.code != 1 {
		t.Errorf("exit %d, want 1 (loc-invalid)\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		index + ":5:12: error loc-invalid: URL is not absolute (read as " + filepath.Join(testdata, "sitemap-pages.xml") + ") (sitemap-pages.xml)",
		filepath.Join(testdata, "sitemap-posts.xml") + ":5:8: warning news-too-old: ",
		filepath.Join(testdata, "sitemap-pages.xml") + ":13:8: info image-deprecated: ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the output lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, not := range []string{"local.invalid", "loc-other-host", "robots", "file://"} {
		if strings.Contains(r.stdout, not) {
			t.Errorf("the output holds %s:\n%s", not, r.stdout)
		}
	}
	rep := runCLI(t, "", "report", index)
	if got, want := lastLine(rep.stderr), "Summary: 3 documents, 5 URLs; 2 errors, 1 warning, 1 note"; got != want || lastLine(r.stderr) != "Summary: 2 errors, 1 warning, 1 note" {
		t.Errorf("report: %q, want %q; lint: %q", got, want, lastLine(r.stderr))
	}
}

// The flags of sitemap that bound the reading reach sitemap lint and
// sitemap report, and those it checks against the document given are
// usage errors there too.
func TestLintReadingFlags(t *testing.T) {
	index := filepath.Join(testdata, "sitemap-index.xml")
	for _, c := range []struct {
		args []string
		want string // the report's summary
	}{
		{nil, "3 documents, 5 URLs"},
		{[]string{"-rules", "spring"}, "3 documents, 1 URL"},
		{[]string{"-since", "2024-06-01"}, "3 documents, 0 URLs"}, // the index dates both sitemaps before
		{[]string{"-follow", "posts"}, "3 documents, 2 URLs"},     // the other one listed, not read
		{[]string{"-max-sitemaps", "1", "-sequential"}, "2 documents, 3 URLs"},
		{[]string{"-max-urls", "2", "-sequential"}, "3 documents, 2 URLs"},
	} {
		r := runCLI(t, "", append(append([]string{"report"}, c.args...), index)...)
		if !strings.HasPrefix(lastLine(r.stderr), "Summary: "+c.want+";") {
			t.Errorf("report %v: %q, want %s", c.args, lastLine(r.stderr), c.want)
		}
	}
	// -since leaves the sitemaps dated before it unread: their findings go.
	if r := runCLI(t, "", "lint", "-since", "2024-06-01", index); strings.Contains(r.stdout, "news-too-old") || !strings.Contains(r.stdout, "loc-invalid") {
		t.Errorf("lint -since:\n%s", r.stdout)
	}
	// -robots reads a file of another name as a robots.txt.
	robots := writeLintFile(t, "User-agent: *\nSitemap: {{ site.url }}/sitemap.xml\n")
	if r := runCLI(t, "", "lint", "-robots", robots); !strings.Contains(r.stdout, "robots-sitemap-value") {
		t.Errorf("lint -robots:\n%s%s", r.stdout, r.stderr)
	}
	for _, args := range [][]string{
		{"lint", "-robots", "https://example.com/robots.txt"},
		{"report", "-base", "https://example.com/", "https://example.com/sitemap.xml"},
		{"lint", "-base", "relative/", index},
		{"report", "-no-resume", index},
		{"report", "-trust-index-lastmod", index},
		{"lint", "-since", "yesterday", index},
		{"report", "-max-depth", "0", index},
	} {
		if r := runCLI(t, "", args...); r.code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", args, r.code, exitUsage, r.stderr)
		}
	}
}

// The summary counts a code's findings by the severity each was given:
// duplicate-loc within a document is a warning, across two a note.
func TestLintSummaryBySeverity(t *testing.T) {
	dir := t.TempDir()
	ns := `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`
	writeFiles(t, dir, map[string]string{
		"index.xml": `<sitemapindex ` + ns + `><sitemap><loc>a.xml</loc></sitemap><sitemap><loc>b.xml</loc></sitemap></sitemapindex>`,
		"a.xml":     `<urlset ` + ns + `><url><loc>https://example.com/x</loc></url><url><loc>https://example.com/x</loc></url></urlset>`,
		"b.xml":     `<urlset ` + ns + `><url><loc>https://example.com/x</loc></url></urlset>`,
	})
	r := runCLI(t, "", "lint", "-sequential", filepath.Join(dir, "index.xml"))
	want := "  duplicate-loc        warning  1\n  duplicate-loc        info     1\n  loc-invalid          error    2\nSummary: 2 errors, 1 warning, 1 note\n"
	if r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
}
