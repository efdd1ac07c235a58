package sitemap_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// The tests of the extensions: images, news, videos and alternate links.
// Each document is a urlset at extSitemap with one page, extPage, that
// holds the extension elements of the case.

const (
	extSitemap = "https://example.com/sitemap.xml"
	extPage    = "https://example.com/page"
)

const extHead = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
`

// extDoc returns a urlset whose one <url> is extPage with ext in it.
func extDoc(ext string) string {
	return extHead + "<url>\n<loc>" + extPage + "</loc>\n" + ext + "\n</url>\n</urlset>\n"
}

// extMode is the modes a case holds in.
type extMode uint8

const (
	extTolerant extMode = 1 << iota
	extStrict
	extBoth = extTolerant | extStrict
)

func (m extMode) modes() []bool {
	var out []bool
	if m&extTolerant != 0 {
		out = append(out, false)
	}
	if m&extStrict != 0 {
		out = append(out, true)
	}
	return out
}

func extModeName(strict bool) string {
	if strict {
		return "strict"
	}
	return "tolerant"
}

// extParse parses doc at extSitemap and returns the instance, failing the
// test when Parse fails.
func extParse(t *testing.T, strict bool, doc string) *sitemap.S {
	t.Helper()
	s, err := sitemap.New().SetStrict(strict).Parse(extSitemap, &doc)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

// extErrors returns the errors of s, each of which has to be a
// *ValidationError: the extensions never cost more than their entry.
func extErrors(t *testing.T, s *sitemap.S) (msgs, urls []string) {
	t.Helper()
	for _, err := range s.GetErrors() {
		var ve *sitemap.ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("error %v (%T) is no *ValidationError", err, err)
			continue
		}
		msgs = append(msgs, err.Error())
		urls = append(urls, ve.URL)
	}
	return msgs, urls
}

// extPageOf returns the one URL of s, which has to be extPage.
func extPageOf(t *testing.T, s *sitemap.S) sitemap.URL {
	t.Helper()
	urls := s.GetURLs()
	if len(urls) != 1 || urls[0].Loc != extPage {
		t.Fatalf("GetURLs() = %d URLs %v, want the page %s alone", len(urls), urls, extPage)
	}
	return urls[0]
}

func extInt(n int) *int         { return &n }
func extF32(f float32) *float32 { return &f }

func extTime(s string) *sitemap.LastModTime {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return &sitemap.LastModTime{Time: t}
}

// extDiff tells how the extensions of got differ from those of want; dates
// are compared as instants.
func extDiff(got, want sitemap.URL) string {
	var d []string
	if !reflect.DeepEqual(got.Images, want.Images) {
		d = append(d, fmt.Sprintf("Images = %+v, want %+v", got.Images, want.Images))
	}
	if !reflect.DeepEqual(got.Hreflangs, want.Hreflangs) {
		d = append(d, fmt.Sprintf("Hreflangs = %+v, want %+v", got.Hreflangs, want.Hreflangs))
	}
	switch {
	case (got.News == nil) != (want.News == nil):
		d = append(d, fmt.Sprintf("News = %+v, want %+v", got.News, want.News))
	case got.News != nil:
		if !extSameTime(got.News.PublicationDate, want.News.PublicationDate) {
			d = append(d, fmt.Sprintf("News.PublicationDate = %v, want %v", got.News.PublicationDate, want.News.PublicationDate))
		}
		g, w := *got.News, *want.News
		g.PublicationDate, w.PublicationDate = nil, nil
		if g != w {
			d = append(d, fmt.Sprintf("News = %+v, want %+v", g, w))
		}
	}
	if len(got.Videos) != len(want.Videos) || (got.Videos == nil) != (want.Videos == nil) {
		d = append(d, fmt.Sprintf("%d Videos %v, want %d %v", len(got.Videos), got.Videos, len(want.Videos), want.Videos))
	} else {
		for i := range got.Videos {
			if s := extVideoDiff(got.Videos[i], want.Videos[i]); s != "" {
				d = append(d, fmt.Sprintf("Videos[%d]: %s", i, s))
			}
		}
	}
	return strings.Join(d, "\n")
}

func extSameTime(a, b *sitemap.LastModTime) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(b.Time)
}

func extVideoDiff(got, want sitemap.Video) string {
	var d []string
	if !extSameTime(got.ExpirationDate, want.ExpirationDate) {
		d = append(d, fmt.Sprintf("ExpirationDate = %v, want %v", got.ExpirationDate, want.ExpirationDate))
	}
	if !extSameTime(got.PublicationDate, want.PublicationDate) {
		d = append(d, fmt.Sprintf("PublicationDate = %v, want %v", got.PublicationDate, want.PublicationDate))
	}
	got.ExpirationDate, got.PublicationDate, want.ExpirationDate, want.PublicationDate = nil, nil, nil, nil
	if !reflect.DeepEqual(got, want) {
		d = append(d, fmt.Sprintf("\n got %s\nwant %s", extShowVideo(got), extShowVideo(want)))
	}
	return strings.Join(d, "; ")
}

// extShowVideo writes v with what its pointers point to.
func extShowVideo(v sitemap.Video) string {
	p := func(x any) string {
		rv := reflect.ValueOf(x)
		if rv.IsNil() {
			return "nil"
		}
		return fmt.Sprintf("%+v", rv.Elem().Interface())
	}
	return fmt.Sprintf("{ThumbnailLoc:%q Title:%q Description:%q ContentLoc:%q PlayerLoc:%q Duration:%s Rating:%s ViewCount:%s "+
		"FamilyFriendly:%q Restriction:%s Platform:%s RequiresSubscription:%q Uploader:%s Live:%q Tags:%q}",
		v.ThumbnailLoc, v.Title, v.Description, v.ContentLoc, v.PlayerLoc, p(v.Duration), p(v.Rating), p(v.ViewCount),
		v.FamilyFriendly, p(v.Restriction), p(v.Platform), v.RequiresSubscription, p(v.Uploader), v.Live, v.Tags)
}

// extPageErr is the message of a *ValidationError about the page.
func extPageErr(cause string) string { return fmt.Sprintf("validate %q: %s", extPage, cause) }

// extURLErr is the message of a *ValidationError about the URL u.
func extURLErr(u, cause string) string { return fmt.Sprintf("validate %q: %s", u, cause) }

// extCase is a page with extension elements, and what it yields.
type extCase struct {
	name string
	mode extMode
	ext  string      // the extension elements of the page
	want sitemap.URL // the extensions the page comes back with (Loc unused)
	errs []string    // the messages of GetErrors(), in order
}

func extRun(t *testing.T, cases []extCase) {
	t.Helper()
	for _, tc := range cases {
		for _, strict := range tc.mode.modes() {
			t.Run(extModeName(strict)+"/"+tc.name, func(t *testing.T) {
				s := extParse(t, strict, extDoc(tc.ext))
				msgs, _ := extErrors(t, s)
				if !reflect.DeepEqual(msgs, tc.errs) {
					t.Errorf("errors:\n got %q\nwant %q", msgs, tc.errs)
				}
				if d := extDiff(extPageOf(t, s), tc.want); d != "" {
					t.Error(d)
				}
			})
		}
	}
}

func TestExtensionImages(t *testing.T) {
	long := "https://cdn.example.com/" + strings.Repeat("a", 2048-len("https://cdn.example.com/"))
	extRun(t, []extCase{
		{
			// IMAGE-1, IMAGE-2, VALUE-8, GETURLS-14
			name: "every field, values on lines of their own",
			mode: extBoth,
			ext: `<image:image>
				<image:loc>
					https://cdn.example.com/a.jpg
				</image:loc>
				<image:title>  Summer  </image:title>
				<image:caption>
					A caption
					on two lines
				</image:caption>
				<image:geo_location>	Limerick, Ireland	</image:geo_location>
				<image:license>
					https://example.com/license
				</image:license>
			</image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{
				Loc:         "https://cdn.example.com/a.jpg",
				Title:       "Summer",
				Caption:     "A caption\n\t\t\t\t\ton two lines",
				GeoLocation: "Limerick, Ireland",
				License:     "https://example.com/license",
			}}},
		},
		{
			// IMAGE-1, GETURLS-16 (document order), ADOPTED-8
			name: "several images in document order, escapes of both layers",
			mode: extBoth,
			ext: `<image:image><image:loc>https://cdn.example.com/1.jpg?w=1&amp;h=2</image:loc><image:title><![CDATA[One & <two>]]></image:title></image:image>
				<image:image><image:loc>https://cdn.example.com/2.jpg?q=a%26b</image:loc></image:image>
				<image:image><image:loc>https://cdn.example.com/3.jpg</image:loc><image:caption>caf&#233;</image:caption></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{
				{Loc: "https://cdn.example.com/1.jpg?w=1&h=2", Title: "One & <two>"},
				{Loc: "https://cdn.example.com/2.jpg?q=a%26b"},
				{Loc: "https://cdn.example.com/3.jpg", Caption: "café"},
			}},
		},
		{
			// IMAGE-3, VALUE-9: an image without a location, or with one of
			// white space only, is left out without a word.
			name: "image without loc dropped silently",
			mode: extTolerant,
			ext: `<image:image><image:title>no loc</image:title></image:image>
				<image:image><image:loc>
				</image:loc></image:image>
				<image:image><image:loc></image:loc></image:image>
				<image:image><image:loc>https://cdn.example.com/kept.jpg</image:loc></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{Loc: "https://cdn.example.com/kept.jpg"}}},
		},
		{
			// IMAGE-3, GETURLS-13: a page whose every image is left out has
			// none.
			name: "page whose only image has no loc has no images",
			mode: extTolerant,
			ext:  `<image:image><image:title>t</image:title></image:image>`,
			want: sitemap.URL{},
		},
		{
			// IMAGE-4, EXTURL-7
			name: "image without loc reported against the page",
			mode: extStrict,
			ext: `<image:image><image:title>no loc</image:title></image:image>
				<image:image><image:loc>  </image:loc></image:image>
				<image:image><image:loc>https://cdn.example.com/kept.jpg</image:loc></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{Loc: "https://cdn.example.com/kept.jpg"}}},
			errs: []string{
				extPageErr("strict mode: image <loc> is empty"),
				extPageErr("strict mode: image <loc> is empty"),
			},
		},
		{
			// EXTURL-3: the image is left out, the page is kept.
			name: "image loc with a space",
			mode: extStrict,
			ext: `<image:image><image:loc>https://cdn.example.com/summer sale.jpg</image:loc></image:image>
				<image:image><image:loc>https://cdn.example.com/kept.jpg</image:loc></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{Loc: "https://cdn.example.com/kept.jpg"}}},
			errs: []string{extURLErr("https://cdn.example.com/summer sale.jpg", "strict mode: URL contains a space")},
		},
		{
			// EXTURL-1, EXTURL-14, STRICT-6: any host; returned as written.
			name: "image on another host, with a non-ASCII path, as written",
			mode: extStrict,
			ext:  `<image:image><image:loc>https://CDN.example.org/café.jpg</image:loc></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{Loc: "https://CDN.example.org/café.jpg"}}},
		},
		{
			// EXTURL-5, EXTURL-6: the licence is reported, the image kept
			// with the licence as written.
			name: "license that strict mode does not accept",
			mode: extStrict,
			ext: `<image:image><image:loc>https://cdn.example.com/a.jpg</image:loc>
				<image:license>ftp://example.com/license</image:license></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{Loc: "https://cdn.example.com/a.jpg", License: "ftp://example.com/license"}}},
			errs: []string{extURLErr("ftp://example.com/license", `strict mode: unsupported scheme "ftp"`)},
		},
		{
			// EXTURL-13: a licence that is no URL costs nothing in
			// tolerant mode.
			name: "license that is no URL kept as written",
			mode: extTolerant,
			ext: `<image:image><image:loc>https://cdn.example.com/a.jpg</image:loc>
				<image:license>CC BY 4.0</image:license></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{Loc: "https://cdn.example.com/a.jpg", License: "CC BY 4.0"}}},
		},
		{
			// EXTURL-15 (decision): tolerant mode asks of the URL an item is
			// known by that it has at most 2,048 characters; one of exactly
			// 2,048 is kept.
			name: "image loc of 2,048 characters kept",
			mode: extBoth,
			ext:  `<image:image><image:loc>` + long + `</image:loc></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{Loc: long}}},
		},
		{
			// EXTURL-15 (decision): one character more, and the image is
			// left out and reported, naming its URL.
			name: "image loc of 2,049 characters left out",
			mode: extTolerant,
			ext:  `<image:image><image:loc>` + long + `x</image:loc></image:image>`,
			want: sitemap.URL{},
			errs: []string{extURLErr(long+"x", "URL is longer than 2,048 characters")},
		},
		{
			// EXTURL-15 (decision): characters count, not bytes: 2,048
			// characters that take more bytes are kept, as written since
			// they would be longer than 2,048 percent-encoded (EXTURL-12).
			name: "image loc of 2,048 non-ASCII characters kept as written",
			mode: extTolerant,
			ext:  `<image:image><image:loc>` + long[:2000] + strings.Repeat("é", 48) + `</image:loc></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{Loc: long[:2000] + strings.Repeat("é", 48)}}},
		},
		{
			// EXTURL-15 (decision): the URLs an item need not give have no
			// length limit in tolerant mode: returned as written.
			name: "license longer than 2,048 characters kept",
			mode: extTolerant,
			ext: `<image:image><image:loc>https://cdn.example.com/a.jpg</image:loc>
				<image:license>` + long + `x</image:license></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{Loc: "https://cdn.example.com/a.jpg", License: long + "x"}}},
		},
		{
			// IMAGE-5: Title, Caption and GeoLocation are not checked.
			name: "optional fields absent",
			mode: extBoth,
			ext:  `<image:image><image:loc>https://cdn.example.com/a.jpg</image:loc><image:title/><image:caption></image:caption></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{Loc: "https://cdn.example.com/a.jpg"}}},
		},
		{
			// The first of a repeated child is the one kept.
			name: "repeated child, the first kept",
			mode: extBoth,
			ext: `<image:image><image:loc>https://cdn.example.com/1.jpg</image:loc><image:loc>https://cdn.example.com/2.jpg</image:loc>
				<image:title>first</image:title><image:title>second</image:title></image:image>`,
			want: sitemap.URL{Images: []sitemap.Image{{Loc: "https://cdn.example.com/1.jpg", Title: "first"}}},
		},
	})
}

func TestExtensionNews(t *testing.T) {
	full := sitemap.News{
		Publication:     sitemap.NewsPublication{Name: "The Example Times", Language: "en"},
		PublicationDate: extTime("2024-01-15T10:30:00Z"),
		Title:           "Companies A, B in Merger Talks",
	}
	noDate := full
	noDate.PublicationDate = nil
	extRun(t, []extCase{
		{
			// NEWS-1, NEWS-2, NEWS-3, VALUE-8
			name: "every field, values on lines of their own",
			mode: extBoth,
			ext: `<news:news>
				<news:publication>
					<news:name>
						The Example Times
					</news:name>
					<news:language> en </news:language>
				</news:publication>
				<news:publication_date>
					2024-01-15T10:30:00Z
				</news:publication_date>
				<news:title>  Companies A, B in Merger Talks  </news:title>
			</news:news>`,
			want: sitemap.URL{News: &full},
		},
		{
			// NEWS-2: a day alone is a date as well.
			name: "publication date without a time",
			mode: extBoth,
			ext: `<news:news><news:publication><news:name>N</news:name><news:language>de</news:language></news:publication>
				<news:publication_date>2024-01-15</news:publication_date><news:title>T</news:title></news:news>`,
			want: sitemap.URL{News: &sitemap.News{
				Publication:     sitemap.NewsPublication{Name: "N", Language: "de"},
				PublicationDate: &sitemap.LastModTime{Time: time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)},
				Title:           "T",
			}},
		},
		{
			// NEWS-7: tolerant mode checks nothing of a news entry.
			name: "empty news entry kept unchecked",
			mode: extTolerant,
			ext:  `<news:news></news:news>`,
			want: sitemap.URL{News: &sitemap.News{}},
		},
		{
			// NEWS-5: each missing field reported, the entry kept.
			name: "empty news entry, every field reported",
			mode: extStrict,
			ext:  `<news:news></news:news>`,
			want: sitemap.URL{News: &sitemap.News{}},
			errs: []string{
				extPageErr("strict mode: news <name> is empty"),
				extPageErr("strict mode: news <language> is empty"),
				extPageErr("strict mode: news <publication_date> is empty"),
				extPageErr("strict mode: news <title> is empty"),
			},
		},
		{
			// NEWS-5, VALUE-9: whitespace only is empty.
			name: "fields of white space only are missing",
			mode: extStrict,
			ext: `<news:news><news:publication><news:name> </news:name><news:language>
				</news:language></news:publication>
				<news:publication_date>2024-01-15T10:30:00Z</news:publication_date><news:title>	</news:title></news:news>`,
			want: sitemap.URL{News: &sitemap.News{PublicationDate: extTime("2024-01-15T10:30:00Z")}},
			errs: []string{
				extPageErr("strict mode: news <name> is empty"),
				extPageErr("strict mode: news <language> is empty"),
				extPageErr("strict mode: news <title> is empty"),
			},
		},
		{
			// NEWS-6, VALUE-6: an empty date is a missing one.
			name: "empty publication date reported",
			mode: extStrict,
			ext: `<news:news><news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication>
				<news:publication_date>
				</news:publication_date><news:title>Companies A, B in Merger Talks</news:title></news:news>`,
			want: sitemap.URL{News: &noDate},
			errs: []string{extPageErr("strict mode: news <publication_date> is empty")},
		},
		{
			// NEWS-4, VALUE-6: nil, not the zero time, and no error.
			name: "empty publication date is nil",
			mode: extTolerant,
			ext: `<news:news><news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication>
				<news:publication_date>  </news:publication_date><news:title>Companies A, B in Merger Talks</news:title></news:news>`,
			want: sitemap.URL{News: &noDate},
		},
		{
			// NEWS-8, VALUE-2, VALUE-3, NEWS-9 (decision: reported once, as
			// the value that cannot be parsed).
			name: "publication date that cannot be parsed",
			mode: extBoth,
			ext: `<news:news><news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication>
				<news:publication_date> yesterday </news:publication_date><news:title>Companies A, B in Merger Talks</news:title></news:news>`,
			want: sitemap.URL{News: &noDate},
			errs: []string{extPageErr(`invalid <news:publication_date> value "yesterday"`)},
		},
		{
			// GETURLS-17 (decision): the first <news:news> is the one kept.
			name: "two news entries, the first kept",
			mode: extBoth,
			ext: `<news:news><news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication>
				<news:publication_date>2024-01-15T10:30:00Z</news:publication_date><news:title>Companies A, B in Merger Talks</news:title></news:news>
				<news:news><news:publication><news:name>Other</news:name><news:language>fr</news:language></news:publication>
				<news:publication_date>2020-01-01</news:publication_date><news:title>Other</news:title></news:news>`,
			want: sitemap.URL{News: &full},
		},
	})
}

func TestExtensionHreflangs(t *testing.T) {
	extRun(t, []extCase{
		{
			// HREFLANG-1, HREFLANG-3, VALUE-8: padded attributes, attributes
			// on lines of their own, x-default, document order.
			name: "every attribute, padded",
			mode: extBoth,
			ext: `<xhtml:link rel=" alternate " hreflang=" de-ch " href="  https://example.com/de-ch/page  "/>
				<xhtml:link
					rel="alternate"
					hreflang="en"
					href="https://example.com/page"
				/>
				<xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/page"></xhtml:link>`,
			want: sitemap.URL{Hreflangs: []sitemap.AlternateLink{
				{Rel: "alternate", Hreflang: "de-ch", Href: "https://example.com/de-ch/page"},
				{Rel: "alternate", Hreflang: "en", Href: "https://example.com/page"},
				{Rel: "alternate", Hreflang: "x-default", Href: "https://example.com/page"},
			}},
		},
		{
			// EXTURL-1: an alternate may be on any host, in both modes.
			name: "alternate on another host",
			mode: extBoth,
			ext:  `<xhtml:link rel="alternate" hreflang="fr" href="https://example.fr/page"/>`,
			want: sitemap.URL{Hreflangs: []sitemap.AlternateLink{{Rel: "alternate", Hreflang: "fr", Href: "https://example.fr/page"}}},
		},
		{
			// HREFLANG-4, VALUE-9
			name: "link without href dropped silently",
			mode: extTolerant,
			ext: `<xhtml:link rel="alternate" hreflang="de"/>
				<xhtml:link rel="alternate" hreflang="fr" href=" "/>
				<xhtml:link rel="alternate" hreflang="en" xhtml:href="https://example.com/ns-attr"/>
				<xhtml:link rel="alternate" hreflang="it" href="https://example.com/it/page"/>`,
			want: sitemap.URL{Hreflangs: []sitemap.AlternateLink{{Rel: "alternate", Hreflang: "it", Href: "https://example.com/it/page"}}},
		},
		{
			// HREFLANG-2 (derived): tolerant mode keeps a link whatever its
			// rel, and one without a hreflang.
			name: "other rel and no hreflang kept",
			mode: extTolerant,
			ext: `<xhtml:link rel="canonical" href="https://example.com/page"/>
				<xhtml:link href="https://example.com/x"/>`,
			want: sitemap.URL{Hreflangs: []sitemap.AlternateLink{
				{Rel: "canonical", Href: "https://example.com/page"},
				{Href: "https://example.com/x"},
			}},
		},
		{
			// HREFLANG-5, EXTURL-7
			name: "link without href reported against the page",
			mode: extStrict,
			ext: `<xhtml:link rel="alternate" hreflang="de"/>
				<xhtml:link rel="alternate" hreflang="it" href="https://example.com/it/page"/>`,
			want: sitemap.URL{Hreflangs: []sitemap.AlternateLink{{Rel: "alternate", Hreflang: "it", Href: "https://example.com/it/page"}}},
			errs: []string{extPageErr("strict mode: alternate link href is empty")},
		},
		{
			// HREFLANG-2, HREFLANG-6, HREFLANG-7 (decision: rel compared
			// exactly, after trimming): left out, naming the href.
			name: "rel that is not alternate",
			mode: extStrict,
			ext: `<xhtml:link rel="canonical" hreflang="fr" href="https://example.com/fr/page"/>
				<xhtml:link hreflang="de" href="https://example.com/de/page"/>
				<xhtml:link rel="Alternate" hreflang="es" href="https://example.com/es/page"/>
				<xhtml:link rel=" alternate " hreflang="it" href="https://example.com/it/page"/>`,
			want: sitemap.URL{Hreflangs: []sitemap.AlternateLink{{Rel: "alternate", Hreflang: "it", Href: "https://example.com/it/page"}}},
			errs: []string{
				extURLErr("https://example.com/fr/page", `strict mode: alternate link rel "canonical" is not "alternate"`),
				extURLErr("https://example.com/de/page", `strict mode: alternate link rel "" is not "alternate"`),
				extURLErr("https://example.com/es/page", `strict mode: alternate link rel "Alternate" is not "alternate"`),
			},
		},
		{
			// HREFLANG-3, HREFLANG-6, VALUE-9
			name: "link without hreflang",
			mode: extStrict,
			ext: `<xhtml:link rel="alternate" href="https://example.com/fr/page"/>
				<xhtml:link rel="alternate" hreflang="  " href="https://example.com/de/page"/>`,
			want: sitemap.URL{},
			errs: []string{
				extURLErr("https://example.com/fr/page", "strict mode: alternate link hreflang is empty"),
				extURLErr("https://example.com/de/page", "strict mode: alternate link hreflang is empty"),
			},
		},
	})
}

