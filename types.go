package sitemap

import (
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"github.com/gositemap/sitemap/internal/dates"
)

// URL is a page that a sitemap lists: a <url> of a urlset, an item of an RSS
// feed, an entry of an Atom feed or a line of a text sitemap.
//
// The URLs that [S.GetURLs] returns are shared with the instance and must not
// be changed; [S.URLs] and [S.GetRandomURLs] yield copies that are the
// caller's own.
//
// URL and the types of its fields carry the encoding/xml struct tags of a
// <url> element, the extensions' elements under their namespaces, as in
// go-sitemap-parser v1.0.1: xml.Unmarshal reads a <url> into a URL and
// xml.Marshal writes one. The library itself reads documents with its own
// scanner, not through these tags.
type URL struct {
	// Loc is the location of the page, never empty. In tolerant mode it is
	// absolute, percent-encoded where needed and has its host in Punycode;
	// strict mode returns it as the document gives it.
	Loc string `xml:"loc"`
	// LastMod is when the page was last modified: the <lastmod> of a <url>,
	// the <pubDate> of an RSS item or the <updated> of an Atom entry. It is
	// nil when the document gives no date, an empty one or one that cannot
	// be parsed, and always for a text sitemap.
	LastMod *LastModTime `xml:"lastmod"`
	// ChangeFreq is the <changefreq> of a <url>, nil when there is none or
	// it is empty. Compare it with the ChangeFreq constants.
	ChangeFreq *URLChangeFreq `xml:"changefreq"`
	// Priority is the <priority> of a <url>, nil when there is none or it
	// cannot be parsed. An empty element reads as 0.
	Priority *float32 `xml:"priority"`
	// Images are the <image:image> elements of the page, nil when none.
	Images []Image `xml:"http://www.google.com/schemas/sitemap-image/1.1 image"`
	// News is the <news:news> element of the page, nil when none.
	News *News `xml:"http://www.google.com/schemas/sitemap-news/0.9 news"`
	// Videos are the <video:video> elements of the page, nil when none.
	Videos []Video `xml:"http://www.google.com/schemas/sitemap-video/1.1 video"`
	// Hreflangs are the <xhtml:link> alternates of the page, nil when none.
	Hreflangs []AlternateLink `xml:"http://www.w3.org/1999/xhtml link"`
	// Source is the sitemap the page was read from. It is not part of the
	// encoding/xml form of a <url>.
	Source Source `xml:"-"`
}

// Source tells which document of a call a [URL] was read from: the URL
// that document was requested as, the one passed to the call for the
// document given, or the location a robots.txt or an index listed for the
// others (not the URL a redirect led to: see [Document.FinalURL]).
//
// The URLs of one document share one record of it, which nothing can
// change, so a Source costs a URL the size of a pointer, and the copies
// that [S.URLs] and [S.GetRandomURLs] hand out share nothing that can
// change either. Two URLs read from one document have equal Sources. The
// zero Source names no document: that of a URL made by the caller, or read
// with encoding/xml.
type Source struct{ doc *docSource }

// docSource is the record of a document that the Sources of its URLs share
// (the URLs of each change theirs, with change detection on). It is never
// changed once made.
type docSource struct {
	url    string
	change Change
}

func newSource(url string) Source { return Source{&docSource{url: url}} }

// URL returns the URL the document was requested as, "" for the zero
// Source.
func (s Source) URL() string {
	if s.doc == nil {
		return ""
	}
	return s.doc.url
}

// String returns s.URL().
func (s Source) String() string { return s.URL() }

// MarshalText returns s.URL(), so that encoding/json writes a Source as
// its URL.
func (s Source) MarshalText() ([]byte, error) { return []byte(s.URL()), nil }

// UnmarshalText makes s a Source of its own for the URL text, the one that
// MarshalText wrote.
func (s *Source) UnmarshalText(text []byte) error {
	*s = Source{}
	if len(text) > 0 {
		*s = newSource(string(text))
	}
	return nil
}

// LastModTime is a date read from a document. It embeds [time.Time], so its
// methods (After, Before, Format, …) can be called on it directly.
//
// It implements [xml.Unmarshaler]; xml.Marshal writes it in the RFC 3339
// form of [time.Time.MarshalText], which UnmarshalXML reads back.
type LastModTime struct {
	time.Time
}

// UnmarshalXML reads the content of an element as a date in one of the
// forms a <lastmod> may take (the W3C Datetime profile of ISO 8601, RFC 3339
// among them), with the parser the library reads <lastmod> with. White
// space around the date is ignored. An element that is empty, or holds only
// white space, leaves t as it is and is no error, as in go-sitemap-parser
// v1.0.1; a date in another form, or not on the calendar, is an error.
func (t *LastModTime) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	var text string
	if err := d.DecodeElement(&text, &start); err != nil {
		return err
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	tm, ok := dates.ParseW3C(text)
	if !ok {
		return fmt.Errorf("invalid <%s> value %q", start.Name.Local, text)
	}
	t.Time = tm
	return nil
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
	Loc string `xml:"loc"`
	// LastMod is the <lastmod> of the sitemap's index entry, the latest one
	// when several documents list the sitemap. It is nil when no entry gives
	// a date that can be parsed, and for a sitemap only a robots.txt names.
	LastMod *LastModTime `xml:"lastmod"`
}

