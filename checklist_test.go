package sitemap_test

// Tests of the lines of SPEC-CHECKLIST.md that no other test asserted, each
// citing the IDs it covers. An open point is pinned as the project decided
// it; where no decision is written down, the comment says that the test
// pins what the code does. Everything fetched comes from an httptest server
// on loopback; a test that uses a host name such as example.com either
// fetches nothing or sends its requests to such a server with
// clLoopbackClient.

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gositemap/sitemap"
)

// --- helpers ---------------------------------------------------------------

// clNoNetwork is a transport that refuses every request and counts them,
// for calls on content passed in that must fetch nothing.
type clNoNetwork struct{ n atomic.Int64 }

func (c *clNoNetwork) RoundTrip(*http.Request) (*http.Response, error) {
	c.n.Add(1)
	return nil, errors.New("this test makes no requests")
}

// clOffline returns an instance whose every request is refused, and the
// transport that counts them.
func clOffline() (*sitemap.S, *clNoNetwork) {
	tr := &clNoNetwork{}
	return sitemap.New().SetHTTPClient(&http.Client{Transport: tr}), tr
}

// clLoopbackClient returns a client whose every connection goes to srv on
// loopback, whatever host the URL names, so that a test can request
// http://example.com/ or http://bücher.example/ without leaving the machine.
func clLoopbackClient(t *testing.T, srv *httptest.Server) *http.Client {
	addr := srv.Listener.Addr().String()
	var d net.Dialer
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// clHostLog is an httptest server that answers every path from a map and
// records host and path of every request.
type clHostLog struct {
	*httptest.Server
	mu  sync.Mutex
	log []string // host+path of every request
}

func clServeHosts(t *testing.T, docs map[string]string) *clHostLog {
	t.Helper()
	h := &clHostLog{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.log = append(h.log, r.Host+r.URL.Path)
		h.mu.Unlock()
		body, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, body)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *clHostLog) Log() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.log)
}

// clURLSet returns a urlset of the given <url> bodies, each put inside
// <url> and </url> as it is.
func clURLSet(entries ...string) string {
	return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>` +
		strings.Join(entries, "</url><url>") + `</url></urlset>`
}

// --- the package and the repository ----------------------------------------

// PKG-1: every Go file of the module root but the tests is of package
// sitemap, and the module path ends in /sitemap, so the package is imported
// under that name.
func TestChecklistPackageName(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name.Name != "sitemap" {
			t.Errorf("%s is of package %s", name, f.Name.Name)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no Go file at the module root")
	}
	if mod := clGoModLine(t, "module"); !strings.HasSuffix(mod, "/sitemap") {
		t.Errorf("module path %q does not end in /sitemap", mod)
	}
}

// clGoModLine returns the argument of the first go.mod line with the given
// directive.
func clGoModLine(t *testing.T, directive string) string {
	t.Helper()
	b, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), directive+" "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("go.mod has no %s line", directive)
	return ""
}

// PKG-2: go.mod asks for Go 1.26: no older release, and no newer one either,
// which would shut out users of 1.26.
func TestChecklistGoVersion(t *testing.T) {
	v := clGoModLine(t, "go")
	parts := strings.Split(v, ".")
	if len(parts) < 2 || parts[0] != "1" || parts[1] != "26" {
		t.Errorf("go.mod requires go %s, want 1.26", v)
	}
}

// PKG-5: SECURITY.md says how to report a vulnerability and advises lower
// limits for documents that cannot be trusted; the README points to it.
func TestChecklistSecurityPolicy(t *testing.T) {
	b, err := os.ReadFile("SECURITY.md")
	if err != nil {
		t.Fatal(err)
	}
	sec := string(b)
	if !regexp.MustCompile(`(?i)report(ing)? a vulnerability`).MatchString(sec) {
		t.Error("SECURITY.md does not say how to report a vulnerability")
	}
	if !regexp.MustCompile(`(?is)\blower\b.{0,300}(SetMaxURLs|SetMaxSitemaps)`).MatchString(sec) {
		t.Error("SECURITY.md does not advise lowering the limits (SetMaxURLs, SetMaxSitemaps) for untrusted documents")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "SECURITY.md") {
		t.Error("README.md does not point to SECURITY.md")
	}
}

// clSpecExamples are the directories of examples/ that the spec names.
var clSpecExamples = []string{
	"atom", "context", "encoding", "errors", "follow", "gzip", "hreflang", "httpclient", "idn",
	"image", "iterators", "lastmod", "maxdepth", "maxsitemaps", "maxurls", "maxvalidationerrors",
	"multithread", "news", "redirect", "reuse", "robots", "rss", "sitemaps", "strict", "text",
	"tolerant", "video",
}

// clStrings returns every string literal of a Go file, unquoted, and the
// methods it calls: by name, and by name followed by "(true)" when called
// with the argument true.
func clStrings(t *testing.T, path string) (lits []string, calls map[string]bool) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	calls = map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				if s, err := strconv.Unquote(n.Value); err == nil {
					lits = append(lits, s)
				}
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				calls[sel.Sel.Name] = true
				if len(n.Args) == 1 {
					if id, ok := n.Args[0].(*ast.Ident); ok && id.Name == "true" {
						calls[sel.Sel.Name+"(true)"] = true
					}
				}
			}
		}
		return true
	})
	return lits, calls
}

// EXAMPLES-1, EXAMPLES-2, EXAMPLES-3: every directory of examples/ holds one
// program (package main with a func main), to be started with go run; the
// directories the spec names are there; the tolerant example shows a
// sitemap with an entry without a location, one without a host and URLs
// that are not encoded, in both modes, and the strict one shows strict mode
// on URLs, images, videos and alternate links.
func TestChecklistExamplePrograms(t *testing.T) {
	dirs, err := os.ReadDir("examples")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range dirs {
		if d.Name() == "internal" {
			continue // what the programs share (examples/internal/demo)
		}
		if !d.IsDir() {
			t.Errorf("examples/%s is not a directory of a program", d.Name())
			continue
		}
		names = append(names, d.Name())
		files, err := filepath.Glob(filepath.Join("examples", d.Name(), "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		mains := 0
		for _, name := range files {
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name.Name != "main" {
				t.Errorf("%s is of package %s, not main", name, f.Name.Name)
			}
			for _, decl := range f.Decls {
				if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "main" {
					mains++
				}
			}
		}
		if mains != 1 || !slices.Contains(files, filepath.Join("examples", d.Name(), "main.go")) {
			t.Errorf("examples/%s: %d func main in %q, want one program in main.go", d.Name(), mains, files)
		}
	}
	for _, want := range clSpecExamples {
		if !slices.Contains(names, want) {
			t.Errorf("examples/%s, which the spec names, is missing", want)
		}
	}

	lits, called := clStrings(t, filepath.Join("examples", "tolerant", "main.go"))
	all := strings.Join(lits, "\n")
	if !called["SetStrict"] {
		t.Error("examples/tolerant does not show strict mode beside tolerant mode")
	}
	noLoc := regexp.MustCompile(`<loc>\s*</loc>|<url>\s*</url>`)
	noHost := regexp.MustCompile(`<loc>\s*https?://(/|:)`)
	unencoded := regexp.MustCompile(`<loc>[^<]*[^\x00-\x7f][^<]*</loc>|<loc>\S+ \S+</loc>`)
	for what, re := range map[string]*regexp.Regexp{"without a location": noLoc, "without a host": noHost, "not encoded": unencoded} {
		if !re.MatchString(all) {
			t.Errorf("examples/tolerant has no entry %s", what)
		}
	}

	lits, called = clStrings(t, filepath.Join("examples", "strict", "main.go"))
	all = strings.Join(lits, "\n")
	if !called["SetStrict(true)"] {
		t.Error("examples/strict does not call SetStrict(true)")
	}
	for _, el := range []string{"<image:image>", "<video:video>", "<xhtml:link", "<loc>"} {
		if !strings.Contains(all, el) {
			t.Errorf("examples/strict shows no %s", el)
		}
	}
}

