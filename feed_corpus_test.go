package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
	"golang.org/x/text/encoding/htmlindex"
)

// The feeds and text sitemaps of the real-world corpus in ../shared/corpus
// (read-only, not part of the repository): every document of kind rss,
// atom, text and other is parsed in both modes, at the neutral base URL
// https://example.com/<file> (the MANIFEST gives no URL a document was
// served from).
//
// What each document yields is checked three ways:
//   - against feedCorpusTable: the URLs and the dated URLs counted apart
//     from this package (Python's ElementTree and a line scan, run once by
//     hand), and the documents that are broken, with the reason;
//   - against the reference parsers where they agree (they read only
//     urlsets and indexes: a feed or a text sitemap is "skipped" by both,
//     an RDF or Atom 0.3 root is "other" to them), the differences by
//     design being recorded in the table;
//   - against an oracle in this file that reads the links with
//     encoding/xml's Unmarshal (a feed) or by splitting lines (a text),
//     for the locations themselves.

// feedCorpusDoc is what a document of the corpus is expected to yield.
type feedCorpusDoc struct {
	urls, dated int // URLs in tolerant mode, and how many of them have a LastMod
	strictURLs  int // URLs in strict mode; the links rejected are reported
	// broken is why the document is no sitemap or feed at all: a
	// *ParseError in both modes, and nothing else.
	broken string
	// brokenStrict is why strict mode rejects the document as a whole
	// (STRICT-13) while tolerant mode reads past its mistakes.
	brokenStrict string
	// differs is why the locations differ by design from those on which
	// both reference parsers agree.
	differs string
}

// The reasons that recur in the table.
const (
	feedCorpusNotXML       = "a Jekyll Liquid template (YAML front matter, {% %} tags) as stored, not XML; being no XML it is read as text, and no line begins with http:// or https:// (FORMAT-3)"
	feedCorpusPeersNoFeeds = "the reference parsers read urlset and sitemapindex roots only and find no location here; the items of RSS 1.0 (RDF) and the entries of Atom 0.3 are read here (issue 4)"
)

