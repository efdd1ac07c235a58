package sitemap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gositemap/sitemap/internal/guard"
	"github.com/gositemap/sitemap/internal/polite"
	"github.com/gositemap/sitemap/internal/printable"
	"github.com/gositemap/sitemap/internal/serverclock"
	"golang.org/x/net/http/httpguts"
)

// fetcher sends the requests of one call.
type fetcher struct {
	client    *http.Client
	userAgent string
	maxSize   int64

	own bool // the client is the fetcher's own, not one set with SetHTTPClient

	// polite is the retry policy and the limits per host of the call, nil
	// when none is set (politeness.go, retry.go); outside runs the waits
	// they make outside the call's slot (call.outsideSlot).
	polite  *politeState
	outside func(loc string, wait func() error) error
	// validators returns the record of the store for a URL, whose ETag
	// and Last-Modified a request sends back (conditional.go).
	validators func(rawURL string) Record
	// refused is told that the server answered the validators of the
	// record of a URL with a client error: it drops them, and reports
	// whether there were any, so that the request is sent again without
	// (conditional.go).
	refused func(rawURL string) bool

	// serverTime, when set, is the fetch timeout of a client of the
	// fetcher's own that counts only the time spent waiting for the server:
	// see chargeServerOnly.
	serverTime time.Duration
}

// chargeServerOnly makes the fetch timeout of the default client count the
// time a request spends waiting for the server (for the response, then in
// each read of the body) rather than the time from the request to the end
// of the body. A streaming call reads a body as fast as its loop takes the
// URLs, and the time the loop takes is not the server's. A client set with
// SetHTTPClient is left as it is: its Timeout covers the body, as net/http
// defines it.
func (f *fetcher) chargeServerOnly() {
	if f.own {
		own := *f.client
		own.Timeout = 0
		f.serverTime, f.client = f.client.Timeout, &own
	}
}

// newFetcher returns the fetcher of a call: the client set with
// SetHTTPClient, used as it is, or one of its own with the fetch timeout.
func newFetcher(cfg *config) *fetcher {
	client := cfg.httpClient
	if client == nil {
		client = &http.Client{Timeout: cfg.fetchWait}
		if cfg.polite.blockPrivate {
			client.Transport = guardTransport(cfg.polite.allow)
		}
	}
	return &fetcher{client: client, userAgent: cfg.userAgent, maxSize: cfg.maxResponseSize, own: cfg.httpClient == nil,
		polite: newPoliteState(cfg.polite), outside: func(_ string, wait func() error) error { return wait() }}
}

// guardTransport returns the transport of the default client with the
// guard of SetBlockPrivate on: net/http's default transport, with a dialer
// that checks every address it connects to. With no test hook (allow), one
// transport serves every call, as the default transport does, and keeps its
// connections for the next.
func guardTransport(allow func(netip.AddrPort) bool) http.RoundTripper {
	if allow == nil {
		return sharedGuardTransport()
	}
	t := newGuardTransport(allow)
	t.DisableKeepAlives = true // a transport of one call's: no idle connection outlives it
	return t
}

var sharedGuardTransport = sync.OnceValue(func() *http.Transport { return newGuardTransport(nil) })

func newGuardTransport(allow func(netip.AddrPort) bool) *http.Transport {
	t, ok := http.DefaultTransport.(*http.Transport)
	if ok {
		t = t.Clone()
	} else {
		t = &http.Transport{Proxy: http.ProxyFromEnvironment, ForceAttemptHTTP2: true, MaxIdleConns: 100,
			IdleConnTimeout: 90 * time.Second, TLSHandshakeTimeout: 10 * time.Second}
	}
	t.DialContext = guard.Dialer(allow).DialContext
	return t
}

// statusError is the cause of the *NetworkError of a response whose status
// is not 200 OK.
type statusError = tagged[httpStatus]

// httpStatus is what a statusError holds: the status line's code and
// reason phrase, with what a terminal would act on escaped (the reason
// phrase is the server's text), and the code.
type httpStatus struct {
	status string
	code   int
}

// newErrStatus is the statusError of resp. A reason phrase may hold any
// byte but CR and LF: an escape sequence in it would reach the terminal of
// whoever prints the error. It may be as long as the header allows (10
// MiB with net/http's transport), and the error is kept in the tree of the
// call and written in every output: it is cut to maxStatusLine bytes.
func newErrStatus(resp *http.Response) error {
	status := resp.Status
	if len(status) > maxStatusLine {
		status = strings.ToValidUTF8(status[:maxStatusLine], "") + "…"
	}
	st := httpStatus{printable.Escape(status), resp.StatusCode}
	return &statusError{err: errors.New("unexpected HTTP status " + st.status), v: st}
}

