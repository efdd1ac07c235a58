package urlnorm

import (
	"net/url"
	"strings"
)

// This file is the key of a location: the form under which two spellings
// of one URL are one resource, and the normalisation of escapes, dot
// segments and letter case it rests on.

// Key returns the key of a location: two locations with one key name one
// resource by RFC 3986's syntax-based normalisation (§6.2.2) and the
// default port of HTTP (§6.2.3), and a request sends the same for both.
// The sitemap package requests and lists a sitemap once for each key
// (IDN-7, GETSITEMAPS-10). The key is the URL
//   - with the scheme and the host in lower case, the host in its Punycode
//     form (a name that is no valid domain name decoded, with its ASCII
//     letters in lower case), and a default port left out;
//   - with the path and the query percent-encoded as [Loc] encodes them in
//     tolerant mode, an escape of an unreserved character (a letter, a
//     digit, - . _ ~) decoded, and the hexadecimal digits of every other
//     escape in upper case, in the user information too;
//   - with the dot segments of the path removed (RFC 3986 §5.2.4), after
//     the escapes are decoded, so /a/%2E%2E/s.xml is /s.xml, and an empty
//     path written as /;
//   - without its fragment, which a request never sends.
//
// The user information is kept, decoded as above: it is sent with the
// request. A loc that does not parse, or names no host, is its own key.
func Key(loc string) string {
	u, err := url.Parse(loc)
	if err != nil || u.Host == "" {
		return loc
	}
	colon := schemeEnd(loc)
	if colon <= 0 {
		return loc
	}
	authStart, authEnd := authority(loc, colon)
	hostPort := loc[authStart:authEnd]
	at := strings.LastIndexByte(hostPort, '@') + 1
	user, hostPort := hostPort[:at], hostPort[at:]

	host := punycodeOrSelf(u.Hostname())
	if strings.HasPrefix(u.Host, "[") {
		host = "[" + host + "]"
	}
	// Only ASCII letters are put in lower case. A name that is no valid
	// domain name keeps its other characters as they are: in lower case
	// some are valid (U+04C0 is not, U+04CF is), and the key of the key
	// would be another one.
	host = lowerASCII(host)
	port := u.Port()
	if port == portOrDefault(&url.URL{Scheme: u.Scheme}) {
		port = ""
	}
	keyUser := normalizeEscapes(user)
	tail := keyTail(loc[authEnd:])
	if loc[:colon] == u.Scheme && hostPort == host+portSuffix(port) && keyUser == user && tail == loc[authEnd:] {
		return loc // already in the form of a key
	}
	return u.Scheme + loc[colon:authStart] + keyUser + host + portSuffix(port) + tail
}

// keyTail is what follows the authority of a location in its Key:
// t, which begins with /, ? or # or is empty, without its fragment,
// percent-encoded and normalised as Key says.
func keyTail(t string) string {
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t = t[:i]
	}
	t = encodeTail(t, 0)
	path, query, hasQuery := strings.Cut(t, "?")
	p := removeDotSegments(normalizeEscapes(path))
	if p == "" {
		p = "/"
	}
	if !hasQuery {
		return p
	}
	q := normalizeEscapes(query)
	if p == path && q == query {
		return t
	}
	return p + "?" + q
}

// normalizeEscapes returns s, in which every % begins an escape, with the
// escapes of unreserved characters decoded and the hexadecimal digits of
// the others in upper case (RFC 3986 §6.2.2.1, §6.2.2.2). It returns s
// itself when there is nothing to change.
func normalizeEscapes(s string) string {
	first := -1
	for i := strings.IndexByte(s, '%'); i >= 0; {
		if i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			c := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(c) || s[i+1] != upperHex[c>>4] || s[i+2] != upperHex[c&15] {
				first = i
				break
			}
		}
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if first < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:first]...)
	for i := first; i < len(s); i++ {
		c := s[i]
		if c != '%' || i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			b = append(b, c)
			continue
		}
		d := unhex(s[i+1])<<4 | unhex(s[i+2])
		if isUnreserved(d) {
			b = append(b, d)
		} else {
			b = append(b, '%', upperHex[d>>4], upperHex[d&15])
		}
		i += 2
	}
	return string(b)
}

// removeDotSegments removes the segments . and .. from path, which is
// empty or begins with /, as RFC 3986 §5.2.4 does: /a/b/../c is /a/c, and
// a .. above the root is dropped. Empty segments are kept.
func removeDotSegments(path string) string {
	if !strings.Contains(path, "/.") {
		return path
	}
	segs := strings.Split(path[1:], "/")
	out := segs[:0]
	for i, seg := range segs {
		last := i == len(segs)-1
		switch seg {
		case ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, seg)
			continue
		}
		if last {
			out = append(out, "") // /a/. and /a/b/.. end in /
		}
	}
	return "/" + strings.Join(out, "/")
}

// isUnreserved tells whether c is an unreserved character of RFC 3986
// (§2.3), whose escape and c itself are one.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

// lowerASCII returns s with its ASCII letters in lower case and its other
// characters as they are.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
