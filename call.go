package sitemap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// call is the state of one Parse call: a snapshot of the configuration, the
// counters of its limits, and the sitemaps it has requested.
type call struct {
	ctx  context.Context
	s    *S
	cfg  config
	root string // the URL passed to Parse
	f    *fetcher

	fetched, urls, valErrs counter
	listing                counter // the sitemaps listed, see doc.listSitemap

	slots *semaphore.Weighted // nil when the concurrency is not bounded
	wg    sync.WaitGroup      // the goroutines that read a sitemap each
	queue queue               // the sitemaps still to be followed, see follow

	mu        sync.Mutex
	requested map[string]bool // urlnorm.Key of every sitemap requested
	slotHeld  map[string]bool // the URLs of the reads that hold a slot, see holdSlot

	// listed counts the documents the call has come to know of and will
	// read: the one passed to Parse and the sitemaps the documents read so
	// far list, less those follow leaves out; docsRead counts those read.
	// The difference is what S.growURLs expects to come.
	listed, docsRead atomic.Int64

	sitemapLimit, urlLimit, valErrLimit sync.Once
	cut                                 atomic.Bool // the context ended the call early

	// A streaming call (S.Stream) hands its URLs and errors to emit, in
	// batches, instead of keeping the URLs.
	emit chan<- []item

	// stop is closed by halt, when the call is ended before its time: the
	// loop of a streaming call has ended, or a goroutine of the call
	// panicked. Nothing is recorded about the call after that.
	stop     chan struct{}
	cancel   context.CancelFunc // ends ctx
	haltOnce sync.Once

	// panicked is the first panic of a goroutine of the call, to be raised
	// again on the caller's goroutine once the others have ended.
	panicked atomic.Pointer[PanicError]

	// hooks are what the features attached to the call observe and
	// decide of its documents (hooks.go).
	hooks hooks
}

// item is a URL or an error that a streaming call hands on.
type item struct {
	u   URL
	err error
	// after, when set, is work to do once what came before is handed on
	// (a record of the store that vouches for the URLs before it: see
	// condState.putAt); the item holds nothing else.
	after func() error
}

// streamBatch is how many URLs a document of a streaming call hands on
// together at most. One send on a channel for each URL cost more than
// parsing it; a batch of those of the input at hand costs a send for many.
const streamBatch = 128

// itemBatches holds the batches the loop of a streaming call is done with,
// cleared and empty. It buys W3 through Stream 14% of its CPU time (see
// ARCHITECTURE.md, "Speed machinery").
var itemBatches = sync.Pool{New: func() any { b := make([]item, 0, streamBatch); return &b }}

// emitItem hands it to the loop of a streaming call on its own; false when
// the loop has ended. A call that does not stream keeps everything, and
// emits nothing.
func (c *call) emitItem(it item) bool {
	if c.emit == nil {
		return true
	}
	b := itemBatches.Get().(*[]item)
	*b = append(*b, it)
	return c.emitBatch(b)
}

// emitBatch hands the items of b to the loop of a streaming call, which
// gives b back to itemBatches; false when the loop has ended.
func (c *call) emitBatch(b *[]item) bool {
	select {
	case c.emit <- *b:
		return true
	case <-c.stop:
		return false
	}
}

// record adds an error to the results of the call. A call that was halted
// records nothing more: what fails then fails because the call cancelled it.
func (c *call) record(err error) {
	if c.stopped() {
		return
	}
	c.s.record(err)
	c.emitItem(item{err: err})
}

// stopped reports whether the call was halted: the loop of a streaming call
// has ended, or a goroutine of the call panicked.
func (c *call) stopped() bool {
	select {
	case <-c.stop:
		return true
	default:
		return false
	}
}