// cutError returns err with its message cut to maxErrorText bytes: the
// client's error of a redirect quotes the whole Location, which a server
// may make megabytes long, and the error is kept in the tree and written
// in every output. What err wraps is still what it wraps.
func cutError(err error) error {
	if msg := err.Error(); len(msg) > maxErrorText {
		return &causedError{msg: strings.ToValidUTF8(msg[:maxErrorText], "") + "…", cause: err}
	}
	return err
}

// maxErrorText is the most of an error of a request that is kept: room
// for two URLs of the longest the library reads.
const maxErrorText = 2*maxURLLength + 200

// maxStatusLine is the most of a status line an error keeps: the reason
// phrases of real servers are a few words.
const maxStatusLine = 200

// bodyError is an error of reading a response body: the connection broke
// off, the deadline passed, or the body grew past the size limit. It is told
// apart from an error of decoding the content, which is a parse error.
type bodyError = tagged[fromBody]

type fromBody struct{}

// response is what the tree of a call keeps of a response.
type response struct {
	final                           string // the URL it was served from, after redirects
	status                          int
	contentType, etag, lastModified string
	date                            string // its Date, for the record of the store alone
}

// get requests rawURL. It returns the body, capped at the size limit, and
// the response's URL after redirects and headers. Errors reading the body
// come back as *bodyError.
func (f *fetcher) get(ctx context.Context, rawURL string) (*cappedBody, response, error) {
	body, final, err := f.do(ctx, rawURL)
	if err != nil {
		return nil, response{}, err
	}
	return body, responseOf(body.resp, final), nil
}

// responseOf is what the tree keeps of resp, served from final. A header
// value longer than maxKeptHeader is not kept: no real Content-Type, ETag
// or Last-Modified comes near it, and the tree of a call, and the record
// of the store, would hold every byte of it.
func responseOf(resp *http.Response, final string) response {
	h := resp.Header
	kept := func(name string) string {
		if v := h.Get(name); len(v) <= maxKeptHeader {
			return v
		}
		return ""
	}
	return response{final: final, status: resp.StatusCode,
		contentType: kept("Content-Type"), etag: kept("ETag"), lastModified: kept("Last-Modified"), date: kept("Date")}
}

// maxKeptHeader is the longest header value a response keeps, 1 KiB. RFC
// 9110 sets no limit; the ETags of real servers are 10 to 100 bytes (a
// hash or an inode, size and time in hexadecimal, quoted), a Content-Type
// with its parameters is under 100, an HTTP-date 29. A validator sent back
// in a request is far below what servers accept on one header line (8 KiB
// for nginx and Apache, 1 MiB for the whole header in net/http).
const maxKeptHeader = 1 << 10

// do sends the request of get.
func (f *fetcher) do(ctx context.Context, rawURL string) (*cappedBody, string, error) {
	resp, req, clock, err := f.send(ctx, http.MethodGet, rawURL)
	if err == nil && f.refused != nil && refusesValidators(resp.StatusCode) && conditional(req.Header) && f.refused(rawURL) {
		// The server refused the validators the record of an earlier
		// run holds (431 for an ETag too long, 400 or 412 for one it
		// cannot read): they are dropped, and the request is sent once
		// more without them, so that a bad record costs a request and
		// never the sitemap.
		io.CopyN(io.Discard, resp.Body, polite.Drain)
		resp.Body.Close()
		clock.End()
		resp, req, clock, err = f.send(ctx, http.MethodGet, rawURL)
	}
	if err != nil {
		clock.End()
		// A *url.Error of the client repeats the method and the URL,
		// which the *NetworkError gives already; one of a URL that does
		// not parse says what in it does not.
		if ue, ok := err.(*url.Error); ok && ue.Op != "parse" {
			err = ue.Err
		}
		return nil, "", cutError(timedOut(clock, err))
	}
	if resp.StatusCode == http.StatusNotModified && conditional(req.Header) {
		resp.Body.Close()
		clock.End()
		return nil, "", notModified(resp, rawURL)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		clock.End()
		return nil, "", newErrStatus(resp)
	}
	if resp.ContentLength > f.maxSize {
		resp.Body.Close()
		clock.End()
		return nil, "", errSizeLimit(f.maxSize)
	}
	final := rawURL
	if resp.Request != nil && resp.Request.URL != nil {
		final = resp.Request.URL.String()
	}
	body := newCappedBody(resp.Body, f.maxSize, resp.ContentLength, clock)
	body.resp = resp
	return body, final, nil
}

