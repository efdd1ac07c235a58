package urlnorm

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// White-box tests of the engine. The causes are compared by their text
// where the spec fixes it; the sitemap package wraps them as
// validate "URL": cause.

const testSitemap = "https://example.com/sitemap.xml"

// urlOfLength returns an https URL on example.com of exactly n characters,
// its path made of 'a's and ending in tail.
func urlOfLength(n int, tail string) string {
	const prefix = "https://example.com/"
	return prefix + strings.Repeat("a", n-len(prefix)-len(tail)) + tail
}

type locTest struct {
	name    string
	raw     string
	base    string // "" stands for a nil base
	strict  bool
	want    string
	wantErr string
}

// locTests are the cases of Loc; FuzzLoc is seeded with
// them.
var locTests = []locTest{
	// TOLERANT-2, -3, -4: spaces and characters not in ASCII are encoded,
	// escapes are kept.
	{name: "TOLERANT-2 space in query", raw: "https://example.com/search?q=summer sale", base: testSitemap, want: "https://example.com/search?q=summer%20sale"},
	{name: "TOLERANT-3 non-ASCII in path and query", raw: "https://example.com/café?q=café", base: testSitemap, want: "https://example.com/caf%C3%A9?q=caf%C3%A9"},
	{name: "TOLERANT-3 non-ASCII in fragment", raw: "https://example.com/p#café", base: testSitemap, want: "https://example.com/p#caf%C3%A9"},
	{name: "TOLERANT-4 escape kept", raw: "https://example.com/summer%20sale", base: testSitemap, want: "https://example.com/summer%20sale"},
	{name: "TOLERANT-4 lower-case escape kept", raw: "https://example.com/caf%c3%a9", base: testSitemap, want: "https://example.com/caf%c3%a9"},
	{name: "TOLERANT-4 escaped percent kept", raw: "https://example.com/100%25", base: testSitemap, want: "https://example.com/100%25"},
	{name: "plain URL unchanged", raw: "https://example.com/page?a=1&b=2#top", base: testSitemap, want: "https://example.com/page?a=1&b=2#top"},
	{name: "VALUE-8 white space around trimmed", raw: "\n\t  https://example.com/page \r\n", base: testSitemap, want: "https://example.com/page"},
	{name: "space in path", raw: "https://example.com/summer sale", base: testSitemap, want: "https://example.com/summer%20sale"},

	// STRICT-14, TOLERANT-5: the forbidden characters stay in the query,
	// and are encoded in the path and in the fragment.
	{name: "STRICT-14 tolerant keeps | in query", raw: "https://example.com/search?tags=summer|sale", base: testSitemap, want: "https://example.com/search?tags=summer|sale"},
	{name: "TOLERANT-5 | in path, query, fragment", raw: "https://example.com/a|b?c|d#e|f", base: testSitemap, want: "https://example.com/a%7Cb?c|d#e%7Cf"},
	{name: "TOLERANT-5 all in path", raw: "https://example.com/\"<>\\^`{|}", base: testSitemap, want: "https://example.com/%22%3C%3E%5C%5E%60%7B%7C%7D"},
	{name: "TOLERANT-5 all in query", raw: "https://example.com/?\"<>\\^`{|}", base: testSitemap, want: "https://example.com/?\"<>\\^`{|}"},
	{name: "TOLERANT-5 all in fragment", raw: "https://example.com/#\"<>\\^`{|}", base: testSitemap, want: "https://example.com/#%22%3C%3E%5C%5E%60%7B%7C%7D"},
	{name: "? and # in fragment are literal", raw: "https://example.com/p#a?b#c d", base: testSitemap, want: "https://example.com/p#a?b#c%20d"},
	{name: "STRICT-6 tolerant keeps square brackets", raw: "https://example.com/a[1]?b[]=2", base: testSitemap, want: "https://example.com/a[1]?b[]=2"},

	// TOLERANT-12, decided: control characters and a % that begins no
	// escape are encoded.
	{name: "TOLERANT-12 tab encoded", raw: "https://example.com/a\tb", base: testSitemap, want: "https://example.com/a%09b"},
	{name: "TOLERANT-12 line break in query encoded", raw: "https://example.com/?q=a\nb", base: testSitemap, want: "https://example.com/?q=a%0Ab"},
	{name: "TOLERANT-12 DEL encoded", raw: "https://example.com/a\x7fb", base: testSitemap, want: "https://example.com/a%7Fb"},
	{name: "TOLERANT-12 C1 control encoded", raw: "https://example.com/a\u0085b", base: testSitemap, want: "https://example.com/a%C2%85b"},
	{name: "TOLERANT-12 malformed escapes encoded", raw: "https://example.com/100%GG?d=50%#x%4", base: testSitemap, want: "https://example.com/100%25GG?d=50%25#x%254"},
	{name: "invalid UTF-8 encoded byte by byte", raw: "https://example.com/caf\xe9", base: testSitemap, want: "https://example.com/caf%E9"},

	// Tolerant mode writes the scheme in lower case.
	{name: "scheme in lower case", raw: "HTTPS://example.com/page", base: testSitemap, want: "https://example.com/page"},

	// TOLERANT-1, REDIRECT-2, REDIRECT-5: relative URLs are resolved against
	// the final URL of the sitemap.
	{name: "TOLERANT-1 absolute path", raw: "/page", base: testSitemap, want: "https://example.com/page"},
	{name: "TOLERANT-1 relative path", raw: "page", base: "https://example.com/dir/sitemap.xml", want: "https://example.com/dir/page"},
	{name: "TOLERANT-1 dot segments", raw: "../page", base: "https://example.com/dir/sitemap.xml", want: "https://example.com/page"},
	{name: "TOLERANT-1 query only", raw: "?p=2", base: "https://example.com/dir/sitemap.xml", want: "https://example.com/dir/sitemap.xml?p=2"},
	{name: "TOLERANT-1 encoded after resolution", raw: "/summer sale/café?q=é#é", base: testSitemap, want: "https://example.com/summer%20sale/caf%C3%A9?q=%C3%A9#%C3%A9"},
	{name: "TOLERANT-1 forbidden characters in a relative URL", raw: "/a|b?c|d", base: testSitemap, want: "https://example.com/a%7Cb?c|d"},
	{name: "REDIRECT-5 relative URL in a redirected sitemap", raw: "/page", base: "https://www.example.com/sitemap.xml", want: "https://www.example.com/page"},
	{name: "relative URL keeps the port of base", raw: "/page", base: "https://example.com:8443/sitemap.xml", want: "https://example.com:8443/page"},
	{name: "relative URL whose first segment has a colon", raw: "1a:b", base: testSitemap, wantErr: `parse "1a:b": first path segment in URL cannot contain colon`},

	// LOC-5, LOC-6, LOC-7: scheme-relative URLs take the scheme of base.
	{name: "LOC-5 scheme-relative in https", raw: "//cdn.example.com/page", base: testSitemap, want: "https://cdn.example.com/page"},
	{name: "LOC-5 scheme-relative in http", raw: "//cdn.example.com/page", base: "http://example.com/sitemap.xml", want: "http://cdn.example.com/page"},
	{name: "LOC-6 //", raw: "//", base: testSitemap, wantErr: "missing host"},
	{name: "LOC-6 ///page", raw: "///page", base: testSitemap, wantErr: "missing host"},
	{name: "LOC-7 //::", raw: "//::", base: testSitemap, wantErr: `parse "https://::": invalid port "::" after host`},

	// LOC-2, LOC-4: a location names a host, in both modes.
	{name: "LOC-2 https:///page", raw: "https:///page", base: testSitemap, wantErr: "missing host"},
	{name: "LOC-2 https:page", raw: "https:page", base: testSitemap, wantErr: "missing host"},
	{name: "LOC-2 https://:8080/page", raw: "https://:8080/page", base: testSitemap, wantErr: "missing host"},
	{name: "LOC-2 user but no host", raw: "https://user@/page", base: testSitemap, wantErr: "missing host"},
	{name: "LOC-4 relative URL in a sitemap without host", raw: "/page", base: "https:///sitemap.xml", wantErr: "missing host"},
	{name: "LOC-2 strict https:///page", raw: "https:///page", strict: true, base: testSitemap, wantErr: "missing host"},
	{name: "LOC-2 strict https:page", raw: "https:page", strict: true, base: testSitemap, wantErr: "missing host"},
	{name: "LOC-2 strict https://:8080/page", raw: "https://:8080/page", strict: true, base: testSitemap, wantErr: "missing host"},
	{name: "host IDNA maps to nothing", raw: "https://\u00ad/page", base: testSitemap, wantErr: "missing host"},

	// LOC-1: an empty location, in both modes.
	{name: "LOC-1 empty", raw: "", base: testSitemap, wantErr: "URL is empty"},
	{name: "LOC-1 white space only", raw: " \n\t", base: testSitemap, wantErr: "URL is empty"},
	{name: "LOC-1 strict empty", raw: " ", strict: true, base: testSitemap, wantErr: "URL is empty"},

	// ROBOTS-12, -13: the value of a Sitemap: line.
	{name: "ROBOTS-12 ftp", raw: "ftp://example.com/sitemap.xml", base: "https://example.com/robots.txt", wantErr: `unsupported scheme "ftp"`},
	{name: "ROBOTS-12 strict ftp", raw: "ftp://example.com/sitemap.xml", strict: true, base: "https://example.com/robots.txt", wantErr: `strict mode: unsupported scheme "ftp"`},
	{name: "ROBOTS-12 mailto", raw: "mailto:webmaster@example.com", base: "https://example.com/robots.txt", wantErr: `unsupported scheme "mailto"`},
	{name: "ROBOTS-13 relative value resolved", raw: "/sitemap.xml", base: "https://example.com/robots.txt", want: "https://example.com/sitemap.xml"},
	{name: "ROBOTS-13 relative value encoded", raw: "sitemap münchen.xml", base: "https://example.com/robots.txt", want: "https://example.com/sitemap%20m%C3%BCnchen.xml"},
	{name: "ROBOTS-14 strict relative value", raw: "/sitemap.xml", strict: true, base: "https://example.com/robots.txt", wantErr: "strict mode: URL is not absolute"},
	{name: "ROBOTS-14 strict space", raw: "https://example.com/my sitemap.xml", strict: true, base: "https://example.com/robots.txt", wantErr: "strict mode: URL contains a space"},

	// FOLLOW-8, RULES-2: what the rules match is the encoded URL.
	{name: "FOLLOW-8 m%C3%BCnchen", raw: "https://example.com/münchen/sitemap.xml", base: testSitemap, want: "https://example.com/m%C3%BCnchen/sitemap.xml"},

	// IDN-2, -3, -4, -8, -9: the host in Punycode, as net/http converts it.
	{name: "IDN-2 Unicode host", raw: "https://bücher.example/page", base: testSitemap, want: "https://xn--bcher-kva.example/page"},
	{name: "IDN-3 upper-case Unicode host", raw: "https://BÜCHER.example/page", base: testSitemap, want: "https://xn--bcher-kva.example/page"},
	{name: "IDN-3 Punycode host unchanged", raw: "https://xn--bcher-kva.example/page", base: testSitemap, want: "https://xn--bcher-kva.example/page"},
	{name: "IDN-4 relative URL in a sitemap on a Unicode host", raw: "/page", base: "https://bücher.example/sitemap.xml", want: "https://xn--bcher-kva.example/page"},
	{name: "IDN-6 scheme-relative Unicode host", raw: "//bücher.example/page", base: testSitemap, want: "https://xn--bcher-kva.example/page"},
	{name: "IDN-8 ASCII host kept as written", raw: "https://Example.com/page", base: testSitemap, want: "https://Example.com/page"},
	{name: "IDN-8 upper-case Punycode kept as written", raw: "https://XN--BCHER-KVA.example/page", base: testSitemap, want: "https://XN--BCHER-KVA.example/page"},
	{name: "IDN-9 no valid domain name", raw: "https://bücher_x.example/page", base: testSitemap, want: "https://b%C3%BCcher_x.example/page"},
	{name: "IDN-9 fuzz: U+04C0 no valid domain name", raw: "http://Ӏ", base: "0", want: "http://%D3%80"},
	{name: "IDN-5 U+04CF valid domain name", raw: "http://ӏ", base: testSitemap, want: "http://xn--s5a"},
	{name: "IDN-9 already as net/url writes it", raw: "https://b%C3%BCcher_x.example/page", base: testSitemap, want: "https://b%C3%BCcher_x.example/page"},
	{name: "IDN-5 percent-encoded Unicode host", raw: "https://b%C3%BCcher.example/page", base: testSitemap, want: "https://xn--bcher-kva.example/page"},
	{name: "IDN-5 fullwidth letters mapped", raw: "https://ｅｘａｍｐｌｅ.com/page", base: testSitemap, want: "https://example.com/page"},
	{name: "IDN port kept", raw: "https://bücher.example:8443/page", base: testSitemap, want: "https://xn--bcher-kva.example:8443/page"},
	{name: "IDN user information kept", raw: "https://user:pw@bücher.example/page", base: testSitemap, want: "https://user:pw@xn--bcher-kva.example/page"},
	{name: "IDN host with query only", raw: "https://bücher.example?q=1", base: testSitemap, want: "https://xn--bcher-kva.example?q=1"},
	{name: "IPv6 host kept", raw: "https://[::1]:8080/a b", base: testSitemap, want: "https://[::1]:8080/a%20b"},
	{name: "host as net/url reads it, < included", raw: "https://a<b.example/p", base: testSitemap, want: "https://a<b.example/p"},
	{name: "host as net/url reads it, strict", raw: "https://a<b.example/p", strict: true, base: testSitemap, wantErr: `strict mode: URL contains the character '<', which it has to give as "%3C"`},
	{name: "space in host", raw: "https://exa mple.com/", base: testSitemap, wantErr: `parse "https://exa mple.com/": invalid character " " in host name`},

	// Bases that are no HTTP URL, or none at all: no panic.
	{name: "file base", raw: "/page", base: "file:///x.xml", wantErr: `unsupported scheme "file"`},
	{name: "file base scheme-relative", raw: "//example.com/page", base: "file:///x.xml", wantErr: `unsupported scheme "file"`},
	{name: "nil base relative", raw: "/page", wantErr: "URL is not absolute"},
	{name: "nil base scheme-relative", raw: "//example.com/page", wantErr: "URL is not absolute"},
	{name: "relative base", raw: "page", base: "/dir/", wantErr: "URL is not absolute"},
	{name: "nil base absolute", raw: "https://example.com/a b", want: "https://example.com/a%20b"},

	// TOLERANT-6: at most 2,048 characters after resolution and encoding.
	{name: "TOLERANT-6 exactly 2048", raw: urlOfLength(2048, ""), base: testSitemap, want: urlOfLength(2048, "")},
	{name: "TOLERANT-6 2049", raw: urlOfLength(2049, ""), base: testSitemap, wantErr: "URL is longer than 2,048 characters"},
	{name: "TOLERANT-6 2048 after encoding", raw: urlOfLength(2046, " x"), base: testSitemap, want: urlOfLength(2048, "%20x")},
	{name: "TOLERANT-6 over 2048 only after encoding", raw: urlOfLength(2047, " x"), base: testSitemap, wantErr: "URL is longer than 2,048 characters"},
	{name: "TOLERANT-6 over 2048 only after resolution", raw: strings.Repeat("a", 2029), base: testSitemap, wantErr: "URL is longer than 2,048 characters"},
	{name: "TOLERANT-6 2048 after resolution", raw: strings.Repeat("a", 2028), base: testSitemap, want: urlOfLength(2048, "")},

	// STRICT-2: absolute HTTP or HTTPS URLs only.
	{name: "STRICT-2 relative", raw: "/page", strict: true, base: testSitemap, wantErr: "strict mode: URL is not absolute"},
	{name: "STRICT-2 scheme-relative", raw: "//example.com/page", strict: true, base: testSitemap, wantErr: "strict mode: URL is not absolute"},
	{name: "STRICT-2 ftp", raw: "ftp://example.com/page", strict: true, base: testSitemap, wantErr: `strict mode: unsupported scheme "ftp"`},
	{name: "STRICT-2 http", raw: "http://example.com/page", strict: true, base: testSitemap, want: "http://example.com/page"},

	// STRICT-4, STRICT-15: no space, no control character.
	{name: "STRICT-15 space in path", raw: "https://example.com/summer sale", strict: true, base: testSitemap, wantErr: "strict mode: URL contains a space"},
	{name: "STRICT-15 space in query", raw: "https://example.com/search?q=summer sale", strict: true, base: testSitemap, wantErr: "strict mode: URL contains a space"},
	{name: "STRICT-4 tab", raw: "https://example.com/a\tb", strict: true, base: testSitemap, wantErr: "strict mode: URL contains a control character"},
	{name: "STRICT-4 line break in fragment", raw: "https://example.com/a#b\nc", strict: true, base: testSitemap, wantErr: "strict mode: URL contains a control character"},
	{name: "STRICT-4 DEL", raw: "https://example.com/a\x7f", strict: true, base: testSitemap, wantErr: "strict mode: URL contains a control character"},
	{name: "STRICT-4 C1 control NEL", raw: "https://example.com/a\u0085b", strict: true, base: testSitemap, wantErr: "strict mode: URL contains a control character"},

	// STRICT-5, STRICT-14: the forbidden characters, wherever they stand.
	{name: "STRICT-14 | in query", raw: "https://example.com/search?tags=summer|sale", strict: true, base: testSitemap, wantErr: `strict mode: URL contains the character '|', which it has to give as "%7C"`},
	{name: "STRICT-14 \" in path", raw: `https://example.com/a"b`, strict: true, base: testSitemap, wantErr: `strict mode: URL contains the character '"', which it has to give as "%22"`},
	{name: "STRICT-14 < in path", raw: "https://example.com/a<b", strict: true, base: testSitemap, wantErr: `strict mode: URL contains the character '<', which it has to give as "%3C"`},
	{name: "STRICT-14 > in query", raw: "https://example.com/?a>b", strict: true, base: testSitemap, wantErr: `strict mode: URL contains the character '>', which it has to give as "%3E"`},
	{name: "STRICT-14 \\ in path", raw: `https://example.com/a\b`, strict: true, base: testSitemap, wantErr: `strict mode: URL contains the character '\', which it has to give as "%5C"`},
	{name: "STRICT-14 ^ in fragment", raw: "https://example.com/#a^b", strict: true, base: testSitemap, wantErr: `strict mode: URL contains the character '^', which it has to give as "%5E"`},
	{name: "STRICT-14 ` in query", raw: "https://example.com/?a`b", strict: true, base: testSitemap, wantErr: "strict mode: URL contains the character '`', which it has to give as \"%60\""},
	{name: "STRICT-14 { in path", raw: "https://example.com/a{b", strict: true, base: testSitemap, wantErr: `strict mode: URL contains the character '{', which it has to give as "%7B"`},
	{name: "STRICT-14 } in fragment", raw: "https://example.com/#a}b", strict: true, base: testSitemap, wantErr: `strict mode: URL contains the character '}', which it has to give as "%7D"`},

	// STRICT-6, STRICT-16: square brackets and non-ASCII accepted, and the
	// URL returned as written.
	{name: "STRICT-6 square brackets", raw: "https://example.com/a[1]?b[]=2", strict: true, base: testSitemap, want: "https://example.com/a[1]?b[]=2"},
	{name: "STRICT-6 non-ASCII", raw: "https://example.com/café?q=café", strict: true, base: testSitemap, want: "https://example.com/café?q=café"},
	{name: "STRICT-16 as written", raw: "  HTTPS://Example.com/Page%20One  ", strict: true, base: testSitemap, want: "HTTPS://Example.com/Page%20One"},
	{name: "IDN-10 strict Unicode host as written", raw: "https://bücher.example/page", strict: true, base: "https://xn--bcher-kva.example/sitemap.xml", want: "https://bücher.example/page"},
	{name: "strict malformed escape", raw: "https://example.com/%GG", strict: true, base: testSitemap, wantErr: `parse "https://example.com/%GG": invalid URL escape "%GG"`},

	// STRICT-7, STRICT-17 (decided): at most 2,048 characters as written.
	{name: "STRICT-7 exactly 2048", raw: urlOfLength(2048, ""), strict: true, base: testSitemap, want: urlOfLength(2048, "")},
	{name: "STRICT-7 2049", raw: urlOfLength(2049, ""), strict: true, base: testSitemap, wantErr: "strict mode: URL is longer than 2,048 characters"},
	// urlOfLength counts bytes, and "é" is one character of two bytes.
	{name: "STRICT-17 2048 characters, one not in ASCII", raw: urlOfLength(2049, "é"), strict: true, base: testSitemap, want: urlOfLength(2049, "é")},
	{name: "STRICT-17 2049 characters, one not in ASCII", raw: urlOfLength(2050, "é"), strict: true, base: testSitemap, wantErr: "strict mode: URL is longer than 2,048 characters"},
	// Found by FuzzLoc: bytes that continue no UTF-8 sequence were
	// not counted, so 2,049 characters passed.
	{name: "STRICT-17 fuzz: stray UTF-8 continuation bytes count", raw: "https://example.com/" + strings.Repeat("a", 906) + "\xa3\xa3\xa3\xa3\xa3" + strings.Repeat("a", 1118), strict: true, base: testSitemap, wantErr: "strict mode: URL is longer than 2,048 characters"},
	{name: "STRICT-17 stray UTF-8 continuation bytes, 2048", raw: "https://example.com/" + strings.Repeat("a", 905) + "\xa3\xa3\xa3\xa3\xa3" + strings.Repeat("a", 1118), strict: true, base: testSitemap, want: "https://example.com/" + strings.Repeat("a", 905) + "\xa3\xa3\xa3\xa3\xa3" + strings.Repeat("a", 1118)},
}

