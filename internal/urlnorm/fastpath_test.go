package urlnorm

import (
	"fmt"
	"strings"
	"testing"
)

// fastPathCases are URLs on both sides of isNormalHTTP's line.
var fastPathCases = []string{
	"https://www.example.com/", "http://example.com", "https://example.com:8080/a?b=c&d=e#f",
	"https://cdn.example.com/images/1/photo-2.jpg", "https://a.example/%41%7e", "https://a.example/%4", "https://a.example/%zz",
	"https://a.example/%", "HTTPS://a.example/", "Https://a.example/", "https://user@a.example/", "https://a.example:/x",
	"https://[::1]/", "https://ex ample.com/", "https://a.example/ x", "https://a.example/é", "https://bücher.example/",
	"https://a.example/<x>", "https://a.example/?q=<x>", "https://a.example/#x y", "https://a.example/a\\b", "https://",
	"http:///x", "https://a.example?x", "https://a.example#x", "https://a.example/a/../b", "ftp://a.example/",
	"https://a.example/\x7f", "https://a.example:8a/", "https:a.example", "//a.example/x", "/x",
	"https://a.example/" + strings.Repeat("a", MaxLength), "https://a.example/" + strings.Repeat("a", MaxLength-len("https://a.example/")),
}

// TestNormalHTTP holds the one-pass check of issue 19 to the whole
// normalisation: a URL it lets through is one that Loc and Link return
// unchanged, without an error, and it lets through the common forms.
func TestNormalHTTP(t *testing.T) {
	for _, s := range fastPathCases {
		checkNormalHTTP(t, s)
	}
	for _, s := range []string{"https://www.example.com/products/category-1/item-2.html?ref=feed&page=3", "http://example.com:80/a%20b#top"} {
		if !isNormalHTTP(s) {
			t.Errorf("isNormalHTTP(%q) = false", s)
		}
	}
}

// checkNormalHTTP fails when isNormalHTTP lets s through and the whole
// normalisation does not return s as it is.
func checkNormalHTTP(t *testing.T, s string) {
	t.Helper()
	if !isNormalHTTP(s) {
		return
	}
	if out, err := normalizeAbsolute(s); out != s || err != nil {
		t.Fatalf("isNormalHTTP(%q), but normalizeAbsolute gives %q, %v", s, out, err)
	}
	if colon := schemeEnd(s); colon <= 0 || s[:colon] != "http" && s[:colon] != "https" {
		t.Fatalf("isNormalHTTP(%q) with scheme %d", s, colon)
	}
}

// FuzzNormalHTTP is TestNormalHTTP on what the fuzzer makes.
func FuzzNormalHTTP(f *testing.F) {
	for _, s := range fastPathCases {
		f.Add(s)
	}
	f.Fuzz(checkNormalHTTP)
}

// isNormalHTTPByByte is isNormalHTTP as the first pass of issue 19 wrote
// it, a byte at a time, which FuzzNormalHTTPByByte holds the faster one to.
func isNormalHTTPByByte(s string) bool {
	var i int
	switch {
	case len(s) > MaxLength:
		return false
	case strings.HasPrefix(s, "https://"):
		i = len("https://")
	case strings.HasPrefix(s, "http://"):
		i = len("http://")
	default:
		return false
	}
	i, ok := authorityByByte(s, i)
	if !ok {
		return false
	}
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c > ' ' && c < 0x7F && !isForbidden(c) && c != '%':
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
		default:
			return false
		}
	}
	return true
}

// authorityByByte is the reading of the host and port of
// isNormalHTTPByByte.
func authorityByByte(s string, i int) (int, bool) {
	host := i
	for i < len(s) && ('a' <= s[i] && s[i] <= 'z' || 'A' <= s[i] && s[i] <= 'Z' || '0' <= s[i] && s[i] <= '9' || s[i] == '.' || s[i] == '-') {
		i++
	}
	if i == host {
		return i, false
	}
	if i < len(s) && s[i] == ':' {
		for i++; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		}
	}
	return i, i == len(s) || s[i] == '/' || s[i] == '?' || s[i] == '#'
}

// TestNormalHTTPByByte holds isNormalHTTP to the byte-at-a-time reading on
// the cases, cut at every length, so that the eight-byte steps meet every
// kind of byte at every place of a step.
func TestNormalHTTPByByte(t *testing.T) {
	for _, c := range append(fastPathCases, "https://www.example.com/products/category-1/item-2.html?ref=feed&page=3",
		"https://abcdefgh.ijklmnop.qr:8080/abcdefgh%41ijklmno?p#q", "https://abcdefghijklmnopqrstuvwxyz%4/", "https://abcdefgh/abcdefg%zz",
		"https://a.example/abcdefghijklm%41bc?d#e<f", "https://a.example:80/a%4?bcdefgh%2") {
		for n := range len(c) + 1 {
			checkNormalHTTPByByte(t, c[:n])
		}
	}
}