// clExported returns the exported identifiers of the package, methods as
// Type.Method.
func clExported(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					out[d.Name.Name] = true
					continue
				}
				typ := d.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					out[id.Name+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						out[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							out[n.Name] = true
						}
					}
				}
			}
		}
	}
	for k := range out {
		if first, _ := utf8.DecodeRuneInString(k); !unicode.IsUpper(first) {
			delete(out, k)
		}
	}
	return out
}

// clExamples returns the Example functions of example_test.go.
func clExamples(t *testing.T) []*doc.Example {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "example_test.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	exs := doc.Examples(f)
	if len(exs) == 0 {
		t.Fatal("example_test.go holds no Example function")
	}
	return exs
}

// EXAMPLES-4: the Example functions of example_test.go each have an output
// block, so that go test runs them and the docs show what they print, and
// each is named after an exported identifier of the package, so that the
// docs show it next to what it illustrates.
func TestChecklistExampleFunctions(t *testing.T) {
	exported := clExported(t)
	for _, ex := range clExamples(t) {
		if ex.Output == "" && !ex.EmptyOutput {
			t.Errorf("Example%s has no output block: go test compiles it but does not run it", ex.Name)
		}
		parts := strings.Split(ex.Name, "_")
		if first, _ := utf8.DecodeRuneInString(parts[len(parts)-1]); len(parts) > 1 && unicode.IsLower(first) {
			parts = parts[:len(parts)-1] // the suffix of a second example
		}
		target := strings.Join(parts, ".")
		if target != "" && !exported[target] {
			t.Errorf("Example%s illustrates %q, which the package does not export", ex.Name, target)
		}
	}
}

// EXAMPLES-5: go test runs the Example functions without any network. They
// run again in a child test binary whose proxy settings send every request
// that is not on loopback to a trap, which must get none; every example
// with an output block must pass.
func TestChecklistExamplesRunOffline(t *testing.T) {
	if os.Getenv("SITEMAP_TEST_EXAMPLES_CHILD") != "" {
		t.Skip("already in a child test binary")
	}
	var trapped atomic.Int64
	trap := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		trapped.Add(1)
		t.Errorf("an example sent a request off loopback: %s %s", r.Method, r.RequestURI)
		http.Error(w, "no network in examples", http.StatusForbidden)
	}))
	defer trap.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^Example", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(),
		"HTTP_PROXY="+trap.URL, "HTTPS_PROXY="+trap.URL, "http_proxy="+trap.URL, "https_proxy="+trap.URL,
		"NO_PROXY=", "no_proxy=", "SITEMAP_TEST_EXAMPLES_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the examples failed: %v\n%s", err, out)
	}
	for _, ex := range clExamples(t) {
		if ex.Output == "" && !ex.EmptyOutput {
			continue
		}
		if !strings.Contains(string(out), "--- PASS: Example"+ex.Name+" ") {
			t.Errorf("Example%s did not pass:\n%s", ex.Name, out)
		}
	}
	if n := trapped.Load(); n != 0 {
		t.Errorf("%d requests off loopback", n)
	}
}

// --- formats ----------------------------------------------------------------

// ROBOTS-6 (decision: the last segment of the path is robots.txt, not a
// path that merely ends in robots.txt): /myrobots.txt is a sitemap.
func TestChecklistRobotsWholeSegment(t *testing.T) {
	content := "Sitemap: https://example.com/named.xml\nhttps://example.com/text-page\n"
	tests := []struct {
		url    string
		robots bool
	}{
		{"https://example.com/myrobots.txt", false},
		{"https://example.com/my-robots.txt", false},
		{"https://example.com/dir/not_robots.txt", false},
		{"https://example.com/myrobots.txt/robots.txt", true},
		{"https://example.com/Robots.txt", true},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			s, tr := clOffline()
			if _, err := s.SetFollow([]string{`^$`}).Parse(tt.url, &content); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			robots := slices.Equal(sitemapLocsOf(s.GetSitemaps()), []string{"https://example.com/named.xml"}) && s.GetURLCount() == 0
			text := slices.Equal(locsOf(s.GetURLs()), []string{"https://example.com/text-page"}) && s.GetSitemapCount() == 0
			if !robots && !text || robots != tt.robots {
				t.Errorf("read as a robots.txt: %v, want %v (sitemaps %q, URLs %q)", robots, tt.robots, sitemapLocsOf(s.GetSitemaps()), locsOf(s.GetURLs()))
			}
			if tr.n.Load() != 0 {
				t.Errorf("%d requests", tr.n.Load())
			}
		})
	}
}

// ROBOTS-10 (open; pinned as the code has it, robots.go: a # starts a
// comment): a # ends the value even inside the URL, where it would begin a
// fragment; white space may stand between Sitemap and the colon.
func TestChecklistRobotsFragmentAndSpaceBeforeColon(t *testing.T) {
	content := "Sitemap: https://example.com/a.xml#part\n" +
		"Sitemap : https://example.com/b.xml\n" +
		"Sitemap\t:\thttps://example.com/c.xml\n" +
		"sitemap:https://example.com/d.xml#\n"
	want := []string{"https://example.com/a.xml", "https://example.com/b.xml", "https://example.com/c.xml", "https://example.com/d.xml"}
	for _, strict := range []bool{false, true} {
		s, _ := clOffline()
		if _, err := s.SetStrict(strict).SetFollow([]string{`^$`}).Parse("https://example.com/robots.txt", &content); err != nil {
			t.Fatalf("strict=%v: Parse: %v", strict, err)
		}
		ct2Equal(t, fmt.Sprintf("strict=%v: sitemaps", strict), sitemapLocsOf(s.GetSitemaps()), want)
		ct2NoErrors(t, s)
	}
}

