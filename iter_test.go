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

// nilShape compares where a and b hold nil pointers and slices, through
// structs, pointers and slices; it returns the first path where they differ.
func nilShape(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer, reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v in the original, %v in the copy", path, a.IsNil(), b.IsNil())
		}
		if a.IsNil() {
			return ""
		}
		if a.Kind() == reflect.Pointer {
			return nilShape(a.Elem(), b.Elem(), path)
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d in the original, %d in the copy", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := nilShape(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if d := nilShape(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
	}
	return ""
}

// ITER-7 (open; pinned as iter.go has it): the copies URLs() and
// GetRandomURLs() make are nil where the original is nil and set where it
// is set, for every pointer and slice down to those of a video.
func TestCopiesKeepNil(t *testing.T) {
	s := parseContent(t, "https://example.com/sitemap.xml", richContent)
	urls := s.GetURLs()
	if len(urls) != 2 {
		t.Fatalf("%d URLs", len(urls))
	}
	requireRich(t, &urls[0])
	if urls[1].Images != nil || urls[1].ChangeFreq != nil || urls[1].News != nil {
		t.Fatalf("the second URL of the fixture is not bare: %+v", urls[1])
	}
	i := 0
	for c := range s.URLs() {
		if d := nilShape(reflect.ValueOf(urls[i]), reflect.ValueOf(c), "URL"); d != "" {
			t.Errorf("URLs() #%d: %s", i, d)
		}
		i++
	}
	for _, c := range s.GetRandomURLs(2) {
		j := slices.IndexFunc(urls, func(u sitemap.URL) bool { return u.Loc == c.Loc })
		if d := nilShape(reflect.ValueOf(urls[j]), reflect.ValueOf(c), "URL"); d != "" {
			t.Errorf("GetRandomURLs: %s", d)
		}
	}
}

// ERRORS-1, ERRITER-1, ERRITER-2, ERRITER-3, COUNT-3: Errors() yields the
// values GetErrors returns, in order, the error Parse returned among them
// (==); a collected list is the caller's own.
func TestErrorsIterator(t *testing.T) {
	content := urlset("", "{bad}", "https://example.com/ok")
	content = strings.Replace(content, "{bad}", "https:///nohost", 1)
	s := sitemap.New()
	if _, err := s.Parse("https://example.com/sitemap.xml", &content); err != nil {
		t.Fatal(err)
	}
	s.SetFollow([]string{"("}) // a configuration error, first in the list
	errs := s.GetErrors()
	if len(errs) != 3 || s.GetErrorsCount() != 3 {
		t.Fatalf("errors %q, want 3", messagesOf(errs))
	}
	var ce *sitemap.ConfigError
	if !errors.As(errs[0], &ce) {
		t.Errorf("the first error is %T, want the *ConfigError", errs[0])
	}
	got := slices.Collect(s.Errors())
	if len(got) != len(errs) {
		t.Fatalf("Errors() yields %d errors, GetErrors() returns %d", len(got), len(errs))
	}
	for i := range got {
		if got[i] != errs[i] {
			t.Errorf("error %d: Errors() yields %v, GetErrors() holds %v", i, got[i], errs[i])
		}
	}
	slices.Reverse(got)
	got[0] = errors.New("replaced")
	if again := s.GetErrors(); again[0] != errs[0] || again[2] != errs[2] {
		t.Errorf("changing a collected list reached the instance")
	}
	// Early break.
	n := 0
	for range s.Errors() {
		n++
		break
	}
	if n != 1 {
		t.Errorf("the loop ran %d times", n)
	}

	// ERRITER-2, PARSE-9: the error Parse returned is among them, as the
	// very value.
	s.SetFollow(nil)
	html := "<html/>"
	_, err := s.Parse("https://example.com/page.html", &html)
	if err == nil {
		t.Fatal("no error for an HTML page")
	}
	found := false
	for e := range s.Errors() {
		if e == err {
			found = true
		}
	}
	if !found {
		t.Errorf("Errors() does not yield the error Parse returned")
	}
}

// ERRITER-4, THREAD-6: a loop over Errors() whose body calls Parse goes on
// through the errors as they were when it started.
func TestErrorsLoopBodyCallsParse(t *testing.T) {
	first := urlset("", "ftp://example.com/a", "ftp://example.com/b")
	second := urlset("https://example.org/fine")
	s := parseContent(t, "https://example.com/sitemap.xml", first)
	want := messagesOf(s.GetErrors())
	if len(want) != 3 {
		t.Fatalf("errors %q, want 3", want)
	}
	var seen []string
	guard(t, guardTimeout, func() {
		for err := range s.Errors() {
			if len(seen) == 0 {
				if _, err := s.Parse("https://example.org/sitemap.xml", &second); err != nil {
					t.Error(err)
				}
			}
			seen = append(seen, err.Error())
		}
	})
	if !slices.Equal(seen, want) {
		t.Errorf("the loop saw %q, want %q", seen, want)
	}
	if s.GetErrorsCount() != 0 {
		t.Errorf("after the loop GetErrors() = %q", messagesOf(s.GetErrors()))
	}
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