// parseBase parses the base of a test case, "" standing for nil.
func parseBase(t testing.TB, base string) *url.URL {
	t.Helper()
	if base == "" {
		return nil
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("base %q: %v", base, err)
	}
	return u
}

func TestLoc(t *testing.T) {
	for _, tt := range locTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Loc(tt.raw, parseBase(t, tt.base), tt.strict)
			checkResult(t, got, err, tt.want, tt.wantErr)
		})
	}
}

// TestLocIsIdempotent: what tolerant mode returns, it returns
// unchanged, whatever the base; FuzzLoc checks the same on any
// input.
func TestLocIsIdempotent(t *testing.T) {
	for _, tt := range locTests {
		if tt.strict || tt.wantErr != "" {
			continue
		}
		for _, base := range []string{tt.base, "", "https://other.example/dir/sitemap.xml"} {
			got, err := Loc(tt.want, parseBase(t, base), false)
			if err != nil || got != tt.want {
				t.Errorf("%s: Loc(%q, %q) = %q, %v", tt.name, short(tt.want), base, short(got), err)
			}
		}
	}
}

func checkResult(t *testing.T, got string, err error, want, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil {
			t.Fatalf("got %q, want error %q", short(got), wantErr)
		}
		if err.Error() != wantErr {
			t.Fatalf("error %q, want %q", err.Error(), wantErr)
		}
		return
	}
	if err != nil {
		t.Fatalf("error %q, want %q", err.Error(), short(want))
	}
	if got != want {
		t.Fatalf("got %q, want %q", short(got), short(want))
	}
}

