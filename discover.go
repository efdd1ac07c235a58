package sitemap

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is discovery: from a site, it finds the sitemaps the site has
// (the Sitemap: lines of its robots.txt, the <link> elements of its home
// page, the paths that generators write to) and hands them to the call as
// if they were the Sitemap: lines of one robots.txt at the site: listed, at
// level 0, under the follow rules and the limits of the call. The call then
// goes on as any other (scheduler.go). What a candidate came to is kept in
// a Candidate, which S.GetCandidates hands out.

// wellKnownPaths are the paths a discovery tries on the site, in this
// order, where sitemap generators and content systems write their
// sitemaps. Where each comes from:
//
//   - usp: GateNLP/ultimate-sitemap-parser, usp/tree.py,
//     _UNPUBLISHED_SITEMAP_PATHS (its 14 paths are all here);
//   - crawlee: Crawlee's discoverValidSitemaps and Sitemap.tryCommonNames,
//     which try /sitemap.xml and /sitemap.txt;
//   - issue 17: the paths the issue names.
var wellKnownPaths = []string{
	"/sitemap.xml",                    // usp, crawlee, issue 17
	"/sitemap_index.xml",              // usp, issue 17 (Yoast SEO, Rank Math)
	"/sitemap-index.xml",              // usp, issue 17
	"/sitemap.xml.gz",                 // usp, issue 17
	"/sitemap_index.xml.gz",           // usp
	"/sitemap-index.xml.gz",           // usp
	"/wp-sitemap.xml",                 // issue 17 (WordPress core since 5.5)
	"/sitemap.txt",                    // crawlee, issue 17
	"/sitemaps.xml",                   // issue 17
	"/sitemap/sitemap.xml",            // issue 17
	"/sitemap/sitemap-index.xml",      // usp
	"/.sitemap.xml",                   // usp
	"/sitemap",                        // usp
	"/admin/config/search/xmlsitemap", // usp (Drupal's XML sitemap module)
	"/sitemap_news.xml",               // usp, issue 17 (the news paths)
	"/sitemap-news.xml",               // usp, issue 17
	"/sitemap_news.xml.gz",            // usp, issue 17
	"/sitemap-news.xml.gz",            // usp, issue 17
}

// The bounds of the reading of a home page.
const (
	// maxHomePageBytes is how much of a home page is read at most, when
	// its </head> does not come first: 1 MiB, many times the head of any
	// real page.
	maxHomePageBytes = 1 << 20
	// maxHomePageLinks is how many of the sitemaps and feeds a home page
	// announces are taken at most, in the order of the page.
	maxHomePageLinks = 20
)

// Outcome is what came of one candidate of a discovery.
type Outcome string

// The outcomes of a candidate.
const (
	// OutcomeSitemap is a candidate that was read as a sitemap.
	OutcomeSitemap Outcome = "sitemap"
	// OutcomeRead is the robots.txt or the home page of the site, read for
	// the sitemaps it names.
	OutcomeRead Outcome = "read"
	// OutcomeFailed is a candidate whose request failed: a status other
	// than 200 (a 404 among them), a network error, a body over the size
	// limit.
	OutcomeFailed Outcome = "failed"
	// OutcomeNotSitemap is a candidate that answered with something that
	// is not a sitemap: an HTML page (a soft 404), or a document that does
	// not parse.
	OutcomeNotSitemap Outcome = "not-sitemap"
	// OutcomeDuplicate is a candidate that is a sitemap found already: it
	// was redirected to one, it has the same content as one (the same URLs
	// and sitemaps, in the same order), or another document of the call
	// requested it first.
	OutcomeDuplicate Outcome = "duplicate"
	// OutcomeSkipped is a candidate that was not requested: it is known
	// already, the follow rules leave it out, or a limit, the discovery's
	// budget or the end of the context came first.
	OutcomeSkipped Outcome = "skipped"
)

