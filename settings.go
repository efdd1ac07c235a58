package sitemap

import (
	"fmt"
	"math"
	"time"

	"github.com/gositemap/sitemap/internal/polite"
)

// This file is the configuration beyond the spec, as data: one value per
// feature (Politeness, Incremental, Selection) with its setter and getter,
// and the store of conditional fetching. The zero value of each is the
// behaviour of the spec.

// Politeness is how a call treats the servers it reads: the limits it keeps
// to per host, and the retries of a request that failed. The zero value, the
// default, is the spec's: no limit per host beyond [S.SetMaxConcurrency]
// and no retry. Set it with [S.SetPoliteness].
type Politeness struct {
	Host  HostLimits
	Retry Retry
}

// HostLimits are the limits a call keeps to towards each host. A host is
// the host and port of the URL requested (not of a redirect's target). A
// request waiting for its host holds none of the call's slots of
// [S.SetMaxConcurrency], and the wait ends when the call's context does.
type HostLimits struct {
	// Rate is how many requests a second a call sends to one host at most,
	// a retry included, as a steady pace with no burst beyond one: 0.5 is
	// one request every two seconds. 0 is no limit. A negative, infinite or
	// NaN value is rejected with a *ConfigError for the field
	// "politeness.host.rate".
	Rate float64
	// MaxConcurrency is how many requests of a call may be in flight to one
	// host at the same time, each from its start to the end of its body.
	// 0 is no limit. A negative value is rejected with a *ConfigError for
	// the field "politeness.host.maxConcurrency".
	MaxConcurrency int
	// CrawlDelay, when true, spaces the requests of a call to the host of a
	// robots.txt it reads by that robots.txt's Crawl-delay: the one of the
	// group that names the product token of the user agent (its first
	// word, up to a /, in any letter case), or else of the group of *,
	// capped at 30 seconds. Where Rate sets a slower pace, that one
	// holds. Only a robots.txt passed to Parse or fetched by it counts: a
	// call that starts from a sitemap reads none.
	CrawlDelay bool
}

// Retry is how a request that failed in a way that may pass is tried
// again: a 429 Too Many Requests, 502 Bad Gateway, 503 Service Unavailable
// or 504 Gateway Timeout, a connection reset or closed before the response,
// or a timeout before the response began. Nothing else is retried: no other
// status, and no failure once the body has begun to be read, so that no URL
// is handed on twice.
//
// The wait before a retry is the one the response's Retry-After asks for
// (a number of seconds or an HTTP date), or else drawn at random between 0
// and an exponential bound (0.5 s, 1 s, 2 s, ...), capped at MaxWait. A
// Retry-After longer than MaxWait ends the tries: the request is not sent
// again before the server asked. A wait holds none of the call's slots,
// and ends at once when the call's context ends. When the last try fails,
// the *NetworkError is that of the last response, or of the last failure.
// Each try has the whole fetch timeout, in a call of [S.Stream] too.
type Retry struct {
	// Max is how many times a request is tried again, from 0 (the default:
	// no retry, as the spec has it) to 100. Other values are rejected with
	// a *ConfigError for the field "politeness.retry.max".
	Max int
	// MaxWait is the longest wait before a retry; 0 is the default, 60
	// seconds, which GetPoliteness gives back. A Retry-After asking for
	// longer ends the tries. A negative value is rejected with a
	// *ConfigError for the field "politeness.retry.maxWait".
	MaxWait time.Duration
}

// The names of the fields of Politeness, as a *ConfigError gives them.
const (
	fieldHostRate           = "politeness.host.rate"
	fieldHostMaxConcurrency = "politeness.host.maxConcurrency"
	fieldRetryMax           = "politeness.retry.max"
	fieldRetryMaxWait       = "politeness.retry.maxWait"
)

