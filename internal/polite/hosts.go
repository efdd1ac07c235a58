package polite

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

// MaxCrawlDelay is the longest Crawl-delay that Hosts honours: a longer
// one is taken as this.
const MaxCrawlDelay = 30 * time.Second

// Hosts holds the limits of a call towards each host: how many of its
// requests are in flight at most, and the pace of its requests (a rate, or
// the Crawl-delay of a robots.txt). It is safe for concurrent use.
type Hosts struct {
	rate           float64 // requests a second; 0 is no limit
	maxConcurrency int     // 0 is no limit

	mu    sync.Mutex
	hosts map[string]*host
}

// host is what a call knows of one host.
type host struct {
	inFlight *semaphore.Weighted // nil when not bounded
	pace     *rate.Limiter       // nil when not bounded; set under Hosts.mu
	// delayRank is the rank of the robots.txt group whose Crawl-delay set
	// pace.
	delayRank Rank
}

// NewHosts returns the limits of a call: at most perSecond requests a
// second to a host (0 is no limit) as a steady pace with no burst beyond
// one, and at most maxConcurrency in flight at once (0 is no limit).
func NewHosts(perSecond float64, maxConcurrency int) *Hosts {
	return &Hosts{rate: perSecond, maxConcurrency: maxConcurrency, hosts: map[string]*host{}}
}

// HostKey is the key of the host of u for Hosts: its host and port, in
// lower case.
func HostKey(u *url.URL) string { return strings.ToLower(u.Host) }

// host returns the state of the host of key, made on first use.
func (h *Hosts) host(key string) *host {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.hosts[key]
	if s == nil {
		s = &host{}
		if h.maxConcurrency > 0 {
			s.inFlight = semaphore.NewWeighted(int64(h.maxConcurrency))
		}
		if h.rate > 0 {
			s.pace = rate.NewLimiter(rate.Limit(h.rate), 1)
		}
		h.hosts[key] = s
	}
	return s
}

// Acquire takes a place among the requests in flight to the host of key.
// When none is free, it waits for one through wait, which runs the
// blocking wait it is given (the caller frees what it holds meanwhile);
// the wait ends with ctx. release gives the place back, once the request
// is over.
func (h *Hosts) Acquire(ctx context.Context, key string, wait func(func() error) error) (release func(), err error) {
	s := h.host(key)
	if s.inFlight == nil {
		return func() {}, nil
	}
	if !s.inFlight.TryAcquire(1) {
		if err := wait(func() error { return s.inFlight.Acquire(ctx, 1) }); err != nil {
			return nil, err
		}
	}
	return func() { s.inFlight.Release(1) }, nil
}

// Reserve takes the turn of a request to the host of key at now, and
// returns how long it is to wait before it is sent: 0 when the host has no
// pace or its turn has come. cancel gives the turn back, at the time it is
// called with, when the request is not sent after all.
func (h *Hosts) Reserve(key string, now time.Time) (delay time.Duration, cancel func(time.Time)) {
	s := h.host(key)
	h.mu.Lock()
	pace := s.pace
	h.mu.Unlock()
	if pace == nil {
		return 0, func(time.Time) {}
	}
	r := pace.ReserveN(now, 1)
	return r.DelayFrom(now), r.CancelAt
}

// CrawlDelay paces the requests to the host of key by a Crawl-delay of
// secs seconds, capped at MaxCrawlDelay, from a group of the given rank,
// unless a group of a higher rank has set one, or the rate of the Hosts
// is slower. The robots.txt was the host's last request, at now: the next
// waits the delay. A secs of 0 is a group that asks for no delay: the pace
// is then the rate's, if one is set.
func (h *Hosts) CrawlDelay(key string, rank Rank, secs float64, now time.Time) {
	if rank == None {
		return
	}
	limit := rate.Inf
	if secs > 0 {
		limit = rate.Every(min(time.Duration(min(secs, MaxCrawlDelay.Seconds())*float64(time.Second)), MaxCrawlDelay))
	}
	if h.rate > 0 && rate.Limit(h.rate) < limit {
		limit = rate.Limit(h.rate)
	}
	s := h.host(key)
	h.mu.Lock()
	defer h.mu.Unlock()
	if rank < s.delayRank {
		return
	}
	s.delayRank = rank
	if s.pace == nil {
		if limit == rate.Inf {
			return
		}
		s.pace = rate.NewLimiter(limit, 1)
		s.pace.ReserveN(now, 1)
		return
	}
	s.pace.SetLimitAt(now, limit)
}
