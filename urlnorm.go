package sitemap

import (
	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is the pipeline's side of URL handling: the checks a call
// makes of the URL it is given and what it reads by a URL alone. The
// engine (normalisation, keys, the same-site rule, origins) is
// internal/urlnorm; translate.go hands it the URLs of the documents, and
// errors.go words what it finds about the same-site rule.

// checkRootURL checks the URL passed to Parse before it is fetched: an
// HTTP or HTTPS URL with a host.
func checkRootURL(raw string) error { return urlnorm.CheckHTTP(raw) }

// isRobotsURL reports whether the document at raw is read as a robots.txt:
// the last segment of its path, unescaped, is robots.txt in any letter
// case; a query or a fragment is no part of the path. The command reads a
// file by the same rule.
func isRobotsURL(raw string) bool { return urlnorm.IsRobots(raw) }
