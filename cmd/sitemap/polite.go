package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/dates"
	"github.com/gositemap/sitemap/store"
)

// The flags of retries, of the pace per host, of the guard against
// internal addresses, and of conditional fetching.

// hostOptions are the flags of retries, of the limits per host and of the
// guard, which sitemap and sitemap lint share.
type hostOptions struct {
	retries            int
	hostRate           float64
	maxHostConcurrency int
	blockPrivate       bool
}

// hostFlags adds the flags of o to fs.
func hostFlags(fs *flag.FlagSet, o *hostOptions) {
	fs.IntVar(&o.retries, "retries", 0, "try a request again up to `N` times after a 429, 502, 503, 504, a reset or a timeout,\nafter its Retry-After or a random backoff (0 to 100)")
	fs.Float64Var(&o.hostRate, "host-rate", 0, "send at most `R` requests a second to each host, such as 2 or 0.5 (0: no limit;\nthe page checks of sitemap lint keep to 1 a second then)")
	fs.IntVar(&o.maxHostConcurrency, "max-host-concurrency", 0, "have at most `N` requests in flight to each host at the same time (0: no limit)")
	fs.BoolVar(&o.blockPrivate, "block-private", false, "refuse to connect to loopback, private, link-local and other internal addresses,\nafter DNS and on every redirect (through a proxy, the proxy's address is checked)")
}

// politeness is the setting of the library that o describes.
func (o *hostOptions) politeness() sitemap.Politeness {
	return sitemap.Politeness{Host: sitemap.HostLimits{Rate: o.hostRate, MaxConcurrency: o.maxHostConcurrency}, Retry: sitemap.Retry{Max: o.retries}}
}

func politeFlags(fs *flag.FlagSet, o *options) {
	hostFlags(fs, &o.hostOptions)
	fs.StringVar(&o.state, "state", "", "keep what this run learns in the state `FILE`, and fetch only what changed since the last run\nthat used it: requests carry If-None-Match and If-Modified-Since, and a sitemap unchanged is not read;\nthe URLs are compared with the last run's (jsonl: \"change\", csv: change), and a run cut short resumes")
	fs.BoolVar(&o.trustLastmod, "trust-index-lastmod", false, "with -state, do not fetch a sitemap whose index gives it the lastmod it had at the last run")
	fs.BoolVar(&o.stateReset, "state-reset", false, "with -state, start afresh from a state file that cannot be read, rather than stop")
	fs.Var(&o.since, "since", "leave out the URLs, and do not fetch the sitemaps, whose lastmod is older than `DATE`\n(W3C datetime: 2024-01-15 or 2024-01-15T12:00:00Z; a lastmod without a time is compared at its own precision)")
}

// openState sets the store of -state on s: the state file, opened with
// -state-reset's leave to start afresh from one that cannot be read, and
// held for this run alone: a second run with the same file while this one
// goes on would take this one for a run cut short and resume it, leaving
// out what this one has written out; it is refused (store.ErrInUse). A
// file that cannot be opened is a *ConfigError of the setting "store",
// naming the file, which the caller prints; nothing is fetched then.
func (c *command) openState(s *sitemap.S, o *options) error {
	if o.state == "" {
		return nil
	}
	f, err := store.OpenFile(o.state, &store.FileOptions{DiscardCorrupt: o.stateReset, Exclusive: true})
	if err != nil {
		return &sitemap.ConfigError{Field: "store", Err: err}
	}
	s.SetStore(f)
	c.state = f
	return nil
}

// closeState closes the state file, once the run has synced it: Close
// writes it anew when more than a third of it is of records put again,
// so that the next run reads little more than its records. A file that
// cannot be written anew stays as the run left it, its records synced.
func (c *command) closeState() {
	if c.state != nil {
		c.state.Close()
	}
}

// sinceFlag is the value of -since: a W3C datetime.
type sinceFlag struct {
	t   time.Time
	raw string
}

func (f *sinceFlag) String() string { return f.raw }

func (f *sinceFlag) Set(v string) error {
	t, ok := dates.ParseW3C(strings.TrimSpace(v))
	if !ok {
		return fmt.Errorf("%q is not a W3C datetime (such as 2024-01-15 or 2024-01-15T12:00:00Z)", v)
	}
	f.t, f.raw = t, v
	return nil
}

// stateSummary writes, after the summary, what the state file and -since
// saved: how many documents were unchanged, and how many not fetched as
// older than -since.
func (c *command) stateSummary(s *sitemap.S, o *options) {
	if o.state == "" && o.since.raw == "" {
		return
	}
	counts := map[sitemap.Status]int{}
	for _, d := range s.GetDocuments() {
		counts[d.Status]++
	}
	fmt.Fprintf(c.stderr, "Changes: %d read, %d unchanged, %d not modified since\n",
		counts[sitemap.StatusParsed]+counts[sitemap.StatusPartial], counts[sitemap.StatusUnchanged], counts[sitemap.StatusNotModifiedSince])
	c.changeSummary(s) // changes.go
}

// proxyVariables are the environment variables net/http takes a proxy from.
var proxyVariables = []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"}

// baseTransport is the transport the requests go through: net/http's
// default, or with -block-private a copy of it whose dialer runs the
// library's guard. A proxy set in the environment is then the address the
// guard sees: the command warns.
func (c *command) baseTransport(blockPrivate bool) http.RoundTripper {
	def, ok := http.DefaultTransport.(*http.Transport)
	if !blockPrivate || !ok {
		return http.DefaultTransport
	}
	for _, name := range proxyVariables {
		if v := os.Getenv(name); v != "" {
			fmt.Fprintf(c.stderr, "sitemap: warning: %s is set: -block-private checks the address of the proxy, not of the hosts it connects to\n", name)
			break
		}
	}
	t := def.Clone()
	dialer := sitemap.BlockPrivateDialer(&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second})
	t.DialContext = dialer.DialContext
	return t
}
