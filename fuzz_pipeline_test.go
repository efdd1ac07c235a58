package sitemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf16"
)

// The small limits of a fuzzed call: what it may keep stays far below what
// a fuzz worker can hold, and the properties check that it is never passed.
const (
	fuzzMaxURLs    = 1000
	fuzzMaxValErrs = 1000
	fuzzMaxSize    = 1 << 20
)

// The URLs a fuzzed document is read as: a sitemap, and a robots.txt (the
// only format recognised by its URL).
const (
	fuzzSitemapURL = "https://fuzz.example.com/dir/sitemap.xml"
	fuzzRobotsURL  = "https://fuzz.example.com/robots.txt"
)

// fuzzNoNetwork refuses every request: a fuzzed document that lists
// sitemaps must not send the fuzzer to the network. The refusals come back
// as *NetworkError values, which the properties allow.
type fuzzNoNetwork struct{}

func (fuzzNoNetwork) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("fuzz tests make no requests")
}

// fuzzParser is a fresh instance with the small limits.
func fuzzParser(strict bool) *S {
	return New().
		SetStrict(strict).
		SetMaxURLs(fuzzMaxURLs).
		SetMaxValidationErrors(fuzzMaxValErrs).
		SetMaxResponseSize(fuzzMaxSize).
		SetHTTPClient(&http.Client{Transport: fuzzNoNetwork{}})
}

// checkFuzzCall asserts the properties of one call on any input: every URL
// and every sitemap returned is an absolute HTTP(S) URL with a host (LOC-4),
// at most 2,048 characters in tolerant mode (LOC-9); the counts stay inside
// the limits (MAXURLS, MAXVALERR); every error is one of the typed errors
// (ERRORS), and no *ConfigError, as the configuration is valid.
func checkFuzzCall(t *testing.T, s *S, pageURL string, strict bool) {
	t.Helper()
	check := func(what, loc string) {
		t.Helper()
		u, err := url.Parse(loc)
		switch {
		case err != nil:
			t.Fatalf("%s (strict %v, read as %s) %q does not parse: %v", what, strict, pageURL, loc, err)
		case u.Scheme != "http" && u.Scheme != "https":
			t.Fatalf("%s (strict %v, read as %s) %q is not HTTP(S)", what, strict, pageURL, loc)
		case u.Hostname() == "":
			t.Fatalf("%s (strict %v, read as %s) %q has no host", what, strict, pageURL, loc)
		case !strict && len(loc) > maxURLLength:
			t.Fatalf("%s (tolerant, read as %s) is %d characters long, more than %d: %.100q…", what, pageURL, len(loc), maxURLLength, loc)
		}
	}
	urls := s.GetURLs()
	for _, u := range urls {
		check("URL", u.Loc)
	}
	for _, sm := range s.GetSitemaps() {
		check("sitemap", sm.Loc)
	}
	if n := s.GetURLCount(); n != int64(len(urls)) || n > fuzzMaxURLs {
		t.Fatalf("GetURLCount() = %d, %d URLs returned, limit %d", n, len(urls), fuzzMaxURLs)
	}
	valErrs := 0
	for _, err := range s.GetErrors() {
		var (
			pe *ParseError
			ve *ValidationError
			ne *NetworkError
			ce *ConfigError
		)
		switch {
		case errors.As(err, &ce):
			t.Fatalf("config error on a valid configuration: %v", err)
		case errors.As(err, &ve):
			valErrs++
		case errors.As(err, &pe), errors.As(err, &ne):
		default:
			t.Fatalf("untyped error %T: %v", err, err)
		}
	}
	if valErrs > fuzzMaxValErrs {
		t.Fatalf("%d validation errors recorded, limit %d", valErrs, fuzzMaxValErrs)
	}
}

// fuzzParse reads data through the whole document path as the content of
// pageURL, failing the test where it panics or breaks a property.
func fuzzParse(t *testing.T, data []byte, pageURL string, strict bool) *S {
	t.Helper()
	content := string(data)
	s, _ := fuzzParser(strict).Parse(pageURL, &content)
	checkFuzzCall(t, s, pageURL, strict)
	return s
}

// fuzzPipelineSeeds are the files of testdata/ and, for each, its gzip, BOM,
// ISO-8859-1 and UTF-16 variants, so the fuzzer starts from every decode
// path (DECODE, ENC).
func fuzzPipelineSeeds(tb testing.TB) [][]byte {
	tb.Helper()
	paths, err := filepath.Glob("testdata/*")
	if err != nil {
		tb.Fatal(err)
	}
	var seeds [][]byte
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Size() > 64<<10 {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, data, fuzzGzip(data), append([]byte("\xEF\xBB\xBF"), data...))
	}
	latin1 := []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">" +
		"<url><loc>https://fuzz.example.com/caf\xe9 cr\xe8me</loc><lastmod>2024-01-02</lastmod></url>" +
		"<url><loc>/relative/\xfc</loc></url></urlset>")
	utf16doc := "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://fuzz.example.com/é</loc></url></urlset>"
	seeds = append(seeds,
		latin1, fuzzGzip(latin1),
		fuzzUTF16(utf16doc, binary.LittleEndian), fuzzUTF16(utf16doc, binary.BigEndian),
		fuzzGzip(fuzzUTF16(utf16doc, binary.LittleEndian)),
		[]byte("Sitemap: /a b.xml\nsitemap:https://bücher.example/s.xml\n"),
		[]byte("https://fuzz.example.com/a\n/relative\nhttps://münchen.example/ü\n"),
		append(fuzzGzip([]byte("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://fuzz.example.com/1</loc></url>")),
			fuzzGzip([]byte("<url><loc>https://fuzz.example.com/2</loc></url></urlset>"))...),
	)
	return seeds
}

