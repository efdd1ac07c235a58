package sitemap

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gositemap/sitemap/internal/pagecheck"
	"github.com/gositemap/sitemap/internal/polite"
	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is lint's page checks (LintOptions.CheckPages): while the call
// reads, each document keeps a sample of the pages it lists, those of the
// smallest hashes of their locations, so that the same pages are chosen on
// every run whatever the order the documents come in; once the tree is
// read, the samples are taken in turn, one page of each document after the
// other, up to CheckPages, and each page is requested through the call's
// fetcher, at a pace of its own (pageRate a host unless the politeness of
// the instance sets a rate), under a budget of requests. What a page's head
// says is read by internal/pagecheck. Nothing of this runs, or is kept,
// when CheckPages is 0: lint's entry check pays one nil check.

// The pace of the page checks towards a host when the instance sets no
// rate, the most of a page's head that is read, the requests the budget
// allows a page on average, the most alternates of a page kept, and the
// most pages a call checks.
const (
	pageRate      = 1.0 // requests a second
	maxPageHead   = 256 << 10
	pageRequests  = 3
	maxPageAlts   = 32
	maxPageSample = 10000 // the most pages one call checks
	// maxPageHops is the most redirects of a page followed: a page that
	// redirects is a page-redirect however long its chain, and a chain
	// of ten (net/http's bound) took a page ten times its share of the
	// budget and of the host's pace.
	maxPageHops = 5
)

// errPageBudget is why a page was not requested: the budget is spent.
var errPageBudget = errors.New("the budget of requests of the page checks is spent")

// pageChecks is the state of the page checks of one lint call.
type pageChecks struct {
	l     *linter
	ctx   context.Context // the context of Lint's caller
	n     int
	agent string

	mu     sync.Mutex
	docs   map[int]*pageSample // by node of the tree
	kept   int                 // the entries of the samples
	trimAt int                 // the count of kept at which the samples are trimmed

	left atomic.Int64 // requests left in the budget
}

// pageSample is the sample of one document: the pages of the smallest
// hashes, at most limit, each once, and the hosts the document is on.
type pageSample struct {
	doc     string
	hosts   [2]string       // the host keys of the URL requested and of the URL served from
	urls    [2]string       // those URLs
	entries pageHeap        // the largest hash first
	has     map[uint64]bool // the hashes of entries
	limit   int
}

// pageEntry is a page of a sample, and what its check found.
type pageEntry struct {
	hash      uint64
	raw, loc  string // as listed, and as read
	key       string // urlnorm.Key(loc)
	host      string
	doc       string
	line, col int
	lastmod   time.Time
	modRaw    string
	dateOnly  int // the length of a <lastmod> without a time (4, 7, 10), 0 otherwise
	alts      []string
	status    int // the first answer's status; 0 when the page was not checked
}

// newPageChecks returns the page checks of l, nil when o asks for none.
func newPageChecks(l *linter, ctx context.Context, n int) *pageChecks {
	if n <= 0 {
		return nil
	}
	n = min(n, maxPageSample)
	p := &pageChecks{l: l, ctx: ctx, n: n, agent: polite.NewAgent(l.c.cfg.userAgent).Token(), docs: map[int]*pageSample{}, trimAt: 2 * n}
	p.left.Store(int64(pageRequests * n))
	return p
}

// offer is told of a page the document of ld lists, as written (raw) and
// as read (loc), from lint's check of the entry e: it is kept in the
// sample of the document when its hash is among the smallest. A page on a
// host the document is not on, or that robots.txt disallows, is not kept.
func (p *pageChecks) offer(ld *lintDoc, e *rawEntry, raw, loc string) {
	u, err := url.Parse(loc)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return
	}
	key := urlnorm.Key(loc)
	h := fnv.New64a()
	h.Write([]byte(key))
	sum := h.Sum64()
	host := polite.HostKey(u)

	p.mu.Lock()
	s := p.sampleLocked(ld)
	keep := host != "" && (host == s.hosts[0] || host == s.hosts[1]) && s.wants(sum)
	p.mu.Unlock()
	if !keep {
		return
	}
	if data := p.l.robots(loc, ld); data != nil && !data.Allowed(robotsPath(u)) {
		return // robots-disallowed: not requested
	}
	pe := &pageEntry{hash: sum, raw: raw, loc: loc, key: key, host: host, doc: s.doc, line: ld.line, col: ld.col}
	if m := e.lastmod.text(); len(m) > 0 {
		if t, err := checkDate(e.dateName, m, e.dateRFC822); err == nil {
			pe.lastmod, pe.modRaw = t, string(m)
			if !e.dateRFC822 && (len(m) == 4 || len(m) == 7 || len(m) == 10) {
				pe.dateOnly = len(m)
			}
		}
	}
	for i := range e.links {
		if href := strings.TrimSpace(string(e.links[i].href.text())); href != "" && len(pe.alts) < maxPageAlts {
			pe.alts = append(pe.alts, href)
		}
	}

	p.keep(s, pe)
}

