package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gositemap/sitemap"
)

// sarifShape is what the SARIF 2.1.0 schema (sarif-schema-2.1.0.json)
// asks of the objects sitemap lint writes: for each, the properties it
// requires, then those it allows (the schema allows no other:
// additionalProperties is false), and for each property the shape of its
// value. A value of an array is the shape of each element.
var sarifShape = map[string]struct {
	required []string
	allowed  map[string]string
}{
	"sarifLog": {[]string{"version", "runs"}, map[string]string{"$schema": "uri", "version": "version", "runs": "run"}},
	"run":      {[]string{"tool"}, map[string]string{"tool": "tool", "results": "result"}},
	"tool":     {[]string{"driver"}, map[string]string{"driver": "toolComponent"}},
	"toolComponent": {[]string{"name"}, map[string]string{"name": "string", "informationUri": "uri",
		"rules": "reportingDescriptor"}},
	"reportingDescriptor": {[]string{"id"}, map[string]string{"id": "string", "shortDescription": "multiformatMessageString",
		"help": "multiformatMessageString", "helpUri": "uri", "defaultConfiguration": "reportingConfiguration"}},
	"reportingConfiguration":   {nil, map[string]string{"level": "level"}},
	"multiformatMessageString": {[]string{"text"}, map[string]string{"text": "string"}},
	"result": {[]string{"message"}, map[string]string{"ruleId": "string", "level": "level", "message": "message",
		"locations": "location"}},
	// message: anyOf text or id; this writer gives text.
	"message":          {[]string{"text"}, map[string]string{"text": "string"}},
	"location":         {nil, map[string]string{"physicalLocation": "physicalLocation"}},
	"physicalLocation": {[]string{"artifactLocation"}, map[string]string{"artifactLocation": "artifactLocation", "region": "region"}},
	"artifactLocation": {nil, map[string]string{"uri": "uri", "uriBaseId": "string"}},
	// region: anyOf startLine, charOffset or byteOffset; this writer gives
	// startLine, and startLine and startColumn are at least 1.
	"region": {[]string{"startLine"}, map[string]string{"startLine": "positive", "startColumn": "positive"}},
}

// checkSARIF checks v, a value of the shape named, against sarifShape,
// and returns what is wrong, each with its path.
func checkSARIF(v any, shape, path string) []string {
	var bad []string
	if list, ok := v.([]any); ok && shape != "version" {
		for i, e := range list {
			bad = append(bad, checkSARIF(e, shape, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return bad
	}
	switch shape {
	case "string", "uri":
		if s, ok := v.(string); !ok || s == "" && shape == "uri" {
			bad = append(bad, fmt.Sprintf("%s: %v is no %s", path, v, shape))
		}
		return bad
	case "version":
		if v != "2.1.0" {
			bad = append(bad, fmt.Sprintf("%s: version %v", path, v))
		}
		return bad
	case "level":
		if !slices.Contains([]any{"none", "note", "warning", "error"}, v) {
			bad = append(bad, fmt.Sprintf("%s: level %v", path, v))
		}
		return bad
	case "positive":
		if n, ok := v.(float64); !ok || n < 1 || n != float64(int(n)) {
			bad = append(bad, fmt.Sprintf("%s: %v is no integer from 1", path, v))
		}
		return bad
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: %T is no %s object", path, v, shape)}
	}
	s := sarifShape[shape]
	for _, name := range s.required {
		if _, ok := obj[name]; !ok {
			bad = append(bad, fmt.Sprintf("%s: %s lacks %q", path, shape, name))
		}
	}
	for name, val := range obj {
		sub, ok := s.allowed[name]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: %s has no property %q", path, shape, name))
			continue
		}
		bad = append(bad, checkSARIF(val, sub, path+"."+name)...)
	}
	return bad
}

// Issue 34: sitemap lint -format sarif writes one run of a SARIF 2.1.0
// log that holds what the schema requires: the rules of the codes found
// with their help, each finding a result with its rule, level and place
// (a finding about the document as a whole at 1:1), the artifact the
// FILE's path relative to the repository.
func TestLintSARIF(t *testing.T) {
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>/relative</loc></url>
<url><loc>https://example.com/a</loc><changefreq>Weekly</changefreq></url>
</urlset>`
	// A repository of its own: the FILE is named relative to its root.
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(repo, "public", "maps")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "site map.xml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "lint", "-no-robots", "-format", "sarif", path)
	if r.code != 1 {
		t.Errorf("exit status %d, want 1", r.code)
	}
	var log map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatalf("%v:\n%s", err, r.stdout)
	}
	for _, e := range checkSARIF(log, "sarifLog", "$") {
		t.Error(e)
	}
	var got struct {
		Runs []struct {
			Results []struct {
				RuleID, Level string
				Locations     []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
			}
			Tool struct {
				Driver struct {
					Rules []struct {
						ID   string
						Help struct{ Text string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != 1 || len(got.Runs[0].Results) != 2 {
		t.Fatalf("%s", r.stdout)
	}
	res := got.Runs[0].Results[1]
	loc := res.Locations[0].PhysicalLocation
	if res.RuleID != "changefreq-invalid" || res.Level != "error" || loc.Region.StartLine != 3 || loc.Region.StartColumn != 6 ||
		loc.ArtifactLocation.URI != "public/maps/site%20map.xml" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
		t.Errorf("%+v", res)
	}
	rules := got.Runs[0].Tool.Driver.Rules
	if len(rules) != 2 || rules[0].ID != "loc-invalid" || rules[0].Help.Text != "What to do: write the full URL." {
		t.Errorf("rules %+v", rules)
	}

	// A finding about a document as a whole is at 1:1, and a URL given is
	// its own artifact.
	srv := newServer(t, map[string]string{"/empty.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`})
	r = runCLI(t, "", "lint", "-no-robots", "-format", "sarif", srv.URL+"/empty.xml")
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatalf("%v:\n%s", err, r.stdout)
	}
	for _, e := range checkSARIF(log, "sarifLog", "$") {
		t.Error(e)
	}
	want := `"artifactLocation":{"uri":"` + srv.URL + `/empty.xml"},"region":{"startLine":1,"startColumn":1}`
	if !strings.Contains(r.stdout, want) || r.code != exitFailed { // an empty urlset is an error
		t.Errorf("status %d:\n%s\nwant %s", r.code, r.stdout, want)
	}
}