func newCall(ctx context.Context, s *S, cfg config, root string) *call {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &call{
		ctx:       ctx,
		cancel:    cancel,
		stop:      make(chan struct{}),
		s:         s,
		cfg:       cfg,
		root:      root,
		f:         newFetcher(&cfg),
		fetched:   counter{limit: int64(cfg.maxSitemaps)},
		urls:      counter{limit: int64(cfg.maxURLs)},
		valErrs:   counter{limit: int64(cfg.maxValidationErrors)},
		listing:   counter{limit: int64(cfg.maxSitemaps)},
		requested: map[string]bool{},
	}
	if cfg.maxConcurrency > 0 {
		c.slots = semaphore.NewWeighted(int64(cfg.maxConcurrency))
	}
	c.queue.more.L = &c.queue.mu
	c.f.outside = c.outsideSlot
	c.listed.Store(1)
	return c
}

// child is a sitemap that a document lists, to be followed.
type child struct {
	loc, key string
	node     int    // its place in the tree of the call, -1 when it has none
	parent   int    // the place of the document that lists it
	found    Found  // how it was found
	lastmod  string // the <lastmod> its index gives it, as written, with a store or Since
}

// halt ends the call before its time: it stops the hand-off to the loop of
// a streaming call, and cancels the requests in flight. The cancellations
// are not recorded (see record).
func (c *call) halt() {
	c.haltOnce.Do(func() {
		close(c.stop) // before the cancel, so that what it makes fail sees it
		c.cancel()
	})
}

// run reads the document passed to Parse and everything it leads to, and
// returns the error about that document, or the one of a call cut short.
// It returns once the goroutines of the call have ended, however it ends:
// when the goroutine it runs on panics, the call is halted and its
// goroutines have ended before the panic goes on up.
func (c *call) run(body io.Reader) error {
	c.attachSelection()
	c.attachCrawlDelay()
	c.attachStore()
	ended := false
	defer func() {
		if !ended {
			c.halt()
			c.wg.Wait()
		}
		c.cancel()
		c.s.endDocs()
	}()
	err := c.runRoot(body)
	if h := c.hooks.finish; h != nil {
		h(!c.cut.Load() && !c.stopped())
	}
	ended = true
	return err
}

// raise panics, on the caller's goroutine, with the first panic of a
// goroutine of the call, if there was one. The goroutines of the call have
// ended.
func (c *call) raise() {
	if p := c.panicked.Load(); p != nil {
		p.raise()
	}
}

// guard runs f, the work of a goroutine of the call. When f panics (or calls
// runtime.Goexit), guard recovers, keeps the panic to be raised again on the
// caller's goroutine, with the stack of this one, and halts the call: a
// panic of the caller's code (a RoundTripper, a CheckRedirect) on a
// goroutine of the call would end the process otherwise, where it can be
// recovered from the same code run on the caller's goroutine.
func (c *call) guard(f func()) {
	ended := false
	defer func() {
		if !ended {
			c.panicked.CompareAndSwap(nil, newPanicError(recover(), debug.Stack()))
			c.halt()
		}
	}()
	f()
	ended = true
}

// runRoot is run, less the ending of the call. body is the document given,
// nil when it is to be fetched.
func (c *call) runRoot(body io.Reader) error {
	if c.hooks.root != nil {
		return c.hooks.root()
	}
	robots := isRobotsURL(c.root)
	root := child{loc: c.root, key: urlnorm.Key(c.root), parent: -1, found: FoundRoot}
	root.node = c.s.addRoot(root.loc, root.key)
	if err := checkRoot(c.root, body); err != nil {
		verr := &ValidationError{URL: c.root, Err: err}
		c.record(verr)
		c.s.updateDoc(root.node, func(n *Document) { n.Status, n.Err, n.Errors = StatusFailed, verr, 1 })
		return verr
	}
	c.requested[root.key] = true

	level := 0
	if robots {
		level = -1 // a robots.txt is no level: what it names is level 0
	}
	// A document cut off inside an entry lists the sitemaps of its
	// complete entries: they are followed all the same.
	children, err := c.read(root, body, level, robots)
	if err != nil && children == nil {
		return err
	}
	c.follow(children, level+1)
	c.wg.Wait()
	if c.cut.Load() && !c.stopped() {
		perr := &ParseError{URL: c.root, Err: c.ctx.Err()}
		c.record(perr)
		if err == nil {
			err = perr
		}
	}
	return err
}

