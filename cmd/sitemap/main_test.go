package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/serverclock"
)

// testdata is the directory of the sample documents, at the root of the
// module.
const testdata = "../../testdata"

type result struct {
	code           int
	stdout, stderr string
}

// runCLI runs the command as a shell would, with stdin as its standard
// input.
func runCLI(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return result{code, stdout.String(), stderr.String()}
}

// lines returns the lines of s, without the last line break.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// lastLine returns the last line of s.
func lastLine(s string) string {
	l := lines(s)
	if len(l) == 0 {
		return ""
	}
	return l[len(l)-1]
}

// server is an httptest server over testdata/, with more documents at the
// paths of extra, which come first. It records the requests it gets.
type server struct {
	*httptest.Server
	mu     sync.Mutex
	paths  []string
	agents []string
}

func newServer(t *testing.T, extra map[string]string) *server {
	t.Helper()
	srv := &server{}
	files := http.FileServer(http.Dir(testdata))
	srv.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		srv.mu.Lock()
		srv.paths = append(srv.paths, r.URL.Path)
		srv.agents = append(srv.agents, r.UserAgent())
		srv.mu.Unlock()
		if doc, ok := extra[r.URL.Path]; ok {
			w.Write([]byte(doc))
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (s *server) requested() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.paths)
}

// The URLs of the index in testdata, in the order its sitemaps list them.
var indexURLs = []string{
	"https://shop.example.com/",
	"https://shop.example.com/products/teapot",
	"https://shop.example.com/about",
	"https://shop.example.com/blog/spring-sale",
	"https://shop.example.com/blog/brewing-guide",
}

// indexArgs returns the two ways to read the index of testdata through srv:
// by its URL, and as a file located on the server with -base.
func indexArgs(srv *server) map[string][]string {
	return map[string][]string{
		"url":  {srv.URL + "/sitemap-index.xml"},
		"file": {"-base", srv.URL + "/", filepath.Join(testdata, "sitemap-index.xml")},
	}
}

func TestIndexText(t *testing.T) {
	srv := newServer(t, nil)
	for name, target := range indexArgs(srv) {
		t.Run(name, func(t *testing.T) {
			r := runCLI(t, "", append([]string{"-sequential"}, target...)...)
			if r.code != 0 {
				t.Fatalf("exit status %d, want 0; stderr:\n%s", r.code, r.stderr)
			}
			if got := lines(r.stdout); !slices.Equal(got, indexURLs) {
				t.Errorf("stdout lines:\n%q\nwant\n%q", got, indexURLs)
			}
			// The file counts as a document, as the index fetched does.
			want := []string{"Summary: 3 documents fetched, 5 URLs, 2 sitemaps listed, 0 errors"}
			if got := lines(r.stderr); !slices.Equal(got, want) {
				t.Errorf("stderr lines: %q, want %q", got, want)
			}
		})
	}
}

// TestIndexConcurrent reads the index with the sitemaps fetched at the same
// time: the URLs are the same, those of a sitemap together.
func TestIndexConcurrent(t *testing.T) {
	srv := newServer(t, nil)
	r := runCLI(t, "", srv.URL+"/sitemap-index.xml")
	if r.code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", r.code, r.stderr)
	}
	got := lines(r.stdout)
	pagesFirst := slices.Equal(got, indexURLs)
	postsFirst := slices.Equal(got, append(slices.Clone(indexURLs[3:]), indexURLs[:3]...))
	if !pagesFirst && !postsFirst {
		t.Errorf("stdout lines: %q, want the URLs of each sitemap together", got)
	}
}

// mustTime parses an RFC 3339 date of the output.
func mustTime(t *testing.T, v any) time.Time {
	t.Helper()
	s, ok := v.(string)
	if !ok {
		t.Fatalf("date %v (%T) is no string", v, v)
	}
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("date %q is not RFC 3339: %v", s, err)
	}
	return tm
}