// Image is an <image:image> of a page (Google image sitemap extension).
type Image struct {
	Loc         string `xml:"http://www.google.com/schemas/sitemap-image/1.1 loc"`          // <image:loc>, the URL of the image; never empty
	Title       string `xml:"http://www.google.com/schemas/sitemap-image/1.1 title"`        // <image:title>
	Caption     string `xml:"http://www.google.com/schemas/sitemap-image/1.1 caption"`      // <image:caption>
	GeoLocation string `xml:"http://www.google.com/schemas/sitemap-image/1.1 geo_location"` // <image:geo_location>
	License     string `xml:"http://www.google.com/schemas/sitemap-image/1.1 license"`      // <image:license>, a URL
}

// News is the <news:news> of a page (Google News sitemap extension).
type News struct {
	Publication     NewsPublication `xml:"http://www.google.com/schemas/sitemap-news/0.9 publication"`      // <news:publication>
	PublicationDate *LastModTime    `xml:"http://www.google.com/schemas/sitemap-news/0.9 publication_date"` // <news:publication_date>; nil when absent, empty or not parseable
	Title           string          `xml:"http://www.google.com/schemas/sitemap-news/0.9 title"`            // <news:title>
}

// NewsPublication is the <news:publication> of a [News] entry.
type NewsPublication struct {
	Name     string `xml:"http://www.google.com/schemas/sitemap-news/0.9 name"`     // <news:name>
	Language string `xml:"http://www.google.com/schemas/sitemap-news/0.9 language"` // <news:language>, a BCP 47 code such as "en"
}

// Video is a <video:video> of a page (Google video sitemap extension).
type Video struct {
	ThumbnailLoc         string            `xml:"http://www.google.com/schemas/sitemap-video/1.1 thumbnail_loc"`         // <video:thumbnail_loc>; never empty
	Title                string            `xml:"http://www.google.com/schemas/sitemap-video/1.1 title"`                 // <video:title>
	Description          string            `xml:"http://www.google.com/schemas/sitemap-video/1.1 description"`           // <video:description>
	ContentLoc           string            `xml:"http://www.google.com/schemas/sitemap-video/1.1 content_loc"`           // <video:content_loc>, the URL of the video file
	PlayerLoc            string            `xml:"http://www.google.com/schemas/sitemap-video/1.1 player_loc"`            // <video:player_loc>, the URL of a player
	Duration             *int              `xml:"http://www.google.com/schemas/sitemap-video/1.1 duration"`              // <video:duration> in seconds
	ExpirationDate       *LastModTime      `xml:"http://www.google.com/schemas/sitemap-video/1.1 expiration_date"`       // <video:expiration_date>
	Rating               *float32          `xml:"http://www.google.com/schemas/sitemap-video/1.1 rating"`                // <video:rating>, 0.0 to 5.0
	ViewCount            *int              `xml:"http://www.google.com/schemas/sitemap-video/1.1 view_count"`            // <video:view_count>
	PublicationDate      *LastModTime      `xml:"http://www.google.com/schemas/sitemap-video/1.1 publication_date"`      // <video:publication_date>
	FamilyFriendly       string            `xml:"http://www.google.com/schemas/sitemap-video/1.1 family_friendly"`       // <video:family_friendly>, "yes" or "no"
	Restriction          *VideoRestriction `xml:"http://www.google.com/schemas/sitemap-video/1.1 restriction"`           // <video:restriction>
	Platform             *VideoPlatform    `xml:"http://www.google.com/schemas/sitemap-video/1.1 platform"`              // <video:platform>
	RequiresSubscription string            `xml:"http://www.google.com/schemas/sitemap-video/1.1 requires_subscription"` // <video:requires_subscription>, "yes" or "no"
	Uploader             *VideoUploader    `xml:"http://www.google.com/schemas/sitemap-video/1.1 uploader"`              // <video:uploader>
	Live                 string            `xml:"http://www.google.com/schemas/sitemap-video/1.1 live"`                  // <video:live>, "yes" or "no"
	Tags                 []string          `xml:"http://www.google.com/schemas/sitemap-video/1.1 tag"`                   // <video:tag>, in document order
}

// VideoRestriction is the <video:restriction> of a [Video]: the countries
// where it may or may not be shown.
type VideoRestriction struct {
	Relationship string `xml:"relationship,attr"` // the relationship attribute, "allow" or "deny"
	Value        string `xml:",chardata"`         // country codes separated by spaces
}

// VideoPlatform is the <video:platform> of a [Video]: the platforms where it
// may or may not be shown.
type VideoPlatform struct {
	Relationship string `xml:"relationship,attr"` // the relationship attribute, "allow" or "deny"
	Value        string `xml:",chardata"`         // platforms separated by spaces, such as "web mobile tv"
}

// VideoUploader is the <video:uploader> of a [Video].
type VideoUploader struct {
	Value string `xml:",chardata"` // the name of the uploader
	Info  string `xml:"info,attr"` // the info attribute, a URL of the uploader's page
}

// AlternateLink is an <xhtml:link> of a page: a version of it in another
// language or for another region.
type AlternateLink struct {
	Rel      string `xml:"rel,attr"`      // the rel attribute, "alternate"
	Hreflang string `xml:"hreflang,attr"` // the hreflang attribute, such as "en" or "de-ch"
	Href     string `xml:"href,attr"`     // the href attribute, the URL of the version; never empty
}
