package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

const feedURL = "https://example.com/feed.xml"

// feedRSS is an RSS 2.0 feed of items, in a channel that has a link and
// dates of its own, which no item may take.
func feedRSS(items ...string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
  <title>Feed</title>
  <link>https://example.com/</link>
  <atom:link href="https://example.com/feed.xml" rel="self" type="application/rss+xml"/>
  <pubDate>Tue, 02 Jan 2024 00:00:00 GMT</pubDate>
  <lastBuildDate>Wed, 03 Jan 2024 00:00:00 GMT</lastBuildDate>
` + strings.Join(items, "\n") + `
</channel>
</rss>`
}

// feedAtom is an Atom 1.0 feed of entries, with a link and a date of the
// feed itself.
func feedAtom(entries ...string) string {
	return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Feed</title>
  <link href="https://example.com/"/>
  <link rel="self" href="https://example.com/atom.xml"/>
  <updated>2024-01-03T00:00:00Z</updated>
  <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
` + strings.Join(entries, "\n") + `
</feed>`
}

// feedCheckTime checks a date: the same instant at the same offset from
// UTC, as the zone of the value gives it; no date when want is the zero
// time.
func feedCheckTime(t *testing.T, got *sitemap.LastModTime, want time.Time) {
	t.Helper()
	if want.IsZero() {
		if got != nil {
			t.Errorf("LastMod %v, want nil", got)
		}
		return
	}
	if got == nil {
		t.Fatalf("LastMod is nil, want %v", want)
	}
	if !got.Equal(want) {
		t.Errorf("LastMod %v, want %v", got.Time, want)
	}
	_, gotOff := got.Zone()
	_, wantOff := want.Zone()
	if gotOff != wantOff {
		t.Errorf("LastMod %v is at offset %ds, want %ds", got.Time, gotOff, wantOff)
	}
}

// RSS-1, FEED-1, FEED-2, FEED-3: every item yields its <link> with its
// <pubDate>, and nothing else, however much else the item holds.
func TestFeedRSSItems(t *testing.T) {
	doc := feedRSS(
		`<item><title>One</title><link>https://example.com/one</link><pubDate>Mon, 15 Jan 2024 10:30:00 GMT</pubDate></item>`,
		`<item>
		   <title>Two</title>
		   <link>
		     https://example.com/two
		   </link>
		   <description><![CDATA[<p>Text with a <a href="https://example.com/elsewhere">link</a></p>]]></description>
		   <guid isPermaLink="true">https://example.com/guid-two</guid>
		   <changefreq>daily</changefreq>
		   <priority>0.9</priority>
		   <lastmod>2024-01-01</lastmod>
		   <image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://example.com/a.jpg</image:loc></image:image>
		   <xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="de" href="https://example.com/de/two"/>
		   <news:news xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"><news:title>T</news:title></news:news>
		   <video:video xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc></video:video>
		   <pubDate>Tue, 16 Jan 2024 08:00:00 +0200</pubDate>
		 </item>`,
		`<item><link><![CDATA[https://example.com/three?a=1&b=2]]></link></item>`,
		`<item><link>https://example.com/four?a=1&amp;b=2</link></item>`,
	)
	for _, m := range feedModes {
		t.Run(m.name, func(t *testing.T) {
			s, err := feedParse(t, m.strict, feedURL, doc)
			feedCheck(t, s, err, []string{
				"https://example.com/one",
				"https://example.com/two",
				"https://example.com/three?a=1&b=2",
				"https://example.com/four?a=1&b=2",
			}, nil)
			urls := s.GetURLs()
			if len(urls) != 4 {
				return
			}
			for _, u := range urls {
				feedCheckBare(t, u)
			}
			feedCheckTime(t, urls[0].LastMod, time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC))
			feedCheckTime(t, urls[1].LastMod, time.Date(2024, 1, 16, 8, 0, 0, 0, time.FixedZone("", 2*3600)))
			// RSS-3: an item without a date has none, whatever the channel's.
			for _, u := range urls[2:] {
				if u.LastMod != nil {
					t.Errorf("%s: LastMod %v, want nil (the channel's dates are not the item's)", u.Loc, u.LastMod)
				}
			}
		})
	}
}

// RSS-2, RSS-4: an item without a link is skipped without an error. An item
// whose <link> is there but empty is skipped the same way (decision on
// RSS-4): a feed item need not have a link, and an empty one is none.
func TestFeedRSSItemsWithoutLink(t *testing.T) {
	cases := []struct{ name, item string }{
		{"no link", `<item><title>No link</title><pubDate>Mon, 15 Jan 2024 10:30:00 GMT</pubDate></item>`},
		{"empty link", `<item><title>Empty</title><link></link></item>`},
		{"self-closed link", `<item><link/><description>d</description></item>`},
		{"white space link", "<item><link> \n\t </link></item>"},
		{"empty CDATA link", `<item><link><![CDATA[]]></link></item>`},
		{"only a guid", `<item><guid>https://example.com/guid</guid></item>`},
		{"only an atom:link", `<item><atom:link href="https://example.com/atom-link"/></item>`},
		{"only a link of another namespace", `<item><g:link xmlns:g="http://base.google.com/ns/1.0">https://example.com/g</g:link></item>`},
		{"empty item", `<item/>`},
	}
	for _, c := range cases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				doc := feedRSS(
					`<item><link>https://example.com/before</link></item>`,
					c.item,
					`<item><link>https://example.com/after</link></item>`,
				)
				s, err := feedParse(t, m.strict, feedURL, doc)
				feedCheck(t, s, err, []string{"https://example.com/before", "https://example.com/after"}, nil)
			})
		}
	}
}

