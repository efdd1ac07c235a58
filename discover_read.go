package sitemap

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"io"
	"net/url"
	"time"

	"github.com/gositemap/sitemap/internal/homepage"
	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is how a discovery reads the places it tries (discover.go is
// its API): the site is the root of the tree; its home page and its
// robots.txt are read for the sitemaps they name, which the call reads at
// level 0 as it reads the Sitemap: lines of a robots.txt; then each
// well-known path, a child of the site, is tried in turn. Each place is a
// document of the tree, and what came of it is its Status.

// probe is one place of a discovery, as it is read.
type probe struct {
	disc   *discovery
	loc    string
	key    string
	found  Found
	node   int       // its place in the tree of the call
	start  time.Time // when its reading began, for the tree
	quiet  bool      // guessed: a failure is not recorded
	source bool      // robots.txt or the home page: read for what it names
}

// document is the hook by which a discovery decides of its places as they
// are read: the documents it reads at level 0 and the robots.txt of the
// site (see place). An HTML page is no sitemap; in a streaming call a
// sitemap found holds its URLs until keep has compared it with those found
// before; with Selection.RootOnly what it lists is listed, not fetched; a
// failure of a guess is not recorded; and keep says what becomes of a
// place parsed.
func (disc *discovery) document(ch child, level int, d *doc) docHooks {
	if level > 0 {
		return docHooks{}
	}
	disc.mu.Lock()
	p := disc.reading[ch.key]
	disc.mu.Unlock()
	if p == nil {
		return docHooks{}
	}
	h := docHooks{
		body: func(r *bufio.Reader) error {
			if looksLikeHTML(r) {
				return errHTMLPage
			}
			return nil
		},
		failed: p.failed,
	}
	if !p.source {
		// A sitemap found: kept once compared with those found before
		// (holding its URLs until then, in a streaming call), and, with
		// Selection.RootOnly, what it lists is listed, not fetched.
		h.keep = func(string) bool { return p.keep(d) }
		if disc.rootOnly {
			h.follow = func(string) bool { return false }
		}
	}
	return h
}

// reads makes p the place being read under its key, until done is called.
func (disc *discovery) reads(p *probe) (done func()) {
	disc.mu.Lock()
	disc.reading[p.key] = p
	disc.mu.Unlock()
	return func() {
		disc.mu.Lock()
		delete(disc.reading, p.key)
		disc.mu.Unlock()
	}
}

// failed tells, for p's document that failed with err, whether the error
// is recorded (not when p was a guess) and the document's status: a
// document that does not parse, an HTML page among them, is no sitemap.
func (p *probe) failed(err error) (record bool, st Status) {
	var perr *ParseError
	if errors.As(err, &perr) {
		return !p.quiet, StatusNotSitemap
	}
	return !p.quiet, StatusFailed
}

// keep decides, once p's document d has parsed, whether it is committed: a
// sitemap with the content of one found already (the same URLs and
// sitemaps, in the same order) is not, nor a well-known path past the
// sitemap limit. A robots.txt is, for the sitemaps it names.
func (p *probe) keep(d *doc) bool {
	if p.source {
		return true
	}
	sum := yieldSum(d)
	disc := p.disc
	disc.mu.Lock()
	first, seen := disc.hashes[sum]
	// A well-known path is requested on the discovery's budget, and takes
	// its place against the sitemap limit once it is a sitemap.
	limited := !seen && p.found == FoundWellKnown && !d.c.fetched.take()
	if !seen && !limited {
		disc.hashes[sum] = p.loc
		disc.found++
	}
	disc.mu.Unlock()
	switch {
	case seen:
		d.c.s.updateDoc(d.node, func(n *Document) {
			n.Status, n.Err, n.Duration = StatusDuplicate, errSameContent(first), time.Since(p.start)
		})
		return false
	case limited:
		d.c.limitSitemaps()
		d.c.s.updateDoc(d.node, func(n *Document) {
			n.Status, n.Err, n.Duration = StatusLimited, errSitemapsLimit(d.c.cfg.maxSitemaps), time.Since(p.start)
		})
		return false
	}
	if p.found == FoundWellKnown {
		p.disc.listFound(p)
	}
	d.handOn()
	return true
}

// nFound returns how many places have been found to be sitemaps.
func (disc *discovery) nFound() int {
	disc.mu.Lock()
	defer disc.mu.Unlock()
	return disc.found
}

// yieldSum returns a digest of what the document d yielded: its URLs and
// the sitemaps it lists, in order. Two places that a catch-all server
// answers with one sitemap yield the same, whatever their bytes.
func yieldSum(d *doc) [sha256.Size]byte {
	h := sha256.New()
	list, chunks := d.buf.handOver()
	for _, chunk := range append([][]URL{list}, chunks...) {
		for i := range chunk {
			io.WriteString(h, chunk[i].Loc)
			h.Write([]byte{'\n'})
		}
	}
	h.Write([]byte{0})
	for _, key := range d.keys {
		io.WriteString(h, key)
		h.Write([]byte{'\n'})
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// unrecorded notes in the tree that the failure of p's document, at node,
// was not recorded: p was a guess.
func (p *probe) unrecorded(c *call, node int) {
	if p.quiet {
		c.s.updateDoc(node, func(n *Document) { n.Errors = 0 })
	}
}

// runDiscovery is runRoot for a discovery: c.root is the site, the root of
// the tree of the call, which robots.txt, the home page and the well-known
// paths are children of.
func (disc *discovery) run() error {
	c := disc.c
	c.listed.Store(0) // the site is no document to read
	// The site is no document to request: its key is none of a URL's.
	disc.root = c.s.addRoot(c.root, "site "+c.root)
	origin, err := urlnorm.Origin(c.root)
	if err != nil {
		verr := &ValidationError{URL: c.root, Err: err}
		c.record(verr)
		c.s.updateDoc(disc.root, func(n *Document) { n.Status, n.Err, n.Errors = StatusFailed, verr, 1 })
		return verr
	}
	c.s.updateDoc(disc.root, func(n *Document) { n.Status = StatusReading })
	page, origin := disc.readHomePage(origin)
	children := disc.readRobotsOf(origin)
	children = append(children, disc.listLinks(page)...)
	c.follow(children, 0)
	c.wg.Wait()
	if !disc.fallback || disc.nFound() == 0 {
		disc.probeWellKnown(origin)
	}
	c.wg.Wait()
	if c.cut.Load() && !c.stopped() {
		perr := &ParseError{URL: c.root, Err: c.ctx.Err()}
		c.record(perr)
		c.s.updateDoc(disc.root, func(n *Document) { n.Status, n.Err = StatusPartial, perr })
		return perr
	}
	c.s.updateDoc(disc.root, func(n *Document) { n.Status = StatusParsed })
	return nil
}

// place adds the place at loc, found as found tells, to the tree as a
// child of the site, and returns it; node is -1 when the place is a
// document of the call already, which is no place to try again.
func (disc *discovery) place(loc string, found Found) *probe {
	c := disc.c
	key := urlnorm.Key(loc)
	p := &probe{disc: disc, loc: loc, key: key, found: found, node: -1, quiet: true}
	if c.s.docAt(key) >= 0 {
		return p
	}
	p.node = c.s.addFetched(child{loc: loc, key: key, node: -1, parent: disc.root, found: found})
	return p
}

// skip gives the place p status st and err: it is not requested.
func (disc *discovery) skip(p *probe, st Status, err error) {
	c := disc.c
	c.s.updateDoc(p.node, func(n *Document) { n.Status, n.Err = st, err })
}

// spend takes the place of one request of p from the discovery's budget;
// false, and p not requested, when it is spent or the context has ended.
func (disc *discovery) spend(p *probe) bool {
	c := disc.c
	if c.ctx.Err() != nil {
		c.cut.Store(true)
		disc.skip(p, StatusNotReached, nil)
		return false
	}
	if !disc.budget.take() {
		disc.skip(p, StatusLimited, errBudgetSpent(disc.maxReq))
		return false
	}
	return true
}

// source adds the robots.txt or the home page of the site, at loc, to the
// tree, and claims it, so that it is requested once. It returns the place,
// whose node is -1 when it is not to be requested.
func (disc *discovery) source(loc string, found Found) *probe {
	c := disc.c
	p := disc.place(loc, found)
	p.source = true
	switch {
	case p.node < 0:
	case !c.claim(p.key):
		disc.skip(p, StatusDuplicate, errKnownAlready)
		p.node = -1
	case !disc.spend(p):
		p.node = -1
	default:
		p.start = time.Now()
		c.s.updateDoc(p.node, func(n *Document) { n.Status = StatusReading })
	}
	return p
}

// fetchSource requests the source p, robots.txt or the home page; it
// returns no body when there is none to read, and the tree says why.
func (disc *discovery) fetchSource(p *probe) source {
	c := disc.c
	src, err := c.request(p.loc)
	c.opened(p.node, src, err, p.start)
	switch {
	case err != nil:
		p.unrecorded(c, p.node)
	case src.body == nil:
		c.s.updateDoc(p.node, func(n *Document) { n.Err = errRedirectedToKnown })
	}
	return src
}

// readHomePage reads the head of the home page of the site at origin, and
// returns what it announces and the origin of the site from then on: the
// one the request was redirected to, when the redirect is one of the
// origin's (see urlnorm.MovedOrigin).
func (disc *discovery) readHomePage(origin string) (homepage.Page, string) {
	c := disc.c
	p := disc.source(origin+"/", FoundHomePage)
	if p.node < 0 {
		return homepage.Page{}, origin
	}
	src := disc.fetchSource(p)
	if src.body == nil {
		return homepage.Page{}, origin
	}
	defer src.rc.Close()
	page := homepage.Scan(src.body, src.base(), src.resp.final)
	c.s.updateDoc(p.node, func(n *Document) {
		n.Status, n.Format, n.Duration = StatusParsed, FormatHTML, time.Since(p.start)
	})
	disc.home = p.node
	return page, urlnorm.MovedOrigin(origin, src.resp.final)
}

// readRobotsOf reads the robots.txt of the site at origin, if it has one,
// as a robots.txt passed to Parse is read, and returns the sitemaps it
// leads to. One that is not there, or is an HTML page, is no error.
func (disc *discovery) readRobotsOf(origin string) []child {
	c := disc.c
	p := disc.source(origin+"/robots.txt", FoundRobots)
	if p.node < 0 {
		return nil
	}
	src := disc.fetchSource(p)
	if src.body == nil {
		return nil
	}
	ch := child{loc: p.loc, key: p.key, node: p.node, parent: disc.root, found: FoundRobots}
	defer disc.reads(p)()
	children, _ := c.readSource(ch, src, -1, true, p.start)
	return children
}

// listLinks lists the sitemaps and feeds the home page announces, as the
// Sitemap: lines of a robots.txt at the page would be, and returns those
// to follow. The links are resolved against the page's base first: a
// relative href is an HTML page's own, in strict mode as well.
func (disc *discovery) listLinks(page homepage.Page) []child {
	c := disc.c
	if len(page.Links) == 0 {
		return nil
	}
	d := newDoc(c, page.Base, page.BaseStr)
	d.format, d.node, d.found = formatRobots, disc.home, FoundHomePage
	feeds := map[string]bool{} // by key: the first link of a URL tells
	var e rawEntry
	for _, l := range page.Links {
		if key := urlnorm.Key(l.URL); !hasKey(feeds, key) {
			feeds[key] = l.Feed
		}
		e.reset(true, false)
		e.loc.set = true
		e.loc.append([]byte(l.URL))
		d.entry(&e)
	}
	c.commit(d, false)
	// The document lists them all as found on the home page: the feeds
	// are told apart in the tree as well.
	for i := range d.children {
		if ch := &d.children[i]; feeds[ch.key] {
			ch.found = FoundFeed
		}
	}
	for _, key := range d.keys {
		if feeds[key] {
			c.s.updateDoc(c.s.docAt(key), func(n *Document) {
				if n.Parent == d.node {
					n.Found = FoundFeed
				}
			})
		}
	}
	return d.children
}

// probeWellKnown tries the well-known paths on the site at origin, each
// that no document of the call has listed or requested, one after the
// other, and follows what each one found lists before the next is tried.
func (disc *discovery) probeWellKnown(origin string) {
	c := disc.c
	for _, path := range wellKnownPaths {
		p := disc.place(origin+path, FoundWellKnown)
		switch {
		case p.node < 0:
			continue // a document already, announced or listed
		case c.isRequested(p.key) || c.s.hasSitemap(p.key):
			disc.skip(p, StatusDuplicate, errKnownAlready)
			continue
		case !c.followed(p.loc):
			disc.skip(p, StatusNotFollowed, nil)
			continue
		case !disc.spend(p):
			continue
		case c.urls.full():
			c.limitURLs()
			disc.skip(p, StatusLimited, errURLsLimit(c.cfg.maxURLs))
			return
		}
		c.claim(p.key)
		c.listed.Add(1)
		ch := child{loc: p.loc, key: p.key, node: p.node, parent: disc.root, found: FoundWellKnown}
		children, _ := c.read(ch, nil, 0, false)
		c.follow(children, 1)
		c.wg.Wait()
	}
}

// readCandidate is the hook by which a discovery reads its places at
// level 0 (a sitemap announced by the site, or a well-known path) itself,
// rather than as call.read would: done is false at any other level.
func (disc *discovery) readCandidate(ch child, level int, robots bool, start time.Time) (children []child, err error, done bool) {
	c := disc.c
	if level != 0 {
		return nil, nil, false
	}
	p := &probe{disc: disc, loc: ch.loc, key: ch.key, found: ch.found, node: ch.node,
		start: start, quiet: ch.found == FoundWellKnown}
	src, err := c.request(ch.loc)
	c.opened(ch.node, src, err, p.start)
	if err != nil {
		if record, _ := p.failed(err); record {
			c.record(err)
		}
		p.unrecorded(c, ch.node)
		return nil, err, true
	}
	if src.body == nil {
		c.s.updateDoc(ch.node, func(n *Document) { n.Err = errRedirectedToKnown })
		return nil, nil, true
	}
	defer disc.reads(p)()
	children, err = c.readSource(ch, src, 0, robots, p.start)
	return children, err, true
}

// listFound lists p, a well-known path found to be a sitemap, as the site
// would list it: [S.GetSitemaps] has it, as it has the sitemaps the site
// announces.
func (disc *discovery) listFound(p *probe) {
	c := disc.c
	site, _ := url.Parse(p.loc)
	if site == nil {
		site = &url.URL{}
	}
	d := newDoc(c, site, p.loc)
	d.format, d.node, d.found = formatRobots, disc.root, FoundWellKnown
	d.listSitemap(p.loc, p.key, nil)
	c.commit(d, true)
}

func hasKey(m map[string]bool, key string) bool {
	_, ok := m[key]
	return ok
}

// handOn hands the URLs that d, a sitemap found by the discovery of a
// streaming call, held while it was read to the loop, once keep has
// kept it.
func (d *doc) handOn() {
	if !d.holds() {
		return
	}
	list, chunks := d.buf.handOver()
hand:
	for _, chunk := range append([][]URL{list}, chunks...) {
		for _, u := range chunk {
			if !d.emitURL(u) {
				break hand
			}
		}
	}
	d.flush()
	d.releaseURLs()
}