// Candidate is one place a discovery looked at for a sitemap, and what it
// came to.
type Candidate struct {
	// URL is the candidate's location, as it was requested.
	URL string
	// Found tells how the discovery came to it: FoundRobots, FoundHomePage,
	// FoundFeed or FoundWellKnown.
	Found Found
	// Outcome is what came of it.
	Outcome Outcome
	// FinalURL is the URL its response came from, after redirects; empty
	// when it was not fetched.
	FinalURL string
	// Err says why a candidate is no sitemap, nil for OutcomeSitemap and
	// OutcomeRead. For a candidate that the site announces (a robots.txt
	// line, a home-page link) it is the error GetErrors holds too; for a
	// guessed one (a well-known path, robots.txt, the home page) it is
	// recorded nowhere else.
	Err error
}

// The causes of the Err of a candidate that is no error of the call.
var (
	errHTMLPage          = errors.New("not a sitemap: an HTML page")
	errRedirectedToKnown = errors.New("redirected to a document requested already")
	errKnownAlready      = errors.New("listed or requested already by another document of the call")
	errNotFollowed       = errors.New("left out by the follow rules")
	errNotRead           = errors.New("not read: a limit of the call was reached, or the call ended")
)

// errSameContent is the Err of a candidate with the content of a sitemap
// found before it.
type errSameContent struct{ as string }

func (e errSameContent) Error() string { return "the same content as " + e.as }

// errBudgetSpent is the Err of a candidate left untried for the budget.
type errBudgetSpent struct{ budget int }

func (e errBudgetSpent) Error() string {
	return fmt.Sprintf("the discovery's budget of %d requests is spent", e.budget)
}

// Discover finds the sitemaps of site, then reads them as Parse reads the
// sitemaps a robots.txt names. site is an origin, such as
// https://example.com, or any URL of the site: only its scheme and host
// are used.
//
// The discovery requests the home page of the site (following a redirect
// of the origin, from http to https or between the bare host and its www.
// form, once: the rest is requested on the origin it ends on), its
// /robots.txt, and the paths that sitemap generators write to, such as
// /sitemap.xml and /sitemap_index.xml. It takes the Sitemap: lines of the
// robots.txt, and the <link rel="sitemap"> elements and the RSS and Atom
// feeds (<link rel="alternate" type="application/rss+xml"> or
// "application/atom+xml") of the home page's head, honouring its
// <base href>. It reads no more of the home page than its </head> or the
// first MiB, and takes the first 20 links.
//
// The sitemaps announced by the robots.txt and the home page enter the
// call as the Sitemap: lines of a robots.txt at the site would: listed by
// [S.GetSitemaps], at level 0 for [S.SetMaxDepth], counted by
// [S.SetMaxSitemaps], under the follow rules, on any host in strict mode as
// well, and one that fails is reported in [S.GetErrors] as Parse reports a
// sitemap that a robots.txt names. Once they are read, the well-known paths
// are tried, unless [S.SetWellKnownFallback] asks for them only when
// nothing announced was a sitemap: a path that a document of the call has
// listed or requested is not requested again, and one that fails, answers
// with an HTML page or with a sitemap found already (the same final URL,
// or the same URLs and sitemaps) is no sitemap, counts against no limit of the call and
// is reported nowhere but in [S.GetCandidates]. A well-known path that is
// a sitemap is listed and read like the announced ones. The home page,
// robots.txt and the well-known paths are requested within a budget of
// their own, [S.SetMaxDiscoveryRequests]; every request goes through the
// client, the timeout and the user agent of the call, each candidate at
// most once.
//
// The error returned is a *ValidationError when site is no HTTP or HTTPS
// URL with a host, the *ParseError naming site of a call that ctx cut
// short, or an untyped error while a *ConfigError is outstanding; finding
// no sitemap is no error (GetCandidates tells what was tried). The errors
// of the call's limits name site. Discover returns s, as Parse does.
func (s *S) Discover(ctx context.Context, site string) (*S, error) {
	return s, s.discover(ctx, site, false)
}

