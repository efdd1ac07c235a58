package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/printable"
)

// urlWriter writes the URLs of a run as they come, in the format of
// -format: the CSV header first, then one line (or row) a URL.
type urlWriter struct {
	w       *bufio.Writer
	format  string
	cw      *csv.Writer
	enc     *json.Encoder
	display func(string) string // how a sitemap's URL is shown
	changes bool                // the changes of -state: jsonl's field, csv's column
	marks   bool                // -changes: text lines marked +, ~ or -
}

// newURLWriter returns a writer of URLs to w; for CSV it writes the header.
// With changes (-state), jsonl has the field "change" and csv the column
// change; with marks (-changes), a text line is the URL marked.
func newURLWriter(w *bufio.Writer, format string, display func(string) string, changes, marks bool) *urlWriter {
	uw := &urlWriter{w: w, format: format, display: display, changes: changes, marks: marks}
	switch format {
	case outputJSONL:
		uw.enc = newJSONEncoder(w)
	case outputCSV:
		uw.cw = csv.NewWriter(w)
		header := []string{"loc", "lastmod", "changefreq", "priority", "images", "news", "videos", "hreflangs", "sitemap"}
		if changes {
			header = append(header, "change")
		}
		uw.cw.Write(header)
	}
	return uw
}

// write writes one URL.
func (uw *urlWriter) write(u *sitemap.URL) error {
	switch uw.format {
	case outputJSONL:
		j := jsonURLOf(u)
		j.Sitemap = uw.display(sourceOf(u))
		j.Change = string(u.Source.Change())
		return uw.enc.Encode(j)
	case outputCSV:
		news := 0
		if u.News != nil {
			news = 1
		}
		row := []string{u.Loc, csvDate(u.LastMod), csvChangeFreq(u.ChangeFreq), csvFloat(u.Priority),
			strconv.Itoa(len(u.Images)), strconv.Itoa(news), strconv.Itoa(len(u.Videos)), strconv.Itoa(len(u.Hreflangs)),
			uw.display(sourceOf(u))}
		if uw.changes {
			row = append(row, string(u.Source.Change()))
		}
		return writeCSV(uw.cw, row...)
	}
	switch {
	case uw.marks:
		uw.w.WriteString(changeMarks[u.Source.Change()])
	case u.Source.Change() == sitemap.ChangeGone:
		return nil // a plain list of the URLs a site has: the gone are counted
	}
	uw.w.WriteString(printable.Escape(u.Loc))
	return uw.w.WriteByte('\n')
}

// flush hands what is buffered to the underlying writer. A nil writer
// has nothing to flush.
func (uw *urlWriter) flush() error {
	if uw == nil {
		return nil
	}
	if uw.cw != nil {
		uw.cw.Flush()
		if err := uw.cw.Error(); err != nil {
			return err
		}
	}
	return uw.w.Flush()
}

// writeSitemaps writes the sitemaps the documents listed, each shown by
// display.
func writeSitemaps(w *bufio.Writer, format string, sitemaps []sitemap.Sitemap, display func(string) string) error {
	for i := range sitemaps {
		sitemaps[i].Loc = display(sitemaps[i].Loc)
	}
	switch format {
	case outputJSONL:
		enc := newJSONEncoder(w)
		for _, sm := range sitemaps {
			if err := enc.Encode(jsonSitemap{Loc: sm.Loc, LastMod: jsonDate(sm.LastMod)}); err != nil {
				return err
			}
		}
	case outputCSV:
		cw := csv.NewWriter(w)
		cw.Write([]string{"loc", "lastmod"})
		for _, sm := range sitemaps {
			writeCSV(cw, sm.Loc, csvDate(sm.LastMod))
		}
		cw.Flush()
		return cw.Error()
	default:
		for _, sm := range sitemaps {
			w.WriteString(printable.Escape(sm.Loc))
			if sm.LastMod != nil {
				w.WriteByte('\t')
				w.WriteString(formatDate(sm.LastMod))
			}
			if err := w.WriteByte('\n'); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeCSV writes a row of fields, each escaped: CSV has no escapes of its
// own for what a terminal obeys.
func writeCSV(cw *csv.Writer, fields ...string) error {
	for i, f := range fields {
		fields[i] = printable.Escape(f)
	}
	return cw.Write(fields)
}

// newJSONEncoder returns the encoder of the command's JSON output: URLs
// keep their & as it is, and no control reaches the terminal (jsonWriter).
func newJSONEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(jsonWriter{w})
	enc.SetEscapeHTML(false) // URLs keep their & as it is
	return enc
}

// formatDate writes a date in RFC 3339, with the fraction of a second
// when there is one.
func formatDate(t *sitemap.LastModTime) string { return t.Format(time.RFC3339Nano) }

func csvDate(t *sitemap.LastModTime) string {
	if t == nil {
		return ""
	}
	return formatDate(t)
}

func csvChangeFreq(cf *sitemap.URLChangeFreq) string {
	if cf == nil {
		return ""
	}
	return string(*cf)
}

func csvFloat(f *float32) string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(float64(*f), 'g', -1, 32)
}

// The JSON lines of -format jsonl. The names are part of the command's
// interface: they do not change. A field the document does not give is
// null; the lists and the news of the extensions are left out when the page
// has none.

type jsonSitemap struct {
	Loc     string  `json:"loc"`
	LastMod *string `json:"lastmod"`
}

type jsonURL struct {
	Loc        string          `json:"loc"`
	LastMod    *string         `json:"lastmod"`
	ChangeFreq *string         `json:"changefreq"`
	Priority   *float32        `json:"priority"`
	Images     []jsonImage     `json:"images,omitempty"`
	News       *jsonNews       `json:"news,omitempty"`
	Videos     []jsonVideo     `json:"videos,omitempty"`
	Hreflangs  []jsonAlternate `json:"hreflangs,omitempty"`
	Sitemap    string          `json:"sitemap"`          // the URL of the sitemap that lists the page
	Change     string          `json:"change,omitempty"` // with -state: new, lastmod, unchanged or gone
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