// feedCorpusTable has a row for every document of kind rss, atom, text and
// other in MANIFEST.tsv, by its file name. A strict count below the
// tolerant one is that of a feed with relative links, which strict mode
// rejects (STRICT-2).
var feedCorpusTable = map[string]feedCorpusDoc{
	"007-other.xml":   {broken: feedCorpusNotXML},
	"009-text.txt":    {urls: 261, strictURLs: 261},
	"014-text.txt":    {urls: 5, strictURLs: 5},
	"027-rss.xml":     {urls: 1, dated: 1, strictURLs: 1},
	"028-rss.xml":     {urls: 6, dated: 6, strictURLs: 6},
	"045-rss.xml":     {urls: 4, dated: 4, strictURLs: 0},
	"046-rss.xml":     {urls: 7, dated: 7, strictURLs: 0},
	"046-rss.xml.gz":  {urls: 7, dated: 7, strictURLs: 0},
	"052-other.xml":   {broken: feedCorpusNotXML},
	"060-rss.xml":     {urls: 0, strictURLs: 0}, // a channel without items
	"062-atom.xml":    {urls: 3, dated: 3, strictURLs: 3},
	"064-atom.xml":    {urls: 5, dated: 5, strictURLs: 5},
	"064-atom.xml.gz": {urls: 5, dated: 5, strictURLs: 5},
	"068-other.xml":   {broken: feedCorpusNotXML},
	"069-atom.xml":    {urls: 3, dated: 3, strictURLs: 3},
	"083-rss.html":    {broken: "an RSS feed mangled by an HTML scraper: its declaration commented out, wrapped in <html><body>; the root <html> is not a sitemap (FORMAT-3)"},
	"088-atom.xml":    {urls: 4, dated: 4, strictURLs: 0},
	"089-rss.xml":     {urls: 4, dated: 4, strictURLs: 0},
	"090-atom.xml":    {urls: 10, dated: 10, strictURLs: 10},
	"092-atom.xml":    {urls: 9, dated: 9, strictURLs: 9},
	"093-rss.xml":     {urls: 15, dated: 0, strictURLs: 15}, // RSS 2.0 dated by <dc:date>, not <pubDate>: no date (RSS-1)
	"094-other.rdf":   {urls: 15, dated: 15, strictURLs: 15, differs: feedCorpusPeersNoFeeds},
	"095-rss.xml":     {urls: 15, dated: 0, strictURLs: 15}, // RSS 0.91 has no item dates
	"096-rss.xml":     {urls: 1, dated: 0, strictURLs: 1},
	"097-other.xml":   {urls: 15, dated: 15, strictURLs: 15, differs: feedCorpusPeersNoFeeds},
	"098-rss.xml":     {urls: 15, dated: 15, strictURLs: 15},
	"099-other.rdf":   {urls: 1, dated: 1, strictURLs: 1, differs: feedCorpusPeersNoFeeds},
	"102-atom.xml":    {urls: 5, dated: 5, strictURLs: 5}, // an RSS 2.0 feed despite its kind
	"114-text.txt":    {urls: 7, strictURLs: 7},
	"114-text.txt.gz": {urls: 7, strictURLs: 7},
	"115-text.txt":    {urls: 2, strictURLs: 2},
	"116-text.txt":    {urls: 6, strictURLs: 6},
	"118-text.txt":    {broken: "a list of relative paths (index.html, models/x.html): no line begins with http:// or https://, so it is not a text sitemap (TEXT-1, FORMAT-3)"},
	"126-other.xml":   {urls: 0, strictURLs: 0, brokenStrict: "a raw & in a <title> is not well-formed XML"}, // items have <g:link> only, no <link> (RSS-1, RSS-2)
	"131-atom.xml":    {urls: 4, dated: 4, strictURLs: 4},
	"132-other.rdf":   {urls: 25, dated: 0, strictURLs: 25, differs: feedCorpusPeersNoFeeds},
	"133-rss.rdf":     {urls: 0, strictURLs: 0}, // items have a <guid> and no <link> (RSS-2)
	"141-atom.xml":    {urls: 10, dated: 10, brokenStrict: "the undefined entity &nbsp; and unclosed <img> tags in the content are not well-formed XML"},
	"142-other.xml":   {broken: "Baidu's BBS sitemap dialect, root <document>: not a sitemap (FORMAT-3); the reference parsers take it for an unknown root without locations"},
	"144-text.txt":    {urls: 14, strictURLs: 14},
	"145-text.txt":    {urls: 6, strictURLs: 6},
	"147-text.txt":    {urls: 37, strictURLs: 37},
	"150-rss.xml":     {urls: 9, dated: 9, strictURLs: 9},
	"152-atom.xml":    {urls: 15, dated: 15, strictURLs: 15},
}

// feedCorpusRef is the part of a reference parser's JSON that is read here.
type feedCorpusRef struct {
	Type  string   `json:"type"` // urlset, sitemapindex, robots, other, error or skipped
	Locs  []string `json:"locs"`
	Error *string  `json:"error"`
}

func TestFeedCorpus(t *testing.T) {
	needCorpus(t)
	manifest, err := os.ReadFile(filepath.Join(corpusDir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(manifest))
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("MANIFEST.tsv: %v", err)
	}
	seen := map[string]bool{}
	for _, row := range rows[1:] {
		file, kind := row[0], row[1]
		switch kind {
		case "rss", "atom", "text", "other":
		default:
			continue
		}
		name := path.Base(file)
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			want, ok := feedCorpusTable[name]
			if !ok {
				t.Fatalf("%s (%s) has no row in feedCorpusTable", file, kind)
			}
			raw, err := os.ReadFile(filepath.Join(corpusDir, file))
			if err != nil {
				t.Fatal(err)
			}
			feedCorpusCheck(t, name, raw, want)
		})
	}
	for name := range feedCorpusTable {
		if !seen[name] {
			t.Errorf("feedCorpusTable has a row for %s, which is no feed or text document of the MANIFEST", name)
		}
	}
}

