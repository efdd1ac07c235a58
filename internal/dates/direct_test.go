package dates

import (
	"fmt"
	"testing"
	"time"
)

// TestParseW3CDirect holds the direct computation of ParseW3C (issue 19)
// to time.Date: over the whole range of years, every month, the ends of
// the months, leap days and clocks in every kind of zone, the time parsed
// is the one time.Date makes, location included.
func TestParseW3CDirect(t *testing.T) {
	zones := []struct {
		tzd string
		loc *time.Location
	}{{"", time.UTC}, {"Z", time.UTC}, {"+00:00", time.FixedZone("", 0)}, {"+05:30", time.FixedZone("", 5*3600+30*60)},
		{"-09:30", time.FixedZone("", -(9*3600 + 30*60))}, {"+1345", time.FixedZone("", 13*3600+45*60)}, {"-23", time.FixedZone("", -23*3600)}}
	years := []int{0, 1, 3, 4, 99, 100, 399, 400, 401, 1582, 1899, 1900, 1969, 1970, 1971, 1999, 2000, 2024, 2100, 2400, 9999}
	for y := 0; y <= 9999; y += 37 {
		years = append(years, y)
	}
	n := 0
	for _, y := range years {
		for m := 1; m <= 12; m++ {
			last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
			for _, d := range []int{1, 15, 28, last} {
				s := fmt.Sprintf("%04d-%02d-%02d", y, m, d)
				if got, ok := ParseW3C(s); !ok || got != time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) {
					t.Fatalf("ParseW3C(%q) = %v, %v", s, got, ok)
				}
				for _, z := range zones {
					c := s + fmt.Sprintf("T%02d:%02d:%02d.123456789", (y+d)%24, (m*7)%60, d%60) + z.tzd
					want := time.Date(y, time.Month(m), d, (y+d)%24, (m*7)%60, d%60, 123456789, z.loc)
					got, ok := ParseW3C(c)
					// The same instant and zone, and the very value
					// time.Date makes in the zone ParseW3C chose.
					gn, go_ := got.Zone()
					wn, wo := want.Zone()
					same := time.Date(y, time.Month(m), d, (y+d)%24, (m*7)%60, d%60, 123456789, got.Location())
					if !ok || !got.Equal(want) || gn != wn || go_ != wo || got != same {
						t.Fatalf("ParseW3C(%q) = %v, %v, want %v", c, got, ok, want)
					}
					n++
				}
			}
		}
	}
	if n < 10_000 {
		t.Fatalf("only %d values", n)
	}
}

// w3cCommonCases are values of the three forms w3cCommon reads, and values
// next to them that it has to leave to parseW3CGeneral.
var w3cCommonCases = []string{
	"2024-01-15", "2024-02-29", "2023-02-29", "0000-01-01", "9999-12-31", "2024-13-01", "2024-00-10", "2024-1-015",
	"2024-01-15T10:30:00Z", "2024-01-15t10:30:00z", "2024-01-15T23:59:59Z", "2024-01-15T24:00:00Z", "2024-01-15T10:60:00Z",
	"2024-01-15T10:30:60Z", "2024-01-15 10:30:00Z", "2024-01-15T10:30:00.", "2024-01-15T10-30:00Z", "2024-01-15T10:30-00Z",
	"2024-01-15T10:30:00+00:00", "2024-01-15T10:30:00-00:00", "2024-01-15T10:30:00+05:30", "2024-01-15T10:30:00-09:30",
	"2024-01-15T10:30:00+23:59", "2024-01-15T10:30:00+24:00", "2024-01-15T10:30:00+05:60", "2024-01-15T10:30:00+0530x",
	"2024-01-15T10:30:00.12+05", "2024-01-15T10:30:00*05:30", "2024-01-15T10:30:00+05-30", "2024-01-15T1a:30:00+05:30",
	"2024/01/15", "20240115T1", "2024-01-15T10:30:00+01:45", "1970-01-01T00:00:00+14:00", "1969-12-31T23:59:59-12:00",
	"2024-01-1\x00", "\xff024-01-15", "2024-01-15T10:30:0\xffZ",
}

// TestW3CCommon holds the direct reading of the common forms to the reading
// of every form: w3cCommon takes the valid values of its forms, and what it
// makes of one is what parseW3CGeneral makes, zone included.
func TestW3CCommon(t *testing.T) {
	taken := 0
	for _, in := range w3cCommonCases {
		checkW3CCommon(t, in)
		if _, ok := w3cCommon(in); ok {
			taken++
		}
	}
	if taken != 15 {
		t.Errorf("w3cCommon took %d of the cases, want 15", taken)
	}
}

// checkW3CCommon fails when w3cCommon reads in otherwise than
// parseW3CGeneral, or leaves a value of its forms that is valid to it.
func checkW3CCommon(t *testing.T, in string) {
	t.Helper()
	got, ok := w3cCommon(in)
	want, wantOK := parseW3CGeneral(in)
	if gb, okb := w3cCommon([]byte(in)); !sameParse(gb, got) || okb != ok {
		t.Fatalf("w3cCommon([]byte(%q)) = %v, %v; the string gives %v, %v", in, gb, okb, got, ok)
	}
	n := len(in)
	common := wantOK && (n == 10 || n == 20 || n == 25 && (in[19] == '+' || in[19] == '-') && in[22] == ':')
	if ok && (!sameParse(got, want) || !wantOK) || !ok && common {
		t.Fatalf("w3cCommon(%q) = %v, %v; parseW3CGeneral gives %v, %v", in, got, ok, want, wantOK)
	}
}

// FuzzW3CCommon holds w3cCommon to parseW3CGeneral on any input.
func FuzzW3CCommon(f *testing.F) {
	for _, in := range w3cCommonCases {
		f.Add(in)
	}
	f.Fuzz(checkW3CCommon)
}

// sameParse tells whether a and b are one value: the same fields, and the
// same zone. The zone is one *time.Location where a parser shares it (UTC,
// the whole hours time.FixedZone keeps, fractionalZones); another offset
// has a zone of its own each time, with the same name and offset.
func sameParse(a, b time.Time) bool {
	an, ao := a.Zone()
	bn, bo := b.Zone()
	return a.In(b.Location()) == b && an == bn && ao == bo && (a.Location() == b.Location() || ownZone(a) && ownZone(b))
}

// ownZone tells whether the zone of t is one no other time shares.
func ownZone(t time.Time) bool {
	l := t.Location()
	_, off := t.Zone()
	for _, z := range fractionalZones {
		if z.loc == l {
			return false
		}
	}
	return l != time.UTC && l != time.FixedZone("", off)
}
