package fleet

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gositemap/sitemap"
)

// Version is the version of the settings of a crawl, and of the shape of
// its output, that this package writes and reads. A worker refuses, by
// name, a crawl submitted with another one, rather than read it under
// settings it does not know. Version 2 compresses the batches of URLs;
// version 3 adds the listing (Sitemaps) and change detection (Changes),
// and a crawl with neither is submitted as version 2, which workers of
// version 2 still read.
const Version = 3

// minVersion is the oldest version of the settings a worker reads.
const minVersion = 2

// Crawl is what a crawl is asked to do: the settings of the library that
// cross the wire, each applied to every document of the crawl by whichever
// worker reads it. What cannot cross the wire (an HTTP client, functions)
// is set on the workers ([WorkerOptions]). The zero value is not the
// default: start from [DefaultCrawl].
type Crawl struct {
	// Version is the version of these settings; Submit sets it to [Version].
	Version int `json:"version"`
	// MaxURLs and MaxSitemaps are the URL and sitemap limits of the library
	// ([sitemap.S.SetMaxURLs], [sitemap.S.SetMaxSitemaps]), counted across
	// the whole fleet: the URLs handed on and the sitemaps queued by every
	// worker together. 0 is no limit.
	MaxURLs     int `json:"maxURLs"`
	MaxSitemaps int `json:"maxSitemaps"`
	// MaxDepth is how many levels of sitemap indexes are followed
	// ([sitemap.S.SetMaxDepth]).
	MaxDepth int `json:"maxDepth"`
	// MaxValidationErrors, MaxResponseSize, Timeout (in seconds),
	// UserAgent, Strict and BlockPrivate are the library's settings of the
	// same names, per document.
	MaxValidationErrors int    `json:"maxValidationErrors"`
	MaxResponseSize     int64  `json:"maxResponseSize"`
	Timeout             uint16 `json:"timeout"`
	UserAgent           string `json:"userAgent"`
	Strict              bool   `json:"strict"`
	BlockPrivate        bool   `json:"blockPrivate"`
	// Follow and Rules are the regular expressions of [sitemap.S.SetFollow]
	// and [sitemap.S.SetRules]: the sitemaps queued, and the URLs kept.
	Follow []string `json:"follow,omitempty"`
	Rules  []string `json:"rules,omitempty"`
	// Retries is how many times a request is tried again
	// ([sitemap.Retry] Max).
	Retries int `json:"retries"`
	// HostRate is how many requests a second the whole fleet sends to one
	// host at most, and MaxHostConcurrency how many it has in flight to one
	// host at once; 0 is no limit for either. They are kept across workers
	// through the hosts bucket (see the package documentation).
	HostRate           float64 `json:"hostRate"`
	MaxHostConcurrency int     `json:"maxHostConcurrency"`
	// CrawlDelay, when true, is the library's [sitemap.HostLimits]
	// CrawlDelay across the fleet: the worker that reads a robots.txt of
	// the crawl records the Crawl-delay of the group of the crawl's user
	// agent (or of *), capped at 30 seconds, for its host, and every
	// worker then spaces its requests to that host by it, or by 1/HostRate
	// where that is longer.
	CrawlDelay bool `json:"crawlDelay,omitempty"`
	// Since and TrustIndexLastMod are the library's [sitemap.Incremental]:
	// what is older than Since is left out (a sitemap an index dates
	// before it is not queued), and with a State, a sitemap its index
	// dates as at the last crawl is not fetched.
	Since             time.Time `json:"since,omitzero"`
	TrustIndexLastMod bool      `json:"trustIndexLastmod,omitempty"`
	// State, when not empty, names the shared store of conditional
	// fetching: the records of the sitemaps read, kept in the store bucket
	// under that name, so that a later crawl with the same State sends the
	// validators this one learnt. Empty is no store: every document is read.
	State string `json:"state,omitempty"`
	// Sitemaps, when true, makes the crawl a listing, as "sitemap
	// -sitemaps" is: its output holds the sitemaps its documents list,
	// with their dates ([Fleet.Sitemaps]), and no URL. Its documents are
	// read as in any crawl, and their URLs counted (under MaxURLs, and in
	// [Status]) without being published.
	Sitemaps bool `json:"sitemaps,omitempty"`
	// Changes, OnlyChanges and MaxGoneShare are the library's
	// [sitemap.Incremental] change detection, over the whole tree of the
	// crawl: with a State, each URL handed on carries its change since
	// the last crawl with the same State and roots (new, lastmod,
	// unchanged: the "change" of its JSON line), and once the crawl is
	// done the reader of its output hands on the URLs gone, each with
	// the sitemap that last listed it, after every other. A URL that
	// moves from one sitemap to another is neither new nor gone. With
	// OnlyChanges, the unchanged are left out. More than MaxGoneShare of
	// the last tree's URLs gone at once (0 is 0.30) is one
	// *sitemap.ParseError about the first root, and none is handed on
	// gone. OnlyChanges is Changes too, as in the library. They need a
	// State: without one, each is a *sitemap.ConfigError.
	Changes      bool    `json:"changes,omitempty"`
	OnlyChanges  bool    `json:"onlyChanges,omitempty"`
	MaxGoneShare float64 `json:"maxGoneShare,omitempty"`
}