func checkDate(t *testing.T, what string, v any, want time.Time) {
	t.Helper()
	if got := mustTime(t, v); !got.Equal(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// decodeJSONL decodes the JSON lines of out, one object a line.
func decodeJSONL(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for i, line := range lines(out) {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line %d %q: %v", i+1, line, err)
		}
		objs = append(objs, obj)
	}
	return objs
}

func TestIndexJSONL(t *testing.T) {
	srv := newServer(t, nil)
	for name, target := range indexArgs(srv) {
		t.Run(name, func(t *testing.T) {
			r := runCLI(t, "", append([]string{"-sequential", "-format", "jsonl"}, target...)...)
			if r.code != 0 {
				t.Fatalf("exit status %d; stderr:\n%s", r.code, r.stderr)
			}
			objs := decodeJSONL(t, r.stdout)
			var locs []string
			for _, o := range objs {
				locs = append(locs, o["loc"].(string))
				// The fields of the page are there, null when unset.
				for _, k := range []string{"lastmod", "changefreq", "priority"} {
					if _, ok := o[k]; !ok {
						t.Errorf("%s: no %q field", o["loc"], k)
					}
				}
			}
			if !slices.Equal(locs, indexURLs) {
				t.Fatalf("locs %q, want %q", locs, indexURLs)
			}
			home, teapot, about, sale, guide := objs[0], objs[1], objs[2], objs[3], objs[4]

			checkDate(t, "home lastmod", home["lastmod"], time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC))
			if home["changefreq"] != "daily" || home["priority"] != 1.0 {
				t.Errorf("home changefreq, priority = %v, %v; want daily, 1", home["changefreq"], home["priority"])
			}
			links, _ := home["hreflangs"].([]any)
			if len(links) != 2 {
				t.Fatalf("home hreflangs = %v, want 2 links", home["hreflangs"])
			}
			de := links[1].(map[string]any)
			if de["rel"] != "alternate" || de["hreflang"] != "de" || de["href"] != "https://shop.example.com/de/" {
				t.Errorf("home hreflangs[1] = %v", de)
			}
			for _, k := range []string{"images", "news", "videos"} {
				if _, ok := home[k]; ok {
					t.Errorf("home has %q, which the page has none of", k)
				}
			}

			checkDate(t, "teapot lastmod", teapot["lastmod"], time.Date(2024, 2, 20, 0, 0, 0, 0, time.UTC))
			if teapot["priority"] != 0.8 {
				t.Errorf("teapot priority = %v, want 0.8", teapot["priority"])
			}
			images, _ := teapot["images"].([]any)
			if len(images) != 2 {
				t.Fatalf("teapot images = %v, want 2", teapot["images"])
			}
			im := images[0].(map[string]any)
			if im["loc"] != "https://cdn.example.com/teapot.jpg" || im["title"] != "Cast-iron teapot" || im["caption"] != "" {
				t.Errorf("teapot images[0] = %v", im)
			}

			if about["lastmod"] != nil || about["changefreq"] != "yearly" || about["priority"] != 0.3 {
				t.Errorf("about = %v, want lastmod null, changefreq yearly, priority 0.3", about)
			}

			news, _ := sale["news"].(map[string]any)
			if news == nil {
				t.Fatalf("spring-sale has no news: %v", sale)
			}
			pub := news["publication"].(map[string]any)
			if pub["name"] != "The Teapot Times" || pub["language"] != "en" || news["title"] != "Spring sale: every teapot 20% off" {
				t.Errorf("spring-sale news = %v", news)
			}
			checkDate(t, "news publication_date", news["publication_date"], time.Date(2024, 3, 10, 8, 30, 0, 0, time.UTC))
			checkDate(t, "spring-sale lastmod", sale["lastmod"], time.Date(2024, 3, 10, 8, 30, 0, 0, time.UTC))

			videos, _ := guide["videos"].([]any)
			if len(videos) != 1 {
				t.Fatalf("brewing-guide videos = %v, want 1", guide["videos"])
			}
			v := videos[0].(map[string]any)
			// Every field of a video is there, null or empty when unset.
			wantKeys := []string{"thumbnail_loc", "title", "description", "content_loc", "player_loc", "duration",
				"expiration_date", "rating", "view_count", "publication_date", "family_friendly", "restriction",
				"platform", "requires_subscription", "uploader", "live", "tags"}
			for _, k := range wantKeys {
				if _, ok := v[k]; !ok {
					t.Errorf("video has no %q field", k)
				}
			}
			if len(v) != len(wantKeys) {
				t.Errorf("video has %d fields, want %d: %v", len(v), len(wantKeys), v)
			}
			if v["thumbnail_loc"] != "https://cdn.example.com/brewing.jpg" || v["title"] != "How to brew green tea" ||
				v["content_loc"] != "https://cdn.example.com/brewing.mp4" || v["duration"] != 320.0 ||
				v["family_friendly"] != "yes" || v["rating"] != nil || v["uploader"] != nil {
				t.Errorf("video = %v", v)
			}
			if tags, _ := v["tags"].([]any); len(tags) != 2 || tags[0] != "tea" || tags[1] != "brewing" {
				t.Errorf("video tags = %v, want [tea brewing]", v["tags"])
			}
		})
	}
}

// decodeCSV decodes the CSV of out: the header and the rows.
func decodeCSV(t *testing.T, out string) (header []string, rows [][]string) {
	t.Helper()
	records, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("CSV output: %v\n%s", err, out)
	}
	if len(records) == 0 {
		t.Fatal("no CSV header")
	}
	return records[0], records[1:]
}

