// Package urlnorm checks, resolves and percent-encodes the URLs a document
// gives, in a tolerant and in a strict mode, tells whether two URLs are on
// one site, and gives the key under which two spellings of a URL are one
// resource.
//
// It is the URL engine of the sitemap package, which hands it every URL of
// every document it reads and wraps the causes it returns in the errors its
// callers see. It knows nothing of sitemaps but the bound on the length of
// a URL, [MaxLength]. It runs for every URL of a document, so it does
// without regexp and allocates nothing but the url.URL of its one url.Parse
// when a URL comes through unchanged.
//
// The comments cite the items of the sitemap package's checklist (LOC-1,
// STRICT-2, ...) that a rule comes from.
package urlnorm

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// MaxLength is the most characters a URL may have: 2,048, the bound of the
// sitemaps.org protocol on a location, which the texts of [ErrTooLong] and
// of the causes that wrap it quote. It is a constant rather than a
// parameter because the protocol fixes it and no caller asks for another.
const MaxLength = 2048

// ErrTooLong is the cause of a URL of more than [MaxLength] characters
// (STRICT-7, TOLERANT-6), or what a cause of strict mode wraps for one.
var ErrTooLong = errors.New("URL is longer than 2,048 characters")

// The other causes of a rejected URL. The caller wraps them in an error of
// its own, so their text is what it reports. The causes that strict mode
// alone has are wrapped in a strictModeError.
var (
	// errEmptyURL is the cause for a URL that is empty once trimmed. The
	// caller may report an entry without a URL in its own words (LOC-1);
	// this is what Loc says if one reaches it all the same.
	errEmptyURL = errors.New("URL is empty")
	// errMissingHost: https:///page, https:page, https://:8080/page (LOC-2).
	errMissingHost = errors.New("missing host")
	// errNotAbsolute: a relative URL in strict mode (STRICT-2), or one that
	// tolerant mode has no base with a scheme to resolve against.
	errNotAbsolute = errors.New("URL is not absolute")
	// errUnsupportedScheme starts the cause of a URL that is not HTTP or
	// HTTPS; the scheme follows it, quoted.
	errUnsupportedScheme = errors.New("unsupported scheme")
	// errSpace, errControl and errForbiddenChar are strict mode's character
	// rules (STRICT-4, STRICT-5). The character follows errForbiddenChar.
	errSpace         = errors.New("URL contains a space")
	errControl       = errors.New("URL contains a control character")
	errForbiddenChar = errors.New("URL contains the character")
)

// strictModeError is a cause that only strict mode has: its text is the
// cause's, prefixed with "strict mode: ".
type strictModeError struct{ err error }

func (e *strictModeError) Error() string { return "strict mode: " + e.err.Error() }
func (e *strictModeError) Unwrap() error { return e.err }

func strictErr(err error) error { return &strictModeError{err} }

// unsupportedScheme is the cause of a URL of another scheme than HTTP or
// HTTPS, such as `unsupported scheme "ftp"`.
func unsupportedScheme(scheme string) error {
	return fmt.Errorf("%w %q", errUnsupportedScheme, strings.ToLower(scheme))
}

// forbiddenChar is the cause of a character a URL may not hold, naming the
// escape the URL has to give it as (STRICT-14).
func forbiddenChar(c byte) error {
	return fmt.Errorf("%w '%c', which it has to give as \"%%%c%c\"", errForbiddenChar, c, upperHex[c>>4], upperHex[c&15])
}

// A SiteError is what [SameSite] returns for a URL on another protocol or
// host than its base (HOST-4, HOST-5).
type SiteError struct {
	Part string // what differs: "protocol" or "host"
	Got  string // the scheme, or the host and port, of the URL, as written
	Want string // the same of the base, as written
}

// Error returns the message, such as host "a.example" does not match host
// "b.example".
func (e *SiteError) Error() string {
	return fmt.Sprintf("%s %q does not match %s %q", e.Part, e.Got, e.Part, e.Want)
}