// short shortens the long URLs of the length tests for a failure message.
func short(s string) string {
	if len(s) <= 200 {
		return s
	}
	return fmt.Sprintf("%s...%s (%d bytes)", s[:60], s[len(s)-60:], len(s))
}

// TestLocStrictLengthCountsCharacters pins STRICT-17 as decided:
// a character that is not in ASCII counts once.
func TestLocStrictLengthCountsCharacters(t *testing.T) {
	const prefix = "https://example.com/"
	at := prefix + strings.Repeat("é", MaxLength-len(prefix))
	if _, err := Loc(at, nil, true); err != nil {
		t.Errorf("2,048 characters: %v", err)
	}
	if _, err := Loc(at+"é", nil, true); err == nil || err.Error() != "strict mode: URL is longer than 2,048 characters" {
		t.Errorf("2,049 characters: error %v", err)
	}
}

// TestLocForbiddenCharacters goes through each character of
// STRICT-5 in every part of a URL: strict mode names its escape
// (STRICT-14), tolerant mode encodes it in the path and the fragment and
// keeps it in the query (TOLERANT-5).
func TestLocForbiddenCharacters(t *testing.T) {
	escapes := []struct{ c, esc string }{
		{`"`, "%22"}, {"<", "%3C"}, {">", "%3E"}, {`\`, "%5C"}, {"^", "%5E"},
		{"`", "%60"}, {"{", "%7B"}, {"|", "%7C"}, {"}", "%7D"},
	}
	for _, e := range escapes {
		t.Run(e.esc, func(t *testing.T) {
			raw := "https://example.com/a" + e.c + "b?c" + e.c + "d#e" + e.c + "f"
			want := "https://example.com/a" + e.esc + "b?c" + e.c + "d#e" + e.esc + "f"
			got, err := Loc(raw, nil, false)
			checkResult(t, got, err, want, "")

			wantErr := "strict mode: URL contains the character '" + e.c + "', which it has to give as \"" + e.esc + "\""
			for _, part := range []string{"/a" + e.c, "/?a" + e.c, "/#a" + e.c} {
				got, err := Loc("https://example.com"+part, nil, true)
				checkResult(t, got, err, "", wantErr)
			}
			// Given percent-encoded, it is accepted as written.
			ok := "https://example.com/a" + e.esc + "?b" + e.esc + "#c" + e.esc
			got, err = Loc(ok, nil, true)
			checkResult(t, got, err, ok, "")
		})
	}
}

// TestLocErrorsAreValues checks that the causes can be told apart
// with errors.Is, the strict ones as the tolerant ones.
func TestLocErrorsAreValues(t *testing.T) {
	tests := []struct {
		raw    string
		strict bool
		want   error
	}{
		{"https:///page", false, errMissingHost},
		{"https:///page", true, errMissingHost},
		{"ftp://example.com/", false, errUnsupportedScheme},
		{"ftp://example.com/", true, errUnsupportedScheme},
		{urlOfLength(2049, ""), false, ErrTooLong},
		{urlOfLength(2049, ""), true, ErrTooLong},
		{"/page", true, errNotAbsolute},
		{"https://example.com/a b", true, errSpace},
		{"https://example.com/a\tb", true, errControl},
		{"https://example.com/a|b", true, errForbiddenChar},
		{"", false, errEmptyURL},
	}
	for _, tt := range tests {
		_, err := Loc(tt.raw, parseBase(t, testSitemap), tt.strict)
		if !errors.Is(err, tt.want) {
			t.Errorf("Loc(%q, strict %v) = %v, want errors.Is %v", tt.raw, tt.strict, err, tt.want)
		}
	}
}

// cjkLabels returns n labels of size distinct CJK characters each, joined
// by full stops: the costliest host names for the Punycode encoder.
func cjkLabels(n, size int) string {
	var b strings.Builder
	r := rune(0x4e00)
	for i := range n {
		if i > 0 {
			b.WriteByte('.')
		}
		for range size {
			b.WriteRune(r)
			r++
		}
	}
	return b.String()
}

// TestLocLongIDNHost: a host name over the bounds of DNS is no
// valid domain name (IDN-9), and is not handed to the Punycode encoder,
// which takes quadratic time. A host of a million characters is rejected
// at once, as too long in the form net/url writes it.
func TestLocLongIDNHost(t *testing.T) {
	label63, label64 := strings.Repeat("ü", 63), strings.Repeat("ü", 64)
	got, err := Loc("https://"+label63+".example/", nil, false)
	if err != nil || !strings.HasPrefix(got, "https://xn--") {
		t.Errorf("label of 63 characters: %q, %v; want Punycode", got, err)
	}
	got, err = Loc("https://"+label64+".example/", nil, false)
	checkResult(t, got, err, "https://"+strings.Repeat("%C3%BC", 64)+".example/", "")
	// Labels end at what IDNA maps to a full stop as well.
	got, err = Loc("https://"+label63+"\u3002"+label63+"/", nil, false)
	if err != nil || !strings.HasPrefix(got, "https://xn--") {
		t.Errorf("labels of 63 characters after U+3002: %q, %v; want Punycode", got, err)
	}
	name253 := strings.Repeat(strings.Repeat("ü", 62)+".", 4) + "a"
	got, err = Loc("https://"+name253+"/", nil, false)
	if err != nil || !strings.HasPrefix(got, "https://xn--") {
		t.Errorf("name of 253 characters: %q, %v; want Punycode", got, err)
	}
	got, err = Loc("https://"+name253+"a/", nil, false)
	if err != nil || !strings.HasPrefix(got, "https://%C3%BC") {
		t.Errorf("name of 254 characters: %q, %v; want percent-encoded", got, err)
	}

	raw := "https://" + cjkLabels(1, 1<<20) + ".example/page"
	done := make(chan error, 1)
	go func() {
		_, err := Loc(raw, nil, false)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrTooLong) {
			t.Errorf("error %v, want %v", err, ErrTooLong)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Loc did not return within 10 s")
	}
}

type siteTest struct {
	name    string
	loc     string
	base    string
	wantErr string
}

var siteTests = []siteTest{
	// HOST-2: letter case and the default port make no difference.
	{name: "HOST-2 same URL host", loc: "https://example.com/page", base: testSitemap},
	{name: "HOST-2 host in capitals", loc: "https://Example.com/page", base: testSitemap},
	{name: "HOST-2 default port given", loc: "https://example.com:443/page", base: testSitemap},
	{name: "HOST-1 default port given by the sitemap", loc: "https://example.com/page", base: "https://example.com:443/sitemap.xml"},
	{name: "HOST-1 http default port", loc: "http://example.com:80/page", base: "http://example.com/sitemap.xml"},
	{name: "HOST-1 same other port", loc: "https://example.com:8443/page", base: "https://example.com:8443/sitemap.xml"},
	// HOST-3, HOST-4: another host, a subdomain, another port.
	{name: "HOST-3 subdomain", loc: "https://www.example.com/page", base: testSitemap, wantErr: `host "www.example.com" does not match host "example.com"`},
	{name: "HOST-3 other host", loc: "https://example.org/page", base: testSitemap, wantErr: `host "example.org" does not match host "example.com"`},
	{name: "HOST-4 other port", loc: "https://example.com:8443/page", base: testSitemap, wantErr: `host "example.com:8443" does not match host "example.com"`},
	{name: "HOST-1 port of the other protocol", loc: "https://example.com:80/page", base: testSitemap, wantErr: `host "example.com:80" does not match host "example.com"`},
	{name: "HOST-4 hosts as written", loc: "https://Example.com:8443/page", base: "https://EXAMPLE.com/sitemap.xml", wantErr: `host "Example.com:8443" does not match host "EXAMPLE.com"`},
	// HOST-5: the protocol.
	{name: "HOST-5 http in https", loc: "http://example.com/page", base: testSitemap, wantErr: `protocol "http" does not match protocol "https"`},
	{name: "HOST-5 https in http", loc: "https://example.com/page", base: "http://example.com/sitemap.xml", wantErr: `protocol "https" does not match protocol "http"`},
	// REDIRECT-3, REDIRECT-5: the host of the final URL.
	{name: "REDIRECT-5 host of the final URL", loc: "https://www.example.com/page", base: "https://www.example.com/sitemap.xml"},
	{name: "REDIRECT-5 host of the requested URL", loc: "http://example.com/page", base: "https://www.example.com/sitemap.xml", wantErr: `protocol "http" does not match protocol "https"`},
	// IDN-10: both forms of an internationalised name are one host.
	{name: "IDN-10 Punycode in a sitemap on the Unicode host", loc: "https://xn--bcher-kva.example/page", base: "https://bücher.example/sitemap.xml"},
	{name: "IDN-10 Unicode in a sitemap on the Punycode host", loc: "https://bücher.example/page", base: "https://xn--bcher-kva.example/sitemap.xml"},
	{name: "IDN-10 capitals in Unicode", loc: "https://BÜCHER.example/page", base: "https://bücher.example/sitemap.xml"},
	{name: "IDN-10 capitals in Punycode", loc: "https://XN--BCHER-KVA.example/page", base: "https://bücher.example/sitemap.xml"},
	{name: "IDN-10 percent-encoded Unicode", loc: "https://b%C3%BCcher.example/page", base: "https://xn--bcher-kva.example/sitemap.xml"},
	{name: "IDN-10 other Unicode host", loc: "https://bucher.example/page", base: "https://bücher.example/sitemap.xml", wantErr: `host "bucher.example" does not match host "bücher.example"`},
	// A loc that does not parse gets net/url's error.
	{name: "loc does not parse", loc: "https://::/page", base: testSitemap, wantErr: `parse "https://::/page": invalid port "::" after host`},
	// No sitemap URL at all: an error, no panic.
	{name: "nil base", loc: "https://example.com/page", wantErr: `protocol "https" does not match protocol ""`},
}

func TestSameSite(t *testing.T) {
	for _, tt := range siteTests {
		t.Run(tt.name, func(t *testing.T) {
			err := SameSite(tt.loc, parseBase(t, tt.base))
			checkResult(t, "", err, "", tt.wantErr)
			var se *SiteError
			if strings.Contains(tt.wantErr, "does not match") && !errors.As(err, &se) {
				t.Errorf("error %v is no *SiteError", err)
			}
		})
	}
}

type extTest struct {
	name    string
	raw     string
	strict  bool
	want    string
	wantErr string
}

var extTests = []extTest{
	// EXTURL-9 to EXTURL-12: the table of the spec.
	{name: "EXTURL-9 space", raw: "https://cdn.example.com/summer sale.jpg", want: "https://cdn.example.com/summer%20sale.jpg"},
	{name: "EXTURL-9 non-ASCII", raw: "https://cdn.example.com/café.jpg?alt=café", want: "https://cdn.example.com/caf%C3%A9.jpg?alt=caf%C3%A9"},
	{name: "EXTURL-10 Unicode host", raw: "https://bücher.example/cover.jpg", want: "https://xn--bcher-kva.example/cover.jpg"},
	{name: "EXTURL-10 escape kept", raw: "https://cdn.example.com/summer%20sale.jpg", want: "https://cdn.example.com/summer%20sale.jpg"},
	{name: "EXTURL-11 relative URL as written", raw: "/images/summer sale.jpg", want: "/images/summer sale.jpg"},
	{name: "EXTURL-12 nothing to encode", raw: "https://cdn.example.com/a.jpg?w=1", want: "https://cdn.example.com/a.jpg?w=1"},
	{name: "EXTURL-12 other scheme as written", raw: "ftp://cdn.example.com/video file.mp4", want: "ftp://cdn.example.com/video file.mp4"},
	{name: "EXTURL-12 does not parse", raw: "https://exa mple.com/a b.jpg", want: "https://exa mple.com/a b.jpg"},
	{name: "EXTURL-12 no host", raw: "https:///a b.jpg", want: "https:///a b.jpg"},
	// Issue 13, item 13: a URL net/url cannot parse is not repaired.
	{name: "EXTURL-12 malformed escape as written", raw: "https://cdn.example.com/%zz sale.jpg", want: "https://cdn.example.com/%zz sale.jpg"},
	{name: "EXTURL-12 malformed escape in the query as written", raw: "https://cdn.example.com/a b.jpg?off=10%", want: "https://cdn.example.com/a b.jpg?off=10%"},
	{name: "EXTURL-12 control character as written", raw: "https://cdn.example.com/a\tb c.jpg", want: "https://cdn.example.com/a\tb c.jpg"},
	{name: "EXTURL-12 malformed escape, nothing else to encode", raw: "https://cdn.example.com/100%.jpg", want: "https://cdn.example.com/100%.jpg"},
	{name: "EXTURL-12 too long once encoded", raw: urlOfLength(2047, " x"), want: urlOfLength(2047, " x")},
	{name: "EXTURL-12 too long as written", raw: urlOfLength(2049, ""), want: urlOfLength(2049, "")},
	{name: "EXTURL-12 2048 once encoded", raw: urlOfLength(2046, " x"), want: urlOfLength(2048, "%20x")},
	{name: "EXTURL-12 scheme-relative as written", raw: "//cdn.example.com/a b.jpg", want: "//cdn.example.com/a b.jpg"},
	{name: "EXTURL-8 forbidden characters as for a loc", raw: "https://cdn.example.com/a|b.jpg?c|d", want: "https://cdn.example.com/a%7Cb.jpg?c|d"},
	{name: "VALUE-8 trimmed", raw: "\n  https://cdn.example.com/a.jpg\n  ", want: "https://cdn.example.com/a.jpg"},
	{name: "VALUE-8 trimmed relative", raw: "\n  a b.jpg\n", want: "a b.jpg"},
	{name: "empty", raw: "  ", want: ""},

	// EXTURL-2, -3, -5, -6, -14: strict mode.
	{name: "EXTURL-3 space", raw: "https://cdn.example.com/summer sale.jpg", strict: true, wantErr: "strict mode: URL contains a space"},
	{name: "EXTURL-6 ftp", raw: "ftp://cdn.example.com/video.mp4", strict: true, wantErr: `strict mode: unsupported scheme "ftp"`},
	{name: "EXTURL-2 relative", raw: "/images/a.jpg", strict: true, wantErr: "strict mode: URL is not absolute"},
	{name: "EXTURL-2 missing host", raw: "https:///a.jpg", strict: true, wantErr: "missing host"},
	{name: "EXTURL-2 control character", raw: "https://cdn.example.com/a\tb.jpg", strict: true, wantErr: "strict mode: URL contains a control character"},
	{name: "EXTURL-2 forbidden character", raw: "https://cdn.example.com/a.jpg?v={1}", strict: true, wantErr: `strict mode: URL contains the character '{', which it has to give as "%7B"`},
	{name: "EXTURL-5 2049", raw: urlOfLength(2049, ""), strict: true, wantErr: "strict mode: URL is longer than 2,048 characters"},
	{name: "EXTURL-5 2048", raw: urlOfLength(2048, ""), strict: true, want: urlOfLength(2048, "")},
	{name: "EXTURL-1 any host, as written", raw: " https://CDN.other.example/café.jpg ", strict: true, want: "https://CDN.other.example/café.jpg"},
	{name: "strict empty", raw: "", strict: true, wantErr: "URL is empty"},
}

func TestLink(t *testing.T) {
	for _, tt := range extTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Link(tt.raw, tt.strict)
			checkResult(t, got, err, tt.want, tt.wantErr)
		})
	}
}

