package urlnorm

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// This file is the origin of a URL, where the sitemap package builds it
// (discovery, lint's robots.txt per host), and the rule that tells a
// robots.txt by its URL.

// ErrNoHost is the cause of an HTTP or HTTPS URL with no host.
var ErrNoHost = errors.New("missing host")

// CheckHTTP checks that raw parses as an HTTP or HTTPS URL with a host: the
// URL a call is given to fetch, or the site a discovery is given. The
// error says what is wrong, for the caller to wrap: that it does not
// parse, its scheme (unsupported scheme "ftp"), or [ErrNoHost].
func CheckHTTP(raw string) error {
	_, err := checkHTTP(raw)
	return err
}

func checkHTTP(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("unsupported scheme %q", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, ErrNoHost
	}
	return u, nil
}

// Origin returns the origin of raw, an HTTP or HTTPS URL with a host: its
// scheme and its authority, as [Loc] normalises them (in lower case, the
// host in its Punycode form), with no path, such as https://example.com or
// http://example.com:8080. The error is that of [CheckHTTP], or the cause
// [Loc] gives for an authority it rejects.
func Origin(raw string) (string, error) {
	u, err := checkHTTP(raw)
	if err != nil {
		return "", err
	}
	// The authority alone goes through Loc: a path too long for a URL
	// does not keep its site from having an origin.
	loc, err := Loc(u.Scheme+"://"+u.Host+"/", nil, false)
	if err != nil {
		return "", err
	}
	return strings.ToLower(strings.TrimSuffix(loc, "/")), nil
}

// MovedOrigin returns the origin a site at origin has moved to when a
// request of it ended at final: final's origin when it is origin over
// HTTPS, or the same host with or without its www. label (on the same
// scheme, or upgraded to HTTPS), the port unchanged; origin otherwise. A
// redirect to another site, or from HTTPS to HTTP, leaves origin as it is.
func MovedOrigin(origin, final string) string {
	from, err1 := url.Parse(origin)
	to, err2 := url.Parse(final)
	if err1 != nil || err2 != nil || to.Host == "" {
		return origin
	}
	upgrade := from.Scheme == "http" && to.Scheme == "https"
	if to.Scheme != from.Scheme && !upgrade {
		return origin
	}
	// The port stays, or both are their scheme's default.
	if from.Port() != to.Port() && !(upgrade && from.Port() == "" && to.Port() == "") {
		return origin
	}
	a, b := strings.ToLower(from.Hostname()), strings.ToLower(to.Hostname())
	if a != b && strings.TrimPrefix(a, "www.") != strings.TrimPrefix(b, "www.") {
		return origin
	}
	if moved, err := Origin(final); err == nil {
		return moved
	}
	return origin
}

// IsRobots reports whether raw names a robots.txt: its last path segment,
// unescaped, is robots.txt in any letter case. A URL that does not parse is
// judged by what comes before its query or fragment.
func IsRobots(raw string) bool {
	path := raw
	if u, err := url.Parse(raw); err == nil {
		path = u.EscapedPath()
	} else if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		path = path[i+1:]
	}
	if seg, err := url.PathUnescape(path); err == nil {
		path = seg
	}
	return strings.EqualFold(path, "robots.txt")
}