func TestIndexCSV(t *testing.T) {
	srv := newServer(t, nil)
	for name, target := range indexArgs(srv) {
		t.Run(name, func(t *testing.T) {
			r := runCLI(t, "", append([]string{"-sequential", "-format", "csv"}, target...)...)
			if r.code != 0 {
				t.Fatalf("exit status %d; stderr:\n%s", r.code, r.stderr)
			}
			header, rows := decodeCSV(t, r.stdout)
			wantHeader := []string{"loc", "lastmod", "changefreq", "priority", "images", "news", "videos", "hreflangs", "sitemap"}
			if !slices.Equal(header, wantHeader) {
				t.Errorf("header %q, want %q", header, wantHeader)
			}
			if len(rows) != len(indexURLs) {
				t.Fatalf("%d rows, want %d", len(rows), len(indexURLs))
			}
			// The dates are compared apart, as instants.
			want := [][]string{
				{indexURLs[0], "", "daily", "1", "0", "0", "0", "2"},
				{indexURLs[1], "", "weekly", "0.8", "2", "0", "0", "0"},
				{indexURLs[2], "", "yearly", "0.3", "0", "0", "0", "0"},
				{indexURLs[3], "", "", "", "0", "1", "0", "0"},
				{indexURLs[4], "", "", "", "0", "0", "1", "0"},
			}
			dates := []time.Time{
				time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC),
				time.Date(2024, 2, 20, 0, 0, 0, 0, time.UTC),
				{},
				time.Date(2024, 3, 10, 8, 30, 0, 0, time.UTC),
				time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC),
			}
			for i, row := range rows {
				if dates[i].IsZero() {
					if row[1] != "" {
						t.Errorf("row %d lastmod %q, want none", i+1, row[1])
					}
				} else {
					checkDate(t, "row lastmod", row[1], dates[i])
				}
				row[1] = ""
				if len(row) != len(wantHeader) {
					t.Fatalf("row %d has %d fields, want %d", i+1, len(row), len(wantHeader))
				}
				checkSitemapColumn(t, srv, name, indexURLs[i], row[8])
				if row = row[:8]; !slices.Equal(row, want[i]) {
					t.Errorf("row %d = %q, want %q", i+1, row, want[i])
				}
			}
		})
	}
}