// extVideoXML is a video with every element, each padded with white space.
const extVideoXML = `<video:video>
	<video:thumbnail_loc>
		https://cdn.example.com/thumb.jpg
	</video:thumbnail_loc>
	<video:title> Grilling steaks for summer </video:title>
	<video:description>
		Alkis shows you how to get perfectly done steaks every time
	</video:description>
	<video:content_loc> https://cdn.example.com/video.mp4 </video:content_loc>
	<video:player_loc> https://example.com/player?video=123 </video:player_loc>
	<video:duration> 600 </video:duration>
	<video:expiration_date> 2030-11-05T19:20:30+08:00 </video:expiration_date>
	<video:rating> 4.2 </video:rating>
	<video:view_count> 12345 </video:view_count>
	<video:publication_date>
		2024-01-15T10:30:00Z
	</video:publication_date>
	<video:family_friendly> yes </video:family_friendly>
	<video:restriction relationship=" allow "> IE GB US CA </video:restriction>
	<video:platform relationship=" deny "> tv </video:platform>
	<video:requires_subscription> no </video:requires_subscription>
	<video:uploader info=" https://example.com/users/grillymcgrillerson "> GrillyMcGrillerson </video:uploader>
	<video:live> no </video:live>
	<video:tag> steak </video:tag>
	<video:tag>meat</video:tag>
	<video:tag>
		summer
	</video:tag>
	<video:price currency="EUR">1.99</video:price>
	<video:gallery_loc>https://example.com/gallery</video:gallery_loc>
</video:video>`

