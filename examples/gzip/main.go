// Gzip reads gzip-compressed sitemaps. Compression is told by the first
// bytes of the content, not by the name or the headers; a file of several
// gzip members is read to the end of the last; content that cannot be
// decompressed to its end yields nothing and one *ParseError.
package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/examples/internal/demo"
)

func main() {
	pages := compress(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc></url>
  <url><loc>https://example.com/products</loc></url>
</urlset>`)

	// 1. A compressed sitemap, fetched.
	srv := demo.Serve(map[string]string{"/sitemap.xml.gz": pages})
	defer srv.Close()
	s, err := sitemap.New().Parse(srv.URL+"/sitemap.xml.gz", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("fetched:", s.GetURLCount(), "URLs")
	demo.Expect(s.GetURLCount() == 2, "2 URLs")

	// 2. Two text sitemaps compressed apart and put together (cat a.gz
	// b.gz), with a line break after them: the content of both members.
	joined := compress("https://example.com/a\n") + compress("https://example.com/b\n") + "\n"
	s, err = sitemap.New().Parse("https://example.com/sitemap.txt.gz", &joined)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range s.GetURLs() {
		fmt.Println("joined:", u.Loc)
	}
	demo.Expect(s.GetURLCount() == 2, "the URLs of both members")

	// 3. Cut short: nothing of it is kept, and one error says why.
	truncated := pages[:len(pages)/2]
	s, err = sitemap.New().Parse("https://example.com/sitemap.xml.gz", &truncated)
	fmt.Println("truncated:", err)
	var parseErr *sitemap.ParseError
	demo.Expect(errors.As(err, &parseErr) && errors.Is(err, io.ErrUnexpectedEOF) && s.GetURLCount() == 0,
		"a *ParseError (gzip decompression failed: unexpected EOF) and no URL")
}

// compress returns s gzip-compressed.
func compress(s string) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	io.WriteString(zw, s)
	zw.Close()
	return buf.String()
}
