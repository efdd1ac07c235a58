package sitemap_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"golang.org/x/text/encoding/htmlindex"
)

// corpusDir is the real-world corpus, read-only, beside the repository.
const corpusDir = "../shared/corpus"

// needCorpus skips a test when the corpus is not beside the repository, as
// on a checkout of its own; under CI=true, where it is always laid beside
// the checkout, a missing corpus fails the test instead, so that the corpus
// tests cannot pass by not running.
func needCorpus(t *testing.T) {
	t.Helper()
	_, err := os.Stat(filepath.Join(corpusDir, "MANIFEST.tsv"))
	switch {
	case err == nil:
	case os.Getenv("CI") == "true":
		t.Fatalf("corpus not found at %s (%v): CI lays it beside the checkout", corpusDir, err)
	default:
		t.Skipf("corpus not found at %s (%v): it lies beside the repository in CI and on a developer's machine", corpusDir, err)
	}
}

// corpusDiffFile lists every document of the corpus where what we read
// differs from what a reference parser reads, with the rule that decides it.
const corpusDiffFile = "testdata/corpus-differences.md"

// corpusRef is what a reference parser read from one document.
type corpusRef struct {
	Type  string   `json:"type"`
	Error any      `json:"error"`
	Locs  []string `json:"locs"`
}

// usable reports whether the reference read the document at all: it did not
// fail and it has a parser for that kind of document.
func (r corpusRef) usable() bool {
	return r.Error == nil && r.Type != "error" && r.Type != "skipped"
}

// corpusParser is a tolerant instance (the default mode) whose requests for
// the sitemaps a document names all fail at once.
func corpusParser() *sitemap.S {
	return sitemap.New().SetHTTPClient(&http.Client{Transport: &web{}})
}

// corpusBase is the URL a corpus document is read as: the manifest gives no
// site, only the path inside the source repository, so the host is neutral.
// A robots.txt is read by a URL whose last segment is robots.txt, every other
// document by one whose last segment is not.
func corpusBase(kind, sourcePath string) string {
	p := "/" + strings.TrimLeft(sourcePath, "/")
	last := strings.ToLower(path.Base(p))
	switch {
	case kind == "robots" && last != "robots.txt":
		p = path.Join(path.Dir(p), "robots.txt")
	case kind != "robots" && last == "robots.txt":
		p += ".txt"
	}
	return (&url.URL{Scheme: "https", Host: "example.com", Path: p}).String()
}

// readManifest maps each document file name to its base URL.
func readManifest(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(corpusDir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatalf("corpus manifest: %v", err)
	}
	defer f.Close()
	bases := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for first := true; sc.Scan(); first = false {
		cols := strings.Split(sc.Text(), "\t")
		if first || len(cols) < 4 {
			continue
		}
		bases[path.Base(cols[0])] = corpusBase(cols[1], cols[3])
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("corpus manifest: %v", err)
	}
	return bases
}

// ourLocs is the set of locations we read from a document: the Locs of its
// URLs (urlset, feeds, text) and of the sitemaps it lists (index, robots.txt).
func ourLocs(base string, content string) (locs []string, panicked any) {
	defer func() { panicked = recover() }()
	s, _ := corpusParser().Parse(base, &content)
	for _, err := range s.GetErrors() {
		var ce *sitemap.ConfigError
		if errors.As(err, &ce) {
			panic(err) // the instance is misconfigured: nothing was read
		}
	}
	for _, u := range s.GetURLs() {
		locs = append(locs, u.Loc)
	}
	for _, sm := range s.GetSitemaps() {
		locs = append(locs, sm.Loc)
	}
	return setOf(locs), nil
}

// normaliseRef runs each location a reference read through a one-entry
// document of the same kind, read by our library with the same base URL, so
// that theirs and ours are compared under the same rules (resolution against
// the base, percent-encoding, Punycode). A location our library rejects drops
// out.
func normaliseRef(base string, r corpusRef) []string {
	var out []string
	for _, loc := range r.Locs {
		var b strings.Builder
		xml.EscapeText(&b, []byte(loc))
		var doc, docURL string
		switch r.Type {
		case "robots":
			doc, docURL = "Sitemap: "+loc+"\n", base
		case "sitemapindex":
			doc = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>` +
				b.String() + `</loc></sitemap></sitemapindex>`
			docURL = base
		default:
			doc = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` +
				b.String() + `</loc></url></urlset>`
			docURL = base
		}
		locs, p := ourLocs(docURL, doc)
		if p != nil {
			panic(p)
		}
		out = append(out, locs...)
	}
	return setOf(out)
}

