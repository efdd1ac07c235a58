package sitemap

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The defaults of a new instance.
const (
	// DefaultUserAgent is the User-Agent header sent unless
	// [S.SetUserAgent] sets another.
	DefaultUserAgent = "gositemap (+https://github.com/gositemap/sitemap/blob/main/README.md)"
	// DefaultFetchTimeout is the time in seconds a request may take with the
	// default HTTP client.
	DefaultFetchTimeout = 3
	// DefaultMaxResponseSize is the largest document, in bytes, that is
	// read, compressed or not: 50 MB, the bound of the sitemaps.org
	// protocol.
	DefaultMaxResponseSize = 50 * 1024 * 1024
	// DefaultMaxDepth is how many levels of sitemap indexes are followed.
	DefaultMaxDepth = 10
	// DefaultMaxConcurrency is how many sitemaps are worked on at the same
	// time.
	DefaultMaxConcurrency = 16
	// DefaultMaxSitemaps is how many sitemaps a call fetches, and lists, at
	// most: 50,000, as many as a sitemap index may list under the
	// sitemaps.org protocol.
	DefaultMaxSitemaps = 50000
	// DefaultMaxURLs is how many URLs a call collects at most. It is a last
	// resort: ten million URLs take gigabytes of memory.
	DefaultMaxURLs = 10000000
	// DefaultMaxValidationErrors is how many validation errors a call
	// records at most.
	DefaultMaxValidationErrors = 100000
	// defaultMaxDiscoveryRequests is how many requests a discovery makes of
	// its own (the home page, robots.txt and the well-known paths) at
	// most when DiscoverOptions.MaxRequests is 0: room for all of them,
	// which are 20.
	defaultMaxDiscoveryRequests = 32
)

// maxPatternLength is the longest regular expression, in characters, that
// SetFollow and SetRules accept.
const maxPatternLength = 1000

// config is the configuration of an instance. A call works on a copy taken
// when it starts.
type config struct {
	userAgent           string
	fetchTimeout        uint16        // in seconds, as set and got
	fetchWait           time.Duration // the client's Timeout: fetchTimeout seconds, or a test's duration
	maxResponseSize     int64
	maxDepth            int
	maxConcurrency      int
	maxSitemaps         int
	maxURLs             int
	maxValidationErrors int
	multiThread         bool
	strict              bool
	noFollow            bool
	selection           Selection // its functions, with RootOnly in noFollow: selection.go
	follow, rules       []string
	followRE, rulesRE   []*regexp.Regexp
	httpClient          *http.Client
	polite              politeConfig // retries, host limits and the guard: politeness.go
	cond                condConfig   // conditional fetching and Since: conditional.go
}

func defaultConfig() config {
	return config{
		userAgent:           DefaultUserAgent,
		fetchTimeout:        DefaultFetchTimeout,
		fetchWait:           DefaultFetchTimeout * time.Second,
		maxResponseSize:     DefaultMaxResponseSize,
		maxDepth:            DefaultMaxDepth,
		maxConcurrency:      DefaultMaxConcurrency,
		maxSitemaps:         DefaultMaxSitemaps,
		maxURLs:             DefaultMaxURLs,
		maxValidationErrors: DefaultMaxValidationErrors,
		multiThread:         true,
	}
}

// The names of the settings, as a *ConfigError gives them in Field.
const (
	fieldUserAgent           = "userAgent"
	fieldFetchTimeout        = "fetchTimeout"
	fieldMaxResponseSize     = "maxResponseSize"
	fieldMaxDepth            = "maxDepth"
	fieldMaxConcurrency      = "maxConcurrency"
	fieldMaxSitemaps         = "maxSitemaps"
	fieldMaxURLs             = "maxURLs"
	fieldMaxValidationErrors = "maxValidationErrors"
	fieldFollow              = "follow"
	fieldRules               = "rules"
)

