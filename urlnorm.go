package sitemap

import (
	"fmt"
	"net/url"

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
	if err == nil && d.strict && sameSite {
		err = checkSameSite(loc, d.base)
	}
	if err != nil {
		d.invalid(written, err)
		return "", false
	}
	return loc, true
}

// siteMismatchError is the cause of a URL that strict mode finds on another
// protocol or host than the sitemap that lists it (HOST-4, HOST-5), in the
// words of the spec; it wraps what urlnorm.SameSite found.
type siteMismatchError struct{ site *urlnorm.SiteError }

func (e *siteMismatchError) Error() string {
	s := e.site
	return fmt.Sprintf("strict mode: %s %q does not match sitemap %s %q", s.Part, s.Got, s.Part, s.Want)
}

func (e *siteMismatchError) Unwrap() error { return e.site }

// checkSameSite is strict mode's rule that a page or a sitemap that a
// sitemap (index) lists is on the protocol and the host of that sitemap,
// base being the URL the sitemap was served from (STRICT-3, HOST,
// REDIRECT-3). loc has passed urlnorm.Loc in strict mode.
func checkSameSite(loc string, base *url.URL) error {
	err := urlnorm.SameSite(loc, base)
	if site, ok := err.(*urlnorm.SiteError); ok {
		return &siteMismatchError{site}
	}
	return err
}
