package sitemap

import (
	"bytes"
	"compress/gzip"
	"slices"
)

// The helpers the white-box tests (the *_internal_test.go files) share;
// they cannot reach those of helpers_test.go, which are of package
// sitemap_test.

// docURLs returns the URLs a document holds until it is committed.
func docURLs(d *doc) []URL { return slices.Concat(d.buf.urls...) }

func fuzzGzip(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}
