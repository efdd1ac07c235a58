package bench_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/gositemap/sitemap/internal/xmlscan"
)

// scanAttrs is the attribute table the library hands its scanner (the
// sitemap package's attrsRead, which is not exported): the scanner alone
// then reads each start tag as the library's parse makes it.
var scanAttrs = &xmlscan.AttrTable{
	Elems: map[string][]string{
		"link":        {"rel", "hreflang", "href"},
		"restriction": {"relationship"},
		"platform":    {"relationship"},
		"uploader":    {"info"},
	},
	Keep: 64 << 10,
}

// benchScan is the library's scanner alone over doc, strict, with its
// namespaces and the matching of end tags, counting the tokens: the
// counterpart of benchEvents, issue 19's "scanner alone".
func benchScan(b *testing.B, doc []byte) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	rd := bytes.NewReader(doc)
	c0 := startCPU()
	defer c0.report(b)
	for b.Loop() {
		rd.Reset(doc)
		s := xmlscan.New(rd, true, scanAttrs)
		n := 0
		for {
			if _, err := s.Next(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
			n++
		}
		s.Release()
		if n == 0 {
			b.Fatal("no tokens")
		}
	}
}