// try is one request of send: a request of rawURL with method with its own server's
// clock (see chargeServerOnly), so that each try has the whole fetch timeout
// and a try whose clock runs out is a timeout that may be tried again.
func (f *fetcher) try(ctx context.Context, method, rawURL string) (*http.Response, *http.Request, *serverclock.Clock, error) {
	var clock *serverclock.Clock
	if f.serverTime > 0 {
		ctx, clock = serverclock.Start(ctx, f.serverTime)
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, nil)
	if err != nil {
		clock.End()
		return nil, nil, nil, err
	}
	req.Header.Set("User-Agent", f.userAgent)
	if f.validators != nil {
		setValidators(req.Header, f.validators(rawURL))
	}
	clock.Run()
	resp, err := f.client.Do(req)
	clock.Pause()
	if err != nil {
		err = timedOut(clock, err)
	}
	return resp, req, clock, err
}

// send requests rawURL with method (GET, or HEAD for lint's page checks),
// and with a retry policy or limits per host (see
// politeness.go) tries it again after a wait that holds no slot of the call
// (outside), and keeps to the host's limits. It returns the response of the
// last try, its request and the clock its body is read on.
func (f *fetcher) send(ctx context.Context, method, rawURL string) (*http.Response, *http.Request, *serverclock.Clock, error) {
	p := f.polite
	if p == nil {
		return f.try(ctx, method, rawURL)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, nil, nil, err
	}
	for try := 1; ; try++ {
		release, err := p.enter(ctx, rawURL, u, f.outside)
		if err != nil {
			return nil, nil, nil, err
		}
		resp, req, clock, err := f.try(ctx, method, rawURL)
		status, after := 0, ""
		if resp != nil {
			status, after = resp.StatusCode, resp.Header.Get("Retry-After")
		}
		wait, again := p.retryWait(ctx, try, status, after, err)
		if !again {
			if resp != nil {
				resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
			} else {
				release()
			}
			return resp, req, clock, err
		}
		if resp != nil {
			io.CopyN(io.Discard, resp.Body, polite.Drain)
			resp.Body.Close()
		}
		clock.End()
		release()
		if err := f.outside(rawURL, func() error { return p.clock.Sleep(ctx, wait) }); err != nil {
			return nil, nil, nil, err
		}
	}
}

// timedOut returns the error a request failed with, or the timeout's when
// its server's clock ran out: the clock cancelled the request.
func timedOut(clock *serverclock.Clock, err error) error {
	if !clock.Expired() {
		return err
	}
	return fmt.Errorf("the server took longer than the fetch timeout of %v: %w", clock.Timeout(), context.DeadlineExceeded)
}

// cappedBody is a response body that fails with an error wrapping
// ErrMaxResponseSize once it has given more than the size limit, rather than
// cutting the document short without a word: the limit reader of the decode
// stage (limitedReader), over the body read on the server's clock.
type cappedBody struct {
	limitedReader
	body *clockedBody
	size int64          // the Content-Length of the response, -1 when unknown
	resp *http.Response // the response, for its headers
}

func newCappedBody(rc io.ReadCloser, limit, size int64, clock *serverclock.Clock) *cappedBody {
	body := &clockedBody{rc: rc, clock: clock}
	return &cappedBody{limitedReader: limitedReader{r: body, left: limit, err: &bodyError{err: errSizeLimit(limit)}}, body: body, size: size}
}

func (b *cappedBody) Close() error { return b.body.Close() }

// clockedBody is a response body whose reads run the server's clock, and
// whose errors are *bodyError. A body that gives neither bytes nor an
// error maxEmptyReads times in a row (a RoundTripper of the caller's) makes
// no progress: its io.ErrNoProgress is the body's failure, as a body that
// breaks off, not the document's.
type clockedBody struct {
	rc    io.ReadCloser
	clock *serverclock.Clock
	empty int // reads in a row that gave nothing
}

func (b *clockedBody) Read(p []byte) (int, error) {
	n, err := b.clock.Read(b.rc, p)
	switch {
	case n > 0 || err != nil || len(p) == 0:
		b.empty = 0
	default:
		if b.empty++; b.empty >= maxEmptyReads {
			err = io.ErrNoProgress
		}
	}
	if err != nil && err != io.EOF {
		err = &bodyError{err: timedOut(b.clock, err)}
	}
	return n, err
}

func (b *clockedBody) Close() error {
	err := b.rc.Close()
	b.clock.End()
	return err
}

// setValidators makes a request conditional on the validators of rec, the
// record of the store of an earlier run: If-None-Match with its ETag,
// If-Modified-Since with its Last-Modified.
// A validator that is not usable (a record of a store written otherwise)
// is not sent.
func setValidators(h http.Header, rec Record) {
	if rec.ETag != "" && usableETag(rec.ETag) {
		h.Set("If-None-Match", rec.ETag)
	}
	if rec.LastModified != "" && usableLastModified(rec.LastModified) {
		h.Set("If-Modified-Since", rec.LastModified)
	}
}

// refusesValidators reports whether a response with status code to a
// conditional request may be the server's refusal of its validators: a
// client error, but for 404 and 410, which say the document is not there,
// and 429, which the retry policy reads.
func refusesValidators(code int) bool {
	return code >= 400 && code < 500 && code != http.StatusNotFound && code != http.StatusGone && code != http.StatusTooManyRequests
}

