package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A robots.txt and a text sitemap checked into a repository: lint places
// the findings of their lines at those lines, in its text, its SARIF (for
// GitHub code scanning to point at) and its Markdown.
func TestLintLinesOfFiles(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	robots := "User-agent: *\nDisallow: /private\nSitemap: /sitemap.xml\n\n# Google\nUser-agent: Googlebot\n" +
		"  Sitemap:  {{ site.url }}/news.xml\n\n\n\n\nSitemap: http://[::1/sitemap.xml\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("\uFEFFhttps://example.com/a\r\n\r\nhttps://example.com/a\r\nnot a URL\r\nhttp://[::1/x"))
	zw.Close()
	files := map[string][]byte{"robots.txt": []byte(robots), "sitemap.txt.gz": gz.Bytes()}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(repo, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	robotsPath, textPath := filepath.Join(repo, "robots.txt"), filepath.Join(repo, "sitemap.txt.gz")
	textArgs := []string{"-no-robots", "-base", "https://example.com/sitemap.txt.gz", textPath}

	r := runCLI(t, "", "lint", "-no-follow", robotsPath)
	for _, want := range []string{
		robotsPath + ":3:10: warning robots-sitemap-value: ",
		robotsPath + ":7:13: warning robots-sitemap-value: ",
		robotsPath + ":12:10: error loc-invalid: ",
	} {
		if !strings.Contains(r.stdout, "\n"+want) && !strings.HasPrefix(r.stdout, want) {
			t.Errorf("no line %s...:\n%s", want, r.stdout)
		}
	}
	r = runCLI(t, "", append([]string{"lint"}, textArgs...)...)
	want := "https://example.com/sitemap.txt.gz:3:1: warning duplicate-loc: the location is listed before in this document (https://example.com/a)\n" +
		"https://example.com/sitemap.txt.gz:5:1: error loc-invalid: "
	if !strings.HasPrefix(r.stdout, want) {
		t.Errorf("text sitemap:\n%s\nwant %s...", r.stdout, want)
	}

	// SARIF: the region of each result is its line and column, the
	// artifact the file (relative to the repository), -base or not.
	type region struct{ StartLine, StartColumn int }
	regions := func(out string) map[string][]region {
		var log struct {
			Runs []struct {
				Results []struct {
					RuleID    string
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           region
						}
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("%v:\n%s", err, out)
		}
		m := map[string][]region{}
		for _, res := range log.Runs[0].Results {
			pl := res.Locations[0].PhysicalLocation
			k := pl.ArtifactLocation.URI + " " + res.RuleID
			m[k] = append(m[k], pl.Region)
		}
		return m
	}
	got := regions(runCLI(t, "", "lint", "-no-follow", "-format", "sarif", robotsPath).stdout)
	if w := []region{{3, 10}, {7, 13}}; !slices.Equal(got["robots.txt robots-sitemap-value"], w) {
		t.Errorf("robots-sitemap-value at %v, want %v (%v)", got["robots.txt robots-sitemap-value"], w, got)
	}
	if w := []region{{12, 10}}; !slices.Equal(got["robots.txt loc-invalid"], w) {
		t.Errorf("loc-invalid at %v, want %v (%v)", got["robots.txt loc-invalid"], w, got)
	}
	got = regions(runCLI(t, "", append([]string{"lint", "-format", "sarif"}, textArgs...)...).stdout)
	if g, w := got["sitemap.txt.gz duplicate-loc"], []region{{3, 1}}; !slices.Equal(g, w) {
		t.Errorf("duplicate-loc at %v, want %v (%v)", g, w, got)
	}
	if g, w := got["sitemap.txt.gz loc-invalid"], []region{{5, 1}}; !slices.Equal(g, w) {
		t.Errorf("loc-invalid at %v, want %v (%v)", g, w, got)
	}

	// Markdown: the first place of each code.
	r = runCLI(t, "", "lint", "-no-follow", "-format", "markdown", robotsPath)
	for _, want := range []string{"- `robots-sitemap-value` `robots.txt`:3:10: ", "- `loc-invalid` `robots.txt`:12:10: "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the summary lacks %s:\n%s", want, r.stdout)
		}
	}
}