// DiscoverSitemaps finds the sitemaps of site as [S.Discover] does, and
// returns every candidate it tried, in the order it tried them, with how
// it was found and what came of it, as [S.GetCandidates] does after it. It
// reads each candidate to tell whether it is a sitemap, but keeps none of
// its URLs and follows none of the sitemaps it lists: [S.GetSitemaps]
// lists the sitemaps found, and [S.GetURLs] is empty. The error is that of
// Discover.
func (s *S) DiscoverSitemaps(ctx context.Context, site string) ([]Candidate, error) {
	err := s.discover(ctx, site, true)
	return s.GetCandidates(), err
}

// discover is the call of Discover and DiscoverSitemaps.
func (s *S) discover(ctx context.Context, site string, findOnly bool) error {
	c, err := s.begin(ctx, site)
	defer s.parsing.Unlock()
	if err != nil {
		return err
	}
	c.disc = &discovery{findOnly: findOnly, budget: counter{limit: int64(c.cfg.maxDiscoveryRequests)},
		byKey: map[string]*probe{}, hashes: map[[sha256.Size]byte]string{}}
	c.attach(hooks{instead: c.readCandidate, document: c.disc.document})
	// A redirect to the home page, or to a sitemap read already, is not
	// followed: a site that sends every path home costs one request a path.
	c.f.stopRedirectsTo(func(loc string) bool { return c.isRequested(urlnorm.Key(loc)) })
	err = c.run(nil)
	c.raise()
	return err
}

// SetMaxDiscoveryRequests sets how many requests a discovery ([S.Discover])
// makes of its own at most: those of the home page, of robots.txt and of
// the well-known paths, which [S.SetMaxSitemaps] does not count. The
// sitemaps the site announces are not among them: they count against the
// sitemap limit, as those of a robots.txt do. The default is
// [DefaultMaxDiscoveryRequests], room for all of them; 0 is no limit, and
// negative values are rejected with a *ConfigError. The candidates left
// untried are in [S.GetCandidates], skipped.
func (s *S) SetMaxDiscoveryRequests(n int) *S {
	return s.set("maxDiscoveryRequests", nonNegative("max discovery requests", n),
		func(c *config) { c.maxDiscoveryRequests = n })
}

// GetMaxDiscoveryRequests returns how many requests a discovery makes of its
// own at most; 0 is no limit.
func (s *S) GetMaxDiscoveryRequests() int {
	return get(s, func(c *config) int { return c.maxDiscoveryRequests })
}

// SetWellKnownFallback sets whether a discovery ([S.Discover]) tries the
// well-known paths only when the robots.txt and the home page of the site
// announce no sitemap that can be read. It is off by default: the paths are
// always tried, since a robots.txt that names one sitemap of several is
// common.
func (s *S) SetWellKnownFallback(on bool) *S {
	return s.set("wellKnownFallback", func() error { return nil }, func(c *config) { c.wellKnownFallback = on })
}

// GetWellKnownFallback reports whether the well-known paths are tried only
// when nothing announced was a sitemap.
func (s *S) GetWellKnownFallback() bool {
	return get(s, func(c *config) bool { return c.wellKnownFallback })
}

// discovery is the state of the discovery of a call: its candidates, in
// the order they were come to, and the content of the sitemaps found.
type discovery struct {
	findOnly bool    // keep no URLs, follow nothing: DiscoverSitemaps
	budget   counter // the discovery's own requests

	mu     sync.Mutex
	cands  []*probe
	byKey  map[string]*probe            // urlnorm.Key → candidate
	hashes map[[sha256.Size]byte]string // content of a sitemap found → its URL
	found  int                          // candidates found to be sitemaps

	root int // the place of the site in the tree of the call
}

