package xmlscan

import (
	"encoding/binary"
	"math/bits"
)

// A stopSet is three bytes that stopAt stops at, besides the bytes below
// 0x20 and those from 0x80, each written sixteen times: a block of them to
// compare with a block of text.
type stopSet [3][16]byte

// newStopSet returns the stopSet of a, b and c.
func newStopSet(a, b, c byte) *stopSet {
	s := new(stopSet)
	for k := range 16 {
		s[0][k], s[1][k], s[2][k] = a, b, c
	}
	return s
}

var (
	// textStops is what plainText looks at: the '<' that ends a text, and
	// the '&' and ']' that may need decode.
	textStops = newStopSet('<', '&', ']')
	// cdataStops is what cdataText looks at: the ']' that may start the
	// end of a section.
	cdataStops = newStopSet(']', ']', ']')
)

// stopAt and stopAtGo return the index of the first byte of w, from w[i],
// that is one of the three of s, below 0x20 or from 0x80. They read whole
// blocks of w (to its length, which is the capacity of the text their
// callers are given), so the index may be n or more, past the bytes that
// are the text's; they return at least n when no such byte is in w[i:n].
// They need i < n <= len(w).
//
// stopAt is written in assembly where the machine compares sixteen bytes
// in one instruction (stop_amd64.s), and is stopAtGo, which reads eight at
// a time in a word, elsewhere.

// stopAtGo is stopAt in Go.
func stopAtGo(w []byte, i, n int, s *stopSet) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	c0, c1, c2 := s[0][0], s[1][0], s[2][0]
	for ; i+8 <= len(w); i += 8 {
		x := binary.LittleEndian.Uint64(w[i:])
		x0, x1, x2 := x^(ones*uint64(c0)), x^(ones*uint64(c1)), x^(ones*uint64(c2))
		// The high bit of each byte below 0x20 or from 0x80, and of each
		// byte of s. A borrow may set it in the bytes after one of them
		// too, never in those before: the lowest one set is exact.
		if m := ((x - ones*0x20) | x | (x0-ones)&^x0 | (x1-ones)&^x1 | (x2-ones)&^x2) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		if i+8 >= n {
			return n
		}
	}
	for ; i < n; i++ {
		if c := w[i]; c < 0x20 || c >= 0x80 || c == c0 || c == c1 || c == c2 {
			return i
		}
	}
	return n
}