// Loc checks a location, a URL that is to be requested, as written in the
// document located at base, the final URL of that document; the sitemap
// package hands it the location of every page and every sitemap. raw is
// trimmed of the white space around it first. base may be any URL, or nil.
//
// Tolerant mode (strict false) returns the URL that is to be requested:
//   - a relative raw is resolved against base, and one that begins with //
//     takes only the scheme of base (LOC-5);
//   - it has to be an HTTP or HTTPS URL that names a host, else the cause
//     is `unsupported scheme "ftp"` or `missing host`; one that net/url
//     cannot parse is rejected with net/url's own error (LOC-7);
//   - a space, a control character and a character that is not in ASCII are
//     percent-encoded wherever they stand, as their UTF-8 bytes, and so are
//     the characters " < > \ ^ ` { | } in the path and in the fragment; the
//     query keeps these as written (TOLERANT-2, -3, -5);
//   - an existing escape is kept as written, never decoded or encoded again
//     (TOLERANT-4); a % that begins no escape is encoded as %25;
//   - a host that is not in ASCII is converted to Punycode as net/http does
//     (IDN-5), one that is no valid domain name is written as net/url
//     writes it (IDN-9), an ASCII host is kept as written (IDN-8);
//   - the scheme is written in lower case;
//   - the result has at most [MaxLength] characters, what is encoded
//     counting at its encoded length (TOLERANT-6).
//
// The result parses with url.Parse, and Loc returns it unchanged
// whatever the base.
//
// Strict mode (strict true) resolves and encodes nothing: raw has to be an
// absolute HTTP or HTTPS URL that names a host and holds no space, no
// control character and none of the characters " < > \ ^ ` { | }, of at
// most [MaxLength] characters; it is returned trimmed, as written
// (STRICT-2 to STRICT-7, STRICT-16). That it is on the site of its base
// is [SameSite]'s to tell.
//
// The error is a cause for the caller to wrap, whose text says what is
// wrong (`missing host`, `strict mode: URL contains a space`), and which
// errors.Is tells by its sentinel where it has an exported one
// ([ErrTooLong]); a URL net/url cannot parse gets net/url's error.
func Loc(raw string, base *url.URL, strict bool) (string, error) {
	s := trimSpace(raw)
	if s == "" {
		return "", errEmptyURL
	}
	if !strict && isNormalHTTP(s) {
		return s, nil
	}
	if strict {
		if err := checkStrict(s); err != nil {
			return "", err
		}
		return s, nil
	}
	switch {
	case schemeEnd(s) > 0:
		// Absolute: nothing to resolve.
	case strings.HasPrefix(s, "//"):
		// A scheme-relative URL takes the scheme of base and nothing else,
		// so that // and ///page name no host (LOC-6), which
		// url.ResolveReference would not tell: it reads ///page as a path.
		if base == nil || base.Scheme == "" {
			return "", errNotAbsolute
		}
		s = base.Scheme + ":" + s
	default:
		if base == nil {
			return "", errNotAbsolute
		}
		// Encode first, so that net/url parses what tolerant mode accepts;
		// a reference has no authority, so all of it is path, query and
		// fragment.
		ref, err := url.Parse(encodeTail(s, 0))
		if err != nil {
			return "", err
		}
		s = base.ResolveReference(ref).String()
	}
	return normalizeAbsolute(s)
}

// normalizeAbsolute is tolerant mode's normalisation of s, which has to be
// an absolute URL; see Loc.
func normalizeAbsolute(s string) (string, error) {
	colon := schemeEnd(s)
	if colon <= 0 {
		return "", errNotAbsolute
	}
	scheme := s[:colon]
	if !isHTTPScheme(scheme) {
		return "", unsupportedScheme(scheme)
	}
	authStart, authEnd := authority(s, colon)
	out := encodeTail(s, authEnd)
	if out == s && (scheme == "https" || scheme == "http") && plainAuthority(s[authStart:authEnd]) {
		// The common case, without url.Parse and its allocation: nothing
		// to encode, a host of letters, digits, dots and hyphens, perhaps a
		// port. What encodeTail leaves, net/url parses.
		if len(out) > MaxLength {
			return "", ErrTooLong
		}
		return out, nil
	}
	u, err := url.Parse(out)
	if err != nil {
		return "", err
	}
	if u.Hostname() == "" {
		return "", errMissingHost
	}
	if !isASCII(u.Host) {
		// Only the host can hold what is not ASCII: net/url rejects it in
		// the user information and in the port.
		host, ok := hostToASCII(u)
		if !ok {
			return "", errMissingHost
		}
		at := strings.LastIndexByte(out[authStart:authEnd], '@') + 1
		out = out[:authStart+at] + host + out[authEnd:]
	}
	if scheme != u.Scheme {
		out = u.Scheme + out[colon:]
	}
	if len(out) > MaxLength {
		// out is ASCII: its length in bytes is its length in characters.
		return "", ErrTooLong
	}
	return out, nil
}

