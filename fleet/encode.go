package fleet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/printable"
)

// This file is the form of the URLs on the wire: a batch is JSON lines,
// each the line "sitemap -format jsonl" prints for the URL (the types below
// are the command's, which lives in package main), so that a reader of a
// crawl's output writes the lines as they come.

// appendLine appends the JSON line of u to b.
func appendLine(b *bytes.Buffer, u *sitemap.URL) error {
	j := jsonURLOf(u)
	j.Sitemap = u.Source.URL()
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false) // URLs keep their & as it is
	if err := enc.Encode(j); err != nil {
		return err
	}
	escapeControls(b, line.Bytes())
	return nil
}

// escapeControls appends p to b with DEL, the C1 controls and the
// bidirectional controls, which encoding/json leaves as they are, written
// as \u escapes, as the command's JSON output has them.
func escapeControls(b *bytes.Buffer, p []byte) {
	for i := 0; i < len(p); {
		if p[i] < 0x7f {
			b.WriteByte(p[i])
			i++
			continue
		}
		r, n := utf8.DecodeRune(p[i:])
		if r != utf8.RuneError && printable.IsControl(r) {
			fmt.Fprintf(b, `\u%04x`, r)
		} else {
			b.Write(p[i : i+n])
		}
		i += n
	}
}

// formatDate writes a date in RFC 3339, with the fraction of a second
// when there is one.
func formatDate(t *sitemap.LastModTime) string { return t.Format(time.RFC3339Nano) }

type jsonURL struct {
	Loc        string          `json:"loc"`
	LastMod    *string         `json:"lastmod"`
	ChangeFreq *string         `json:"changefreq"`
	Priority   *float32        `json:"priority"`
	Images     []jsonImage     `json:"images,omitempty"`
	News       *jsonNews       `json:"news,omitempty"`
	Videos     []jsonVideo     `json:"videos,omitempty"`
	Hreflangs  []jsonAlternate `json:"hreflangs,omitempty"`
	Sitemap    string          `json:"sitemap"` // the URL of the sitemap that lists the page
}

type jsonImage struct {
	Loc         string `json:"loc"`
	Title       string `json:"title"`
	Caption     string `json:"caption"`
	GeoLocation string `json:"geo_location"`
	License     string `json:"license"`
}

type jsonNews struct {
	Publication     jsonPublication `json:"publication"`
	PublicationDate *string         `json:"publication_date"`
	Title           string          `json:"title"`
}

type jsonPublication struct {
	Name     string `json:"name"`
	Language string `json:"language"`
}

type jsonVideo struct {
	ThumbnailLoc         string        `json:"thumbnail_loc"`
	Title                string        `json:"title"`
	Description          string        `json:"description"`
	ContentLoc           string        `json:"content_loc"`
	PlayerLoc            string        `json:"player_loc"`
	Duration             *int          `json:"duration"`
	ExpirationDate       *string       `json:"expiration_date"`
	Rating               *float32      `json:"rating"`
	ViewCount            *int          `json:"view_count"`
	PublicationDate      *string       `json:"publication_date"`
	FamilyFriendly       string        `json:"family_friendly"`
	Restriction          *jsonRelation `json:"restriction"`
	Platform             *jsonRelation `json:"platform"`
	RequiresSubscription string        `json:"requires_subscription"`
	Uploader             *jsonUploader `json:"uploader"`
	Live                 string        `json:"live"`
	Tags                 []string      `json:"tags"`
}

type jsonRelation struct {
	Relationship string `json:"relationship"`
	Value        string `json:"value"`
}

type jsonUploader struct {
	Value string `json:"value"`
	Info  string `json:"info"`
}

type jsonAlternate struct {
	Rel      string `json:"rel"`
	Hreflang string `json:"hreflang"`
	Href     string `json:"href"`
}

func jsonDate(t *sitemap.LastModTime) *string {
	if t == nil {
		return nil
	}
	s := formatDate(t)
	return &s
}

func jsonURLOf(u *sitemap.URL) jsonURL {
	j := jsonURL{Loc: u.Loc, LastMod: jsonDate(u.LastMod), Priority: u.Priority}
	if u.ChangeFreq != nil {
		cf := string(*u.ChangeFreq)
		j.ChangeFreq = &cf
	}
	for _, im := range u.Images {
		j.Images = append(j.Images, jsonImage(im))
	}
	if n := u.News; n != nil {
		j.News = &jsonNews{
			Publication:     jsonPublication(n.Publication),
			PublicationDate: jsonDate(n.PublicationDate),
			Title:           n.Title,
		}
	}
	for i := range u.Videos {
		j.Videos = append(j.Videos, jsonVideoOf(&u.Videos[i]))
	}
	for _, l := range u.Hreflangs {
		j.Hreflangs = append(j.Hreflangs, jsonAlternate(l))
	}
	return j
}

func jsonVideoOf(v *sitemap.Video) jsonVideo {
	j := jsonVideo{
		ThumbnailLoc:         v.ThumbnailLoc,
		Title:                v.Title,
		Description:          v.Description,
		ContentLoc:           v.ContentLoc,
		PlayerLoc:            v.PlayerLoc,
		Duration:             v.Duration,
		ExpirationDate:       jsonDate(v.ExpirationDate),
		Rating:               v.Rating,
		ViewCount:            v.ViewCount,
		PublicationDate:      jsonDate(v.PublicationDate),
		FamilyFriendly:       v.FamilyFriendly,
		RequiresSubscription: v.RequiresSubscription,
		Live:                 v.Live,
		Tags:                 v.Tags,
	}
	if j.Tags == nil {
		j.Tags = []string{}
	}
	if r := v.Restriction; r != nil {
		j.Restriction = &jsonRelation{Relationship: r.Relationship, Value: r.Value}
	}
	if p := v.Platform; p != nil {
		j.Platform = &jsonRelation{Relationship: p.Relationship, Value: p.Value}
	}
	if up := v.Uploader; up != nil {
		j.Uploader = &jsonUploader{Value: up.Value, Info: up.Info}
	}
	return j
}