// extFullVideo is what extVideoXML yields.
func extFullVideo() sitemap.Video {
	return sitemap.Video{
		ThumbnailLoc:         "https://cdn.example.com/thumb.jpg",
		Title:                "Grilling steaks for summer",
		Description:          "Alkis shows you how to get perfectly done steaks every time",
		ContentLoc:           "https://cdn.example.com/video.mp4",
		PlayerLoc:            "https://example.com/player?video=123",
		Duration:             extInt(600),
		ExpirationDate:       extTime("2030-11-05T19:20:30+08:00"),
		Rating:               extF32(4.2),
		ViewCount:            extInt(12345),
		PublicationDate:      extTime("2024-01-15T10:30:00Z"),
		FamilyFriendly:       "yes",
		Restriction:          &sitemap.VideoRestriction{Relationship: "allow", Value: "IE GB US CA"},
		Platform:             &sitemap.VideoPlatform{Relationship: "deny", Value: "tv"},
		RequiresSubscription: "no",
		Uploader:             &sitemap.VideoUploader{Value: "GrillyMcGrillerson", Info: "https://example.com/users/grillymcgrillerson"},
		Live:                 "no",
		Tags:                 []string{"steak", "meat", "summer"},
	}
}

// extMinVideo returns a video that strict mode accepts without a word, with
// more elements in it.
func extMinVideo(more string) string {
	return `<video:video><video:thumbnail_loc>https://cdn.example.com/thumb.jpg</video:thumbnail_loc>
		<video:title>T</video:title><video:description>D</video:description>
		<video:player_loc>https://example.com/player</video:player_loc>` + more + `</video:video>`
}

