package bench_test

import (
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
)

// BenchmarkInflate inflates the gzipped forms of W1 and W2 with
// compress/gzip and with github.com/klauspost/compress/gzip, into a
// discarding writer through one 64 KiB buffer as the library's read-ahead
// reads: the measure of whether the library's decode would gain by the
// second (issue 19). MB/s are counted on the plain size.
func BenchmarkInflate(b *testing.B) {
	for _, family := range []string{"W1", "W2"} {
		b.Run(family+"/stdlib", func(b *testing.B) {
			benchInflate(b, family, func(r io.Reader) (io.Reader, error) { return stdgzip.NewReader(r) })
		})
		b.Run(family+"/klauspost", func(b *testing.B) {
			benchInflate(b, family, func(r io.Reader) (io.Reader, error) { return kgzip.NewReader(r) })
		})
	}
}

func benchInflate(b *testing.B, family string, open func(io.Reader) (io.Reader, error)) {
	gz, plain := input(family, "gzip"), len(input(family, "plain"))
	buf := make([]byte, 64<<10)
	b.SetBytes(int64(plain))
	b.ReportAllocs()
	for b.Loop() {
		z, err := open(bytes.NewReader(gz))
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{z}, buf)
		if err != nil || n != int64(plain) {
			b.Fatalf("%d bytes, %v", n, err)
		}
	}
}