// sample returns the sample of the document of ld, made on first use:
// the document is on the hosts of the tree from then on.
func (p *pageChecks) sample(ld *lintDoc) *pageSample {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sampleLocked(ld)
}

func (p *pageChecks) sampleLocked(ld *lintDoc) *pageSample {
	s := p.docs[ld.d.node]
	if s == nil {
		s = &pageSample{doc: ld.url(), has: map[uint64]bool{}, limit: p.n}
		if ru, err := url.Parse(ld.url()); err == nil {
			s.hosts[0], s.urls[0] = polite.HostKey(ru), ld.url()
		}
		if ld.d.base != nil {
			s.hosts[1], s.urls[1] = polite.HostKey(ld.d.base), ld.d.base.String()
		}
		p.docs[ld.d.node] = s
	}
	return s
}

// pick returns the pages to check: the samples of the documents, in the
// order of their URLs, taken in turn one page each (in the order of their
// hashes), a page listed twice taken once, up to n.
func (p *pageChecks) pick() []*pageEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	samples := make([]*pageSample, 0, len(p.docs))
	for _, s := range p.docs {
		slices.SortFunc(s.entries, func(a, b *pageEntry) int { return cmp.Compare(a.hash, b.hash) })
		samples = append(samples, s)
	}
	slices.SortFunc(samples, func(a, b *pageSample) int { return strings.Compare(a.doc, b.doc) })
	var out []*pageEntry
	seen := map[string]bool{}
	for i := 0; len(out) < p.n; i++ {
		more := false
		for _, s := range samples {
			if i >= len(s.entries) || len(out) >= p.n {
				continue
			}
			more = true
			if e := s.entries[i]; !seen[e.key] {
				seen[e.key] = true
				out = append(out, e)
			}
		}
		if !more {
			break
		}
	}
	return out
}

// checkPages checks the pages picked, once the tree is read: the pages of
// a host one after the other, the hosts at once (at most as many as the
// call reads sitemaps at once), then the alternates among them.
func (l *linter) checkPages() {
	p := l.pages
	if p == nil {
		return
	}
	pages := p.pick()
	if len(pages) == 0 {
		return
	}
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	go func() {
		select {
		case <-l.c.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	f, paced := p.fetcher()
	byHost := map[string][]*pageEntry{}
	var hosts []string
	for _, e := range pages {
		if byHost[e.host] == nil {
			hosts = append(hosts, e.host)
			p.crawlDelay(paced, e.host, e.loc)
		}
		byHost[e.host] = append(byHost[e.host], e)
	}
	// The tree was read from its hosts until now: the first request to
	// each, of a page or of a redirect to it, waits its turn after the
	// last sitemap, and keeps to its Crawl-delay.
	p.mu.Lock()
	seen := map[string]bool{}
	for _, s := range p.docs {
		for i, h := range s.hosts {
			if h != "" && !seen[h] {
				seen[h] = true
				p.crawlDelay(paced, h, s.urls[i])
				paced.after(h)
			}
		}
	}
	p.mu.Unlock()
	slots := len(hosts)
	if !l.c.cfg.multiThread {
		slots = 1
	} else if n := l.c.cfg.maxConcurrency; n > 0 && n < slots {
		slots = n
	}
	sem := make(chan struct{}, slots)
	var wg sync.WaitGroup
	for _, h := range hosts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			l.c.guard(func() {
				for _, e := range byHost[h] {
					p.check(ctx, f, e)
				}
			})
		}()
	}
	wg.Wait()
	if ctx.Err() == nil {
		p.alternates(pages)
	}
}