// extMinWant returns what extMinVideo yields, changed by f.
func extMinWant(f func(v *sitemap.Video)) sitemap.URL {
	v := sitemap.Video{ThumbnailLoc: "https://cdn.example.com/thumb.jpg", Title: "T", Description: "D", PlayerLoc: "https://example.com/player"}
	if f != nil {
		f(&v)
	}
	return sitemap.URL{Videos: []sitemap.Video{v}}
}

func TestExtensionVideos(t *testing.T) {
	tags := func(n int) (string, []string) {
		var b strings.Builder
		var want []string
		for i := range n {
			fmt.Fprintf(&b, "<video:tag>t%d</video:tag>", i)
			want = append(want, fmt.Sprintf("t%d", i))
		}
		return b.String(), want
	}
	tags32, want32 := tags(32)
	tags33, want33 := tags(33)
	second := extFullVideo()
	second.Title = "Second"
	extRun(t, []extCase{
		{
			// VIDEO-1 to VIDEO-13, VALUE-8: every field with its type (VIDEO-7:
			// ViewCount; VIDEO-8: ExpirationDate and PublicationDate).
			name: "every field, values padded",
			mode: extBoth,
			ext:  extVideoXML,
			want: sitemap.URL{Videos: []sitemap.Video{extFullVideo()}},
		},
		{
			// VIDEO-1, GETURLS-16: several videos in document order.
			name: "several videos in document order",
			mode: extBoth,
			ext:  extVideoXML + strings.Replace(extVideoXML, "Grilling steaks for summer", "Second", 1),
			want: sitemap.URL{Videos: []sitemap.Video{extFullVideo(), second}},
		},
		{
			// VIDEO-4: a player alone is enough; VIDEO-8: no date, nil dates.
			name: "smallest video strict mode accepts",
			mode: extBoth,
			ext:  extMinVideo(""),
			want: extMinWant(nil),
		},
		{
			// VIDEO-2, VALUE-9
			name: "video without thumbnail dropped silently",
			mode: extTolerant,
			ext: `<video:video><video:title>no thumbnail</video:title></video:video>
				<video:video><video:thumbnail_loc>
				</video:thumbnail_loc><video:title>empty thumbnail</video:title></video:video>`,
			want: sitemap.URL{},
		},
		{
			// VIDEO-2, EXTURL-7
			name: "video without thumbnail reported against the page",
			mode: extStrict,
			ext:  `<video:video><video:title>no thumbnail</video:title></video:video>` + extMinVideo(""),
			want: extMinWant(nil),
			errs: []string{extPageErr("strict mode: video <thumbnail_loc> is empty")},
		},
		{
			// VIDEO-3, VIDEO-4, VIDEO-15, VIDEO-16, EXTURL-7: every missing
			// field reported against the page; the video is kept.
			name: "video with nothing but a thumbnail",
			mode: extStrict,
			ext:  `<video:video><video:thumbnail_loc>https://cdn.example.com/thumb.jpg</video:thumbnail_loc></video:video>`,
			want: sitemap.URL{Videos: []sitemap.Video{{ThumbnailLoc: "https://cdn.example.com/thumb.jpg"}}},
			errs: []string{
				extPageErr("strict mode: video <title> is empty"),
				extPageErr("strict mode: video <description> is empty"),
				extPageErr("strict mode: video has neither <content_loc> nor <player_loc>"),
			},
		},
		{
			// VIDEO-3, VALUE-9: white space only is empty.
			name: "title and description of white space only",
			mode: extStrict,
			ext: `<video:video><video:thumbnail_loc>https://cdn.example.com/thumb.jpg</video:thumbnail_loc>
				<video:title>  </video:title><video:description>
				</video:description><video:content_loc> </video:content_loc><video:player_loc/></video:video>`,
			want: sitemap.URL{Videos: []sitemap.Video{{ThumbnailLoc: "https://cdn.example.com/thumb.jpg"}}},
			errs: []string{
				extPageErr("strict mode: video <title> is empty"),
				extPageErr("strict mode: video <description> is empty"),
				extPageErr("strict mode: video has neither <content_loc> nor <player_loc>"),
			},
		},
		{
			// VIDEO-3, VIDEO-4: tolerant mode requires none of them.
			name: "video with nothing but a thumbnail, unchecked",
			mode: extTolerant,
			ext:  `<video:video><video:thumbnail_loc>https://cdn.example.com/thumb.jpg</video:thumbnail_loc></video:video>`,
			want: sitemap.URL{Videos: []sitemap.Video{{ThumbnailLoc: "https://cdn.example.com/thumb.jpg"}}},
		},
		{
			// VIDEO-5, VIDEO-6, VIDEO-17 (decision: the ranges include their
			// ends)
			name: "duration and rating at the ends of their ranges",
			mode: extStrict,
			ext: extMinVideo(`<video:duration>1</video:duration><video:rating>0.0</video:rating>`) +
				extMinVideo(`<video:duration>28800</video:duration><video:rating>5.0</video:rating>`),
			want: sitemap.URL{Videos: append(
				extMinWant(func(v *sitemap.Video) { v.Duration, v.Rating = extInt(1), extF32(0) }).Videos,
				extMinWant(func(v *sitemap.Video) { v.Duration, v.Rating = extInt(28800), extF32(5) }).Videos...)},
		},
		{
			// VIDEO-5, VIDEO-6, VIDEO-15, VIDEO-16: out of range, reported
			// against the page, the video kept with the values.
			name: "duration and rating out of range",
			mode: extStrict,
			ext: extMinVideo(`<video:duration>0</video:duration><video:rating>-0.1</video:rating>`) +
				extMinVideo(`<video:duration> 28801 </video:duration><video:rating> 5.1 </video:rating>`),
			want: sitemap.URL{Videos: append(
				extMinWant(func(v *sitemap.Video) { v.Duration, v.Rating = extInt(0), extF32(-0.1) }).Videos,
				extMinWant(func(v *sitemap.Video) { v.Duration, v.Rating = extInt(28801), extF32(5.1) }).Videos...)},
			errs: []string{
				extPageErr(`strict mode: video <duration> value "0" is not between 1 and 28800`),
				extPageErr(`strict mode: video <rating> value "-0.1" is not between 0.0 and 5.0`),
				extPageErr(`strict mode: video <duration> value "28801" is not between 1 and 28800`),
				extPageErr(`strict mode: video <rating> value "5.1" is not between 0.0 and 5.0`),
			},
		},
		{
			// VIDEO-5, VIDEO-6, TOLERANT-7 by analogy: tolerant mode keeps
			// the values as written.
			name: "duration and rating out of range, unchecked",
			mode: extTolerant,
			ext:  extMinVideo(`<video:duration>28801</video:duration><video:rating>9.5</video:rating><video:view_count>-3</video:view_count>`),
			want: extMinWant(func(v *sitemap.Video) { v.Duration, v.Rating, v.ViewCount = extInt(28801), extF32(9.5), extInt(-3) }),
		},
		{
			// VIDEO-13: 32 tags are accepted.
			name: "32 tags",
			mode: extStrict,
			ext:  extMinVideo(tags32),
			want: extMinWant(func(v *sitemap.Video) { v.Tags = want32 }),
		},
		{
			// VIDEO-13, VIDEO-17 (decision: the tags are all kept)
			name: "33 tags reported, all kept",
			mode: extStrict,
			ext:  extMinVideo(tags33),
			want: extMinWant(func(v *sitemap.Video) { v.Tags = want33 }),
			errs: []string{extPageErr("strict mode: video has 33 <tag> elements, more than 32")},
		},
		{
			// VIDEO-13: tolerant mode counts no tags.
			name: "33 tags, unchecked",
			mode: extTolerant,
			ext:  extMinVideo(tags33),
			want: extMinWant(func(v *sitemap.Video) { v.Tags = want33 }),
		},
		{
			// VIDEO-14, VALUE-1, VALUE-2, VALUE-3, ERRORS-17: each value that
			// cannot be parsed is nil and reported against the page; the
			// video is kept, in both modes, and strict mode adds no range
			// error.
			name: "numbers and dates that cannot be parsed",
			mode: extBoth,
			ext: extMinVideo(`<video:duration> ten minutes </video:duration>
				<video:expiration_date>soon</video:expiration_date>
				<video:rating>4,5</video:rating>
				<video:view_count>1.5</video:view_count>
				<video:publication_date>2024-13-45</video:publication_date>`),
			want: extMinWant(nil),
			errs: []string{
				extPageErr(`invalid <video:expiration_date> value "soon"`),
				extPageErr(`invalid <video:publication_date> value "2024-13-45"`),
				extPageErr(`invalid <video:duration> value "ten minutes"`),
				extPageErr(`invalid <video:view_count> value "1.5"`),
				extPageErr(`invalid <video:rating> value "4,5"`),
			},
		},
		{
			// VIDEO-14: numbers beyond the range of their type cannot be
			// parsed either.
			name: "numbers too large for their type",
			mode: extBoth,
			ext:  extMinVideo(`<video:view_count>99999999999999999999999</video:view_count><video:rating>1e39</video:rating><video:duration>NaN</video:duration>`),
			want: extMinWant(nil),
			errs: []string{
				extPageErr(`invalid <video:duration> value "NaN"`),
				extPageErr(`invalid <video:view_count> value "99999999999999999999999"`),
				extPageErr(`invalid <video:rating> value "1e39"`),
			},
		},
		{
			// VALUE-7: an empty number reads as 0; VALUE-6, VIDEO-8: an
			// empty date as none.
			name: "empty numbers are 0, empty dates nil",
			mode: extTolerant,
			ext: extMinVideo(`<video:duration></video:duration><video:rating> </video:rating><video:view_count/>
				<video:expiration_date> </video:expiration_date><video:publication_date/>`),
			want: extMinWant(func(v *sitemap.Video) { v.Duration, v.Rating, v.ViewCount = extInt(0), extF32(0), extInt(0) }),
		},
		{
			// VALUE-7, VALUE-12 (decision): an empty duration reads as 0,
			// which strict mode reports as out of range.
			name: "empty numbers are 0, strict",
			mode: extStrict,
			ext: extMinVideo(`<video:duration></video:duration><video:rating> </video:rating><video:view_count/>
				<video:expiration_date> </video:expiration_date><video:publication_date/>`),
			want: extMinWant(func(v *sitemap.Video) { v.Duration, v.Rating, v.ViewCount = extInt(0), extF32(0), extInt(0) }),
			errs: []string{extPageErr(`strict mode: video <duration> value "" is not between 1 and 28800`)},
		},
		{
			// VIDEO-9, VIDEO-10, VIDEO-11, VIDEO-17 (decision: strict mode
			// reports values other than yes/no and allow/deny, and keeps
			// the video with them).
			name: "yes/no and allow/deny values that are neither",
			mode: extStrict,
			ext: extMinVideo(`<video:family_friendly>Yes</video:family_friendly>
				<video:requires_subscription>maybe</video:requires_subscription>
				<video:live>1</video:live>
				<video:restriction relationship="permit">IE</video:restriction>
				<video:platform>web</video:platform>`),
			want: extMinWant(func(v *sitemap.Video) {
				v.FamilyFriendly, v.RequiresSubscription, v.Live = "Yes", "maybe", "1"
				v.Restriction = &sitemap.VideoRestriction{Relationship: "permit", Value: "IE"}
				v.Platform = &sitemap.VideoPlatform{Value: "web"}
			}),
			errs: []string{
				extPageErr(`strict mode: video <family_friendly> value "Yes" is neither yes nor no`),
				extPageErr(`strict mode: video <requires_subscription> value "maybe" is neither yes nor no`),
				extPageErr(`strict mode: video <live> value "1" is neither yes nor no`),
				extPageErr(`strict mode: video <restriction> relationship "permit" is neither allow nor deny`),
				extPageErr(`strict mode: video <platform> relationship "" is neither allow nor deny`),
			},
		},
		{
			// VIDEO-9 to VIDEO-12: tolerant mode keeps what is written;
			// an element without its attribute has an empty one, and an
			// empty element is there, empty.
			name: "attributes missing, elements empty",
			mode: extTolerant,
			ext: extMinVideo(`<video:family_friendly>Yes</video:family_friendly>
				<video:restriction>IE</video:restriction>
				<video:platform relationship="allow"/>
				<video:uploader>Someone</video:uploader>`),
			want: extMinWant(func(v *sitemap.Video) {
				v.FamilyFriendly = "Yes"
				v.Restriction = &sitemap.VideoRestriction{Value: "IE"}
				v.Platform = &sitemap.VideoPlatform{Relationship: "allow"}
				v.Uploader = &sitemap.VideoUploader{Value: "Someone"}
			}),
		},
		{
			// EXTURL-4, EXTURL-6, VIDEO-12, VIDEO-16: every optional URL
			// that strict mode does not accept is reported against itself,
			// the video kept with the URLs as written.
			name: "optional URLs strict mode does not accept",
			mode: extStrict,
			ext: `<video:video><video:thumbnail_loc>https://cdn.example.com/thumb.jpg</video:thumbnail_loc>
				<video:title>T</video:title><video:description>D</video:description>
				<video:content_loc>ftp://cdn.example.com/video.mp4</video:content_loc>
				<video:player_loc>https://example.com/player?a={b}</video:player_loc>
				<video:uploader info="https://example.com/users/some one">Someone</video:uploader></video:video>`,
			want: sitemap.URL{Videos: []sitemap.Video{{
				ThumbnailLoc: "https://cdn.example.com/thumb.jpg", Title: "T", Description: "D",
				ContentLoc: "ftp://cdn.example.com/video.mp4", PlayerLoc: "https://example.com/player?a={b}",
				Uploader: &sitemap.VideoUploader{Value: "Someone", Info: "https://example.com/users/some one"},
			}}},
			errs: []string{
				extURLErr("ftp://cdn.example.com/video.mp4", `strict mode: unsupported scheme "ftp"`),
				extURLErr("https://example.com/player?a={b}", `strict mode: URL contains the character '{', which it has to give as "%7B"`),
				extURLErr("https://example.com/users/some one", "strict mode: URL contains a space"),
			},
		},
	})
}

