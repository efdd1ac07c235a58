package sitemap_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// richContent is a urlset whose first URL sets every field of URL and of
// the extension structs, pointers and slices included.
const richContent = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
  xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
  xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
  xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
  xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>https://example.com/page</loc>
    <lastmod>2024-01-15T10:30:00Z</lastmod>
    <changefreq>daily</changefreq>
    <priority>0.8</priority>
    <image:image>
      <image:loc>https://example.com/a.jpg</image:loc>
      <image:title>A</image:title>
      <image:caption>C</image:caption>
      <image:geo_location>G</image:geo_location>
      <image:license>https://example.com/licence</image:license>
    </image:image>
    <news:news>
      <news:publication><news:name>N</news:name><news:language>en</news:language></news:publication>
      <news:publication_date>2024-01-15T08:00:00Z</news:publication_date>
      <news:title>T</news:title>
    </news:news>
    <video:video>
      <video:thumbnail_loc>https://example.com/thumb.jpg</video:thumbnail_loc>
      <video:title>V</video:title>
      <video:description>D</video:description>
      <video:content_loc>https://example.com/v.mp4</video:content_loc>
      <video:player_loc>https://example.com/player</video:player_loc>
      <video:duration>600</video:duration>
      <video:expiration_date>2030-01-01T00:00:00Z</video:expiration_date>
      <video:rating>4.2</video:rating>
      <video:view_count>100</video:view_count>
      <video:publication_date>2024-01-01T00:00:00Z</video:publication_date>
      <video:family_friendly>yes</video:family_friendly>
      <video:restriction relationship="allow">IE GB</video:restriction>
      <video:platform relationship="allow">web tv</video:platform>
      <video:requires_subscription>no</video:requires_subscription>
      <video:uploader info="https://example.com/uploader">U</video:uploader>
      <video:live>no</video:live>
      <video:tag>t1</video:tag>
      <video:tag>t2</video:tag>
    </video:video>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/page"/>
  </url>
  <url>
    <loc>https://example.com/second</loc>
    <lastmod>2024-02-01</lastmod>
    <priority>0.5</priority>
  </url>
