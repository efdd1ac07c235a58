package urlnorm

import (
	"net/url"
	"strings"
)

// This file is the quick path of the engine: Recent, which reads only the
// path, query and fragment of a URL on a host the document gave last, and
// isNormalHTTP, which tells in one pass a URL that normalisation would
// leave as it is.

// isNormalHTTP tells, in one pass over s, whether s is already what
// normalizeAbsolute makes of it, as nearly every URL of a sitemap is: http://
// or https:// in lower case, a host of ASCII letters, digits, dots and
// hyphens with a port of digits or none (plainAuthority), then nothing
// encodeTail encodes (plain bytes, ? and #, and % only where it begins an
// escape), at most MaxLength bytes in all. Any other URL goes the whole way.
func isNormalHTTP(s string) bool {
	end, ok := normalPrefix(s)
	return ok && normalTail(s, end)
}

// normalPrefix reads the scheme and the authority of s for isNormalHTTP,
// and returns where the authority ends: false when they are not in
// normal form, or s is longer than MaxLength.
func normalPrefix(s string) (int, bool) {
	var i int
	switch {
	case len(s) > MaxLength:
		return 0, false
	case strings.HasPrefix(s, "https://"):
		i = len("https://")
	case strings.HasPrefix(s, "http://"):
		i = len("http://")
	default:
		return 0, false
	}
	return normalAuthority(s, i)
}

// Recent is [Loc] and [Link] for the URLs of one document, which tend to
// be on one host or two (the site and its images, say): it keeps the
// scheme and the authority of the last two URLs it found in normal form
// (see isNormalHTTP) on different hosts, and of a URL that begins with one
// of them reads only the path, the query and the fragment. What its
// methods return is what Loc and Link return. The zero value is ready for
// use; a Recent is not safe for concurrent use.
type Recent struct {
	prefix [2]string // scheme://authority of URLs in normal form, the latest first
}

// Loc is [Loc], through r.
func (r *Recent) Loc(raw string, base *url.URL, strict bool) (string, error) {
	if !strict {
		if s := trimSpace(raw); r.normal(s) {
			return s, nil
		}
	}
	return Loc(raw, base, strict)
}

// Link is [Link], through r.
func (r *Recent) Link(raw string, strict bool) (string, error) {
	if !strict {
		if s := trimSpace(raw); r.normal(s) {
			return s, nil
		}
	}
	return Link(raw, strict)
}

// normal is isNormalHTTP(s), which does not read the scheme and the
// authority again when they are those of a URL it found normal lately.
func (r *Recent) normal(s string) bool {
	if len(s) <= MaxLength {
		for _, p := range r.prefix {
			if p == "" || len(s) < len(p) || !hasPrefix(s, p) {
				continue
			}
			if len(s) == len(p) {
				return true
			}
			if c := s[len(p)]; c == '/' || c == '?' || c == '#' {
				return normalTail(s, len(p))
			}
		}
	}
	end, ok := normalPrefix(s)
	if !ok || !normalTail(s, end) {
		return false
	}
	if s[:end] != r.prefix[0] {
		r.prefix[1], r.prefix[0] = r.prefix[0], s[:end]
	}
	return true
}

// hasPrefix is strings.HasPrefix(s, p) for a p no longer than s. A p of 8
// to 24 bytes, as the scheme and authority of most URLs are, is compared
// in three loads of eight bytes, in place of a call: from its start, its
// middle and its end, which overlap and leave no byte out.
func hasPrefix(s, p string) bool {
	n := len(p)
	if n < 8 || n > 24 {
		return s[:n] == p
	}
	return word(s, 0) == word(p, 0) && word(s, n/2-4) == word(p, n/2-4) && word(s, n-8) == word(p, n-8)
}