// set applies a setter under the lock: when check returns an error, the
// setting keeps its value and a *ConfigError for field replaces the one the
// setter recorded before; otherwise apply runs and that error is cleared.
func (s *S) set(field string, check func() error, apply func(*config)) *S {
	err := check()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initialise()
	if err != nil {
		s.setConfigError(field, &ConfigError{Field: field, Err: err})
		return s
	}
	apply(&s.cfg)
	s.setConfigError(field, nil)
	return s
}

// SetUserAgent sets the User-Agent header of every request. The default is
// [DefaultUserAgent]. An empty value is accepted, as go-sitemap-parser
// v1.0.1 accepted it: the requests then carry no User-Agent header at all,
// as net/http sends none for a header set to "" (not even its own default).
// A value with a control character in it is rejected with a *ConfigError.
func (s *S) SetUserAgent(userAgent string) *S {
	return s.set(fieldUserAgent, func() error {
		if strings.ContainsFunc(userAgent, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			return errors.New("user agent holds a control character")
		}
		return nil
	}, func(c *config) { c.userAgent = userAgent })
}

// SetFetchTimeout sets how many seconds a request may take, from 1 to
// 65535; the default is 3. 0 is rejected with a *ConfigError. The timeout is
// that of the HTTP client the instance creates; with a client set by
// [S.SetHTTPClient], that client's own Timeout applies instead. In a call of
// [S.Stream] it counts only the time a request waits for the server, not
// the time the loop takes (see Stream).
func (s *S) SetFetchTimeout(seconds uint16) *S {
	return s.set(fieldFetchTimeout, func() error {
		if seconds == 0 {
			return errors.New("fetch timeout must be at least 1 second")
		}
		return nil
	}, func(c *config) { c.fetchTimeout, c.fetchWait = seconds, time.Duration(seconds)*time.Second })
}

// SetMaxResponseSize sets the largest document, in bytes, that is read: a
// response body over it is a *NetworkError, and content that decompresses
// beyond it a *ParseError, both wrapping [ErrMaxResponseSize]. It applies to
// content passed to Parse as well. The default is 50 MB. The value must be
// above 0: 0 and negative values are rejected with a *ConfigError.
func (s *S) SetMaxResponseSize(bytes int64) *S {
	return s.set(fieldMaxResponseSize, func() error {
		if bytes <= 0 {
			return fmt.Errorf("max response size must be greater than 0, got %d", bytes)
		}
		return nil
	}, func(c *config) { c.maxResponseSize = bytes })
}

// SetMaxDepth sets how many levels of sitemap indexes are followed; the
// default is 10. With 1, the sitemaps the document passed to Parse lists are
// fetched, but not those that one of them lists in turn. A robots.txt is no
// level. An index whose sitemaps are not followed is reported as a
// *ParseError wrapping [ErrMaxDepth], naming the index; its sitemaps are still
// listed by [S.GetSitemaps]. Values below 1 are rejected with a *ConfigError.
func (s *S) SetMaxDepth(depth int) *S {
	return s.set(fieldMaxDepth, func() error {
		if depth < 1 {
			return fmt.Errorf("max depth must be at least 1, got %d", depth)
		}
		return nil
	}, func(c *config) { c.maxDepth = depth })
}

// SetMaxConcurrency sets how many sitemaps are fetched or parsed at the same
// time across a call, with multi-threading on; the default is 16 and 0 is no
// limit. Negative values are rejected with a *ConfigError.
func (s *S) SetMaxConcurrency(n int) *S {
	return s.set(fieldMaxConcurrency, nonNegative("max concurrency", n), func(c *config) { c.maxConcurrency = n })
}

