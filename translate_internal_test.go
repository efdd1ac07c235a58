package sitemap

import (
	"bytes"
	"strings"
	"testing"
)

// textOf is value.text, whatever bytes a value begins and ends with: every
// byte at each end of a value, and the white space of Unicode that
// bytes.TrimSpace trims (issue 19).
func TestTextOf(t *testing.T) {
	ends := []string{"", "\u0085", "\u00a0", "\u2003", "\u3000", "é", "\xff"}
	for c := range 256 {
		ends = append(ends, string(rune(c)), string([]byte{byte(c)}))
	}
	for _, a := range ends {
		for _, z := range ends {
			for _, mid := range []string{"", "x", " x ", "a b"} {
				v := value{b: []byte(a + mid + z)}
				if got, want := textOf(&v), v.text(); !bytes.Equal(got, want) || (got == nil) != (want == nil) {
					t.Fatalf("textOf(%q) = %q, text() gives %q", v.b, got, want)
				}
			}
		}
	}
}

// changeFreqOf finds the values of the protocol by their first letter: it
// answers as a comparison with each value in turn does, in both modes
// (VALUE-4, TOLERANT-10).
func TestChangeFreqOf(t *testing.T) {
	cases := []string{"", "d", "D", "a", "!", "\xc1", "dailyx", "dail", "daly", "Daily", "DAILY", "dAiLy", "monthly", "Monthly",
		"montly", "nEVER", "yearly ", "hourly", "Hourly", "weekly", "WEEKLY", "always", "ALWAYs", "never", "yearly", "Yearly",
		"\x01aily", "Aaily", "`lways", "@lways", "Always"}
	for _, v := range changeFreqValues {
		cases = append(cases, string(v), strings.ToUpper(string(v)), string(v[1:]), string(v)+"s", "x"+string(v[1:]))
	}
	for _, raw := range cases {
		for _, strict := range []bool{false, true} {
			wantCF, wantI := string(raw), -1
			for i, v := range changeFreqValues {
				if raw == string(v) || !strict && strings.EqualFold(raw, string(v)) {
					wantCF, wantI = string(v), i
					break
				}
			}
			if cf, i := changeFreqOf([]byte(raw), strict); cf != wantCF || i != wantI {
				t.Errorf("changeFreqOf(%q, %v) = %q, %d, want %q, %d", raw, strict, cf, i, wantCF, wantI)
			}
		}
	}
}

// A table of dates serves the reader of its first date only: a date that
// one reader read is never handed to the other, nor added for it.
func TestSeenDatesKeepToOneReader(t *testing.T) {
	s := seenDatesPool.Get().(*seenDates)
	defer s.release()
	w3c, rfc := &LastModTime{}, &LastModTime{}
	s.add([]byte("2024-01-15"), false, w3c)
	s.add([]byte("Mon, 15 Jan 2024 10:30:00 GMT"), true, rfc)
	if got := s.get([]byte("2024-01-15"), false); got != w3c {
		t.Errorf("the W3C date is %p, want %p", got, w3c)
	}
	if got := s.get([]byte("2024-01-15"), true); got != nil {
		t.Errorf("the W3C date is handed to the RFC 822 reader: %p", got)
	}
	if got := s.get([]byte("Mon, 15 Jan 2024 10:30:00 GMT"), true); got != nil {
		t.Errorf("a date of the second reader was added: %p", got)
	}
	if got := (*seenDates)(nil).get([]byte("2024-01-15"), false); got != nil {
		t.Errorf("a nil table has %p", got)
	}
}

// The table of dates answers as a map of the dates added does, for dates
// of every length up to maxSeenDate and beyond, many of them alike but for
// a byte, until it is full; and release leaves it empty.
func TestSeenDatesAsMap(t *testing.T) {
	s := seenDatesPool.Get().(*seenDates)
	defer func() { s.release() }()
	want := map[string]*LastModTime{}
	var raws []string
	for n := 1; n <= maxSeenDate+2; n++ {
		for c := range 40 {
			b := []byte(strings.Repeat("0", n))
			b[(c*7)%n] = byte('a' + c%26)
			b[n-1] ^= byte(c / 26)
			raws = append(raws, string(b))
		}
	}
	for _, raw := range raws {
		if got := s.get([]byte(raw), false); got != want[raw] {
			t.Fatalf("get(%q) = %p before it was added, want %p", raw, got, want[raw])
		}
		if _, ok := want[raw]; ok {
			continue
		}
		p := &LastModTime{}
		s.add([]byte(raw), false, p)
		if len(raw) <= maxSeenDate && len(want) < maxSeenDates {
			want[raw] = p
		}
	}
	for _, raw := range raws {
		if got := s.get([]byte(raw), false); got != want[raw] {
			t.Fatalf("get(%q) = %p, want %p", raw, got, want[raw])
		}
	}
	s.release()
	s = seenDatesPool.Get().(*seenDates)
	for _, raw := range raws {
		if got := s.get([]byte(raw), false); got != nil {
			t.Fatalf("get(%q) = %p after release", raw, got)
		}
	}
}