// hostToASCII returns the host and port of u, whose host is not in ASCII,
// as a request names them: the host converted to Punycode the way net/http
// converts it (idna.Lookup, see idnaASCII in net/http/request.go), the
// port as written. A host that is no valid domain name is written the way
// net/url writes it, percent-encoded. ok is false if the conversion leaves
// no host at all, which is what IDNA makes of a host of characters it
// ignores, such as a soft hyphen.
func hostToASCII(u *url.URL) (host string, ok bool) {
	name := u.Hostname()
	if !strings.HasPrefix(u.Host, "[") {
		if a, ok := idnaToASCII(name); ok {
			if a == "" {
				return "", false
			}
			return a + u.Host[len(name):], true
		}
	}
	// As url.URL.String writes a host: "//" and the escaped host.
	return (&url.URL{Host: u.Host}).String()[len("//"):], true
}

// The bounds of DNS on a host name and on a label of it, in characters
// (RFC 1035, RFC 1123).
const (
	maxHostNameLength = 253
	maxLabelLength    = 63
)

// idnaToASCII converts a host name to its Punycode form with the profile
// net/http uses (idna.Lookup). ok is false for a name that is no valid
// domain name.
//
// A name with a label of more than maxLabelLength characters, or of more
// than maxHostNameLength characters in all, is taken for no valid domain
// name without being converted: its Punycode form would be longer still,
// over the bounds of DNS, and the Punycode encoder takes time quadratic in
// the length of a label (a label of 2,000 characters takes 0.1 s), which a
// document could otherwise spend for every URL it lists. The characters are
// counted as written; those IDNA maps to nothing (a soft hyphen) count too.
func idnaToASCII(name string) (ascii string, ok bool) {
	if !withinDNSBounds(name) {
		return "", false
	}
	a, err := idna.Lookup.ToASCII(name)
	return a, err == nil
}

// withinDNSBounds tells whether name has no label of more than
// maxLabelLength characters and at most maxHostNameLength characters in
// all. Labels end at a full stop and at what IDNA maps to one (U+3002,
// U+FF0E, U+FF61).
func withinDNSBounds(name string) bool {
	n, label := 0, 0
	for _, r := range name {
		n++
		switch r {
		case '.', '\u3002', '\uff0e', '\uff61':
			label = 0
		default:
			label++
		}
		if n > maxHostNameLength || label > maxLabelLength {
			return false
		}
	}
	return true
}