// extURLField is a URL of an extension, and how a test sets and reads it.
type extURLField struct {
	name string
	key  bool // the URL the item is known by, without which it is left out
	// xml returns extension elements with u in the field and everything
	// else strict mode requires.
	xml func(u string) string
	// get returns the field, false when the item is not there.
	get func(u *sitemap.URL) (string, bool)
}

var extEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func extURLFields() []extURLField {
	const thumb = `<video:thumbnail_loc>https://cdn.example.com/thumb.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description>`
	video := func(u *sitemap.URL) (*sitemap.Video, bool) {
		if len(u.Videos) != 1 {
			return nil, false
		}
		return &u.Videos[0], true
	}
	image := func(u *sitemap.URL) (*sitemap.Image, bool) {
		if len(u.Images) != 1 {
			return nil, false
		}
		return &u.Images[0], true
	}
	return []extURLField{
		{"Image.Loc", true,
			func(s string) string {
				return `<image:image><image:loc>` + extEscaper.Replace(s) + `</image:loc></image:image>`
			},
			func(u *sitemap.URL) (string, bool) {
				im, ok := image(u)
				return extField(im, ok, func() string { return im.Loc })
			}},
		{"Image.License", false,
			func(s string) string {
				return `<image:image><image:loc>https://cdn.example.com/a.jpg</image:loc><image:license>` + extEscaper.Replace(s) + `</image:license></image:image>`
			},
			func(u *sitemap.URL) (string, bool) {
				im, ok := image(u)
				return extField(im, ok, func() string { return im.License })
			}},
		{"Video.ThumbnailLoc", true,
			func(s string) string {
				return `<video:video><video:thumbnail_loc>` + extEscaper.Replace(s) + `</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description>` +
					`<video:content_loc>https://cdn.example.com/v.mp4</video:content_loc></video:video>`
			},
			func(u *sitemap.URL) (string, bool) {
				v, ok := video(u)
				return extField(v, ok, func() string { return v.ThumbnailLoc })
			}},
		{"Video.ContentLoc", false,
			func(s string) string {
				return `<video:video>` + thumb + `<video:content_loc>` + extEscaper.Replace(s) + `</video:content_loc></video:video>`
			},
			func(u *sitemap.URL) (string, bool) {
				v, ok := video(u)
				return extField(v, ok, func() string { return v.ContentLoc })
			}},
		{"Video.PlayerLoc", false,
			func(s string) string {
				return `<video:video>` + thumb + `<video:player_loc>` + extEscaper.Replace(s) + `</video:player_loc></video:video>`
			},
			func(u *sitemap.URL) (string, bool) {
				v, ok := video(u)
				return extField(v, ok, func() string { return v.PlayerLoc })
			}},
		{"Video.Uploader.Info", false,
			func(s string) string {
				return `<video:video>` + thumb + `<video:content_loc>https://cdn.example.com/v.mp4</video:content_loc>` +
					`<video:uploader info="` + extEscaper.Replace(s) + `">Someone</video:uploader></video:video>`
			},
			func(u *sitemap.URL) (string, bool) {
				v, ok := video(u)
				if !ok || v.Uploader == nil {
					return "", false
				}
				return v.Uploader.Info, true
			}},
		{"AlternateLink.Href", true,
			func(s string) string {
				return `<xhtml:link rel="alternate" hreflang="de" href="` + extEscaper.Replace(s) + `"/>`
			},
			func(u *sitemap.URL) (string, bool) {
				if len(u.Hreflangs) != 1 {
					return "", false
				}
				return u.Hreflangs[0].Href, true
			}},
	}
}