// RSS-3: neither the channel's <pubDate> nor its <lastBuildDate> is an
// item's date, wherever they stand, and the channel's <link> is no page.
func TestFeedRSSChannelDates(t *testing.T) {
	doc := `<rss version="2.0"><channel>
	<link>https://example.com/channel</link>
	<item><link>https://example.com/a</link></item>
	<pubDate>Tue, 02 Jan 2024 00:00:00 GMT</pubDate>
	<item><link>https://example.com/b</link><lastBuildDate>Wed, 03 Jan 2024 00:00:00 GMT</lastBuildDate></item>
	<lastBuildDate>Wed, 03 Jan 2024 00:00:00 GMT</lastBuildDate>
	</channel></rss>`
	for _, m := range feedModes {
		t.Run(m.name, func(t *testing.T) {
			s, err := feedParse(t, m.strict, feedURL, doc)
			feedCheck(t, s, err, []string{"https://example.com/a", "https://example.com/b"}, nil)
			for _, u := range s.GetURLs() {
				if u.LastMod != nil {
					t.Errorf("%s: LastMod %v, want nil", u.Loc, u.LastMod)
				}
			}
		})
	}
}

// Only the item's own <link> and <pubDate> count, not those of an element
// nested in it.
func TestFeedRSSOwnElementsOnly(t *testing.T) {
	doc := feedRSS(`<item>
	  <source url="https://other.example/feed.xml"><link>https://other.example/source-link</link><pubDate>Sun, 01 Jan 2023 00:00:00 GMT</pubDate></source>
	  <link>https://example.com/page</link>
	</item>`)
	for _, m := range feedModes {
		t.Run(m.name, func(t *testing.T) {
			s, err := feedParse(t, m.strict, feedURL, doc)
			feedCheck(t, s, err, []string{"https://example.com/page"}, nil)
			if urls := s.GetURLs(); len(urls) == 1 && urls[0].LastMod != nil {
				t.Errorf("LastMod %v, want nil: the date is the <source>'s", urls[0].LastMod)
			}
		})
	}
}

// The first <link> and the first <pubDate> of an item are the ones read.
func TestFeedRSSFirstLinkAndDate(t *testing.T) {
	doc := feedRSS(`<item>
	  <link>https://example.com/first</link><link>https://example.com/second</link>
	  <pubDate>Mon, 15 Jan 2024 10:30:00 GMT</pubDate><pubDate>not a date</pubDate>
	</item>`)
	for _, m := range feedModes {
		t.Run(m.name, func(t *testing.T) {
			s, err := feedParse(t, m.strict, feedURL, doc)
			feedCheck(t, s, err, []string{"https://example.com/first"}, nil)
			if urls := s.GetURLs(); len(urls) == 1 {
				feedCheckTime(t, urls[0].LastMod, time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC))
			}
		})
	}
}

// ATOM-1, ATOM-2, ATOM-4, ATOM-5: the first link with rel="alternate" or
// without rel is the entry's; an entry without one is skipped silently.
func TestFeedAtomEntries(t *testing.T) {
	cases := []struct {
		name  string
		entry string
		want  string // "" when the entry is skipped
	}{
		{"link without rel", `<entry><link href="https://example.com/plain"/></entry>`, "https://example.com/plain"},
		{"rel alternate", `<entry><link rel="alternate" type="text/html" href="https://example.com/alt"/></entry>`, "https://example.com/alt"},
		{"self and edit first", `<entry>
			<link rel="self" href="https://example.com/self"/>
			<link rel="edit" href="https://example.com/edit"/>
			<link rel="enclosure" href="https://example.com/audio.mp3"/>
			<link rel="related" href="https://example.com/related"/>
			<link rel="replies" href="https://example.com/replies"/>
			<link rel="alternate" href="https://example.com/wanted"/>
		</entry>`, "https://example.com/wanted"},
		{"first of two alternates", `<entry><link rel="alternate" href="https://example.com/first"/><link rel="alternate" href="https://example.com/second"/></entry>`, "https://example.com/first"},
		{"no rel before alternate", `<entry><link href="https://example.com/norel"/><link rel="alternate" href="https://example.com/alt"/></entry>`, "https://example.com/norel"},
		{"rel padded", `<entry><link rel=" alternate " href="https://example.com/padded"/></entry>`, "https://example.com/padded"},
		// Decision: an empty rel is none (VALUE-9), and the IANA IRI of
		// alternate is alternate (RFC 4287, 4.2.7.2).
		{"rel empty", `<entry><link rel="" href="https://example.com/emptyrel"/></entry>`, "https://example.com/emptyrel"},
		{"rel as IRI", `<entry><link rel="http://www.iana.org/assignments/relation/alternate" href="https://example.com/iri"/></entry>`, "https://example.com/iri"},
		{"href padded", "<entry><link href=\"\n  https://example.com/hrefpad \n\"/></entry>", "https://example.com/hrefpad"},
		{"href with entity", `<entry><link href="https://example.com/q?a=1&amp;b=2"/></entry>`, "https://example.com/q?a=1&b=2"},
		{"link element with content", `<entry><link href="https://example.com/content"> </link></entry>`, "https://example.com/content"},
		{"link of another namespace", `<entry><x:link xmlns:x="urn:x" href="https://example.com/x"/><link href="https://example.com/atom"/></entry>`, "https://example.com/atom"},
		// ATOM-4, ATOM-5: no qualifying link.
		{"no link", `<entry><title>No link</title><updated>2024-01-15T10:30:00Z</updated></entry>`, ""},
		{"only self", `<entry><link rel="self" href="https://example.com/self"/></entry>`, ""},
		{"only enclosure and via", `<entry><link rel="enclosure" href="https://example.com/a.mp3"/><link rel="via" href="https://example.com/via"/></entry>`, ""},
		{"rel in another case", `<entry><link rel="Alternate" href="https://example.com/case"/></entry>`, ""},
		// Decision on ATOM-5: the first qualifying link is the entry's even
		// without an href; the entry then has none and is skipped silently.
		{"first link without href", `<entry><link rel="alternate"/><link href="https://example.com/later"/></entry>`, ""},
		{"first link with empty href", `<entry><link href=""/><link href="https://example.com/later"/></entry>`, ""},
		{"link text is no href", `<entry><link>https://example.com/text</link></entry>`, ""},
		{"id is no link", `<entry><id>https://example.com/id</id></entry>`, ""},
		{"only a link of the source", `<entry><source><link href="https://other.example/"/></source></entry>`, ""},
	}
	for _, c := range cases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				doc := feedAtom(
					`<entry><link href="https://example.com/before"/></entry>`,
					c.entry,
					`<entry><link href="https://example.com/after"/></entry>`,
				)
				want := []string{"https://example.com/before"}
				if c.want != "" {
					want = append(want, c.want)
				}
				want = append(want, "https://example.com/after")
				s, err := feedParse(t, m.strict, feedURL, doc)
				feedCheck(t, s, err, want, nil)
				for _, u := range s.GetURLs() {
					feedCheckBare(t, u)
				}
			})
		}
	}
}

