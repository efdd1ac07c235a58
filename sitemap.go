package sitemap

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
)

// S reads sitemaps. Create one with [New], configure it with its Set*
// methods, then call [S.Parse] or [S.ParseContext] and read the results with
// [S.GetURLs], [S.URLs], [S.GetSitemaps] and [S.GetErrors].
//
// All methods are safe for concurrent use. Calls of Parse on one instance
// are serialised; the getters never wait for a running call and return what
// it has collected so far.
//
// As in go-sitemap-parser v1.0.1, a zero S is ready to use with the defaults
// of New, and the getters of a nil *S return zero values and empty results.
type S struct {
	parsing sync.Mutex // serialises the calls of Parse

	mu    sync.Mutex // guards everything below
	ready bool       // cfg holds the defaults or what was set since, see initialise
	cfg   config

	// configErrs are the outstanding *ConfigError values, by setting, in
	// the order they were first recorded.
	configErrs []*ConfigError

	// The results of the latest call. urls and errs grow by append only, so
	// that a slice handed out earlier, cut to its length, never changes.
	urls       []URL
	urlDocs    int // the documents that added URLs to urls
	callErrs   []error
	errs       []error // configErrs then callErrs, as GetErrors returns them
	sitemaps   []Sitemap
	sitemapPos map[string]int // sitemap key → index in sitemaps
	docs       docTree        // the tree of the call, see tree.go
	docPos     map[string]int // request key → index in docs
}

// errConfigOutstanding is returned by Parse while a *ConfigError is
// outstanding.
var errConfigOutstanding = errors.New("errors occurred before parsing, see GetErrors() for details")

// New returns an instance with the default configuration: see the Default*
// constants.
func New() *S {
	s := &S{}
	s.initialise()
	return s
}

// initialise gives a zero S, one that New did not make, the defaults and the
// empty results of New when it is first used. s.mu is held, or s is not yet
// shared.
func (s *S) initialise() {
	if s.ready {
		return
	}
	s.ready = true
	s.cfg = defaultConfig()
	s.reset()
}

// Parse reads the document at url and the sitemaps it leads to. It is
// ParseContext with [context.Background].
func (s *S) Parse(url string, urlContent *string) (*S, error) {
	return s.ParseContext(context.Background(), url, urlContent)
}

// ParseContext reads the document at url, and the sitemaps it lists, to the
// depth and within the limits configured. The document is fetched, unless
// urlContent is not nil: then it is the document, located at url, and
// nothing is fetched for it. A url whose last path segment is robots.txt (in
// any letter case) is read as a robots.txt.
//
// The results of the previous call are discarded first. The error returned
// is about the document at url only: nil when it was fetched and parsed,
// otherwise the *ValidationError, *NetworkError or *ParseError that
// [S.GetErrors] holds about it; what goes wrong further on is only recorded
// in GetErrors. While a *ConfigError is outstanding, nothing is parsed and an
// untyped error is returned. A call that ctx cuts short returns a
// *ParseError that wraps the context's error; the context is looked at
// while a document is parsed too, once a buffer of input, and the complete
// entries read before it ended are kept. In tolerant mode, a document that
// ends before its root's end tag, inside an entry or between two, keeps
// the complete entries before the cut, and its *ParseError wraps
// [io.ErrUnexpectedEOF].
//
// ParseContext returns s, so that its results can be read in a chain. A nil
// ctx is taken as [context.Background], as go-sitemap-parser v1.0.1 did.
//
// The code of the caller's that a call runs (the Transport, CheckRedirect
// and response bodies of the client set with [S.SetHTTPClient]) may panic.
// On the caller's goroutine, the panic goes up through ParseContext as it
// is; on a goroutine of the call (the requests of sitemaps read with
// multi-threading on, the reading ahead of a gzipped body), the call is
// ended and ParseContext panics with a *PanicError once the call's other
// goroutines have ended. Either way no goroutine of the call is left.
func (s *S) ParseContext(ctx context.Context, url string, urlContent *string) (*S, error) {
	return s.parse(ctx, url, contentReader(urlContent))
}

// ParseReader is [S.ParseContext] for a document the caller has at hand:
// r is the document located at url, read to its end or to the size limit
// ([S.SetMaxResponseSize], which caps what r yields, compressed or not, so
// an endless reader ends), and never fetched. Whether the sitemaps it lists
// are fetched is the configuration's: [Selection.RootOnly] lists them in
// [S.GetSitemaps] and fetches none. r may be gzipped; bytes go in without a
// copy with [bytes.NewReader].
//
// The caller owns r: it is not closed, and the context cannot interrupt a
// Read that blocks; give r a deadline of its own (as a network connection
// has) to bound it. A Read that fails makes the *ParseError of the
// document, wrapping the error; in tolerant mode the complete entries read
// before it are kept, as for a document cut off, and in strict mode the
// document yields nothing. A nil r is a *ValidationError.
func (s *S) ParseReader(ctx context.Context, url string, r io.Reader) (*S, error) {
	if r == nil {
		r = nilBody
	}
	return s.parse(ctx, url, r)
}

// parse is the call of ParseContext and ParseReader: body is the document
// given, nil when it is to be fetched.
func (s *S) parse(ctx context.Context, url string, body io.Reader) (*S, error) {
	c, err := s.begin(ctx, url)
	defer s.parsing.Unlock()
	if err != nil {
		return s, err
	}
	err = c.run(body)
	c.endStore()
	c.raise()
	return s, err
}

// contentReader returns a reader of the content passed to ParseContext or
// Stream, nil when there is none: the document is to be fetched.
func contentReader(content *string) io.Reader {
	if content == nil {
		return nil
	}
	return strings.NewReader(*content)
}

// nilBody stands for a nil reader given to ParseReader or StreamReader:
// checkRoot knows it by its address, and the call fails with a
// *ValidationError about the document, as it does for a URL that cannot
// be fetched. It is never read.
var nilBody io.Reader = new(strings.Reader)

// errNilReader is the cause of the *ValidationError of a nil reader.
var errNilReader = errors.New("the reader of the document is nil")

// begin is the start of every call, of ParseContext and of Stream alike: it
// waits for any other call on s to end and holds s, which the caller lets
// go of with s.parsing.Unlock once its call has ended, whatever begin
// returns. It discards the results of the previous call and returns a call
// for url with a snapshot of the configuration, or errConfigOutstanding and
// no call while a *ConfigError is outstanding.
func (s *S) begin(ctx context.Context, url string) (*call, error) {
	s.parsing.Lock()
	s.mu.Lock()
	s.initialise()
	s.reset()
	cfg := s.cfg
	outstanding := len(s.configErrs) > 0
	s.mu.Unlock()
	if outstanding {
		return nil, errConfigOutstanding
	}
	return newCall(ctx, s, cfg, url), nil
}