func TestKey(t *testing.T) {
	tests := []struct {
		name, loc, want string
	}{
		// IDN-7: one sitemap in both forms of its host is requested once.
		{"IDN-7 Unicode", "https://bücher.example/s.xml", "https://xn--bcher-kva.example/s.xml"},
		{"IDN-7 Punycode", "https://xn--bcher-kva.example/s.xml", "https://xn--bcher-kva.example/s.xml"},
		{"IDN-7 capitals and default port", "https://XN--BCHER-KVA.example:443/s.xml", "https://xn--bcher-kva.example/s.xml"},
		{"IDN-7 capitals in Unicode", "https://BÜCHER.example/s.xml", "https://xn--bcher-kva.example/s.xml"},
		{"scheme and host in lower case, fragment dropped", "HTTPS://Example.COM/Sitemap.xml?A=B#C", "https://example.com/Sitemap.xml?A=B"},
		{"http default port", "http://example.com:80/s.xml", "http://example.com/s.xml"},
		{"other port kept", "https://example.com:8443/s.xml", "https://example.com:8443/s.xml"},
		{"https port in http kept", "http://example.com:443/s.xml", "http://example.com:443/s.xml"},
		{"user information kept", "https://User@Example.com/s.xml", "https://User@example.com/s.xml"},
		{"IPv6", "https://[FE80::1]:443/s.xml", "https://[fe80::1]/s.xml"},
		{"no valid domain name", "https://BÜCHER_x.example/s.xml", "https://bÜcher_x.example/s.xml"},
		{"no valid domain name, percent-encoded", "https://B%C3%9CCHER_x.example/s.xml", "https://bÜcher_x.example/s.xml"},
		// Found by FuzzLoc: U+04C0 is no valid domain name, its
		// lower case U+04CF is, so lower-casing it made the key of the key
		// another one.
		{"fuzz: no valid domain name, valid in lower case", "http://Ӏ", "http://Ӏ/"},
		{"fuzz: no valid domain name, valid in lower case, percent-encoded", "http://%D3%80", "http://Ӏ/"},
		{"valid in lower case", "http://ӏ", "http://xn--s5a/"},
		{"no path is /", "https://Example.com", "https://example.com/"},
		{"no path, a query", "https://example.com?a", "https://example.com/?a"},
		{"path encoded as tolerant mode does", "https://example.com/a%20b/c d/é", "https://example.com/a%20b/c%20d/%C3%A9"},
		// Issue 13, item 11: RFC 3986 §6.2.2, in the path, the query and
		// the user information.
		{"unreserved escapes decoded", "https://example.com/%73itemap%2Exml?%61=%7E", "https://example.com/sitemap.xml?a=~"},
		{"other escapes in upper case", "https://example.com/a%2fb%c3%a9?q=%2f", "https://example.com/a%2Fb%C3%A9?q=%2F"},
		{"reserved escapes kept", "https://example.com/a%2Fb%3F%23", "https://example.com/a%2Fb%3F%23"},
		{"dot segments", "https://example.com/a/./b/../../c/.", "https://example.com/c/"},
		{"dot segments above the root", "https://example.com/../../s.xml", "https://example.com/s.xml"},
		{"encoded dot segments", "https://example.com/a/%2E%2e/s.xml", "https://example.com/s.xml"},
		{"empty segments kept", "https://example.com//a//s.xml", "https://example.com//a//s.xml"},
		{"dots in names kept", "https://example.com/.well-known/..s.xml", "https://example.com/.well-known/..s.xml"},
		{"dot segments of the query kept", "https://example.com/s.xml?p=/a/../b", "https://example.com/s.xml?p=/a/../b"},
		{"fragment only", "https://example.com/s.xml#", "https://example.com/s.xml"},
		{"user information decoded", "https://%75ser:p%61ss@example.com/s.xml", "https://user:pass@example.com/s.xml"},
		{"unparseable", "https://::/s.xml", "https://::/s.xml"},
		{"relative", "/s.xml", "/s.xml"},
		{"no host", "https:///s.xml", "https:///s.xml"},
		{"other scheme, no default port", "ftp://Example.com/s.xml", "ftp://example.com/s.xml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Key(tt.loc); got != tt.want {
				t.Errorf("Key(%q) = %q, want %q", tt.loc, got, tt.want)
			}
		})
	}
}