</urlset>`

// parseContent parses content as the sitemap at url with a new instance.
func parseContent(t *testing.T, url, content string) *sitemap.S {
	t.Helper()
	s, err := sitemap.New().Parse(url, &content)
	if err != nil {
		t.Fatalf("Parse(%s): %v", url, err)
	}
	return s
}

// requireRich fails the test unless u has every field that
// richContent sets, so that a copy test mutates all of them.
func requireRich(t *testing.T, u *sitemap.URL) {
	t.Helper()
	if u.LastMod == nil || u.ChangeFreq == nil || u.Priority == nil || len(u.Images) != 1 || u.News == nil ||
		u.News.PublicationDate == nil || len(u.Videos) != 1 || len(u.Hreflangs) != 1 {
		t.Fatalf("the fixture did not yield a URL with every field: %+v", u)
	}
	v := &u.Videos[0]
	if v.Duration == nil || v.ExpirationDate == nil || v.Rating == nil || v.ViewCount == nil ||
		v.PublicationDate == nil || v.Restriction == nil || v.Platform == nil || v.Uploader == nil || len(v.Tags) != 2 {
		t.Fatalf("the fixture did not yield a video with every field: %+v", v)
	}
}

// mutate changes every field of u and everything it points to.
func mutate(u *sitemap.URL) {
	later := time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC)
	u.Loc = "mutated"
	u.LastMod.Time = later
	*u.ChangeFreq = "mutated"
	*u.Priority = 99
	u.Images[0] = sitemap.Image{Loc: "mutated", Title: "mutated", Caption: "mutated", GeoLocation: "mutated", License: "mutated"}
	u.Images = append(u.Images, sitemap.Image{Loc: "appended"})
	u.News.Title = "mutated"
	u.News.Publication.Name = "mutated"
	u.News.Publication.Language = "mutated"
	u.News.PublicationDate.Time = later
	v := &u.Videos[0]
	v.ThumbnailLoc, v.Title, v.Description, v.ContentLoc, v.PlayerLoc = "m", "m", "m", "m", "m"
	v.FamilyFriendly, v.RequiresSubscription, v.Live = "m", "m", "m"
	*v.Duration = -1
	v.ExpirationDate.Time = later
	*v.Rating = -1
	*v.ViewCount = -1
	v.PublicationDate.Time = later
	v.Restriction.Relationship, v.Restriction.Value = "m", "m"
	v.Platform.Relationship, v.Platform.Value = "m", "m"
	v.Uploader.Value, v.Uploader.Info = "m", "m"
	v.Tags[0] = "mutated"
	v.Tags = append(v.Tags, "appended")
	u.Videos = append(u.Videos, sitemap.Video{ThumbnailLoc: "appended"})
	u.Hreflangs[0] = sitemap.AlternateLink{Rel: "m", Hreflang: "m", Href: "m"}
}

// sharesMemory reports the first pointer or slice of c that is the one of
// orig: a deep copy shares none.
func sharesMemory(c, orig *sitemap.URL) string {
	switch {
	case c.LastMod == orig.LastMod:
		return "LastMod"
	case c.ChangeFreq == orig.ChangeFreq:
		return "ChangeFreq"
	case c.Priority == orig.Priority:
		return "Priority"
	case &c.Images[0] == &orig.Images[0]:
		return "Images"
	case c.News == orig.News:
		return "News"
	case c.News.PublicationDate == orig.News.PublicationDate:
		return "News.PublicationDate"
	case &c.Videos[0] == &orig.Videos[0]:
		return "Videos"
	case &c.Hreflangs[0] == &orig.Hreflangs[0]:
		return "Hreflangs"
	}
	cv, ov := &c.Videos[0], &orig.Videos[0]
	switch {
	case cv.Duration == ov.Duration:
		return "Video.Duration"
	case cv.ExpirationDate == ov.ExpirationDate:
		return "Video.ExpirationDate"
	case cv.Rating == ov.Rating:
		return "Video.Rating"
	case cv.ViewCount == ov.ViewCount:
		return "Video.ViewCount"
	case cv.PublicationDate == ov.PublicationDate:
		return "Video.PublicationDate"
	case cv.Restriction == ov.Restriction:
		return "Video.Restriction"
	case cv.Platform == ov.Platform:
		return "Video.Platform"
	case cv.Uploader == ov.Uploader:
		return "Video.Uploader"
	case &cv.Tags[0] == &ov.Tags[0]:
		return "Video.Tags"
	}
	return ""
}

// GETURLS-1, GETURLS-2, GETURLS-3: GetURLs returns the list the instance
// keeps, with no spare capacity, so that append copies it.
func TestGetURLsSharedList(t *testing.T) {
	// Three sitemaps, three commits: the list grows by append, and would
	// have room to spare if it were handed out as it is.
	srv := serve(t, map[string]route{
		"/index.xml": {Body: index("{base}/1.xml", "{base}/2.xml", "{base}/3.xml")},
		"/1.xml":     {Body: urlset("https://example.com/1")},
		"/2.xml":     {Body: urlset("https://example.com/2")},
		"/3.xml":     {Body: urlset("https://example.com/3")},
	})
	s, err := sitemap.New().SetMultiThread(false).Parse(srv.At("/index.xml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.GetURLs(), s.GetURLs()
	if len(a) != 3 {
		t.Fatalf("%d URLs, want 3", len(a))
	}
	if &a[0] != &b[0] {
		t.Errorf("two GetURLs() calls return different arrays: the list is copied")
	}
	if cap(a) != len(a) {
		t.Errorf("cap = %d, len = %d: append could write into the instance's list", cap(a), len(a))
	}
	c := append(a, sitemap.URL{Loc: "https://example.com/appended"})
	c[0].Loc = "changed in the appended copy"
	if got := locsOf(s.GetURLs()); !slices.Equal(got, []string{"https://example.com/1", "https://example.com/2", "https://example.com/3"}) {
		t.Errorf("after appending to the result, GetURLs() = %q", got)
	}
	if a[0].Loc != "https://example.com/1" {
		t.Errorf("appending changed the slice appended to: %q", a[0].Loc)
	}
}

// GETURLS-4, REUSE-2: a slice GetURLs returned never changes, a later call
// included.
func TestGetURLsNeverChangesAfterwards(t *testing.T) {
	s := parseContent(t, "https://example.com/sitemap.xml", urlset("https://example.com/1", "https://example.com/2"))
	old := s.GetURLs()
	want := locsOf(old)
	for _, content := range []string{
		urlset("https://example.com/x", "https://example.com/y", "https://example.com/z"),
		urlset("https://example.com/a"),
		urlset(),
	} {
		if _, err := s.Parse("https://example.com/sitemap.xml", &content); err != nil {
			t.Fatal(err)
		}
		if got := locsOf(old); !slices.Equal(got, want) {
			t.Fatalf("a slice returned before a later call reads %q, want %q", got, want)
		}
	}
	if got := locsOf(s.GetURLs()); len(got) != 0 {
		t.Errorf("GetURLs() = %q after a call of an empty urlset", got)
	}
}

// GETURLS-5: the slice is never nil.
func TestGetURLsNeverNil(t *testing.T) {
	empty := urlset()
	broken := "<html></html>"
	cases := []struct {
		name string
		s    func() *sitemap.S
	}{
		{"new instance", sitemap.New},
		{"empty urlset", func() *sitemap.S { s, _ := sitemap.New().Parse("https://example.com/s.xml", &empty); return s }},
		{"not a sitemap", func() *sitemap.S { s, _ := sitemap.New().Parse("https://example.com/s.xml", &broken); return s }},
		{"invalid url", func() *sitemap.S { s, _ := sitemap.New().Parse("ftp://example.com/s.xml", nil); return s }},
		{"configuration error", func() *sitemap.S {
			s, _ := sitemap.New().SetMaxDepth(0).Parse("https://example.com/s.xml", &empty)
			return s
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.s()
			if s.GetURLs() == nil {
				t.Error("GetURLs() = nil")
			}
			if s.GetSitemaps() == nil {
				t.Error("GetSitemaps() = nil") // GETSITEMAPS-15
			}
			if n := len(s.GetURLs()); n != 0 || s.GetURLCount() != 0 {
				t.Errorf("len(GetURLs()) = %d, GetURLCount() = %d", n, s.GetURLCount())
			}
		})
	}
}

// ITER-1, ITER-2, ITER-4: URLs() yields, in the order of GetURLs, copies
// that share nothing with the instance: changing every field of a copy,
// the video sub-structs included, leaves the instance untouched.
func TestURLsDeepCopies(t *testing.T) {
	const url = "https://example.com/sitemap.xml"
	s := parseContent(t, url, richContent)
	ref := parseContent(t, url, richContent) // what s must still hold
	orig := s.GetURLs()
	requireRich(t, &orig[0])

	i := 0
	for u := range s.URLs() {
		if i >= len(orig) {
			t.Fatal("URLs() yields more URLs than GetURLs() returns")
		}
		if !reflect.DeepEqual(u, orig[i]) {
			t.Errorf("URL %d: the copy %+v differs from %+v", i, u, orig[i])
		}
		if i == 0 {
			if f := sharesMemory(&u, &orig[0]); f != "" {
				t.Errorf("the copy shares %s with the instance", f)
			}
			mutate(&u)
		} else {
			u.Loc = "mutated"
			u.LastMod.Time = time.Time{}
			*u.Priority = 7
		}
		i++
	}
	if i != len(orig) {
		t.Fatalf("URLs() yielded %d URLs, GetURLs() returns %d", i, len(orig))
	}
	if !reflect.DeepEqual(s.GetURLs(), ref.GetURLs()) {
		t.Errorf("changing the copies reached the instance:\n got %+v\nwant %+v", s.GetURLs(), ref.GetURLs())
	}

	// ITER-4: a collected list is the caller's own, to sort and change.
	list := slices.Collect(s.URLs())
	if !slices.Equal(locsOf(list), locsOf(orig)) {
		t.Errorf("slices.Collect(URLs()) = %q, want %q", locsOf(list), locsOf(orig))
	}
	slices.Reverse(list)
	mutate(&list[1])
	if !reflect.DeepEqual(s.GetURLs(), ref.GetURLs()) {
		t.Errorf("sorting and changing a collected list reached the instance")
	}
	// The spec's form with the capacity given.
	list = slices.AppendSeq(make([]sitemap.URL, 0, s.GetURLCount()), s.URLs())
	if len(list) != 2 || cap(list) != 2 {
		t.Errorf("AppendSeq: len %d cap %d, want 2 and 2", len(list), cap(list))
	}
}

// RANDOM-4: the URLs GetRandomURLs returns are copies of the caller's own.
func TestGetRandomURLsDeepCopies(t *testing.T) {
	const url = "https://example.com/sitemap.xml"
	s := parseContent(t, url, richContent)
	ref := parseContent(t, url, richContent)
	orig := s.GetURLs()
	for range 20 { // until the rich URL is among those drawn
		got := s.GetRandomURLs(1)
		if len(got) != 1 {
			t.Fatalf("GetRandomURLs(1) returned %d URLs", len(got))
		}
		if got[0].Loc != orig[0].Loc {
			continue
		}
		if !reflect.DeepEqual(got[0], orig[0]) {
			t.Errorf("the copy %+v differs from %+v", got[0], orig[0])
		}
		if f := sharesMemory(&got[0], &orig[0]); f != "" {
			t.Errorf("the copy shares %s with the instance", f)
		}
		mutate(&got[0])
		if !reflect.DeepEqual(s.GetURLs(), ref.GetURLs()) {
			t.Errorf("changing a random URL reached the instance")
		}
		return
	}
	t.Fatal("the first URL was not drawn in 20 draws of one URL out of two")
}

// manyURLs is a urlset of n URLs with a date and a priority each, so that
// each copy allocates.
func manyURLs(n int) string {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range n {
		fmt.Fprintf(&b, "<url><loc>https://example.com/p/%d</loc><lastmod>2024-01-15</lastmod><priority>0.5</priority></url>\n", i)
	}
	b.WriteString(`</urlset>`)
	return b.String()
}

// ITER-3: the list is not copied up front: a loop that stops after one URL
// allocates for one URL, not for five hundred.
func TestURLsEarlyBreakCopiesNothingMore(t *testing.T) {
	s := parseContent(t, "https://example.com/sitemap.xml", manyURLs(500))
	if s.GetURLCount() != 500 {
		t.Fatalf("%d URLs, want 500", s.GetURLCount())
	}
	seq := s.URLs()
	n := 0
	first := testing.AllocsPerRun(20, func() {
		for u := range seq {
			n += len(u.Loc)
			break
		}
	})
	all := testing.AllocsPerRun(2, func() {
		for u := range seq {
			n += len(u.Loc)
		}
	})
	if all < 500 {
		t.Fatalf("a full loop allocates %.0f times; the test expects at least one allocation per copy", all)
	}
	if first > 10 {
		t.Errorf("a loop that stops after one URL allocates %.0f times (a full loop: %.0f): the list is copied up front", first, all)
	}
	// An early break stops the iterator: range over a func panics if
	// yield is called again after it returned false.
	count := 0
	for range s.URLs() {
		count++
		if count == 3 {
			break
		}
	}
	if count != 3 {
		t.Errorf("the loop ran %d times", count)
	}
}

// ITER-5, THREAD-6, REUSE-2: a loop whose body calls Parse goes on through
// the URLs as they were when it started, without deadlock; afterwards the
// instance holds the results of the call made in the loop.
func TestURLsLoopBodyCallsParse(t *testing.T) {
	first := urlset("https://example.com/1", "https://example.com/2", "https://example.com/3")
	second := urlset("https://example.org/a")
	s := parseContent(t, "https://example.com/sitemap.xml", first)
	var seen []string
	guard(t, guardTimeout, func() {
		for u := range s.URLs() {
			if len(seen) == 0 {
				if _, err := s.Parse("https://example.org/sitemap.xml", &second); err != nil {
					t.Error(err)
				}
			}
			seen = append(seen, u.Loc)
		}
	})
	if want := []string{"https://example.com/1", "https://example.com/2", "https://example.com/3"}; !slices.Equal(seen, want) {
		t.Errorf("the loop saw %q, want %q", seen, want)
	}
	if got := locsOf(s.GetURLs()); !slices.Equal(got, []string{"https://example.org/a"}) {
		t.Errorf("after the loop GetURLs() = %q", got)
	}
}

// ITER-6: one iterator serves any number of loops, each starting afresh
// with the list as it is then.
func TestURLsIteratorReuse(t *testing.T) {
	s := parseContent(t, "https://example.com/sitemap.xml", urlset("https://example.com/1", "https://example.com/2"))
	seq := s.URLs()
	a, b := slices.Collect(seq), slices.Collect(seq)
	if !slices.Equal(locsOf(a), locsOf(b)) || len(a) != 2 {
		t.Errorf("two loops over one iterator: %q and %q", locsOf(a), locsOf(b))
	}
	// A loop broken off does not leave the next one part-way.
	for range seq {
		break
	}
	if c := slices.Collect(seq); len(c) != 2 {
		t.Errorf("after a broken loop the iterator yields %d URLs, want 2", len(c))
	}
	content := urlset("https://example.com/x", "https://example.com/y", "https://example.com/z")
	if _, err := s.Parse("https://example.com/sitemap.xml", &content); err != nil {
		t.Fatal(err)
	}
	if got := locsOf(slices.Collect(seq)); !slices.Equal(got, []string{"https://example.com/x", "https://example.com/y", "https://example.com/z"}) {
		t.Errorf("after a new call the old iterator yields %q, want the new list", got)
	}
}

// COUNT-1, COUNT-2, COUNT-3: the counts are the lengths of the lists.
func TestResultCounts(t *testing.T) {
	srv := serve(t, map[string]route{
		"/index.xml": {Body: index("{base}/a.xml", "{base}/missing.xml", "ftp://example.com/x.xml")},
		"/a.xml":     {Body: urlset("{base}/1", "{base}/2", "{base}/3")},
	})
	s := sitemap.New()
	check := func(when string) {
		t.Helper()
		if int(s.GetURLCount()) != len(s.GetURLs()) || int(s.GetSitemapCount()) != len(s.GetSitemaps()) || int(s.GetErrorsCount()) != len(s.GetErrors()) {
			t.Errorf("%s: counts %d/%d/%d, lists %d/%d/%d", when, s.GetURLCount(), s.GetSitemapCount(), s.GetErrorsCount(),
				len(s.GetURLs()), len(s.GetSitemaps()), len(s.GetErrors()))
		}
	}
	check("new")
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatal(err)
	}
	check("after a call")
	if s.GetURLCount() != 3 || s.GetSitemapCount() != 2 || s.GetErrorsCount() != 2 {
		t.Errorf("counts %d/%d/%d, want 3 URLs, 2 sitemaps, 2 errors (%q)", s.GetURLCount(), s.GetSitemapCount(), s.GetErrorsCount(), messagesOf(s.GetErrors()))
	}
	s.SetMaxURLs(-1)
	check("with a configuration error")
}

// RANDOM-1, RANDOM-2, RANDOM-3: n URLs at random, none twice; all of them
// when n is larger; none when n is 0 or negative.
func TestGetRandomURLs(t *testing.T) {
	var locs []string
	for i := range 10 {
		locs = append(locs, fmt.Sprintf("https://example.com/%d", i))
	}
	s := parseContent(t, "https://example.com/sitemap.xml", urlset(locs...))
	for _, n := range []int{1, 3, 9, 10, 11, 1000} {
		got := locsOf(s.GetRandomURLs(n))
		if want := min(n, 10); len(got) != want {
			t.Errorf("GetRandomURLs(%d) returned %d URLs, want %d", n, len(got), want)
		}
		seen := map[string]bool{}
		for _, l := range got {
			if seen[l] {
				t.Errorf("GetRandomURLs(%d) returned %q twice", n, l)
			}
			if !slices.Contains(locs, l) {
				t.Errorf("GetRandomURLs(%d) returned %q, which is no URL of the call", n, l)
			}
			seen[l] = true
		}
	}
	for _, n := range []int{0, -1, -1000} {
		if got := s.GetRandomURLs(n); len(got) != 0 {
			t.Errorf("GetRandomURLs(%d) = %q, want an empty slice", n, locsOf(got))
		}
	}
	if got := sitemap.New().GetRandomURLs(5); len(got) != 0 {
		t.Errorf("GetRandomURLs(5) without URLs = %q", locsOf(got))
	}
	// At random: 200 draws of one URL do not all give the same one, and 50
	// draws of all ten do not all come in the same order (the chance of
	// either, were the draws random, is below 1e-80).
	picked := map[string]bool{}
	for range 200 {
		picked[s.GetRandomURLs(1)[0].Loc] = true
	}
	if len(picked) < 2 {
		t.Errorf("200 draws of one URL gave only %v", picked)
	}
	orders := map[string]bool{}
	for range 50 {
		orders[strings.Join(locsOf(s.GetRandomURLs(11)), " ")] = true
	}
	if len(orders) < 2 {
		t.Errorf("50 draws of all URLs came in one order: not in random order")
	}
	// The instance's list is left as it was.
	if got := locsOf(s.GetURLs()); !slices.Equal(got, locs) {
		t.Errorf("GetURLs() = %q after drawing", got)
	}
}

// mustDate parses a date of the fixtures.
func mustDate(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// GETSITEMAPS-15: GetSitemaps returns a never-nil copy, dates included,
// that the caller may change and that never changes afterwards.
func TestGetSitemapsCopy(t *testing.T) {
	content := index("https://example.com/1.xml|2024-01-15T10:30:00Z", "https://example.com/2.xml")
	s := sitemap.New().SetFollow([]string{`^$`})
	if _, err := s.Parse("https://example.com/index.xml", &content); err != nil {
		t.Fatal(err)
	}
	a := s.GetSitemaps()
	if len(a) != 2 || a[0].LastMod == nil {
		t.Fatalf("GetSitemaps() = %+v", a)
	}
	b := s.GetSitemaps()
	if &a[0] == &b[0] || a[0].LastMod == b[0].LastMod {
		t.Errorf("two GetSitemaps() calls share memory")
	}
	a[0].Loc = "changed"
	a[0].LastMod.Time = time.Time{}
	a[1].LastMod = &sitemap.LastModTime{}
	_ = append(a, sitemap.Sitemap{Loc: "appended"})
	c := s.GetSitemaps()
	if len(c) != 2 || c[0].Loc != "https://example.com/1.xml" || !c[0].LastMod.Equal(mustDate(t, "2024-01-15T10:30:00Z")) || c[1].LastMod != nil {
		t.Errorf("changing a returned slice reached the instance: %+v", c)
	}
	// It does not change afterwards: a later call leaves it as it was.
	other := index("https://example.org/x.xml|2020-01-01")
	if _, err := s.Parse("https://example.org/index.xml", &other); err != nil {
		t.Fatal(err)
	}
	if len(c) != 2 || c[0].Loc != "https://example.com/1.xml" || !c[0].LastMod.Equal(mustDate(t, "2024-01-15T10:30:00Z")) {
		t.Errorf("a slice returned before a later call changed: %+v", c)
	}
	if got := sitemapLocsOf(s.GetSitemaps()); !slices.Equal(got, []string{"https://example.org/x.xml"}) {
		t.Errorf("GetSitemaps() after the later call = %q", got)
	}
}

// GETSITEMAPS-1, GETSITEMAPS-5, GETSITEMAPS-6, GETSITEMAPS-13, VALUE-4,
// VALUE-5, VALUE-6: the sitemaps of an index in document order with their
// dates: none, empty, unparseable (reported, still listed and fetched).
func TestGetSitemapsDatesAndOrder(t *testing.T) {
	for _, multi := range []bool{false, true} {
		t.Run(fmt.Sprintf("multiThread=%v", multi), func(t *testing.T) {
			srv := serve(t, map[string]route{
				"/index.xml": {Body: index(
					"{base}/c.xml|2024-03-01T00:00:00Z",
					"{base}/a.xml",
					"{base}/e.xml|",
					"{base}/b.xml|2024-01-15 10:30:00",
					"{base}/d.xml| 2024-02-01T12:00:00+01:00 ",
				)},
				"/a.xml": {Body: urlset("{base}/a")},
				"/b.xml": {Body: urlset("{base}/b")},
				"/c.xml": {Body: urlset("{base}/c")},
				"/d.xml": {Body: urlset("{base}/d")},
				"/e.xml": {Body: urlset("{base}/e")},
			})
			s := sitemap.New().SetMultiThread(multi)
			if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
				t.Fatal(err)
			}
			sms := s.GetSitemaps()
			wantLocs := []string{srv.At("/c.xml"), srv.At("/a.xml"), srv.At("/e.xml"), srv.At("/b.xml"), srv.At("/d.xml")}
			if got := sitemapLocsOf(sms); !slices.Equal(got, wantLocs) {
				t.Fatalf("GetSitemaps() = %q, want %q", got, wantLocs)
			}
			if sms[0].LastMod == nil || !sms[0].LastMod.Equal(mustDate(t, "2024-03-01T00:00:00Z")) {
				t.Errorf("c.xml LastMod = %v", sms[0].LastMod)
			}
			if sms[1].LastMod != nil || sms[2].LastMod != nil || sms[3].LastMod != nil {
				t.Errorf("a.xml (none), e.xml (empty), b.xml (unparseable) have LastMod %v, %v, %v, want nil",
					sms[1].LastMod, sms[2].LastMod, sms[3].LastMod)
			}
			if sms[4].LastMod == nil || !sms[4].LastMod.Equal(mustDate(t, "2024-02-01T11:00:00Z")) {
				t.Errorf("d.xml LastMod = %v, want 2024-02-01T11:00:00Z", sms[4].LastMod)
			}
			want := []string{`validate "` + srv.At("") + `/b.xml": invalid <lastmod> value "2024-01-15 10:30:00"`}
			if got := messagesOf(s.GetErrors()); !slices.Equal(got, want) {
				t.Errorf("errors %q, want %q", got, want)
			}
			if s.GetURLCount() != 5 || srv.Hits("/b.xml") != 1 {
				t.Errorf("%d URLs (want 5), b.xml requested %d times (want 1)", s.GetURLCount(), srv.Hits("/b.xml"))
			}
			var ve *sitemap.ValidationError
			if errs := s.GetErrors(); len(errs) == 1 && (!errors.As(errs[0], &ve) || ve.URL != srv.At("/b.xml")) {
				t.Errorf("the date error is %#v, want a *ValidationError naming the sitemap", errs[0])
			}
		})
	}
}

// GETSITEMAPS-7, GETSITEMAPS-10: a sitemap several documents list is listed
// once, with the latest of their dates, whichever document comes first.
func TestGetSitemapsOnceLatestDate(t *testing.T) {
	for _, c := range []struct {
		name         string
		dateA, dateB string // the dates index A and index B give s.xml
		want         string
	}{
		{"later second", "|2024-01-01T00:00:00Z", "|2024-03-01T00:00:00Z", "2024-03-01T00:00:00Z"},
		{"later first", "|2024-03-01T00:00:00Z", "|2024-01-01T00:00:00Z", "2024-03-01T00:00:00Z"},
		{"none first", "", "|2024-02-01T00:00:00Z", "2024-02-01T00:00:00Z"},
		{"none second", "|2024-02-01T00:00:00Z", "", "2024-02-01T00:00:00Z"},
		{"unparseable second", "|2024-02-01T00:00:00Z", "|yesterday", "2024-02-01T00:00:00Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := serve(t, map[string]route{
				"/root.xml": {Body: index("{base}/a.xml", "{base}/b.xml")},
				"/a.xml":    {Body: index("{base}/s.xml"+c.dateA, "{base}/s.xml"+c.dateA)},
				"/b.xml":    {Body: index("{base}/s.xml" + c.dateB)},
				"/s.xml":    {Body: urlset("{base}/page")},
			})
			s := sitemap.New().SetMultiThread(false)
			if _, err := s.Parse(srv.At("/root.xml"), nil); err != nil {
				t.Fatal(err)
			}
			sms := s.GetSitemaps()
			if got, want := sitemapLocsOf(sms), []string{srv.At("/a.xml"), srv.At("/b.xml"), srv.At("/s.xml")}; !slices.Equal(got, want) {
				t.Fatalf("GetSitemaps() = %q, want %q", got, want)
			}
			if sms[2].LastMod == nil || !sms[2].LastMod.Equal(mustDate(t, c.want)) {
				t.Errorf("s.xml LastMod = %v, want %s", sms[2].LastMod, c.want)
			}
			if srv.Hits("/s.xml") != 1 || s.GetURLCount() != 1 {
				t.Errorf("s.xml requested %d times, %d URLs; want 1 and 1", srv.Hits("/s.xml"), s.GetURLCount())
			}
		})
	}
}

// GETSITEMAPS-8, GETSITEMAPS-9, FOLLOW-3, FOLLOW-5: a sitemap is listed
// whether it was fetched or not: left out by the follow rules, failing to
// be fetched, kept back by the depth limit or by the URL limit. What an
// index that was not fetched lists is not known.
func TestGetSitemapsListedFetchedOrNot(t *testing.T) {
	srv := serve(t, map[string]route{
		"/root.xml": {Body: index("{base}/urls.xml", "{base}/missing.xml", "{base}/skipped-index.xml", "{base}/deep-index.xml", "{base}/after-limit.xml")},
		"/urls.xml": {Body: urlset("{base}/1", "{base}/2")},
		// Not followed: its own entries stay unknown.
		"/skipped-index.xml": {Body: index("{base}/unknown.xml")},
		// At the depth limit: its entries are listed but not fetched.
		"/deep-index.xml":  {Body: index("{base}/too-deep.xml")},
		"/too-deep.xml":    {Body: urlset("{base}/deep")},
		"/after-limit.xml": {Body: urlset("{base}/3")},
	})
	s := sitemap.New().SetMultiThread(false).SetMaxDepth(1).SetFollow([]string{`/(urls|missing|deep-index|after-limit|too-deep)\.xml$`})
	if _, err := s.Parse(srv.At("/root.xml"), nil); err != nil {
		t.Fatal(err)
	}
	want := []string{srv.At("/urls.xml"), srv.At("/missing.xml"), srv.At("/skipped-index.xml"), srv.At("/deep-index.xml"), srv.At("/after-limit.xml"), srv.At("/too-deep.xml")}
	if got := sitemapLocsOf(s.GetSitemaps()); !slices.Equal(got, want) {
		t.Errorf("GetSitemaps() = %q, want %q", got, want)
	}
	for path, n := range map[string]int{"/skipped-index.xml": 0, "/unknown.xml": 0, "/too-deep.xml": 0, "/missing.xml": 1, "/deep-index.xml": 1} {
		if got := srv.Hits(path); got != n {
			t.Errorf("%s requested %d times, want %d", path, got, n)
		}
	}

	// Kept back by the URL limit: listed all the same.
	before := srv.Hits("/after-limit.xml")
	s = sitemap.New().SetMultiThread(false).SetMaxURLs(2)
	if _, err := s.Parse(srv.At("/root.xml"), nil); err != nil {
		t.Fatal(err)
	}
	if srv.Hits("/after-limit.xml") != before {
		t.Errorf("after-limit.xml was fetched past the URL limit")
	}
	if got := sitemapLocsOf(s.GetSitemaps()); !slices.Contains(got, srv.At("/after-limit.xml")) {
		t.Errorf("a sitemap the URL limit kept from being fetched is not listed: %q", got)
	}
}

// GETSITEMAPS-11, LOC-1, LOC-3, STRICT-12: a rejected location is reported
// and neither listed nor fetched.
func TestGetSitemapsRejectedNotListed(t *testing.T) {
	t.Run("tolerant", func(t *testing.T) {
		srv := serve(t, map[string]route{
			"/index.xml": {Body: index("", "   ", "ftp://example.com/s.xml", "https:///s.xml", "https://:8080/s.xml", "{base}/good.xml")},
			"/good.xml":  {Body: urlset("{base}/page")},
		})
		s := sitemap.New()
		if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
			t.Fatal(err)
		}
		if got := sitemapLocsOf(s.GetSitemaps()); !slices.Equal(got, []string{srv.At("/good.xml")}) {
			t.Errorf("GetSitemaps() = %q, want only good.xml", got)
		}
		errs := s.GetErrors()
		if len(errs) != 5 {
			t.Fatalf("errors %q, want 5", messagesOf(errs))
		}
		for _, err := range errs {
			var ve *sitemap.ValidationError
			if !errors.As(err, &ve) {
				t.Errorf("%v is no *ValidationError", err)
			}
		}
		if got := errs[0].Error(); got != `validate "`+srv.At("")+`/index.xml": <loc> of an entry is empty or missing` {
			t.Errorf("empty <loc>: %q", got)
		}
		if got := errs[4].Error(); got != `validate "https://:8080/s.xml": missing host` {
			t.Errorf("no host: %q", got)
		}
		if srv.Total() != 2 {
			t.Errorf("%d requests, want 2 (index and good.xml)", srv.Total())
		}
	})
	t.Run("strict other host", func(t *testing.T) {
		srv := serve(t, map[string]route{
			"/index.xml": {Body: index("http://other.invalid/s.xml", "{base}/good.xml")},
			"/good.xml":  {Body: urlset("{base}/page")},
		})
		s := sitemap.New().SetStrict(true)
		if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
			t.Fatal(err)
		}
		if got := sitemapLocsOf(s.GetSitemaps()); !slices.Equal(got, []string{srv.At("/good.xml")}) {
			t.Errorf("GetSitemaps() = %q, want only good.xml", got)
		}
		errs := s.GetErrors()
		var ve *sitemap.ValidationError
		if len(errs) != 1 || !errors.As(errs[0], &ve) || ve.URL != "http://other.invalid/s.xml" {
			t.Errorf("errors %q, want one *ValidationError naming http://other.invalid/s.xml", messagesOf(errs))
		}
	})
}

// GETSITEMAPS-12, MAXSITEMAPS-16 (decision): the URL passed to Parse is
// not listed, unless a document lists it; then it is listed, and not
// fetched again.
func TestGetSitemapsRoot(t *testing.T) {
	srv := serve(t, map[string]route{
		"/index.xml": {Body: index("{base}/a.xml")},
		"/self.xml":  {Body: index("{base}/self.xml", "{base}/a.xml")},
		"/a.xml":     {Body: urlset("{base}/page")},
	})
	s := sitemap.New()
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatal(err)
	}
	if got := sitemapLocsOf(s.GetSitemaps()); !slices.Equal(got, []string{srv.At("/a.xml")}) {
		t.Errorf("GetSitemaps() = %q, want only a.xml", got)
	}
	if _, err := s.Parse(srv.At("/self.xml"), nil); err != nil {
		t.Fatal(err)
	}
	if got := sitemapLocsOf(s.GetSitemaps()); !slices.Equal(got, []string{srv.At("/self.xml"), srv.At("/a.xml")}) {
		t.Errorf("GetSitemaps() = %q, want self.xml and a.xml", got)
	}
	if srv.Hits("/self.xml") != 1 {
		t.Errorf("self.xml requested %d times, want 1", srv.Hits("/self.xml"))
	}
	if s.GetErrorsCount() != 0 {
		t.Errorf("errors %q", messagesOf(s.GetErrors()))
	}
}

// GETSITEMAPS-1, GETSITEMAPS-6, GETSITEMAPS-3, GETSITEMAPS-4: the Sitemap:
// lines of a robots.txt and the entries of every index read are listed; a
// robots.txt gives no date; a relative entry is resolved; a redirected
// sitemap is listed by the URL the document gives.
func TestGetSitemapsRobotsAndIndexes(t *testing.T) {
	srv := serve(t, map[string]route{
		"/robots.txt": {Body: "Sitemap: {base}/index.xml\nsitemap: {base}/moved.xml\n"},
		"/index.xml":  {Body: index("/rel.xml|2024-01-01T00:00:00Z", "{base}/index.xml")},
		"/moved.xml":  {Status: 301, Header: map[string]string{"Location": "{base}/new.xml"}},
		"/new.xml":    {Body: urlset("{base}/moved-page")},
		"/rel.xml":    {Body: urlset("{base}/rel-page")},
	})
	s := sitemap.New().SetMultiThread(false)
	if _, err := s.Parse(srv.At("/robots.txt"), nil); err != nil {
		t.Fatal(err)
	}
	sms := s.GetSitemaps()
	want := []string{srv.At("/index.xml"), srv.At("/moved.xml"), srv.At("/rel.xml")}
	if got := sitemapLocsOf(sms); !slices.Equal(got, want) {
		t.Fatalf("GetSitemaps() = %q, want %q", got, want)
	}
	// index.xml is named by the robots.txt (no date) and listed by itself
	// (no date either).
	if sms[0].LastMod != nil || sms[1].LastMod != nil {
		t.Errorf("sitemaps named by a robots.txt have dates: %v, %v", sms[0].LastMod, sms[1].LastMod)
	}
	if sms[2].LastMod == nil || !sms[2].LastMod.Equal(mustDate(t, "2024-01-01T00:00:00Z")) {
		t.Errorf("rel.xml LastMod = %v", sms[2].LastMod)
	}
	if s.GetURLCount() != 2 || srv.Hits("/index.xml") != 1 {
		t.Errorf("%d URLs (want 2), index.xml requested %d times (want 1); errors %q", s.GetURLCount(), srv.Hits("/index.xml"), messagesOf(s.GetErrors()))
	}
}

// REUSE-1, REUSE-2, REUSE-3, REUSE-4, REUSE-5: every call starts from a
// clean state, also one that returns early; the results stay until the
// next call; a sitemap fetched in one call is fetched again in the next,
// and the limits count anew.
func TestReuseInstance(t *testing.T) {
	srv := serve(t, map[string]route{
		"/index.xml": {Body: index("{base}/a.xml", "{base}/missing.xml")},
		"/a.xml":     {Body: urlset("{base}/1", "{base}/2", "{base}/3")},
	})
	s := sitemap.New().SetMultiThread(false).SetMaxURLs(2)
	full := func(call int) {
		t.Helper()
		if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
			t.Fatal(err)
		}
		if got := locsOf(s.GetURLs()); !slices.Equal(got, []string{srv.At("/1"), srv.At("/2")}) {
			t.Errorf("call %d: URLs %q", call, got)
		}
		if s.GetSitemapCount() != 2 {
			t.Errorf("call %d: %d sitemaps, want 2", call, s.GetSitemapCount())
		}
		// The URL limit is reached in a.xml, so missing.xml is not fetched.
		if errs := s.GetErrors(); len(errs) != 1 || !errors.Is(errs[0], sitemap.ErrMaxURLs) {
			t.Errorf("call %d: errors %q, want the URL limit once", call, messagesOf(errs))
		}
		if srv.Hits("/a.xml") != call {
			t.Errorf("call %d: a.xml requested %d times", call, srv.Hits("/a.xml"))
		}
	}
	full(1)
	full(2) // REUSE-5: fetched again, and the URL limit counts anew

	early := []struct {
		name string
		run  func() error
	}{
		{"invalid url", func() error { _, err := s.Parse("ftp://example.com/sitemap.xml", nil); return err }},
		{"not fetched", func() error { _, err := s.Parse(srv.At("/missing.xml"), nil); return err }},
		{"not parsed", func() error { c := "<html/>"; _, err := s.Parse(srv.At("/x.xml"), &c); return err }},
	}
	for i, e := range early {
		t.Run(e.name, func(t *testing.T) {
			full(3 + i)
			err := e.run()
			if err == nil {
				t.Fatal("the call did not fail")
			}
			if s.GetURLCount() != 0 || s.GetSitemapCount() != 0 {
				t.Errorf("results of the previous call remain: %d URLs, %d sitemaps", s.GetURLCount(), s.GetSitemapCount())
			}
			if errs := s.GetErrors(); len(errs) != 1 || errs[0] != err {
				t.Errorf("GetErrors() = %q, want only the error returned", messagesOf(errs))
			}
		})
	}
	t.Run("configuration error", func(t *testing.T) {
		full(3 + len(early))
		s.SetMaxDepth(0)
		defer s.SetMaxDepth(10)
		if _, err := s.Parse(srv.At("/index.xml"), nil); err == nil {
			t.Fatal("the call did not fail")
		}
		if s.GetURLCount() != 0 || s.GetSitemapCount() != 0 || s.GetErrorsCount() != 1 {
			t.Errorf("results of the previous call remain: %d URLs, %d sitemaps, errors %q", s.GetURLCount(), s.GetSitemapCount(), messagesOf(s.GetErrors()))
		}
	})
}

// GETSITEMAPS-13, GETSITEMAPS-14, MULTI-6: with multi-threading off, a call
// gives its sitemaps, URLs and errors in the same order every time.
func TestSequentialOrderRepeats(t *testing.T) {
	srv := serve(t, map[string]route{
		"/robots.txt": {Body: "Sitemap: {base}/i1.xml\nSitemap: {base}/i2.xml\n"},
		"/i1.xml":     {Body: index("{base}/a.xml", "{base}/missing-1.xml", "{base}/b.xml")},
		"/i2.xml":     {Body: index("{base}/c.xml", "{base}/a.xml", "{base}/missing-2.xml")},
		"/a.xml":      {Body: urlset("{base}/a1", "", "{base}/a2")},
		"/b.xml":      {Body: urlset("{base}/b1", "ftp://example.com/b")},
		"/c.xml":      {Body: urlset("{base}/c1")},
	})
	s := sitemap.New().SetMultiThread(false)
	var first [3][]string
	for call := range 5 {
		if _, err := s.Parse(srv.At("/robots.txt"), nil); err != nil {
			t.Fatal(err)
		}
		got := [3][]string{sitemapLocsOf(s.GetSitemaps()), locsOf(s.GetURLs()), messagesOf(s.GetErrors())}
		if call == 0 {
			first = got
			wantSitemaps := []string{srv.At("/i1.xml"), srv.At("/i2.xml"), srv.At("/a.xml"), srv.At("/missing-1.xml"),
				srv.At("/b.xml"), srv.At("/c.xml"), srv.At("/missing-2.xml")}
			if !slices.Equal(got[0], wantSitemaps) {
				t.Errorf("GetSitemaps() = %q, want %q", got[0], wantSitemaps)
			}
			wantURLs := []string{srv.At("/a1"), srv.At("/a2"), srv.At("/b1"), srv.At("/c1")}
			if !slices.Equal(got[1], wantURLs) {
				t.Errorf("GetURLs() = %q, want %q", got[1], wantURLs)
			}
			if len(got[2]) != 4 {
				t.Errorf("errors %q, want 4", got[2])
			}
			continue
		}
		for i, what := range []string{"sitemaps", "URLs", "errors"} {
			if !slices.Equal(got[i], first[i]) {
				t.Errorf("call %d: %s %q, the first call gave %q", call, what, got[i], first[i])
			}
		}
	}
}
