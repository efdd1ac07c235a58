package sitemap

import (
	"strconv"
	"testing"
)

// TestParseFloat32Tenths holds the table of d.d priorities (issue 19) to
// strconv: every value of the form reads as strconv reads it, and the forms
// beside it still go through strconv.
func TestParseFloat32Tenths(t *testing.T) {
	for _, s := range []string{"0.0", "0.5", "1.0", "0.9", "9.9", "3.7", "0.50", ".5", "1.", "05", "0,5", "a.5", "0.x", "1e1", "-.5"} {
		got, ok := parseFloat32([]byte(s))
		f, err := strconv.ParseFloat(s, 32)
		if want := float32(f); ok != (err == nil) || ok && got != want {
			t.Errorf("parseFloat32(%q) = %v, %v; strconv %v, %v", s, got, ok, want, err)
		}
	}
	for a := range 10 {
		for b := range 10 {
			s := strconv.Itoa(a) + "." + strconv.Itoa(b)
			f, _ := strconv.ParseFloat(s, 32)
			if got, ok := parseFloat32([]byte(s)); !ok || got != float32(f) {
				t.Errorf("parseFloat32(%q) = %v, %v, want %v", s, got, ok, float32(f))
			}
		}
	}
}
