package sitemap

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file translates the extensions of a <url>: images, news, videos and
// alternate links, in tolerant or strict mode. Their rules (rules.go) are
// checked here, by functions that lint calls too (lint_ext.go): a failure
// is the same error, of the same Code, in both.

// maxVideoTags is how many <video:tag> a video may have in strict mode.
const maxVideoTags = 32

// The ranges strict mode holds the numbers of a video to.
const (
	minVideoDuration = 1
	maxVideoDuration = 28800 // eight hours, in seconds
	maxVideoRating   = 5.0
)

// extensions adds the extensions of e to u. page is u.Loc, which the errors
// that are not about a URL name.
func (d *doc) extensions(e *rawEntry, u *URL) {
	page := u.Loc
	if len(e.images) > 0 {
		// Each image is written in its slot at once, rather than built
		// and copied in: a slot of an image left out stays as it was
		// handed out, zero, beyond the slice's length.
		ims := d.imageSlots(len(e.images))
		for i := range e.images {
			ims = ims[:len(ims)+1]
			if !d.image(&e.images[i], page, &ims[len(ims)-1]) {
				ims = ims[:len(ims)-1]
			}
		}
		u.Images = ims
		if len(u.Images) == 0 {
			u.Images = nil
		}
	}
	if e.hasNews {
		u.News = d.news(&e.news, page)
	}
	for i := range e.videos {
		if v, ok := d.video(&e.videos[i], page); ok {
			u.Videos = append(u.Videos, v)
		}
	}
	for i := range e.links {
		if l, ok := d.link(&e.links[i], page); ok {
			u.Hreflangs = append(u.Hreflangs, l)
		}
	}
}

// extURL is a URL of an extension and the rules of it: missing, the code
// of one that is required and empty (what names it in the error), and
// invalid, that of one that is no URL.
type extURL struct {
	what             string
	missing, invalid Code
}

// The URLs of the extensions. Those without a missing code need not be
// given.
var (
	imageLoc      = &extURL{"image <loc>", CodeImageLocMissing, CodeImageLocInvalid}
	imageLicense  = &extURL{"", "", CodeImageLocInvalid}
	videoThumb    = &extURL{"video <thumbnail_loc>", CodeVideoMissing, CodeVideoURLInvalid}
	videoURL      = &extURL{"", "", CodeVideoURLInvalid}
	alternateHref = &extURL{"alternate link href", CodeHreflangAttribute, CodeHreflangHrefInvalid}
)

// empty is the failure of a required URL that is empty.
func (k *extURL) empty() error {
	return broke(k.missing, fmt.Errorf("strict mode: %s is empty", k.what))
}

// check is the rule of the URL written raw, as strict mode has it: nil
// when it is a URL strict mode accepts, or an optional URL not given.
// Lint calls it; strict mode checks through the document's urlnorm.Recent
// (keyURL, optionalURL), to the same end.
func (k *extURL) check(raw string) error {
	if raw == "" {
		if k.missing == "" {
			return nil
		}
		return k.empty()
	}
	_, err := urlnorm.Link(raw, true)
	return broke(k.invalid, err)
}

// keyURL checks the URL an image, a video or an alternate link is known
// by. ok is false when the item is to be left out: silently in tolerant
// mode when the URL is empty, reported otherwise.
func (d *doc) keyURL(v *value, k *extURL, page string) (string, bool) {
	raw := textOf(v)
	if len(raw) == 0 {
		if d.strict {
			d.invalid(page, k.empty())
		}
		return "", false
	}
	written := d.intern(raw)
	// Tolerant mode asks no more of the URL than that it is there and of
	// at most 2,048 characters, counted as written: a character that is
	// not in ASCII counts once (EXTURL-15, decision).
	if !d.strict && (v.cut || len(written) > maxURLLength && utf8.RuneCountInString(written) > maxURLLength) {
		d.invalid(written, broke(k.invalid, urlnorm.ErrTooLong))
		return "", false
	}
	out, err := d.urls.Link(written, d.strict)
	if err != nil {
		d.invalid(written, broke(k.invalid, err))
		return "", false
	}
	return out, true
}

// optionalURL checks a URL that an item need not give: one that strict
// mode does not accept is reported, and returned as written.
func (d *doc) optionalURL(v *value, k *extURL) string {
	raw := textOf(v)
	if len(raw) == 0 {
		return ""
	}
	written := d.intern(raw)
	out, err := d.urls.Link(written, d.strict)
	if err != nil {
		d.invalid(written, broke(k.invalid, err))
		return written
	}
	return out
}

// image checks the image r of the page and writes it to im, which is zero;
// false when the image is left out, and im then stays zero.
func (d *doc) image(r *rawImage, page string, im *Image) bool {
	loc, ok := d.keyURL(&r.loc, imageLoc, page)
	if !ok {
		return false
	}
	im.Loc = loc
	im.Title = d.str(&r.title)
	im.Caption = d.str(&r.caption)
	im.GeoLocation = d.str(&r.geoLocation)
	im.License = d.optionalURL(&r.license, imageLicense)
	return true
}