// SetMaxSitemaps sets how many sitemaps a call fetches at most, and how many
// [S.GetSitemaps] lists; the default is 50,000 and 0 is no limit. Every
// request counts, whether it succeeds or not, on all levels together; a
// sitemap listed twice is requested once; the document passed to Parse does
// not count. The two are counted apart. Once one of them had to leave a
// sitemap out, a *ParseError wrapping [ErrMaxSitemaps] is recorded, once for
// the call. Negative values are rejected with a *ConfigError. A call keeps
// the limit set when it starts.
func (s *S) SetMaxSitemaps(n int) *S {
	return s.set(fieldMaxSitemaps, nonNegative("max sitemaps", n), func(c *config) { c.maxSitemaps = n })
}

// SetMaxURLs sets how many URLs a call collects at most; the default is ten
// million and 0 is no limit. Only the URLs kept count: not an entry that is
// not valid, nor a URL the rules of [S.SetRules] leave out. Once the limit is
// reached, the rest of the document that reached it is left unread, the
// sitemaps left are not fetched, and a *ParseError wrapping [ErrMaxURLs] is
// recorded, once for the call. Negative values are rejected with a
// *ConfigError. A call keeps the limit set when it starts.
func (s *S) SetMaxURLs(n int) *S {
	return s.set(fieldMaxURLs, nonNegative("max URLs", n), func(c *config) { c.maxURLs = n })
}

// SetMaxValidationErrors sets how many *ValidationError values a call
// records at most; the default is 100,000 and 0 is no limit. The validation
// errors that follow are dropped, and a *ParseError wrapping
// [ErrMaxValidationErrors] is recorded, once for the call; nothing else is
// taken off the call, and errors of the other types are always recorded.
// Negative values are rejected with a *ConfigError. A call keeps the limit
// set when it starts.
func (s *S) SetMaxValidationErrors(n int) *S {
	return s.set(fieldMaxValidationErrors, nonNegative("max validation errors", n), func(c *config) { c.maxValidationErrors = n })
}

func nonNegative(what string, n int) func() error {
	return func() error {
		if n < 0 {
			return fmt.Errorf("%s must not be negative, got %d", what, n)
		}
		return nil
	}
}

// SetMultiThread turns concurrent fetching and parsing on or off; it is on
// by default. With it off, sitemaps are fetched one at a time in the order
// they are listed.
func (s *S) SetMultiThread(on bool) *S {
	return s.set("multiThread", func() error { return nil }, func(c *config) { c.multiThread = on })
}

// SetStrict turns strict mode on or off; it is off (tolerant) by default.
// See the package documentation for what each mode accepts.
func (s *S) SetStrict(on bool) *S {
	return s.set("strict", func() error { return nil }, func(c *config) { c.strict = on })
}

// SetFollow sets the regular expressions that decide which sitemaps listed
// by a robots.txt or a sitemap index are fetched: one that matches none of
// them is listed by [S.GetSitemaps] but not fetched. The URL passed to Parse
// is always fetched. An expression matches anywhere in the URL unless it is
// anchored. An empty or nil list follows every sitemap. A pattern longer than
// 1,000 characters, or one that does not compile, is rejected with a
// *ConfigError, and the rules stay as they were.
func (s *S) SetFollow(patterns []string) *S {
	var res []*regexp.Regexp
	return s.set(fieldFollow, func() (err error) { res, err = compilePatterns(patterns); return err },
		func(c *config) { c.follow, c.followRE = slices.Clone(patterns), res })
}

// SetRules sets the regular expressions that decide which URLs are kept: one
// that matches none of them is left out, and does not count towards the URL
// limit. They are matched against the URL as [S.GetURLs] returns it. An empty
// or nil list keeps every URL. A pattern longer than 1,000 characters, or one
// that does not compile, is rejected with a *ConfigError, and the rules stay
// as they were.
func (s *S) SetRules(patterns []string) *S {
	var res []*regexp.Regexp
	return s.set(fieldRules, func() (err error) { res, err = compilePatterns(patterns); return err },
		func(c *config) { c.rules, c.rulesRE = slices.Clone(patterns), res })
}