// checkRoot checks the document given to a call before it is read: the
// URL that is to be fetched, when body is nil, or the reader given.
func checkRoot(root string, body io.Reader) error {
	switch body {
	case nil:
		return broke(CodeLocInvalid, checkRootURL(root))
	case nilBody:
		return errNilReader
	}
	return nil
}

// read fetches (unless body is given), decodes and parses the document ch
// at the given level, commits what it yielded, and returns the sitemaps it
// lists that are to be followed. The error is the one recorded about the
// document.
func (c *call) read(ch child, body io.Reader, level int, robots bool) ([]child, error) {
	defer c.docsRead.Add(1)
	start := time.Now()
	c.s.updateDoc(ch.node, func(n *Document) { n.Status = StatusReading })
	if h := c.hooks.instead; h != nil && body == nil {
		if children, err, done := h(ch, level, robots, start); done {
			return children, err
		}
	}
	src, err := c.open(ch.loc, body)
	if h := c.hooks.notModified; h != nil && src.notModified {
		return h(ch, level, robots, src.resp, start), nil
	}
	c.opened(ch.node, src, err, start)
	if h := c.hooks.opened; h != nil {
		h(ch, src, err)
	}
	if src.body == nil {
		return nil, err
	}
	return c.readSource(ch, src, level, robots, start)
}

// readSource is read once the body is at hand, from start.
func (c *call) readSource(ch child, src source, level int, robots bool, start time.Time) ([]child, error) {
	if src.rc != nil {
		defer src.rc.Close()
	}
	d := newDoc(c, src.base(), src.resp.final)
	d.src, d.node = newSource(ch.loc), ch.node
	d.found = FoundIndex
	if robots {
		d.found = FoundRobots
	}
	c.observe(ch, level, d)
	err := d.parse(src.body, robots, src.size, c.aloneSize(src.size))
	d.flush()
	cutErr, stopped, err := c.settle(err, ch.loc, src.resp.final, src.given)
	if err != nil {
		d.discard()
		recorded, st := true, StatusFailed
		if h := d.hooks.failed; h != nil {
			recorded, st = h(err)
		}
		if recorded {
			c.record(err)
		}
		c.parsed(d, start, st, err)
		if !recorded {
			c.s.updateDoc(d.node, func(n *Document) { n.Errors = 0 })
		}
		return nil, err
	}
	if h := d.hooks.keep; h != nil && !h(src.resp.final) {
		d.discard()
		return nil, nil
	}
	deep := level+1 > c.cfg.maxDepth
	c.commit(d, deep)
	if cutErr != nil {
		c.record(cutErr)
	}
	switch {
	case cutErr != nil:
		c.parsed(d, start, StatusPartial, cutErr)
	case stopped:
		c.parsed(d, start, StatusPartial, c.ctx.Err())
	default:
		c.parsed(d, start, StatusParsed, nil)
		if h := c.hooks.whole; h != nil {
			h(ch, d, src.resp)
		}
	}
	if stopped {
		return nil, cutErr
	}
	return c.toFollow(d, deep, src.resp.final), cutErr
}

// source is the body of one document, fetched or given.
type source struct {
	body io.Reader // nil when there is no document to read
	rc   io.Closer // the response body, to close once it is read
	resp response  // what the response said; for a document given, final alone
	size int64     // the size of the body, -1 when unknown

	notModified bool // the server answered 304 to the validators of the store
	given       bool // the document was given to the call, not fetched
}

// base is the URL the URLs of the document are resolved against.
func (src source) base() *url.URL {
	base, err := url.Parse(src.resp.final)
	if err != nil {
		base = &url.URL{}
	}
	return base
}

// open returns the body of the document at loc: body when it is given, or
// the response to a request. A request that fails is recorded, and its
// error returned; a request redirected to a sitemap another document has
// requested yields no body and no error.
func (c *call) open(loc string, body io.Reader) (source, error) {
	if body != nil {
		size := int64(-1)
		if l, ok := body.(interface{ Len() int }); ok {
			size = int64(l.Len())
		}
		return source{body: &givenReader{r: body}, resp: response{final: loc}, size: size, given: true}, nil
	}
	src, err := c.request(loc)
	if err != nil {
		c.record(err)
	}
	return src, err
}

