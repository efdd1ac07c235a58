package sitemap

import (
	"context"
	"net/netip"
	"net/url"
	"time"

	"github.com/gositemap/sitemap/internal/polite"
)

// This file is the root's side of the politeness of a call towards each
// host: the settings, and the call's use of the engines of internal/polite
// (how many requests are in flight to a host, how many it is sent a
// second, and the Crawl-delay of a robots.txt). With the retry policy
// (retry.go) it is the state that fetcher.send consults before each try.

// politeConfig is the configuration of retries, of the limits per host and
// of the guard against internal addresses. Its zero value turns them all
// off, as the spec has it.
type politeConfig struct {
	blockPrivate bool

	retries      int
	retryMaxWait time.Duration // 0 is polite.DefaultMaxWait

	hostConcurrency int
	hostRate        float64 // requests a second; 0 is no limit
	crawlDelay      bool

	// Set by tests only: allow lets the guard through to the addresses it
	// accepts (a loopback server), clock replaces the real time.
	allow func(netip.AddrPort) bool
	clock polite.Clock
}

// politeState is the retry policy and the state per host of one call.
type politeState struct {
	cfg   politeConfig
	clock polite.Clock
	retry polite.Retry
	hosts *polite.Hosts
}

// newPoliteState returns the state of a call with the configuration cfg,
// nil when it sets neither retries nor limits per host: then a request is
// sent as the spec has it.
func newPoliteState(cfg politeConfig) *politeState {
	if cfg.retries == 0 && cfg.hostConcurrency == 0 && cfg.hostRate == 0 && !cfg.crawlDelay {
		return nil
	}
	p := &politeState{cfg: cfg, clock: cfg.clock, retry: cfg.retryPolicy(), hosts: polite.NewHosts(cfg.hostRate, cfg.hostConcurrency)}
	if p.clock == nil {
		p.clock = polite.Real{}
	}
	return p
}

// enter waits for the turn of a request to u (for rawURL) within the
// limits of its host: a place among its requests in flight, then its pace.
// The waits run through outside, which frees the call's slot meanwhile.
// release gives the place back; it is to be called once the request is
// over.
func (p *politeState) enter(ctx context.Context, rawURL string, u *url.URL, outside func(string, func() error) error) (release func(), err error) {
	key := polite.HostKey(u)
	release, err = p.hosts.Acquire(ctx, key, func(wait func() error) error { return outside(rawURL, wait) })
	if err != nil {
		return nil, err
	}
	if d, cancel := p.hosts.Reserve(key, p.clock.Now()); d > 0 {
		if err := outside(rawURL, func() error { return p.clock.Sleep(ctx, d) }); err != nil {
			cancel(p.clock.Now())
			release()
			return nil, err
		}
	}
	return release, nil
}

// attachCrawlDelay attaches, when the call paces its requests by the
// Crawl-delay of a robots.txt (HostLimits.CrawlDelay), the hook that reads
// it: each robots.txt the call reads follows its groups line by line
// through the reader of internal/polite, which keeps no more than the rank
// of the group it is in and the delay that applies so far, and paces the
// requests to its host by the delay (0: none) whenever it changes.
func (c *call) attachCrawlDelay() {
	p := c.f.polite
	if p == nil || !p.cfg.crawlDelay {
		return
	}
	c.attach(hooks{document: func(_ child, _ int, d *doc) docHooks {
		if d.found != FoundRobots {
			return docHooks{}
		}
		delay := polite.NewDelay(polite.NewAgent(c.cfg.userAgent))
		host := polite.HostKey(d.base)
		return docHooks{robotsLine: func(line []byte) {
			if delay.Line(line) {
				rank, secs := delay.Delay()
				p.hosts.CrawlDelay(host, rank, secs, p.clock.Now())
			}
		}}
	}})
}
