package sitemap_test

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// Politeness per host (issue 16): Politeness.Host, its MaxConcurrency, Rate and
// CrawlDelay. The waits for a host's pace run on a test clock.

const plNS = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`

// plHost is a loopback server that counts its requests in flight and the
// most seen at once; a request to a path of hold waits until release is
// closed.
type plHost struct {
	*httptest.Server
	mu            sync.Mutex
	inFlight, max int
	paths         []string
}

func plServe(t *testing.T, handle func(w http.ResponseWriter, r *http.Request)) *plHost {
	t.Helper()
	h := &plHost{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.inFlight++
		h.max = max(h.max, h.inFlight)
		h.paths = append(h.paths, r.URL.Path)
		h.mu.Unlock()
		defer func() { h.mu.Lock(); h.inFlight--; h.mu.Unlock() }()
		handle(w, r)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *plHost) peak() int { h.mu.Lock(); defer h.mu.Unlock(); return h.max }

func plURLSet(w http.ResponseWriter, loc string) {
	fmt.Fprintf(w, `<urlset %s><url><loc>https://example.com%s</loc></url></urlset>`, plNS, loc)
}

// Two hosts, each limited to one request in flight: the two sitemaps of
// host A wait for each other, and the one of host B is read meanwhile.
// A's sitemaps answer only once B's has been requested: were A's limit
// not kept, both would be in flight at once; were a wait for host A to
// hold one of the two slots, B's sitemap would never be requested.
func TestHostConcurrencyPerHost(t *testing.T) {
	bAsked := make(chan struct{})
	b := plServe(t, func(w http.ResponseWriter, r *http.Request) {
		close(bAsked)
		plURLSet(w, "/b1")
	})
	var a *plHost
	a = plServe(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/index.xml" {
			fmt.Fprintf(w, `<sitemapindex %s><sitemap><loc>%s/a1.xml</loc></sitemap><sitemap><loc>%s/a2.xml</loc></sitemap><sitemap><loc>%s/b1.xml</loc></sitemap></sitemapindex>`,
				plNS, a.URL, a.URL, b.URL)
			return
		}
		select {
		case <-bAsked:
		case <-time.After(30 * time.Second): // a guard against a hang, not a timing
			t.Error("host B was never requested while host A waited")
		}
		plURLSet(w, r.URL.Path)
	})
	s := sitemap.New().SetFetchTimeout(60).SetMaxConcurrency(2).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{MaxConcurrency: 1}})
	guard(t, 60*time.Second, func() {
		if _, err := s.Parse(a.URL+"/index.xml", nil); err != nil {
			t.Errorf("Parse: %v", err)
		}
	})
	if n := len(s.GetURLs()); n != 3 {
		t.Errorf("%d URLs, want 3 (errors %v)", n, s.GetErrors())
	}
	if p := a.peak(); p != 1 {
		t.Errorf("host A had %d requests in flight at once, want 1", p)
	}
	if s.GetPoliteness().Host.MaxConcurrency != 1 {
		t.Errorf("GetPoliteness().Host.MaxConcurrency = %d", s.GetPoliteness().Host.MaxConcurrency)
	}
}

// Without the limit, the same site has both of A's sitemaps in flight at
// once: the test above tells the limit apart.
func TestHostConcurrencyOffByDefault(t *testing.T) {
	bothAsked := make(chan struct{})
	var once sync.Once
	var a *plHost
	a = plServe(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/index.xml" {
			fmt.Fprintf(w, `<sitemapindex %s><sitemap><loc>%s/a1.xml</loc></sitemap><sitemap><loc>%s/a2.xml</loc></sitemap></sitemapindex>`, plNS, a.URL, a.URL)
			return
		}
		a.mu.Lock()
		n := a.inFlight
		a.mu.Unlock()
		if n == 2 {
			once.Do(func() { close(bothAsked) })
		}
		select {
		case <-bothAsked:
		case <-time.After(30 * time.Second): // a guard against a hang
			t.Error("the two sitemaps of host A were not in flight at once")
		}
		plURLSet(w, r.URL.Path)
	})
	s := sitemap.New().SetFetchTimeout(60).SetMaxConcurrency(2)
	if _, err := s.Parse(a.URL+"/index.xml", nil); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if p := a.peak(); p != 2 {
		t.Errorf("peak %d, want 2", p)
	}
}

