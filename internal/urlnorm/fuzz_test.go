package urlnorm

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzLoc checks the properties of Loc on any location
// and any base (LOC-9, TOLERANT-6, STRICT-16): a URL that tolerant mode
// returns is an absolute HTTP or HTTPS URL that names a host, parses, is
// ASCII, holds nothing tolerant mode encodes and at most MaxLength
// characters, and comes back unchanged from tolerant mode, from
// Link and, where its query holds none of the characters strict
// mode rejects, from strict mode. Strict mode returns the location as
// written or rejects it. Neither panics.
func FuzzLoc(f *testing.F) {
	for _, tt := range locTests {
		f.Add(tt.raw, tt.base)
	}
	for _, tt := range siteTests {
		f.Add(tt.loc, tt.base)
	}
	f.Fuzz(func(t *testing.T, raw, baseRaw string) {
		base, err := url.Parse(baseRaw)
		if err != nil {
			base = nil
		}

		if out, err := Loc(raw, base, true); err == nil {
			checkStrictOutput(t, raw, out)
			if err := SameSite(out, base); err == nil && base == nil {
				t.Errorf("SameSite(%q, nil) = nil", out)
			}
			if u, _ := url.Parse(out); u != nil {
				if err := SameSite(out, u); err != nil {
					t.Errorf("SameSite(%q, itself) = %v", out, err)
				}
			}
			key := Key(out)
			if again := Key(key); again != key {
				t.Errorf("Key(%q) = %q, then %q", out, key, again)
			}
		}

		out, err := Loc(raw, base, false)
		if err != nil {
			return
		}
		checkTolerantOutput(t, out)
		if again, err := Loc(out, base, false); err != nil || again != out {
			t.Errorf("Loc(%q) = %q, then %q, %v", raw, out, again, err)
		}
		if again, err := Loc(out, nil, false); err != nil || again != out {
			t.Errorf("Loc(%q, nil base) = %q, %v; want it unchanged", out, again, err)
		}
		if ext, err := Link(out, false); err != nil || ext != out {
			t.Errorf("Link(%q) = %q, %v; want it unchanged", out, ext, err)
		}
		u, _ := url.Parse(out)
		if !strings.ContainsAny(out, "\"<>\\^`{|}") {
			if strict, err := Loc(out, base, true); err != nil || strict != out {
				t.Errorf("strict Loc(%q) = %q, %v; want it unchanged", out, strict, err)
			}
		}
		if err := SameSite(out, u); err != nil {
			t.Errorf("SameSite(%q, itself) = %v", out, err)
		}
		key := Key(out)
		if again := Key(key); again != key {
			t.Errorf("Key(%q) = %q, then %q", out, key, again)
		}
	})
}

// FuzzLink checks Link on any URL of an extension
// (EXTURL-8 to EXTURL-14): tolerant mode never fails, returns an encoded
// URL with the properties of a tolerant location or the URL as written,
// and returns what it returned unchanged; strict mode returns the URL as
// written or rejects it, as Loc does in strict mode.
func FuzzLink(f *testing.F) {
	for _, tt := range extTests {
		f.Add(tt.raw)
	}
	for _, tt := range locTests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		out, err := Link(raw, false)
		if err != nil {
			t.Fatalf("tolerant Link(%q): %v", raw, err)
		}
		if out != strings.TrimSpace(raw) {
			checkTolerantOutput(t, out)
			// A URL net/url cannot parse as written is not repaired
			// (EXTURL-12; issue 13, item 13).
			if _, err := url.Parse(strings.TrimSpace(raw)); err != nil {
				t.Errorf("Link(%q) = %q, but it does not parse: %v", raw, out, err)
			}
			if loc, err := Loc(raw, nil, false); err != nil || loc != out {
				t.Errorf("Link(%q) = %q, Loc = %q, %v", raw, out, loc, err)
			}
		}
		if again, err := Link(out, false); err != nil || again != out {
			t.Errorf("Link(%q) = %q, then %q, %v", raw, out, again, err)
		}

		strict, err := Link(raw, true)
		loc, locErr := Loc(raw, nil, true)
		if strict != loc || (err == nil) != (locErr == nil) || err != nil && err.Error() != locErr.Error() {
			t.Errorf("strict Link(%q) = %q, %v; Loc = %q, %v", raw, strict, err, loc, locErr)
		}
		if err == nil {
			checkStrictOutput(t, raw, strict)
		}
	})
}

