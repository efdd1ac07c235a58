// MaxResponseSize bounds the size of a document, decompressed or not: a
// response over it is a *NetworkError, and gzip content that expands beyond
// it (a "gzip bomb") a *ParseError. Both wrap ErrMaxResponseSize.
package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/gositemap/sitemap"
)

func main() {
	// A sitemap of some 3 MB.
	var big strings.Builder
	big.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range 50000 {
		fmt.Fprintf(&big, "<url><loc>https://example.com/products/item-%d</loc></url>\n", i)
	}
	big.WriteString("</urlset>")

	// 10 MB of spaces, which gzip packs into some 10 KB.
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zw.Write([]byte("<urlset>"))
	spaces := bytes.Repeat([]byte(" "), 1<<20)
	for range 10 {
		zw.Write(spaces)
	}
	zw.Close()

	srv := serve(map[string]string{"/sitemap.xml": big.String(), "/sitemap.xml.gz": bomb.String()})
	defer srv.Close()

	s := sitemap.New().SetMaxResponseSize(1 << 20) // 1 MB

	_, err := s.Parse(srv.URL+"/sitemap.xml", nil)
	var netErr *sitemap.NetworkError
	fmt.Printf("%d bytes served: %v\n", big.Len(), strings.ReplaceAll(err.Error(), srv.URL, ""))
	expect(errors.As(err, &netErr) && errors.Is(err, sitemap.ErrMaxResponseSize), "a *NetworkError wrapping ErrMaxResponseSize")

	_, err = s.Parse(srv.URL+"/sitemap.xml.gz", nil)
	var parseErr *sitemap.ParseError
	fmt.Printf("%d bytes of gzip served: %v\n", bomb.Len(), strings.ReplaceAll(err.Error(), srv.URL, ""))
	expect(errors.As(err, &parseErr) && errors.Is(err, sitemap.ErrMaxResponseSize), "a *ParseError wrapping ErrMaxResponseSize")
}

// serve answers with the documents of site, by path, as a web site would.
// It listens on the loopback interface only.
func serve(site map[string]string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := site[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, doc)
	}))
}

// expect ends the program with status 1 when the example did not show what
// it is meant to show, so that CI notices.
func expect(ok bool, what string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "unexpected outcome, want", what)
		os.Exit(1)
	}
}