// ATOM-2, ATOM-3: <updated> is the date, never <published> (even alone),
// the feed's <updated>, or the <updated> of the entry's <source>.
func TestFeedAtomDates(t *testing.T) {
	doc := feedAtom(
		`<entry><link href="https://example.com/a"/><published>2023-06-01T00:00:00Z</published><updated>2024-01-15T10:30:00Z</updated></entry>`,
		`<entry><link href="https://example.com/b"/><published>2023-06-01T00:00:00Z</published></entry>`,
		`<entry><source><updated>2020-01-01T00:00:00Z</updated><link href="https://other.example/"/></source><link href="https://example.com/c"/></entry>`,
		`<entry><source><updated>2020-01-01T00:00:00Z</updated></source><updated>2024-02-01T00:00:00+05:30</updated><link href="https://example.com/d"/></entry>`,
		`<entry><link href="https://example.com/e"/></entry>`,
	)
	for _, m := range feedModes {
		t.Run(m.name, func(t *testing.T) {
			s, err := feedParse(t, m.strict, feedURL, doc)
			feedCheck(t, s, err, []string{
				"https://example.com/a", "https://example.com/b", "https://example.com/c",
				"https://example.com/d", "https://example.com/e",
			}, nil)
			urls := s.GetURLs()
			if len(urls) != 5 {
				return
			}
			feedCheckTime(t, urls[0].LastMod, time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC))
			feedCheckTime(t, urls[3].LastMod, time.Date(2024, 2, 1, 0, 0, 0, 0, time.FixedZone("", 5*3600+1800)))
			for _, i := range []int{1, 2, 4} {
				if urls[i].LastMod != nil {
					t.Errorf("%s: LastMod %v, want nil", urls[i].Loc, urls[i].LastMod)
				}
			}
		})
	}
}