func setOf(locs []string) []string {
	slices.Sort(locs)
	return slices.Compact(locs)
}

// corpusDiff is one row of the differences table.
type corpusDiff struct {
	file                  string
	ours, scrapy, sitemap string // the first word of each cell
}

// readCorpusDiffs reads the Markdown table of corpus-differences.md: one row
// per document, the cells of what each parser reads starting with the number
// of locations, or "error"/"skipped" for a reference that did not read it.
func readCorpusDiffs(t *testing.T) map[string]corpusDiff {
	t.Helper()
	data, err := os.ReadFile(corpusDiffFile)
	if err != nil {
		t.Fatalf("differences table: %v", err)
	}
	diffs := map[string]corpusDiff{}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 5 {
			t.Fatalf("differences table: row with %d cells: %s", len(cells), line)
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		file := strings.Trim(cells[0], "`")
		if file == "file" || strings.HasPrefix(file, "---") {
			continue
		}
		if strings.TrimSpace(cells[4]) == "" {
			t.Errorf("differences table: %s gives no rule or reason", file)
		}
		first := func(s string) string { return strings.Fields(s + " ?")[0] }
		if _, dup := diffs[file]; dup {
			t.Errorf("differences table: %s listed twice", file)
		}
		diffs[file] = corpusDiff{file, first(cells[1]), first(cells[2]), first(cells[3])}
	}
	return diffs
}

// refCell is how the table names what a reference read: the number of
// locations after our normalisation, or why there is none.
func refCell(r corpusRef, norm []string) string {
	switch {
	case r.Type == "skipped":
		return "skipped"
	case !r.usable():
		return "error"
	}
	return strconv.Itoa(len(norm))
}

// TestCorpusAgreement reads every document of the real-world corpus and
// compares the locations we read with what Scrapy and sitemap.js read. Where
// both references agree, we must read the same set; every document where we
// differ from a reference that read it is listed, with the deciding rule, in
// testdata/corpus-differences.md.
func TestCorpusAgreement(t *testing.T) {
	t.Parallel() // it measures no heap: on a second core beside the others
	needCorpus(t)
	docsDir := filepath.Join(corpusDir, "docs")
	entries, err := os.ReadDir(docsDir)
	if err != nil {
		t.Fatal(err)
	}
	bases := readManifest(t)
	diffs := readCorpusDiffs(t)
	var both, one, none, skipped int
	seen := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			continue
		}
		t.Run(name, func(t *testing.T) {
			content, err := os.ReadFile(filepath.Join(docsDir, name))
			if err != nil {
				t.Fatal(err)
			}
			base, ok := bases[name]
			if !ok {
				base = "https://example.com/" + name
			}
			ours, p := ourLocs(base, string(content))
			if p != nil {
				t.Fatalf("Parse(%q) panicked: %v", base, p)
			}
			var refs [2]corpusRef
			for i, peer := range []string{"scrapy", "sitemapjs"} {
				data, err := os.ReadFile(filepath.Join(corpusDir, "reference", peer, name+".json"))
				if err != nil {
					t.Fatalf("reference %s: %v", peer, err)
				}
				if err := json.Unmarshal(data, &refs[i]); err != nil {
					t.Fatalf("reference %s: %v", peer, err)
				}
			}
			norms := [2][]string{normaliseRef(base, refs[0]), normaliseRef(base, refs[1])}
			agree, usable := 0, 0
			for i, r := range refs {
				if r.usable() {
					usable++
					if slices.Equal(ours, norms[i]) {
						agree++
					}
				}
			}
			switch {
			case usable == 0:
				skipped++
			case agree == 2:
				both++
			case agree == 1:
				one++
			default:
				none++
			}
			refsAgree := usable == 2 && slices.Equal(setOf(slices.Clone(refs[0].Locs)), setOf(slices.Clone(refs[1].Locs)))
			differs := agree < usable
			seen[name] = differs
			d, listed := diffs[name]
			switch {
			case differs && !listed:
				t.Errorf("we read %d locations, scrapy %s, sitemap.js %s (both references agree: %v), and %s does not list the difference;\nours:   %q\nscrapy: %q\nsitemap.js: %q",
					len(ours), refCell(refs[0], norms[0]), refCell(refs[1], norms[1]), refsAgree, corpusDiffFile,
					clip(ours), clip(norms[0]), clip(norms[1]))
			case !differs && listed:
				t.Errorf("%s lists a difference, but we now read what every reference reads (%d locations)", corpusDiffFile, len(ours))
			case differs:
				got := corpusDiff{name, strconv.Itoa(len(ours)), refCell(refs[0], norms[0]), refCell(refs[1], norms[1])}
				if got != d {
					t.Errorf("%s says we/scrapy/sitemap.js read %s/%s/%s locations, now %s/%s/%s",
						corpusDiffFile, d.ours, d.scrapy, d.sitemap, got.ours, got.scrapy, got.sitemap)
				}
			}
		})
	}
	for name := range diffs {
		if _, ok := seen[name]; !ok {
			t.Errorf("%s lists %s, which is not in the corpus", corpusDiffFile, name)
		}
	}
	t.Logf("corpus: %d documents; agreeing with both references %d, with one %d, with none %d, skipped (no reference read them) %d",
		len(seen), both, one, none, skipped)
}