// SetPoliteness sets the limits per host and the retries of the calls of
// s; see [Politeness]. Each field is checked on its own: an invalid one is
// a *ConfigError naming it and keeps its value, while the valid ones are
// set (and clear the error a former value of theirs left).
func (s *S) SetPoliteness(p Politeness) *S {
	h, r := p.Host, p.Retry
	var rateErr, hostErr, maxErr, waitErr error
	if h.Rate < 0 || math.IsInf(h.Rate, 0) || math.IsNaN(h.Rate) {
		rateErr = fmt.Errorf("host rate must be a finite number of requests a second from 0 up, got %v", h.Rate)
	}
	hostErr = nonNegative("max host concurrency", h.MaxConcurrency)()
	if r.Max < 0 || r.Max > polite.MaxRetries {
		maxErr = fmt.Errorf("retries must be from 0 to %d, got %d", polite.MaxRetries, r.Max)
	}
	if r.MaxWait < 0 {
		waitErr = fmt.Errorf("retry max wait must not be negative, got %v", r.MaxWait)
	}
	return s.setFields(
		fieldSet{fieldHostRate, rateErr, func(c *config) { c.polite.hostRate = h.Rate }},
		fieldSet{fieldHostMaxConcurrency, hostErr, func(c *config) { c.polite.hostConcurrency = h.MaxConcurrency }},
		fieldSet{"politeness.host.crawlDelay", nil, func(c *config) { c.polite.crawlDelay = h.CrawlDelay }},
		fieldSet{fieldRetryMax, maxErr, func(c *config) { c.polite.retries = r.Max }},
		fieldSet{fieldRetryMaxWait, waitErr, func(c *config) { c.polite.retryMaxWait = r.MaxWait }},
	)
}

// GetPoliteness returns the limits per host and the retries set with
// [S.SetPoliteness], with MaxWait as it applies: the default of 60
// seconds when none is set.
func (s *S) GetPoliteness() Politeness {
	return get(s, func(c *config) Politeness {
		p := c.polite
		return Politeness{
			Host:  HostLimits{Rate: p.hostRate, MaxConcurrency: p.hostConcurrency, CrawlDelay: p.crawlDelay},
			Retry: Retry{Max: p.retries, MaxWait: p.maxWait()},
		}
	})
}

// fieldSet is one field of a setting made of several: its name, the error
// that rejects its value (nil for a valid one) and what sets it.
type fieldSet struct {
	name  string
	err   error
	apply func(*config)
}

// setFields applies the fields of a setting under the lock, each as
// [S.set] applies a setting of its own: a field with an error keeps its
// value and records a *ConfigError under its name, one without sets its
// value and clears that error.
func (s *S) setFields(fields ...fieldSet) *S {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initialise()
	for _, f := range fields {
		if f.err != nil {
			s.setConfigError(f.name, &ConfigError{Field: f.name, Err: f.err})
			continue
		}
		f.apply(&s.cfg)
		s.setConfigError(f.name, nil)
	}
	return s
}