// GZIP-7 (open; pinned as decode.go has it: whatever follows a member and
// begins with the gzip magic bytes is a member): a member that is cut or
// broken there fails the document like any gzip content that cannot be
// decompressed to its end, while other trailing bytes are ignored.
func TestChecklistGzipTrailingPartialMember(t *testing.T) {
	member := ct2Gzip(t, ct2URLSet("https://example.com/a", "https://example.com/b"))
	tests := []struct {
		name   string
		tail   []byte
		broken bool
	}{
		{"the magic bytes alone", []byte{0x1f, 0x8b}, true},
		{"the magic bytes and junk", append([]byte{0x1f, 0x8b}, "junk that is no member\n"...), true},
		{"a member header cut short", ct2Gzip(t, "https://example.com/c\n")[:10], true},
		{"bytes that are no member", []byte("\n\x1f junk\n"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := append(slices.Clone(member), tt.tail...)
			for _, d := range ct2Deliveries {
				t.Run(d.name, func(t *testing.T) {
					srv := ct2NewServer(t)
					s, err := d.parse(t, sitemap.New(), srv, "/sitemap.xml.gz", body)
					if !tt.broken {
						if err != nil {
							t.Fatalf("Parse: %v", err)
						}
						ct2Equal(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/a", "https://example.com/b"})
						return
					}
					var perr *sitemap.ParseError
					if !errors.As(err, &perr) || !strings.HasPrefix(perr.Err.Error(), "gzip decompression failed: ") {
						t.Fatalf("Parse error = %v, want a *ParseError of a failed decompression", err)
					}
					if s.GetURLCount() != 0 || s.GetErrorsCount() != 1 {
						t.Errorf("%d URLs, errors %q: nothing of the document is kept, one error", s.GetURLCount(), messagesOf(s.GetErrors()))
					}
				})
			}
		})
	}
}

// ENC-14 (decision: the labels mean what the WHATWG Encoding Standard says):
// a document declared ISO-8859-1 is read as windows-1252, so its bytes 0x80
// to 0x9F are the characters of windows-1252 (€, Ÿ), not C1 controls.
func TestChecklistISO88591IsWindows1252(t *testing.T) {
	content := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.com/\x80\xe9\x9f</loc></url></urlset>"
	for _, tt := range []struct {
		strict bool
		want   string
	}{
		{false, "https://example.com/%E2%82%AC%C3%A9%C5%B8"},
		{true, "https://example.com/\u20ac\u00e9\u0178"},
	} {
		s, err := sitemap.New().SetStrict(tt.strict).Parse("https://example.com/sitemap.xml", &content)
		if err != nil {
			t.Fatalf("strict=%v: Parse: %v", tt.strict, err)
		}
		ct2Equal(t, fmt.Sprintf("strict=%v: URLs", tt.strict), locsOf(s.GetURLs()), []string{tt.want})
		ct2NoErrors(t, s)
	}
}

// ADOPTED-10 (decision: the elements of the sitemap protocol are those in
// the namespace of the root element, whatever it is; a DOCTYPE is read past,
// its DTD ignored), in both modes.
func TestChecklistNamespacesAndDoctype(t *testing.T) {
	tests := []struct {
		name, doc string
		urls      []string
		sitemaps  []string
	}{
		{"urlset without a namespace", `<urlset><url><loc>https://example.com/a</loc></url></urlset>`,
			[]string{"https://example.com/a"}, nil},
		{"urlset in another namespace", `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://example.com/a</loc></url></urlset>`,
			[]string{"https://example.com/a"}, nil},
		{"prefixed root, entries in its namespace", `<s:urlset xmlns:s="urn:x"><s:url><s:loc>https://example.com/a</s:loc></s:url></s:urlset>`,
			[]string{"https://example.com/a"}, nil},
		{"entry in a namespace other than the root's", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url xmlns="urn:other"><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url></urlset>`,
			[]string{"https://example.com/b"}, nil},
		{"location in a namespace other than the root's", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:o="urn:other"><url><o:loc>https://example.com/a</o:loc><loc>https://example.com/b</loc></url></urlset>`,
			[]string{"https://example.com/b"}, nil},
		{"index without a namespace", `<sitemapindex><sitemap><loc>https://example.com/s.xml</loc></sitemap></sitemapindex>`,
			nil, []string{"https://example.com/s.xml"}},
		{"DOCTYPE with an external identifier", `<?xml version="1.0"?><!DOCTYPE urlset PUBLIC "-//x//DTD sitemap//EN" "https://example.com/sitemap.dtd"><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>`,
			[]string{"https://example.com/a"}, nil},
		{"DOCTYPE with an internal subset", `<?xml version="1.0"?><!DOCTYPE urlset [<!ELEMENT urlset ANY><!ATTLIST url id CDATA "x">]><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>`,
			[]string{"https://example.com/a"}, nil},
	}
	for _, tt := range tests {
		for _, strict := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/strict=%v", tt.name, strict), func(t *testing.T) {
				s, tr := clOffline()
				if _, err := s.SetStrict(strict).SetFollow([]string{`^$`}).Parse("https://example.com/sitemap.xml", &tt.doc); err != nil {
					t.Fatalf("Parse: %v", err)
				}
				ct2Equal(t, "URLs", locsOf(s.GetURLs()), tt.urls)
				ct2Equal(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), tt.sitemaps)
				ct2NoErrors(t, s)
				if tr.n.Load() != 0 {
					t.Errorf("%d requests", tr.n.Load())
				}
			})
		}
	}
}

// ADOPTED-9: nothing a DTD names is loaded: neither the external DTD, nor
// an external entity, nor an external parameter entity, in either mode; an
// entity the document uses is not replaced by what such a resource holds.
func TestChecklistNoExternalResources(t *testing.T) {
	srv := ct2NewServer(t)
	for _, p := range []string{"/sitemap.dtd", "/ext.txt", "/param.ent"} {
		srv.Doc(p, "INJECTED")
	}
	doc := `<?xml version="1.0"?>
<!DOCTYPE urlset SYSTEM "` + srv.URL("/sitemap.dtd") + `" [
  <!ENTITY ext SYSTEM "` + srv.URL("/ext.txt") + `">
  <!ENTITY % param SYSTEM "` + srv.URL("/param.ent") + `">
  %param;
]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/plain</loc></url>
  <url><loc>https://example.com/&ext;</loc></url>
</urlset>`
	for _, strict := range []bool{false, true} {
		s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap.xml", &doc)
		if srv.Total() != 0 {
			t.Fatalf("strict=%v: requested %q", strict, srv.Log())
		}
		for _, u := range s.GetURLs() {
			if strings.Contains(u.Loc, "INJECTED") {
				t.Errorf("strict=%v: an external entity was expanded into %s", strict, u.Loc)
			}
		}
		if !strict && (err != nil || !slices.Contains(locsOf(s.GetURLs()), "https://example.com/plain")) {
			t.Errorf("tolerant: err %v, URLs %q: the document is read, its DTD ignored", err, locsOf(s.GetURLs()))
		}
	}
}

// clPeakLiveHeap runs f and returns the largest live heap seen while it
// ran, above the live heap before: the garbage is collected before each
// look, every few milliseconds, so that garbage left to the next
// collection, which depends on what earlier tests keep alive, does not
// count.
func clPeakLiveHeap(f func()) uint64 {
	return hPeakOf(hLiveHeap, 5*time.Millisecond, f)
}

