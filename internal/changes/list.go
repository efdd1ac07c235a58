// Package changes encodes what change detection keeps of a sitemap between
// runs: the locations of its URLs, sorted and front-coded (each location
// as the length of the prefix it shares with the one before and the bytes
// that differ), each with a fingerprint of its lastmod. A million URLs of
// one site take a dozen bytes each.
package changes

import (
	"cmp"
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
	"strings"
	"time"
)

// Entry is one URL of a list.
type Entry struct {
	Loc  string
	FP   uint32 // Fingerprint of its lastmod
	Flag Flag
}

// Flag tells what an entry of a list stands for.
type Flag uint8

const (
	// Listed is a URL the sitemap listed.
	Listed Flag = iota
	// Added is a URL the sitemap listed that was new in the run that put
	// the list: a run that resumes it does not count it as known before.
	Added
	// Removed is a URL the sitemap listed before the run that put the
	// list, and no longer: a run that resumes it may still find it gone.
	Removed
)

// listVersion is the first byte of a list.
const listVersion = 1

// ErrCorrupt is the error of a list that cannot be read.
var ErrCorrupt = errors.New("changes: list cannot be read")

// Encode returns the list of entries, sorted by location; a location given
// twice is kept once, the entry of the lowest Flag. It sorts entries in
// place when they are not sorted already, which it finds as it encodes
// them: entries in order are read once.
func Encode(entries []Entry) []byte {
	size := 1 + binary.MaxVarintLen64
	for _, e := range entries {
		size += len(e.Loc)/4 + 8 // a guess: front-coding keeps a fraction
	}
	// The entries go after room for the header, whose count of entries
	// is known once they are written.
	room := 1 + binary.MaxVarintLen64
	b := make([]byte, room, size)
	out, n, ok := encodeSorted(b, entries)
	if !ok {
		Sort(entries)
		out, n, _ = encodeSorted(b, entries)
	}
	var head [1 + binary.MaxVarintLen64]byte
	h := binary.AppendUvarint(append(head[:0], listVersion), uint64(n))
	start := room - len(h)
	copy(out[start:], h)
	return out[start:]
}

// encodeSorted appends the entries to b, each location once, and returns
// the bytes and the count of entries written, or false as soon as it
// finds two out of order.
func encodeSorted(b []byte, entries []Entry) ([]byte, int, bool) {
	n := 0
	prev, prevFlag := "", Flag(0)
	for i, e := range entries {
		shared := commonPrefix(prev, e.Loc)
		if i > 0 {
			var c int // e against the entry before
			switch {
			case shared == len(e.Loc) && shared == len(prev):
			case shared == len(e.Loc):
				c = -1
			case shared == len(prev):
				c = 1
			case e.Loc[shared] != prev[shared]:
				c = cmp.Compare(e.Loc[shared], prev[shared])
			default: // past the prefix commonPrefix compares
				c = strings.Compare(e.Loc, prev)
			}
			if c < 0 || c == 0 && e.Flag < prevFlag {
				return nil, 0, false
			}
			if c == 0 {
				continue // kept once, of the lowest Flag
			}
		}
		n++
		b = binary.AppendUvarint(b, uint64(shared)<<2|uint64(e.Flag&3))
		b = binary.AppendUvarint(b, uint64(len(e.Loc)-shared))
		b = append(b, e.Loc[shared:]...)
		b = binary.LittleEndian.AppendUint32(b, e.FP)
		prev, prevFlag = e.Loc, e.Flag
	}
	return b, n, true
}

// Sort sorts entries by location, and of one location by Flag. Entries
// already sorted are left as they are, found in one pass.
func Sort(entries []Entry) {
	if len(entries) < 2 || slices.IsSortedFunc(entries, compareEntries) {
		return
	}
	// The locations of one sitemap share a long prefix (the site, a
	// path): what is sorted is the 16 bytes after it, as two numbers, with
	// the index of the entry (24 bytes moved a swap, not the entry); only
	// the locations of the same 16 bytes are compared as strings.
	p := len(entries[0].Loc)
	for _, e := range entries[1:] {
		p = commonPrefix(entries[0].Loc[:p], e.Loc)
	}
	type keyed struct {
		k0, k1 uint64
		i      int
	}
	ks := make([]keyed, len(entries))
	for i, e := range entries {
		ks[i] = keyed{bigEndian(e.Loc, p), bigEndian(e.Loc, p+8), i}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		switch {
		case a.k0 != b.k0:
			return cmp.Compare(a.k0, b.k0)
		case a.k1 != b.k1:
			return cmp.Compare(a.k1, b.k1)
		}
		x, y := &entries[a.i], &entries[b.i]
		if c := strings.Compare(x.Loc[p:], y.Loc[p:]); c != 0 {
			return c
		}
		return int(x.Flag) - int(y.Flag)
	})
	sorted := make([]Entry, len(entries))
	for i, k := range ks {
		sorted[i] = entries[k.i]
	}
	copy(entries, sorted)
}

