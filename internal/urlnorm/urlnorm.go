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
