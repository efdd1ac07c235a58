package sitemap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"

	"github.com/gositemap/sitemap/internal/polite"
	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is lint's use of robots.txt: robots-disallowed, and the
// cross-submission of a sitemap, which the robots.txt of a host allows to
// list URLs of that host by naming the sitemap in a Sitemap: line. The
// robots.txt of each host is fetched once, through the call's fetcher,
// for at most LintOptions.MaxRobots hosts, and read by internal/polite,
// the reader of groups that Crawl-delay goes through too (groups by
// product token, longest match of Allow and Disallow, * and $).

// maxRobotsSize is how much of a robots.txt is read: Google reads 500 KiB.
const maxRobotsSize = 500 << 10

// robotsCache holds the robots.txt of the hosts lint has asked for.
type robotsCache struct {
	mu    sync.Mutex
	hosts map[string]*robotsEntry // scheme://host → its robots.txt
	full  bool
}

// robotsEntry is the robots.txt of one host, fetched once.
type robotsEntry struct {
	once sync.Once
	data *polite.Robots // nil when it could not be had
}

// robots returns the robots.txt of the host of loc, nil when there is none
// to be had: robots.txt is off, loc does not parse, the cap of hosts is
// reached or the fetch failed.
func (l *linter) robots(loc string, ld *lintDoc) *polite.Robots {
	return l.robotsVia(l.c.ctx, l.c.f, loc, ld)
}

// robotsVia is robots, with a robots.txt not read yet fetched by f: the
// page checks fetch it at their pace.
func (l *linter) robotsVia(ctx context.Context, f *fetcher, loc string, ld *lintDoc) *polite.Robots {
	if l.opt.NoRobots {
		return nil
	}
	origin, err := urlnorm.Origin(loc)
	if err != nil {
		return nil
	}
	rc := &l.robotsTxt
	rc.mu.Lock()
	e, ok := rc.hosts[origin]
	capped := false
	if !ok {
		if rc.hosts == nil {
			rc.hosts = map[string]*robotsEntry{}
		}
		if len(rc.hosts) >= l.opt.MaxRobots {
			capped, rc.full = !rc.full, true
		} else {
			e = &robotsEntry{}
			rc.hosts[origin] = e
		}
	}
	rc.mu.Unlock()
	if capped && ld != nil {
		ld.report(CodeLintCapped, ld.line, ld.col, "", fmt.Sprintf("robots.txt was fetched for the first %d hosts: the URLs of others are not checked against theirs", l.opt.MaxRobots))
	}
	if e == nil {
		return nil
	}
	e.once.Do(func() { e.data = l.fetchRobots(ctx, f, origin+"/robots.txt") })
	return e.data
}

// fetchRobots fetches and reads the robots.txt at loc. A status of 4xx
// is a robots.txt that allows everything, as Google reads it; any other
// failure leaves it unknown.
func (l *linter) fetchRobots(ctx context.Context, f *fetcher, loc string) *polite.Robots {
	rc, _, err := f.get(ctx, loc)
	var es *statusError
	switch {
	case errors.As(err, &es) && es.v.code >= 400 && es.v.code < 500:
		return &polite.Robots{Missing: true}
	case err != nil:
		return nil
	}
	defer rc.Close()
	body, err := io.ReadAll(io.LimitReader(rc, maxRobotsSize))
	if err != nil {
		return nil
	}
	return polite.ReadRobots(body, polite.NewAgent(l.c.cfg.userAgent))
}

// crossSubmitted reports whether the robots.txt of the host of loc lists
// the sitemap of ld, as requested or as served.
func (l *linter) crossSubmitted(loc string, ld *lintDoc) bool {
	data := l.robots(loc, ld)
	if data == nil {
		return false
	}
	return lists(data, ld)
}

// lists reports whether the robots.txt data lists the sitemap of ld, as
// requested or as served, in a Sitemap: line.
func lists(data *polite.Robots, ld *lintDoc) bool {
	keys := []string{urlnorm.Key(ld.url()), urlnorm.Key(ld.d.baseStr)}
	for _, sm := range data.Sitemaps {
		k := urlnorm.Key(strings.TrimSpace(sm))
		if k == keys[0] || k == keys[1] {
			return true
		}
	}
	return false
}

// robotsPath is the path and query of u that the rules of a robots.txt
// are matched against.
func robotsPath(u *url.URL) string {
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	return path
}

