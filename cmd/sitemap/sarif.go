package main

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gositemap/sitemap"
)

// This file is sitemap lint -format sarif: the findings as one run of a
// SARIF 2.1.0 log, which GitHub code scanning reads. The results are
// written as they come; the rules of the codes found, once the last is.

// The places of SARIF 2.1.0.
const (
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifVersion = "2.1.0"
	codeDocs     = "https://pkg.go.dev/github.com/gositemap/sitemap#Code"
)

// sarifWriter writes a SARIF log: the head, then a result a finding, then
// the tool with the rules of the codes found.
type sarifWriter struct {
	w        *bufio.Writer
	artifact func(document string) string
	codes    []sitemap.Code // the codes found, in the order found
	n        int
	// doc and uri are the last document written and its artifact's URI:
	// a file's asks the file system where its repository is.
	doc, uri string
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	Help                 sarifMessage `json:"help"`
	HelpURI              string       `json:"helpUri"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

// srcRoot is the base of an artifact's URI relative to the repository.
const srcRoot = "%SRCROOT%"

func newSARIFWriter(w *bufio.Writer, artifact func(string) string) *sarifWriter {
	w.WriteString(`{"$schema":"` + sarifSchema + `","version":"` + sarifVersion + `","runs":[{"results":[`)
	return &sarifWriter{w: w, artifact: artifact}
}

func (s *sarifWriter) write(f sitemap.Finding) {
	if !slices.Contains(s.codes, f.Code) {
		s.codes = append(s.codes, f.Code)
	}
	msg := f.Message
	if f.URL != "" {
		msg += " (" + f.URL + ")"
	}
	if s.uri == "" || f.Document != s.doc {
		s.doc, s.uri = f.Document, uriReference(s.artifact(f.Document))
	}
	uri := s.uri
	art := sarifArtifact{URI: uri}
	if relative(uri) {
		art.URIBaseID = srcRoot
	}
	// A finding about a document as a whole has no place (line 0): it is
	// at the start of the document. Any other, of an XML document or of a
	// line of a text sitemap or a robots.txt, is at its line and column.
	line, col := max(f.Line, 1), max(f.Column, 1)
	if f.Line == 0 {
		col = 1
	}
	r := sarifResult{RuleID: string(f.Code), Level: sarifLevel(f.Severity), Message: sarifMessage{msg},
		Locations: []sarifLocation{{sarifPhysical{art, sarifRegion{line, col}}}}}
	if s.n > 0 {
		s.w.WriteByte(',')
	}
	s.n++
	s.encode(r)
}

func (s *sarifWriter) end() {
	rules := make([]sarifRule, 0, len(s.codes))
	for _, code := range s.codes {
		what, todo := code.Help()
		r := sarifRule{ID: string(code), ShortDescription: sarifMessage{what}, Help: sarifMessage{"What to do: " + todo + "."}, HelpURI: codeDocs}
		if what == "" {
			r.ShortDescription.Text, r.Help.Text = string(code), string(code)
		}
		r.DefaultConfiguration.Level = sarifLevel(code.Severity())
		rules = append(rules, r)
	}
	s.w.WriteString(`],"tool":{"driver":{"name":"sitemap lint","informationUri":"https://github.com/gositemap/sitemap","rules":`)
	s.encode(rules)
	s.w.WriteString("}}}]}\n")
}

// encode writes v as JSON, escaped as every JSON output of the command.
func (s *sarifWriter) encode(v any) {
	var b strings.Builder
	enc := newJSONEncoder(&b)
	enc.Encode(v)
	s.w.WriteString(strings.TrimSuffix(b.String(), "\n"))
}

// sarifLevel is the level of a result of severity sev.
func sarifLevel(sev sitemap.Severity) string {
	switch sev {
	case sitemap.SeverityError:
		return "error"
	case sitemap.SeverityWarning:
		return "warning"
	}
	return "note"
}

// uriReference writes s, a URL or a path already written as a URI
// reference, as one that RFC 3986 allows, which the schema of SARIF asks
// of an artifact's URI: a document's URL keeps what its sitemap wrote in
// its query and fragment (a space, <, a second #, a % that begins no
// escape, a character outside ASCII), each now percent-encoded; what is
// allowed, a valid escape among it, is left as it is.
func uriReference(s string) string {
	var b strings.Builder
	authority := -1 // the end of the authority, when s has one
	if i := strings.Index(s, "://"); i > 0 && !strings.ContainsAny(s[:i], "/?#") {
		authority = i + 3 + strings.IndexAny(s[i+3:]+"/", "/?#")
	}
	fragment := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~:/?@!$&'()*+,;=", c) >= 0)
		switch {
		case c == '#' && !fragment:
			ok, fragment = true, true
		case (c == '[' || c == ']') && i < authority:
			ok = true
		case c == '%':
			ok = i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
		}
		if ok {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// relative reports whether uri is a relative reference: a path in the
// repository.
func relative(uri string) bool {
	u, err := url.Parse(uri)
	return err == nil && u.Scheme == "" && !strings.HasPrefix(uri, "/")
}

// artifactOf returns where the findings of a document are for SARIF: a
// document read from a file (the FILE given as target, and the sitemaps
// it lists, read from its directory, which the output names by their
// paths) is that file, by its path relative to the root of the git
// repository it is in, or as given when it is in none; every other
// document (and a URL given) is its URL. loc is how the output names the
// document given.
func artifactOf(target, loc string) func(document string) string {
	if isHTTPURL(target) || target == "-" {
		return func(d string) string { return d }
	}
	return func(d string) string {
		if d == loc {
			d = target
		} else if strings.Contains(d, "://") {
			return d // a URL: the file was read at -base, or lists a sitemap by its URL
		}
		return fileArtifact(d)
	}
}

// fileArtifact returns the URI of the file at the path p for SARIF.
func fileArtifact(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return pathURI(filepath.ToSlash(p))
	}
	if root := repoRoot(filepath.Dir(abs)); root != "" {
		if rel, err := filepath.Rel(root, abs); err == nil {
			return pathURI(filepath.ToSlash(rel))
		}
	}
	if filepath.IsAbs(p) {
		u, _ := fileURL(p)
		return u
	}
	return pathURI(filepath.ToSlash(p))
}

// pathURI writes a relative path as a URI reference.
func pathURI(p string) string {
	return (&url.URL{Path: p}).String()
}

// repoRoot returns the directory above dir, or dir, that holds .git; ""
// when there is none.
func repoRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}