func checkNormalHTTPByByte(t *testing.T, s string) {
	t.Helper()
	if got, want := isNormalHTTP(s), isNormalHTTPByByte(s); got != want {
		t.Fatalf("isNormalHTTP(%q) = %v, the byte-at-a-time reading says %v", s, got, want)
	}
}

// FuzzNormalHTTPByByte is TestNormalHTTPByByte on what the fuzzer makes.
func FuzzNormalHTTPByByte(f *testing.F) {
	for _, s := range fastPathCases {
		f.Add(s)
	}
	f.Fuzz(checkNormalHTTPByByte)
}

// trimSpace is strings.TrimSpace, whatever bytes a URL begins and ends
// with (issue 19).
func TestTrimSpace(t *testing.T) {
	ends := []string{"", "\u0085", "\u00a0", "\u2003", "\u3000", "é", "\xff"}
	for c := range 256 {
		ends = append(ends, string(rune(c)), string([]byte{byte(c)}))
	}
	for _, a := range ends {
		for _, z := range ends {
			for _, mid := range []string{"", "x", " x ", "https://a.example/"} {
				s := a + mid + z
				if got, want := trimSpace(s), strings.TrimSpace(s); got != want {
					t.Fatalf("trimSpace(%q) = %q, strings.TrimSpace gives %q", s, got, want)
				}
			}
		}
	}
}

// recentCases are URLs that share a scheme and an authority, or nearly:
// another port, a longer host, a host that is a prefix of another, one
// not in normal form after one that is.
var recentCases = []string{
	"https://www.example.com/a", "https://www.example.com", "https://www.example.com?q", "https://www.example.com#f",
	"https://www.example.com/a b", "https://www.example.com.evil/x", "https://www.example.com:8080/x", "https://www.example.co/x",
	"https://www.example.com:/x", "https://www.example.com@evil/x", "https://www.example.comé/x", " https://www.example.com/x ",
	"http://www.example.com/x", "https://cdn.example.com/i.jpg", "https://www.example.com/%zz", "https://www.example.com/%41",
	"https://WWW.example.com/x", "https://www.example.com/" + strings.Repeat("a", MaxLength), "ftp://www.example.com/x",
	"https://www.example.com\\x", "/relative", "", "https://www.example.com:8080", "https://www.example.com:8080/y",
	"https://www.example.com:ab/x", "https://www.example.com%41/x", "https://www.example.com[x]/",
}

// TestRecent holds Recent to Loc and Link: in every order of the cases
// taken two and three at a time, what it returns is what they return.
func TestRecent(t *testing.T) {
	for _, a := range recentCases {
		for _, b := range recentCases {
			for _, c := range []string{"https://www.example.com/z", "https://cdn.example.com/z", b} {
				checkRecent(t, a, b, c)
			}
		}
	}
}

// checkRecent fails when Recent gives for any of urls, handed to it in
// turn, another result than Loc or Link, in either mode.
func checkRecent(t *testing.T, urls ...string) {
	t.Helper()
	base := parseBase(t, "https://www.example.com/sitemap.xml")
	for _, strict := range []bool{false, true} {
		var r Recent
		for i, u := range urls {
			got, err := r.Loc(u, base, strict)
			want, wantErr := Loc(u, base, strict)
			if got != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("strict %v: Recent.Loc(%q) after %q = %q, %v; Loc gives %q, %v", strict, u, urls[:i], got, err, want, wantErr)
			}
			got, err = r.Link(u, strict)
			want, wantErr = Link(u, strict)
			if got != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("strict %v: Recent.Link(%q) after %q = %q, %v; Link gives %q, %v", strict, u, urls[:i], got, err, want, wantErr)
			}
		}
	}
}

// FuzzRecent is TestRecent on what the fuzzer makes.
func FuzzRecent(f *testing.F) {
	for i, a := range recentCases {
		f.Add(a, recentCases[(i+1)%len(recentCases)], recentCases[(i+5)%len(recentCases)])
	}
	f.Fuzz(func(t *testing.T, a, b, c string) { checkRecent(t, a, b, c) })
}

// hasPrefix is strings.HasPrefix for prefixes of every length up to 40
// bytes, the same or for one byte, at each place, the same as s.
func TestHasPrefix(t *testing.T) {
	s := "https://www.example.com:8080/a/path?q=1#f"
	for n := 0; n <= len(s); n++ {
		p := []byte(s[:n])
		if !hasPrefix(s, string(p)) {
			t.Fatalf("hasPrefix(%q, %q) = false", s, p)
		}
		for i := range p {
			q := append([]byte(nil), p...)
			q[i] ^= 0x20
			if got, want := hasPrefix(s, string(q)), strings.HasPrefix(s, string(q)); got != want {
				t.Fatalf("hasPrefix(%q, %q) = %v, want %v", s, q, got, want)
			}
		}
	}
}
