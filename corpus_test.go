package sitemap_test

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
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
	return sitemap.New().SetHTTPClient(&http.Client{Transport: &noNetwork{}})
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
