package sitemap

import (
	"context"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

// This file is the politeness of a call towards each host: how many of its
// requests are in flight at most, how many it sends a second, and the
// Crawl-delay of a robots.txt. With the retry policy (retry.go) it is the
// state that fetcher.send consults before each try.

// MaxCrawlDelay is the longest Crawl-delay of a robots.txt that
// [HostLimits.CrawlDelay] honours: a longer one is taken as this.
const MaxCrawlDelay = 30 * time.Second

// politeConfig is the configuration of retries, of the limits per host and
// of the guard against internal addresses. Its zero value turns them all
// off, as the spec has it.
type politeConfig struct {
	blockPrivate bool

	retries      int
	retryMaxWait time.Duration // 0 is DefaultRetryMaxWait

	hostConcurrency int
	hostRate        float64 // requests a second; 0 is no limit
	crawlDelay      bool

	// Set by tests only: allow lets the guard through to the addresses it
	// accepts (a loopback server), clock replaces the real time.
	allow func(netip.AddrPort) bool
	clock clock
}

// politeState is the retry policy and the state per host of one call.
type politeState struct {
	cfg   politeConfig
	clock clock

	mu    sync.Mutex
	hosts map[string]*hostState
}

// hostState is what a call knows of one host: the requests in flight to
// it, and the pace of its requests.
type hostState struct {
	inFlight *semaphore.Weighted // nil when not bounded
	pace     *rate.Limiter       // nil when not bounded; set under politeState.mu
	// delayRank is the rank of the robots.txt group whose Crawl-delay set
	// pace: 0 none, 1 that of *, 2 that of the user agent's product token.
	delayRank int
}

// newPoliteState returns the state of a call with the configuration cfg,
// nil when it sets neither retries nor limits per host: then a request is
// sent as the spec has it.
func newPoliteState(cfg politeConfig) *politeState {
	if cfg.retries == 0 && cfg.hostConcurrency == 0 && cfg.hostRate == 0 && !cfg.crawlDelay {
		return nil
	}
	p := &politeState{cfg: cfg, clock: cfg.clock, hosts: map[string]*hostState{}}
	if p.clock == nil {
		p.clock = realClock{}
	}
	return p
}

// hostKey is the host and port of u, in lower case.
func hostKey(u *url.URL) string { return strings.ToLower(u.Host) }

// host returns the state of the host of key, made on first use.
func (p *politeState) host(key string) *hostState {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.hosts[key]
	if h == nil {
		h = &hostState{}
		if p.cfg.hostConcurrency > 0 {
			h.inFlight = semaphore.NewWeighted(int64(p.cfg.hostConcurrency))
		}
		if p.cfg.hostRate > 0 {
			h.pace = rate.NewLimiter(rate.Limit(p.cfg.hostRate), 1)
		}
		p.hosts[key] = h
	}
	return h
}

// enter waits for the turn of a request to u (for rawURL) within the
// limits of its host: a place among its requests in flight, then its pace.
// The waits run through outside, which frees the call's slot meanwhile.
// release gives the place back; it is to be called once the request is
// over.
func (p *politeState) enter(ctx context.Context, rawURL string, u *url.URL, outside func(string, func() error) error) (release func(), err error) {
	h := p.host(hostKey(u))
	release = func() {}
	if h.inFlight != nil {
		if !h.inFlight.TryAcquire(1) {
			if err := outside(rawURL, func() error { return h.inFlight.Acquire(ctx, 1) }); err != nil {
				return nil, err
			}
		}
		release = func() { h.inFlight.Release(1) }
	}
	p.mu.Lock()
	pace := h.pace
	p.mu.Unlock()
	if pace == nil {
		return release, nil
	}
	now := p.clock.now()
	r := pace.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		if err := outside(rawURL, func() error { return p.clock.sleep(ctx, d) }); err != nil {
			r.CancelAt(p.clock.now())
			release()
			return nil, err
		}
	}
	return release, nil
}