// feedPubDateCases are <pubDate> values of RFC 822 (FEEDDATE-1 to -7, -9);
// a zero want marks a value that is not read.
var feedPubDateCases = []struct {
	name, value string
	want        time.Time
}{
	{"full", "Mon, 15 Jan 2024 10:30:00 GMT", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"no weekday", "15 Jan 2024 10:30:00 GMT", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"no seconds", "Mon, 15 Jan 2024 10:30 GMT", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"no weekday, no seconds", "15 Jan 2024 10:30 GMT", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"two-digit year 24", "Mon, 15 Jan 24 10:30:00 GMT", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"two-digit year 99", "Fri, 15 Jan 99 10:30:00 GMT", time.Date(1999, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"two-digit year 69", "Wed, 15 Jan 69 10:30:00 GMT", time.Date(1969, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"offset +0100", "Mon, 15 Jan 2024 10:30:00 +0100", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", 3600))},
	{"offset -0930", "Mon, 15 Jan 2024 10:30:00 -0930", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", -(9*3600+1800)))},
	{"offset +0000", "Mon, 15 Jan 2024 10:30:00 +0000", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"UT", "Mon, 15 Jan 2024 10:30:00 UT", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"UTC", "Mon, 15 Jan 2024 10:30:00 UTC", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"Z", "Mon, 15 Jan 2024 10:30:00 Z", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"EST", "Mon, 15 Jan 2024 10:30:00 EST", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", -5*3600))},
	{"EDT", "Mon, 15 Jan 2024 10:30:00 EDT", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", -4*3600))},
	{"CST", "Mon, 15 Jan 2024 10:30:00 CST", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", -6*3600))},
	{"CDT", "Mon, 15 Jan 2024 10:30:00 CDT", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", -5*3600))},
	{"MST", "Mon, 15 Jan 2024 10:30:00 MST", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", -7*3600))},
	{"MDT", "Mon, 15 Jan 2024 10:30:00 MDT", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", -6*3600))},
	{"PST", "Mon, 15 Jan 2024 10:30:00 PST", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", -8*3600))},
	{"PDT", "Mon, 15 Jan 2024 10:30:00 PDT", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", -7*3600))},
	{"EST in summer", "Mon, 15 Jul 2024 10:30:00 EST", time.Date(2024, 7, 15, 10, 30, 0, 0, time.FixedZone("", -5*3600))},
	{"PDT in summer", "Mon, 15 Jul 2024 10:30 PDT", time.Date(2024, 7, 15, 10, 30, 0, 0, time.FixedZone("", -7*3600))},
	{"white space around", "\n\t  Mon, 15 Jan 2024 10:30:00 GMT \n", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	// Values that are not read.
	{"CET is not known", "Mon, 15 Jan 2024 10:30:00 CET", time.Time{}},
	{"CEST is not known", "Mon, 15 Jul 2024 10:30:00 CEST", time.Time{}},
	{"RFC 3339", "2024-01-15T10:30:00Z", time.Time{}},
	{"W3C date", "2024-01-15", time.Time{}},
	{"no time", "Mon, 15 Jan 2024", time.Time{}},
	{"no zone", "Mon, 15 Jan 2024 10:30:00", time.Time{}},
	{"three-digit year", "15 Jan 024 10:30:00 GMT", time.Time{}},
	{"month as number", "15 01 2024 10:30:00 GMT", time.Time{}},
	{"day not in month", "30 Feb 2024 10:30:00 GMT", time.Time{}},
	{"hour 25", "Mon, 15 Jan 2024 25:30:00 GMT", time.Time{}},
	{"words", "yesterday", time.Time{}},
}

// FEEDDATE-1 to -7, -9, -11, VALUE-4: a <pubDate> is read as RFC 822; one
// that cannot be read leaves LastMod nil and is reported as a
// *ValidationError naming the page, which is kept, in both modes.
func TestFeedPubDate(t *testing.T) {
	const page = "https://example.com/blog/post"
	for _, c := range feedPubDateCases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				doc := feedRSS(`<item><link>` + page + `</link><pubDate>` + c.value + `</pubDate></item>`)
				s, err := feedParse(t, m.strict, feedURL, doc)
				var wantErrs []string
				if c.want.IsZero() {
					wantErrs = []string{fmt.Sprintf("validate %q: invalid <pubDate> value %q", page, strings.TrimSpace(c.value))}
				}
				feedCheck(t, s, err, []string{page}, wantErrs)
				urls := s.GetURLs()
				if len(urls) != 1 {
					return
				}
				feedCheckTime(t, urls[0].LastMod, c.want)
				var verr *sitemap.ValidationError
				if errs := s.GetErrors(); c.want.IsZero() && len(errs) == 1 && (!errors.As(errs[0], &verr) || verr.URL != page) {
					t.Errorf("error %#v, want a *ValidationError naming %s", errs[0], page)
				}
			})
		}
	}
}

// The spec's own example of FEEDDATE-9, word for word.
func TestFeedPubDateRFC3339Message(t *testing.T) {
	doc := feedRSS(`<item><link>https://example.com/blog/post</link><pubDate>2024-01-15T10:30:00Z</pubDate></item>`)
	s, err := feedParse(t, true, "https://example.com/feed.xml", doc)
	feedCheck(t, s, err, []string{"https://example.com/blog/post"},
		[]string{`validate "https://example.com/blog/post": invalid <pubDate> value "2024-01-15T10:30:00Z"`})
}

// feedUpdatedCases are <updated> values, of the formats of a <lastmod>
// (FEEDDATE-8); a zero want marks a value that is not read.
var feedUpdatedCases = []struct {
	name, value string
	want        time.Time
}{
	{"RFC 3339", "2024-01-15T10:30:00Z", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"offset", "2024-01-15T10:30:00+01:00", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", 3600))},
	{"fraction and negative offset", "2024-01-15T10:30:00.250-05:00", time.Date(2024, 1, 15, 10, 30, 0, 250e6, time.FixedZone("", -5*3600))},
	{"minutes only", "2024-01-15T10:30+02:00", time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", 2*3600))},
	// A date without a time is midnight UTC, on every machine (the decision
	// of internal/dates on VALUE-11).
	{"date", "2024-01-15", time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)},
	{"month", "2024-01", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)},
	{"year", "2024", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)},
	{"white space around", "\n  2024-01-15T10:30:00Z\n", time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)},
	{"space for T", "2024-01-15 10:30:00", time.Time{}},
	{"RFC 822", "Mon, 15 Jan 2024 10:30:00 GMT", time.Time{}},
	{"day not in month", "2024-02-30", time.Time{}},
	{"words", "today", time.Time{}},
}

// ATOM-2, FEEDDATE-8, FEEDDATE-11: an <updated> in any <lastmod> format is
// read; one that cannot be read is reported, and the page kept.
func TestFeedAtomUpdated(t *testing.T) {
	const page = "https://example.com/blog/post"
	for _, c := range feedUpdatedCases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				doc := feedAtom(`<entry><link href="` + page + `"/><updated>` + c.value + `</updated></entry>`)
				s, err := feedParse(t, m.strict, feedURL, doc)
				var wantErrs []string
				if c.want.IsZero() {
					wantErrs = []string{fmt.Sprintf("validate %q: invalid <updated> value %q", page, strings.TrimSpace(c.value))}
				}
				feedCheck(t, s, err, []string{page}, wantErrs)
				urls := s.GetURLs()
				if len(urls) != 1 {
					return
				}
				feedCheckTime(t, urls[0].LastMod, c.want)
			})
		}
	}
}

// FEEDDATE-10, VALUE-6: an empty date, or one of white space only, is no
// date: nil, not the zero time, and nothing reported, in either mode.
func TestFeedEmptyDates(t *testing.T) {
	docs := map[string]string{
		"RSS": feedRSS(
			`<item><link>https://example.com/a</link><pubDate></pubDate></item>`,
			`<item><link>https://example.com/b</link><pubDate/></item>`,
			"<item><link>https://example.com/c</link><pubDate> \n\t </pubDate></item>",
		),
		"Atom": feedAtom(
			`<entry><link href="https://example.com/a"/><updated></updated></entry>`,
			`<entry><link href="https://example.com/b"/><updated/></entry>`,
			"<entry><link href=\"https://example.com/c\"/><updated>\n  </updated></entry>",
		),
	}
	for name, doc := range docs {
		for _, m := range feedModes {
			t.Run(name+"/"+m.name, func(t *testing.T) {
				s, err := feedParse(t, m.strict, feedURL, doc)
				feedCheck(t, s, err, []string{"https://example.com/a", "https://example.com/b", "https://example.com/c"}, nil)
				for _, u := range s.GetURLs() {
					if u.LastMod != nil {
						t.Errorf("%s: LastMod %v, want nil", u.Loc, u.LastMod)
					}
				}
			})
		}
	}
}

const feedTZChildEnv = "SITEMAP_FEED_TZ_CHILD"

// FEEDDATE-6: a zone name stands for its RFC offset whatever the zone of
// the machine. The date tests run again in child processes of the test
// binary, each with TZ set to another zone; TestFeedTZChild checks there
// that the zone took effect.
func TestFeedDatesInOtherTimeZones(t *testing.T) {
	if os.Getenv(feedTZChildEnv) != "" {
		t.Skip("this is a child process of the test")
	}
	zones := []string{"UTC", "America/New_York", "America/Los_Angeles", "Asia/Tokyo", "Europe/Berlin", "Pacific/Chatham"}
	for _, zone := range zones {
		t.Run(zone, func(t *testing.T) {
			cmd := exec.Command(os.Args[0],
				"-test.run=^(TestFeedTZChild|TestFeedPubDate|TestFeedAtomUpdated|TestFeedOlderDialectDates)$",
				"-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), "TZ="+zone, feedTZChildEnv+"="+zone)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("with TZ=%s: %v\n%s", zone, err, out)
			}
			for _, name := range []string{"TestFeedTZChild", "TestFeedPubDate", "TestFeedAtomUpdated", "TestFeedOlderDialectDates"} {
				if !bytes.Contains(out, []byte("--- PASS: "+name+" ")) {
					t.Errorf("with TZ=%s, %s did not pass:\n%s", zone, name, out)
				}
			}
		})
	}
}

// TestFeedTZChild checks, in a child process of
// TestFeedDatesInOtherTimeZones, that the machine's zone is the one set.
func TestFeedTZChild(t *testing.T) {
	zone := os.Getenv(feedTZChildEnv)
	if zone == "" {
		t.Skip("runs only as a child process of TestFeedDatesInOtherTimeZones")
	}
	want, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Time{time.Date(2024, 1, 15, 12, 0, 0, 0, time.UTC), time.Date(2024, 7, 15, 12, 0, 0, 0, time.UTC)} {
		gotName, gotOff := at.In(time.Local).Zone()
		wantName, wantOff := at.In(want).Zone()
		if gotName != wantName || gotOff != wantOff {
			t.Fatalf("local zone at %v is %s %d, want %s %d", at, gotName, gotOff, wantName, wantOff)
		}
	}
}

// The older dialects: RSS 0.91 and 0.92 (<rss>), RSS 1.0 and 0.90 (RDF), and
// Atom 0.3, whose items and entries are read like those of RSS 2.0 and
// Atom 1.0.
func TestFeedOlderDialects(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []string
	}{
		{"RSS 0.91", `<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">
<rss version="0.91"><channel><title>T</title><link>https://example.com/</link><description>D</description><language>en-us</language>
<image><title>I</title><url>https://example.com/logo.gif</url><link>https://example.com/</link></image>
<item><title>A</title><link>https://example.com/a</link><description>d</description></item>
<item><title>B</title><link>https://example.com/b</link></item>
<textinput><title>Search</title><name>q</name><link>https://example.com/search</link></textinput>
</channel></rss>`, []string{"https://example.com/a", "https://example.com/b"}},
		{"RSS 0.92 item without link", `<rss version="0.92"><channel><link>https://example.com/</link>
<item><description>Only a description</description></item>
<item><link>https://example.com/a</link></item></channel></rss>`, []string{"https://example.com/a"}},
		{"RSS 1.0", `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://example.com/"><title>T</title><link>https://example.com/</link>
<items><rdf:Seq><rdf:li rdf:resource="https://example.com/a"/><rdf:li rdf:resource="https://example.com/b"/></rdf:Seq></items></channel>
<image rdf:about="https://example.com/logo.png"><title>I</title><link>https://example.com/</link><url>https://example.com/logo.png</url></image>
<item rdf:about="https://example.com/a"><title>A</title><link>https://example.com/a</link><dc:date>2024-01-15T10:30:00+01:00</dc:date></item>
<item rdf:about="https://example.com/b"><title>B</title><link>
  https://example.com/b
</link></item>
<item rdf:about="https://example.com/c"><title>C has no link</title></item>
<textinput rdf:about="https://example.com/search"><link>https://example.com/search</link></textinput>
</rdf:RDF>`, []string{"https://example.com/a", "https://example.com/b"}},
		{"RSS 0.90", `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
<channel><title>T</title><link>https://example.com/</link></channel>
<item><title>A</title><link>https://example.com/a</link></item>
</rdf:RDF>`, []string{"https://example.com/a"}},
		{"Atom 0.3", `<?xml version="1.0" encoding="utf-8"?>
<feed version="0.3" xmlns="http://purl.org/atom/ns#" xml:lang="en">
<title>T</title><link rel="alternate" type="text/html" href="https://example.com/"/><modified>2024-01-03T00:00:00Z</modified>
<entry><title>A</title><link rel="alternate" type="text/html" href="https://example.com/a"/><link rel="service.edit" type="application/x.atom+xml" href="https://example.com/edit/a"/>
<issued>2023-01-01T00:00:00Z</issued><modified>2024-01-15T10:30:00Z</modified><created>2023-01-01T00:00:00Z</created></entry>
<entry><title>B</title><link rel="service.edit" href="https://example.com/edit/b"/></entry>
<entry><title>C</title><link rel="alternate" href="https://example.com/c"/><issued>2023-01-01T00:00:00Z</issued></entry>
</feed>`, []string{"https://example.com/a", "https://example.com/c"}},
	}
	for _, c := range cases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				s, err := feedParse(t, m.strict, feedURL, c.doc)
				feedCheck(t, s, err, c.want, nil)
				for _, u := range s.GetURLs() {
					feedCheckBare(t, u)
				}
			})
		}
	}
}