func extField[T any](p *T, ok bool, f func() string) (string, bool) {
	if !ok || p == nil {
		return "", false
	}
	return f(), true
}

// TestExtensionURLsTolerant holds every URL of an extension to the spec's
// table: an absolute HTTP or HTTPS URL comes back encoded like a <loc>,
// anything else as the document gives it, and no item is left out over the
// form of its URL.
func TestExtensionURLsTolerant(t *testing.T) { // EXTURL-8 to EXTURL-13
	long := "https://cdn.example.com/" + strings.Repeat("é", 1000)
	rows := []struct {
		name, in, want string
	}{
		// The spec's table (EXTURL-9, EXTURL-10, EXTURL-11).
		{"space", "https://cdn.example.com/summer sale.jpg", "https://cdn.example.com/summer%20sale.jpg"},
		{"non-ASCII in path and query", "https://cdn.example.com/café.jpg?alt=café", "https://cdn.example.com/caf%C3%A9.jpg?alt=caf%C3%A9"},
		{"IDN host", "https://bücher.example/cover.jpg", "https://xn--bcher-kva.example/cover.jpg"},
		{"escape kept", "https://cdn.example.com/summer%20sale.jpg", "https://cdn.example.com/summer%20sale.jpg"},
		{"relative, not resolved", "/images/summer sale.jpg", "/images/summer sale.jpg"},
		// EXTURL-12
		{"nothing to encode", "https://cdn.example.com/a.jpg?x=1&y=2#top", "https://cdn.example.com/a.jpg?x=1&y=2#top"},
		{"another scheme", "ftp://cdn.example.com/summer sale.jpg", "ftp://cdn.example.com/summer sale.jpg"},
		{"scheme-relative, not resolved", "//cdn.example.com/a b.jpg", "//cdn.example.com/a b.jpg"},
		{"does not parse", "http://[::1/a b.jpg", "http://[::1/a b.jpg"},
		{"no host", "https:///a b.jpg", "https:///a b.jpg"},
		{"longer than 2,048 encoded", long, long},
		// TOLERANT-5 applied to extension URLs: encoded in the path and the
		// fragment, kept in the query.
		{"characters a URL may not hold", "https://cdn.example.com/a|b.jpg?q=a|b#c|d", "https://cdn.example.com/a%7Cb.jpg?q=a|b#c%7Cd"},
		// VALUE-8
		{"white space around", "\n\t https://cdn.example.com/a.jpg \n", "https://cdn.example.com/a.jpg"},
	}
	for _, f := range extURLFields() {
		for _, r := range rows {
			t.Run(f.name+"/"+r.name, func(t *testing.T) {
				s := extParse(t, false, extDoc(f.xml(r.in)))
				msgs, _ := extErrors(t, s)
				if len(msgs) != 0 {
					t.Errorf("errors %q, want none", msgs)
				}
				u := extPageOf(t, s)
				got, ok := f.get(&u)
				if !ok {
					t.Fatalf("the item is left out, want it kept with %q", r.want)
				}
				if got != r.want {
					t.Errorf("%s = %q, want %q", f.name, got, r.want)
				}
			})
		}
	}
}