// probe is one candidate of a discovery, as it is read.
type probe struct {
	Candidate
	disc   *discovery
	key    string
	start  time.Time // when its reading began, for the tree
	quiet  bool      // guessed: a failure is not recorded
	source bool      // robots.txt or the home page: read for what it names
}

// add returns the candidate with key, and adds one at loc when there is
// none yet; fresh tells that it did.
func (d *discovery) add(loc, key string, found Found) (p *probe, fresh bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if p := d.byKey[key]; p != nil {
		return p, false
	}
	p = &probe{Candidate: Candidate{URL: loc, Found: found}, disc: d, key: key}
	d.byKey[key] = p
	d.cands = append(d.cands, p)
	return p, true
}

// nFound returns how many candidates have been found to be sitemaps.
func (d *discovery) nFound() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.found
}

// end sets what came of p, unless something has already.
func (p *probe) end(o Outcome, err error) {
	if p.Outcome == "" {
		p.Outcome, p.Err = o, err
	}
}

// document is the hook by which the discovery decides of its candidates
// as they are read: the documents it reads at level 0, and the robots.txt
// of the site, at level -1. An HTML page is none; a failure of a guess is
// not recorded; and what keep says becomes of one parsed.
func (disc *discovery) document(ch child, level int, d *doc) docHooks {
	if level > 0 {
		return docHooks{}
	}
	disc.mu.Lock()
	p := disc.byKey[ch.key]
	disc.mu.Unlock()
	if p == nil {
		return docHooks{}
	}
	return docHooks{
		body: func(r *bufio.Reader) error {
			if looksLikeHTML(r) {
				return errHTMLPage
			}
			return nil
		},
		failed: p.failed,
		keep:   func(final string) bool { return p.keep(d, final) },
	}
}

// failed notes that p's document failed with err, and reports whether the
// failure is to be recorded.
func (p *probe) failed(err error) bool {
	var perr *ParseError
	if errors.As(err, &perr) {
		p.end(OutcomeNotSitemap, err)
	} else {
		p.end(OutcomeFailed, err)
	}
	return !p.quiet
}

// keep decides, once p's document d has parsed, whether it is committed: a
// sitemap with the content of one found already (the same URLs and
// sitemaps, in the same order) is not, nor one past the sitemap limit, nor
// any sitemap of a call that only finds. A robots.txt gives its lines as
// candidates.
func (p *probe) keep(d *doc, final string) bool {
	p.FinalURL = final
	if p.source {
		p.end(OutcomeRead, nil)
		p.disc.addListed(d, FoundRobots, nil)
		return true
	}
	sum := yieldSum(d)
	disc := p.disc
	disc.mu.Lock()
	first, seen := disc.hashes[sum]
	// A well-known path is requested on the discovery's budget, and takes
	// its place against the sitemap limit once it is a sitemap.
	limited := !seen && p.Found == FoundWellKnown && !d.c.fetched.take()
	if !seen && !limited {
		disc.hashes[sum] = p.URL
		disc.found++
	}
	disc.mu.Unlock()
	switch {
	case seen:
		p.end(OutcomeDuplicate, errSameContent{first})
		d.c.s.updateDoc(d.node, func(n *Document) { n.Status, n.Err = StatusDuplicate, p.Err })
		return false
	case limited:
		d.c.limitSitemaps()
		p.end(OutcomeSkipped, errNotRead)
		return false
	}
	p.end(OutcomeSitemap, nil)
	if p.Found == FoundWellKnown {
		d.node = d.c.listFound(p)
	}
	if disc.findOnly {
		// Read to tell it is a sitemap, and no further.
		d.c.parsed(d, p.start, StatusParsed, nil)
		return false
	}
	return true
}

// yieldSum returns a digest of what the document d yielded: its URLs and
// the sitemaps it lists, in order. Two candidates that a catch-all server
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
	if p != nil && p.quiet {
		c.s.updateDoc(node, func(n *Document) { n.Errors = 0 })
	}
}