// bigEndian returns the 8 bytes of s from i as a big-endian number, the
// bytes past its end as zeros.
func bigEndian(s string, i int) uint64 {
	if i+8 <= len(s) {
		s = s[i : i+8]
		return uint64(s[7]) | uint64(s[6])<<8 | uint64(s[5])<<16 | uint64(s[4])<<24 |
			uint64(s[3])<<32 | uint64(s[2])<<40 | uint64(s[1])<<48 | uint64(s[0])<<56
	}
	var k uint64
	for j := range 8 {
		k <<= 8
		if i+j < len(s) {
			k |= uint64(s[i+j])
		}
	}
	return k
}

// load8 returns the 8 bytes of s, of 8 at least, as a big-endian number:
// bigEndian without its tail, small enough to be inlined.
func load8(s string) uint64 {
	_ = s[7]
	return uint64(s[7]) | uint64(s[6])<<8 | uint64(s[5])<<16 | uint64(s[4])<<24 |
		uint64(s[3])<<32 | uint64(s[2])<<40 | uint64(s[1])<<48 | uint64(s[0])<<56
}

func compareEntries(a, b Entry) int {
	if c := strings.Compare(a.Loc, b.Loc); c != 0 {
		return c
	}
	return int(a.Flag) - int(b.Flag)
}

// commonPrefix returns the length of the prefix a and b share (up to a
// megabyte), compared 8 bytes at a time.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b), 1<<20)
	i := 0
	for i+8 <= n {
		if x := load8(a[i:i+8]) ^ load8(b[i:i+8]); x != 0 {
			return i + bits.LeadingZeros64(x)/8
		}
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// Len returns how many entries the list b holds, 0 for one that cannot
// be read.
func Len(b []byte) int {
	if len(b) < 2 || b[0] != listVersion {
		return 0
	}
	n, k := binary.Uvarint(b[1:])
	if k <= 0 || n > uint64(len(b)) {
		return 0
	}
	return int(n)
}

// Decode calls f with each entry of the list b, in order; loc is valid
// only during the call. It stops at the first false.
func Decode(b []byte, f func(loc []byte, fp uint32, flag Flag) bool) error {
	if len(b) == 0 || b[0] != listVersion {
		return ErrCorrupt
	}
	b = b[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 {
		return ErrCorrupt
	}
	b = b[k:]
	var loc []byte
	for range n {
		head, k := binary.Uvarint(b)
		if k <= 0 {
			return ErrCorrupt
		}
		b = b[k:]
		suffix, k := binary.Uvarint(b)
		if k <= 0 || suffix > uint64(len(b)-k) {
			return ErrCorrupt
		}
		b = b[k:]
		shared := head >> 2
		if shared > uint64(len(loc)) || len(b) < int(suffix)+4 {
			return ErrCorrupt
		}
		loc = append(loc[:shared], b[:suffix]...)
		b = b[suffix:]
		fp := binary.LittleEndian.Uint32(b)
		b = b[4:]
		if !f(loc, fp, Flag(head&3)) {
			return nil
		}
	}
	if len(b) != 0 {
		return ErrCorrupt
	}
	return nil
}

// Fingerprint returns the fingerprint of a lastmod: 0 for none, and for a
// time, 32 bits of a hash of its instant that are never 0. Two lastmods
// of the same instant have the same fingerprint, however they were
// written.
func Fingerprint(t time.Time, ok bool) uint32 {
	if !ok {
		return 0
	}
	// FNV-1a over the seconds and nanoseconds: stable between processes,
	// which a maphash seed is not.
	h := uint32(2166136261)
	var buf [12]byte
	binary.LittleEndian.PutUint64(buf[:8], uint64(t.Unix()))
	binary.LittleEndian.PutUint32(buf[8:], uint32(t.Nanosecond()))
	for _, c := range buf {
		h ^= uint32(c)
		h *= 16777619
	}
	if h == 0 {
		h = 1
	}
	return h
}
