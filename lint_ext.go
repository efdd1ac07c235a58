package sitemap

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is lint's checks of the extensions of a <url>, by the rules
// Google documents for image, news and video sitemaps, and of its
// alternate links (hreflang). The rules strict mode has as well are
// checked by its functions (extensions.go); those here alone are lint's
// (the column strict of the table of Code says which).

// Google's bounds.
const (
	lintMaxImages  = 1000
	lintMaxNews    = 1000
	lintNewsMaxAge = 48 * time.Hour

	lintMaxVideoDescription = 2048 // characters
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
		ld.video(&e.videos[i], raw, loc)
	}
	if len(e.links) > 0 {
		ld.hreflang(e.links, raw, loc)
	}
}

func (ld *lintDoc) image(im *rawImage, page string) {
	raw := string(im.loc.text())
	ld.broke(page, raw, imageLoc.check(raw))
	license := string(im.license.text())
	ld.broke(page, license, imageLicense.check(license))
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
	checkNews(n, func(err error) { ld.broke(page, "", err) })
	if lang := string(n.language.text()); lang != "" && !newsLanguage(lang) {
		ld.entryFinding(CodeNewsLanguage, page, "<news:language> %q is no ISO 639 language code", lang)
	}
	raw := n.publicationDate.text()
	if len(raw) == 0 {
		return
	}
	t, err := checkDate("news:publication_date", raw, false)
	switch {
	case err != nil:
		ld.broke(page, "", err)
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

// video checks a video of the page loc (as written: page) by the rules
// strict mode has (extensions.go), each URL, number and date, and then
// the fields (checkVideo), whatever its thumbnail: strict mode leaves out
// a video without one and checks no further, lint lists all that is wrong
// with it. Then Google's rules that are lint's alone: the length of the
// description, and a content location that is the page.
func (ld *lintDoc) video(v *rawVideo, page, loc string) {
	fail := func(err error) { ld.broke(page, "", err) }
	thumb := string(v.thumbnailLoc.text())
	ld.broke(page, thumb, videoThumb.check(thumb))
	urls := []*value{&v.contentLoc, &v.playerLoc}
	if v.uploader.set {
		urls = append(urls, &v.uploaderInfo)
	}
	for _, u := range urls {
		raw := string(u.text())
		ld.broke(page, raw, videoURL.check(raw))
	}
	for _, d := range [...]struct {
		name string
		v    *value
	}{{"video:expiration_date", &v.expirationDate}, {"video:publication_date", &v.publicationDate}} {
		if raw := d.v.text(); len(raw) > 0 {
			_, err := checkDate(d.name, raw, false)
			ld.broke(page, "", err)
		}
	}
	if v.duration.set {
		_, err := checkVideoNumber(&v.duration, videoDuration)
		ld.broke(page, "", err)
	}
	if v.viewCount.set {
		_, err := checkVideoNumber(&v.viewCount, videoViewCount)
		ld.broke(page, "", err)
	}
	if v.rating.set {
		_, err := checkVideoRating(&v.rating)
		ld.broke(page, "", err)
	}
	checkVideo(v, fail)
	if n := utf8.RuneCount(v.description.text()); n > lintMaxVideoDescription {
		ld.entryFinding(CodeVideoDescriptionLong, page, "<video:description> has %d characters, more than the %d Google reads", n, lintMaxVideoDescription)
	}
	if content := string(v.contentLoc.text()); content != "" {
		if c, err := urlnorm.Loc(content, ld.d.base, false); err == nil && urlnorm.Key(c) == urlnorm.Key(loc) {
			ld.entryFinding(CodeVideoContentIsPage, page, "<video:content_loc> is the page itself; it names the video file (player_loc a player)")
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
		written := string(lk.href.text())
		ld.broke(raw, written, alternateHref.check(written))
		code := string(lk.hreflang.text())
		if err := checkAlternate(string(lk.rel.text()), code); err != nil {
			ld.broke(raw, written, err)
			continue
		}
		any = true
		if !hreflangValid(code) {
			ld.entryFinding(CodeHreflangCode, raw, "hreflang %q is no language code (ISO 639, with an ISO 3166 region: en-GB), nor x-default", code)
		}
		href, err := urlnorm.Loc(written, ld.d.base, false)
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