// addListed adds the sitemaps that d, a robots.txt or the links of the home
// page, lists as candidates, found as found tells (by key, when it is not
// nil); those d does not lead to are skipped.
func (disc *discovery) addListed(d *doc, found Found, foundOf map[string]Found) {
	add := func(loc, key string) *probe {
		how := found
		if f, ok := foundOf[key]; ok {
			how = f
		}
		p, _ := disc.add(loc, key, how)
		return p
	}
	for _, ch := range d.children {
		add(ch.loc, ch.key)
	}
	for i, sm := range d.sitemaps {
		if d.childKeys[d.keys[i]] {
			continue
		}
		why := errNotFollowed
		if d.c.followed(sm.Loc) {
			why = errSitemapsLimit(d.c.cfg.maxSitemaps) // addChild had no room for it
		}
		add(sm.Loc, d.keys[i]).end(OutcomeSkipped, why)
	}
}

// runDiscovery is runRoot for a discovery: c.root is the site, the root of
// the tree of the call, which robots.txt, the home page and the well-known
// paths found are children of.
func (c *call) runDiscovery() error {
	defer c.handCandidates()
	c.listed.Store(0) // the site is no document to read
	// The site is no document to request: its key is none of a URL's.
	c.disc.root = c.s.addRoot(c.root, "site "+c.root)
	origin, err := siteOrigin(c.root)
	if err != nil {
		verr := &ValidationError{URL: c.root, Err: err}
		c.record(verr)
		c.s.updateDoc(c.disc.root, func(n *Document) { n.Status, n.Err, n.Errors = StatusFailed, verr, 1 })
		return verr
	}
	c.s.updateDoc(c.disc.root, func(n *Document) { n.Status = StatusReading })
	page, origin := c.readHomePage(origin)
	children := c.readRobotsOf(origin)
	children = append(children, c.listLinks(page)...)
	c.follow(children, 0)
	c.wg.Wait()
	if !c.cfg.wellKnownFallback || c.disc.nFound() == 0 {
		c.probeWellKnown(origin)
	}
	c.wg.Wait()
	if c.cut.Load() && !c.stopped() {
		perr := &ParseError{URL: c.root, Err: c.ctx.Err()}
		c.record(perr)
		c.s.updateDoc(c.disc.root, func(n *Document) { n.Status, n.Err = StatusPartial, perr })
		return perr
	}
	c.s.updateDoc(c.disc.root, func(n *Document) { n.Status = StatusParsed })
	return nil
}

// siteOrigin returns the origin of the site at raw: its scheme and host.
func siteOrigin(raw string) (string, error) {
	if err := checkRootURL(raw); err != nil {
		return "", err
	}
	loc, err := urlnorm.Loc(raw, nil, false)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(loc)
	if err != nil {
		return "", err
	}
	return u.Scheme + "://" + u.Host, nil
}

// spend takes the place of one request of p from the discovery's budget;
// false, and p skipped, when it is spent.
func (c *call) spend(p *probe) bool {
	if c.ctx.Err() != nil {
		c.cut.Store(true)
		p.end(OutcomeSkipped, c.ctx.Err())
		return false
	}
	if !c.disc.budget.take() {
		p.end(OutcomeSkipped, errBudgetSpent{c.cfg.maxDiscoveryRequests})
		return false
	}
	return true
}

// source registers the robots.txt or the home page of the site, at loc, as
// a candidate of its own, and claims it, so that it is requested once. It
// returns the candidate and the document of the tree it is, a child of the
// site.
func (c *call) source(loc string, found Found) (*probe, child) {
	key := urlnorm.Key(loc)
	p, _ := c.disc.add(loc, key, found)
	p.source, p.quiet = true, true
	ch := child{loc: loc, key: key, node: -1, parent: c.disc.root, found: found}
	if !c.claim(key) {
		p.end(OutcomeSkipped, errKnownAlready)
		return p, ch
	}
	if c.spend(p) {
		ch.node = c.s.addFetched(ch)
		p.start = time.Now()
		c.s.updateDoc(ch.node, func(n *Document) { n.Status = StatusReading })
	}
	return p, ch
}

