package sitemap

import (
	"fmt"
	"unicode/utf8"

	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file translates the extensions of a <url>: images, news, videos and
// alternate links, in tolerant or strict mode.

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

// keyURL checks the URL an image, a video or an alternate link is known
// by. ok is false when the item is to be left out: silently in tolerant
// mode when the URL is empty, reported otherwise.
func (d *doc) keyURL(v *value, what, page string) (string, bool) {
	raw := textOf(v)
	if len(raw) == 0 {
		if d.strict {
			d.invalid(page, fmt.Errorf("strict mode: %s is empty", what))
		}
		return "", false
	}
	written := d.intern(raw)
	// Tolerant mode asks no more of the URL than that it is there and of
	// at most 2,048 characters, counted as written: a character that is
	// not in ASCII counts once (EXTURL-15, decision).
	if !d.strict && (v.cut || len(written) > maxURLLength && utf8.RuneCountInString(written) > maxURLLength) {
		d.invalid(written, urlnorm.ErrTooLong)
		return "", false
	}
	out, err := d.urls.Link(written, d.strict)
	if err != nil {
		d.invalid(written, err)
		return "", false
	}
	return out, true
}

// optionalURL checks a URL that an item need not give: one that strict
// mode does not accept is reported, and returned as written.
func (d *doc) optionalURL(v *value) string {
	raw := textOf(v)
	if len(raw) == 0 {
		return ""
	}
	written := d.intern(raw)
	out, err := d.urls.Link(written, d.strict)
	if err != nil {
		d.invalid(written, err)
		return written
	}
	return out
}

// image checks the image r of the page and writes it to im, which is zero;
// false when the image is left out, and im then stays zero.
func (d *doc) image(r *rawImage, page string, im *Image) bool {
	loc, ok := d.keyURL(&r.loc, "image <loc>", page)
	if !ok {
		return false
	}
	im.Loc = loc
	im.Title = d.str(&r.title)
	im.Caption = d.str(&r.caption)
	im.GeoLocation = d.str(&r.geoLocation)
	im.License = d.optionalURL(&r.license)
	return true
}

func (d *doc) news(r *rawNews, page string) *News {
	n := &News{
		Publication: NewsPublication{Name: d.str(&r.name), Language: d.str(&r.language)},
		Title:       d.str(&r.title),
	}
	date, ok := d.date(&r.publicationDate, "news:publication_date", false, page)
	n.PublicationDate = date
	if d.strict {
		// In the order of the elements in a news sitemap. A date that
		// cannot be parsed has been reported as such, and only so.
		missing := func(name string, empty bool) {
			if empty {
				d.invalid(page, fmt.Errorf("strict mode: news <%s> is empty", name))
			}
		}
		missing("name", n.Publication.Name == "")
		missing("language", n.Publication.Language == "")
		missing("publication_date", date == nil && ok)
		missing("title", n.Title == "")
	}
	return n
}

func (d *doc) video(r *rawVideo, page string) (Video, bool) {
	thumb, ok := d.keyURL(&r.thumbnailLoc, "video <thumbnail_loc>", page)
	if !ok {
		return Video{}, false
	}
	v := Video{
		ThumbnailLoc:         thumb,
		Title:                d.str(&r.title),
		Description:          d.str(&r.description),
		ContentLoc:           d.optionalURL(&r.contentLoc),
		PlayerLoc:            d.optionalURL(&r.playerLoc),
		FamilyFriendly:       d.str(&r.familyFriendly),
		RequiresSubscription: d.str(&r.requiresSubscription),
		Live:                 d.str(&r.live),
	}
	v.ExpirationDate, _ = d.date(&r.expirationDate, "video:expiration_date", false, page)
	v.PublicationDate, _ = d.date(&r.publicationDate, "video:publication_date", false, page)
	if r.duration.set {
		v.Duration = d.integer(&r.duration, "video:duration", page)
	}
	if r.viewCount.set {
		v.ViewCount = d.integer(&r.viewCount, "video:view_count", page)
	}
	if r.rating.set {
		raw := r.rating.text()
		if f, ok := parseFloat32(raw); ok {
			v.Rating = &f
		} else {
			d.invalid(page, fmt.Errorf("invalid <video:rating> value %q", raw))
		}
	}
	if r.restriction.set {
		v.Restriction = &VideoRestriction{Relationship: d.str(&r.restrictionRel), Value: d.str(&r.restriction)}
	}
	if r.platform.set {
		v.Platform = &VideoPlatform{Relationship: d.str(&r.platformRel), Value: d.str(&r.platform)}
	}
	if r.uploader.set {
		v.Uploader = &VideoUploader{Value: d.str(&r.uploader), Info: d.optionalURL(&r.uploaderInfo)}
	}
	if r.nTags > 0 {
		v.Tags = make([]string, r.nTags)
		for i := range r.nTags {
			v.Tags[i] = d.str(&r.tags[i])
		}
	}
	if d.strict {
		d.checkVideo(&v, r, page)
	}
	return v, true
}

// checkVideo reports, for strict mode, every field of v that is missing or
// out of range; r is what v was read from, whose numbers an error quotes as
// written, as the one of a <priority> does. The video is kept whatever it
// reports.
func (d *doc) checkVideo(v *Video, r *rawVideo, page string) {
	bad := func(format string, args ...any) { d.invalid(page, fmt.Errorf("strict mode: "+format, args...)) }
	if v.Title == "" {
		bad("video <title> is empty")
	}
	if v.Description == "" {
		bad("video <description> is empty")
	}
	if v.ContentLoc == "" && v.PlayerLoc == "" {
		bad("video has neither <content_loc> nor <player_loc>")
	}
	if v.Duration != nil && (*v.Duration < minVideoDuration || *v.Duration > maxVideoDuration) {
		bad("video <duration> value %q is not between %d and %d", r.duration.text(), minVideoDuration, maxVideoDuration)
	}
	if v.Rating != nil && (*v.Rating < 0 || *v.Rating > maxVideoRating) {
		bad("video <rating> value %q is not between 0.0 and 5.0", r.rating.text())
	}
	if len(v.Tags) > maxVideoTags {
		bad("video has %d <tag> elements, more than %d", len(v.Tags), maxVideoTags)
	}
	for _, f := range []struct{ name, v string }{
		{"family_friendly", v.FamilyFriendly}, {"requires_subscription", v.RequiresSubscription}, {"live", v.Live},
	} {
		if f.v != "" && f.v != "yes" && f.v != "no" {
			bad("video <%s> value %q is neither yes nor no", f.name, f.v)
		}
	}
	if v.Restriction != nil && !isAllowDeny(v.Restriction.Relationship) {
		bad("video <restriction> relationship %q is neither allow nor deny", v.Restriction.Relationship)
	}
	if v.Platform != nil && !isAllowDeny(v.Platform.Relationship) {
		bad("video <platform> relationship %q is neither allow nor deny", v.Platform.Relationship)
	}
}

func isAllowDeny(s string) bool { return s == "allow" || s == "deny" }

// integer parses a whole number of a video; nil and reported when it cannot
// be parsed.
func (d *doc) integer(v *value, name, page string) *int {
	raw := v.text()
	n, ok := parseInt(raw)
	if !ok {
		d.invalid(page, fmt.Errorf("invalid <%s> value %q", name, raw))
		return nil
	}
	return &n
}

func (d *doc) link(r *rawLink, page string) (AlternateLink, bool) {
	href, ok := d.keyURL(&r.href, "alternate link href", page)
	if !ok {
		return AlternateLink{}, false
	}
	l := AlternateLink{Rel: d.str(&r.rel), Hreflang: d.str(&r.hreflang), Href: href}
	if d.strict {
		if l.Rel != "alternate" {
			d.invalid(href, fmt.Errorf("strict mode: alternate link rel %q is not \"alternate\"", l.Rel))
			return AlternateLink{}, false
		}
		if l.Hreflang == "" {
			d.invalid(href, fmt.Errorf("strict mode: alternate link hreflang is empty"))
			return AlternateLink{}, false
		}
	}
	return l, true
}

// str returns the text of v without the white space around it.
func (d *doc) str(v *value) string { return d.intern(textOf(v)) }
