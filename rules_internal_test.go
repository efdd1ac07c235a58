package sitemap

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The table of the rules holds every Code declared in the package, once,
// with a severity, whether strict mode has it, and what it checks and what
// to do, word for word as the table of Code's documentation gives them:
// a rule is added by one entry, its constant and its row.
func TestRuleTable(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	declared := map[Code]bool{}
	var doc string
	for _, f := range files {
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range g.Specs {
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					if sp.Name.Name == "Code" {
						doc = g.Doc.Text()
					}
				case *ast.ValueSpec:
					if id, ok := sp.Type.(*ast.Ident); !ok || id.Name != "Code" || g.Tok != token.CONST {
						continue
					}
					for _, v := range sp.Values {
						lit := v.(*ast.BasicLit)
						declared[Code(strings.Trim(lit.Value, `"`))] = true
					}
				}
			}
		}
	}
	if len(declared) < 40 {
		t.Fatalf("%d constants of type Code found; the parse of the package missed them", len(declared))
	}

	row := regexp.MustCompile(`^\t(\S+) +(error|warning|info) +(yes|no) +(.*?)  +(.*)$`)
	var documented []rule
	for line := range strings.SplitSeq(doc, "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			documented = append(documented, rule{Code(m[1]), Severity(m[2]), m[3] == "yes", m[4], m[5]})
		}
	}
	if len(documented) != len(rules) {
		t.Errorf("the table of Code has %d rows, rules %d entries", len(documented), len(rules))
	}
	seen := map[Code]bool{}
	for i, r := range rules {
		if seen[r.code] {
			t.Errorf("%s: two entries", r.code)
		}
		seen[r.code] = true
		if !declared[r.code] {
			t.Errorf("%s: an entry, but no constant", r.code)
		}
		if r.sev != SeverityError && r.sev != SeverityWarning && r.sev != SeverityInfo || r.what == "" || r.todo == "" {
			t.Errorf("%s: severity %q, what %q, to do %q: each is required", r.code, r.sev, r.what, r.todo)
		}
		if r.code.Severity() != r.sev || r.code.Error() != string(r.code) {
			t.Errorf("%s: Severity() %q, Error() %q", r.code, r.code.Severity(), r.code.Error())
		}
		if i < len(documented) && documented[i] != r {
			t.Errorf("row %d of the table of Code:\n%+v\nthe entry of rules:\n%+v", i+1, documented[i], r)
		}
	}
	for c := range declared {
		if !seen[c] {
			t.Errorf("%s: a constant without an entry in rules", c)
		}
	}
}

