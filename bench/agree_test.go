package bench_test

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/bench"
)

// TestWorkloadsAgree keeps the comparison fair: on every workload the
// library and the reference extractor keep the same URLs with the same
// fields, so that neither does less than the other. The workloads hold
// the &amp; and CDATA they are meant to.
func TestWorkloadsAgree(t *testing.T) {
	for _, tc := range []struct {
		name   string
		doc    []byte
		url    string
		urls   int
		images int
	}{
		{"W1", bench.W1(), "https://www.example.com/sitemap.xml", bench.URLSetURLs, 0},
		{"W2", bench.W2(), "https://www.example.com/sitemap.xml", bench.URLSetURLs, bench.W2Images},
		{"RSS", bench.RSS(), "https://www.example.com/feed.xml", bench.RSSItems, 0},
		{"W3child", bench.W3Child(), "https://www.example.com/sitemap-1.xml", bench.W3PerChild, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !bytes.Contains(tc.doc, []byte("&amp;")) || !bytes.Contains(tc.doc, []byte("<![CDATA[")) {
				t.Errorf("no &amp; or no CDATA in the workload")
			}
			ours := parse(t, tc.url, tc.doc)
			ref, err := bench.Extract(bytes.NewReader(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if len(ours) != tc.urls || len(ref) != tc.urls {
				t.Fatalf("%d URLs from the library and %d from the extractor, want %d", len(ours), len(ref), tc.urls)
			}
			images, ampersands := 0, 0
			for i := range ours {
				got, want := fieldsOf(ours[i]), ref[i]
				if !got.LastMod.Equal(want.LastMod) {
					t.Fatalf("URL %d: lastmod %v from the library, %v from the extractor", i, got.LastMod, want.LastMod)
				}
				got.LastMod = want.LastMod
				if !equalURL(got, want) {
					t.Fatalf("URL %d:\n library   %+v\n extractor %+v", i, got, want)
				}
				if want.LastMod.IsZero() || want.Loc == "" || strings.HasPrefix(tc.name, "W") && (want.ChangeFreq == "" || want.Priority == 0) {
					t.Fatalf("URL %d: a field missing in %+v", i, want)
				}
				images += len(want.Images)
				if strings.Contains(want.Loc, "&") {
					ampersands++
				}
			}
			if images != tc.images || ampersands == 0 {
				t.Errorf("%d images, want %d; %d locs with an &, want some", images, tc.images, ampersands)
			}
		})
	}
}

// TestTextWorkloadAgrees checks that the library keeps every line of the
// text workload, as the line scan of BenchmarkText/linescan-kept does.
func TestTextWorkloadAgrees(t *testing.T) {
	doc := bench.Text()
	ours := parse(t, "https://www.example.com/sitemap.txt", doc)
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(ours) != bench.TextLines || len(lines) != bench.TextLines {
		t.Fatalf("%d URLs from the library and %d lines, want %d", len(ours), len(lines), bench.TextLines)
	}
	for i, u := range ours {
		if u.Loc != lines[i] {
			t.Fatalf("URL %d: %q from the library, line %q", i, u.Loc, lines[i])
		}
	}
}

// TestGzipWorkloadsAgree checks that the gzipped forms of W1 and W2 give
// the library the same URLs as the plain ones.
func TestGzipWorkloadsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("60 MB of input")
	}
	for name, doc := range map[string][]byte{"W1": bench.W1(), "W2": bench.W2()} {
		plain := parse(t, "https://www.example.com/sitemap.xml", doc)
		zipped := parse(t, "https://www.example.com/sitemap.xml.gz", bench.Gzip(doc))
		if len(plain) != len(zipped) || plain[0].Loc != zipped[0].Loc || plain[len(plain)-1].Loc != zipped[len(zipped)-1].Loc {
			t.Errorf("%s: %d URLs plain and %d gzipped", name, len(plain), len(zipped))
		}
	}
}

// TestW3Workload checks that the library reads every URL of every child
// of W3 over loopback, without an error.
func TestW3Workload(t *testing.T) {
	if testing.Short() {
		t.Skip("a million URLs")
	}
	w3Parse(t, w3Server(t, 0))
}

// parse parses doc under url with the library and fails on any error.
func parse(t *testing.T, url string, doc []byte) []sitemap.URL {
	t.Helper()
	content := string(doc)
	s, err := sitemap.New().Parse(url, &content)
	if err != nil || s.GetErrorsCount() != 0 {
		t.Fatalf("%v, errors %v", err, s.GetErrors()[:min(3, s.GetErrorsCount())])
	}
	return s.GetURLs()
}

// fieldsOf is what the extractor keeps of u.
func fieldsOf(u sitemap.URL) bench.URL {
	r := bench.URL{Loc: u.Loc}
	if u.LastMod != nil {
		r.LastMod = u.LastMod.Time
	}
	if u.ChangeFreq != nil {
		r.ChangeFreq = string(*u.ChangeFreq)
	}
	if u.Priority != nil {
		r.Priority = *u.Priority
	}
	for _, im := range u.Images {
		r.Images = append(r.Images, bench.Image{Loc: im.Loc, Title: im.Title})
	}
	return r
}

// equalURL reports whether a and b hold the same fields, their dates
// compared as instants.
func equalURL(a, b bench.URL) bool {
	if a.Loc != b.Loc || !a.LastMod.Equal(b.LastMod) || a.ChangeFreq != b.ChangeFreq || a.Priority != b.Priority || len(a.Images) != len(b.Images) {
		return false
	}
	for i := range a.Images {
		if a.Images[i] != b.Images[i] {
			return false
		}
	}
	return true
}
