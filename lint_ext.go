package sitemap

import (
	"fmt"
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/gositemap/sitemap/internal/dates"
	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is lint's checks of the extensions of a <url>, by the rules
// Google documents for image, news and video sitemaps, and of its
// alternate links (hreflang).

// Google's bounds.
const (
	lintMaxImages  = 1000
	lintMaxNews    = 1000
	lintNewsMaxAge = 48 * time.Hour
)

// extensions checks the images, news, videos and alternate links of the
// entry of loc (as written: raw).
func (ld *lintDoc) extensions(e *rawEntry, raw, loc string) {
	if len(e.images) > lintMaxImages {
		ld.entryFinding(CodeImageTooMany, raw, "%d images, more than the %d Google reads of one page", len(e.images), lintMaxImages)
	}
	for i := range e.images {
		ld.image(&e.images[i], raw)
	}
	if e.hasNews {
		ld.news++
		ld.newsEntry(&e.news, raw)
	}
	for i := range e.videos {
		ld.video(&e.videos[i], raw)
	}
	if len(e.links) > 0 {
		ld.hreflang(e.links, raw, loc)
	}
}

func (ld *lintDoc) image(im *rawImage, page string) {
	switch raw := string(im.loc.text()); {
	case raw == "":
		ld.entryFinding(CodeImageLocMissing, page, "an <image:image> without <image:loc>")
	default:
		if _, err := urlnorm.Link(raw, true); err != nil {
			ld.entryFinding(CodeImageLocInvalid, page, "<image:loc> %q: %v", raw, err)
		}
	}
	var old []string
	for _, f := range []struct {
		name string
		v    *value
	}{{"caption", &im.caption}, {"title", &im.title}, {"geo_location", &im.geoLocation}, {"license", &im.license}} {
		if f.v.set {
			old = append(old, "<image:"+f.name+">")
		}
	}
	if len(old) > 0 {
		ld.entryFinding(CodeImageDeprecated, page, "%s: Google no longer reads them", strings.Join(old, ", "))
	}
}

func (ld *lintDoc) newsEntry(n *rawNews, page string) {
	var missing []string
	for _, f := range []struct {
		name string
		v    *value
	}{{"publication/name", &n.name}, {"publication/language", &n.language}, {"publication_date", &n.publicationDate}, {"title", &n.title}} {
		if len(f.v.text()) == 0 {
			missing = append(missing, "<news:"+f.name+">")
		}
	}
	if len(missing) > 0 {
		ld.entryFinding(CodeNewsMissing, page, "the news entry lacks %s, which Google requires", strings.Join(missing, ", "))
	}
	if lang := string(n.language.text()); lang != "" && !newsLanguage(lang) {
		ld.entryFinding(CodeNewsLanguage, page, "<news:language> %q is no ISO 639 language code", lang)
	}
	raw := n.publicationDate.text()
	if len(raw) == 0 {
		return
	}
	t, ok := dates.ParseW3C(raw)
	switch {
	case !ok:
		ld.entryFinding(CodeNewsDateInvalid, page, "<news:publication_date> %q is no W3C Datetime", raw)
	case t.Before(ld.l.now.Add(-lintNewsMaxAge)):
		ld.entryFinding(CodeNewsTooOld, page, "published %s, more than two days before the lint; Google News reads the articles of the last two days", raw)
	}
}

// newsLanguage reports whether s is a language code Google News takes:
// ISO 639 of two or three letters, or zh-cn, zh-tw.
func newsLanguage(s string) bool {
	l := strings.ToLower(s)
	if l == "zh-cn" || l == "zh-tw" {
		return true
	}
	if len(l) < 2 || len(l) > 3 || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz") != "" {
		return false
	}
	_, err := language.ParseBase(l)
	return err == nil
}

func (ld *lintDoc) video(v *rawVideo, page string) {
	var missing []string
	for _, f := range []struct {
		name string
		v    *value
	}{{"thumbnail_loc", &v.thumbnailLoc}, {"title", &v.title}, {"description", &v.description}} {
		if len(f.v.text()) == 0 {
			missing = append(missing, "<video:"+f.name+">")
		}
	}
	if len(v.contentLoc.text()) == 0 && len(v.playerLoc.text()) == 0 {
		missing = append(missing, "<video:content_loc> or <video:player_loc>")
	}
	if len(missing) > 0 {
		ld.entryFinding(CodeVideoMissing, page, "the video lacks %s, which Google requires", strings.Join(missing, ", "))
	}
	if v.duration.set {
		raw := v.duration.text()
		if n, ok := parseInt(raw); !ok || n < minVideoDuration || n > maxVideoDuration {
			ld.entryFinding(CodeVideoDuration, page, "<video:duration> %q is no whole number of seconds from %d to %d", raw, minVideoDuration, maxVideoDuration)
		}
	}
	if v.rating.set {
		raw := v.rating.text()
		if f, ok := parseFloat32(raw); !ok || f < 0 || f > maxVideoRating {
			ld.entryFinding(CodeVideoRating, page, "<video:rating> %q is no number from 0.0 to 5.0", raw)
		}
	}
}

// hreflang checks the alternate links of the page loc (as written: raw)
// and keeps them for hreflang-return.
func (ld *lintDoc) hreflang(links []rawLink, raw, loc string) {
	self := ld.l.hash('p', urlnorm.Key(loc))
	hasSelf, any := false, false
	for i := range links {
		lk := &links[i]
		if string(lk.rel.text()) != "alternate" || !lk.hreflang.set {
			continue
		}
		any = true
		code := string(lk.hreflang.text())
		if !hreflangValid(code) {
			ld.entryFinding(CodeHreflangCode, raw, "hreflang %q is no language code (ISO 639, with an ISO 3166 region: en-GB), nor x-default", code)
		}
		href, err := urlnorm.Loc(string(lk.href.text()), ld.d.base, false)
		if err != nil {
			continue
		}
		alt := ld.l.hash('p', urlnorm.Key(href))
		if alt == self {
			hasSelf = true
			continue
		}
		ld.l.link(self, alt, lintLink{node: int32(ld.d.node), line: int32(ld.line), col: int32(ld.col), page: raw, alt: href}, ld)
	}
	if any && !hasSelf {
		ld.entryFinding(CodeHreflangSelf, raw, "the alternate links of the page do not list the page itself")
	}
}

// hreflangValid reports whether code is an hreflang value: x-default, or
// a language with perhaps a script and a region, as BCP 47 writes them.
func hreflangValid(code string) bool {
	if strings.EqualFold(code, "x-default") {
		return true
	}
	if code == "" || strings.ContainsRune(code, '_') {
		return false
	}
	_, err := language.Parse(code)
	return err == nil
}

// link keeps the alternate link from the page of hash page to the page of
// hash alt, within the cap.
func (l *linter) link(page, alt uint64, ln lintLink, ld *lintDoc) {
	l.mu.Lock()
	full := false
	if _, ok := l.links[[2]uint64{page, alt}]; !ok {
		if len(l.links) < l.opt.MaxHreflangs {
			l.links[[2]uint64{page, alt}] = ln
		} else if !l.linkFull {
			l.linkFull, full = true, true
		}
	}
	l.mu.Unlock()
	if full {
		ld.report(CodeLintCapped, int(ln.line), int(ln.col), "", fmt.Sprintf("more than %d alternate links: hreflang-return is not checked further", l.opt.MaxHreflangs))
	}
}
