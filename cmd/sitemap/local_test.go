package main

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gositemap/sitemap/internal/serverclock"
)

// withoutNotes returns the lines of stderr that are no note.
func withoutNotes(stderr string) string {
	var b strings.Builder
	for _, l := range lines(stderr) {
		if !strings.HasPrefix(l, "Note: ") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// writeFiles writes files, slash-separated paths to contents, under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLocalIndex: the index of testdata read as a file, without -base,
// gets its sitemaps from the directory it is in: the URLs of both.
func TestLocalIndex(t *testing.T) {
	index := filepath.Join(testdata, "sitemap-index.xml")
	r := runCLI(t, "", "-sequential", index)
	if r.code != 0 || !slices.Equal(lines(r.stdout), indexURLs) {
		t.Fatalf("exit status %d, stdout %q; stderr:\n%s\nwant 0 and %q", r.code, lines(r.stdout), r.stderr, indexURLs)
	}
	if want := "Summary: 3 documents fetched, 5 URLs, 2 sitemaps listed, 0 errors\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}

	// The sitemaps are shown as the files they are.
	r = runCLI(t, "", "-sitemaps", "-format", "csv", index)
	_, rows := decodeCSV(t, r.stdout)
	if r.code != 0 || len(rows) != 2 {
		t.Fatalf("exit status %d, stdout %q", r.code, r.stdout)
	}
	for i, name := range []string{"sitemap-pages.xml", "sitemap-posts.xml"} {
		if want := filepath.Join(testdata, name); rows[i][0] != want {
			t.Errorf("sitemap %d = %q, want %q", i+1, rows[i][0], want)
		}
	}
}

// TestLocalRefused: a local index reads nothing above its directory: not
// by .., not by a symbolic link that leads out, not by a file: URL, not by
// a path from the root. Each is a ValidationError line; the sitemap in its
// directory is read.
func TestLocalRefused(t *testing.T) {
	dir := t.TempDir()
	secret := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/secret</loc></url></urlset>`
	writeFiles(t, dir, map[string]string{
		"secret.xml": secret,
		"site/index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
			<sitemap><loc>../../etc/passwd</loc></sitemap>
			<sitemap><loc>file:///etc/passwd</loc></sitemap>
			<sitemap><loc>../secret.xml</loc></sitemap>
			<sitemap><loc>link.xml</loc></sitemap>
			<sitemap><loc>/secret.xml</loc></sitemap>
			<sitemap><loc>sub/ok.xml</loc></sitemap>
		</sitemapindex>`,
		"site/sub/ok.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/ok</loc></url></urlset>`,
	})
	if err := os.Symlink(filepath.Join(dir, "secret.xml"), filepath.Join(dir, "site", "link.xml")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	r := runCLI(t, "", "-sequential", filepath.Join(dir, "site", "index.xml"))
	if r.code != 0 || r.stdout != "https://example.com/ok\n" {
		t.Fatalf("exit status %d, stdout %q; stderr:\n%s\nwant 0 and only the URL of sub/ok.xml", r.code, r.stdout, r.stderr)
	}
	got := lines(r.stderr)
	want := []string{
		`ValidationError: validate "file:///etc/passwd": `,
		`ValidationError: validate "` + filepath.Join(filepath.Dir(dir), "etc", "passwd") + `": a local file may only list files in its own directory`,
		`ValidationError: validate "` + filepath.Join(dir, "secret.xml") + `": a local file may only list files in its own directory`,
		`ValidationError: validate "` + filepath.Join(dir, "site", "link.xml") + `": a local file may only list files in its own directory`,
		`ValidationError: validate "/secret.xml": a local file may only list files in its own directory`,
		"Summary: 2 documents fetched, 1 URL, 5 sitemaps listed, 5 errors",
	}
	if len(got) != len(want) {
		t.Fatalf("stderr:\n%s\nwant %d lines", r.stderr, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("stderr line %d = %q, want it to start with %q", i+1, got[i], want[i])
		}
	}
}

// TestLocalRelativePage: a page a local file lists by a relative location
// has no site to be on: it is reported, not printed under a made-up host.
func TestLocalRelativePage(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"s.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
		<url><loc>/about</loc></url><url><loc>https://example.com/</loc></url></urlset>`})
	r := runCLI(t, "", filepath.Join(dir, "s.xml"))
	if r.code != 0 || r.stdout != "https://example.com/\n" {
		t.Fatalf("exit status %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	want := []string{`ValidationError: validate "/about": a relative location in a local file: give -base`,
		"Summary: 1 document fetched, 1 URL, 0 sitemaps listed, 1 error"}
	got := lines(r.stderr)
	if len(got) != 2 || !strings.HasPrefix(got[0], want[0]) || got[1] != want[1] {
		t.Errorf("stderr %q, want %q", got, want)
	}
}

// TestURLRootReadsNoFiles: with a URL given, the requests go to the
// network only, whatever host a document names: the transport of the
// directory is set up for a local file only. So is it with -base.
func TestURLRootReadsNoFiles(t *testing.T) {
	for name, args := range map[string][]string{
		"url":          {"https://example.com/sitemap.xml"},
		"file -base":   {"-base", "https://example.com/", filepath.Join(testdata, "sitemap-index.xml")},
		"stdin":        {"-"},
		"strict local": {"-strict", filepath.Join(testdata, "sitemap-index.xml")},
	} {
		t.Run(name, func(t *testing.T) {
			c := &command{stdin: strings.NewReader(""), stdout: &strings.Builder{}, stderr: &strings.Builder{}}
			c.con = newConsole(c.stdout, c.stderr, false)
			var o options
			target, err := parseArgs(c.flags(&o), args)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := c.configure(&o); !ok {
				t.Fatal(c.stderr)
			}
			in, err := c.input(target, &o)
			if err != nil {
				t.Fatal(err)
			}
			defer c.local.close()
			timed, ok := c.transport.base.(*serverclock.Transport) // over the network's
			if c.local != nil || !ok || timed.Base != http.DefaultTransport || isLocal(in.loc) {
				t.Errorf("local directory %v, transport %T, location %s: want no local reading", c.local, c.transport.base, in.loc)
			}
		})
	}
}

// TestStrictLocal: in strict mode, a local file without -base is taken to
// be on the site of its first location, with one note, rather than every
// entry flagged for its host (STRICT-3, HOST-4).
func TestStrictLocal(t *testing.T) {
	r := runCLI(t, "", "-strict", filepath.Join(testdata, "sitemap-pages.xml"))
	if r.code != 0 || !slices.Equal(lines(r.stdout), indexURLs[:3]) {
		t.Fatalf("exit status %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	got := lines(r.stderr)
	if len(got) != 2 || !strings.HasPrefix(got[0], "Note: strict mode: ") || !strings.Contains(got[0], "https://shop.example.com") ||
		got[1] != "Summary: 1 document fetched, 3 URLs, 0 sitemaps listed, 0 errors" {
		t.Errorf("stderr %q, want one note and a summary without errors", got)
	}

	// A location on another site than the first is still flagged.
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"s.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
		<url><loc>https://example.com/a</loc></url><url><loc>https://example.org/b</loc></url></urlset>`})
	r = runCLI(t, "", "-strict", filepath.Join(dir, "s.xml"))
	if r.stdout != "https://example.com/a\n" || !strings.Contains(r.stderr, `ValidationError: validate "https://example.org/b": strict mode: `) {
		t.Errorf("stdout %q, stderr %q; want a kept and b flagged", r.stdout, r.stderr)
	}
}

// TestBareURLHint: an argument that is no file but reads as a URL without
// its scheme says to add https://; a file name that is no file does not.
func TestBareURLHint(t *testing.T) {
	for _, tt := range []struct{ arg, hint string }{
		{"example.com/sitemap.xml", "; to fetch it, add its scheme: https://example.com/sitemap.xml"},
		{"www.example.com", "; to fetch it, add its scheme: https://www.example.com"},
		{"missing-sitemap.xml", ""},
		{"missing/sitemap.xml", ""},
	} {
		r := runCLI(t, "", tt.arg)
		first, _, _ := strings.Cut(r.stderr, "\n")
		if r.code != 1 || !strings.HasPrefix(first, "Error: open "+tt.arg+": ") || strings.Contains(first, "add its scheme") != (tt.hint != "") || !strings.HasSuffix(first, tt.hint) {
			t.Errorf("%s: exit status %d, stderr %q; want 1 and the hint %q", tt.arg, r.code, r.stderr, tt.hint)
		}
	}
}

// TestRobotsFlag: a saved robots.txt under another name gets a note, and
// is read as a robots.txt with -robots.
func TestRobotsFlag(t *testing.T) {
	srv := newServer(t, nil)
	dir := t.TempDir()
	saved := filepath.Join(dir, "robots-saved.txt")
	writeFiles(t, dir, map[string]string{"robots-saved.txt": "User-agent: *\nDisallow: /cart/\nSitemap: " + srv.URL + "/sitemap-pages.xml\n"})

	r := runCLI(t, "", saved)
	if !strings.HasPrefix(r.stderr, "Note: "+saved+" reads as a robots.txt") || !strings.Contains(r.stderr, "-robots") {
		t.Errorf("stderr %q, want the note that it reads as a robots.txt", r.stderr)
	}

	for name, args := range map[string][]string{
		"file":       {"-robots", saved},
		"file -base": {"-robots", "-base", srv.URL + "/saved.txt", saved},
	} {
		t.Run(name, func(t *testing.T) {
			r := runCLI(t, "", args...)
			if r.code != 0 || !slices.Equal(lines(r.stdout), indexURLs[:3]) || strings.Contains(r.stderr, "Note: ") {
				t.Errorf("exit status %d, stdout %q, stderr %q; want the URLs of the sitemap it names", r.code, r.stdout, r.stderr)
			}
		})
	}
	content := "Sitemap: " + srv.URL + "/sitemap-pages.xml\n"
	if r := runCLI(t, content, "-robots", "-"); r.code != 0 || len(lines(r.stdout)) != 3 {
		t.Errorf("stdin: exit status %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "", "-robots", srv.URL+"/robots.txt"); r.code != 2 || !strings.HasPrefix(r.stderr, "sitemap: -robots is for a FILE") {
		t.Errorf("with a URL: exit status %d, stderr %q; want 2", r.code, r.stderr)
	}
}
