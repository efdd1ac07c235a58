// MaxResponseSize bounds the size of a document, decompressed or not: a
// response over it is a *NetworkError, and gzip content that expands beyond
// it (a "gzip bomb") a *ParseError. Both wrap ErrMaxResponseSize.
package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
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

	srv := demo.Serve(map[string]string{"/sitemap.xml": big.String(), "/sitemap.xml.gz": bomb.String()})
	defer srv.Close()

	s := sitemap.New().SetMaxResponseSize(1 << 20) // 1 MB

	_, err := s.Parse(srv.URL+"/sitemap.xml", nil)
	var netErr *sitemap.NetworkError
	fmt.Printf("%d bytes served: %v\n", big.Len(), strings.ReplaceAll(err.Error(), srv.URL, ""))
	demo.Expect(errors.As(err, &netErr) && errors.Is(err, sitemap.ErrMaxResponseSize), "a *NetworkError wrapping ErrMaxResponseSize")

	_, err = s.Parse(srv.URL+"/sitemap.xml.gz", nil)
	var parseErr *sitemap.ParseError
	fmt.Printf("%d bytes of gzip served: %v\n", bomb.Len(), strings.ReplaceAll(err.Error(), srv.URL, ""))
	demo.Expect(errors.As(err, &parseErr) && errors.Is(err, sitemap.ErrMaxResponseSize), "a *ParseError wrapping ErrMaxResponseSize")
}