func (d *doc) news(r *rawNews, page string) *News {
	n := &News{
		Publication: NewsPublication{Name: d.str(&r.name), Language: d.str(&r.language)},
		Title:       d.str(&r.title),
	}
	n.PublicationDate, _ = d.date(&r.publicationDate, "news:publication_date", false, page)
	if d.strict {
		checkNews(r, func(err error) { d.invalid(page, err) })
	}
	return n
}

// checkNews is the rule news-missing: it fails once for each element a
// news entry requires that is missing or empty, in their order in a news
// sitemap. A date that cannot be parsed is no missing one: it fails
// news-date-invalid, and only that (checkDate).
func checkNews(r *rawNews, fail func(error)) {
	for _, f := range [...]struct {
		name string
		v    *value
	}{{"name", &r.name}, {"language", &r.language}, {"publication_date", &r.publicationDate}, {"title", &r.title}} {
		if len(textOf(f.v)) == 0 {
			fail(broke(CodeNewsMissing, fmt.Errorf("strict mode: news <%s> is empty", f.name)))
		}
	}
}

func (d *doc) video(r *rawVideo, page string) (Video, bool) {
	thumb, ok := d.keyURL(&r.thumbnailLoc, videoThumb, page)
	if !ok {
		return Video{}, false
	}
	v := Video{
		ThumbnailLoc:         thumb,
		Title:                d.str(&r.title),
		Description:          d.str(&r.description),
		ContentLoc:           d.optionalURL(&r.contentLoc, videoURL),
		PlayerLoc:            d.optionalURL(&r.playerLoc, videoURL),
		FamilyFriendly:       d.str(&r.familyFriendly),
		RequiresSubscription: d.str(&r.requiresSubscription),
		Live:                 d.str(&r.live),
	}
	v.ExpirationDate, _ = d.date(&r.expirationDate, "video:expiration_date", false, page)
	v.PublicationDate, _ = d.date(&r.publicationDate, "video:publication_date", false, page)
	if r.duration.set {
		v.Duration = d.integer(&r.duration, videoDuration, page)
	}
	if r.viewCount.set {
		v.ViewCount = d.integer(&r.viewCount, videoViewCount, page)
	}
	if r.rating.set {
		if f, err := checkVideoRating(&r.rating); err != nil {
			d.invalid(page, err)
		} else {
			v.Rating = &f
		}
	}
	if r.restriction.set {
		v.Restriction = &VideoRestriction{Relationship: d.str(&r.restrictionRel), Value: d.str(&r.restriction)}
	}
	if r.platform.set {
		v.Platform = &VideoPlatform{Relationship: d.str(&r.platformRel), Value: d.str(&r.platform)}
	}
	if r.uploader.set {
		v.Uploader = &VideoUploader{Value: d.str(&r.uploader), Info: d.optionalURL(&r.uploaderInfo, videoURL)}
	}
	if r.nTags > 0 {
		v.Tags = make([]string, r.nTags)
		for i := range r.nTags {
			v.Tags[i] = d.str(&r.tags[i])
		}
	}
	if d.strict {
		checkVideo(r, func(err error) { d.invalid(page, err) })
	}
	return v, true
}

// checkVideo is the rules of a video beyond its URLs and the reading of
// its numbers and dates: it fails for every field that is missing and
// every value out of range, in the order of the fields (video-missing,
// video-duration, video-rating, video-tags-many, video-yes-no,
// video-restriction, video-platform). A number that cannot be read has
// failed already (checkVideoNumber, checkVideoRating) and fails nothing
// here; the error quotes a number as written, as the one of a <priority>
// does. The value of a restriction or a platform fails its rule when a word
// of it is no country code, or none of web, mobile and tv, as Google lists
// them. Strict mode keeps the video whatever it fails.
func checkVideo(r *rawVideo, fail func(error)) {
	bad := func(code Code, format string, args ...any) {
		fail(broke(code, fmt.Errorf("strict mode: "+format, args...)))
	}
	if len(textOf(&r.title)) == 0 {
		bad(CodeVideoMissing, "video <title> is empty")
	}
	if len(textOf(&r.description)) == 0 {
		bad(CodeVideoMissing, "video <description> is empty")
	}
	if len(textOf(&r.contentLoc)) == 0 && len(textOf(&r.playerLoc)) == 0 {
		bad(CodeVideoMissing, "video has neither <content_loc> nor <player_loc>")
	}
	if n, err := checkVideoNumber(&r.duration, videoDuration); r.duration.set && err == nil && (n < minVideoDuration || n > maxVideoDuration) {
		bad(CodeVideoDuration, "video <duration> value %q is not between %d and %d", r.duration.text(), minVideoDuration, maxVideoDuration)
	}
	if f, err := checkVideoRating(&r.rating); r.rating.set && err == nil && (f < 0 || f > maxVideoRating) {
		bad(CodeVideoRating, "video <rating> value %q is not between 0.0 and 5.0", r.rating.text())
	}
	if r.nTags > maxVideoTags {
		bad(CodeVideoTagsMany, "video has %d <tag> elements, more than %d", r.nTags, maxVideoTags)
	}
	for _, f := range [...]struct {
		name string
		v    *value
	}{{"family_friendly", &r.familyFriendly}, {"requires_subscription", &r.requiresSubscription}, {"live", &r.live}} {
		if v := string(textOf(f.v)); v != "" && v != "yes" && v != "no" {
			bad(CodeVideoYesNo, "video <%s> value %q is neither yes nor no", f.name, v)
		}
	}
	if rel := string(textOf(&r.restrictionRel)); r.restriction.set && !isAllowDeny(rel) {
		bad(CodeVideoRestriction, "video <restriction> relationship %q is neither allow nor deny", rel)
	}
	if v := textOf(&r.restriction); !eachField(v, isCountry) {
		if eachField(bytes.ToUpper(v), isCountry) {
			bad(CodeVideoRestriction, "video <restriction> value %q is not a list of ISO 3166 country codes: write them in capitals", v)
		} else {
			bad(CodeVideoRestriction, "video <restriction> value %q is not a list of ISO 3166 country codes", v)
		}
	}
	if rel := string(textOf(&r.platformRel)); r.platform.set && !isAllowDeny(rel) {
		bad(CodeVideoPlatform, "video <platform> relationship %q is neither allow nor deny", rel)
	}
	if v := textOf(&r.platform); !eachField(v, isPlatform) {
		bad(CodeVideoPlatform, "video <platform> value %q is not a list of web, mobile and tv", v)
	}
}

