package changes

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// A list reads back as it was encoded, sorted, a location given twice kept
// once; every cut of it is an error, never a misread.
func TestListRoundTrip(t *testing.T) {
	var entries []Entry
	for i := range 300 {
		entries = append(entries, Entry{Loc: fmt.Sprintf("https://example.com/c%d/item-%d", i%7, i), FP: uint32(i * 7919), Flag: Flag(i % 3)})
	}
	entries = append(entries, Entry{Loc: entries[5].Loc, FP: 1, Flag: Removed})
	b := Encode(slices.Clone(entries))
	if Len(b) != 300 {
		t.Errorf("Len = %d", Len(b))
	}
	var got []Entry
	if err := Decode(b, func(loc []byte, fp uint32, f Flag) bool {
		got = append(got, Entry{string(loc), fp, f})
		return true
	}); err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(entries[:300])
	Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("read back %d entries, want %d sorted", len(got), len(want))
	}
	if len(b) > 300*12 {
		t.Errorf("%d bytes for 300 URLs, want front-coded (at most 12 a URL)", len(b))
	}
	for cut := range len(b) - 1 {
		if err := Decode(b[:cut], func([]byte, uint32, Flag) bool { return true }); err == nil {
			t.Fatalf("cut at %d of %d: no error", cut, len(b))
		}
	}
	if Decode(nil, nil) != ErrCorrupt || Len(nil) != 0 {
		t.Error("nil list")
	}
	if b := Encode(nil); Len(b) != 0 || Decode(b, func([]byte, uint32, Flag) bool { t.Error("entry"); return true }) != nil {
		t.Error("empty list")
	}
}

// A fingerprint is of the instant, not of how it was written, and 0 only
// for no lastmod.
func TestFingerprint(t *testing.T) {
	a := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	b := a.In(time.FixedZone("x", 3600))
	if Fingerprint(a, true) != Fingerprint(b, true) || Fingerprint(a, true) == 0 || Fingerprint(a, false) != 0 {
		t.Error(Fingerprint(a, true), Fingerprint(b, true))
	}
	if Fingerprint(a, true) == Fingerprint(a.Add(time.Second), true) {
		t.Error("a second later, the same fingerprint")
	}
}

func TestRunState(t *testing.T) {
	kept := []Section{{Sitemap: "https://example.com/a.xml", List: Encode([]Entry{{Loc: "https://example.com/x"}})}}
	for _, complete := range []bool{false, true} {
		b := EncodeRun(complete, kept)
		c, k, err := DecodeRun(b)
		if err != nil || c != complete || len(k) != 1 || k[0].Sitemap != kept[0].Sitemap || !slices.Equal(k[0].List, kept[0].List) {
			t.Errorf("complete %v: %v %v %v", complete, c, k, err)
		}
		for cut := range len(b) - 1 {
			if _, _, err := DecodeRun(b[:cut]); err == nil && cut < len(b) {
				t.Errorf("cut at %d: no error", cut)
			}
		}
	}
}

// The fingerprint of the selection goes with the state of a run, and a
// state without one (of EncodeRun, of a version before it) reads as 0; a
// state cut anywhere but before the fingerprint is an error, never
// another fingerprint.
func TestRunStateSelection(t *testing.T) {
	kept := []Section{{Sitemap: "https://example.com/a.xml", List: Encode([]Entry{{Loc: "https://example.com/x"}})}}
	b := EncodeRunOf(false, kept, 0x0123456789abcdef)
	c, k, sel, err := DecodeRunOf(b)
	if err != nil || c || len(k) != 1 || sel != 0x0123456789abcdef {
		t.Fatalf("%v %v %x %v", c, k, sel, err)
	}
	if _, _, sel, err := DecodeRunOf(EncodeRun(true, kept)); err != nil || sel != 0 {
		t.Errorf("a state without a fingerprint: %x %v", sel, err)
	}
	for cut := range len(b) {
		_, _, sel, err := DecodeRunOf(b[:cut])
		if err == nil && (cut != len(b)-8 || sel != 0) {
			t.Errorf("cut at %d of %d: fingerprint %x, no error", cut, len(b), sel)
		}
	}
}