// TestExtensionURLsStrict holds every URL of an extension to strict mode's
// rules: the URL an item is known by leaves the item out when it is no URL,
// any other URL is only reported; an error names the URL; an accepted URL
// comes back as written.
func TestExtensionURLsStrict(t *testing.T) { // EXTURL-1 to EXTURL-7, EXTURL-14
	over := "https://cdn.example.com/" + strings.Repeat("a", 2049-len("https://cdn.example.com/"))
	rows := []struct {
		name, in string
		cause    string // "" when the URL is accepted; "?" when the spec fixes no text
	}{
		{"space", "https://cdn.example.com/summer sale.jpg", "strict mode: URL contains a space"},
		{"another scheme", "ftp://cdn.example.com/video.mp4", `strict mode: unsupported scheme "ftp"`},
		{"character a URL may not hold", "https://cdn.example.com/a.jpg?tags=summer|sale", `strict mode: URL contains the character '|', which it has to give as "%7C"`},
		{"quote", `https://cdn.example.com/"a".jpg`, `strict mode: URL contains the character '"', which it has to give as "%22"`},
		{"tab", "https://cdn.example.com/a\tb.jpg", "?"},
		{"relative", "/images/a.jpg", "?"},
		{"no host", "https://:8080/a.jpg", "missing host"},
		{"longer than 2,048 characters", over, "?"},
		{"another host, as written", "https://CDN.example.org/a.jpg", ""},
		{"non-ASCII, as written", "https://bücher.example/café.jpg", ""},
		{"escapes, as written", "https://cdn.example.com/summer%20sale.jpg?a=%7C", ""},
		{"white space around", "\n  https://cdn.example.com/a.jpg  \n", ""},
	}
	for _, f := range extURLFields() {
		for _, r := range rows {
			t.Run(f.name+"/"+r.name, func(t *testing.T) {
				s := extParse(t, true, extDoc(f.xml(r.in)))
				msgs, urls := extErrors(t, s)
				u := extPageOf(t, s)
				got, ok := f.get(&u)
				written := strings.TrimSpace(r.in)
				if r.cause == "" {
					if len(msgs) != 0 {
						t.Errorf("errors %q, want none", msgs)
					}
					if !ok || got != written {
						t.Errorf("%s = %q (there: %v), want %q as written", f.name, got, ok, written)
					}
					return
				}
				switch {
				case len(urls) != 1 || urls[0] != written:
					t.Errorf("errors %q, want one naming %q", msgs, written)
				case r.cause != "?" && msgs[0] != extURLErr(written, r.cause):
					t.Errorf("error %q, want %q", msgs[0], extURLErr(written, r.cause))
				}
				switch {
				case f.key && ok:
					t.Errorf("the item is kept with %s = %q, want it left out", f.name, got)
				case !f.key && (!ok || got != written):
					t.Errorf("%s = %q (item there: %v), want the item kept with the URL as written %q", f.name, got, ok, written)
				}
			})
		}
	}
}