// sitemapRobots makes the checks of a sitemap (ld, found so) against the
// robots.txt of its own host: sitemap-disallowed, when the robots.txt
// disallows the sitemap's URL for the user agent of the call, and, for
// the sitemap the call started from, not-in-robots, when no Sitemap: line
// names it. A document whose URL is no HTTP(S) URL, and a robots.txt, are
// not checked.
func (l *linter) sitemapRobots(ld *lintDoc, found Found) {
	loc := ld.url()
	u, err := url.Parse(loc)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || ld.d.format == formatRobots {
		return
	}
	data := l.robots(loc, ld)
	if data == nil {
		return
	}
	if !data.Allowed(robotsPath(u)) {
		ld.report(CodeSitemapDisallowed, 0, 0, "", fmt.Sprintf("the robots.txt of %s disallows the sitemap itself for the user agent %q: a crawler that obeys it does not read it", u.Host, l.c.cfg.userAgent))
	}
	switch {
	case found != FoundRoot || lists(data, ld):
	case data.Missing:
		ld.report(CodeNotInRobots, 0, 0, "", fmt.Sprintf("%s has no robots.txt to name the sitemap in: crawlers learn of it only where it is submitted", u.Host))
	default:
		ld.report(CodeNotInRobots, 0, 0, "", fmt.Sprintf("the robots.txt of %s names no sitemap at this URL: crawlers learn of it only where it is submitted", u.Host))
	}
}

// The directives of a robots.txt that robotsValue looks for in a Sitemap:
// value, where a lost line break runs them in.
var robotsDirectives = []string{"user-agent:", "disallow:", "allow:", "crawl-delay:", "host:", "sitemap:", "clean-param:"}

// robotsValue checks the value of a Sitemap: line, written raw: one that
// the call refuses (and does not request) is listed as the call reads it
// (tolerant), with the failure of its rule; one it reads only by guessing
// what was meant is robots-sitemap-value, with the URL it was read as.
func (ld *lintDoc) robotsValue(raw string) {
	loc, err := urlnorm.Loc(raw, ld.d.base, false)
	if err != nil {
		ld.broke(raw, "", checkLoc(err))
		return
	}
	if why := robotsGuess(raw); why != "" {
		ld.entryFinding(CodeRobotsSitemapValue, raw, "%s; it is read as %s", why, loc)
	}
}

// robotsGuess tells why a Sitemap: value, written raw, that tolerant
// reading resolves, is no URL the protocol allows there: "" when it is
// one, or when what is wrong is another rule's.
func robotsGuess(raw string) string {
	lower := strings.ToLower(raw)
	if strings.ContainsAny(raw, " \t") {
		for _, d := range robotsDirectives {
			if strings.Contains(lower, d) {
				return fmt.Sprintf("another directive (%s) runs into the value: a line break lost", raw[strings.Index(lower, d):][:len(d)])
			}
		}
	}
	if strings.ContainsAny(raw, "{}") {
		return "the value holds template braces: a template left unrendered"
	}
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		return ""
	}
	if first, _, more := strings.Cut(raw, "/"); more && looksLikeHost(first) {
		return fmt.Sprintf("the value begins with what looks like a host name (%s), without a scheme", first)
	}
	return "the value is relative: the protocol asks for a full URL"
}

// looksLikeHost reports whether s, the first segment of a relative path,
// looks like a host name: labels of letters, digits and hyphens, the last
// of letters, and not a file name such as sitemap.xml.
func looksLikeHost(s string) bool {
	labels := strings.Split(strings.ToLower(s), ".")
	if len(labels) < 2 {
		return false
	}
	for _, lb := range labels {
		if lb == "" || strings.Trim(lb, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	tld := labels[len(labels)-1]
	switch tld {
	case "xml", "gz", "txt", "php", "html", "htm", "asp", "aspx", "jsp", "json", "cgi", "d":
		return false
	}
	return len(tld) >= 2 && strings.Trim(tld, "abcdefghijklmnopqrstuvwxyz") == ""
}

// robotsCheck reports the page loc (as written: raw) when the robots.txt
// of its host disallows it for the user agent of the call.
func (l *linter) robotsCheck(ld *lintDoc, raw, loc string) {
	data := l.robots(loc, ld)
	if data == nil {
		return
	}
	u, err := url.Parse(loc)
	if err != nil {
		return
	}
	if !data.Allowed(robotsPath(u)) {
		ld.entryFinding(CodeRobotsDisallowed, raw, "the robots.txt of %s disallows it for the user agent %q", u.Host, l.c.cfg.userAgent)
	}
}