// Incremental is how a call reads only what changed since an earlier one.
// The zero value, the default, reads everything. Set it with
// [S.SetIncremental]; the records of earlier runs are kept by the store of
// [S.SetStore].
type Incremental struct {
	// Since, when not zero, leaves out what is older: a URL whose lastmod
	// is before Since is left out, and does not count towards
	// [S.SetMaxURLs], as with [S.SetRules]; a sitemap whose index gives it
	// a <lastmod> before Since is listed by [S.GetSitemaps] but not
	// fetched, with the status [StatusNotModifiedSince]. A URL or sitemap
	// with no date, or a date that cannot be read, is kept. A date without
	// a time is compared at its own precision: 2024-01-15 is kept for a
	// Since of 2024-01-15T12:00, as 2024-01 is for any time in January 2024.
	Since time.Time
	// TrustIndexLastMod, when true, trusts the <lastmod> an index gives a
	// sitemap; it needs a store. A sitemap whose index gives it the same
	// <lastmod> as the record of its last reading holds is not fetched at
	// all: its status is [StatusUnchanged], and, for an index, what it
	// listed is followed from the record. It saves the request of every
	// unchanged sitemap, and trusts the index to move a <lastmod> when the
	// sitemap changes.
	TrustIndexLastMod bool

	// Changes, when true, compares what a call reads with the last run
	// that read the same tree into the store of [S.SetStore] (it needs
	// one): each URL handed on says, through [Source.Change], whether it
	// is new, its lastmod moved, or it is unchanged, and once the call has
	// read everything, the URLs gone are handed on too (in [S.GetURLs]
	// and through [S.Stream]), after every other, each with [ChangeGone],
	// no lastmod, and the Source of the sitemap that last listed it. The
	// comparison is over the whole tree: a URL that moves from one sitemap
	// to another is neither new nor gone. On the first run, and for a
	// sitemap whose record was put with changes off (fetched once without
	// validators, to learn its URLs), every URL is new.
	//
	// Only a document read whole can make a URL gone: the URLs of a
	// sitemap that failed, was cut short, left out by a rule or a limit,
	// or not reached are unknown, kept for the next run. A sitemap the
	// server answers 304 Not Modified carries its URLs over as unchanged;
	// one that an index read whole no longer lists takes its URLs with it.
	// A call cut short (its context ended, its loop left) hands on no URL
	// gone. The counts of the call are [Document.Changes] of the document
	// given.
	Changes bool
	// OnlyChanges, when true, is Changes handing on only what changed:
	// the URLs new, with their lastmod moved, and gone; the unchanged are
	// counted and left out, uncounted by [S.SetMaxURLs].
	OnlyChanges bool
	// MaxGoneShare is the largest share of the last run's URLs that may
	// be gone at once, from 0 to 1; 0 is the default, 0.30. Beyond it
	// the call records one *ParseError about the document given ("N of M
	// URLs (P%) gone at once, over the 30% set"), hands on none of them
	// gone, and keeps them as unknown for the next run: a broken deploy is
	// not a site emptied. A value outside 0 to 1 is rejected with a
	// *ConfigError for the field "incremental.maxGoneShare".
	MaxGoneShare float64
	// NoResume, when true, starts a streaming call afresh after a run cut
	// short. By default a call of [S.Stream] with a store resumes the run
	// the last call from the same document cut short: a sitemap whose
	// URLs were all handed on then is not read again, whatever its server
	// answers (its status is [StatusUnchanged]); one partly handed on is
	// read again. Across the two runs every URL is handed on at least
	// once, and twice only when its sitemap was being handed on when the
	// first ended. A call that does not stream neither resumes nor leaves
	// a run to resume.
	NoResume bool
}

// defaultMaxGoneShare is the share of the last run's URLs that may be
// gone at once when Incremental.MaxGoneShare is 0.
const defaultMaxGoneShare = 0.30

// SetIncremental sets what a call asks for changes since; see
// [Incremental]. MaxGoneShare outside 0 to 1 is a *ConfigError for its
// field; the other fields are set all the same.
func (s *S) SetIncremental(in Incremental) *S {
	var shareErr error
	if !(in.MaxGoneShare >= 0 && in.MaxGoneShare <= 1) {
		shareErr = fmt.Errorf("max gone share must be from 0 to 1, got %v", in.MaxGoneShare)
	}
	return s.setFields(
		fieldSet{"incremental", nil, func(c *config) {
			c.cond.since, c.cond.trustLastmod = in.Since, in.TrustIndexLastMod
			c.cond.changes, c.cond.onlyChanges = in.Changes, in.OnlyChanges
			c.cond.noResume = in.NoResume
		}},
		fieldSet{"incremental.maxGoneShare", shareErr, func(c *config) { c.cond.goneShare = in.MaxGoneShare }},
	)
}

// GetIncremental returns what [S.SetIncremental] set.
func (s *S) GetIncremental() Incremental {
	return get(s, func(c *config) Incremental {
		k := c.cond
		return Incremental{Since: k.since, TrustIndexLastMod: k.trustLastmod, Changes: k.changes, OnlyChanges: k.onlyChanges,
			MaxGoneShare: k.goneShare, NoResume: k.noResume}
	})
}