func feedCorpusCheck(t *testing.T, name string, raw []byte, want feedCorpusDoc) {
	base := "https://example.com/" + name
	content := string(raw)
	got := map[bool][]string{}
	for _, m := range feedModes {
		s, err := sitemap.New().SetStrict(m.strict).Parse(base, &content)
		broken := want.broken
		if m.strict && broken == "" {
			broken = want.brokenStrict
		}
		var perr *sitemap.ParseError
		if broken != "" {
			if !errors.As(err, &perr) {
				t.Errorf("%s: Parse: %v, want a *ParseError (%s)", m.name, err, broken)
			}
			if n := s.GetURLCount(); n != 0 {
				t.Errorf("%s: %d URLs from a broken document", m.name, n)
			}
			t.Logf("%s: broken as expected: %v", m.name, err)
			continue
		}
		if err != nil {
			t.Errorf("%s: Parse: %v", m.name, err)
			continue
		}
		urls, dated, nValidation := s.GetURLCount(), 0, 0
		for _, u := range s.GetURLs() {
			got[m.strict] = append(got[m.strict], u.Loc)
			if u.LastMod != nil {
				dated++
			}
			feedCheckBare(t, u)
		}
		for _, err := range s.GetErrors() {
			var verr *sitemap.ValidationError
			if !errors.As(err, &verr) {
				t.Errorf("%s: unexpected error %v", m.name, err)
				continue
			}
			nValidation++
			if !m.strict {
				t.Errorf("%s: unexpected error %v", m.name, err)
			}
		}
		wantURLs := want.urls
		if m.strict {
			wantURLs = want.strictURLs
			// Every link strict mode rejects is reported.
			if nValidation != want.urls-want.strictURLs {
				t.Errorf("%s: %d validation errors, want %d", m.name, nValidation, want.urls-want.strictURLs)
			}
		}
		if urls != int64(wantURLs) {
			t.Errorf("%s: %d URLs, want %d", m.name, urls, wantURLs)
		}
		if !m.strict && dated != want.dated {
			t.Errorf("%s: %d URLs with a date, want %d", m.name, dated, want.dated)
		}
		t.Logf("%s: %d URLs, %d dated, %d validation errors", m.name, urls, dated, nValidation)
	}

	ours := feedCanonSet(got[false])
	if want.broken == "" {
		if oracle, ok := feedCorpusOracle(t, raw, base); ok {
			if !feedSetEqual(ours, oracle) {
				t.Errorf("tolerant locations differ from the oracle's:\n ours only %q\n oracle only %q", feedSetMinus(ours, oracle), feedSetMinus(oracle, ours))
			}
		}
	}

	// The reference parsers, where they agree.
	refs, agree := feedCorpusRefs(t, name, base)
	switch {
	case !agree:
		if want.differs != "" {
			t.Errorf("the table says the locations differ from the reference parsers', which do not agree")
		}
	case feedSetEqual(ours, refs) && want.differs != "":
		t.Errorf("the table says the locations differ from the reference parsers' (%s), but they are the same", want.differs)
	case !feedSetEqual(ours, refs) && want.differs == "":
		t.Errorf("the locations differ from those both reference parsers give:\n ours only %q\n theirs only %q", feedSetMinus(ours, refs), feedSetMinus(refs, ours))
	}
}

// feedCorpusRefs returns the locations on which both reference parsers
// agree; agree is false when they do not, or when either has no parser for
// the document's kind. A reference parser that failed found no location.
func feedCorpusRefs(t *testing.T, name, base string) (locs map[string]bool, agree bool) {
	var sets []map[string]bool
	for _, peer := range []string{"scrapy", "sitemapjs"} {
		b, err := os.ReadFile(filepath.Join(corpusDir, "reference", peer, name+".json"))
		if err != nil {
			t.Errorf("reference %s: %v", peer, err)
			return nil, false
		}
		var ref feedCorpusRef
		if err := json.Unmarshal(b, &ref); err != nil {
			t.Errorf("reference %s: %v", peer, err)
			return nil, false
		}
		if ref.Type == "skipped" {
			return nil, false
		}
		var resolved []string
		for _, l := range ref.Locs {
			resolved = append(resolved, feedResolve(base, l))
		}
		sets = append(sets, feedCanonSet(resolved))
	}
	return sets[0], feedSetEqual(sets[0], sets[1])
}

