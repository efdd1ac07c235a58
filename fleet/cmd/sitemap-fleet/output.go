package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/gositemap/sitemap/fleet"
	"github.com/gositemap/sitemap/internal/printable"
)

// escape writes what a server or a document controls so that a terminal
// shows it, as the sitemap command does.
func escape(s string) string { return printable.Escape(s) }

func checkFormat(f string) error {
	switch f {
	case "text", "jsonl", "csv":
		return nil
	}
	return usageError{fmt.Errorf("invalid value %q for flag -format: text, jsonl or csv expected", f)}
}

// urlWriter writes URLs as the sitemap command does: a line a URL, the
// JSON line of -format jsonl, or a CSV row under its header.
type urlWriter struct {
	w       *bufio.Writer
	format  string
	cw      *csv.Writer
	changes bool // -state: csv's change column
	marks   bool // -changes: text lines marked +, ~ or -
}

// newURLWriter returns a writer of URLs to w; for CSV it writes the
// header. With changes (-state), csv has the column change; with marks
// (-changes), a text line is the URL marked, as sitemap writes them.
func newURLWriter(w io.Writer, format string, changes, marks bool) *urlWriter {
	uw := &urlWriter{w: bufio.NewWriterSize(w, 64<<10), format: format, changes: changes, marks: marks}
	if format == "csv" {
		uw.cw = csv.NewWriter(uw.w)
		header := []string{"loc", "lastmod", "changefreq", "priority", "images", "news", "videos", "hreflangs", "sitemap"}
		if changes {
			header = append(header, "change")
		}
		uw.cw.Write(header)
	}
	return uw
}

// changeMarks are the marks of -changes in text output.
var changeMarks = map[string]string{"new": "+ ", "lastmod": "~ ", "gone": "- "}

// write writes the URL of a JSON line of the output.
func (uw *urlWriter) write(line []byte) error {
	if uw.format == "jsonl" {
		uw.w.Write(line)
		return uw.w.WriteByte('\n')
	}
	u, err := fleet.ParseLine(line)
	if err != nil {
		return err
	}
	switch uw.format {
	case "csv":
		fields := []string{u.Loc, str(u.LastMod), str(u.ChangeFreq), "", strconv.Itoa(u.Images), strconv.Itoa(u.News),
			strconv.Itoa(u.Videos), strconv.Itoa(u.Hreflangs), u.Sitemap}
		if u.Priority != nil {
			fields[3] = strconv.FormatFloat(float64(*u.Priority), 'g', -1, 32)
		}
		if uw.changes {
			fields = append(fields, u.Change)
		}
		for i, f := range fields {
			fields[i] = printable.Escape(f)
		}
		return uw.cw.Write(fields)
	}
	switch {
	case uw.marks:
		uw.w.WriteString(changeMarks[u.Change])
	case u.Change == "gone":
		return nil // a plain list of the URLs a site has: the gone are counted
	}
	uw.w.WriteString(printable.Escape(u.Loc))
	return uw.w.WriteByte('\n')
}

// writeSitemaps writes a listing as sitemap -sitemaps does: a line a
// sitemap (its URL, and a tab and its date when it has one), its JSON
// line, or a CSV row under its header.
func writeSitemaps(out io.Writer, format string, list []fleet.Sitemap) error {
	w := bufio.NewWriterSize(out, 64<<10)
	switch format {
	case "jsonl":
		for _, sm := range list {
			w.Write(sm.JSON)
			w.WriteByte('\n')
		}
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"loc", "lastmod"})
		for _, sm := range list {
			cw.Write([]string{printable.Escape(sm.Loc), printable.Escape(str(sm.LastMod))})
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
	default:
		for _, sm := range list {
			w.WriteString(printable.Escape(sm.Loc))
			if sm.LastMod != nil {
				w.WriteByte('\t')
				w.WriteString(*sm.LastMod)
			}
			w.WriteByte('\n')
		}
	}
	return w.Flush()
}

func (uw *urlWriter) flush() error {
	if uw.cw != nil {
		uw.cw.Flush()
		if err := uw.cw.Error(); err != nil {
			return err
		}
	}
	return uw.w.Flush()
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
