package sitemap

// Found tells how a document of a call came to be read: the one passed to
// the call, one a robots.txt or an index lists, or one a discovery found.
//
// The lead's tree of a call defines this type and its first three values;
// this file stands in for it until that is merged, and goes then.
type Found string

// The ways a document is found.
const (
	// FoundRoot is the document passed to the call.
	FoundRoot Found = "root"
	// FoundRobots is a sitemap that a Sitemap: line of a robots.txt names,
	// or a robots.txt that a discovery read.
	FoundRobots Found = "robots"
	// FoundIndex is a sitemap that a sitemap index lists.
	FoundIndex Found = "index"
	// FoundWellKnown is a sitemap that a discovery found at one of the
	// paths sitemap generators write to, such as /sitemap.xml.
	FoundWellKnown Found = "well-known"
	// FoundHomePage is a sitemap that a <link rel="sitemap"> of the site's
	// home page names, or the home page a discovery read.
	FoundHomePage Found = "home-page"
	// FoundFeed is an RSS or Atom feed that the site's home page announces
	// with a <link rel="alternate">.
	FoundFeed Found = "feed"
)
