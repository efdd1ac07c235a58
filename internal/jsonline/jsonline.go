// Package jsonline is the JSON object a line of "sitemap -format jsonl"
// holds for a URL: the command writes it, and the fleet's batches carry the
// same lines, so that a reader of a crawl's output writes them as they come.
// The names of its fields are part of the command's interface: they do not
// change. A field the document does not give is null; the lists and the
// news of the extensions are left out when the page has none.
package jsonline

import (
	"time"

	"github.com/gositemap/sitemap"
)

// FormatDate writes a date in RFC 3339, with the fraction of a second when
// there is one.
func FormatDate(t *sitemap.LastModTime) string { return t.Format(time.RFC3339Nano) }

// URL is the line of a URL. Sitemap is the URL of the sitemap that lists
// the page; Change, with a state file, is new, lastmod, unchanged or gone.
type URL struct {
	Loc        string      `json:"loc"`
	LastMod    *string     `json:"lastmod"`
	ChangeFreq *string     `json:"changefreq"`
	Priority   *float32    `json:"priority"`
	Images     []Image     `json:"images,omitempty"`
	News       *News       `json:"news,omitempty"`
	Videos     []Video     `json:"videos,omitempty"`
	Hreflangs  []Alternate `json:"hreflangs,omitempty"`
	Sitemap    string      `json:"sitemap"`          // the URL of the sitemap that lists the page
	Change     string      `json:"change,omitempty"` // with -state: new, lastmod, unchanged or gone
}

// Image is an image of the page.
type Image struct {
	Loc         string `json:"loc"`
	Title       string `json:"title"`
	Caption     string `json:"caption"`
	GeoLocation string `json:"geo_location"`
	License     string `json:"license"`
}

// News is the news article of the page.
type News struct {
	Publication     Publication `json:"publication"`
	PublicationDate *string     `json:"publication_date"`
	Title           string      `json:"title"`
}

// Publication is the publication of a News.
type Publication struct {
	Name     string `json:"name"`
	Language string `json:"language"`
}

// Video is a video of the page.
type Video struct {
	ThumbnailLoc         string    `json:"thumbnail_loc"`
	Title                string    `json:"title"`
	Description          string    `json:"description"`
	ContentLoc           string    `json:"content_loc"`
	PlayerLoc            string    `json:"player_loc"`
	Duration             *int      `json:"duration"`
	ExpirationDate       *string   `json:"expiration_date"`
	Rating               *float32  `json:"rating"`
	ViewCount            *int      `json:"view_count"`
	PublicationDate      *string   `json:"publication_date"`
	FamilyFriendly       string    `json:"family_friendly"`
	Restriction          *Relation `json:"restriction"`
	Platform             *Relation `json:"platform"`
	RequiresSubscription string    `json:"requires_subscription"`
	Uploader             *Uploader `json:"uploader"`
	Live                 string    `json:"live"`
	Tags                 []string  `json:"tags"`
}

// Relation is the restriction or the platforms of a Video.
type Relation struct {
	Relationship string `json:"relationship"`
	Value        string `json:"value"`
}

// Uploader is the uploader of a Video.
type Uploader struct {
	Value string `json:"value"`
	Info  string `json:"info"`
}

// Alternate is an hreflang alternate of the page.
type Alternate struct {
	Rel      string `json:"rel"`
	Hreflang string `json:"hreflang"`
	Href     string `json:"href"`
}

// Date is the value of a date field: nil for none.
func Date(t *sitemap.LastModTime) *string {
	if t == nil {
		return nil
	}
	s := FormatDate(t)
	return &s
}

// Of is the line of u, less Sitemap and Change, which the writer knows.
func Of(u *sitemap.URL) URL {
	j := URL{Loc: u.Loc, LastMod: Date(u.LastMod), Priority: u.Priority}
	if u.ChangeFreq != nil {
		cf := string(*u.ChangeFreq)
		j.ChangeFreq = &cf
	}
	for _, im := range u.Images {
		j.Images = append(j.Images, Image(im))
	}
	if n := u.News; n != nil {
		j.News = &News{
			Publication:     Publication(n.Publication),
			PublicationDate: Date(n.PublicationDate),
			Title:           n.Title,
		}
	}
	for i := range u.Videos {
		j.Videos = append(j.Videos, videoOf(&u.Videos[i]))
	}
	for _, l := range u.Hreflangs {
		j.Hreflangs = append(j.Hreflangs, Alternate(l))
	}
	return j
}

func videoOf(v *sitemap.Video) Video {
	j := Video{
		ThumbnailLoc:         v.ThumbnailLoc,
		Title:                v.Title,
		Description:          v.Description,
		ContentLoc:           v.ContentLoc,
		PlayerLoc:            v.PlayerLoc,
		Duration:             v.Duration,
		ExpirationDate:       Date(v.ExpirationDate),
		Rating:               v.Rating,
		ViewCount:            v.ViewCount,
		PublicationDate:      Date(v.PublicationDate),
		FamilyFriendly:       v.FamilyFriendly,
		RequiresSubscription: v.RequiresSubscription,
		Live:                 v.Live,
		Tags:                 v.Tags,
	}
	if j.Tags == nil {
		j.Tags = []string{}
	}
	if r := v.Restriction; r != nil {
		j.Restriction = &Relation{Relationship: r.Relationship, Value: r.Value}
	}
	if p := v.Platform; p != nil {
		j.Platform = &Relation{Relationship: p.Relationship, Value: p.Value}
	}
	if up := v.Uploader; up != nil {
		j.Uploader = &Uploader{Value: up.Value, Info: up.Info}
	}
	return j
}
