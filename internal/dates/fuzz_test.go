package dates

import (
	"testing"
	"time"
)

// The fuzz targets of the date parsers, seeded from the tables of
// dates_test.go. Whatever the input, a parser must not panic, both
// instantiations must agree, and a date it reads must be one that its
// format writes back: formatted again (RFC 3339 for W3C Datetime, RFC 1123
// with a numeric zone for RFC 822), it must read as the same instant, by
// the parser itself and by time.Parse.

func FuzzParseW3C(f *testing.F) {
	for _, c := range w3cDateCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := ParseW3C(in)
		checkFuzzedDate(t, in, got, ok, time.RFC3339Nano, ParseW3C[string], ParseW3C[[]byte])
	})
}

func FuzzParseRFC822(f *testing.F) {
	for _, c := range rfc822DateCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := ParseRFC822(in)
		checkFuzzedDate(t, in, got, ok, time.RFC1123Z, ParseRFC822[string], ParseRFC822[[]byte])
		if ok && got.Nanosecond() != 0 {
			t.Errorf("ParseRFC822(%q) = %v, with a fraction of a second", in, got)
		}
	})
}

// checkFuzzedDate checks the properties every result of a date parser has:
// got, ok is what parse made of in, and layout is the layout of time that
// writes the parser's format.
func checkFuzzedDate(t *testing.T, in string, got time.Time, ok bool, layout string, parse func(string) (time.Time, bool), parseBytes func([]byte) (time.Time, bool)) {
	t.Helper()
	if gotBytes, okBytes := parseBytes([]byte(in)); !sameDate(gotBytes, okBytes, got, ok) {
		t.Fatalf("parse([]byte(%q)) = %v, %v; the string gives %v, %v", in, gotBytes, okBytes, got, ok)
	}
	if !ok {
		if !got.IsZero() {
			t.Fatalf("parse(%q) = %v, false; want the zero time", in, got)
		}
		return
	}
	if y := got.Year(); y < 0 || y > 9999 {
		t.Fatalf("parse(%q) = %v, in year %d", in, got, y)
	}
	if got.Location() == time.Local {
		t.Fatalf("parse(%q) = %v, in time.Local", in, got)
	}
	_, off := got.Zone()
	if d := time.Duration(off) * time.Second; d <= -24*time.Hour || d >= 24*time.Hour {
		t.Fatalf("parse(%q) = %v, with offset %d", in, got, off)
	}

	out := got.Format(layout)
	again, ok := parse(out)
	if _, offAgain := again.Zone(); !ok || !again.Equal(got) || offAgain != off {
		t.Fatalf("parse(%q) = %v, formatted %q, which parses as %v, %v", in, got, out, again, ok)
	}
	std, err := time.Parse(layout, out)
	if err != nil || !std.Equal(got) {
		t.Fatalf("parse(%q) = %v, formatted %q, which time.Parse reads as %v, %v", in, got, out, std, err)
	}
}