func isAllowDeny(s string) bool { return s == "allow" || s == "deny" }

// eachField reports whether ok holds for every word of the list v,
// separated by white space; an empty list has none that fails.
func eachField(v []byte, ok func([]byte) bool) bool {
	for _, f := range bytes.Fields(v) {
		if !ok(f) {
			return false
		}
	}
	return true
}

// isPlatform reports whether b is a platform of <video:platform>.
func isPlatform(b []byte) bool {
	s := string(b)
	return s == "web" || s == "mobile" || s == "tv"
}

// isCountry reports whether b is a country code of ISO 3166-1: two
// capital letters, as ISO 3166 writes them and the video sitemap schema
// asks ([A-Z]{2}); "us" is not one.
func isCountry(b []byte) bool {
	if len(b) != 2 || !isUpper(b[0]) || !isUpper(b[1]) {
		return false
	}
	r, err := language.ParseRegion(string(b))
	return err == nil && r.IsCountry()
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// videoNumber is a whole number of a video: its element, and the code of
// its rule.
type videoNumber struct {
	name string
	code Code
}

var (
	videoDuration  = videoNumber{"video:duration", CodeVideoDuration}
	videoViewCount = videoNumber{"video:view_count", CodeVideoViewCount}
)

// checkVideoNumber reads the whole number of a video that v holds, and
// fails, in both modes, when it cannot be read.
func checkVideoNumber(v *value, k videoNumber) (int, error) {
	raw := v.text()
	n, ok := parseInt(raw)
	if !ok {
		return 0, broke(k.code, fmt.Errorf("invalid <%s> value %q", k.name, raw))
	}
	return n, nil
}

// checkVideoRating reads the <video:rating> that v holds, and fails, in
// both modes, when it cannot be read.
func checkVideoRating(v *value) (float32, error) {
	raw := v.text()
	f, ok := parseFloat32(raw)
	if !ok {
		return 0, broke(CodeVideoRating, fmt.Errorf("invalid <video:rating> value %q", raw))
	}
	return f, nil
}

// integer parses a whole number of a video; nil and reported when it cannot
// be parsed.
func (d *doc) integer(v *value, k videoNumber, page string) *int {
	n, err := checkVideoNumber(v, k)
	if err != nil {
		d.invalid(page, err)
		return nil
	}
	return &n
}

func (d *doc) link(r *rawLink, page string) (AlternateLink, bool) {
	href, ok := d.keyURL(&r.href, alternateHref, page)
	if !ok {
		return AlternateLink{}, false
	}
	l := AlternateLink{Rel: d.str(&r.rel), Hreflang: d.str(&r.hreflang), Href: href}
	if d.strict {
		if err := checkAlternate(l.Rel, l.Hreflang); err != nil {
			d.invalid(href, err)
			return AlternateLink{}, false
		}
	}
	return l, true
}

// checkAlternate is the rule hreflang-attribute of an alternate link that
// has an href: its rel is alternate, and it has an hreflang.
func checkAlternate(rel, hreflang string) error {
	if rel != "alternate" {
		return broke(CodeHreflangAttribute, fmt.Errorf("strict mode: alternate link rel %q is not \"alternate\"", rel))
	}
	if hreflang == "" {
		return broke(CodeHreflangAttribute, errors.New("strict mode: alternate link hreflang is empty"))
	}
	return nil
}

// str returns the text of v without the white space around it.
func (d *doc) str(v *value) string { return d.intern(textOf(v)) }
