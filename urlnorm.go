package sitemap

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is the pipeline's side of URL handling: the checks a call
// makes of the URL it is given, of the location of each entry (the
// same-site rule of strict mode in the spec's words), and what it reads
// by a URL alone. The engine (normalisation, keys, the same-site rule,
// origins) is internal/urlnorm, which knows nothing of the pipeline.

// checkRootURL checks the URL passed to Parse before it is fetched: an
// HTTP or HTTPS URL with a host.
func checkRootURL(raw string) error { return urlnorm.CheckHTTP(raw) }

// isRobotsURL reports whether the document at raw is read as a robots.txt:
// the last segment of its path, unescaped, is robots.txt in any letter
// case; a query or a fragment is no part of the path. The command reads a
// file by the same rule.
func isRobotsURL(raw string) bool { return urlnorm.IsRobots(raw) }

// location checks the location of an entry; ok is false when the entry is
// to be skipped.
func (d *doc) location(e *rawEntry, sameSite bool) (loc string, ok bool) {
	raw := textOf(&e.loc)
	if len(raw) == 0 {
		if !e.feed {
			d.invalid(d.baseStr, errNoLoc)
		}
		return "", false
	}
	written := d.intern(raw)
	loc, err := d.urls.Loc(written, d.base, d.strict)
	if err != nil {
		err = checkLoc(err)
	} else if d.strict && sameSite {
		err = checkSameSite(loc, d.base)
	}
	if err != nil {
		d.invalid(written, err)
		return "", false
	}
	return loc, true
}

// checkLoc is the rule of a location that urlnorm.Loc refused with err:
// loc-too-long, loc-not-escaped (a character strict mode wants
// percent-encoded) or loc-invalid.
func checkLoc(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, urlnorm.ErrTooLong):
		return broke(CodeLocTooLong, err)
	case urlnorm.IsUnescaped(err):
		return broke(CodeLocNotEscaped, err)
	}
	return broke(CodeLocInvalid, err)
}

// checkSameSite is strict mode's rule that a page or a sitemap that a
// sitemap (index) lists is on the protocol and the host of that sitemap,
// base being the URL the sitemap was served from (STRICT-3, HOST,
// REDIRECT-3): loc-other-host when loc is on another host, whatever its
// protocol, loc-other-scheme when only the protocol differs, and
// loc-invalid for a loc that does not parse. The message names what
// urlnorm.SameSite found first. loc has passed urlnorm.Loc in strict mode.
// Lint checks it too, and lets a cross-submission through.
func checkSameSite(loc string, base *url.URL) error {
	err := urlnorm.SameSite(loc, base)
	if site, ok := err.(*urlnorm.SiteError); ok {
		code := CodeLocOtherHost
		if u, err := url.Parse(loc); site.Part == "protocol" && err == nil && sameHost(u, base) {
			code = CodeLocOtherScheme
		}
		// In the words of the spec (HOST-4, HOST-5), wrapping what
		// urlnorm.SameSite found.
		msg := fmt.Sprintf("strict mode: %s %q does not match sitemap %s %q", site.Part, site.Got, site.Part, site.Want)
		return broke(code, &causedError{msg, site})
	}
	return broke(CodeLocInvalid, err)
}

// sameHost reports whether u names the host of base, whatever the
// protocols: with no port named, each on the default port of its own.
func sameHost(u, base *url.URL) bool {
	if u.Port() == "" && base.Port() == "" {
		v := *u
		v.Scheme = base.Scheme
		return urlnorm.SameSite(v.String(), base) == nil
	}
	return strings.EqualFold(u.Host, base.Host)
}
