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