// The check of the schema's requirements fails a log that lacks what
// they require, so that TestLintSARIF can fail.
func TestCheckSARIFFails(t *testing.T) {
	for _, log := range []string{
		`{"runs":[]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"a"}]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"level":"fatal"}]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a"},"region":{"startLine":0}}}]}]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"a","help":{}}]}}}]}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(log), &v); err != nil {
			t.Fatal(err)
		}
		if len(checkSARIF(v, "sarifLog", "$")) == 0 {
			t.Errorf("%s passes", log)
		}
	}
}

// Issue 34: sitemap lint -format markdown writes a table of the codes
// found and their first places, with what a document wrote escaped, in at
// most 65,536 characters however many findings there are.
func TestLintMarkdown(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	b.WriteString("<url><loc>https://example.com/a|b&lt;script&gt;alert(1)&lt;/script&gt;`x`[l](javascript:alert(2))</loc><changefreq>**bold**</changefreq></url>\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "<url><loc>/rel/%d/%s</loc><priority>%d</priority></url>\n", i, strings.Repeat("x", 400), i+2)
	}
	b.WriteString("</urlset>")
	path := writeLintFile(t, b.String())
	r := runCLI(t, "", "lint", "-no-robots", "-format", "markdown", "-base", "https://example.com/sitemap.xml", path)
	if r.code != 1 {
		t.Errorf("exit status %d, want 1", r.code)
	}
	if n := utf8.RuneCountInString(r.stdout); n > 65536 {
		t.Errorf("%d characters", n)
	}
	for _, want := range []string{
		"### sitemap lint: 6002 errors, 0 warnings, 0 notes",
		"| `loc-invalid` | error | 3000 | write the full URL |",
		"| `changefreq-invalid` | error | 1 | write one of them, in lower case |",
		// The URL in a code span: shown as written, no tag, no link.
		"``https://example.com/a|b<script>alert(1)</script>`x`[l](javascript:alert(2))``",
		// The message escaped.
		`invalid \<changefreq\> value "\*\*bold\*\*"`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the summary lacks %s:\n%.3000s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "\n<") || strings.Contains(r.stdout, "](javascript") && !strings.Contains(r.stdout, "``https") {
		t.Error("a tag or a link of the document in the summary")
	}
}

// The summary stays within 65,536 characters when the places of the
// codes found would take more, and says how many it left out.
func TestMarkdownCapped(t *testing.T) {
	var b strings.Builder
	bw := bufio.NewWriter(&b)
	m := &markdownWriter{w: bw, artifact: func(d string) string { return d }}
	for i := range 200 {
		for j := range 3 {
			m.write(sitemap.Finding{Code: sitemap.Code(fmt.Sprint("code-", i)), Severity: sitemap.SeverityWarning,
				Document: "https://example.com/sitemap.xml", Line: j + 1, Column: 1,
				Message: strings.Repeat("é", 1000), URL: "https://example.com/" + strings.Repeat("ü", 1000)})
		}
	}
	m.end()
	bw.Flush()
	if n := utf8.RuneCountInString(b.String()); n > 65536 || n < 60000 {
		t.Errorf("%d characters, want close to 65,536 but no more", n)
	}
	if !strings.Contains(b.String(), "more places are left out") {
		t.Error("the places left out are not counted")
	}
}

// The SARIF of the samples with findings meets the schema: an index
// whose locations are relative (loc-invalid at their lines), a robots.txt
// (a format read by line: at 1:1) and a sitemap in Latin-1 (encoding, a
// finding about the document as a whole). Each sample is named by its
// path in this repository.
func TestLintSARIFOfTestdata(t *testing.T) {
	for _, name := range []string{"sitemap-index.xml", "robots.txt", "sitemap-latin1.xml"} {
		r := runCLI(t, "", "lint", "-no-robots", "-format", "sarif", testdata+"/"+name)
		var log map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
			t.Fatalf("%s: %v:\n%s", name, err, r.stdout)
		}
		for _, e := range checkSARIF(log, "sarifLog", "$") {
			t.Errorf("%s: %s", name, e)
		}
		if !strings.Contains(r.stdout, `{"uri":"testdata/`+name+`","uriBaseId":"%SRCROOT%"}`) || !strings.Contains(r.stdout, `"startLine":`) {
			t.Errorf("%s:\n%s", name, r.stdout)
		}
	}
	// The sitemaps the index lists are read from its directory, and their
	// findings (news-too-old, image-deprecated) are named by their paths
	// in the repository too, whatever the directory the command runs in.
	r := runCLI(t, "", "lint", "-format", "sarif", testdata+"/sitemap-index.xml")
	for _, name := range []string{"sitemap-pages.xml", "sitemap-posts.xml"} {
		if !strings.Contains(r.stdout, `{"uri":"testdata/`+name+`","uriBaseId":"%SRCROOT%"}`) {
			t.Errorf("no finding of %s by its path in the repository:\n%s", name, r.stdout)
		}
	}
	if strings.Contains(r.stdout, `"uri":"https://local.invalid`) || strings.Contains(r.stdout, `"uri":"../`) {
		t.Errorf("a document named otherwise than by its path in the repository:\n%s", r.stdout)
	}
}

// An artifact's URI is a URI reference RFC 3986 allows, however the URL
// of the document was written: the schema of SARIF asks for one, and the
// URL of a document keeps what its sitemap wrote in its query.
func TestSARIFURIReference(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://x.example/q.xml?a=1&b=<x> y#f#g", "https://x.example/q.xml?a=1&b=%3Cx%3E%20y#f%23g"},
		{"https://x.example/%zz%4", "https://x.example/%25zz%254"},
		{"https://[::1]:8080/ü[1].xml", "https://[::1]:8080/%C3%BC%5B1%5D.xml"},
		{"https://x.example/a%20b.xml|\\", "https://x.example/a%20b.xml%7C%5C"},
		{"./C:%5Cwin.xml", "./C:%5Cwin.xml"},
		{"file:///tmp/a%20b.xml", "file:///tmp/a%20b.xml"},
	} {
		if got := uriReference(c.in); got != c.want {
			t.Errorf("uriReference(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	var b strings.Builder
	w := bufio.NewWriter(&b)
	s := newSARIFWriter(w, func(d string) string { return d })
	s.write(sitemap.Finding{Code: sitemap.CodeNotSitemap, Severity: sitemap.SeverityError, Document: "https://x.example/q.xml?b=<x>", Message: "m"})
	s.end()
	w.Flush()
	if !strings.Contains(b.String(), `"uri":"https://x.example/q.xml?b=%3Cx%3E"`) {
		t.Errorf("SARIF:\n%s", b.String())
	}
}

// A mention or an issue's number in what a document wrote notifies
// nobody and links nothing: GitHub finds them in the rendered text, where
// a backslash before the @ was gone (github/markup#1168).
func TestMarkdownNoMention(t *testing.T) {
	got := mdEscape("ask @octocat or @org/team about #12 and x/y#3, mail a@b.example")
	if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(got, "@\u200b", ""), "#\u200b", ""), "@") || strings.Count(got, "@\u200b") != 3 || strings.Count(got, "#\u200b") != 2 {
		t.Errorf("mdEscape: %q", got)
	}
}