// The dates of the older dialects: the <dc:date> of an RSS 1.0 item and the
// <modified> of an Atom 0.3 entry, in the W3C format; the <issued> and
// <created> of Atom 0.3 are not read, nor a <modified> of Atom 1.0.
func TestFeedOlderDialectDates(t *testing.T) {
	const page = "https://example.com/a"
	rdf := func(date string) string {
		return `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://example.com/"><link>https://example.com/</link><dc:date>2020-01-01T00:00:00Z</dc:date></channel>
<item rdf:about="` + page + `"><link>` + page + `</link>` + date + `</item></rdf:RDF>`
	}
	atom03 := func(date string) string {
		return `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><modified>2020-01-01T00:00:00Z</modified>
<entry><link rel="alternate" href="` + page + `"/>` + date + `</entry></feed>`
	}
	cases := []struct {
		name, doc string
		want      time.Time
		wantErr   string
	}{
		{"RSS 1.0 dc:date", rdf(`<dc:date>2024-01-15T10:30:00+01:00</dc:date>`), time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("", 3600)), ""},
		{"RSS 1.0 no date", rdf(``), time.Time{}, ""},
		{"RSS 1.0 bad dc:date", rdf(`<dc:date>Mon, 15 Jan 2024 10:30:00 GMT</dc:date>`), time.Time{},
			`validate "https://example.com/a": invalid <dc:date> value "Mon, 15 Jan 2024 10:30:00 GMT"`},
		{"Atom 0.3 modified", atom03(`<issued>2023-01-01T00:00:00Z</issued><modified>2024-01-15T10:30:00Z</modified>`), time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC), ""},
		{"Atom 0.3 issued and created only", atom03(`<issued>2023-01-01T00:00:00Z</issued><created>2023-01-01T00:00:00Z</created>`), time.Time{}, ""},
		{"Atom 0.3 bad modified", atom03(`<modified>2024-01-15 10:30</modified>`), time.Time{},
			`validate "https://example.com/a": invalid <modified> value "2024-01-15 10:30"`},
		{"Atom 1.0 modified is no date", feedAtom(`<entry><link href="` + page + `"/><modified>2024-01-15T10:30:00Z</modified></entry>`), time.Time{}, ""},
	}
	for _, c := range cases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				s, err := feedParse(t, m.strict, feedURL, c.doc)
				var wantErrs []string
				if c.wantErr != "" {
					wantErrs = []string{c.wantErr}
				}
				feedCheck(t, s, err, []string{page}, wantErrs)
				urls := s.GetURLs()
				if len(urls) != 1 {
					return
				}
				feedCheckTime(t, urls[0].LastMod, c.want)
			})
		}
	}
}