// TestKeyOfNormalizedLocs: the tolerant form of a sitemap and the
// forms it is written in share one key (IDN-7).
func TestKeyOfNormalizedLocs(t *testing.T) {
	base := parseBase(t, testSitemap)
	var keys []string
	for _, raw := range []string{"https://bücher.example/s.xml", "//xn--bcher-kva.example/s.xml", "https://XN--BCHER-KVA.example:443/s.xml"} {
		for _, strict := range []bool{false, true} {
			loc, err := Loc(raw, base, strict)
			if err != nil {
				continue // strict mode rejects the scheme-relative one
			}
			keys = append(keys, Key(loc))
		}
	}
	for _, k := range keys {
		if k != keys[0] {
			t.Fatalf("keys differ: %q", keys)
		}
	}
}

func TestLocDoesNotAllocateForPlainURL(t *testing.T) {
	base := parseBase(t, testSitemap)
	const plain = "https://example.com/products/item-12345?color=red#details"
	// One allocation, the url.URL of the one url.Parse, and none for the
	// result, which is the input.
	if n := testing.AllocsPerRun(100, func() {
		if got, _ := Loc(plain, base, false); got != plain {
			t.Fatal(got)
		}
	}); n > 1 {
		t.Errorf("tolerant: %v allocations, want at most 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = Loc(plain, base, true) }); n > 1 {
		t.Errorf("strict: %v allocations, want at most 1", n)
	}
}

func BenchmarkLoc(b *testing.B) {
	base, err := url.Parse(testSitemap)
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name, raw string
		strict    bool
	}{
		{"plain", "https://example.com/products/item-12345?color=red#details", false},
		{"encode", "https://example.com/summer sale/café?q=crème brûlée", false},
		{"idn", "https://bücher.example/products/item-12345", false},
		{"idn-worst", "https://" + cjkLabels(4, 62) + "/", false},
		{"relative", "/products/item-12345?color=red", false},
		{"strict", "https://example.com/products/item-12345?color=red#details", true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.raw)))
			for b.Loop() {
				if _, err := Loc(c.raw, base, c.strict); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkKey(b *testing.B) {
	cases := []struct{ name, loc string }{
		{"key", "https://example.com/sitemaps/sitemap-products-1.xml"},
		{"spelling", "HTTPS://Example.COM:443/a/../%73itemaps/sitemap-products-1.xml#top"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.loc)))
			for b.Loop() {
				_ = Key(c.loc)
			}
		})
	}
}

func BenchmarkLink(b *testing.B) {
	cases := []struct{ name, raw string }{
		{"plain", "https://cdn.example.com/images/item-12345.jpg"},
		{"encode", "https://cdn.example.com/summer sale/café.jpg"},
		{"relative", "/images/summer sale.jpg"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.raw)))
			for b.Loop() {
				if _, err := Link(c.raw, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
