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

// GETURLS-15 (open; pinned as the code has it: only sitemaps are requested
// once, page URLs are not deduplicated): a page listed twice, in one
// sitemap or in two, is returned each time it is listed.
func TestDuplicatePagesKept(t *testing.T) {
	srv := newServer(t)
	srv.Doc("/a.xml", urlset("https://example.com/p", "https://example.com/q", "https://example.com/p"))
	srv.Doc("/b.txt", "https://example.com/p\n")
	srv.Doc("/index.xml", index(srv.At("/a.xml"), srv.At("/b.txt")))
	s, err := sitemap.New().SetMultiThread(false).Parse(srv.At("/index.xml"), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	equalStrings(t, "URLs", locsOf(s.GetURLs()), []string{"https://example.com/p", "https://example.com/q", "https://example.com/p", "https://example.com/p"})
	noErrors(t, s)
}

// RANDOM-5 (open; pinned as the code has it): the result for n of 0 or
// less is an empty slice, not nil, with URLs or without; "none twice" is
// about positions, so URLs that share a Loc may all be returned.
func TestRandomURLsEmptyAndPositions(t *testing.T) {
	for _, n := range []int{0, -1, 3} {
		if got := sitemap.New().GetRandomURLs(n); got == nil || len(got) != 0 {
			t.Errorf("GetRandomURLs(%d) of an instance without URLs = %#v, want an empty slice", n, got)
		}
	}
	doc := urlset("https://example.com/same", "https://example.com/same", "https://example.com/other", "https://example.com/same")
	s, err := sitemap.New().Parse("https://example.com/sitemap.xml", &doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, -5} {
		if got := s.GetRandomURLs(n); got == nil || len(got) != 0 {
			t.Errorf("GetRandomURLs(%d) = %#v, want an empty slice", n, got)
		}
	}
	for _, n := range []int{4, 10} {
		got := locsOf(s.GetRandomURLs(n))
		slices.Sort(got)
		equalStrings(t, fmt.Sprintf("GetRandomURLs(%d)", n), got, []string{"https://example.com/other", "https://example.com/same", "https://example.com/same", "https://example.com/same"})
	}
}

// GETSITEMAPS-2: the Loc of a listed sitemap is never empty and is the URL
// it is requested by: resolved and encoded as the request is made. Entries
// without a location or a host are not listed.
func TestSitemapLocIsTheURLRequested(t *testing.T) {
	srv := newServer(t)
	srv.Doc("/m\u00fcnchen.xml", urlset("https://example.com/m"))
	srv.Doc("/maps/sub/a b.xml", urlset("https://example.com/ab"))
	index := index("/m\u00fcnchen.xml", "", "sub/a b.xml", "https:///no-host.xml", "  ")
	s, err := sitemap.New().SetMultiThread(false).Parse(srv.At("/maps/index.xml"), &index)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	listed := sitemapLocsOf(s.GetSitemaps())
	var requested []string
	for _, p := range srv.Log() {
		requested = append(requested, srv.At(p))
	}
	equalStrings(t, "listed, and requested", listed, requested)
	equalStrings(t, "listed", listed, []string{srv.At("/m%C3%BCnchen.xml"), srv.At("/maps/sub/a%20b.xml")})
	for _, l := range listed {
		if l == "" {
			t.Error("a sitemap with an empty Loc is listed")
		}
	}
	if s.GetURLCount() != 2 {
		t.Errorf("%d URLs, errors %q", s.GetURLCount(), messagesOf(s.GetErrors()))
	}
}

// ERRORS-15 (open; pinned as the code has it): GetErrors never returns nil,
// before any call and after a call without errors. The order, decided
// (outstanding *ConfigError values, then the call's errors as recorded), is
// TestGetErrorsList's.
func TestGetErrorsNeverNil(t *testing.T) {
	s := sitemap.New()
	if errs := s.GetErrors(); errs == nil || len(errs) != 0 {
		t.Errorf("GetErrors() of a new instance = %#v, want an empty slice", errs)
	}
	content := urlset("https://example.com/p")
	if _, err := s.Parse("https://example.com/sitemap.xml", &content); err != nil {
		t.Fatal(err)
	}
	if errs := s.GetErrors(); errs == nil || len(errs) != 0 {
		t.Errorf("GetErrors() after a call without errors = %#v, want an empty slice", errs)
	}
	s.SetMaxDepth(0).SetMaxDepth(3)
	if errs := s.GetErrors(); errs == nil || len(errs) != 0 {
		t.Errorf("GetErrors() after a configuration error was cleared = %#v, want an empty slice", errs)
	}
}

// ERRORS-10, ERRORS-11, ERRORS-12, ERRORS-15 (decision on the order:
// *ConfigError values first): GetErrors returns the list the instance
// keeps, without spare capacity, and a slice once returned never changes:
// not when a setter records or clears an error, not when a call starts.
func TestGetErrorsList(t *testing.T) {
	srv := serve(t, map[string]route{
		// Three errors recorded one by one: a list grown by append would
		// have room to spare.
		"/index.xml": {Body: index("{base}/m1.xml", "{base}/m2.xml", "{base}/m3.xml")},
	})
	s := sitemap.New().SetMultiThread(false)
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatal(err)
	}
	a, b := s.GetErrors(), s.GetErrors()
	if len(a) != 3 {
		t.Fatalf("errors %q, want 3", messagesOf(a))
	}
	if &a[0] != &b[0] {
		t.Error("two GetErrors() calls return different arrays: the list is copied")
	}
	if cap(a) != len(a) {
		t.Errorf("cap %d, len %d", cap(a), len(a))
	}
	want := messagesOf(a)
	first := a[0]
	c := append(a, errors.New("appended"))
	c[0] = errors.New("set in the appended copy")
	if s.GetErrorsCount() != 3 || s.GetErrors()[0] != first {
		t.Errorf("appending to the result reached the instance: %q", messagesOf(s.GetErrors()))
	}
	// ERRORS-1: a configuration error recorded now comes first.
	s.SetMaxURLs(-1)
	now := s.GetErrors()
	var ce *sitemap.ConfigError
	if len(now) != 4 || !errors.As(now[0], &ce) || now[1] != a[0] || now[2] != a[1] || now[3] != a[2] {
		t.Errorf("after SetMaxURLs(-1): %q, want the *ConfigError then the call's three errors", messagesOf(now))
	}
	s.SetMaxURLs(0)
	if got := messagesOf(s.GetErrors()); !slices.Equal(got, want) {
		t.Errorf("after clearing it: %q, want %q", got, want)
	}
	s.SetMaxSitemaps(-1).SetMaxSitemaps(0)
	if _, err := s.Parse("ftp://example.com/x", nil); err == nil {
		t.Fatal("Parse of an ftp URL did not fail")
	}
	if got := messagesOf(a); !slices.Equal(got, want) || a[0] != first {
		t.Errorf("a slice returned earlier changed: %q", got)
	}
	if got := messagesOf(now); len(got) != 4 {
		t.Errorf("a slice returned earlier changed: %q", got)
	}
}