// request is open of a document fetched, less the recording of its error.
func (c *call) request(loc string) (source, error) {
	rc, resp, err := c.f.get(c.ctx, loc)
	if nm, ok := err.(*notModifiedError); ok {
		return source{resp: nm.resp, notModified: true}, nil
	}
	if errors.Is(err, errRedirectedToKnown) {
		return source{}, nil // as claimRedirect below, before the request
	}
	if err != nil {
		c.noteCut()
		return source{}, &NetworkError{URL: loc, Err: err}
	}
	if resp.final != loc && !c.claimRedirect(loc, resp.final) {
		rc.Close()
		return source{resp: resp}, nil
	}
	return source{body: rc, rc: rc, resp: resp, size: rc.size}, nil
}

// givenReader is the reader of a document given to the call: its errors
// are *readerError, told apart from those of decoding what it yields. The
// first error it returns it returns again on every later read, as a
// response body does, so that a stage that peeked at it sees it too.
type givenReader struct {
	r     io.Reader
	err   error
	empty int // reads in a row that returned nothing and no error
}

// maxEmptyReads is how many reads in a row that return neither bytes nor
// an error a reader given to the call may make before it is taken to make
// no progress: its io.ErrNoProgress is then the reader's failure, which
// tolerant mode keeps what was complete before, rather than the buffers'
// above it (bufio gives up after 100), which the document would fail by.
const maxEmptyReads = 64

func (g *givenReader) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	switch {
	case n < 0 || n > len(p):
		// A count io.Reader forbids, which bufio would panic over.
		n, err = 0, errReaderCount
	case n > 0 || err != nil || len(p) == 0:
		g.empty = 0
	default:
		if g.empty++; g.empty >= maxEmptyReads {
			err = io.ErrNoProgress
		}
	}
	if err != nil {
		if err != io.EOF {
			err = &readerError{err: err}
		}
		g.err = err
	}
	return n, err
}

// errReaderCount is the error of a reader given to the call that returned
// a count below 0 or above the size of the buffer it was given.
var errReaderCount = errors.New("the reader of the document returned an invalid count")

// readerError is an error of the reader of a document given to the call.
type readerError = tagged[fromReader]

type fromReader struct{}

// aloneSize returns size, the size of a body, when the document is read
// while no other is (the one passed to Parse, or the one sitemap a
// robots.txt names): it keeps its URLs in the array that the results take
// over. It returns 0 for any other, and in a streaming call, which keeps no
// URLs.
func (c *call) aloneSize(size int64) int64 {
	if size > 0 && c.emit == nil && c.listed.Load()-c.docsRead.Load() == 1 {
		return size
	}
	return 0
}

// settle sorts out the error err that the parse of a document ended with.
// A document that stops mid-way keeps the complete entries read before the
// stop, and its error, if any, is reported after what it yielded (cutErr).
// When the context ends (CTX-11), whether the parse stage or the body of the
// response sees it first, the document is stopped: the request of a
// document fetched was in progress, and is its *NetworkError (CTX-8);
// content passed in has none of its own. In tolerant mode, at XML it cannot
// read past, a cut inside an entry among it (TOLERANT-13). Any other error
// is the document's failure: it yields nothing, and failed is the error to
// record.
func (c *call) settle(err error, loc, final string, passedIn bool) (cutErr error, stopped bool, failed error) {
	if err == nil {
		// Before the targets of errors.As, which escape: a document read
		// whole costs no allocation here.
		return nil, false, nil
	}
	var ended *ctxEndedError
	var be *bodyError
	var re *readerError
	if errors.As(err, &ended) || c.ctx.Err() != nil && (errors.As(err, &be) || errors.As(err, &re)) {
		c.cut.Store(true)
		if passedIn {
			return nil, true, nil
		}
		cause := c.ctx.Err()
		if be != nil {
			cause = be.err
		}
		return &NetworkError{URL: loc, Err: cause}, true, nil
	}
	var partial *partialError
	switch {
	case errors.As(err, &partial):
		return &ParseError{URL: final, Err: partial.err}, false, nil
	case errors.As(err, &be):
		c.noteCut()
		return nil, false, &NetworkError{URL: loc, Err: be.err}
	case errors.As(err, &re) && !c.cfg.strict:
		// A reader given that fails mid-way is a document cut short:
		// what was complete before is kept.
		return &ParseError{URL: final, Err: re.err}, false, nil
	case errors.As(err, &re):
		return nil, false, &ParseError{URL: final, Err: re.err}
	}
	return nil, false, &ParseError{URL: final, Err: err}
}