// word is the eight bytes of s from i, as one load reads them.
func word(s string, i int) uint64 {
	b := s[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// normalAuthority reads the host and port of s, an http(s) URL, from
// s[i:]: a plain host, in lower case, and a port of digits, up to the path,
// the query or the fragment. It returns where they end, false when they are
// not in normal form. It looks at eight bytes of the host at a time.
func normalAuthority(s string, i int) (int, bool) {
	host := i
	for ; i+8 <= len(s); i += 8 {
		b := s[i : i+8]
		if hostByte[b[0]]&hostByte[b[1]]&hostByte[b[2]]&hostByte[b[3]]&hostByte[b[4]]&hostByte[b[5]]&hostByte[b[6]]&hostByte[b[7]] == 0 {
			break
		}
	}
	for i < len(s) && hostByte[s[i]] != 0 {
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

// normalTail reports whether s[i:], the path, query and fragment of a URL,
// has nothing to encode: bytes that need no escape (normalByte), and
// escapes of two hex digits. It looks at eight bytes at a time while they
// are all normal bytes, and then at the last eight bytes of s at once:
// they overlap bytes it has passed already, which are looked at again for
// nothing, and spare the tail of nearly every URL a loop of a byte at a
// time. A step of eight bytes that is not all normal bytes (a % or a byte
// to encode among them) is read a byte at a time before the steps go on.
func normalTail(s string, i int) bool {
	for {
		for ; i+8 <= len(s); i += 8 {
			if normalWord(s[i:i+8]) == 0 {
				goto bytes
			}
		}
		// Every byte before i is read, and i is within eight bytes of the
		// end: when the last eight bytes are normal, so are those from i.
		if i >= len(s) || len(s) >= 8 && normalWord(s[len(s)-8:]) != 0 {
			return true
		}
	bytes:
		for end := min(i+8, len(s)); i < end; {
			switch c := s[i]; {
			case normalByte[c] != 0:
				i++
			case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
				i += 3
			default:
				return false
			}
		}
	}
}

// normalWord is 1 when the eight bytes of b are all normal bytes (see
// normalByte), 0 otherwise. The lookups are paired so that they do not
// wait on one another.
func normalWord(b string) uint8 {
	_ = b[7]
	return normalByte[b[0]] & normalByte[b[1]] & (normalByte[b[2]] & normalByte[b[3]]) &
		(normalByte[b[4]] & normalByte[b[5]] & (normalByte[b[6]] & normalByte[b[7]]))
}

// hostByte holds 1 for the bytes of a host name plainAuthority passes:
// ASCII letters, digits, dots and hyphens.
var hostByte = func() (t [256]uint8) {
	for c := range 256 {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' {
			t[c] = 1
		}
	}
	return t
}()

// plainTail holds 1 for each byte that encodeTail passes over without a
// second look: those of ASCII that are printable, but for % ? # and the
// characters of isForbidden.
var plainTail = func() (t [256]uint8) {
	for c := '!'; c < 0x7F; c++ {
		if c != '%' && c != '?' && c != '#' && !isForbidden(byte(c)) {
			t[c] = 1
		}
	}
	return t
}()

// normalByte holds 1 for each byte that normalTail passes alone: those of
// plainTail, and ? and #, which begin the query and the fragment but are
// never encoded themselves.
var normalByte = func() (t [256]uint8) {
	t = plainTail
	t['?'], t['#'] = 1, 1
	return t
}()

// escapeAt tells whether s[i] is to be percent-encoded, and keeps track of
// whether i is in the query or in the fragment.
func escapeAt(s string, i int, inQuery, inFragment *bool) bool {
	c := s[i]
	switch {
	case c == '?':
		if !*inFragment {
			*inQuery = true
		}
	case c == '#':
		if !*inFragment {
			*inFragment, *inQuery = true, false
		}
	case c == '%':
		return i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2])
	case c <= ' ' || c >= 0x7F:
		return true
	case isForbidden(c):
		return !*inQuery
	}
	return false
}

// isForbidden tells whether c is one of the characters " < > \ ^ ` { | },