// fetcher returns the fetcher of the page checks: the call's, with a
// client that follows no redirect (check follows them itself, on the
// hosts of the tree only, each a request at the host's pace), no
// validators, the retries and limits per host of the instance in a state
// of their own, and a transport that keeps the requests to a host apart
// (pacedTransport).
func (p *pageChecks) fetcher() (*fetcher, *pacedTransport) {
	f := *p.l.c.f
	cfg := p.l.c.cfg.polite
	rate := cfg.hostRate
	if rate == 0 {
		rate = pageRate
	}
	clock := cfg.clock
	if clock == nil {
		clock = polite.Real{}
	}
	client := *f.client
	base := client.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	// The fetch timeout runs from the end of the wait for the host to
	// the end of the body (pacedTransport): the server's clock of a
	// streaming call (chargeServerOnly) would count the wait, which is
	// inside the client's Do, and stop at the answer, leaving the head
	// of a page that drips or stalls to be read without end.
	timeout := client.Timeout
	if f.serverTime > 0 {
		timeout, f.serverTime = f.serverTime, 0
	}
	paced := &pacedTransport{base: base, clock: clock, every: time.Duration(float64(time.Second) / rate),
		timeout: timeout, gap: map[string]time.Duration{}, next: map[string]time.Time{}}
	client.Transport, client.Timeout = paced, 0
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	f.client = &client
	f.validators, f.refused = nil, nil
	f.outside = func(_ string, wait func() error) error { return wait() }
	f.polite = newPoliteState(cfg)
	return &f, paced
}

// crawlDelay spaces the requests to host by the Crawl-delay of the
// robots.txt of the origin of loc, a URL on it, when lint read one, up to
// polite.MaxCrawlDelay.
func (p *pageChecks) crawlDelay(t *pacedTransport, host, loc string) {
	origin, err := urlnorm.Origin(loc)
	if err != nil {
		return
	}
	rc := &p.l.robotsTxt
	rc.mu.Lock()
	re := rc.hosts[origin]
	rc.mu.Unlock()
	if re == nil {
		return
	}
	re.once.Do(func() {}) // fetched by now; this orders the read of data after it
	if re.data == nil {
		return
	}
	if _, secs := re.data.CrawlDelay(); secs > 0 {
		t.mu.Lock()
		t.gap[host] = max(t.gap[host], time.Duration(min(secs, polite.MaxCrawlDelay.Seconds())*float64(time.Second)))
		t.mu.Unlock()
	}
}

// allowed reports whether robots.txt lets the page checks request loc, a
// URL a page redirects to: it is as much a request of the checks as the
// page's own. A robots.txt not read yet (of another scheme) is fetched
// through f, at the pace of the checks.
func (p *pageChecks) allowed(ctx context.Context, f *fetcher, loc string) bool {
	u, err := url.Parse(loc)
	if err != nil {
		return false
	}
	data := p.l.robotsVia(ctx, f, loc, nil)
	return data == nil || data.Allowed(robotsPath(u))
}

// onTree reports whether loc is on a host of a document of the tree.
func (p *pageChecks) onTree(loc string) bool {
	u, err := url.Parse(loc)
	if err != nil {
		return false
	}
	h := polite.HostKey(u)
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.docs {
		if s.hosts[0] == h || s.hosts[1] == h {
			return true
		}
	}
	return false
}

// request sends one request of the page checks, on the budget. done
// closes the response; it is never nil, and does nothing when the
// request failed.
func (p *pageChecks) request(ctx context.Context, f *fetcher, method, loc string) (resp *http.Response, done func(), err error) {
	if p.left.Add(-1) < 0 {
		return nil, func() {}, errPageBudget
	}
	resp, _, clock, err := f.send(ctx, method, loc)
	if err != nil {
		clock.End()
		if ue, ok := err.(*url.Error); ok {
			err = ue.Err
		}
		return nil, func() {}, err
	}
	return resp, func() { resp.Body.Close(); clock.End() }, nil
}

// ask requests loc with HEAD, and with GET when the server refuses HEAD
// (405, 501) or answers it with another error: a server that answers
// HEAD otherwise than GET (some answer it 404 or 403) must not make a
// page that works broken. A 429 or a 503 is left to the caller: the page
// is unchecked.
func (p *pageChecks) ask(ctx context.Context, f *fetcher, loc string) (*http.Response, func(), string, error) {
	resp, done, err := p.request(ctx, f, http.MethodHead, loc)
	if err != nil || resp.StatusCode < 400 || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		return resp, done, http.MethodHead, err
	}
	done()
	resp, done, err = p.request(ctx, f, http.MethodGet, loc)
	return resp, done, http.MethodGet, err
}

// why says why a request of the page checks failed: the fetch timeout
// (pacedTransport's deadline) by its name.
func why(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "the fetch timeout passed"
	}
	return shorten(err.Error())
}

