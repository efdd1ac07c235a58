package sitemap

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"iter"
	"sync"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is discovery's API: Discover and DiscoverStream, their
// options, and the start of their call. From a site, a discovery finds the
// sitemaps the site has (the Sitemap: lines of its robots.txt, the <link>
// elements of its home page, the paths that generators write to) and hands
// them to the call as if they were the Sitemap: lines of one robots.txt at
// the site: listed, at level 0, under the follow rules and the limits of
// the call. The call then goes on as any other (scheduler.go). Every place
// it tries is a document of the tree (tree.go), whose Status tells what
// came of it. How it reads them is in discover_read.go.

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

// DiscoverOptions are the settings of one discovery ([S.Discover],
// [S.DiscoverStream]) beyond those of the instance, which it honours as
// Parse does. A nil *DiscoverOptions is the zero value: every field's
// default.
type DiscoverOptions struct {
	// MaxRequests is how many requests the discovery makes of its own at
	// most: those of the home page, of robots.txt and of the well-known
	// paths, which [S.SetMaxSitemaps] does not count. The sitemaps the
	// site announces are not among them: they count against the sitemap
	// limit, as those of a robots.txt do. 0 is
	// the default, 32, room for all of them; a negative
	// value is a *ConfigError of the field "discover.maxRequests". The
	// places left untried are documents with StatusLimited.
	MaxRequests int
	// WellKnownFallback, when set, tries the well-known paths only when the
	// robots.txt and the home page of the site announce no sitemap that
	// can be read. By default they are always tried, since a robots.txt
	// that names one sitemap of several is common.
	WellKnownFallback bool
}

// The causes of the Err of a document of a discovery that is no error of
// the call.
var (
	errHTMLPage          = errors.New("not a sitemap: an HTML page")
	errRedirectedToKnown = errors.New("redirected to a document requested already")
	errKnownAlready      = errors.New("listed or requested already by another document of the call")
)

// errSameContent is the Err of a sitemap found with the content of one
// found before it, at as.
func errSameContent(as string) error { return errors.New("the same content as " + as) }

// errBudgetSpent is the Err of a place left untried for the budget.
func errBudgetSpent(budget int) error {
	return fmt.Errorf("the discovery's budget of %d requests is spent", budget)
}

// Discover finds the sitemaps of site, then reads them as Parse reads the
// sitemaps a robots.txt names. site is an origin, such as
// https://example.com, or any URL of the site: only its scheme and host
// are used. o may be nil.
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
// are tried, unless o.WellKnownFallback asks for them only when nothing
// announced was a sitemap: a path that a document of the call has listed
// or requested is not requested again, and one that fails, answers with an
// HTML page or with a sitemap found already (the same final URL, or the
// same URLs and sitemaps) is no sitemap, counts against no limit of the
// call and is reported nowhere but in [S.GetDocuments]. A well-known path
// that is a sitemap is listed and read like the announced ones. The home
// page, robots.txt and the well-known paths are requested within a budget
// of their own, o.MaxRequests; every request goes through the client, the
// timeout and the user agent of the call, each place at most once.
//
// Every place the discovery tries is a document of [S.GetDocuments]: the
// site is the root, its home page (FormatHTML) and robots.txt are its
// children, the sitemaps each announces theirs, and each well-known path
// is a child of the site. Found tells how each was come to (FoundRobots,
// FoundHomePage, FoundFeed, FoundWellKnown), and Status what came of it:
// StatusParsed or StatusPartial for a sitemap found, StatusFailed for a
// request that failed, StatusNotSitemap for an HTML page or a document
// that does not parse, StatusDuplicate for a sitemap found already,
// StatusLimited or StatusNotFollowed for one not requested. With
// [Selection.RootOnly] the discovery finds without reading further: each place
// is read to tell whether it is a sitemap, and what the sitemaps found
// list is listed, not fetched.
//
// The error returned is a *ValidationError when site is no HTTP or HTTPS
// URL with a host, the *ParseError naming site of a call that ctx cut
// short, a *ConfigError for o, or an untyped error while a *ConfigError
// of a setter is outstanding; finding no sitemap is no error
// (GetDocuments tells what was tried). The errors of the call's limits
// name site. Discover returns s, as Parse does.
func (s *S) Discover(ctx context.Context, site string, o *DiscoverOptions) (*S, error) {
	disc, err := newDiscovery(o)
	if err != nil {
		return s, err
	}
	c, err := s.begin(ctx, site)
	defer s.parsing.Unlock()
	if err != nil {
		return s, err
	}
	disc.start(c)
	err = c.run(nil)
	c.endStore()
	c.raise()
	return s, err
}

// DiscoverStream runs the same call as [S.Discover] and hands the URLs of
// the sitemaps it finds to the loop, as [S.Stream] does for Parse: the
// URLs are not kept, every error the call records is handed on, and
// breaking out of the loop ends the call. A sitemap found by the
// discovery is handed on once it is read whole, since it is compared with
// those found before it (a catch-all server answers every path with the
// same one); what the sitemaps found list is streamed as Stream streams
// it. [S.GetDocuments] tells, during the loop and after it, what was
// tried. A *ConfigError for o is handed to the loop, alone.
func (s *S) DiscoverStream(ctx context.Context, site string, o *DiscoverOptions) iter.Seq2[URL, error] {
	disc, err := newDiscovery(o)
	if err != nil {
		return func(yield func(URL, error) bool) { yield(URL{}, err) }
	}
	return s.stream(ctx, site, func() io.Reader { return nil }, disc.start)
}

// discovery is the state of the discovery of a call: its budget, its
// settings, and the content of the sitemaps found.
type discovery struct {
	budget   counter // the discovery's own requests
	maxReq   int
	fallback bool
	rootOnly bool // Selection.RootOnly: read the places, follow nothing they list

	mu      sync.Mutex
	hashes  map[[sha256.Size]byte]string // content of a sitemap found → its URL
	found   int                          // places found to be sitemaps
	reading map[string]*probe            // the places being read, by key

	root int // the place of the site in the tree of the call
	home int // the place of its home page, -1 until it is read

	c *call // the call whose root the site is
}

// newDiscovery checks o and returns the discovery it asks for.
func newDiscovery(o *DiscoverOptions) (*discovery, error) {
	if o == nil {
		o = &DiscoverOptions{}
	}
	if err := nonNegative("max discovery requests", o.MaxRequests)(); err != nil {
		return nil, &ConfigError{Field: "discover.maxRequests", Err: err}
	}
	n := o.MaxRequests
	if n == 0 {
		n = defaultMaxDiscoveryRequests
	}
	return &discovery{maxReq: n, budget: counter{limit: int64(n)}, fallback: o.WellKnownFallback,
		home: -1, hashes: map[[sha256.Size]byte]string{}, reading: map[string]*probe{}}, nil
}

// start makes c, a call just begun, the call of the discovery.
func (disc *discovery) start(c *call) {
	disc.c = c
	// What the sitemaps found list is not fetched: they are the documents
	// given, and the places that name them are read all the same.
	disc.rootOnly, c.cfg.noFollow = c.cfg.noFollow, false
	c.attach(hooks{root: disc.run, instead: disc.readCandidate, document: disc.document})
	// A redirect to the home page, or to a sitemap read already, is not
	// followed: a site that sends every path home costs one request a path.
	c.f.stopRedirectsTo(func(loc string) bool { return c.isRequested(urlnorm.Key(loc)) })
}