// FEED-4, the decision on FEED-5, LOC-2: a feed link is resolved, encoded
// and checked like a <loc>; strict mode's same-host rule is not applied to
// it.
func TestFeedLinkNormalisation(t *testing.T) {
	cases := []struct {
		name, link string
		tolerant   string // the location kept, or the error, in tolerant mode
		strict     string // the same in strict mode
	}{
		{"absolute", "https://example.com/a", "https://example.com/a", "https://example.com/a"},
		{"other host", "https://other.example/a", "https://other.example/a", "https://other.example/a"},
		{"other scheme of the same host", "http://example.com/a", "http://example.com/a", "http://example.com/a"},
		{"root-relative", "/blog/post", "https://example.com/blog/post",
			`validate "/blog/post": `},
		{"document-relative", "post.html", "https://example.com/post.html",
			`validate "post.html": `},
		{"scheme-relative", "//cdn.example.com/a", "https://cdn.example.com/a",
			`validate "//cdn.example.com/a": `},
		{"space", "https://example.com/summer sale", "https://example.com/summer%20sale",
			`validate "https://example.com/summer sale": strict mode: URL contains a space`},
		{"not ASCII", "https://example.com/café?q=café", "https://example.com/caf%C3%A9?q=caf%C3%A9", "https://example.com/café?q=café"},
		{"IDN", "https://bücher.example/page", "https://xn--bcher-kva.example/page", "https://bücher.example/page"},
		{"ftp", "ftp://example.com/file", `validate "ftp://example.com/file": unsupported scheme "ftp"`,
			`validate "ftp://example.com/file": `},
		{"no host", "https:///page", `validate "https:///page": missing host`, `validate "https:///page": `},
		{"port without host", "https://:8080/page", `validate "https://:8080/page": missing host`, `validate "https://:8080/page": `},
	}
	for _, c := range cases {
		for _, m := range feedModes {
			want := c.tolerant
			if m.strict {
				want = c.strict
			}
			check := func(t *testing.T, s *sitemap.S, err error) {
				t.Helper()
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				errs := feedErrTexts(s.GetErrors())
				if !strings.HasPrefix(want, "validate ") {
					if got := feedLocs(s); !slices.Equal(got, []string{want}) || len(errs) != 0 {
						t.Errorf("got %q and errors %q, want [%q] and none", got, errs, want)
					}
					return
				}
				var verr *sitemap.ValidationError
				if got := feedLocs(s); len(got) != 0 || len(errs) != 1 || !errors.As(s.GetErrors()[0], &verr) || !strings.HasPrefix(errs[0], want) {
					t.Errorf("got %q and errors %q, want none and a *ValidationError %q…", got, errs, want)
				}
			}
			t.Run(c.name+"/RSS/"+m.name, func(t *testing.T) {
				s, err := feedParse(t, m.strict, feedURL, feedRSS(`<item><link>`+c.link+`</link></item>`))
				check(t, s, err)
			})
			t.Run(c.name+"/Atom/"+m.name, func(t *testing.T) {
				s, err := feedParse(t, m.strict, feedURL, feedAtom(`<entry><link href="`+c.link+`"/></entry>`))
				check(t, s, err)
			})
		}
	}
}

