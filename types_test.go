package sitemap_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gositemap/sitemap"
)

// GETURLS-10, GETURLS-11: the ChangeFreq constants are the values of the
// protocol; a value of the protocol comes back equal to its constant in
// both modes, and in strict mode a ChangeFreq that is set is always one of
// them, an entry with any other value being left out.
func TestChangeFreqConstants(t *testing.T) {
	consts := []sitemap.URLChangeFreq{
		sitemap.ChangeFreqAlways, sitemap.ChangeFreqHourly, sitemap.ChangeFreqDaily, sitemap.ChangeFreqWeekly,
		sitemap.ChangeFreqMonthly, sitemap.ChangeFreqYearly, sitemap.ChangeFreqNever,
	}
	values := []string{"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}
	var entries []string
	for i, v := range values {
		if string(consts[i]) != v {
			t.Errorf("constant %d is %q, want %q", i, consts[i], v)
		}
		entries = append(entries, fmt.Sprintf(`<loc>https://example.com/%d</loc><changefreq>%s</changefreq>`, i, v))
	}
	for _, odd := range []string{"Daily", "WEEKLY", "fortnightly", "daily "} {
		entries = append(entries, `<loc>https://example.com/odd</loc><changefreq>`+odd+`</changefreq>`)
	}
	doc := urlset(entries...)
	for _, strict := range []bool{false, true} {
		s, err := sitemap.New().SetStrict(strict).Parse("https://example.com/sitemap.xml", &doc)
		if err != nil {
			t.Fatalf("strict=%v: Parse: %v", strict, err)
		}
		urls := s.GetURLs()
		if len(urls) < len(consts) {
			t.Fatalf("strict=%v: %d URLs", strict, len(urls))
		}
		for i, c := range consts {
			if urls[i].ChangeFreq == nil || *urls[i].ChangeFreq != c {
				t.Errorf("strict=%v: %s: ChangeFreq %v, want %q", strict, urls[i].Loc, urls[i].ChangeFreq, c)
			}
		}
		if !strict {
			continue
		}
		// "daily " is "daily" once the white space around it is gone.
		if len(urls) != len(consts)+1 {
			t.Errorf("strict: %d URLs, want the %d of the protocol's values and the padded one", len(urls), len(consts)+1)
		}
		for _, u := range urls {
			if u.ChangeFreq != nil && !slices.Contains(consts, *u.ChangeFreq) {
				t.Errorf("strict: %s has ChangeFreq %q, none of the constants", u.Loc, *u.ChangeFreq)
			}
		}
	}
}
