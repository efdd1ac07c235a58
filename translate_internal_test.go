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