func fuzzGzip(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// fuzzUTF16 encodes s as UTF-16 with a byte order mark.
func fuzzUTF16(s string, order binary.ByteOrder) []byte {
	units := append([]uint16{0xFEFF}, utf16.Encode([]rune(s))...)
	out := make([]byte, 2*len(units))
	for i, u := range units {
		order.PutUint16(out[2*i:], u)
	}
	return out
}

// FuzzDecodePipeline feeds arbitrary bytes through the whole document path
// of Parse (gzip, BOM, charset, sniffing, every parser, the entry checks and
// the commit), in both modes, read as a sitemap and as a robots.txt.
func FuzzDecodePipeline(f *testing.F) {
	for _, seed := range fuzzPipelineSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strict := range []bool{false, true} {
			for _, pageURL := range []string{fuzzSitemapURL, fuzzRobotsURL} {
				fuzzParse(t, data, pageURL, strict)
			}
		}
	})
}

// FuzzRobots feeds arbitrary bytes to Parse as a robots.txt: every sitemap
// it lists is an absolute HTTP(S) URL (ROBOTS-13), and a robots.txt yields no
// URLs of its own.
func FuzzRobots(f *testing.F) {
	for _, seed := range []string{
		"User-agent: *\nDisallow: /\nSitemap: https://fuzz.example.com/sitemap.xml\n",
		"\xEF\xBB\xBFSitemap: /relative.xml\r\nsitemap:   //cdn.example.com/s.xml  \r\n",
		"SITEMAP: https://bücher.example/a b.xml\nSitemap:\nSitemap: mailto:x@example.com\n",
		"Sitemap: http://[::1]:namedport/x\nSitemap: https://fuzz.example.com/%zz\nHost: fuzz.example.com\n",
		"# comment\nSitemap: https://fuzz.example.com/s.xml # trailing comment\n",
	} {
		f.Add([]byte(seed))
	}
	if data, err := os.ReadFile("testdata/robots.txt"); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strict := range []bool{false, true} {
			s := fuzzParse(t, data, fuzzRobotsURL, strict)
			if n := s.GetURLCount(); n != 0 {
				// A robots.txt lists sitemaps; it has no URLs of its own.
				t.Fatalf("a robots.txt yields %d URLs", n)
			}
		}
	})
}

// FuzzStreamAndGzipAgree holds three ways of reading one document to the
// same result, on any input: Parse of it, Parse of it gzipped (inflated by
// the read-ahead of decode.go) and Stream of it (URLs handed on in batches
// flushed before every read). The URLs and the errors must be the same, in
// the same order.
func FuzzStreamAndGzipAgree(f *testing.F) {
	for _, seed := range fuzzPipelineSeeds(f) {
		f.Add(seed, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			return // gzipped already: a second layer is not undone
		}
		// One sitemap at a time, so that the errors of the sitemaps a
		// document lists come in the order listed.
		parser := func() *S { return fuzzParser(strict).SetMultiThread(false) }
		content, zipped := string(data), string(fuzzGzip(data))
		plain, _ := parser().Parse(fuzzSitemapURL, &content)
		gz, _ := parser().Parse(fuzzSitemapURL, &zipped)
		var streamed []string
		var streamErrs []string
		for u, err := range parser().Stream(context.Background(), fuzzSitemapURL, &content) {
			if err != nil {
				streamErrs = append(streamErrs, err.Error())
				continue
			}
			streamed = append(streamed, u.Loc)
		}
		locs := func(s *S) (out []string) {
			for _, u := range s.GetURLs() {
				out = append(out, u.Loc)
			}
			return out
		}
		errs := func(s *S) (out []string) {
			for _, err := range s.GetErrors() {
				out = append(out, err.Error())
			}
			return out
		}
		if !slices.Equal(locs(plain), locs(gz)) || !slices.Equal(errs(plain), errs(gz)) {
			t.Fatalf("gzipped, the document reads otherwise:\nplain %q %q\ngzip  %q %q", locs(plain), errs(plain), locs(gz), errs(gz))
		}
		// A streaming call hands on a document's validation errors after
		// its URLs, where GetErrors has them in the order recorded: the
		// same set of errors, not the same order. And it hands on the
		// URLs of a document before it turns out to be broken, where
		// Parse keeps none of them.
		want := errs(plain)
		slices.Sort(want)
		slices.Sort(streamErrs)
		sameURLs := slices.Equal(locs(plain), streamed)
		if !sameURLs && plain.GetURLCount() == 0 {
			for _, err := range plain.GetErrors() {
				var pe *ParseError
				if errors.As(err, &pe) && pe.URL == fuzzSitemapURL && !isLimitError(err) {
					sameURLs = true
				}
			}
		}
		if !sameURLs || !slices.Equal(want, streamErrs) {
			t.Fatalf("streamed, the document reads otherwise:\nparse  %q %q\nstream %q %q", locs(plain), want, streamed, streamErrs)
		}
	})
}

// isLimitError reports whether err is the error of a limit of the call,
// which, unlike a broken document, costs the URLs read before it nothing.
func isLimitError(err error) bool {
	return errors.Is(err, ErrMaxURLs) || errors.Is(err, ErrMaxSitemaps) ||
		errors.Is(err, ErrMaxValidationErrors) || errors.Is(err, ErrMaxDepth)
}