// fetchSource requests the source ch, robots.txt or the home page; it
// returns no body when there is none to read, and the tree and p say why.
func (c *call) fetchSource(p *probe, ch child) source {
	src, err := c.request(ch.loc)
	c.opened(ch.node, src, err, p.start)
	switch {
	case err != nil:
		p.end(OutcomeFailed, err)
		p.unrecorded(c, ch.node)
	case src.body == nil:
		p.end(OutcomeDuplicate, errRedirectedToKnown)
	default:
		p.FinalURL = src.resp.final
	}
	return src
}

// homePage is what the home page of a site announces.
type homePage struct {
	base    *url.URL // what its links are resolved against
	baseStr string
	links   []homeLink
	node    int // its place in the tree of the call
}

// homeLink is a sitemap or a feed a home page announces.
type homeLink struct {
	href  string
	found Found
}

// readHomePage reads the head of the home page of the site at origin, and
// returns what it announces and the origin of the site from then on: the
// one the request was redirected to, when the redirect is one of the
// origin's (see movedOrigin).
func (c *call) readHomePage(origin string) (homePage, string) {
	p, ch := c.source(origin+"/", FoundHomePage)
	if ch.node < 0 {
		return homePage{}, origin
	}
	src := c.fetchSource(p, ch)
	if src.body == nil {
		return homePage{}, origin
	}
	defer src.rc.Close()
	p.end(OutcomeRead, nil)
	page := scanHomePage(src.body, src.base(), src.resp.final)
	page.node = ch.node
	c.s.updateDoc(ch.node, func(n *Document) { n.Status, n.Duration = StatusParsed, time.Since(p.start) })
	return page, movedOrigin(origin, src.resp.final)
}

// movedOrigin returns the origin of final, where the home page of the site
// at origin was redirected to, when it is origin over https, or the same
// host with or without its www. label (on http, or over https); origin
// otherwise. A redirect to another site, or from https to http, leaves the
// origin as it is.
func movedOrigin(origin, final string) string {
	from, err1 := url.Parse(origin)
	to, err2 := url.Parse(final)
	if err1 != nil || err2 != nil || to.Host == "" {
		return origin
	}
	upgrade := from.Scheme == "http" && to.Scheme == "https"
	if to.Scheme != from.Scheme && !upgrade {
		return origin
	}
	// The port stays, or both are their scheme's default.
	if from.Port() != to.Port() && !(upgrade && from.Port() == "" && to.Port() == "") {
		return origin
	}
	a, b := strings.ToLower(from.Hostname()), strings.ToLower(to.Hostname())
	if a != b && strings.TrimPrefix(a, "www.") != strings.TrimPrefix(b, "www.") {
		return origin
	}
	return to.Scheme + "://" + to.Host
}

// scanHomePage reads the head of an HTML page, served from final, up to
// its </head> or its <body>, and no more than maxHomePageBytes, and
// returns the sitemaps and feeds its <link> elements announce, no more
// than maxHomePageLinks, with the base they are resolved against: the
// first <base href>, or final.
func scanHomePage(r io.Reader, base *url.URL, final string) homePage {
	page := homePage{base: base, baseStr: final}
	z := html.NewTokenizer(io.LimitReader(r, maxHomePageBytes))
	baseSet := false
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return page
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "head" {
				return page
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "body":
				return page
			case "base":
				if !baseSet && hasAttr {
					baseSet = page.setBase(tagAttrs(z)["href"])
				}
			case "link":
				if hasAttr && len(page.links) < maxHomePageLinks {
					if l, ok := linkOf(tagAttrs(z)); ok {
						page.links = append(page.links, l)
					}
				}
			}
		}
	}
}

