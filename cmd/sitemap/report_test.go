package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gositemap/sitemap/internal/testsite"
)

// Issue 34: sitemap report FILE reads a saved index and the sitemaps
// beside it in one call, and writes one page with the tree of the three
// documents, by their paths, and the findings of lint, without the checks
// of where a URL stands, which a file has no site for; it exits as sitemap
// lint does, 1 for the errors found.
func TestReportFile(t *testing.T) {
	r := runCLI(t, "", "report", testdata+"/sitemap-index.xml")
	if r.code != 1 {
		t.Errorf("exit status %d, want 1 (loc-invalid)\n%s", r.code, r.stderr)
	}
	page := r.stdout
	for _, want := range []string{
		"<!DOCTYPE html>",
		`<p class="label">Documents</p><p class="value">3</p>`,
		`<p class="label">URLs</p><p class="value">5</p>`,
		"../../testdata/sitemap-pages.xml", "../../testdata/sitemap-posts.xml",
		`<a href="#code-loc-invalid">loc-invalid</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	for _, not := range []string{"local.invalid", "loc-other-host", "<script"} {
		if strings.Contains(page, not) {
			t.Errorf("the page holds %s", not)
		}
	}
}

// sitemap report URL reads a site: a clean one exits 0, and the flags of
// lint and of the reading apply; a wrong flag exits 2.
func TestReportURL(t *testing.T) {
	docs := map[string]string{}
	srv := newServer(t, docs)
	docs["/clean.xml"] = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + srv.URL + `/a</loc><lastmod>2024-02-01</lastmod></url></urlset>`
	r := runCLI(t, "", "report", "-no-robots", "-title", "Shop <sitemaps>", "-sequential", srv.URL+"/clean.xml")
	if r.code != 0 {
		t.Errorf("exit status %d, want 0\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "<title>Shop &lt;sitemaps&gt;</title>") || !strings.Contains(r.stdout, `href="`+srv.URL+`/clean.xml"`) {
		t.Errorf("page:\n%.2000s", r.stdout)
	}
	if r := runCLI(t, "", "report", "-format", "sarif", srv.URL+"/clean.xml"); r.code != 2 {
		t.Errorf("-format: status %d, want 2", r.code)
	}
	if r := runCLI(t, "", "report", "-max-depth", "0", srv.URL+"/clean.xml"); r.code != 2 || !strings.Contains(r.stderr, "ConfigError") {
		t.Errorf("-max-depth 0: status %d, want 2\n%s", r.code, r.stderr)
	}
	if r := runCLI(t, "", "report", "-h"); r.code != 0 || !strings.Contains(r.stdout, "Usage: sitemap report") {
		t.Errorf("-h: status %d\n%s", r.code, r.stdout)
	}
}

// sitemap report -state FILE shows the changes since the last run that
// used FILE, and sums them up on standard error; a run of sitemap -state
// and one of sitemap report share the file.
func TestReportState(t *testing.T) {
	cs := testsite.New(t, 2, 5)
	state := filepath.Join(t.TempDir(), "state")
	root := cs.URL + "/index.xml"
	if r := runCLI(t, "", "-state", state, root); r.code != exitOK {
		t.Fatalf("sitemap -state: exit %d\n%s", r.code, r.stderr)
	}
	gone := cs.Maps[1][4].Loc
	cs.Change(func() {
		cs.Maps[0] = append(cs.Maps[0], testsite.Page{Loc: cs.URL + "/p/added", Lastmod: "2026-02-01"})
		cs.Maps[1] = cs.Maps[1][:4]
	})
	r := runCLI(t, "", "report", "-no-robots", "-state", state, root)
	if r.code != exitOK {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{`<section id="changes"`, "New URLs: 1", "URLs gone: 1", cs.URL + "/p/added", gone,
		`<td class="n">1</td><td class="n">0</td><td class="n">1</td><td class="n">9</td><td class="n">0</td>`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if !strings.Contains(r.stderr, "URLs: 1 new, 0 changed, 1 gone, 9 unchanged, 0 unknown") {
		t.Errorf("summary: %s", r.stderr)
	}
	// Nothing changed since: the next report says so.
	r = runCLI(t, "", "report", "-no-robots", "-state", state, root)
	if !strings.Contains(r.stdout, "Nothing new, changed or gone.") || strings.Contains(r.stdout, "URLs gone:") {
		t.Errorf("a run with nothing changed:\n%s", r.stderr)
	}
	if r := runCLI(t, "", "report", root); strings.Contains(r.stdout, `id="changes"`) {
		t.Error("a section of changes without -state")
	}
}