// crawlDelaySink is a sink of the robots.txt parse stage that takes the
// Crawl-delay lines, with the user agents of their group.
type crawlDelaySink interface {
	wantsCrawlDelay() bool
	crawlDelay(agents []string, value string)
}

// robotsGroup follows the groups of a robots.txt, line by line: the
// User-agent lines that follow one another start a group, and the rules
// after them belong to it.
type robotsGroup struct {
	agents   []string
	inAgents bool // the last rule line was a User-agent line
}

// line reads one line of a robots.txt, without its comment, and hands a
// Crawl-delay to sink. A Sitemap: line belongs to no group.
func (g *robotsGroup) line(line []byte, sink crawlDelaySink) {
	name, value, ok := strings.Cut(string(line), ":")
	if !ok {
		return
	}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "sitemap":
	case "user-agent":
		if !g.inAgents {
			g.agents = g.agents[:0]
		}
		g.agents = append(g.agents, strings.TrimSpace(value))
		g.inAgents = true
	case "crawl-delay":
		g.rules(sink)
		sink.crawlDelay(g.agents, strings.TrimSpace(value))
	default:
		g.rules(sink)
	}
}

// rules notes a rule line: the first of a group tells sink of the group,
// with no delay as yet, as a group that names the user agent but gives no
// Crawl-delay asks for none.
func (g *robotsGroup) rules(sink crawlDelaySink) {
	if g.inAgents {
		sink.crawlDelay(g.agents, "")
	}
	g.inAgents = false
}

func (d *doc) wantsCrawlDelay() bool {
	p := d.c.f.polite
	return p != nil && p.cfg.crawlDelay
}

// crawlDelay takes the Crawl-delay value of the group of agents in the
// robots.txt d: it paces the requests to the host of d when the group is
// that of the product token of the call's user agent, or of * while no
// group of the token has been seen.
//
// An empty value starts the group: no delay, unless a Crawl-delay line of
// the group follows. A value that is no positive number is left out.
func (d *doc) crawlDelay(agents []string, value string) {
	secs := 0.0
	if value != "" {
		var err error
		if secs, err = strconv.ParseFloat(value, 64); err != nil || !(secs > 0) {
			return
		}
	}
	token := productToken(d.c.cfg.userAgent)
	rank := 0
	for _, a := range agents {
		if token != "" && strings.EqualFold(a, token) {
			rank = 2
		} else if a == "*" {
			rank = max(rank, 1)
		}
	}
	if rank > 0 {
		d.c.f.polite.noteCrawlDelay(hostKey(d.base), rank, secs)
	}
}

// productToken is the product token of a user agent: its first word, up to
// a / or a space.
func productToken(userAgent string) string {
	token, _, _ := strings.Cut(strings.TrimSpace(userAgent), " ")
	token, _, _ = strings.Cut(token, "/")
	return token
}

// noteCrawlDelay paces the requests to host by a Crawl-delay of secs
// seconds, capped at MaxCrawlDelay, from the group of the given rank (2 the
// user agent's, 1 that of *), unless a group of a higher rank has set one,
// or the host rate set is slower. The robots.txt was the host's last
// request: the next waits the delay.
//
// A secs of 0 is a group with no delay: the pace is the host rate's, if
// one is set.
func (p *politeState) noteCrawlDelay(key string, rank int, secs float64) {
	limit := rate.Inf
	if secs > 0 {
		limit = rate.Every(min(time.Duration(min(secs, MaxCrawlDelay.Seconds())*float64(time.Second)), MaxCrawlDelay))
	}
	if p.cfg.hostRate > 0 && rate.Limit(p.cfg.hostRate) < limit {
		limit = rate.Limit(p.cfg.hostRate)
	}
	h := p.host(key)
	now := p.clock.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if rank < h.delayRank {
		return
	}
	h.delayRank = rank
	if h.pace == nil {
		if limit == rate.Inf {
			return
		}
		h.pace = rate.NewLimiter(limit, 1)
		h.pace.ReserveN(now, 1)
		return
	}
	h.pace.SetLimitAt(now, limit)
}
