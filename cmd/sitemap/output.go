package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"github.com/gositemap/sitemap/internal/jsonline"
	"io"
	"strconv"

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
		j := jsonline.Of(u)
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
			if err := enc.Encode(jsonSitemap{Loc: sm.Loc, LastMod: jsonline.Date(sm.LastMod)}); err != nil {
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
				w.WriteString(jsonline.FormatDate(sm.LastMod))
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

func csvDate(t *sitemap.LastModTime) string {
	if t == nil {
		return ""
	}
	return jsonline.FormatDate(t)
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