// feedCorpusOracle reads the page locations of a document apart from the
// package: with encoding/xml's Unmarshal for a feed, by splitting lines for
// a text sitemap. ok is false when it cannot read the document.
func feedCorpusOracle(t *testing.T, raw []byte, base string) (map[string]bool, bool) {
	if len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		z, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Errorf("oracle: %v", err)
			return nil, false
		}
		if raw, err = io.ReadAll(z); err != nil {
			t.Errorf("oracle: %v", err)
			return nil, false
		}
	}
	raw = bytes.TrimPrefix(raw, []byte("\xEF\xBB\xBF"))
	var links []string
	if trimmed := bytes.TrimLeft(raw, " \t\r\n"); len(trimmed) == 0 || trimmed[0] != '<' {
		for line := range strings.Lines(string(raw)) {
			line = strings.TrimSpace(line)
			lower := strings.ToLower(line)
			if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
				links = append(links, line)
			}
		}
		return feedCanonSet(links), true
	}
	d := xml.NewDecoder(bytes.NewReader(raw))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		enc, err := htmlindex.Get(label)
		if err != nil {
			return nil, err
		}
		return enc.NewDecoder().Reader(r), nil
	}
	var doc feedOracleDoc
	if err := d.Decode(&doc); err != nil {
		t.Logf("oracle cannot read the document: %v", err)
		return nil, false
	}
	const nsRDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	ns := doc.XMLName.Space
	switch doc.XMLName.Local {
	case "rss":
		for _, it := range doc.Channel.Items {
			if it.XMLName.Space != ns {
				continue
			}
			for _, l := range it.Links {
				if l.XMLName.Space == ns {
					links = append(links, l.Value)
					break
				}
			}
		}
	case "RDF":
		for _, it := range doc.Items {
			if it.XMLName.Space == nsRDF {
				continue
			}
			for _, l := range it.Links {
				if l.XMLName.Space == it.XMLName.Space {
					links = append(links, l.Value)
					break
				}
			}
		}
	case "feed":
		for _, e := range doc.Entries {
			if e.XMLName.Space != ns {
				continue
			}
			for _, l := range e.Links {
				if l.XMLName.Space != ns || l.Rel != nil && *l.Rel != "alternate" {
					continue
				}
				if l.Href != nil {
					links = append(links, *l.Href)
				}
				break
			}
		}
	}
	var locs []string
	for _, l := range links {
		if l = strings.TrimSpace(l); l != "" {
			locs = append(locs, feedResolve(base, l))
		}
	}
	return feedCanonSet(locs), true
}

type feedOracleText struct {
	XMLName xml.Name
	Value   string `xml:",chardata"`
}

type feedOracleItem struct {
	XMLName xml.Name
	Links   []feedOracleText `xml:"link"`
}

type feedOracleDoc struct {
	XMLName xml.Name
	Channel struct {
		Items []feedOracleItem `xml:"item"`
	} `xml:"channel"`
	Items   []feedOracleItem `xml:"item"` // RSS 1.0: the items are the root's
	Entries []struct {
		XMLName xml.Name
		Links   []struct {
			XMLName xml.Name
			Rel     *string `xml:"rel,attr"`
			Href    *string `xml:"href,attr"`
		} `xml:"link"`
	} `xml:"entry"`
}

// feedResolve resolves ref against base the way a browser would, or keeps
// it as it is when it is no URL.
func feedResolve(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	r, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return ref
	}
	return b.ResolveReference(r).String()
}

// feedCanonSet is the set of locs with their percent-escapes decoded, so
// that locations encoded to different degrees compare equal.
func feedCanonSet(locs []string) map[string]bool {
	set := map[string]bool{}
	for _, l := range locs {
		if u, err := url.PathUnescape(l); err == nil {
			l = u
		}
		set[l] = true
	}
	return set
}

func feedSetEqual(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func feedSetMinus(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	if len(out) > 5 {
		out = append(out[:5], fmt.Sprintf("… %d more", len(out)-5))
	}
	return out
}