// TestExtensionNamespaces: the extensions are told by namespace URI and
// local name, whatever prefix the document binds.
func TestExtensionNamespaces(t *testing.T) { // ADOPTED-6, IMAGE-6, VIDEO-17
	const loc = "<loc>" + extPage + "</loc>"
	oddPrefixes := `<?xml version="1.0"?>
<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"
	xmlns:n="http://www.google.com/schemas/sitemap-news/0.9"
	xmlns:x="http://www.w3.org/1999/xhtml">
<s:url><s:loc>` + extPage + `</s:loc>
	<i:image xmlns:i="http://www.google.com/schemas/sitemap-image/1.1"><i:loc>https://cdn.example.com/a.jpg</i:loc><i:title>odd</i:title></i:image>
	<image xmlns="http://www.google.com/schemas/sitemap-image/1.1"><loc>https://cdn.example.com/b.jpg</loc></image>
	<n:news><n:publication><n:name>N</n:name><n:language>en</n:language></n:publication><n:title>T</n:title></n:news>
	<v:video xmlns:v="http://www.google.com/schemas/sitemap-video/1.1"><v:thumbnail_loc>https://cdn.example.com/t.jpg</v:thumbnail_loc><v:tag>x</v:tag></v:video>
	<x:link rel="alternate" hreflang="de" href="https://example.com/de/page"/>
</s:url>
</s:urlset>`
	otherNamespace := `<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
	xmlns:o="http://example.com/other"
	xmlns:image="http://example.com/not-the-image-namespace"
	xmlns:v="http://www.google.com/schemas/sitemap-video/1.1">
<url>` + loc + `
	<o:image><o:loc>https://cdn.example.com/other.jpg</o:loc></o:image>
	<image:image><image:loc>https://cdn.example.com/misbound.jpg</image:loc></image:image>
	<image><loc>https://cdn.example.com/sitemap-ns.jpg</loc></image>
	<o:news><o:title>T</o:title></o:news>
	<o:video><o:thumbnail_loc>https://cdn.example.com/t.jpg</o:thumbnail_loc></o:video>
	<v:video><o:thumbnail_loc>https://cdn.example.com/t.jpg</o:thumbnail_loc><v:title>child in another namespace</v:title></v:video>
	<o:link rel="alternate" hreflang="de" href="https://example.com/de/page"/>
	<link rel="alternate" hreflang="fr" href="https://example.com/fr/page"/>
</url>
</urlset>`
	variants := `<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
	xmlns:image="https://www.google.com/schemas/sitemap-image/1.1/"
	xmlns:xhtml="http://www.w3.org/1999/xhtml/">
<url>` + loc + `
	<image:image><image:loc>https://cdn.example.com/a.jpg</image:loc></image:image>
	<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/page"/>
	<video:video><video:thumbnail_loc>https://cdn.example.com/t.jpg</video:thumbnail_loc></video:video>
	<news:news><news:title>T</news:title></news:news>
</url>
</urlset>`
	cases := []struct {
		name string
		doc  string
		want sitemap.URL
	}{
		{"odd prefixes, declared on the root and on the element, and a default namespace", oddPrefixes, sitemap.URL{
			Images: []sitemap.Image{
				{Loc: "https://cdn.example.com/a.jpg", Title: "odd"},
				{Loc: "https://cdn.example.com/b.jpg"},
			},
			News:      &sitemap.News{Publication: sitemap.NewsPublication{Name: "N", Language: "en"}, Title: "T"},
			Videos:    []sitemap.Video{{ThumbnailLoc: "https://cdn.example.com/t.jpg", Tags: []string{"x"}}},
			Hreflangs: []sitemap.AlternateLink{{Rel: "alternate", Hreflang: "de", Href: "https://example.com/de/page"}},
		}},
		// The same local names in other namespaces are not taken, and a
		// video whose thumbnail is in another namespace has none.
		{"same local names in other namespaces", otherNamespace, sitemap.URL{}},
		// The brief's decision: https and trailing-slash variants of the
		// URIs, and the customary prefixes left undeclared.
		{"namespace variants and undeclared customary prefixes", variants, sitemap.URL{
			Images:    []sitemap.Image{{Loc: "https://cdn.example.com/a.jpg"}},
			News:      &sitemap.News{Title: "T"},
			Videos:    []sitemap.Video{{ThumbnailLoc: "https://cdn.example.com/t.jpg"}},
			Hreflangs: []sitemap.AlternateLink{{Rel: "alternate", Hreflang: "de", Href: "https://example.com/de/page"}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := extParse(t, false, tc.doc)
			if msgs, _ := extErrors(t, s); len(msgs) != 0 {
				t.Errorf("errors %q, want none", msgs)
			}
			if d := extDiff(extPageOf(t, s), tc.want); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestExtensionsElsewhere: extensions count only inside a <url> of a
// urlset, not in an index entry or a feed item.
func TestExtensionsElsewhere(t *testing.T) { // FEED-3, GETURLS-16
	ext := `<image:image><image:loc>https://cdn.example.com/a.jpg</image:loc></image:image>
		<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/page"/>
		<video:video><video:thumbnail_loc>https://cdn.example.com/t.jpg</video:thumbnail_loc></video:video>
		<news:news><news:title>T</news:title></news:news>`
	ns := ` xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
		xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml"`
	// The RSS item is read in strict mode only: tolerant mode cannot read
	// an RSS <link> at all yet (the tokenizer closes it as HTML's <link>),
	// which is reported, not tested here.
	docs := []struct {
		name string
		mode extMode
		doc  string
	}{
		{"RSS item", extStrict, `<rss version="2.0"` + ns + `><channel><item><link>` + extPage + `</link>` + ext + `</item></channel></rss>`},
		{"Atom entry", extBoth, `<feed xmlns="http://www.w3.org/2005/Atom"` + ns + `><entry><link href="` + extPage + `"/>` + ext + `</entry></feed>`},
		{"outside the url", extBoth, extHead + ext + `<url><loc>` + extPage + `</loc></url>` + ext + `</urlset>`},
		{"page without extensions", extBoth, extDoc("")},
	}
	for _, d := range docs {
		for _, strict := range d.mode.modes() {
			t.Run(extModeName(strict)+"/"+d.name, func(t *testing.T) {
				s := extParse(t, strict, d.doc)
				if msgs, _ := extErrors(t, s); len(msgs) != 0 {
					t.Errorf("errors %q, want none", msgs)
				}
				u := extPageOf(t, s)
				if u.Images != nil || u.News != nil || u.Videos != nil || u.Hreflangs != nil {
					t.Errorf("extensions %+v %+v %+v %+v, want all nil", u.Images, u.News, u.Videos, u.Hreflangs)
				}
			})
		}
	}
	t.Run("sitemap index entry", func(t *testing.T) {
		doc := `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + ns + `><sitemap><loc>https://example.com/s1.xml</loc>` +
			ext + `</sitemap></sitemapindex>`
		s, err := sitemap.New().SetFollow([]string{`^$`}).Parse(extSitemap, &doc)
		if err != nil {
			t.Fatal(err)
		}
		if msgs, _ := extErrors(t, s); len(msgs) != 0 {
			t.Errorf("errors %q, want none", msgs)
		}
		if n, m := s.GetURLCount(), s.GetSitemapCount(); n != 0 || m != 1 {
			t.Errorf("%d URLs and %d sitemaps, want 0 and 1", n, m)
		}
	})
}

// TestExtensionErrorsNameThePageAsReturned: an error that is about no URL
// names the page by its Loc as GetURLs returns it (VALUE-13, decision).
func TestExtensionErrorsNameThePageAsReturned(t *testing.T) { // VALUE-13, EXTURL-7
	doc := extHead + `<url><loc>https://example.com/summer sale</loc><video:video><video:thumbnail_loc>https://cdn.example.com/t.jpg</video:thumbnail_loc>
		<video:duration>x</video:duration></video:video></url></urlset>`
	s := extParse(t, false, doc)
	msgs, _ := extErrors(t, s)
	want := []string{`validate "https://example.com/summer%20sale": invalid <video:duration> value "x"`}
	if !reflect.DeepEqual(msgs, want) {
		t.Errorf("errors %q, want %q", msgs, want)
	}
}

// TestExtensionsSkippedEntry: an entry strict mode skips reports nothing of
// its extensions, and a bad extension value costs only itself.
func TestExtensionsSkippedEntry(t *testing.T) { // STRICT-11, VALUE-1
	doc := extHead + `<url><loc>https://example.com/a</loc><lastmod>2024-01-15 10:30:00</lastmod>
		<video:video><video:title>no thumbnail</video:title></video:video></url>
		<url><loc>https://example.com/b</loc><video:video><video:thumbnail_loc>https://cdn.example.com/t.jpg</video:thumbnail_loc>
		<video:title>T</video:title><video:description>D</video:description><video:player_loc>https://example.com/p</video:player_loc>
		<video:rating>bad</video:rating></video:video></url></urlset>`
	s := extParse(t, true, doc)
	msgs, _ := extErrors(t, s)
	want := []string{
		`validate "https://example.com/a": invalid <lastmod> value "2024-01-15 10:30:00"`,
		`validate "https://example.com/b": invalid <video:rating> value "bad"`,
	}
	if !reflect.DeepEqual(msgs, want) {
		t.Errorf("errors:\n got %q\nwant %q", msgs, want)
	}
	urls := s.GetURLs()
	if len(urls) != 1 || urls[0].Loc != "https://example.com/b" || len(urls[0].Videos) != 1 || urls[0].Videos[0].Rating != nil {
		t.Errorf("GetURLs() = %+v, want page b alone, with its video and no rating", urls)
	}
}

// TestExtensionCopies: URLs() and GetRandomURLs() yield copies that share
// nothing with the instance, down to what a video points to.
func TestExtensionCopies(t *testing.T) { // ITER-2, RANDOM-4
	doc := extDoc(extVideoXML + `<image:image><image:loc>https://cdn.example.com/a.jpg</image:loc></image:image>
		<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication>
		<news:publication_date>2024-01-15T10:30:00Z</news:publication_date><news:title>T</news:title></news:news>
		<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/page"/>`)
	s := extParse(t, false, doc)
	// What the page is to stay, from an instance of its own.
	before := extPageOf(t, extParse(t, false, doc))
	if before.News == nil || len(before.Videos) != 1 || len(before.Images) != 1 || len(before.Hreflangs) != 1 {
		t.Fatalf("the page lacks an extension: %+v", before)
	}
	mutate := func(u *sitemap.URL) {
		u.Images[0].Loc = "changed"
		u.Hreflangs[0].Href = "changed"
		u.News.Title = "changed"
		u.News.PublicationDate.Time = time.Time{}
		v := &u.Videos[0]
		v.Title = "changed"
		*v.Duration, *v.Rating, *v.ViewCount = -1, -1, -1
		v.ExpirationDate.Time, v.PublicationDate.Time = time.Time{}, time.Time{}
		v.Restriction.Value, v.Platform.Value, v.Uploader.Info = "changed", "changed", "changed"
		v.Tags[0] = "changed"
	}
	for u := range s.URLs() {
		mutate(&u)
	}
	for _, u := range s.GetRandomURLs(1) {
		mutate(&u)
	}
	if d := extDiff(extPageOf(t, s), before); d != "" {
		t.Errorf("changing a copy reached the instance:\n%s", d)
	}
}