// sharedRuleCases are, for every rule that strict mode and lint share, a
// document that fails it. spec is the message of strict mode's error where
// the specification gives it, with the ID that quotes it.
var sharedRuleCases = []struct {
	code     Code
	entry    string // a <url> of a urlset at ruleBase, or
	doc, url string // a whole document and its URL
	tolerant bool   // the message is the one of tolerant mode
	spec     string
}{
	{code: CodeLocMissing, entry: `<url><loc> </loc></url>`,
		spec: `validate "https://example.com/sitemap.xml": <loc> of an entry is empty or missing`}, // LOC-1
	{code: CodeLocInvalid, entry: `<url><loc>https://:8080/page</loc></url>`,
		spec: `validate "https://:8080/page": missing host`}, // LOC-2
	{code: CodeLocInvalid, entry: `<url><loc>//::</loc></url>`, tolerant: true,
		spec: `validate "//::": parse "https://::": invalid port "::" after host`}, // LOC-7
	{code: CodeLocInvalid, doc: "Sitemap: ftp://example.com/sitemap.xml\n", url: "https://example.com/robots.txt", tolerant: true,
		spec: `validate "ftp://example.com/sitemap.xml": unsupported scheme "ftp"`}, // ROBOTS-12
	{code: CodeLocTooLong, entry: `<url><loc>https://example.com/` + strings.Repeat("a", 2100) + `</loc></url>`},
	{code: CodeLocNotEscaped, entry: `<url><loc>https://example.com/search?tags=summer|sale</loc></url>`,
		spec: `validate "https://example.com/search?tags=summer|sale": strict mode: URL contains the character '|', which it has to give as "%7C"`}, // STRICT-14
	{code: CodeLocOtherHost, entry: `<url><loc>https://example.com:8443/page</loc></url>`,
		spec: `validate "https://example.com:8443/page": strict mode: host "example.com:8443" does not match sitemap host "example.com"`}, // HOST-4
	{code: CodeLocOtherScheme, entry: `<url><loc>http://example.com/page</loc></url>`},
	{code: CodeLocOtherHost, entry: `<url><loc>http://www.example.com/page</loc></url>`,
		spec: `validate "http://www.example.com/page": strict mode: protocol "http" does not match sitemap protocol "https"`}, // HOST-5: the protocol is compared first
	{code: CodeLastmodInvalid, entry: `<url><loc>https://example.com/page</loc><lastmod>2024-01-15 10:30:00</lastmod></url>`,
		spec: `validate "https://example.com/page": invalid <lastmod> value "2024-01-15 10:30:00"`}, // VALUE-3
	{code: CodeLastmodInvalid, url: "https://example.com/feed.xml",
		doc:  `<rss version="2.0"><channel><item><link>https://example.com/blog/post</link><pubDate>2024-01-15T10:30:00Z</pubDate></item></channel></rss>`,
		spec: `validate "https://example.com/blog/post": invalid <pubDate> value "2024-01-15T10:30:00Z"`}, // FEEDDATE-9
	{code: CodeLastmodInvalid, url: ruleBase,
		doc:  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/sitemap-1.xml</loc><lastmod>2024-01-15 10:30:00</lastmod></sitemap></sitemapindex>`,
		spec: `validate "https://example.com/sitemap-1.xml": invalid <lastmod> value "2024-01-15 10:30:00"`}, // VALUE-5
	{code: CodeChangefreqInvalid, entry: `<url><loc>https://example.com/page</loc><changefreq>Weekly</changefreq></url>`},
	{code: CodePriorityInvalid, entry: `<url><loc>https://example.com/page</loc><priority>1.5</priority></url>`},
	{code: CodePriorityInvalid, entry: `<url><loc>https://example.com/page</loc><priority>high</priority></url>`},
	{code: CodeImageLocMissing, entry: ruleURL(`<image:image><image:loc></image:loc></image:image>`),
		spec: `validate "https://example.com/page": strict mode: image <loc> is empty`}, // EXTURL-7, IMAGE-4
	{code: CodeImageLocInvalid, entry: ruleURL(`<image:image><image:loc>https://cdn.example.com/summer sale.jpg</image:loc></image:image>`),
		spec: `validate "https://cdn.example.com/summer sale.jpg": strict mode: URL contains a space`}, // EXTURL-3
	{code: CodeImageLocInvalid, entry: ruleURL(`<image:image><image:loc>https://cdn.example.com/a.jpg</image:loc><image:license>ftp://example.com/l</image:license></image:image>`)},
	{code: CodeNewsMissing, entry: ruleURL(`<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date> </news:publication_date><news:title>T</news:title></news:news>`),
		spec: `validate "https://example.com/page": strict mode: news <publication_date> is empty`}, // NEWS-6
	{code: CodeNewsDateInvalid, entry: ruleURL(`<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>yesterday</news:publication_date><news:title>T</news:title></news:news>`),
		spec: `validate "https://example.com/page": invalid <news:publication_date> value "yesterday"`},
	{code: CodeVideoMissing, entry: ruleURL(`<video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:description>D</video:description><video:content_loc>https://example.com/v.mp4</video:content_loc></video:video>`),
		spec: `validate "https://example.com/page": strict mode: video <title> is empty`}, // EXTURL-7, VIDEO-3
	{code: CodeVideoMissing, entry: ruleURL(`<video:video><video:title>T</video:title><video:description>D</video:description><video:content_loc>https://example.com/v.mp4</video:content_loc></video:video>`)},
	{code: CodeVideoURLInvalid, entry: ruleVideo(`<video:player_loc>ftp://cdn.example.com/video.mp4</video:player_loc>`),
		spec: `validate "ftp://cdn.example.com/video.mp4": strict mode: unsupported scheme "ftp"`}, // EXTURL-6
	{code: CodeVideoDuration, entry: ruleVideo(`<video:duration>30000</video:duration>`)},
	{code: CodeVideoDuration, entry: ruleVideo(`<video:duration>long</video:duration>`)},
	{code: CodeVideoRating, entry: ruleVideo(`<video:rating>6.0</video:rating>`)},
	{code: CodeVideoViewCount, entry: ruleVideo(`<video:view_count>many</video:view_count>`)},
	{code: CodeVideoDateInvalid, entry: ruleVideo(`<video:expiration_date>soon</video:expiration_date>`)},
	{code: CodeVideoTagsMany, entry: ruleVideo(strings.Repeat(`<video:tag>t</video:tag>`, 33))},
	{code: CodeVideoYesNo, entry: ruleVideo(`<video:family_friendly>maybe</video:family_friendly>`)},
	{code: CodeVideoRestriction, entry: ruleVideo(`<video:restriction relationship="only">IE</video:restriction>`)},
	{code: CodeVideoPlatform, entry: ruleVideo(`<video:platform relationship="only">web</video:platform>`)},
	{code: CodeHreflangAttribute, entry: ruleURL(`<xhtml:link rel="alternate" href="https://example.com/de"/>`)},
	{code: CodeHreflangAttribute, entry: ruleURL(`<xhtml:link rel="canonical" hreflang="de" href="https://example.com/de"/>`)},
	{code: CodeHreflangHrefInvalid, entry: ruleURL(`<xhtml:link rel="alternate" hreflang="de" href="/de"/>`)},
}

const ruleBase = "https://example.com/sitemap.xml"

// noNetwork is the client of the calls of the rule tests: a sitemap an
// index lists is not fetched, and the test never leaves the machine.
var noNetwork = &http.Client{Transport: ruleTransport(func(*http.Request) (*http.Response, error) {
	return nil, errors.New("no network in this test")
})}

type ruleTransport func(*http.Request) (*http.Response, error)

func (f ruleTransport) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// ruleURL is a <url> of https://example.com/page with the extensions ext.
func ruleURL(ext string) string {
	return `<url><loc>https://example.com/page</loc>` + ext + `</url>`
}

// ruleVideo is a <url> with a video that has what a video requires, and
// more.
func ruleVideo(more string) string {
	return ruleURL(`<video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>T</video:title>` +
		`<video:description>D</video:description><video:content_loc>https://example.com/v.mp4</video:content_loc>` + more + `</video:video>`)
}

// A rule that strict mode and lint share fails the same document in both:
// strict mode with a *ValidationError that errors.Is tells by the rule's
// Code (with the specification's message where it gives one), lint with a
// finding of that code. Every rule the table says both have a case here.
func TestRulesSharedByStrictModeAndLint(t *testing.T) {
	covered := map[Code]bool{}
	for _, c := range sharedRuleCases {
		covered[c.code] = true
		url, doc := c.url, c.doc
		if doc == "" {
			url = ruleBase
			doc = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"` +
				` xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"` +
				` xmlns:xhtml="http://www.w3.org/1999/xhtml">` + c.entry + `</urlset>`
		}
		name := fmt.Sprintf("%s/%.60s", c.code, strings.TrimPrefix(c.entry, `<url><loc>https://example.com/page</loc>`)+c.doc)
		t.Run(name, func(t *testing.T) {
			if r := ruleIndex[c.code]; r == nil || !r.strict {
				t.Fatalf("%s: the table does not say that strict mode has it", c.code)
			}
			s := New().SetStrict(!c.tolerant).SetHTTPClient(noNetwork)
			s.ParseReader(context.Background(), url, strings.NewReader(doc))
			var msgs []string
			found := false
			for _, err := range s.GetErrors() {
				var ve *ValidationError
				if !errors.As(err, &ve) {
					continue
				}
				msgs = append(msgs, err.Error())
				if r := ruleIndex[ruleOf(ve.Err)]; r == nil || !r.strict {
					t.Errorf("%v: the cause wraps %q, which is no rule the table gives strict mode", err, ruleOf(ve.Err))
				}
				if errors.Is(err, c.code) && (c.spec == "" || err.Error() == c.spec) {
					found = true
				}
			}
			if !found {
				t.Errorf("strict mode: no *ValidationError of %s (message %q) among:\n%s", c.code, c.spec, strings.Join(msgs, "\n"))
			}
			var codes []Code
			for f := range New().SetHTTPClient(noNetwork).Lint(context.Background(), url, strings.NewReader(doc), &LintOptions{NoRobots: true, Now: time.Date(2025, 6, 15, 0, 0, 0, 0, time.UTC)}) {
				codes = append(codes, f.Code)
				if f.Code == c.code {
					return
				}
			}
			t.Errorf("lint: no finding of %s among %v", c.code, codes)
		})
	}
	for _, r := range rules {
		if r.strict && !covered[r.code] {
			t.Errorf("%s: strict mode and lint share it, and no document here fails it", r.code)
		}
	}
}

// The cause of a *ValidationError keeps the chain it had besides the Code:
// errors.As finds urlnorm's error behind a location, and the message is
// the cause's alone.
func TestViolationWrapsCodeAndCause(t *testing.T) {
	err := checkLoc(errors.New("URL is not absolute"))
	if !errors.Is(err, CodeLocInvalid) || errors.Is(err, CodeLocTooLong) || err.Error() != "URL is not absolute" {
		t.Errorf("checkLoc: %v, Is loc-invalid %v", err, errors.Is(err, CodeLocInvalid))
	}
	if broke(CodeLocInvalid, nil) != nil || broke(CodeLocTooLong, err) != err {
		t.Error("broke: nil is no failure, and a failure keeps its rule")
	}
	ve := &ValidationError{URL: "https://example.com/a", Err: fmt.Errorf("%w (read as x)", err)}
	if !errors.Is(ve, CodeLocInvalid) || ruleOf(ve) != CodeLocInvalid {
		t.Errorf("through a wrapper: Is %v, ruleOf %q", errors.Is(ve, CodeLocInvalid), ruleOf(ve))
	}
}