// usableETag reports whether an ETag may be kept in a record and sent back
// in If-None-Match: one of at most maxKeptHeader bytes that net/http sends
// (no control character but a tab).
func usableETag(v string) bool { return len(v) <= maxKeptHeader && httpguts.ValidHeaderFieldValue(v) }

// usableLastModified reports whether a Last-Modified may be kept in a
// record and sent back in If-Modified-Since: an HTTP-date, which a server
// must ignore the header for not being (RFC 9110, 13.1.3).
func usableLastModified(v string) bool {
	if len(v) > maxKeptHeader {
		return false
	}
	_, err := http.ParseTime(v)
	return err == nil
}

// conditional reports whether a request with the header h carried
// validators: only then is a 304 Not Modified an answer rather than an
// error.
func conditional(h http.Header) bool {
	return h.Get("If-None-Match") != "" || h.Get("If-Modified-Since") != ""
}

// notModifiedError is what the request of a document unchanged since the
// store's record yields: no body, and the response.
type notModifiedError struct{ resp response }

func (e *notModifiedError) Error() string { return "not modified" }

func notModified(resp *http.Response, rawURL string) error {
	final := rawURL
	if resp.Request != nil && resp.Request.URL != nil {
		final = resp.Request.URL.String()
	}
	return &notModifiedError{responseOf(resp, final)}
}

// stopRedirectsTo makes a client of the fetcher's own stop before it
// follows a redirect to a URL for which known reports true: the request
// fails with errRedirectedToKnown, and the document redirected to is not
// requested again. A client set with SetHTTPClient is used as it is.
func (f *fetcher) stopRedirectsTo(known func(loc string) bool) {
	if !f.own {
		return
	}
	f.client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		if known(req.URL.String()) {
			return errRedirectedToKnown
		}
		return nil
	}
}

// maxRedirects is how many redirects a request follows, as net/http's
// default policy does.
const maxRedirects = 10

// pacedTransport holds the requests of the page checks to one host at
// least every apart (or the Crawl-delay of the host's robots.txt, when
// longer), measured from the time each is handed to the transport under
// it and from the time its answer came: a request sent late does not
// bring the next one nearer, and the server sees two at least the gap
// apart. Retries, HEAD and GET alike go through it, and the Location of a
// redirect is held from the client (holdLocation). The fetch timeout of
// a request (timeout, which the client it serves leaves at 0) runs from
// the end of its wait to the end of its body, so that a wait is never a
// timeout.
type pacedTransport struct {
	base    http.RoundTripper
	clock   polite.Clock
	every   time.Duration
	timeout time.Duration

	mu   sync.Mutex
	gap  map[string]time.Duration // by host key: the Crawl-delay, when longer than every
	next map[string]time.Time     // by host key: the time of its next request
}

func (t *pacedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	key := polite.HostKey(req.URL)
	for {
		t.mu.Lock()
		now := t.clock.Now()
		wait := t.next[key].Sub(now)
		if wait <= 0 {
			t.next[key] = now.Add(max(t.every, t.gap[key]))
		}
		t.mu.Unlock()
		if wait <= 0 {
			resp, err := t.send(req)
			if err == nil {
				holdLocation(resp)
			}
			// The server has the request by the time its answer
			// comes: the next one waits from then, so that the
			// server sees them at least the gap apart.
			t.mu.Lock()
			if n := t.clock.Now().Add(max(t.every, t.gap[key])); n.After(t.next[key]) {
				t.next[key] = n
			}
			t.mu.Unlock()
			return resp, err
		}
		if err := t.clock.Sleep(req.Context(), wait); err != nil {
			return nil, err
		}
	}
}

// heldLocation is the key a redirect's Location is moved to by
// holdLocation: no header read from the wire has it.
const heldLocation = ":location"

// holdLocation moves the Location of a redirect under heldLocation: the
// client then leaves the redirect to the page checks, which report a
// Location that is no URL as a redirect of the page (the client would
// fail the request, and the page be unchecked).
func holdLocation(resp *http.Response) {
	if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
		if v, ok := resp.Header["Location"]; ok {
			resp.Header[heldLocation] = v
			delete(resp.Header, "Location")
		}
	}
}

// after holds the next request to the host of key until the gap has
// passed from now: the host was just sent a request of another kind.
func (t *pacedTransport) after(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next[key] = t.clock.Now().Add(max(t.every, t.gap[key]))
}

// send hands req to the transport under t, within the fetch timeout.
func (t *pacedTransport) send(req *http.Request) (*http.Response, error) {
	if t.timeout <= 0 {
		return t.base.RoundTrip(req)
	}
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: cancel}
	return resp, nil
}
