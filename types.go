package sitemap

import "time"

// URL is a page that a sitemap lists: a <url> of a urlset, an item of an RSS
// feed, an entry of an Atom feed or a line of a text sitemap.
//
// The URLs that [S.GetURLs] returns are shared with the instance and must not
// be changed; [S.URLs] and [S.GetRandomURLs] yield copies that are the
// caller's own.
type URL struct {
	// Loc is the location of the page, never empty. In tolerant mode it is
	// absolute, percent-encoded where needed and has its host in Punycode;
	// strict mode returns it as the document gives it.
	Loc string
	// LastMod is when the page was last modified: the <lastmod> of a <url>,
	// the <pubDate> of an RSS item or the <updated> of an Atom entry. It is
	// nil when the document gives no date, an empty one or one that cannot
	// be parsed, and always for a text sitemap.
	LastMod *LastModTime
	// ChangeFreq is the <changefreq> of a <url>, nil when there is none or
	// it is empty. Compare it with the ChangeFreq constants.
	ChangeFreq *URLChangeFreq
	// Priority is the <priority> of a <url>, nil when there is none or it
	// cannot be parsed. An empty element reads as 0.
	Priority *float32
	// Images are the <image:image> elements of the page, nil when none.
	Images []Image
	// News is the <news:news> element of the page, nil when none.
	News *News
	// Videos are the <video:video> elements of the page, nil when none.
	Videos []Video
	// Hreflangs are the <xhtml:link> alternates of the page, nil when none.
	Hreflangs []AlternateLink
}

// LastModTime is a date read from a document. It embeds [time.Time], so its
// methods (After, Before, Format, …) can be called on it directly.
type LastModTime struct {
	time.Time
}

// URLChangeFreq is how often a page is likely to change, as a sitemap's
// <changefreq> says.
type URLChangeFreq string

// The values of <changefreq> that the sitemaps.org protocol defines.
const (
	ChangeFreqAlways  URLChangeFreq = "always"
	ChangeFreqHourly  URLChangeFreq = "hourly"
	ChangeFreqDaily   URLChangeFreq = "daily"
	ChangeFreqWeekly  URLChangeFreq = "weekly"
	ChangeFreqMonthly URLChangeFreq = "monthly"
	ChangeFreqYearly  URLChangeFreq = "yearly"
	ChangeFreqNever   URLChangeFreq = "never"
)

// Sitemap is a sitemap that a document of a call lists: a Sitemap: line of
// a robots.txt or a <sitemap> entry of a sitemap index. See [S.GetSitemaps].
type Sitemap struct {
	// Loc is the URL the sitemap is requested by, never empty. In tolerant
	// mode it is resolved and percent-encoded, with its host in Punycode;
	// strict mode returns it as the document gives it.
	Loc string
	// LastMod is the <lastmod> of the sitemap's index entry, the latest one
	// when several documents list the sitemap. It is nil when no entry gives
	// a date that can be parsed, and for a sitemap only a robots.txt names.
	LastMod *LastModTime
}

// Image is an <image:image> of a page (Google image sitemap extension).
type Image struct {
	Loc         string // <image:loc>, the URL of the image; never empty
	Title       string // <image:title>
	Caption     string // <image:caption>
	GeoLocation string // <image:geo_location>
	License     string // <image:license>, a URL
}

// News is the <news:news> of a page (Google News sitemap extension).
type News struct {
	Publication     NewsPublication // <news:publication>
	PublicationDate *LastModTime    // <news:publication_date>; nil when absent, empty or not parseable
	Title           string          // <news:title>
}

// NewsPublication is the <news:publication> of a [News] entry.
type NewsPublication struct {
	Name     string // <news:name>
	Language string // <news:language>, a BCP 47 code such as "en"
}

// Video is a <video:video> of a page (Google video sitemap extension).
type Video struct {
	ThumbnailLoc         string            // <video:thumbnail_loc>; never empty
	Title                string            // <video:title>
	Description          string            // <video:description>
	ContentLoc           string            // <video:content_loc>, the URL of the video file
	PlayerLoc            string            // <video:player_loc>, the URL of a player
	Duration             *int              // <video:duration> in seconds
	ExpirationDate       *LastModTime      // <video:expiration_date>
	Rating               *float32          // <video:rating>, 0.0 to 5.0
	ViewCount            *int              // <video:view_count>
	PublicationDate      *LastModTime      // <video:publication_date>
	FamilyFriendly       string            // <video:family_friendly>, "yes" or "no"
	Restriction          *VideoRestriction // <video:restriction>
	Platform             *VideoPlatform    // <video:platform>
	RequiresSubscription string            // <video:requires_subscription>, "yes" or "no"
	Uploader             *VideoUploader    // <video:uploader>
	Live                 string            // <video:live>, "yes" or "no"
	Tags                 []string          // <video:tag>, in document order
}

// VideoRestriction is the <video:restriction> of a [Video]: the countries
// where it may or may not be shown.
type VideoRestriction struct {
	Relationship string // the relationship attribute, "allow" or "deny"
	Value        string // country codes separated by spaces
}

// VideoPlatform is the <video:platform> of a [Video]: the platforms where it
// may or may not be shown.
type VideoPlatform struct {
	Relationship string // the relationship attribute, "allow" or "deny"
	Value        string // platforms separated by spaces, such as "web mobile tv"
}

// VideoUploader is the <video:uploader> of a [Video].
type VideoUploader struct {
	Value string // the name of the uploader
	Info  string // the info attribute, a URL of the uploader's page
}

// AlternateLink is an <xhtml:link> of a page: a version of it in another
// language or for another region.
type AlternateLink struct {
	Rel      string // the rel attribute, "alternate"
	Hreflang string // the hreflang attribute, such as "en" or "de-ch"
	Href     string // the href attribute, the URL of the version; never empty
}