// setBase makes href, resolved against the page's URL, the base of the
// page's links; false when there is no href, or it is no HTTP(S) URL.
func (page *homePage) setBase(href string) bool {
	if href == "" {
		return false
	}
	loc, err := urlnorm.Loc(href, page.base, false)
	if err != nil {
		return false
	}
	u, err := url.Parse(loc)
	if err != nil {
		return false
	}
	page.base, page.baseStr = u, loc
	return true
}

// tagAttrs returns the attributes of the tag z is at, by lower-case name;
// the first of a name wins, as in HTML.
func tagAttrs(z *html.Tokenizer) map[string]string {
	attrs := map[string]string{}
	for {
		k, v, more := z.TagAttr()
		if _, dup := attrs[string(k)]; !dup {
			attrs[string(k)] = string(v)
		}
		if !more {
			return attrs
		}
	}
}

// linkOf tells whether a <link> with attrs announces a sitemap (rel
// sitemap) or a feed (rel alternate, of type RSS or Atom).
func linkOf(attrs map[string]string) (homeLink, bool) {
	href := strings.TrimSpace(attrs["href"])
	if href == "" {
		return homeLink{}, false
	}
	kind, _, _ := strings.Cut(attrs["type"], ";")
	kind = strings.ToLower(strings.TrimSpace(kind))
	for _, rel := range strings.Fields(strings.ToLower(attrs["rel"])) {
		switch {
		case rel == "sitemap":
			return homeLink{href, FoundHomePage}, true
		case rel == "alternate" && (kind == "application/rss+xml" || kind == "application/atom+xml"):
			return homeLink{href, FoundFeed}, true
		}
	}
	return homeLink{}, false
}

// readRobotsOf reads the robots.txt of the site at origin, if it has one,
// as a robots.txt passed to Parse is read, and returns the sitemaps it
// leads to. One that is not there, or is an HTML page, is no error.
func (c *call) readRobotsOf(origin string) []child {
	p, ch := c.source(origin+"/robots.txt", FoundRobots)
	if ch.node < 0 {
		return nil
	}
	src := c.fetchSource(p, ch)
	if src.body == nil {
		return nil
	}
	children, _ := c.readSource(ch, src, -1, true, p.start)
	return children
}

// listLinks lists the sitemaps and feeds the home page announces, as the
// Sitemap: lines of a robots.txt at the page would be, and returns those
// to follow. The links are resolved against the page's base first: a
// relative href is an HTML page's own, in strict mode as well.
func (c *call) listLinks(page homePage) []child {
	if len(page.links) == 0 {
		return nil
	}
	d := newDoc(c, page.base, page.baseStr)
	d.format, d.node, d.found = formatRobots, page.node, FoundHomePage
	foundOf := map[string]Found{}
	var e rawEntry
	for _, l := range page.links {
		loc := l.href
		if abs, err := urlnorm.Loc(l.href, page.base, false); err == nil {
			loc = abs
		}
		if _, ok := foundOf[urlnorm.Key(loc)]; !ok {
			foundOf[urlnorm.Key(loc)] = l.found
		}
		e.reset(true, false)
		e.loc.set = true
		e.loc.append([]byte(loc))
		d.entry(&e)
	}
	c.commit(d, false)
	c.disc.addListed(d, FoundHomePage, foundOf)
	// The document lists them all as found on the home page: the feeds
	// are told apart in the tree as well.
	for i := range d.children {
		if ch := &d.children[i]; foundOf[ch.key] == FoundFeed {
			ch.found = FoundFeed
			c.s.updateDoc(ch.node, func(n *Document) { n.Found = FoundFeed })
		}
	}
	return d.children
}