// ENC-1, ENC-4: a feed in another encoding is transcoded before its links
// are read.
func TestFeedEncoding(t *testing.T) {
	doc := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<rss version=\"2.0\"><channel><item><link>https://example.com/caf\xe9</link></item></channel></rss>"
	s, err := feedParse(t, false, feedURL, doc)
	feedCheck(t, s, err, []string{"https://example.com/caf%C3%A9"}, nil)
}

// STRICT-13, TOLERANT-10, TOLERANT-13 and the decisions on the end of a
// document, for feeds: strict mode rejects a feed that is not well-formed,
// tolerant mode reads past what it can, but not the end of a document
// inside an entry.
func TestFeedMalformed(t *testing.T) {
	cases := []struct {
		name, doc string
		tolerant  []string // nil: a *ParseError, with the cause tolerantCause
		// tolerantCause is the cause of the *ParseError in tolerant mode;
		// strict mode rejects every case with an XML syntax error.
		tolerantCause string
	}{
		{"unescaped ampersand in a title", feedRSS(`<item><title>Salt & pepper</title><link>https://example.com/a</link></item>`),
			[]string{"https://example.com/a"}, ""},
		{"unknown entity", feedAtom(`<entry><title>a&nbsp;b</title><link href="https://example.com/a"/></entry>`),
			[]string{"https://example.com/a"}, ""},
		{"unclosed HTML in content", feedAtom(`<entry><link href="https://example.com/a"/><content type="html"><p>a<br>b</p></content></entry>`,
			`<entry><link href="https://example.com/b"/></entry>`),
			[]string{"https://example.com/a", "https://example.com/b"}, ""},
		// Issue 31 bug 1: a feed that lacks its root's end tag was cut.
		{"missing end tags after the last item", `<rss version="2.0"><channel><item><link>https://example.com/a</link></item>`,
			nil, "document ends before the end tag of its root element"},
		{"missing end tags after the last entry", `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/a"/></entry>`,
			nil, "document ends before the end tag of its root element"},
		{"missing end tag of the RDF root", `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><item><link>https://example.com/a</link></item>`,
			nil, "document ends before the end tag of its root element"},
		{"ends inside an item", `<rss version="2.0"><channel><item><link>https://example.com/a</link></item><item><link>https://example.com/b</link>`,
			nil, "document ends inside an entry"},
		{"ends inside an entry", `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/a"/></entry><entry><link href="https://example.com/b"/>`,
			nil, "document ends inside an entry"},
	}
	for _, c := range cases {
		for _, m := range feedModes {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				s, err := feedParse(t, m.strict, feedURL, c.doc)
				if !m.strict && c.tolerant != nil {
					feedCheck(t, s, err, c.tolerant, nil)
					return
				}
				var perr *sitemap.ParseError
				if !errors.As(err, &perr) || perr.URL != feedURL {
					t.Fatalf("Parse: %v, want a *ParseError naming %s", err, feedURL)
				}
				if !m.strict && perr.Err.Error() != c.tolerantCause {
					t.Errorf("cause %q, want %q", perr.Err, c.tolerantCause)
				}
				// TOLERANT-13: tolerant mode keeps the entry before the
				// cut, which every such case has one of; strict mode
				// keeps nothing.
				want := int64(0)
				if !m.strict {
					want = 1
					if !errors.Is(err, io.ErrUnexpectedEOF) {
						t.Errorf("%v does not wrap io.ErrUnexpectedEOF", err)
					}
				}
				if n := s.GetURLCount(); n != want {
					t.Errorf("%d URLs, want %d", n, want)
				}
				if errs := s.GetErrors(); len(errs) != 1 || errs[0] != err {
					t.Errorf("errors %q, want the one Parse returned", feedErrTexts(errs))
				}
			})
		}
	}
}

// MAXURLS-3, MAXURLS-4, MAXVALERR-3, URL rules: the limits of a call and
// the URL rules apply to the pages of a feed as to those of a urlset.
func TestFeedLimitsAndRules(t *testing.T) {
	rss := feedRSS(
		`<item><link>https://example.com/blog/1</link><pubDate>bad 1</pubDate></item>`,
		`<item><link>https://example.com/shop/2</link><pubDate>bad 2</pubDate></item>`,
		`<item><link>https://example.com/blog/3</link><pubDate>bad 3</pubDate></item>`,
	)
	atom := feedAtom(
		`<entry><link href="https://example.com/blog/1"/><updated>bad 1</updated></entry>`,
		`<entry><link href="https://example.com/shop/2"/><updated>bad 2</updated></entry>`,
		`<entry><link href="https://example.com/blog/3"/><updated>bad 3</updated></entry>`,
	)
	for name, doc := range map[string]string{"RSS": rss, "Atom": atom} {
		for _, m := range feedModes {
			t.Run(name+"/maxURLs/"+m.name, func(t *testing.T) {
				s, err := sitemap.New().SetStrict(m.strict).SetMaxURLs(2).Parse(feedURL, &doc)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := feedLocs(s), []string{"https://example.com/blog/1", "https://example.com/shop/2"}; !slices.Equal(got, want) {
					t.Errorf("locations %q, want %q", got, want)
				}
				// The dates of the two pages kept are reported; the third
				// item is left unread.
				nValidation, nLimit := feedCountErrs(t, s.GetErrors(), sitemap.ErrMaxURLs)
				if nValidation != 2 || nLimit != 1 {
					t.Errorf("errors %q, want two invalid dates and the URL limit", feedErrTexts(s.GetErrors()))
				}
			})
			t.Run(name+"/maxValidationErrors/"+m.name, func(t *testing.T) {
				s, err := sitemap.New().SetStrict(m.strict).SetMaxValidationErrors(1).Parse(feedURL, &doc)
				if err != nil {
					t.Fatal(err)
				}
				if n := s.GetURLCount(); n != 3 {
					t.Errorf("%d URLs, want 3: the limit takes no URL off", n)
				}
				nValidation, nLimit := feedCountErrs(t, s.GetErrors(), sitemap.ErrMaxValidationErrors)
				if nValidation != 1 || nLimit != 1 {
					t.Errorf("errors %q, want one invalid date and the limit", feedErrTexts(s.GetErrors()))
				}
			})
			t.Run(name+"/rules/"+m.name, func(t *testing.T) {
				s, err := sitemap.New().SetStrict(m.strict).SetRules([]string{`/blog/`}).Parse(feedURL, &doc)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := feedLocs(s), []string{"https://example.com/blog/1", "https://example.com/blog/3"}; !slices.Equal(got, want) {
					t.Errorf("locations %q, want %q", got, want)
				}
			})
		}
	}
}