// report adds a finding about the page e.
func (p *pageChecks) report(e *pageEntry, code Code, format string, args ...any) {
	if p.l.omit(code) {
		return
	}
	p.l.add(Finding{Code: code, Document: e.doc, Line: e.line, Column: e.col, URL: e.raw, Message: fmt.Sprintf(format, args...)})
}

// unchecked reports that the page e could not be checked, and why.
func (p *pageChecks) unchecked(ctx context.Context, e *pageEntry, why string) {
	if ctx.Err() != nil {
		return // the call ended: nothing more is told
	}
	p.report(e, CodePageUnchecked, "the page could not be checked: %s", why)
}

// check requests the page e, follows its redirects on the hosts of the
// tree, and reports what its answer says.
func (p *pageChecks) check(ctx context.Context, f *fetcher, e *pageEntry) {
	loc, hops := e.loc, 0
	visited := map[string]bool{e.key: true}
	var resp *http.Response
	var done func()
	var method string
	for {
		var err error
		resp, done, method, err = p.ask(ctx, f, loc)
		if err != nil {
			e.status = 0
			switch {
			case errors.Is(err, ErrBlockedAddress):
				p.unchecked(ctx, e, "the guard refused the address of "+shorten(loc))
			default:
				p.unchecked(ctx, e, why(err))
			}
			return
		}
		if e.status == 0 {
			e.status = resp.StatusCode
		}
		where := resp.Header.Get(heldLocation)
		if resp.StatusCode < 300 || resp.StatusCode > 399 || where == "" {
			break
		}
		done()
		target, err := resolveRef(loc, where)
		hops++
		switch {
		case err != nil:
			p.report(e, CodePageRedirect, "the page redirects (%s) to %q, which is no URL", statusText(resp.StatusCode), shorten(where))
			return
		case visited[urlnorm.Key(target)]:
			p.report(e, CodePageRedirect, "the page redirects in a loop (%s, back to %s)", statusText(resp.StatusCode), shorten(target))
			return
		case hops > maxPageHops:
			p.report(e, CodePageRedirect, "the page redirects more than %d times (last to %s)", maxPageHops, shorten(target))
			return
		case !p.onTree(target):
			p.report(e, CodePageRedirect, "the page redirects (%s) to %s, on a host outside the tree: not followed", statusText(resp.StatusCode), shorten(target))
			return
		case !p.allowed(ctx, f, target):
			p.report(e, CodePageRedirect, "the page redirects (%s) to %s, which robots.txt disallows: not followed", statusText(resp.StatusCode), shorten(target))
			return
		}
		loc, visited[urlnorm.Key(target)] = target, true
	}
	defer func() { done() }()
	st := resp.StatusCode
	if hops > 0 {
		p.report(e, CodePageRedirect, "the page redirects (%s) to %s, which answers %s", statusText(e.status), shorten(loc), statusText(st))
	}
	switch {
	case st == http.StatusTooManyRequests || st == http.StatusServiceUnavailable:
		p.unchecked(ctx, e, fmt.Sprintf("%s answered %s", shorten(loc), statusText(st)))
		e.status = 0
	case st >= 400:
		p.report(e, CodePageStatus, "the page answers %s", statusText(st))
	case st == http.StatusOK:
		p.content(ctx, f, e, loc, resp, method, &done)
	}
}