// The pace of a host: with 2 requests a second, each request to a host
// after its first waits half a second on the test clock; the other host
// has a pace of its own.
func TestHostRatePerHost(t *testing.T) {
	b := plServe(t, func(w http.ResponseWriter, r *http.Request) { plURLSet(w, r.URL.Path) })
	var a *plHost
	a = plServe(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/index.xml" {
			fmt.Fprintf(w, `<sitemapindex %s><sitemap><loc>%s/a1.xml</loc></sitemap><sitemap><loc>%s/a2.xml</loc></sitemap><sitemap><loc>%s/b1.xml</loc></sitemap><sitemap><loc>%s/a3.xml</loc></sitemap></sitemapindex>`,
				plNS, a.URL, a.URL, b.URL, a.URL)
			return
		}
		plURLSet(w, r.URL.Path)
	})
	k := newRTClock()
	s := sitemap.New().SetFetchTimeout(60).SetMultiThread(false).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{Rate: 2}})
	sitemap.SetClockForTest(s, k.clock())
	if _, err := s.Parse(a.URL+"/index.xml", nil); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if n := len(s.GetURLs()); n != 4 {
		t.Errorf("%d URLs, want 4", n)
	}
	half := 500 * time.Millisecond
	rtWaits(t, k.got(), half, half, half) // a1, a2, a3; b1 is its host's first
	if s.GetPoliteness().Host.Rate != 2 {
		t.Errorf("GetPoliteness().Host.Rate = %v", s.GetPoliteness().Host.Rate)
	}

	k = newRTClock()
	s = sitemap.New().SetFetchTimeout(60).SetMultiThread(false)
	sitemap.SetClockForTest(s, k.clock())
	if _, err := s.Parse(a.URL+"/index.xml", nil); err != nil || len(k.got()) != 0 {
		t.Errorf("by default: %v, waits %v; want none", err, k.got())
	}
}

const plRobots = `# groups
User-agent: otherbot
Crawl-delay: 9

User-agent: *
Disallow: /private/
Crawl-delay: 2

User-agent: TestBot
User-agent: friendbot
Disallow: /tmp/
Crawl-delay: %s

Sitemap: {base}/a.xml
Sitemap: {base}/b.xml
`

// The Crawl-delay of the group of the user agent's product token, else of
// *, paces the call; off by default. How the groups are matched and
// combined, and the cap, are tested in internal/polite.
func TestCrawlDelay(t *testing.T) {
	for _, tc := range []struct {
		name, agent, delay string
		on                 bool
		rate               float64
		want               time.Duration
	}{
		{"token", "testbot/1.0 (+https://example.org)", "3", true, 0, 3 * time.Second},
		{"star", "somebot/2", "3", true, 0, 2 * time.Second},
		{"slower host rate holds", "testbot", "3", true, 0.1, 10 * time.Second},
		{"off", "testbot", "3", false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h *plHost
			h = plServe(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					fmt.Fprint(w, strings.ReplaceAll(fmt.Sprintf(plRobots, tc.delay), "{base}", h.URL))
					return
				}
				plURLSet(w, r.URL.Path)
			})
			k := newRTClock()
			s := sitemap.New().SetFetchTimeout(60).SetMultiThread(false).SetUserAgent(tc.agent).SetPoliteness(sitemap.Politeness{Host: sitemap.HostLimits{CrawlDelay: tc.on, Rate: tc.rate}})
			sitemap.SetClockForTest(s, k.clock())
			if _, err := s.Parse(h.URL+"/robots.txt", nil); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if n := len(s.GetURLs()); n != 2 {
				t.Errorf("%d URLs, want 2", n)
			}
			var want []time.Duration
			if tc.want > 0 {
				want = []time.Duration{tc.want, tc.want}
			}
			rtWaits(t, k.got(), want...)
		})
	}
}

func TestHostSettingsRejected(t *testing.T) {
	for name, tc := range map[string]struct {
		h     sitemap.HostLimits
		field string
	}{
		"host concurrency -1": {sitemap.HostLimits{MaxConcurrency: -1}, "politeness.host.maxConcurrency"},
		"host rate -1":        {sitemap.HostLimits{Rate: -1}, "politeness.host.rate"},
		"host rate NaN":       {sitemap.HostLimits{Rate: math.NaN()}, "politeness.host.rate"},
		"host rate +Inf":      {sitemap.HostLimits{Rate: math.Inf(1)}, "politeness.host.rate"},
	} {
		s := sitemap.New().SetPoliteness(sitemap.Politeness{Host: tc.h})
		var cerr *sitemap.ConfigError
		if errs := s.GetErrors(); len(errs) != 1 || !errors.As(errs[0], &cerr) || cerr.Field != tc.field {
			t.Errorf("%s: errors = %v, want one *ConfigError for %s", name, errs, tc.field)
		}
	}
	if s := sitemap.New(); s.GetPoliteness().Host.CrawlDelay || s.GetPoliteness().Host.Rate != 0 || s.GetPoliteness().Host.MaxConcurrency != 0 {
		t.Error("a host limit is on by default")
	}
}