// Sort orders by location then Flag, as a plain sort of the strings does,
// whatever the locations share: a prefix of all, shorter than the 8 bytes
// compared as a number, one a prefix of another, equal.
func TestSortAsStrings(t *testing.T) {
	locs := []string{"https://a.example/x", "https://a.example/", "https://a.example/x/y", "https://a.example/xa",
		"https://a.example/x\x00", "https://a.example/b", "https://a.example/x", "https://a.example/item-10", "https://a.example/item-9"}
	for i := range 200 {
		locs = append(locs, fmt.Sprintf("https://a.example/category-%d/item-%d", i%13, (i*7919)%1000))
	}
	var entries []Entry
	for i, l := range locs {
		entries = append(entries, Entry{Loc: l, Flag: Flag(i % 3)})
	}
	want := slices.Clone(entries)
	slices.SortFunc(want, compareEntries)
	Sort(entries)
	if !slices.Equal(entries, want) {
		t.Errorf("Sort = %v\nwant %v", entries, want)
	}
}

// commonPrefix counts the bytes two locations share, a word at a time or
// less.
func TestCommonPrefix(t *testing.T) {
	for _, c := range []struct {
		a, b string
		n    int
	}{{"", "x", 0}, {"abc", "abd", 2}, {"abcdefghij", "abcdefghij", 10}, {"abcdefghijklmnopq", "abcdefghijklmnopX", 16},
		{"abcdefghXjk", "abcdefghijk", 8}, {"abcdefgXijk", "abcdefghijk", 7}, {"abcdefghijk", "abcdefghi", 9}} {
		if got := commonPrefix(c.a, c.b); got != c.n {
			t.Errorf("commonPrefix(%q, %q) = %d, want %d", c.a, c.b, got, c.n)
		}
	}
}

// Entries in order are encoded in one pass, the same bytes as the same
// entries shuffled: locations that are prefixes of others, a location
// given twice (of two Flags, in order and not), locations alike past the
// megabyte commonPrefix compares.
func TestEncodeSortedOrNot(t *testing.T) {
	long := strings.Repeat("x", 1<<20+5)
	locs := []string{"https://a.example/", "https://a.example/p", "https://a.example/p/", "https://a.example/p/q", "https://a.example/q",
		"https://b.example/" + long + "a", "https://b.example/" + long + "b"}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 40 {
		var entries []Entry
		for i, loc := range locs {
			// One to three entries, of Flags not the same: which one is
			// kept is then told.
			for _, f := range r.Perm(3)[:1+r.IntN(3)] {
				entries = append(entries, Entry{Loc: loc, FP: uint32(10*i + f), Flag: Flag(f)})
			}
		}
		sorted := slices.Clone(entries)
		slices.SortStableFunc(sorted, compareEntries)
		want := Encode(slices.Clone(sorted))
		// The reference: the sorted entries, each location once (the
		// first, of the lowest Flag), read back.
		var ref []Entry
		for i, e := range sorted {
			if i == 0 || e.Loc != sorted[i-1].Loc {
				ref = append(ref, e)
			}
		}
		var got []Entry
		if err := Decode(want, func(loc []byte, fp uint32, f Flag) bool {
			got = append(got, Entry{string(loc), fp, f})
			return true
		}); err != nil || !slices.Equal(got, ref) {
			t.Fatalf("round %d: sorted entries read back as %d entries (%v), want %d", round, len(got), err, len(ref))
		}
		r.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
		if b := Encode(entries); !bytes.Equal(b, want) {
			t.Fatalf("round %d: shuffled entries encoded otherwise than sorted", round)
		}
	}
}