func compilePatterns(patterns []string) ([]*regexp.Regexp, error) {
	var res []*regexp.Regexp
	var errs []error
	for _, p := range patterns {
		if n := utf8.RuneCountInString(p); n > maxPatternLength {
			errs = append(errs, fmt.Errorf("pattern of %d characters is longer than the limit of %d", n, maxPatternLength))
			continue
		}
		re, err := regexp.Compile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		res = append(res, re)
	}
	return res, errors.Join(errs...)
}

// SetHTTPClient sets the HTTP client of every request, used as it is: its
// Transport, Timeout and CheckRedirect apply, and the fetch timeout does not.
// nil returns to the default, a client the instance creates for each call
// with the fetch timeout. The client's Timeout covers the reading of the
// body, as net/http defines it: in a call of [S.Stream], that includes the
// time the loop takes over the URLs of the document. A panic of the client's
// code (its Transport, its CheckRedirect) on a goroutine of the call is
// raised again on the caller's as a *PanicError (see [S.ParseContext]).
func (s *S) SetHTTPClient(client *http.Client) *S {
	return s.set("httpClient", func() error { return nil }, func(c *config) { c.httpClient = client })
}

// GetUserAgent returns the User-Agent header that is sent.
func (s *S) GetUserAgent() string { return get(s, func(c *config) string { return c.userAgent }) }

// GetFetchTimeout returns the fetch timeout in seconds.
func (s *S) GetFetchTimeout() uint16 { return get(s, func(c *config) uint16 { return c.fetchTimeout }) }

// GetMultiThread reports whether multi-threading is on.
func (s *S) GetMultiThread() bool { return get(s, func(c *config) bool { return c.multiThread }) }

// GetMaxResponseSize returns the response size limit in bytes.
func (s *S) GetMaxResponseSize() int64 {
	return get(s, func(c *config) int64 { return c.maxResponseSize })
}

// GetMaxDepth returns how many levels of sitemap indexes are followed.
func (s *S) GetMaxDepth() int { return get(s, func(c *config) int { return c.maxDepth }) }

// GetMaxConcurrency returns how many sitemaps are worked on at the same
// time; 0 is no limit.
func (s *S) GetMaxConcurrency() int { return get(s, func(c *config) int { return c.maxConcurrency }) }

// GetMaxSitemaps returns how many sitemaps a call fetches and lists at most;
// 0 is no limit.
func (s *S) GetMaxSitemaps() int { return get(s, func(c *config) int { return c.maxSitemaps }) }

// GetMaxURLs returns how many URLs a call collects at most; 0 is no limit.
func (s *S) GetMaxURLs() int { return get(s, func(c *config) int { return c.maxURLs }) }

// GetMaxValidationErrors returns how many validation errors a call records
// at most; 0 is no limit.
func (s *S) GetMaxValidationErrors() int {
	return get(s, func(c *config) int { return c.maxValidationErrors })
}

// GetFollow returns a copy of the follow rules, never nil: empty when none
// are set, as in go-sitemap-parser v1.0.1.
func (s *S) GetFollow() []string {
	return append([]string{}, get(s, func(c *config) []string { return c.follow })...)
}

// GetRules returns a copy of the URL rules, never nil: empty when none are
// set, as in go-sitemap-parser v1.0.1.
func (s *S) GetRules() []string {
	return append([]string{}, get(s, func(c *config) []string { return c.rules })...)
}

// GetHTTPClient returns the client set with [S.SetHTTPClient], or nil when
// the default is in use.
func (s *S) GetHTTPClient() *http.Client {
	return get(s, func(c *config) *http.Client { return c.httpClient })
}

// GetStrict reports whether strict mode is on.
func (s *S) GetStrict() bool { return get(s, func(c *config) bool { return c.strict }) }

// get reads a setting under the lock: the zero value of T for a nil *S,
// the default for a zero S.
func get[T any](s *S, f func(*config) T) T {
	if s == nil {
		var zero T
		return zero
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initialise()
	return f(&s.cfg)
}
