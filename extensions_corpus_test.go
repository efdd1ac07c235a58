package sitemap_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

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