// content checks the answer 200 of the page e, served at loc: its
// X-Robots-Tag, Link and Last-Modified headers, and, for HTML, the head of
// the page, read with a GET of at most maxPageHead bytes. A head that
// could not be read leaves the page unchecked, but for what its headers
// said.
func (p *pageChecks) content(ctx context.Context, f *fetcher, e *pageEntry, loc string, resp *http.Response, method string, done *func()) {
	noindex := ""
	if pagecheck.RobotsHeader(resp.Header.Values("X-Robots-Tag"), p.agent) {
		noindex = "its X-Robots-Tag header says noindex"
	}
	canonical, other := pagecheck.LinkCanonical(resp.Header.Values("Link"))
	base := loc
	canonicalFrom, several := "its Link header", "its Link headers"
	p.stale(e, resp.Header.Get("Last-Modified"), resp.Header.Get("Date"))
	if (noindex == "" || canonical == "") && isHTML(resp.Header.Get("Content-Type")) {
		var err error
		if method != http.MethodGet {
			(*done)()
			resp, *done, err = p.request(ctx, f, http.MethodGet, loc)
			if err == nil && resp.StatusCode != http.StatusOK {
				err, resp = fmt.Errorf("its GET was answered %s", statusText(resp.StatusCode)), nil
			}
		}
		if resp != nil {
			if noindex == "" && pagecheck.RobotsHeader(resp.Header.Values("X-Robots-Tag"), p.agent) {
				noindex = "its X-Robots-Tag header says noindex"
			}
			head := pagecheck.ReadHead(io.LimitReader(resp.Body, maxPageHead), resp.Header.Get("Content-Type"), p.agent)
			err = head.Err
			if noindex == "" && head.Noindex != "" {
				noindex = fmt.Sprintf("its <meta name=%q> says noindex", head.Noindex)
			}
			if canonical == "" && head.Canonical != "" {
				canonical, other = head.Canonical, head.Other
				canonicalFrom, several = `its <link rel="canonical">`, `its <link rel="canonical"> elements`
				if b, err := resolveRef(loc, head.Base); head.Base != "" && err == nil {
					base = b
				}
			}
		}
		if err != nil && noindex == "" {
			if errors.Is(err, ErrBlockedAddress) {
				err = errors.New("the guard refused the address")
			}
			p.unchecked(ctx, e, "the head of the page could not be read: "+why(err))
		}
	}
	if noindex != "" {
		p.report(e, CodePageNoindex, "%s: search engines leave the page out", noindex)
	}
	to, err := resolveRef(base, canonical)
	if canonical == "" || err != nil {
		return
	}
	if to2, err := resolveRef(base, other); other != "" && err == nil && urlnorm.Key(to2) != urlnorm.Key(to) {
		// Search engines ignore canonical links that disagree.
		p.report(e, CodePageCanonicalOther, "%s name several canonical URLs, %s and %s: search engines may ignore them all", several, shorten(to), shorten(to2))
		return
	}
	if urlnorm.Key(to) != urlnorm.Key(loc) && urlnorm.Key(to) != e.key {
		p.report(e, CodePageCanonicalOther, "%s names %s as the canonical URL", canonicalFrom, shorten(to))
	}
}

// stale reports a page whose Last-Modified is later than its <lastmod>;
// a <lastmod> without a time stands for the whole of its day (month,
// year) in any zone. A Last-Modified that is not before the Date of the answer (or,
// without one, the time of the call) is no date of the page's content:
// a page made anew for each request, or a server whose clock is wrong.
func (p *pageChecks) stale(e *pageEntry, lastModified, date string) {
	if e.modRaw == "" || lastModified == "" {
		return
	}
	lm, err := http.ParseTime(lastModified)
	if err != nil {
		return
	}
	now, err := http.ParseTime(date)
	if err != nil {
		now = p.l.now
	}
	if !lm.Before(now) {
		return
	}
	end := dateEnd(e.lastmod, e.dateOnly)
	if e.dateOnly != 0 && !lm.Before(end) || e.dateOnly == 0 && lm.After(end) {
		p.report(e, CodeLastmodStale, "the page's Last-Modified, %s, is later than its <lastmod> %s", lm.UTC().Format(time.RFC3339), e.modRaw)
	}
}

// alternates reports the pages checked whose alternates, checked too,
// answered other than 200.
func (p *pageChecks) alternates(pages []*pageEntry) {
	status := make(map[string]int, len(pages))
	for _, e := range pages {
		if e.status != 0 {
			status[e.key] = e.status
		}
	}
	for _, e := range pages {
		if e.status == 0 {
			continue
		}
		for _, alt := range e.alts {
			k := urlnorm.Key(alt)
			if st, ok := status[k]; ok && k != e.key && st != http.StatusOK {
				p.report(e, CodeHreflangTargetStatus, "the alternate %s answers %s", shorten(alt), statusText(st))
			}
		}
	}
}

// resolveRef resolves ref against base.
func resolveRef(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	u, err := b.Parse(strings.TrimSpace(ref))
	if err != nil {
		return "", err
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", fmt.Errorf("not an HTTP(S) URL: %s", u)
	}
	return u.String(), nil
}

// isHTML reports whether a Content-Type is HTML's, or missing.
func isHTML(ct string) bool {
	if ct == "" {
		return true
	}
	// A parameter that does not parse leaves the media type read, as
	// a browser reads it (text/html;;charset=utf-8).
	mt, _, err := mime.ParseMediaType(ct)
	return (err == nil || errors.Is(err, mime.ErrInvalidMediaParameter)) && (mt == "text/html" || mt == "application/xhtml+xml")
}

// statusText is a status code with its standard reason phrase.
func statusText(code int) string {
	return strings.TrimSpace(fmt.Sprintf("%d %s", code, http.StatusText(code)))
}