// ADOPTED-3: a document flows from the network through decompression and
// decoding into the parser and is never held whole: a document of 16 MiB,
// plain and gzipped, and in a declared encoding, is read with a heap that
// grows by far less than its size.
func TestChecklistDocumentStreamedNotHeld(t *testing.T) {
	const (
		pages   = 8
		padding = 2 << 20 // between two entries
		size    = pages * padding
	)
	comment := "<!--" + strings.Repeat("x", 1016) + "-->\n" // 1 KiB
	write := func(w io.Writer, host string) {
		io.WriteString(w, `<?xml version="1.0" encoding="ISO-8859-1"?>`+"\n"+`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		chunk := strings.Repeat(comment, 64)
		for i := range pages {
			fmt.Fprintf(w, "<url><loc>http://%s/p-%d</loc></url>\n", host, i)
			for range padding / len(chunk) {
				io.WriteString(w, chunk)
			}
		}
		io.WriteString(w, "</urlset>\n")
	}
	srv := ct2NewServer(t)
	srv.Handle("/plain.xml", func(w http.ResponseWriter, r *http.Request) { write(w, r.Host) })
	// Compressed before the measure: a compressor at work on the server
	// holds megabytes of its own.
	var packed bytes.Buffer
	z, _ := gzip.NewWriterLevel(&packed, gzip.BestCompression)
	write(z, strings.TrimPrefix(srv.URL(""), "http://"))
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	srv.Bytes("/packed.xml.gz", packed.Bytes())
	for _, path := range []string{"/plain.xml", "/packed.xml.gz"} {
		t.Run(path, func(t *testing.T) {
			s := hNew()
			var err error
			heap := clPeakLiveHeap(func() { _, err = s.Parse(srv.URL(path), nil) })
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if s.GetURLCount() != pages {
				t.Fatalf("%d URLs, want %d", s.GetURLCount(), pages)
			}
			t.Logf("peak live heap %.1f MiB for a document of %d MiB", float64(heap)/(1<<20), size>>20)
			// Held whole, the document alone would take 16 MiB; streamed, it
			// takes a few buffers.
			if heap > size/4 {
				t.Errorf("the live heap grew by %d MiB reading a document of %d MiB", heap>>20, size>>20)
			}
		})
	}
}

// --- values of the URLs ------------------------------------------------------

// GETURLS-6: no URL has an empty Loc: an entry whose location is empty,
// white space or missing yields none, in every format and both modes.
func TestChecklistLocNeverEmpty(t *testing.T) {
	docs := map[string]string{
		"urlset": clURLSet(`<loc></loc>`, "<loc> \n </loc>", `<lastmod>2024-01-15</lastmod>`, `<loc>https://example.com/kept</loc>`),
		"rss": `<rss version="2.0"><channel><item><link></link></item><item><link>  </link></item><item><title>t</title></item>` +
			`<item><link>https://example.com/kept</link></item></channel></rss>`,
		"atom": `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href=""/></entry><entry><link href=" "/></entry>` +
			`<entry><link href="https://example.com/kept"/></entry></feed>`,
		"text": "https://\nhttps:// \nhttps://example.com/kept\n",
	}
	for name, doc := range docs {
		for _, strict := range []bool{false, true} {
			s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap", &doc)
			if err != nil {
				t.Fatalf("%s strict=%v: Parse: %v", name, strict, err)
			}
			ct2Equal(t, fmt.Sprintf("%s strict=%v: URLs", name, strict), locsOf(s.GetURLs()), []string{"https://example.com/kept"})
		}
	}
}

// GETURLS-7, GETURLS-9, GETURLS-12: LastMod, ChangeFreq and Priority are
// nil when their element is missing; LastMod and ChangeFreq also when it is
// empty or white space, in both modes, and nothing is reported.
func TestChecklistURLValuesNilWhenAbsent(t *testing.T) {
	doc := clURLSet(
		`<loc>https://example.com/missing</loc>`,
		`<loc>https://example.com/empty</loc><lastmod></lastmod><changefreq></changefreq>`,
		"<loc>https://example.com/blank</loc><lastmod> \n\t</lastmod><changefreq>  </changefreq>",
		`<loc>https://example.com/closed</loc><lastmod/><changefreq/>`,
		`<loc>https://example.com/set</loc><lastmod>2024-01-15T10:30:00Z</lastmod><changefreq>weekly</changefreq><priority>0.4</priority>`,
	)
	for _, strict := range []bool{false, true} {
		s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap.xml", &doc)
		if err != nil {
			t.Fatalf("strict=%v: Parse: %v", strict, err)
		}
		ct2NoErrors(t, s)
		urls := s.GetURLs()
		if len(urls) != 5 {
			t.Fatalf("strict=%v: URLs %q", strict, locsOf(urls))
		}
		for _, u := range urls[:4] {
			if u.LastMod != nil || u.ChangeFreq != nil || u.Priority != nil {
				t.Errorf("strict=%v: %s: LastMod %v, ChangeFreq %v, Priority %v, want all nil", strict, u.Loc, u.LastMod, u.ChangeFreq, u.Priority)
			}
		}
		set := urls[4]
		if set.LastMod == nil || !set.LastMod.Equal(ct1Date(t, "2024-01-15T10:30:00Z")) || set.ChangeFreq == nil || *set.ChangeFreq != sitemap.ChangeFreqWeekly || set.Priority == nil || *set.Priority != 0.4 {
			t.Errorf("strict=%v: %s: LastMod %v, ChangeFreq %v, Priority %v", strict, set.Loc, set.LastMod, set.ChangeFreq, set.Priority)
		}
	}
}

// ADOPTED-4, TOLERANT-8, STRICT-10, GETURLS-7, GETURLS-12: a <lastmod> or a
// <priority> that cannot be parsed costs its value in tolerant mode (nil,
// reported, the entry kept) and its entry in strict mode, never the other
// entries of the document, and never the call.
func TestChecklistBadValueCostsOnlyItself(t *testing.T) {
	doc := clURLSet(
		`<loc>https://example.com/a</loc><lastmod>2024-01-15</lastmod>`,
		`<loc>https://example.com/bad-date</loc><lastmod>2024-01-15 10:30:00</lastmod>`,
		`<loc>https://example.com/bad-priority</loc><priority>high</priority>`,
		`<loc>https://example.com/c</loc><lastmod>2024-01-16</lastmod>`,
	)
	wantErrs := []string{
		`validate "https://example.com/bad-date": invalid <lastmod> value "2024-01-15 10:30:00"`,
		`validate "https://example.com/bad-priority": invalid <priority> value "high"`,
	}
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &doc)
	if err != nil {
		t.Fatalf("tolerant: Parse: %v", err)
	}
	urls := s.GetURLs()
	ct2Equal(t, "tolerant: URLs", locsOf(urls), []string{"https://example.com/a", "https://example.com/bad-date", "https://example.com/bad-priority", "https://example.com/c"})
	ct2Equal(t, "tolerant: errors", messagesOf(s.GetErrors()), wantErrs)
	if len(urls) == 4 && (urls[0].LastMod == nil || urls[1].LastMod != nil || urls[2].Priority != nil || urls[3].LastMod == nil) {
		t.Errorf("tolerant: dates %v %v %v, priority %v: only the bad values are nil", urls[0].LastMod, urls[1].LastMod, urls[3].LastMod, urls[2].Priority)
	}

	s, err = sitemap.New().SetStrict(true).Parse("https://example.com/sitemap.xml", &doc)
	if err != nil {
		t.Fatalf("strict: Parse: %v", err)
	}
	ct2Equal(t, "strict: URLs", locsOf(s.GetURLs()), []string{"https://example.com/a", "https://example.com/c"})
	ct2Equal(t, "strict: errors", messagesOf(s.GetErrors()), wantErrs)
}

// GETURLS-8: LastMod is the <lastmod> of a <url>, the <pubDate> of an RSS
// item and the <updated> of an Atom entry; the date elements of the other
// formats are not read, and a text sitemap has no dates.
func TestChecklistLastModSourcePerFormat(t *testing.T) {
	const at = "2024-01-15T10:30:00Z"
	tests := []struct {
		name, doc string
		dated     bool
	}{
		{"urlset <lastmod>", clURLSet(`<loc>https://example.com/p</loc><lastmod>` + at + `</lastmod>`), true},
		{"urlset <pubDate>", clURLSet(`<loc>https://example.com/p</loc><pubDate>Mon, 15 Jan 2024 10:30:00 GMT</pubDate>`), false},
		{"urlset <updated>", clURLSet(`<loc>https://example.com/p</loc><updated>` + at + `</updated>`), false},
		{"RSS <pubDate>", `<rss version="2.0"><channel><item><link>https://example.com/p</link><pubDate>Mon, 15 Jan 2024 10:30:00 GMT</pubDate></item></channel></rss>`, true},
		{"RSS <lastmod>", `<rss version="2.0"><channel><item><link>https://example.com/p</link><lastmod>` + at + `</lastmod></item></channel></rss>`, false},
		{"Atom <updated>", `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/p"/><published>2020-01-01T00:00:00Z</published><updated>` + at + `</updated></entry></feed>`, true},
		{"Atom <lastmod>", `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/p"/><lastmod>` + at + `</lastmod></entry></feed>`, false},
		{"text", "https://example.com/p 2024-01-15T10:30:00Z\nhttps://example.com/p\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := sitemap.New().Parse("https://example.com/doc", &tt.doc)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			urls := s.GetURLs()
			if len(urls) == 0 {
				t.Fatal("no URL")
			}
			u := urls[len(urls)-1]
			switch {
			case tt.dated && (u.LastMod == nil || !u.LastMod.Equal(ct1Date(t, at))):
				t.Errorf("LastMod = %v, want %s", u.LastMod, at)
			case !tt.dated && u.LastMod != nil:
				t.Errorf("LastMod = %v, want nil", u.LastMod)
			}
		})
	}
}