// commit commits what the document d yielded to the results, and records
// the limits it reached. deep tells that the sitemaps it lists are past the
// depth limit: they are not to be read.
func (c *call) commit(d *doc, deep bool) {
	if !deep {
		c.listed.Add(int64(len(d.children)))
	}
	docsLeft := c.listed.Load() - c.docsRead.Load() - 1
	full := d.keepURLs()
	cd := d.committed(int(max(docsLeft, 0)))
	cd.status = d.listedStatus(deep)
	added, listedAll := c.s.commit(cd)
	// The places of the sitemaps that another document committed first
	// are given back.
	c.listing.giveBack(d.nListed - int64(added))
	if d.listFull || !listedAll {
		c.limitSitemaps()
	}
	if full {
		c.limitURLs()
	}
	d.releaseURLs()
	for _, err := range d.errs {
		c.emitItem(item{err: err})
	}
}

// toFollow returns the sitemaps the committed document d leads to, unless
// they are past the depth limit (deep): then it records the limit, once,
// when the follow rules would let one of them be fetched.
func (c *call) toFollow(d *doc, deep bool, final string) []child {
	if !deep {
		return d.children
	}
	for _, ch := range d.children {
		if c.followed(ch.loc) {
			c.record(&ParseError{URL: final, Err: errDepthLimit(c.cfg.maxDepth)})
			break
		}
	}
	return nil
}

// noteCut marks the call as cut short when its context has ended, which a
// failed request may be the first to show.
func (c *call) noteCut() {
	if c.ctx.Err() != nil {
		c.cut.Store(true)
	}
}

// followed reports whether the follow rules, and Selection.RootOnly, let the
// sitemap at loc be fetched.
func (c *call) followed(loc string) bool {
	return !c.cfg.noFollow && (len(c.cfg.followRE) == 0 || matchAny(c.cfg.followRE, loc))
}

func matchAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// isRequested reports whether the sitemap with key has been requested in
// this call.
func (c *call) isRequested(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requested[key]
}

// claim reports whether the sitemap with key has not been requested yet in
// this call, and marks it as requested.
func (c *call) claim(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.requested[key] {
		return false
	}
	c.requested[key] = true
	return true
}

// claimRedirect reports whether the document that the request for loc was
// redirected to, at final, is to be read: false when a sitemap of its key
// has been requested or read in this call already, which is then the one
// sitemap read (REDIRECT-10, decided). Listed sitemaps that redirect to one
// final URL, or to the document passed to Parse, are read once, as one
// listed in two spellings is requested once.
func (c *call) claimRedirect(loc, final string) bool {
	key := urlnorm.Key(final)
	return key == urlnorm.Key(loc) || c.claim(key)
}

// The errors of the limits of a call, each recorded once.

func (c *call) limitSitemaps() {
	c.sitemapLimit.Do(func() {
		c.record(&ParseError{URL: c.root, Err: errSitemapsLimit(c.cfg.maxSitemaps)})
	})
}

func (c *call) limitURLs() {
	c.urlLimit.Do(func() {
		c.record(&ParseError{URL: c.root, Err: errURLsLimit(c.cfg.maxURLs)})
	})
}

func (c *call) limitValidationErrors() {
	c.valErrLimit.Do(func() {
		c.record(&ParseError{URL: c.root, Err: &causedError{fmt.Sprintf("limit of %d validation errors reached", c.cfg.maxValidationErrors), ErrMaxValidationErrors}})
	})
}