// checkStrict applies strict mode's rules to s, which is trimmed and not
// empty. The order of the checks decides which cause a URL that breaks
// several rules gets: the scheme, then the characters from left to right,
// then the length, then what net/url and the host rule say.
func checkStrict(s string) error {
	colon := schemeEnd(s)
	if colon <= 0 {
		return strictErr(errNotAbsolute)
	}
	if !isHTTPScheme(s[:colon]) {
		return strictErr(unsupportedScheme(s[:colon]))
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			return strictErr(errSpace)
		case c < ' ' || c == 0x7F:
			return strictErr(errControl)
		case c == 0xC2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9F:
			// A C1 control, U+0080 to U+009F, NEL among them: a line break
			// for Unicode. Decision: a control character like those of
			// ASCII, since characters that are not in ASCII are accepted
			// but control characters are not (STRICT-4, STRICT-6).
			return strictErr(errControl)
		case isForbidden(c):
			return strictErr(forbiddenChar(c))
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	// Decision (STRICT-17): strict mode counts the characters of the URL as
	// written, a character that is not in ASCII counting once; it encodes
	// nothing, so no encoded length is there to count. A byte that is no
	// part of a UTF-8 character counts as one, as in utf8.RuneCount.
	n := len(s)
	if !ascii {
		n = utf8.RuneCountInString(s)
	}
	if n > MaxLength {
		return strictErr(ErrTooLong)
	}
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if u.Hostname() == "" {
		return errMissingHost
	}
	return nil
}

// SameSite tells whether loc is on the protocol and the host of base: it
// returns nil if it is, a *[SiteError] naming what differs if not, and
// net/url's error if loc does not parse. It is strict mode's rule that what
// a sitemap lists is on the site of the URL the sitemap was served from
// (STRICT-3, HOST, REDIRECT-3); loc has passed [Loc] in strict mode. Host
// names are compared regardless of letter case and of the form of an
// internationalised name, and a missing port is the default one of the
// protocol (HOST-1, IDN-10). A nil base has no protocol.
func SameSite(loc string, base *url.URL) error {
	u, err := url.Parse(loc)
	if err != nil {
		return err
	}
	if base == nil {
		base = &url.URL{}
	}
	if !strings.EqualFold(u.Scheme, base.Scheme) {
		return &SiteError{"protocol", u.Scheme, base.Scheme}
	}
	if !sameHostName(u.Hostname(), base.Hostname()) || portOrDefault(u) != portOrDefault(base) {
		return &SiteError{"host", u.Host, base.Host}
	}
	return nil
}

// sameHostName tells whether two host names are one, regardless of letter
// case and of the form (Unicode or Punycode) an internationalised name is
// written in.
func sameHostName(a, b string) bool {
	if strings.EqualFold(a, b) {
		return true
	}
	if isASCII(a) && isASCII(b) {
		return false
	}
	return strings.EqualFold(punycodeOrSelf(a), punycodeOrSelf(b))
}

// punycodeOrSelf returns the Punycode form of a host name that is not in
// ASCII, or the name itself where it is ASCII or no valid domain name.
func punycodeOrSelf(name string) string {
	if !isASCII(name) {
		if a, ok := idnaToASCII(name); ok {
			return a
		}
	}
	return name
}

// portOrDefault returns the port of u, or the default one of its scheme
// when it names none.
func portOrDefault(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// Link checks a URL that a document gives but that is not to be requested:
// the sitemap package hands it the URLs of the extensions (of an image, a
// video, an alternate language version). raw is trimmed first.
//
// Tolerant mode never fails: an absolute HTTP or HTTPS URL that names a
// host comes back as [Loc] returns it (EXTURL-8 to EXTURL-10);
// anything else, a relative URL (which is not resolved), a URL of another
// scheme, one that does not parse and one that would be longer than
// [MaxLength] encoded, comes back as written (EXTURL-11, EXTURL-12).
//
// A URL does not parse when net/url rejects it as the document writes it,
// or when it holds a % that begins no escape, which net/url rejects in the
// query too once it is read (url.ParseQuery). Such a URL is not repaired
// the way Loc repairs a location, which has to be requested
// (TOLERANT-12): https://cdn.example.com/%zz sale.jpg comes back as it is,
// not as https://cdn.example.com/%25zz%20sale.jpg, and so does one with a
// control character in it (issue 13, item 13).
//
// Strict mode applies the rules and the causes of [Loc] in strict
// mode and returns raw trimmed, as written (EXTURL-2, -5, -14); the URL
// may be on any host (EXTURL-1).
func Link(raw string, strict bool) (string, error) {
	s := trimSpace(raw)
	if strict {
		return Loc(s, nil, true)
	}
	if isNormalHTTP(s) {
		return s, nil
	}
	if colon := schemeEnd(s); colon <= 0 || !isHTTPScheme(s[:colon]) {
		return s, nil
	}
	out, err := normalizeAbsolute(s)
	if err != nil || out != s && !parsesAsWritten(s) {
		return s, nil
	}
	return out, nil
}

// parsesAsWritten tells whether net/url parses s as it is written and
// every % of s begins an escape.
func parsesAsWritten(s string) bool {
	for rest := s; ; {
		i := strings.IndexByte(rest, '%')
		if i < 0 {
			break
		}
		if i+2 >= len(rest) || !isHex(rest[i+1]) || !isHex(rest[i+2]) {
			return false
		}
		rest = rest[i+3:]
	}
	_, err := url.Parse(s)
	return err == nil
}

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

func portSuffix(port string) string {
	if port == "" {
		return ""
	}
	return ":" + port
}

// plainAuthority tells whether an authority is a host name of ASCII
// letters, digits, dots and hyphens, with a port of digits or none.
func plainAuthority(a string) bool {
	host, port, hasPort := strings.Cut(a, ":")
	if host == "" {
		return false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	if hasPort {
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return false
			}
		}
	}
	return true
}

// schemeEnd returns the index of the colon that ends the scheme of s, or
// -1 if s has no scheme; it reads a scheme as url.Parse does.
func schemeEnd(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.':
			if i == 0 {
				return -1
			}
		case c == ':':
			if i == 0 {
				return -1
			}
			return i
		default:
			return -1
		}
	}
	return -1
}

