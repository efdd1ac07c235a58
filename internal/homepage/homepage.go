// Package homepage reads the head of a site's home page for the sitemaps
// and the feeds it announces: its <link rel="sitemap"> elements, its RSS
// and Atom feeds (<link rel="alternate"> of type application/rss+xml or
// application/atom+xml), resolved against its <base href>.
//
// It is the home-page scanner of the sitemap package's discovery, built on
// golang.org/x/net/html's tokenizer. It knows nothing of requests or of
// sitemaps: it is handed the body of a page and the URL it came from.
package homepage

import (
	"io"
	"net/url"
	"strings"

	"golang.org/x/net/html"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// The bounds of the reading of a page.
const (
	// MaxBytes is how much of a page is read at most, when its </head>
	// does not come first: 1 MiB, many times the head of any real page.
	MaxBytes = 1 << 20
	// MaxLinks is how many of the sitemaps and feeds a page announces are
	// taken at most, in the order of the page.
	MaxLinks = 20
)

// Page is what the head of a page announces.
type Page struct {
	// Base is what its links are resolved against: the first <base href>
	// that is an HTTP or HTTPS URL, or the URL the page came from.
	Base    *url.URL
	BaseStr string
	// Links are the sitemaps and feeds it announces, in its order.
	Links []Link
}

// Link is a sitemap or a feed a page announces.
type Link struct {
	// URL is the href, resolved against the page's base and normalised as
	// the sitemap package requests a location; the href as written when
	// it cannot be.
	URL string
	// Feed tells an RSS or Atom feed from a <link rel="sitemap">.
	Feed bool
}

// Scan reads the head of the page r, served from final (base is final
// parsed), up to its </head> or its <body> and no further than MaxBytes,
// and returns the sitemaps and feeds its <link> elements announce, no more
// than MaxLinks.
func Scan(r io.Reader, base *url.URL, final string) Page {
	page := Page{Base: base, BaseStr: final}
	z := html.NewTokenizer(io.LimitReader(r, MaxBytes))
	baseSet := false
	for {
		switch z.Next() {
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
				if hasAttr && len(page.Links) < MaxLinks {
					if href, feed, ok := linkOf(tagAttrs(z)); ok {
						page.Links = append(page.Links, Link{URL: page.resolve(href), Feed: feed})
					}
				}
			}
		}
	}
}

// resolve returns href resolved against the page's base, or href itself
// when it cannot be: the caller tells what is wrong with it.
func (page *Page) resolve(href string) string {
	if loc, err := urlnorm.Loc(href, page.Base, false); err == nil {
		return loc
	}
	return href
}

// setBase makes href, resolved against the page's URL, the base of the
// page's links; false when there is no href, or it is no HTTP(S) URL.
func (page *Page) setBase(href string) bool {
	if href == "" {
		return false
	}
	loc, err := urlnorm.Loc(href, page.Base, false)
	if err != nil {
		return false
	}
	u, err := url.Parse(loc)
	if err != nil {
		return false
	}
	page.Base, page.BaseStr = u, loc
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
// sitemap) or a feed (rel alternate, of type RSS or Atom), and returns its
// href.
func linkOf(attrs map[string]string) (href string, feed, ok bool) {
	href = strings.TrimSpace(attrs["href"])
	if href == "" {
		return "", false, false
	}
	kind, _, _ := strings.Cut(attrs["type"], ";")
	kind = strings.ToLower(strings.TrimSpace(kind))
	for _, rel := range strings.Fields(strings.ToLower(attrs["rel"])) {
		switch {
		case rel == "sitemap":
			return href, false, true
		case rel == "alternate" && (kind == "application/rss+xml" || kind == "application/atom+xml"):
			return href, true, true
		}
	}
	return "", false, false
}
