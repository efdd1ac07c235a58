package sitemap_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The checks of the package and the repository themselves: the package
// name, the Go version, the security policy and the examples (PKG-*,
// EXAMPLES-*). An open point of SPEC-CHECKLIST.md is pinned, here and in
// every test file, as the project decided it; where no decision is written
// down, the test's comment says that it pins what the code does.

// PKG-1: every Go file of the module root but the tests is of package
// sitemap, and the module path ends in /sitemap, so the package is imported
// under that name.
func TestPackageName(t *testing.T) {
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
	if mod := goModLine(t, "module"); !strings.HasSuffix(mod, "/sitemap") {
		t.Errorf("module path %q does not end in /sitemap", mod)
	}
}

// goModLine returns the argument of the first go.mod line with the given
// directive.
func goModLine(t *testing.T, directive string) string {
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
func TestGoVersion(t *testing.T) {
	v := goModLine(t, "go")
	parts := strings.Split(v, ".")
	if len(parts) < 2 || parts[0] != "1" || parts[1] != "26" {
		t.Errorf("go.mod requires go %s, want 1.26", v)
	}
}

// PKG-5: SECURITY.md says how to report a vulnerability and advises lower
// limits for documents that cannot be trusted; the README points to it.
func TestSecurityPolicy(t *testing.T) {
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

// specExamples are the directories of examples/ that the spec names.
var specExamples = []string{
	"atom", "context", "encoding", "errors", "follow", "gzip", "hreflang", "httpclient", "idn",
	"image", "iterators", "lastmod", "maxdepth", "maxsitemaps", "maxurls", "maxvalidationerrors",
	"multithread", "news", "redirect", "reuse", "robots", "rss", "sitemaps", "strict", "text",
	"tolerant", "video",
}

// stringsOf returns every string literal of a Go file, unquoted, and the
// methods it calls: by name, and by name followed by "(true)" when called
// with the argument true.
func stringsOf(t *testing.T, path string) (lits []string, calls map[string]bool) {
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
func TestExamplePrograms(t *testing.T) {
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
	for _, want := range specExamples {
		if !slices.Contains(names, want) {
			t.Errorf("examples/%s, which the spec names, is missing", want)
		}
	}

	lits, called := stringsOf(t, filepath.Join("examples", "tolerant", "main.go"))
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

	lits, called = stringsOf(t, filepath.Join("examples", "strict", "main.go"))
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

// exportedNames returns the exported identifiers of the package, methods as
// Type.Method.
func exportedNames(t *testing.T) map[string]bool {
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

// exampleFuncs returns the Example functions of example_test.go.
func exampleFuncs(t *testing.T) []*doc.Example {
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
func TestExampleFunctions(t *testing.T) {
	exported := exportedNames(t)
	for _, ex := range exampleFuncs(t) {
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
func TestExamplesRunOffline(t *testing.T) {
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
	for _, ex := range exampleFuncs(t) {
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

// EXAMPLES-6 (issue 30 item 7): every exported function of the root
// package and of package store, and every exported method of their exported
// types, has an Example, so that a new exported name without one fails here.
// A getter of a setting is shown by its setter's Example (GetX by
// ExampleS_SetX); the methods a type has to satisfy an interface of the
// standard library (Error, Unwrap, String, MarshalText...) are shown by an
// Example of the type itself.
func TestEveryExportedFuncHasExample(t *testing.T) {
	for _, dir := range []string{".", "store"} {
		missing, silent := missingExamples(t, dir)
		if len(missing) > 0 {
			t.Errorf("%s: no Example for %s", dir, strings.Join(missing, ", "))
		}
		if len(silent) > 0 {
			t.Errorf("%s: Example%s: no output block, so go test compiles them but does not run them", dir, strings.Join(silent, ", Example"))
		}
	}
}

// interfaceMethods are the methods shown by an Example of their type.
var interfaceMethods = map[string]bool{
	"Error": true, "Unwrap": true, "String": true, "GoString": true, "Format": true,
	"MarshalText": true, "UnmarshalText": true, "MarshalJSON": true, "UnmarshalJSON": true,
	"MarshalXML": true, "UnmarshalXML": true, "Is": true, "As": true,
}

// missingExamples returns, sorted, the exported functions and methods of
// the package in dir that no Example of the package's test files shows,
// and the Examples that have no output block.
func missingExamples(t *testing.T, dir string) (missing, silent []string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var funcs []string            // "F" or "T.M"
	examples := map[string]bool{} // what the Example functions illustrate, as "F", "T" or "T.M"
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		test := strings.HasSuffix(name, "_test.go")
		if test {
			for _, ex := range doc.Examples(f) {
				if ex.Output == "" && !ex.EmptyOutput {
					silent = append(silent, ex.Name)
				}
			}
		}
		for _, decl := range f.Decls {
			d, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if test {
				if rest, ok := strings.CutPrefix(d.Name.Name, "Example"); ok && d.Recv == nil {
					parts := strings.Split(rest, "_")
					if first, _ := utf8.DecodeRuneInString(parts[len(parts)-1]); len(parts) > 1 && unicode.IsLower(first) {
						parts = parts[:len(parts)-1]
					}
					examples[strings.Join(parts, ".")] = true
				}
				continue
			}
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil {
				funcs = append(funcs, d.Name.Name)
				continue
			}
			typ := d.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.IsExported() {
				funcs = append(funcs, id.Name+"."+d.Name.Name)
			}
		}
	}
	for _, fn := range funcs {
		if examples[fn] {
			continue
		}
		if typ, method, ok := strings.Cut(fn, "."); ok {
			if setting, ok := strings.CutPrefix(method, "Get"); ok && examples[typ+".Set"+setting] {
				continue
			}
			if interfaceMethods[method] && examples[typ] {
				continue
			}
		}
		missing = append(missing, fn)
	}
	slices.Sort(missing)
	slices.Sort(silent)
	return missing, silent
}