// isHTTPScheme tells whether scheme is http or https in any letter case.
// A byte is folded by its 0x20 bit alone, which maps no byte but H and h
// to h, and so for t, p and s.
func isHTTPScheme(scheme string) bool {
	n := len(scheme)
	return (n == 4 || n == 5 && scheme[4]|0x20 == 's') &&
		scheme[0]|0x20 == 'h' && scheme[1]|0x20 == 't' && scheme[2]|0x20 == 't' && scheme[3]|0x20 == 'p'
}

// authority returns where the authority (user information, host and port)
// of s begins and ends, colon being the end of its scheme. It ends where
// url.Parse ends it, at the first /, ? or #. A URL without // after its
// scheme has none: start and end are both just after the colon.
func authority(s string, colon int) (start, end int) {
	start = colon + 1
	if !strings.HasPrefix(s[start:], "//") {
		return start, start
	}
	start += 2
	for end = start; end < len(s); end++ {
		if c := s[end]; c == '/' || c == '?' || c == '#' {
			break
		}
	}
	return start, end
}

// encodeTail returns s with what follows its authority, from index from
// on, percent-encoded as tolerant mode wants it: a space, a control
// character (below 0x20, and 0x7F) and every byte of a character that is
// not in ASCII, anywhere; the characters " < > \ ^ ` { | } in the path and
// in the fragment; a % that does not begin an escape. It returns s itself,
// and allocates nothing, when there is nothing to encode.
//
// Decision (TOLERANT-12): a control character inside a URL is encoded like
// a space, so the URL is kept and can be requested; net/url would reject
// it, and strict mode does.
//
// Decision (TOLERANT-12): a % that is not followed by two hexadecimal
// digits (%GG, a % at the end) is encoded as %25, in the query as well,
// so the URL is kept and every % of it begins an escape; net/url rejects
// such a % in the path and in the fragment.
//
// Where the query and the fragment begin is decided as url.Parse decides
// it: the fragment at the first #, the query at the first ? before it.
func encodeTail(s string, from int) string {
	n := 0 // the bytes to encode
	first := -1
	var inQuery, inFragment, firstInQuery, firstInFragment bool
	for i := from; i < len(s); i++ {
		// The common case: eight plain bytes at a time, one branch for all.
		for i+8 <= len(s) && plainTail[s[i]]&plainTail[s[i+1]]&plainTail[s[i+2]]&plainTail[s[i+3]]&
			plainTail[s[i+4]]&plainTail[s[i+5]]&plainTail[s[i+6]]&plainTail[s[i+7]] != 0 {
			i += 8
		}
		if i == len(s) {
			break
		}
		if plainTail[s[i]] != 0 {
			continue
		}
		if escapeAt(s, i, &inQuery, &inFragment) {
			if n == 0 {
				first, firstInQuery, firstInFragment = i, inQuery, inFragment
			}
			n++
		}
	}
	if n == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2*n)
	b.WriteString(s[:first])
	inQuery, inFragment = firstInQuery, firstInFragment
	for i := first; i < len(s); i++ {
		c := s[i]
		if escapeAt(s, i, &inQuery, &inFragment) {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

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
// which RFC 3986 leaves out of a URL and strict mode rejects (STRICT-5).
func isForbidden(c byte) bool {
	switch c {
	case '"', '<', '>', '\\', '^', '`', '{', '|', '}':
		return true
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// trimSpace is strings.TrimSpace, which it does not call for a URL whose
// first and last bytes are printable ASCII, as those of nearly every URL
// are: it has no white space around it.
func trimSpace(s string) string {
	if n := len(s); n > 0 && s[0]-0x21 < 0x5E && s[n-1]-0x21 < 0x5E {
		return s
	}
	return strings.TrimSpace(s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

const upperHex = "0123456789ABCDEF"