// clip keeps a failure message short for a document of thousands of URLs.
func clip(locs []string) []string {
	if len(locs) > 5 {
		return append(slices.Clone(locs[:5]), fmt.Sprintf("… %d more", len(locs)-5))
	}
	return locs
}

// extCorpusRow is one row of MANIFEST.tsv.
type extCorpusRow struct {
	file, kind, notes string
}

func extReadManifest(t *testing.T) []extCorpusRow {
	t.Helper()
	needCorpus(t)
	f, err := os.Open(filepath.Join(corpusDir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []extCorpusRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for first := true; sc.Scan(); first = false {
		if first {
			continue // the header
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 7 {
			t.Fatalf("MANIFEST.tsv: short row %q", sc.Text())
		}
		rows = append(rows, extCorpusRow{file: cols[0], kind: cols[1], notes: cols[6]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// extReference is what a peer parser read of a document: the fields of the
// reference JSON files this test uses. sitemap.js counts the extensions of
// every URL; Scrapy only lists the alternates and the names of the other
// children of a <url>.
type extReference struct {
	Type             string     `json:"type"`
	Error            *string    `json:"error"`
	Locs             []string   `json:"locs"`
	ImagesPerURL     []int      `json:"images_per_url"`
	VideosPerURL     []int      `json:"videos_per_url"`
	NewsPerURL       []int      `json:"news_per_url"`
	AlternatesPerURL []int      `json:"alternates_per_url"`
	ImageLocs        [][]string `json:"image_locs"`
	VideoTitles      [][]string `json:"video_titles"`
	News             []*struct {
		Title           string `json:"title"`
		PublicationDate string `json:"publication_date"`
		Name            string `json:"name"`
		Language        string `json:"language"`
	} `json:"news"`
	// sitemap.js: {lang, url} objects; Scrapy: hrefs. Decoded per peer.
	Alternates      json.RawMessage `json:"alternates"`
	OtherChildNames [][]string      `json:"other_child_names"`
}

func extReadReference(t *testing.T, peer, file string) *extReference {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir, "reference", peer, filepath.Base(file)+".json"))
	if err != nil {
		t.Fatalf("reference of %s by %s: %v", file, peer, err)
	}
	var r extReference
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("reference of %s by %s: %v", file, peer, err)
	}
	return &r
}

// extCounts is what a URL has of each extension.
type extCounts struct{ images, videos, news, alternates int }

func (c extCounts) String() string {
	return fmt.Sprintf("%d images, %d videos, %d news, %d alternates", c.images, c.videos, c.news, c.alternates)
}

func extCountsOf(u *sitemap.URL) extCounts {
	c := extCounts{images: len(u.Images), videos: len(u.Videos), alternates: len(u.Hreflangs)}
	if u.News != nil {
		c.news = 1
	}
	return c
}

// extCorpusByDesign lists the documents of the corpus whose extensions we read
// differently from the reference outputs, with the reason. Each is checked
// for the outcome the reason gives instead.
var extCorpusByDesign = map[string]struct {
	reason string
	check  func(t *testing.T, s *sitemap.S, err error)
}{
	"docs/019-news-utf16.xml": {
		reason: "UTF-16 documents are not supported (spec, Character encoding: Limitations); " +
			"the document is rejected as a whole with a *ParseError, while both peers read the one news entry",
		check: func(t *testing.T, s *sitemap.S, err error) {
			var pe *sitemap.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), "UTF-16") {
				t.Errorf("Parse error = %v, want a *ParseError about UTF-16", err)
			}
			if n := s.GetURLCount(); n != 0 {
				t.Errorf("GetURLCount() = %d, want 0", n)
			}
		},
	},
}

// TestCorpusExtensions reads every image, news, video and hreflang document
// of the corpus in tolerant mode, and compares what it yields with what the
// reference parsers read: the number of URLs, and for every URL the number
// of images, videos, news entries and alternates, the image locations, the
// video titles, the news fields and the alternates. sitemap.js is the
// reference for the extensions; where it failed on a document, Scrapy's
// output is (the URLs, their alternates, and which extensions a URL has).
// A re-encoded copy of a document is compared with the original's reference,
// as the corpus README says its result has to equal the original's.
func TestCorpusExtensions(t *testing.T) { // IMAGE-1, NEWS-1, VIDEO-1, HREFLANG-1, EXTURL-13, ENC
	rows := extReadManifest(t)
	seen := 0
	for _, row := range rows {
		switch row.kind {
		case "image", "news", "video", "hreflang":
		default:
			continue
		}
		seen++
		t.Run(filepath.Base(row.file), func(t *testing.T) {
			content, err := os.ReadFile(filepath.Join(corpusDir, row.file))
			if err != nil {
				t.Fatal(err)
			}
			doc := string(content)
			s, perr := sitemap.New().SetMultiThread(false).Parse("https://example.com/"+filepath.Base(row.file), &doc)

			if d, ok := extCorpusByDesign[row.file]; ok {
				t.Logf("differs by design: %s", d.reason)
				d.check(t, s, perr)
				return
			}
			if perr != nil {
				t.Fatalf("Parse: %v", perr)
			}
			// The extensions of these documents are all well formed enough
			// that tolerant mode reports nothing.
			for _, e := range s.GetErrors() {
				t.Errorf("unexpected error: %v", e)
			}

			refFile := row.file
			if orig, ok := strings.CutPrefix(row.notes, "DERIVED from "); ok && !strings.HasSuffix(row.file, ".gz") {
				refFile, _, _ = strings.Cut(orig, ":")
			}
			js := extReadReference(t, "sitemapjs", refFile)
			scrapy := extReadReference(t, "scrapy", refFile)
			urls := s.GetURLs()
			if js.Type == "urlset" {
				extCompareSitemapJS(t, urls, js)
			} else {
				t.Logf("sitemap.js failed (%s: %v); comparing with Scrapy", js.Type, extDeref(js.Error))
			}
			extCompareScrapy(t, urls, scrapy, js.Type != "urlset")
		})
	}
	if seen == 0 {
		t.Fatal("the manifest lists no image, news, video or hreflang document")
	}
}

func extDeref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func extCompareSitemapJS(t *testing.T, urls []sitemap.URL, ref *extReference) {
	t.Helper()
	if len(urls) != len(ref.Locs) {
		t.Fatalf("%d URLs, sitemap.js read %d", len(urls), len(ref.Locs))
	}
	var alternates [][]struct{ Lang, URL string }
	if err := json.Unmarshal(ref.Alternates, &alternates); err != nil {
		t.Fatalf("sitemap.js alternates: %v", err)
	}
	var total, refTotal extCounts
	for i := range urls {
		u := &urls[i]
		got := extCountsOf(u)
		want := extCounts{ref.ImagesPerURL[i], ref.VideosPerURL[i], ref.NewsPerURL[i], ref.AlternatesPerURL[i]}
		total.images += got.images
		total.videos += got.videos
		total.news += got.news
		total.alternates += got.alternates
		refTotal.images += want.images
		refTotal.videos += want.videos
		refTotal.news += want.news
		refTotal.alternates += want.alternates
		if got != want {
			t.Errorf("URL %d (%s): %v, sitemap.js read %v", i, u.Loc, got, want)
			continue
		}
		for j, im := range u.Images {
			if w := ref.ImageLocs[i][j]; im.Loc != w {
				t.Errorf("URL %d image %d: Loc %q, sitemap.js read %q", i, j, im.Loc, w)
			}
		}
		for j, v := range u.Videos {
			if w := ref.VideoTitles[i][j]; v.Title != w {
				t.Errorf("URL %d video %d: Title %q, sitemap.js read %q", i, j, v.Title, w)
			}
		}
		if n := ref.News[i]; n != nil {
			got := [3]string{u.News.Title, u.News.Publication.Name, u.News.Publication.Language}
			if want := [3]string{n.Title, n.Name, n.Language}; got != want {
				t.Errorf("URL %d news: title, name, language %q, sitemap.js read %q", i, got, want)
			}
			// sitemap.js gives the date as written: an RFC 3339 date, or a
			// day alone, whose zone the spec leaves open (VALUE-11).
			want, err := time.Parse(time.RFC3339Nano, n.PublicationDate)
			switch {
			case len(n.PublicationDate) == len(time.DateOnly):
				if u.News.PublicationDate == nil || u.News.PublicationDate.Format(time.DateOnly) != n.PublicationDate {
					t.Errorf("URL %d news: PublicationDate %v, sitemap.js read %q", i, u.News.PublicationDate, n.PublicationDate)
				}
			case err != nil:
				t.Errorf("URL %d news: sitemap.js date %q is no RFC 3339 date: %v", i, n.PublicationDate, err)
			case u.News.PublicationDate == nil || !u.News.PublicationDate.Equal(want):
				t.Errorf("URL %d news: PublicationDate %v, sitemap.js read %q", i, u.News.PublicationDate, n.PublicationDate)
			}
		}
		for j, l := range u.Hreflangs {
			if w := alternates[i][j]; l.Hreflang != w.Lang || l.Href != w.URL {
				t.Errorf("URL %d alternate %d: %q %q, sitemap.js read %q %q", i, j, l.Hreflang, l.Href, w.Lang, w.URL)
			}
		}
	}
	t.Logf("%d URLs: %v (sitemap.js: %v)", len(urls), total, refTotal)
}

// extCompareScrapy compares the URLs and the alternates with Scrapy's; with
// alone set (sitemap.js failed), also which extensions each URL has.
func extCompareScrapy(t *testing.T, urls []sitemap.URL, ref *extReference, alone bool) {
	t.Helper()
	if ref.Type != "urlset" {
		t.Fatalf("Scrapy read no urlset (%s: %v)", ref.Type, extDeref(ref.Error))
	}
	if len(urls) != len(ref.Locs) {
		t.Fatalf("%d URLs, Scrapy read %d", len(urls), len(ref.Locs))
	}
	var alternates [][]string
	if err := json.Unmarshal(ref.Alternates, &alternates); err != nil {
		t.Fatalf("Scrapy alternates: %v", err)
	}
	for i := range urls {
		u := &urls[i]
		if len(u.Hreflangs) != len(alternates[i]) {
			t.Errorf("URL %d (%s): %d alternates, Scrapy read %d", i, u.Loc, len(u.Hreflangs), len(alternates[i]))
			continue
		}
		for j, l := range u.Hreflangs {
			if l.Href != alternates[i][j] {
				t.Errorf("URL %d alternate %d: Href %q, Scrapy read %q", i, j, l.Href, alternates[i][j])
			}
		}
		if !alone {
			continue
		}
		c := extCountsOf(u)
		has := map[string]bool{}
		for _, name := range ref.OtherChildNames[i] {
			has[name] = true
		}
		for _, x := range []struct {
			name string
			n    int
		}{{"image", c.images}, {"video", c.videos}, {"news", c.news}} {
			if has[x.name] != (x.n > 0) {
				t.Errorf("URL %d (%s): %d %s elements read, Scrapy saw <%s> children: %v", i, u.Loc, x.n, x.name, x.name, has[x.name])
			}
		}
	}
}

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