// GETURLS-10, GETURLS-11: the ChangeFreq constants are the values of the
// protocol; a value of the protocol comes back equal to its constant in
// both modes, and in strict mode a ChangeFreq that is set is always one of
// them, an entry with any other value being left out.
func TestChecklistChangeFreqConstants(t *testing.T) {
	consts := []sitemap.URLChangeFreq{
		sitemap.ChangeFreqAlways, sitemap.ChangeFreqHourly, sitemap.ChangeFreqDaily, sitemap.ChangeFreqWeekly,
		sitemap.ChangeFreqMonthly, sitemap.ChangeFreqYearly, sitemap.ChangeFreqNever,
	}
	values := []string{"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}
	var entries []string
	for i, v := range values {
		if string(consts[i]) != v {
			t.Errorf("constant %d is %q, want %q", i, consts[i], v)
		}
		entries = append(entries, fmt.Sprintf(`<loc>https://example.com/%d</loc><changefreq>%s</changefreq>`, i, v))
	}
	for _, odd := range []string{"Daily", "WEEKLY", "fortnightly", "daily "} {
		entries = append(entries, `<loc>https://example.com/odd</loc><changefreq>`+odd+`</changefreq>`)
	}
	doc := clURLSet(entries...)
	for _, strict := range []bool{false, true} {
		s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap.xml", &doc)
		if err != nil {
			t.Fatalf("strict=%v: Parse: %v", strict, err)
		}
		urls := s.GetURLs()
		if len(urls) < len(consts) {
			t.Fatalf("strict=%v: %d URLs", strict, len(urls))
		}
		for i, c := range consts {
			if urls[i].ChangeFreq == nil || *urls[i].ChangeFreq != c {
				t.Errorf("strict=%v: %s: ChangeFreq %v, want %q", strict, urls[i].Loc, urls[i].ChangeFreq, c)
			}
		}
		if !strict {
			continue
		}
		// "daily " is "daily" once the white space around it is gone.
		if len(urls) != len(consts)+1 {
			t.Errorf("strict: %d URLs, want the %d of the protocol's values and the padded one", len(urls), len(consts)+1)
		}
		for _, u := range urls {
			if u.ChangeFreq != nil && !slices.Contains(consts, *u.ChangeFreq) {
				t.Errorf("strict: %s has ChangeFreq %q, none of the constants", u.Loc, *u.ChangeFreq)
			}
		}
	}
}

// GETURLS-15 (open; pinned as the code has it: only sitemaps are requested
// once, page URLs are not deduplicated): a page listed twice, in one
// sitemap or in two, is returned each time it is listed.
func TestChecklistDuplicatePagesKept(t *testing.T) {
	srv := ct2NewServer(t)
	srv.Doc("/a.xml", ct2URLSet("https://example.com/p", "https://example.com/q", "https://example.com/p"))
	srv.Doc("/b.txt", "https://example.com/p\n")
	srv.Doc("/index.xml", ct2Index(srv.URL("/a.xml"), srv.URL("/b.txt")))
	s, err := sitemap.New().SetMultiThread(false).Parse(srv.URL("/index.xml"), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	ct2Equal(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/p", "https://example.com/q", "https://example.com/p", "https://example.com/p"})
	ct2NoErrors(t, s)
}

// RANDOM-5 (open; pinned as the code has it): the result for n of 0 or
// less is an empty slice, not nil, with URLs or without; "none twice" is
// about positions, so URLs that share a Loc may all be returned.
func TestChecklistRandomURLsEmptyAndPositions(t *testing.T) {
	for _, n := range []int{0, -1, 3} {
		if got := sitemap.New().GetRandomURLs(n); got == nil || len(got) != 0 {
			t.Errorf("GetRandomURLs(%d) of an instance without URLs = %#v, want an empty slice", n, got)
		}
	}
	doc := ct2URLSet("https://example.com/same", "https://example.com/same", "https://example.com/other", "https://example.com/same")
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, -5} {
		if got := s.GetRandomURLs(n); got == nil || len(got) != 0 {
			t.Errorf("GetRandomURLs(%d) = %#v, want an empty slice", n, got)
		}
	}
	for _, n := range []int{4, 10} {
		got := locsOf(s.GetRandomURLs(n))
		slices.Sort(got)
		ct2Equal(t, fmt.Sprintf("GetRandomURLs(%d)", n), got, []string{"https://example.com/other", "https://example.com/same", "https://example.com/same", "https://example.com/same"})
	}
}

// clNilShape compares where a and b hold nil pointers and slices, through
// structs, pointers and slices; it returns the first path where they differ.
func clNilShape(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer, reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v in the original, %v in the copy", path, a.IsNil(), b.IsNil())
		}
		if a.IsNil() {
			return ""
		}
		if a.Kind() == reflect.Pointer {
			return clNilShape(a.Elem(), b.Elem(), path)
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d in the original, %d in the copy", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := clNilShape(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if d := clNilShape(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
	}
	return ""
}

// ITER-7 (open; pinned as iter.go has it): the copies URLs() and
// GetRandomURLs() make are nil where the original is nil and set where it
// is set, for every pointer and slice down to those of a video.
func TestChecklistCopiesKeepNil(t *testing.T) {
	s := ct1ParseContent(t, "https://example.com/sitemap.xml", ct1RichContent)
	urls := s.GetURLs()
	if len(urls) != 2 {
		t.Fatalf("%d URLs", len(urls))
	}
	ct1RequireRich(t, &urls[0])
	if urls[1].Images != nil || urls[1].ChangeFreq != nil || urls[1].News != nil {
		t.Fatalf("the second URL of the fixture is not bare: %+v", urls[1])
	}
	i := 0
	for c := range s.URLs() {
		if d := clNilShape(reflect.ValueOf(urls[i]), reflect.ValueOf(c), "URL"); d != "" {
			t.Errorf("URLs() #%d: %s", i, d)
		}
		i++
	}
	for _, c := range s.GetRandomURLs(2) {
		j := slices.IndexFunc(urls, func(u sitemap.URL) bool { return u.Loc == c.Loc })
		if d := clNilShape(reflect.ValueOf(urls[j]), reflect.ValueOf(c), "URL"); d != "" {
			t.Errorf("GetRandomURLs: %s", d)
		}
	}
}

// --- sitemaps ---------------------------------------------------------------

// GETSITEMAPS-2: the Loc of a listed sitemap is never empty and is the URL
// it is requested by: resolved and encoded as the request is made. Entries
// without a location or a host are not listed.
func TestChecklistSitemapLocIsTheURLRequested(t *testing.T) {
	srv := ct2NewServer(t)
	srv.Doc("/m\u00fcnchen.xml", ct2URLSet("https://example.com/m"))
	srv.Doc("/maps/sub/a b.xml", ct2URLSet("https://example.com/ab"))
	index := ct2Index("/m\u00fcnchen.xml", "", "sub/a b.xml", "https:///no-host.xml", "  ")
	s, err := sitemap.New().SetMultiThread(false).Parse(srv.URL("/maps/index.xml"), &index)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	listed := sitemapLocsOf(s.GetSitemaps())
	var requested []string
	for _, p := range srv.Log() {
		requested = append(requested, srv.URL(p))
	}
	ct2Equal(t, "listed, and requested", listed, requested)
	ct2Equal(t, "listed", listed, []string{srv.URL("/m%C3%BCnchen.xml"), srv.URL("/maps/sub/a%20b.xml")})
	for _, l := range listed {
		if l == "" {
			t.Error("a sitemap with an empty Loc is listed")
		}
	}
	if s.GetURLCount() != 2 {
		t.Errorf("%d URLs, errors %q", s.GetURLCount(), messagesOf(s.GetErrors()))
	}
}

// GETSITEMAPS-16 (decision): a sitemap listed again keeps the place of its
// first listing, with the latest date; in strict mode, which gives URLs as
// written, the spellings of one URL (host case, default port) are one
// sitemap, listed as first written and requested once.
func TestChecklistSitemapListedOnce(t *testing.T) {
	for _, strict := range []bool{false, true} {
		s, _ := clOffline()
		index := ct1Index("https://example.com/a.xml|2024-01-01T00:00:00Z", "https://example.com/b.xml", "https://example.com/a.xml|2024-06-01T00:00:00Z")
		if _, err := s.SetStrict(strict).SetFollow([]string{`^$`}).Parse("https://example.com/index.xml", &index); err != nil {
			t.Fatalf("strict=%v: Parse: %v", strict, err)
		}
		sms := s.GetSitemaps()
		ct2Equal(t, fmt.Sprintf("strict=%v: sitemaps", strict), sitemapLocsOf(sms), []string{"https://example.com/a.xml", "https://example.com/b.xml"})
		if len(sms) == 2 && (sms[0].LastMod == nil || !sms[0].LastMod.Equal(ct1Date(t, "2024-06-01T00:00:00Z"))) {
			t.Errorf("strict=%v: a.xml LastMod %v, want the later date", strict, sms[0].LastMod)
		}
	}

	srv := clServeHosts(t, map[string]string{"/s.xml": "http://example.com/page\n"})
	for _, spellings := range [][]string{
		{"http://example.com/s.xml", "http://EXAMPLE.com/s.xml", "http://example.com:80/s.xml"},
		{"http://Example.COM:80/s.xml", "http://example.com/s.xml"},
	} {
		before := len(srv.Log())
		index := ct2Index(spellings...)
		s := sitemap.New().SetStrict(true).SetMultiThread(false).SetHTTPClient(clLoopbackClient(t, srv.Server))
		if _, err := s.Parse("http://example.com/index.xml", &index); err != nil {
			t.Fatalf("Parse: %v", err)
		}
		ct2NoErrors(t, s)
		ct2Equal(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), spellings[:1])
		if got := srv.Log()[before:]; len(got) != 1 {
			t.Errorf("requests %q, want one", got)
		}
	}
}

