package xmlscan

import (
	"math/rand/v2"
	"testing"
)

// stopRef is stopAt byte by byte: the index of the first byte of w[i:n]
// it stops at, or n.
func stopRef(w []byte, i, n int, s *stopSet) int {
	for ; i < n; i++ {
		if c := w[i]; c < 0x20 || c >= 0x80 || c == s[0][0] || c == s[1][0] || c == s[2][0] {
			return i
		}
	}
	return n
}

// TestStopAt checks stopAt and stopAtGo against stopRef, with each set the
// scanner uses, on every start and end in buffers of every length up to a
// few blocks, with the bytes they stop at put in at every place, and on
// random bytes: each returns the index stopRef does when that is below n,
// and at least n otherwise.
func TestStopAt(t *testing.T) {
	impls := []struct {
		name string
		f    func([]byte, int, int, *stopSet) int
	}{{"stopAt", stopAt}, {"stopAtGo", stopAtGo}}
	sets := []*stopSet{textStops, cdataStops}
	check := func(w []byte) {
		t.Helper()
		for _, s := range sets {
			for i := range len(w) {
				for n := i + 1; n <= len(w); n++ {
					want := stopRef(w, i, n, s)
					for _, im := range impls {
						got := im.f(w, i, n, s)
						if want < n && got != want || want == n && got < n {
							t.Fatalf("%s(%q, %d, %d, set of %q) = %d, want %d", im.name, w, i, n, s[0][0], got, want)
						}
					}
				}
			}
		}
	}
	stops := []byte{'<', '&', ']', '>', 0, '\t', '\n', '\r', 0x1f, 0x7f, 0x80, 0xC3, 0xFF}
	for size := 1; size <= 40; size++ {
		w := make([]byte, size)
		for k := range w {
			w[k] = 'a' + byte(k%26)
		}
		check(w)
		for at := range size {
			for _, c := range stops {
				old := w[at]
				w[at] = c
				check(w)
				w[at] = old
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		w := make([]byte, 1+r.IntN(100))
		for k := range w {
			if r.IntN(20) == 0 {
				w[k] = stops[r.IntN(len(stops))]
			} else {
				w[k] = byte(0x20 + r.IntN(0x60))
			}
		}
		check(w)
	}
}