// Selection is which of the documents a call comes to it reads. The zero
// value, the default, reads every sitemap the follow rules of
// [S.SetFollow] and the limits let through. Set it with [S.SetSelection].
type Selection struct {
	// RootOnly, when true, reads the document given and fetches none of
	// the sitemaps it lists: a robots.txt's Sitemap: lines and an index's
	// entries are listed by [S.GetSitemaps] (and in [S.GetDocuments], with
	// the status [StatusNotFollowed]) and not fetched. The document given
	// is read all the same: fetched when it is a URL, as always, or read
	// from the content or reader given, which fetches nothing at all. It is
	// the setting of a crawler frontier that fetches every document itself.
	RootOnly bool
	// FollowSitemap, when not nil, decides whether a sitemap a document
	// lists is read, given what is known of it before its request: its
	// URL, how it was found, its parent and depth, and the <lastmod> its
	// index gives it ([Document.LastMod]). It is asked once the follow
	// rules of [S.SetFollow] let the sitemap through (both must); false
	// leaves it out, with the status [StatusNotFollowed]. The document
	// given is always read.
	FollowSitemap func(Document) bool
	// KeepURL, when not nil, decides whether a URL is kept (or handed
	// on), given the URL with every field, once the rules of [S.SetRules]
	// let it through (both must); false leaves it out, uncounted.
	//
	// Both functions are called on the goroutines of the call, several at
	// once when it reads in parallel: they must be safe for that. A panic
	// in them ends the call, and is raised as a *PanicError as any panic
	// of the caller's code is (see [S.ParseContext]).
	KeepURL func(URL) bool
}

// SetSelection sets which documents a call reads; see [Selection]. No value
// of it is invalid.
func (s *S) SetSelection(sel Selection) *S {
	return s.set("selection", func() error { return nil }, func(c *config) {
		c.noFollow, c.selection = sel.RootOnly, sel
	})
}

// GetSelection returns what [S.SetSelection] set.
func (s *S) GetSelection() Selection {
	return get(s, func(c *config) Selection { sel := c.selection; sel.RootOnly = c.noFollow; return sel })
}

// SetStore sets the store of conditional fetching; nil, the default, turns
// it off. The package store holds two: store.NewMemory for the calls of
// one process, store.OpenFile for a file that keeps the records between
// runs. With a store set, a call looks up the [Record] of each sitemap it
// is to fetch (by its request key, a password redacted), sends its ETag in
// If-None-Match and its Last-Modified in If-Modified-Since, and takes a 304
// Not Modified for an answer: the sitemap's status in [S.GetDocuments] is
// [StatusUnchanged], its URLs are not read again, and the sitemaps an
// unchanged index listed are followed from the record, each checked in
// turn. A 304 to a request sent without validators is the *NetworkError of
// any status other than 200.
//
// A document updates its record only when it was read to its end with no
// error and every URL of it was delivered: one cut short by
// [S.SetMaxURLs], the listing limit, the context, a break out of the loop of
// [S.Stream], or a truncation keeps its old record, so that the next run
// reads it again rather than receiving a 304 for URLs nobody got. A store
// that fails to get or put a record is reported as a *ParseError naming
// the sitemap, wrapping its error; the sitemap is read as with no store. A
// store that is a [Syncer] is synced when the call ends. The document
// given as content or a reader is never looked up.
//
// A validator is kept in a record, and sent, only when it can serve: an
// ETag of at most 1 KiB that is a valid header value, a Last-Modified that
// is an HTTP-date of at most 1 KiB. A record that holds another loses it
// when it is looked up. A server that answers the validators of a record
// with a client error other than 404, 410 and 429 (431 for a header too
// long, 400, 412) is asked once more without them, and the record loses
// them, so that one bad record never costs the sitemap.
func (s *S) SetStore(st Store) *S {
	return s.set("store", func() error { return nil }, func(c *config) { c.cond.store = st })
}

// GetStore returns the store of conditional fetching, nil when none is set.
func (s *S) GetStore() Store { return get(s, func(c *config) Store { return c.cond.store }) }