// IDN-11 (decision): in strict mode a sitemap written with its host in
// Unicode and in Punycode is one sitemap: listed once, as first written,
// and requested once.
func TestChecklistStrictIDNSitemapOnce(t *testing.T) {
	srv := clServeHosts(t, map[string]string{"/s.xml": "http://xn--bcher-kva.example/page\n"})
	for _, spellings := range [][]string{
		{"http://b\u00fccher.example/s.xml", "http://xn--bcher-kva.example/s.xml"},
		{"http://xn--bcher-kva.example/s.xml", "http://b\u00fccher.example/s.xml"},
	} {
		before := len(srv.Log())
		index := ct2Index(spellings...)
		s := sitemap.New().SetStrict(true).SetMultiThread(false).SetHTTPClient(clLoopbackClient(t, srv.Server))
		if _, err := s.Parse("http://b\u00fccher.example/index.xml", &index); err != nil {
			t.Fatalf("Parse: %v", err)
		}
		ct2NoErrors(t, s)
		ct2Equal(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), spellings[:1])
		ct2Equal(t, "requests", srv.Log()[before:], []string{"xn--bcher-kva.example/s.xml"})
		ct2Equal(t, "URLs", locsOf(s.GetURLs()), []string{"http://xn--bcher-kva.example/page"})
	}
}

// FOLLOW-12 (open; pinned as the code has it, the reading the checklist
// presumes): in strict mode the follow rules are matched against
// the location exactly as the document writes it, where tolerant mode
// matches its encoded form (FOLLOW-8).
func TestChecklistFollowStrictMatchesAsWritten(t *testing.T) {
	srv := ct2NewServer(t)
	srv.Doc("/m\u00fcnchen.xml", ct2URLSet(srv.URL("/page")))
	index := ct2Index(srv.URL("/m\u00fcnchen.xml"))
	tests := []struct {
		strict  bool
		pattern string
		fetched bool
	}{
		{true, `/m\x{fc}nchen\.xml$`, true},
		{true, `/m%C3%BCnchen\.xml$`, false},
		{false, `/m\x{fc}nchen\.xml$`, false},
		{false, `/m%C3%BCnchen\.xml$`, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("strict=%v/%s", tt.strict, tt.pattern), func(t *testing.T) {
			before := srv.Total()
			s, err := sitemap.New().SetStrict(tt.strict).SetFollow([]string{tt.pattern}).Parse(srv.URL("/index.xml"), &index)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			ct2NoErrors(t, s)
			if fetched := srv.Total() > before; fetched != tt.fetched {
				t.Errorf("fetched %v, want %v (listed as %q)", fetched, tt.fetched, sitemapLocsOf(s.GetSitemaps()))
			}
		})
	}
}

// REDIRECT-10 (open; decided in issue 13: a redirect whose final URL has
// the key of a sitemap requested already is not read, or an index whose
// sitemaps redirect back to it is read once for each): two sitemaps that
// redirect to the same URL are each requested, redirect included, and the
// document they lead to is read once, its URLs kept once.
func TestChecklistRedirectsToOneFinalURL(t *testing.T) {
	srv := ct2NewServer(t)
	srv.Redirect("/a.xml", "/final.xml")
	srv.Redirect("/b.xml", "/final.xml")
	srv.Doc("/final.xml", ct2URLSet("https://example.com/page"))
	index := ct2Index(srv.URL("/a.xml"), srv.URL("/b.xml"))
	s, err := sitemap.New().SetMultiThread(false).Parse(srv.URL("/index.xml"), &index)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	ct2NoErrors(t, s)
	ct2Equal(t, "requests", srv.Log(), []string{"/a.xml", "/final.xml", "/b.xml", "/final.xml"})
	ct2Equal(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), []string{srv.URL("/a.xml"), srv.URL("/b.xml")})
	ct2Equal(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/page"})
}

// --- limits -----------------------------------------------------------------

// MAXURLS-11 (decision: the limit is checked when an entry starts): a
// document of exactly n URLs records nothing; an entry that starts once n
// URLs are kept records the error, even one that would not have been valid
// (it is left unread); and so does a sitemap left unfetched, even one that
// holds no URL.
func TestChecklistURLLimitErrorWhenAnEntryIsLeftOut(t *testing.T) {
	const root = "https://example.com/sitemap.xml"
	limitErr := `parse "` + root + `": limit of 2 URLs reached`
	tests := []struct {
		name string
		doc  string
		errs []string
	}{
		{"exactly n, nothing after", ct2URLSet("https://example.com/1", "https://example.com/2") + "<!-- the end -->\n", nil},
		{"exactly n, then an element that is no entry",
			`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/1</loc></url><url><loc>https://example.com/2</loc></url><other>x</other></urlset>`, nil},
		{"an entry without a location after n", ct2URLSet("https://example.com/1", "https://example.com/2", ""), []string{limitErr}},
		{"an entry of another scheme after n", ct2URLSet("https://example.com/1", "https://example.com/2", "ftp://example.com/3"), []string{limitErr}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := sitemap.New().SetMaxURLs(2).Parse(root, &tt.doc)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			ct2Equal(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/1", "https://example.com/2"})
			ct2Equal(t, "errors", messagesOf(s.GetErrors()), tt.errs)
		})
	}
	t.Run("a sitemap left unfetched", func(t *testing.T) {
		srv := ct2NewServer(t)
		srv.Doc("/s1.xml", ct2URLSet("https://example.com/1", "https://example.com/2"))
		srv.Doc("/s2.xml", ct2URLSet())
		index := ct2Index(srv.URL("/s1.xml"), srv.URL("/s2.xml"))
		s, err := sitemap.New().SetMultiThread(false).SetMaxURLs(2).Parse(srv.URL("/index.xml"), &index)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		ct2Equal(t, "requests", srv.Log(), []string{"/s1.xml"})
		ct2Equal(t, "errors", messagesOf(s.GetErrors()), []string{`parse "` + srv.URL("/index.xml") + `": limit of 2 URLs reached`})
	})
}

