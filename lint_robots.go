package sitemap

import (
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
	if capped {
		ld.report(CodeLintCapped, ld.line, ld.col, "", fmt.Sprintf("robots.txt was fetched for the first %d hosts: the URLs of others are not checked against theirs", l.opt.MaxRobots))
	}
	if e == nil {
		return nil
	}
	e.once.Do(func() { e.data = l.fetchRobots(origin + "/robots.txt") })
	return e.data
}

// fetchRobots fetches and reads the robots.txt at loc. A status of 4xx
// is a robots.txt that allows everything, as Google reads it; any other
// failure leaves it unknown.
func (l *linter) fetchRobots(loc string) *polite.Robots {
	rc, _, err := l.c.f.get(l.c.ctx, loc)
	var es errStatus
	switch {
	case errors.As(err, &es) && es.code >= 400 && es.code < 500:
		return &polite.Robots{}
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
	keys := []string{urlnorm.Key(ld.url()), urlnorm.Key(ld.d.baseStr)}
	for _, sm := range data.Sitemaps {
		k := urlnorm.Key(strings.TrimSpace(sm))
		if k == keys[0] || k == keys[1] {
			return true
		}
	}
	return false
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
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if !data.Allowed(path) {
		ld.entryFinding(CodeRobotsDisallowed, raw, "the robots.txt of %s disallows it for the user agent %q", u.Host, l.c.cfg.userAgent)
	}
}