// checkStrictOutput checks what strict mode accepted: the location as
// written, trimmed, an absolute HTTP or HTTPS URL that names a host and
// holds no space, no control character and no forbidden character.
func checkStrictOutput(t *testing.T, raw, out string) {
	t.Helper()
	if out != strings.TrimSpace(raw) {
		t.Errorf("strict mode returned %q for %q", out, raw)
	}
	u, err := url.Parse(out)
	if err != nil {
		t.Fatalf("strict mode accepted %q, which does not parse: %v", out, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "" {
		t.Errorf("strict mode accepted %q: scheme %q, host %q", out, u.Scheme, u.Hostname())
	}
	if utf8.RuneCountInString(out) > MaxLength {
		t.Errorf("strict mode accepted %d characters", utf8.RuneCountInString(out))
	}
	for i := 0; i < len(out); i++ {
		if c := out[i]; c <= ' ' || c == 0x7F || isForbidden(c) {
			t.Errorf("strict mode accepted %q with %q in it", out, c)
		}
	}
}

// checkTolerantOutput checks a URL tolerant mode returned (LOC-9,
// TOLERANT-6): absolute HTTP or HTTPS with a host, parses, ASCII without
// space or control character, every % the beginning of an escape, none of
// the characters " < > \ ^ ` { | } in the path or the fragment, at most
// MaxLength characters.
func checkTolerantOutput(t *testing.T, out string) {
	t.Helper()
	u, err := url.Parse(out)
	if err != nil {
		t.Fatalf("tolerant mode returned %q, which does not parse: %v", out, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "" {
		t.Errorf("tolerant mode returned %q: scheme %q, host %q", out, u.Scheme, u.Hostname())
	}
	if len(out) > MaxLength {
		t.Errorf("tolerant mode returned %d characters", len(out))
	}
	if !strings.HasPrefix(out, u.Scheme+":") {
		t.Fatalf("tolerant mode returned %q, scheme not in lower case", out)
	}
	_, authEnd := authority(out, len(u.Scheme))
	inQuery, inFragment := false, false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c <= ' ' || c >= 0x7F:
			t.Fatalf("tolerant mode returned %q with byte %#x in it", out, c)
		case c == '%' && (i+2 >= len(out) || !isHex(out[i+1]) || !isHex(out[i+2])):
			t.Fatalf("tolerant mode returned %q with a %% that begins no escape", out)
		case i < authEnd:
			// The host is as net/url reads and writes it.
		case c == '?' && !inFragment:
			inQuery = true
		case c == '#' && !inFragment:
			inQuery, inFragment = false, true
		case isForbidden(c) && !inQuery:
			t.Fatalf("tolerant mode returned %q with %q outside the query", out, c)
		}
	}
}

// FuzzKeySpellings checks that Key gives one key to the
// spellings of one sitemap (issue 13, item 11; GETSITEMAPS-10): from a
// location tolerant mode returns, it writes others that RFC 3986 §6.2.2
// takes for the same (scheme and host in capitals, the default port, an
// unreserved character escaped in either case, dot segments, a fragment),
// and wants the key of each to be the key of the location, which is its
// own key.
func FuzzKeySpellings(f *testing.F) {
	f.Add("example.com", "/a/b/sitemap.xml", "q=1", uint16(0))
	f.Add("Bücher.example", "/./s.xml", "", uint16(0xFFFF))
	f.Add("[::1]", "", "a=%7e&b=c", uint16(0x5A5A))
	f.Add("example.com", "/a%2Fb/%c3%a9/..", "x=../y", uint16(7))
	f.Fuzz(func(t *testing.T, host, path, query string, seed uint16) {
		loc, err := Loc("https://"+host+path+"?"+query, nil, false)
		if err != nil {
			return
		}
		key := Key(loc)
		if again := Key(key); again != key {
			t.Fatalf("Key(%q) = %q, then %q", loc, key, again)
		}
		u, err := url.Parse(loc)
		if err != nil || u.User != nil || strings.Contains(loc, "#") {
			return
		}
		_, authEnd := authority(loc, len("https"))
		hostPort, tail := loc[len("https://"):authEnd], loc[authEnd:]
		bit := func(i uint) bool { return seed&(1<<i) != 0 }

		scheme := "https"
		if bit(0) {
			scheme = "HTTPS"
		}
		if bit(1) {
			hostPort = strings.ToUpper(hostPort)
		}
		if bit(2) && !strings.Contains(hostPort[strings.LastIndexByte(hostPort, ']')+1:], ":") {
			hostPort += ":443"
		}
		// Escape some unreserved characters of the path and the query,
		// leaving the escapes there are as they are.
		var b strings.Builder
		for i := 0; i < len(tail); i++ {
			c := tail[i]
			switch {
			case c == '%' && i+2 < len(tail):
				b.WriteString(tail[i : i+3])
				i += 2
			case isUnreserved(c) && (uint(i)+uint(seed>>8))%3 == 0:
				hex := "%" + upperHex[c>>4:c>>4+1] + upperHex[c&15:c&15+1]
				if bit(3) {
					hex = strings.ToLower(hex)
				}
				b.WriteString(hex)
			default:
				b.WriteByte(c)
			}
		}
		tail = b.String()
		if strings.HasPrefix(tail, "/") || tail == "" || tail[0] == '?' {
			if !strings.HasPrefix(tail, "/") {
				tail = "/" + tail
			}
			if bit(4) {
				tail = "/./" + tail[1:]
			}
			if bit(5) {
				tail = "/x/%2E./" + tail[1:]
			}
		}
		if bit(6) {
			tail += "#frag"
		}
		spelling := scheme + "://" + hostPort + tail
		if got := Key(spelling); got != key {
			t.Errorf("Key(%q) = %q, want the key of %q, %q", spelling, got, loc, key)
		}
	})
}