// FEED-1 to FEED-4 through a sitemap index and a robots.txt: a feed or a
// text sitemap that they list is parsed as what it is, its relative links
// resolved against its own URL, by content whatever its name, gzip included.
func TestFeedThroughIndexAndRobots(t *testing.T) {
	docs := map[string]string{
		"/rss.xml": feedRSS(
			`<item><link>/rss/a</link><pubDate>Mon, 15 Jan 2024 10:30:00 GMT</pubDate></item>`,
			`<item><title>no link</title></item>`,
			`<item><link>https://other.example/rss/b</link><pubDate>bad</pubDate></item>`),
		"/feeds/atom": feedAtom(
			`<entry><link rel="self" href="/self"/><link href="entry-a"/><updated>2024-01-15T10:30:00Z</updated></entry>`),
		"/list.txt":          "# pages\nhttps://other.example/text/a\n\n/relative/is/skipped\nhttp://TEXT.example/b\n",
		"/compressed.dat.gz": string(gzipOf(feedRSS(`<item><link>/gz/a</link></item>`))),
	}
	index := `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>/rss.xml</loc></sitemap>
<sitemap><loc>/feeds/atom</loc></sitemap>
<sitemap><loc>/list.txt</loc></sitemap>
<sitemap><loc>/compressed.dat.gz</loc></sitemap>
</sitemapindex>`
	docs["/index.xml"] = index
	docs["/robots.txt"] = "User-agent: *\nDisallow: /private\nSitemap: /rss.xml\nsitemap: /feeds/atom # the Atom feed\nSITEMAP: /list.txt\nSitemap: /compressed.dat.gz\n"
	srv := serveDocs(t, docs)
	// Strict mode needs absolute locations in the index and the robots.txt.
	docs["/index-strict.xml"] = strings.ReplaceAll(index, "<loc>/", "<loc>"+srv.URL+"/")
	docs["/strict/robots.txt"] = strings.ReplaceAll(docs["/robots.txt"], ": /", ": "+srv.URL+"/")
	for _, m := range feedModes {
		roots := map[string]string{"index": "/index.xml", "robots.txt": "/robots.txt"}
		if m.strict {
			roots = map[string]string{"index": "/index-strict.xml", "robots.txt": "/strict/robots.txt"}
		}
		for rootName, root := range roots {
			for _, multi := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/multiThread=%v", rootName, m.name, multi), func(t *testing.T) {
					s, err := sitemap.New().SetStrict(m.strict).SetMultiThread(multi).Parse(srv.URL+root, nil)
					if err != nil {
						t.Fatal(err)
					}
					want := map[string]bool{
						srv.URL + "/rss/a":             true,
						"https://other.example/rss/b":  true,
						srv.URL + "/feeds/entry-a":     true,
						"https://other.example/text/a": true,
						"http://TEXT.example/b":        true,
						srv.URL + "/gz/a":              true,
					}
					if m.strict {
						// Strict mode resolves nothing: the relative links
						// are rejected, and reported.
						delete(want, srv.URL+"/rss/a")
						delete(want, srv.URL+"/feeds/entry-a")
						delete(want, srv.URL+"/gz/a")
					}
					got := map[string]bool{}
					for _, u := range s.GetURLs() {
						got[u.Loc] = true
						feedCheckBare(t, u)
						switch u.Loc {
						case srv.URL + "/rss/a", srv.URL + "/feeds/entry-a":
							feedCheckTime(t, u.LastMod, time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC))
						default:
							if u.LastMod != nil {
								t.Errorf("%s: LastMod %v, want nil", u.Loc, u.LastMod)
							}
						}
					}
					if len(got) != len(want) || int(s.GetURLCount()) != len(want) {
						t.Errorf("locations %q, want %v", feedLocs(s), want)
					}
					for loc := range want {
						if !got[loc] {
							t.Errorf("%s missing from %q", loc, feedLocs(s))
						}
					}
					var nValidation int
					for _, err := range s.GetErrors() {
						var verr *sitemap.ValidationError
						if !errors.As(err, &verr) {
							t.Errorf("unexpected error %v", err)
							continue
						}
						nValidation++
					}
					wantValidation := 1 // the bad <pubDate>
					if m.strict {
						wantValidation += 3 // the three relative links
					}
					if nValidation != wantValidation {
						t.Errorf("%d validation errors %q, want %d", nValidation, feedErrTexts(s.GetErrors()), wantValidation)
					}
					if n := s.GetSitemapCount(); n != 4 {
						t.Errorf("%d sitemaps listed, want 4", n)
					}
				})
			}
		}
	}
}

// A feed passed as gzip content through urlContent is read like a plain
// one (GZIP-5).
func TestFeedGzipContent(t *testing.T) {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(feedAtom(`<entry><link href="https://example.com/a"/></entry>`)))
	z.Close()
	s, err := feedParse(t, false, "https://example.com/atom.xml.gz", b.String())
	feedCheck(t, s, err, []string{"https://example.com/a"}, nil)
}