// DefaultCrawl returns the settings of a crawl that match the defaults of
// the library and of the sitemap command.
func DefaultCrawl() Crawl {
	return Crawl{
		Version:             Version,
		MaxURLs:             sitemap.DefaultMaxURLs,
		MaxSitemaps:         sitemap.DefaultMaxSitemaps,
		MaxDepth:            sitemap.DefaultMaxDepth,
		MaxValidationErrors: sitemap.DefaultMaxValidationErrors,
		MaxResponseSize:     sitemap.DefaultMaxResponseSize,
		Timeout:             sitemap.DefaultFetchTimeout,
		UserAgent:           sitemap.DefaultUserAgent,
	}
}

// instance returns the library's instance that reads one document of the
// crawl: the crawl's settings but the sitemap limit, which the fleet counts
// across the crawl, RootOnly (the fleet queues what a document lists), the
// client given, and the store when the crawl has one. It
// returns the first *sitemap.ConfigError of a setting the library rejects.
func (c *Crawl) instance(client *http.Client, st sitemap.Store) (*sitemap.S, error) {
	s := sitemap.New().
		SetStrict(c.Strict).
		SetMaxURLs(c.MaxURLs).
		SetMaxSitemaps(0). // counted across the crawl by the fleet, as listed (worker.children)
		SetMaxDepth(max(c.MaxDepth, 1)).
		SetMaxValidationErrors(c.MaxValidationErrors).
		SetMaxResponseSize(c.MaxResponseSize).
		SetFetchTimeout(c.Timeout).
		SetUserAgent(c.UserAgent).
		SetFollow(c.Follow).
		SetRules(c.Rules).
		SetBlockPrivate(c.BlockPrivate).
		SetPoliteness(sitemap.Politeness{Retry: sitemap.Retry{Max: c.Retries}}).
		SetIncremental(c.incremental()).
		SetSelection(sitemap.Selection{RootOnly: true})
	if client != nil {
		s.SetHTTPClient(client)
	}
	if st != nil {
		s.SetStore(st)
	}
	if errs := s.GetErrors(); len(errs) > 0 {
		return nil, errs[0]
	}
	return s, nil
}

// incremental is what the instance of a document is given of
// sitemap.Incremental. Change detection compares the document with its
// own record, the fleet the rest of the tree (changes.go): the unchanged
// come to the worker, which may see them elsewhere in the last tree; the
// share of URLs gone is the tree's, checked by the reader of the output;
// and a document read again after its worker died is read whole.
func (c *Crawl) incremental() sitemap.Incremental {
	in := sitemap.Incremental{Since: c.Since, TrustIndexLastMod: c.TrustIndexLastMod}
	if c.changes() {
		in.Changes, in.NoResume = true, true
		in.MaxGoneShare = 1
	}
	return in
}

// changes reports whether the crawl compares with the last: Changes or
// OnlyChanges, with a State.
func (c *Crawl) changes() bool { return (c.Changes || c.OnlyChanges) && c.State != "" }

// check checks what the library does not: the settings of the fleet's own.
func (c *Crawl) check() error {
	if _, err := c.instance(nil, nil); err != nil {
		return err
	}
	if errs := sitemap.New().SetMaxSitemaps(c.MaxSitemaps).SetIncremental(sitemap.Incremental{MaxGoneShare: c.MaxGoneShare}).GetErrors(); len(errs) > 0 {
		return errs[0]
	}
	switch {
	case c.MaxDepth < 1:
		return &sitemap.ConfigError{Field: "maxDepth", Err: fmt.Errorf("depth must be at least 1, got %d", c.MaxDepth)}
	case c.HostRate < 0 || c.HostRate != c.HostRate || c.HostRate > 1e6:
		return &sitemap.ConfigError{Field: "politeness.host.rate", Err: fmt.Errorf("host rate must be a number of requests a second from 0 up, got %v", c.HostRate)}
	case c.MaxHostConcurrency < 0:
		return &sitemap.ConfigError{Field: "politeness.host.maxConcurrency", Err: fmt.Errorf("max host concurrency must not be negative, got %d", c.MaxHostConcurrency)}
	case (c.Changes || c.OnlyChanges || c.MaxGoneShare != 0) && c.State == "":
		return &sitemap.ConfigError{Field: "incremental.changes", Err: errors.New("change detection needs a State: the records of the last crawl it compares with")}
	case !validToken(c.State, true):
		return &sitemap.ConfigError{Field: "state", Err: fmt.Errorf("state name %q: letters, digits, - and _ only", c.State)}
	}
	return nil
}

// timeout is the time one request of the crawl may take.
func (c *Crawl) timeout() time.Duration {
	return time.Duration(max(c.Timeout, 1)) * time.Second
}

// validToken reports whether s is usable as one token of a subject or a
// key: letters, digits, - and _ (and empty when empty is allowed).
func validToken(s string, empty bool) bool {
	if s == "" {
		return empty
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return len(s) <= 64
}