func TestSitemapsFlag(t *testing.T) {
	srv := newServer(t, nil)
	pages, posts := srv.URL+"/sitemap-pages.xml", srv.URL+"/sitemap-posts.xml"
	pagesDate := time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)
	postsDate := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	index := srv.URL + "/sitemap-index.xml"

	t.Run("text", func(t *testing.T) {
		r := runCLI(t, "", "-sitemaps", index)
		got := lines(r.stdout)
		if r.code != 0 || len(got) != 2 {
			t.Fatalf("exit status %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
		}
		for i, want := range []struct {
			loc  string
			date time.Time
		}{{pages, pagesDate}, {posts, postsDate}} {
			loc, date, ok := strings.Cut(got[i], "\t")
			if !ok || loc != want.loc {
				t.Errorf("line %d = %q, want %s, a tab and its date", i+1, got[i], want.loc)
				continue
			}
			checkDate(t, loc, date, want.date)
		}
	})
	t.Run("jsonl", func(t *testing.T) {
		r := runCLI(t, "", "-sitemaps", "-format", "jsonl", index)
		objs := decodeJSONL(t, r.stdout)
		if r.code != 0 || len(objs) != 2 {
			t.Fatalf("exit status %d, stdout %q", r.code, r.stdout)
		}
		if objs[0]["loc"] != pages || objs[1]["loc"] != posts || len(objs[0]) != 2 {
			t.Errorf("sitemaps = %v", objs)
		}
		checkDate(t, "pages lastmod", objs[0]["lastmod"], pagesDate)
		checkDate(t, "posts lastmod", objs[1]["lastmod"], postsDate)
	})
	t.Run("csv", func(t *testing.T) {
		r := runCLI(t, "", "-sitemaps", "-format", "csv", index)
		header, rows := decodeCSV(t, r.stdout)
		if r.code != 0 || !slices.Equal(header, []string{"loc", "lastmod"}) || len(rows) != 2 {
			t.Fatalf("exit status %d, stdout %q", r.code, r.stdout)
		}
		if rows[0][0] != pages || rows[1][0] != posts {
			t.Errorf("rows = %q", rows)
		}
		checkDate(t, "pages lastmod", rows[0][1], pagesDate)
		checkDate(t, "posts lastmod", rows[1][1], postsDate)
	})
	t.Run("robots.txt without dates", func(t *testing.T) {
		// The robots.txt names the index, which gives no date for it.
		r := runCLI(t, "", "-sitemaps", "-sequential", srv.URL+"/robots.txt")
		got := lines(r.stdout)
		if r.code != 0 || len(got) != 3 || got[0] != index {
			t.Fatalf("exit status %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
		}
		if want := "Summary: 4 documents fetched, 5 URLs, 3 sitemaps listed, 0 errors"; lastLine(r.stderr) != want {
			t.Errorf("summary %q, want %q", lastLine(r.stderr), want)
		}
	})
	t.Run("follow nothing", func(t *testing.T) {
		// The sitemaps are listed, and only the index is fetched.
		r := runCLI(t, "", "-sitemaps", "-follow", "^$", index)
		if r.code != 0 || len(lines(r.stdout)) != 2 {
			t.Fatalf("exit status %d, stdout %q", r.code, r.stdout)
		}
		if want := "Summary: 1 document fetched, 0 URLs, 2 sitemaps listed, 0 errors"; lastLine(r.stderr) != want {
			t.Errorf("summary %q, want %q", lastLine(r.stderr), want)
		}
	})
}

// TestDocuments reads each document of testdata as a file, in every format
// it can be read as.
func TestDocuments(t *testing.T) {
	type page struct {
		loc     string
		lastmod time.Time // zero: none
	}
	teapot, cups, kettle := "https://shop.example.com/products/teapot", "https://shop.example.com/products/tea-cups", "https://shop.example.com/products/kettle"
	sale, guide := "https://shop.example.com/blog/spring-sale", "https://shop.example.com/blog/brewing-guide"
	tests := []struct {
		file  string
		flags []string
		want  []page
	}{
		{"sitemap-pages.xml", nil, []page{
			{indexURLs[0], time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)},
			{indexURLs[1], time.Date(2024, 2, 20, 0, 0, 0, 0, time.UTC)},
			{indexURLs[2], time.Time{}},
		}},
		// The sample of the README's set-up command.
		{"sitemap.xml", nil, []page{
			{indexURLs[0], time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)},
			{teapot, time.Date(2024, 2, 20, 0, 0, 0, 0, time.UTC)},
			{kettle, time.Date(2024, 2, 22, 0, 0, 0, 0, time.UTC)},
			{indexURLs[2], time.Time{}},
		}},
		{"sitemap-products.xml.gz", nil, []page{
			{teapot, time.Date(2024, 2, 20, 0, 0, 0, 0, time.UTC)},
			{cups, time.Date(2024, 2, 21, 0, 0, 0, 0, time.UTC)},
			{kettle, time.Date(2024, 2, 22, 0, 0, 0, 0, time.UTC)},
		}},
		{"feed.atom", nil, []page{
			{sale, time.Date(2024, 3, 10, 8, 30, 0, 0, time.UTC)},
			{guide, time.Date(2024, 1, 5, 11, 0, 0, 0, time.UTC)},
		}},
		// Strict: the tolerant tokenizer of the library auto-closes <link>
		// as HTML does (reported), which breaks RSS in tolerant mode.
		{"feed.rss", []string{"-strict"}, []page{
			{sale, time.Date(2024, 3, 10, 8, 30, 0, 0, time.UTC)},
			{guide, time.Date(2024, 1, 5, 11, 0, 0, 0, time.UTC)},
		}},
		{"sitemap.txt", nil, []page{{indexURLs[0], time.Time{}}, {indexURLs[1], time.Time{}}, {indexURLs[2], time.Time{}}}},
		// ISO-8859-1, transcoded; the é percent-encoded as UTF-8.
		{"sitemap-latin1.xml", nil, []page{{"https://shop.example.com/caf%C3%A9", time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(testdata, tt.file)
			var wantLocs []string
			for _, p := range tt.want {
				wantLocs = append(wantLocs, p.loc)
			}
			wantSummary := "Summary: 1 document fetched, " + count(int64(len(tt.want)), "URL") + ", 0 sitemaps listed, 0 errors"

			r := runCLI(t, "", append(tt.flags, path)...)
			r.stderr = withoutNotes(r.stderr)
			if r.code != 0 || !slices.Equal(lines(r.stdout), wantLocs) || r.stderr != wantSummary+"\n" {
				t.Errorf("text: exit status %d, stdout %q, stderr %q; want 0, %q, %q", r.code, lines(r.stdout), r.stderr, wantLocs, wantSummary)
			}

			r = runCLI(t, "", append(tt.flags, "-format", "jsonl", path)...)
			objs := decodeJSONL(t, r.stdout)
			if r.code != 0 || len(objs) != len(tt.want) {
				t.Fatalf("jsonl: exit status %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
			}
			for i, p := range tt.want {
				if objs[i]["loc"] != p.loc {
					t.Errorf("jsonl line %d loc %v, want %s", i+1, objs[i]["loc"], p.loc)
				}
				if p.lastmod.IsZero() {
					if objs[i]["lastmod"] != nil {
						t.Errorf("jsonl line %d lastmod %v, want null", i+1, objs[i]["lastmod"])
					}
				} else {
					checkDate(t, p.loc, objs[i]["lastmod"], p.lastmod)
				}
			}

			r = runCLI(t, "", append(tt.flags, "-format", "csv", path)...)
			_, rows := decodeCSV(t, r.stdout)
			if r.code != 0 || len(rows) != len(tt.want) {
				t.Fatalf("csv: exit status %d, stdout %q", r.code, r.stdout)
			}
			for i, p := range tt.want {
				if rows[i][0] != p.loc || (rows[i][1] == "") != p.lastmod.IsZero() {
					t.Errorf("csv row %d = %q, want %s with lastmod %v", i+1, rows[i], p.loc, p.lastmod)
				}
			}
		})
	}
}

func TestStdin(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(testdata, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	srv := newServer(t, nil)

	t.Run("text sitemap", func(t *testing.T) {
		r := runCLI(t, read("sitemap.txt"), "-")
		if r.code != 0 || !slices.Equal(lines(r.stdout), indexURLs[:3]) {
			t.Errorf("exit status %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("gzip", func(t *testing.T) {
		r := runCLI(t, read("sitemap-products.xml.gz"), "-format", "csv", "-")
		if _, rows := decodeCSV(t, r.stdout); r.code != 0 || len(rows) != 3 {
			t.Errorf("exit status %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("default base", func(t *testing.T) {
		// Standard input is at file:///dev/stdin: relative locations are
		// reported, and nothing is fetched.
		r := runCLI(t, read("sitemap-index.xml"), "-")
		got := lines(r.stderr)
		if r.code != 0 || len(got) != 3 || !strings.HasPrefix(got[0], "ValidationError: ") || !strings.Contains(got[0], "file") {
			t.Errorf("exit status %d, stderr %q", r.code, got)
		}
		if len(srv.requested()) != 0 {
			t.Errorf("requests %q, want none", srv.requested())
		}
	})
	t.Run("robots.txt at -base", func(t *testing.T) {
		r := runCLI(t, read("robots.txt"), "-sequential", "-base", srv.URL+"/robots.txt", "-")
		if r.code != 0 || !slices.Equal(lines(r.stdout), indexURLs) {
			t.Errorf("exit status %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
		}
		if want := "Summary: 4 documents fetched, 5 URLs, 3 sitemaps listed, 0 errors"; lastLine(r.stderr) != want {
			t.Errorf("summary %q, want %q", lastLine(r.stderr), want)
		}
	})
}

func TestExitStatus(t *testing.T) {
	srv := newServer(t, map[string]string{
		"/broken-child.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
			<sitemap><loc>/missing.xml</loc></sitemap></sitemapindex>`,
		"/page.html": "<html><body>Not a sitemap</body></html>",
	})
	file := filepath.Join(testdata, "sitemap.txt")
	tests := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stderr string // the start of the first line of stderr
	}{
		{"read", "", []string{file}, 0, "Summary: "},
		{"a sitemap it lists is missing", "", []string{srv.URL + "/broken-child.xml"}, 0, `NetworkError: fetch "` + srv.URL + `/missing.xml": unexpected HTTP status 404 Not Found`},
		{"no such file", "", []string{filepath.Join(testdata, "missing.xml")}, 1, "Error: open "},
		{"not found", "", []string{srv.URL + "/missing.xml"}, 1, `NetworkError: fetch "` + srv.URL + `/missing.xml": unexpected HTTP status 404 Not Found`},
		{"not a sitemap", "", []string{srv.URL + "/page.html"}, 1, `ParseError: parse "` + srv.URL + `/page.html": not a sitemap`},
		{"empty input", "", []string{"-"}, 1, `ParseError: parse "file:///dev/stdin": document is empty`},
		{"over the size limit", strings.Repeat("https://example.com/\n", 10), []string{"-max-response-size", "100", "-"}, 1, `ParseError: parse "file:///dev/stdin": content is larger than the limit of 100 bytes`},
		{"fetched over the size limit", "", []string{"-max-response-size", "100", srv.URL + "/sitemap-pages.xml"}, 1, `NetworkError: fetch "` + srv.URL + `/sitemap-pages.xml": `},
		{"help", "", []string{"-h"}, 0, ""},
		{"unknown flag", "", []string{"-depth", "3", file}, 2, "sitemap: flag provided but not defined: -depth"},
		{"bad number", "", []string{"-max-urls", "many", file}, 2, "sitemap: invalid value \"many\" for flag -max-urls"},
		{"unknown format", "", []string{"-format", "xml", file}, 2, `sitemap: invalid value "xml" for flag -format`},
		{"no argument", "", nil, 2, "sitemap: one URL, FILE or - expected, 0 given"},
		{"two arguments", "", []string{file, file}, 2, "sitemap: one URL, FILE or - expected, 2 given"},
		{"-base with a URL", "", []string{"-base", "https://example.com/", srv.URL + "/sitemap.txt"}, 2, "sitemap: -base is for a FILE"},
		{"relative -base", "", []string{"-base", "sitemap.xml", file}, 2, `sitemap: invalid value "sitemap.xml" for flag -base`},
		{"timeout not whole seconds", "", []string{"-timeout", "1500ms", file}, 2, `sitemap: invalid value "1500ms" for flag -timeout: a whole number of seconds expected`},
		{"timeout too long", "", []string{"-timeout", "65536", file}, 2, `sitemap: invalid value "65536" for flag -timeout: at most 65535 seconds`},
		{"timeout 0", "", []string{"-timeout", "0", file}, 2, `ConfigError: config "fetchTimeout": `},
		{"max depth 0", "", []string{"-max-depth", "0", file}, 2, `ConfigError: config "maxDepth": `},
		{"negative max URLs", "", []string{"-max-urls", "-1", file}, 2, `ConfigError: config "maxURLs": `},
		{"negative max sitemaps", "", []string{"-max-sitemaps", "-1", file}, 2, `ConfigError: config "maxSitemaps": `},
		{"negative max concurrency", "", []string{"-max-concurrency", "-1", file}, 2, `ConfigError: config "maxConcurrency": `},
		{"negative max validation errors", "", []string{"-max-validation-errors", "-1", file}, 2, `ConfigError: config "maxValidationErrors": `},
		{"max response size 0", "", []string{"-max-response-size", "0", file}, 2, `ConfigError: config "maxResponseSize": `},
		{"user agent with a control character", "", []string{"-user-agent", "bot\x01", file}, 2, `ConfigError: config "userAgent": `},
		{"bad follow pattern", "", []string{"-follow", "(", file}, 2, `ConfigError: config "follow": `},
		{"bad rules pattern", "", []string{"-rules", "ok", "-rules", "[", file}, 2, `ConfigError: config "rules": `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, tt.stdin, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit status %d, want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			if first, _, _ := strings.Cut(r.stderr, "\n"); !strings.HasPrefix(first, tt.stderr) {
				t.Errorf("stderr starts with %q, want %q", first, tt.stderr)
			}
			if tt.code == 2 && r.stdout != "" {
				t.Errorf("stdout %q, want nothing on bad flags", r.stdout)
			}
			if tt.code == 2 && !strings.HasSuffix(r.stderr, "Run 'sitemap -h' for usage.\n") {
				t.Errorf("stderr %q does not point to -h", r.stderr)
			}
			if tt.code != 2 && tt.stderr != "" && !strings.HasPrefix(lastLine(r.stderr), "Summary: ") {
				t.Errorf("last line of stderr %q, want the summary", lastLine(r.stderr))
			}
		})
	}
}

// TestErrorLines: every error is one line of stderr that begins with its
// type, and the summary counts them.
func TestErrorLines(t *testing.T) {
	srv := newServer(t, map[string]string{
		"/index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
			<sitemap><loc>/missing.xml</loc></sitemap>
			<sitemap><loc>/broken.xml</loc></sitemap>
			<sitemap><loc>/sitemap-pages.xml</loc></sitemap>
			<sitemap><loc>ftp://example.com/sitemap.xml</loc></sitemap>
		</sitemapindex>`,
		"/broken.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc>`,
	})
	r := runCLI(t, "", "-sequential", srv.URL+"/index.xml")
	if r.code != 0 {
		t.Fatalf("exit status %d, want 0; stderr:\n%s", r.code, r.stderr)
	}
	got := lines(r.stderr)
	want := []string{
		`ValidationError: validate "ftp://example.com/sitemap.xml": `,
		`NetworkError: fetch "` + srv.URL + `/missing.xml": unexpected HTTP status 404 Not Found`,
		`ParseError: parse "` + srv.URL + `/broken.xml": document ends inside an entry`,
		"Summary: 3 documents fetched, 3 URLs, 3 sitemaps listed, 3 errors",
	}
	if len(got) != len(want) {
		t.Fatalf("stderr lines:\n%s\nwant %d lines", r.stderr, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("stderr line %d = %q, want it to start with %q", i+1, got[i], want[i])
		}
	}
}

// TestLimitFlags checks each limit flag by its effect on a run through the
// server.
func TestLimitFlags(t *testing.T) {
	srv := newServer(t, map[string]string{
		"/nested-index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
			<sitemap><loc>/sitemap-index.xml</loc></sitemap></sitemapindex>`,
		"/bad.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
			<url><loc>ftp://example.com/a</loc></url><url><loc>ftp://example.com/b</loc></url></urlset>`,
	})
	index := srv.URL + "/sitemap-index.xml"
	tests := []struct {
		name    string
		args    []string
		stdout  []string
		errs    []string // the starts of the error lines
		summary string
	}{
		{"max-urls", []string{"-sequential", "-max-urls", "2", index}, indexURLs[:2],
			[]string{`ParseError: parse "` + index + `": limit of 2 URLs reached`},
			"Summary: 2 documents fetched, 2 URLs, 2 sitemaps listed, 1 error"},
		{"max-sitemaps", []string{"-sequential", "-max-sitemaps", "1", index}, indexURLs[:3],
			[]string{`ParseError: parse "` + index + `": limit of 1 sitemaps reached`},
			"Summary: 2 documents fetched, 3 URLs, 1 sitemap listed, 1 error"},
		{"max-depth", []string{"-max-depth", "1", srv.URL + "/nested-index.xml"}, nil,
			[]string{`ParseError: parse "` + index + `": max recursion depth of 1 reached`},
			"Summary: 2 documents fetched, 0 URLs, 3 sitemaps listed, 1 error"},
		{"max-validation-errors", []string{"-max-validation-errors", "1", srv.URL + "/bad.xml"}, nil,
			// The limit is recorded when it is reached, the errors of the
			// document when the document ends.
			[]string{`ParseError: parse "` + srv.URL + `/bad.xml": `, `ValidationError: validate "ftp://example.com/a": `},
			"Summary: 1 document fetched, 0 URLs, 0 sitemaps listed, 2 errors"},
		{"follow", []string{"-follow", "pages", index}, indexURLs[:3], nil,
			"Summary: 2 documents fetched, 3 URLs, 2 sitemaps listed, 0 errors"},
		{"follow repeated", []string{"-sequential", "-follow", "pages", "-follow", "posts", index}, indexURLs, nil,
			"Summary: 3 documents fetched, 5 URLs, 2 sitemaps listed, 0 errors"},
		{"rules repeated", []string{"-sequential", "-rules", "teapot", "-rules", "/about$", index}, indexURLs[1:3], nil,
			"Summary: 3 documents fetched, 2 URLs, 2 sitemaps listed, 0 errors"},
		{"max-concurrency", []string{"-sequential", "-max-concurrency", "1", index}, indexURLs, nil,
			"Summary: 3 documents fetched, 5 URLs, 2 sitemaps listed, 0 errors"},
		{"strict", []string{"-strict", srv.URL + "/sitemap-pages.xml"}, nil,
			[]string{
				// Neither the host nor the protocol of the server.
				`ValidationError: validate "https://shop.example.com/": strict mode: `,
				`ValidationError: validate "https://shop.example.com/products/teapot": strict mode: `,
				`ValidationError: validate "https://shop.example.com/about": strict mode: `,
			},
			"Summary: 1 document fetched, 0 URLs, 0 sitemaps listed, 3 errors"},
		{"flags after the argument", []string{index, "-sequential", "-rules", "blog"}, indexURLs[3:], nil,
			"Summary: 3 documents fetched, 2 URLs, 2 sitemaps listed, 0 errors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, "", tt.args...)
			if r.code != 0 {
				t.Fatalf("exit status %d, want 0; stderr:\n%s", r.code, r.stderr)
			}
			if got := lines(r.stdout); !slices.Equal(got, tt.stdout) {
				t.Errorf("stdout %q, want %q", got, tt.stdout)
			}
			got := lines(r.stderr)
			if len(got) != len(tt.errs)+1 {
				t.Fatalf("stderr:\n%s\nwant %d errors and the summary", r.stderr, len(tt.errs))
			}
			for i, want := range tt.errs {
				if !strings.HasPrefix(got[i], want) {
					t.Errorf("stderr line %d = %q, want it to start with %q", i+1, got[i], want)
				}
			}
			if got[len(got)-1] != tt.summary {
				t.Errorf("summary %q, want %q", got[len(got)-1], tt.summary)
			}
		})
	}
}

func TestUserAgent(t *testing.T) {
	srv := newServer(t, nil)
	r := runCLI(t, "", "-user-agent", "teabot/1.0 (+https://example.org/bot)", srv.URL+"/sitemap-index.xml")
	if r.code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", r.code, r.stderr)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.agents) != 3 {
		t.Fatalf("%d requests, want 3", len(srv.agents))
	}
	for _, ua := range srv.agents {
		if ua != "teabot/1.0 (+https://example.org/bot)" {
			t.Errorf("User-Agent %q", ua)
		}
	}
}

// TestTimeout: the transport that counts the documents keeps the timeout
// of -timeout. The server answers only when the client gives up.
func TestTimeout(t *testing.T) {
	shortTimeouts(t) // timeout_test.go
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer hang.Close()
	done := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := run([]string{"-timeout", "100", hang.URL + "/sitemap.xml"}, strings.NewReader(""), &stdout, &stderr)
		done <- result{code, stdout.String(), stderr.String()}
	}()
	select {
	case r := <-done:
		if r.code != 1 || !strings.HasPrefix(r.stderr, `NetworkError: fetch "`+hang.URL+`/sitemap.xml": `) {
			t.Errorf("exit status %d, stderr %q; want 1 and the NetworkError of the request", r.code, r.stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("-timeout did not end the request")
	}
}

// TestConfigure checks that every flag reaches its setting.
func TestConfigure(t *testing.T) {
	parse := func(t *testing.T, args ...string) *sitemap.S {
		t.Helper()
		c := &command{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
		var o options
		if _, err := parseArgs(c.flags(&o), append(args, "x")); err != nil {
			t.Fatal(err)
		}
		s, ok := c.configure(&o)
		if !ok {
			t.Fatalf("configure: %v", c.stderr)
		}
		return s
	}
	t.Run("defaults", func(t *testing.T) {
		s, d := parse(t), sitemap.New()
		if s.GetStrict() != d.GetStrict() || s.GetMultiThread() != d.GetMultiThread() ||
			s.GetMaxURLs() != d.GetMaxURLs() || s.GetMaxSitemaps() != d.GetMaxSitemaps() ||
			s.GetMaxDepth() != d.GetMaxDepth() || s.GetMaxConcurrency() != d.GetMaxConcurrency() ||
			s.GetMaxValidationErrors() != d.GetMaxValidationErrors() || s.GetMaxResponseSize() != d.GetMaxResponseSize() ||
			s.GetFetchTimeout() != d.GetFetchTimeout() || s.GetUserAgent() != d.GetUserAgent() ||
			len(s.GetFollow()) != 0 || len(s.GetRules()) != 0 {
			t.Error("the defaults of the command differ from those of the library")
		}
		if got := fetchTimeout(t, s); got != sitemap.DefaultFetchTimeout*time.Second {
			t.Errorf("fetch timeout %v, want %ds", got, sitemap.DefaultFetchTimeout)
		}
	})
	t.Run("every flag", func(t *testing.T) {
		s := parse(t, "-strict", "-sequential", "-max-urls", "7", "-max-sitemaps", "8", "-max-depth", "3",
			"-max-concurrency", "4", "-max-validation-errors", "9", "-max-response-size", "1000", "-timeout", "2m",
			"-user-agent", "bot/1", "-follow", "a", "-follow", "b", "-rules", "c", "-rules", "d")
		if !s.GetStrict() || s.GetMultiThread() || s.GetMaxURLs() != 7 || s.GetMaxSitemaps() != 8 ||
			s.GetMaxDepth() != 3 || s.GetMaxConcurrency() != 4 || s.GetMaxValidationErrors() != 9 ||
			s.GetMaxResponseSize() != 1000 || s.GetFetchTimeout() != 120 || s.GetUserAgent() != "bot/1" ||
			!slices.Equal(s.GetFollow(), []string{"a", "b"}) || !slices.Equal(s.GetRules(), []string{"c", "d"}) {
			t.Error("a flag did not reach its setting")
		}
		if got := fetchTimeout(t, s); got != 2*time.Minute {
			t.Errorf("fetch timeout %v, want 2m", got)
		}
	})
}

// fetchTimeout is the timeout the client of s charges to the waits for
// the server: its transport's, the client's own Timeout being 0 (a
// Timeout would cover the time the output takes).
func fetchTimeout(t *testing.T, s *sitemap.S) time.Duration {
	t.Helper()
	c := s.GetHTTPClient()
	if c.Timeout != 0 {
		t.Errorf("client Timeout %v, want 0", c.Timeout)
	}
	return c.Transport.(*countingTransport).base.(*serverclock.Transport).Timeout
}

func TestHelp(t *testing.T) {
	for _, flag := range []string{"-h", "-help", "--help"} {
		t.Run(flag, func(t *testing.T) {
			r := runCLI(t, "", flag)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("exit status %d, stderr %q; want 0 and nothing", r.code, r.stderr)
			}
			for _, want := range []string{"Usage: sitemap [flags] URL|FILE|-", "Examples:", "sitemap https://example.com/robots.txt",
				"-format jsonl", "-format csv", "-sitemaps", "-base", "| sitemap -base", "Exit status:",
				"sitemap tree [flags] URL|FILE|-", "sitemap tree -format json", "-no-follow", "-robots"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("usage lacks %q", want)
				}
			}
			for _, name := range []string{"base", "format", "sitemaps", "strict", "sequential", "max-urls", "max-sitemaps",
				"max-depth", "max-concurrency", "max-validation-errors", "max-response-size", "timeout", "user-agent", "follow", "rules",
				"no-follow", "robots"} {
				if !strings.Contains(r.stdout, "\n  -"+name+" ") && !strings.Contains(r.stdout, "\n  -"+name+"\n") {
					t.Errorf("usage does not describe -%s", name)
				}
			}
		})
	}
}

// TestNoProgressWhenNotTerminal: with stderr a file, which is no terminal,
// stderr gets the summary and nothing of a progress line.
func TestNoProgressWhenNotTerminal(t *testing.T) {
	srv := newServer(t, nil)
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&bytes.Buffer{}) {
		t.Fatal("a file or a buffer taken for a terminal")
	}
	var stdout bytes.Buffer
	if code := run([]string{srv.URL + "/sitemap-index.xml"}, strings.NewReader(""), &stdout, f); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if want := "Summary: 3 documents fetched, 5 URLs, 2 sitemaps listed, 0 errors\n"; string(b) != want {
		t.Errorf("stderr %q, want %q", b, want)
	}
}

// TestProgress: on a terminal, the progress line is drawn in place as soon
// as the run starts, and cleared before the errors and the summary.
func TestProgress(t *testing.T) {
	srv := newServer(t, nil)
	var stdout, stderr bytes.Buffer
	c := &command{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, progress: true}
	if code := c.run(context.Background(), []string{srv.URL + "/missing.xml"}); code != 1 {
		t.Fatalf("exit status %d", code)
	}
	const redraw = "\r\x1b[K"
	got := stderr.String()
	if !strings.HasPrefix(got, redraw+"0 documents done, 0 reading, 0 waiting, 0 URLs found") {
		t.Errorf("stderr %q does not begin with the progress line", got)
	}
	clear := strings.LastIndex(got, redraw)
	rest := got[clear+len(redraw):]
	if !strings.HasPrefix(rest, "NetworkError: ") || !strings.HasSuffix(rest, "Summary: 0 documents fetched, 0 URLs, 0 sitemaps listed, 1 error\n") {
		t.Errorf("after the progress line is cleared, stderr has %q", rest)
	}
	if strings.Contains(stdout.String(), "\r") {
		t.Errorf("stdout %q holds progress output", stdout.String())
	}
}
