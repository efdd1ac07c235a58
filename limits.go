package sitemap

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// The sentinels that the error of a limit wraps, so that errors.Is tells
// which limit was reached.
var (
	// ErrMaxResponseSize is wrapped by the *NetworkError of a response
	// larger than the size limit, and by the *ParseError of content that
	// decompresses beyond it. See [S.SetMaxResponseSize].
	ErrMaxResponseSize = errors.New("sitemap: response size limit exceeded")
	// ErrMaxDepth is wrapped by the *ParseError of a sitemap index whose
	// sitemaps were not followed. See [S.SetMaxDepth].
	ErrMaxDepth = errors.New("sitemap: depth limit reached")
	// ErrMaxSitemaps is wrapped by the *ParseError recorded when a call
	// reaches its sitemap limit. See [S.SetMaxSitemaps].
	ErrMaxSitemaps = errors.New("sitemap: sitemap limit reached")
	// ErrMaxURLs is wrapped by the *ParseError recorded when a call reaches
	// its URL limit. See [S.SetMaxURLs].
	ErrMaxURLs = errors.New("sitemap: URL limit reached")
	// ErrMaxValidationErrors is wrapped by the *ParseError recorded when a
	// call reaches its limit on validation errors. See
	// [S.SetMaxValidationErrors].
	ErrMaxValidationErrors = errors.New("sitemap: validation error limit reached")
)

// maxURLLength is the sitemaps.org bound on a location: 2,048 characters.
// The URL engine applies it, and the texts of its causes quote it.
const maxURLLength = urlnorm.MaxLength

// The sitemaps.org bounds on one document, which lint checks: the entries
// of a sitemap or an index, and its bytes decompressed (the default of the
// response size limit, DefaultMaxResponseSize, is that many).
const (
	maxEntries  = 50000
	maxDocBytes = 52428800
)

func errSizeLimit(limit int64) error {
	return &causedError{fmt.Sprintf("response is larger than the limit of %d bytes", limit), ErrMaxResponseSize}
}

func errDecompressedLimit(limit int64) error {
	return &causedError{fmt.Sprintf("decompressed content is larger than the limit of %d bytes", limit), ErrMaxResponseSize}
}

func errSitemapsLimit(n int) error {
	return &causedError{fmt.Sprintf("limit of %d sitemaps reached", n), ErrMaxSitemaps}
}

func errURLsLimit(n int) error {
	return &causedError{fmt.Sprintf("limit of %d URLs reached", n), ErrMaxURLs}
}

func errDepthLimit(depth int) error {
	return &causedError{fmt.Sprintf("max recursion depth of %d reached", depth), ErrMaxDepth}
}

// counter is a limit of a call counted across its goroutines: sitemaps
// requested, sitemaps listed, URLs collected or validation errors recorded.
// A limit of 0 is no limit.
type counter struct {
	limit int64
	n     atomic.Int64
}

// take reserves one unit; it reports false when none is left.
func (c *counter) take() bool {
	if c.limit <= 0 {
		c.n.Add(1)
		return true
	}
	for {
		n := c.n.Load()
		if n >= c.limit {
			return false
		}
		if c.n.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// full reports whether no unit is left.
func (c *counter) full() bool { return c.limit > 0 && c.n.Load() >= c.limit }

// room reports whether a unit is left once pending more are taken.
func (c *counter) room(pending int64) bool { return c.limit <= 0 || c.n.Load()+pending < c.limit }

// takeUpTo takes k units, or as many as are left, and returns how many.
func (c *counter) takeUpTo(k int64) int64 {
	if c.limit <= 0 {
		c.n.Add(k)
		return k
	}
	for {
		n := c.n.Load()
		got := min(k, max(c.limit-n, 0))
		if got == 0 || c.n.CompareAndSwap(n, n+got) {
			return got
		}
	}
}

// giveBack returns k units taken by a document that turned out to be
// broken, whose entries are discarded.
func (c *counter) giveBack(k int64) { c.n.Add(-k) }