// probeWellKnown tries the well-known paths on the site at origin, each
// that no document of the call has listed or requested, one after the
// other, and follows what each one found lists before the next is tried.
// A path is a document of the tree once it is found to be a sitemap.
func (c *call) probeWellKnown(origin string) {
	for _, path := range wellKnownPaths {
		loc := origin + path
		key := urlnorm.Key(loc)
		p, fresh := c.disc.add(loc, key, FoundWellKnown)
		if !fresh {
			continue // a candidate already, announced by the site
		}
		p.quiet = true
		switch {
		case c.isRequested(key) || c.s.hasSitemap(key):
			p.end(OutcomeSkipped, errKnownAlready)
			continue
		case !c.followed(loc):
			p.end(OutcomeSkipped, errNotFollowed)
			continue
		case !c.spend(p):
			continue
		case c.urls.full():
			c.limitURLs()
			p.end(OutcomeSkipped, errNotRead)
			return
		}
		c.claim(key)
		c.listed.Add(1)
		ch := child{loc: loc, key: key, node: -1, parent: c.disc.root, found: FoundWellKnown}
		children, _ := c.read(ch, nil, 0, false)
		c.follow(children, 1)
		c.wg.Wait()
	}
}

// readCandidate is the hook by which a discovery reads its candidates, at
// level 0 (a sitemap announced by the site, or a well-known path), itself
// rather than as call.read would: done is false at any other level.
func (c *call) readCandidate(ch child, level int, robots bool, start time.Time) (children []child, err error, done bool) {
	if level != 0 {
		return nil, nil, false
	}
	p, _ := c.disc.add(ch.loc, ch.key, ch.found)
	p.start = start
	src, err := c.request(ch.loc)
	c.opened(ch.node, src, err, p.start)
	if err != nil {
		if p.failed(err) {
			c.record(err)
		}
		return nil, err, true
	}
	if src.body == nil {
		p.end(OutcomeDuplicate, errRedirectedToKnown)
		return nil, nil, true
	}
	p.FinalURL = src.resp.final
	children, err = c.readSource(ch, src, 0, robots, p.start)
	return children, err, true
}

// listFound lists p, a well-known path found to be a sitemap, as the site
// would list it, and returns its place in the tree, where it is being
// read.
func (c *call) listFound(p *probe) int {
	site, _ := url.Parse(p.URL)
	if site == nil {
		site = &url.URL{}
	}
	d := newDoc(c, site, p.URL)
	d.format, d.node, d.found = formatRobots, c.disc.root, FoundWellKnown
	d.listSitemap(p.URL, p.key, nil)
	c.commit(d, true)
	node := c.s.docAt(p.key)
	c.s.updateDoc(node, func(n *Document) { n.Status, n.Err, n.FinalURL = StatusReading, nil, p.FinalURL })
	return node
}

// handCandidates hands the candidates of the discovery to the results,
// once the call has ended: one never requested by the time is skipped, or
// a duplicate when another document requested it first.
func (c *call) handCandidates() {
	disc := c.disc
	disc.mu.Lock()
	out := make([]Candidate, len(disc.cands))
	for i, p := range disc.cands {
		if p.Outcome == "" {
			if c.isRequested(p.key) {
				p.end(OutcomeDuplicate, errKnownAlready)
			} else {
				p.end(OutcomeSkipped, errNotRead)
			}
		}
		out[i] = p.Candidate
	}
	disc.mu.Unlock()
	c.s.setCandidates(out)
}

// looksLikeHTML reports whether the text at the start of r is an HTML page:
// it begins, after white space, with an HTML doctype or an <html>, <head>
// or <body> tag. A soft 404 is one.
func looksLikeHTML(r *bufio.Reader) bool {
	head, _ := r.Peek(64)
	head = bytes.TrimLeft(head, " \t\r\n")
	for _, start := range []string{"<!doctype html", "<html", "<head", "<body"} {
		if len(head) > len(start) && bytes.EqualFold(head[:len(start)], []byte(start)) {
			if c := head[len(start)]; c == '>' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '/' {
				return true
			}
		}
	}
	return false
}