// MAXURLS-12 (decision: the document stops at the entry the limit leaves
// out, in strict mode too): a well-formedness error in the unread rest is
// never seen, so the URLs kept are returned and only the limit is reported.
// Without the limit, strict mode rejects the same document.
func TestChecklistURLLimitStrictRestUnread(t *testing.T) {
	// Strict mode holds the pages to the host of the sitemap: {} is the
	// server's URL.
	const tmpl = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>{}/1</loc></url>
  <url><loc>{}/2</loc></url>
  <url><loc>{}/3</lo></url>
<<< not XML
</urlset>
`
	for _, d := range ct2Deliveries {
		t.Run(d.name, func(t *testing.T) {
			srv := ct2NewServer(t)
			doc := strings.ReplaceAll(tmpl, "{}", srv.URL(""))
			s, err := d.parse(t, sitemap.New().SetStrict(true).SetMaxURLs(2), srv, "/sitemap.xml", []byte(doc))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			ct2Equal(t, "URLs", locsOf(s.GetURLs()), []string{srv.URL("/1"), srv.URL("/2")})
			ct2Equal(t, "errors", messagesOf(s.GetErrors()), []string{`parse "` + srv.URL("/sitemap.xml") + `": limit of 2 URLs reached`})
		})
	}
	doc := strings.ReplaceAll(tmpl, "{}", "https://example.com")
	_, err := sitemap.New().SetStrict(true).Parse("https://example.com/sitemap.xml", &doc)
	var perr *sitemap.ParseError
	if !errors.As(err, &perr) {
		t.Errorf("without the limit: Parse error = %v, want a *ParseError: the fixture is not well-formed", err)
	}
}

// --- the call ---------------------------------------------------------------

// PARSE-12 (open; pinned as the code has it, following the decisions that
// content passed in is located at the url given, REDIRECT-7, and that this
// url is not checked, PARSE-5): a url that gives no base (empty, relative) or one of
// another scheme leaves relative locations unresolvable, and they are
// rejected as any location without a host or of another scheme, while
// absolute ones are kept; strict mode holds locations to the host and
// protocol of that url, so a url without them admits none; robots.txt is
// told by the url as given, whatever it is. Nothing is fetched.
func TestChecklistContentWithoutUsableURL(t *testing.T) {
	doc := ct2URLSet("/rel", "https://example.com/abs")
	tests := []struct {
		url      string
		strict   bool
		urls     []string
		rejected []string
	}{
		{"", false, []string{"https://example.com/abs"}, []string{"/rel"}},
		{"sitemap.xml", false, []string{"https://example.com/abs"}, []string{"/rel"}},
		{"ftp://example.com/sitemap.xml", false, []string{"https://example.com/abs"}, []string{"/rel"}},
		{"https://example.com/sitemap.xml", false, []string{"https://example.com/rel", "https://example.com/abs"}, nil},
		{"https://example.com/sitemap.xml", true, []string{"https://example.com/abs"}, []string{"/rel"}},
		{"", true, nil, []string{"/rel", "https://example.com/abs"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q/strict=%v", tt.url, tt.strict), func(t *testing.T) {
			s, tr := clOffline()
			if _, err := s.SetStrict(tt.strict).Parse(tt.url, &doc); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			ct2Equal(t, "URLs", locsOf(s.GetURLs()), tt.urls)
			var rejected []string
			for _, v := range ct2Of[*sitemap.ValidationError](s.GetErrors()) {
				rejected = append(rejected, v.URL)
			}
			ct2Equal(t, "rejected", rejected, tt.rejected)
			if int(s.GetErrorsCount()) != len(tt.rejected) || tr.n.Load() != 0 {
				t.Errorf("errors %q, %d requests", messagesOf(s.GetErrors()), tr.n.Load())
			}
		})
	}
	robots := "Sitemap: https://example.com/a.xml\nhttps://example.com/text\n"
	for url, isRobots := range map[string]bool{"robots.txt": true, "/dir/ROBOTS.TXT": true, "ftp://example.com/robots.txt": true, "": false, "sitemap.txt": false} {
		s, _ := clOffline()
		if _, err := s.SetFollow([]string{`^$`}).Parse(url, &robots); err != nil {
			t.Fatalf("%q: Parse: %v", url, err)
		}
		if got := s.GetSitemapCount() == 1 && s.GetURLCount() == 0; got != isRobots {
			t.Errorf("%q: read as a robots.txt %v, want %v", url, got, isRobots)
		}
	}
}

// CTX-10 (open; pinned as the code has it, with the decisions on a root
// request cut short and on CTX-11): a context already done when the call
// starts cuts it short like one that ends later. The request for the root
// fails at once with its *NetworkError alone (CTX-9); content passed in
// stops at the parse's first check (CTX-11), before anything of it is
// read, and the call returns one *ParseError for the root, whatever the
// content lists.
func TestChecklistContextDoneBeforeTheCall(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	srv := ct2NewServer(t)
	srv.Doc("/sitemap.xml", ct2URLSet("https://example.com/a"))
	srv.Doc("/s.xml", ct2URLSet("https://example.com/s"))

	t.Run("fetched", func(t *testing.T) {
		s, err := sitemap.New().ParseContext(done, srv.URL("/sitemap.xml"), nil)
		var nerr *sitemap.NetworkError
		if !errors.As(err, &nerr) || !errors.Is(err, context.Canceled) || nerr.URL != srv.URL("/sitemap.xml") {
			t.Fatalf("ParseContext error = %v, want the *NetworkError of the root wrapping context.Canceled", err)
		}
		if errs := s.GetErrors(); len(errs) != 1 || errs[0] != err {
			t.Errorf("errors %q, want the one returned", messagesOf(errs))
		}
	})
	t.Run("content of an index", func(t *testing.T) {
		index := ct2Index(srv.URL("/s.xml"))
		s, err := sitemap.New().ParseContext(done, srv.URL("/index.xml"), &index)
		var perr *sitemap.ParseError
		if !errors.As(err, &perr) || perr.URL != srv.URL("/index.xml") || perr.Err != context.Canceled {
			t.Fatalf("ParseContext error = %v, want a *ParseError naming the root, wrapping context.Canceled", err)
		}
		if errs := s.GetErrors(); len(errs) != 1 || errs[0] != err {
			t.Errorf("errors %q, want the one returned", messagesOf(errs))
		}
		ct2Equal(t, "sitemaps", sitemapLocsOf(s.GetSitemaps()), nil)
	})
	t.Run("content of a urlset", func(t *testing.T) {
		content := ct2URLSet("https://example.com/p")
		s, err := sitemap.New().ParseContext(done, srv.URL("/pages.xml"), &content)
		var perr *sitemap.ParseError
		if !errors.As(err, &perr) || perr.URL != srv.URL("/pages.xml") || perr.Err != context.Canceled {
			t.Fatalf("ParseContext error = %v, want a *ParseError naming the root, wrapping context.Canceled", err)
		}
		if errs := s.GetErrors(); len(errs) != 1 || errs[0] != err {
			t.Errorf("errors %q, want the one returned", messagesOf(errs))
		}
		ct2Equal(t, "URLs", locsOf(s.GetURLs()), nil)
	})
	if srv.Total() != 0 {
		t.Errorf("requested %q", srv.Log())
	}
}

// clCancelMidBody is a transport that reads the whole response for path
// and hands it on in two halves, ending the context between them: the
// context ends while the document, all of it received, is being parsed.
type clCancelMidBody struct {
	path   string
	cancel context.CancelFunc
}

func (c *clCancelMidBody) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || req.URL.Path != c.path {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	half := len(body) / 2
	var once sync.Once
	second := clReaderFunc(func(p []byte) (int, error) {
		once.Do(c.cancel)
		return 0, io.EOF
	})
	resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body[:half]), second, bytes.NewReader(body[half:])))
	return resp, nil
}

type clReaderFunc func([]byte) (int, error)

func (f clReaderFunc) Read(p []byte) (int, error) { return f(p) }

// CTX-11 (decided), CTX-8: a context that ends while a sitemap is parsed
// stops the parse at its next read and does not discard the sitemap: the
// complete entries read until then are kept (here, all: the rest of the
// body came with the read that the cancel happened in), its request, in
// progress, is its *NetworkError, the next sitemap is not requested, and
// the call returns the one *ParseError of a call cut short.
func TestChecklistCancelWhileASitemapIsParsed(t *testing.T) {
	srv := ct2NewServer(t)
	srv.Doc("/a.xml", ct2URLSet(ct2Pages("a", 40)...))
	srv.Doc("/b.xml", ct2URLSet("https://example.com/b"))
	srv.Doc("/index.xml", ct2Index(srv.URL("/a.xml"), srv.URL("/b.xml")))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := sitemap.New().SetMultiThread(false).SetHTTPClient(&http.Client{Transport: &clCancelMidBody{path: "/a.xml", cancel: cancel}})
	_, err := s.ParseContext(ctx, srv.URL("/index.xml"), nil)
	var perr *sitemap.ParseError
	if !errors.As(err, &perr) || perr.URL != srv.URL("/index.xml") || perr.Err != context.Canceled {
		t.Fatalf("ParseContext error = %v, want the *ParseError of a call cut short", err)
	}
	var nerr *sitemap.NetworkError
	if errs := s.GetErrors(); len(errs) != 2 || !errors.As(errs[0], &nerr) || nerr.URL != srv.URL("/a.xml") || !errors.Is(nerr, context.Canceled) || errs[1] != err {
		t.Errorf("errors %q, want the *NetworkError of /a.xml and the one returned", messagesOf(errs))
	}
	ct2Equal(t, "URLs", locsOf(s.GetURLs()), ct2Pages("a", 40))
	ct2Equal(t, "requests", srv.Log(), []string{"/index.xml", "/a.xml"})
}

// --- errors -----------------------------------------------------------------

// ERRORS-15 (open; pinned as the code has it): GetErrors never returns nil,
// before any call and after a call without errors. The order, decided
// (outstanding *ConfigError values, then the call's errors as recorded), is
// TestCt1GetErrorsList's.
func TestChecklistGetErrorsNeverNil(t *testing.T) {
	s := sitemap.New()
	if errs := s.GetErrors(); errs == nil || len(errs) != 0 {
		t.Errorf("GetErrors() of a new instance = %#v, want an empty slice", errs)
	}
	content := ct2URLSet("https://example.com/p")
	if _, err := s.Parse("https://example.com/sitemap.xml", &content); err != nil {
		t.Fatal(err)
	}
	if errs := s.GetErrors(); errs == nil || len(errs) != 0 {
		t.Errorf("GetErrors() after a call without errors = %#v, want an empty slice", errs)
	}
	s.SetMaxDepth(0).SetMaxDepth(3)
	if errs := s.GetErrors(); errs == nil || len(errs) != 0 {
		t.Errorf("GetErrors() after a configuration error was cleared = %#v, want an empty slice", errs)
	}
}

// ERRORS-16 (decisions): the messages the spec leaves open keep the shapes
// the project chose (config "field": …, fetch "URL": …, parse "URL": …,
// validate "URL": …) with the causes it fixed: a status other than 200, a
// document that is empty or not a sitemap, gzip that cannot be
// decompressed, a call cut short, an encoding that cannot be read.
func TestChecklistMessagesOfOpenErrors(t *testing.T) {
	srv := ct2NewServer(t)
	srv.Doc("/big.xml", ct2URLSet("https://example.com/"+strings.Repeat("a", 200)))
	srv.Doc("/s.xml", ct2URLSet("https://example.com/s"))
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	str := func(s string) *string { return &s }
	const doc = "https://example.com/doc.xml"
	tests := []struct {
		name    string
		parse   func() (*sitemap.S, error)
		typ     string // the type of the error
		message string // the message, or its beginning when prefix is set
		prefix  bool
		is      error
	}{
		{"HTTP status", func() (*sitemap.S, error) { return sitemap.New().Parse(srv.URL("/missing.xml"), nil) },
			"*sitemap.NetworkError", `fetch "` + srv.URL("/missing.xml") + `": unexpected HTTP status 404 Not Found`, false, nil},
		{"configuration", func() (*sitemap.S, error) {
			s := sitemap.New().SetMaxDepth(0)
			return s, s.GetErrors()[0]
		}, "*sitemap.ConfigError", `config "maxDepth": `, true, nil},
		{"response over the size limit", func() (*sitemap.S, error) {
			return sitemap.New().SetMaxResponseSize(100).Parse(srv.URL("/big.xml"), nil)
		}, "*sitemap.NetworkError", `fetch "` + srv.URL("/big.xml") + `": `, true, sitemap.ErrMaxResponseSize},
		{"content over the size limit once decompressed", func() (*sitemap.S, error) {
			return sitemap.New().SetMaxResponseSize(1000).Parse(doc, str(string(ct2Gzip(t, strings.Repeat("https://example.com/a\n", 100)))))
		}, "*sitemap.ParseError", `parse "` + doc + `": `, true, sitemap.ErrMaxResponseSize},
		{"gzip with a broken header", func() (*sitemap.S, error) { return sitemap.New().Parse(doc, str("\x1f\x8bnot gzip at all")) },
			"*sitemap.ParseError", `parse "` + doc + `": gzip decompression failed: `, true, nil},
		{"empty", func() (*sitemap.S, error) { return sitemap.New().Parse(doc, str(" \n")) },
			"*sitemap.ParseError", `parse "` + doc + `": document is empty`, false, nil},
		{"XML that is no sitemap", func() (*sitemap.S, error) { return sitemap.New().Parse(doc, str("<html><body/></html>")) },
			"*sitemap.ParseError", `parse "` + doc + `": not a sitemap: `, true, nil},
		{"text that is no sitemap", func() (*sitemap.S, error) { return sitemap.New().Parse(doc, str("hello\nworld\n")) },
			"*sitemap.ParseError", `parse "` + doc + `": not a sitemap: `, true, nil},
		{"invalid url", func() (*sitemap.S, error) { return sitemap.New().Parse("ftp://example.com/s.xml", nil) },
			"*sitemap.ValidationError", `validate "ftp://example.com/s.xml": unsupported scheme "ftp"`, false, nil},
		{"call cut short", func() (*sitemap.S, error) {
			return sitemap.New().ParseContext(cancelled, srv.URL("/index.xml"), str(ct2Index(srv.URL("/s.xml"))))
		}, "*sitemap.ParseError", `parse "` + srv.URL("/index.xml") + `": context canceled`, false, context.Canceled},
		{"unsupported encoding", func() (*sitemap.S, error) {
			return sitemap.New().Parse(doc, str(`<?xml version="1.0" encoding="x-no-such-encoding"?><urlset/>`))
		}, "*sitemap.ParseError", `parse "` + doc + `": unsupported encoding "x-no-such-encoding"`, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.parse()
			if err == nil {
				t.Fatal("no error")
			}
			if got := fmt.Sprintf("%T", err); got != tt.typ {
				t.Errorf("error of type %s, want %s", got, tt.typ)
			}
			if msg := err.Error(); tt.prefix && !strings.HasPrefix(msg, tt.message) || !tt.prefix && msg != tt.message {
				t.Errorf("message %q, want %q", msg, tt.message)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("%v does not wrap %v", err, tt.is)
			}
			if !slices.Contains(s.GetErrors(), err) {
				t.Errorf("GetErrors() %q does not hold it", messagesOf(s.GetErrors()))
			}
		})
	}
}
