package main

import (
	"bufio"
	"github.com/gositemap/sitemap/internal/jsonline"
	"strconv"
	"strings"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/printable"
)

// writeTree writes the documents of a call, one a line, each indented by
// its depth under the document that led to it, in the order the call came
// to know them: with -format json, a JSON array of them instead.
func writeTree(w *bufio.Writer, format string, docs []sitemap.Document, display func(string) string, message func(error) string) error {
	if format == outputJSON {
		list := make([]jsonDocument, len(docs))
		for i := range docs {
			list[i] = jsonDocumentOf(&docs[i], display, message)
		}
		enc := newJSONEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	for _, i := range depthFirst(docs) {
		w.WriteString(printable.Escape(treeLine(&docs[i], display, message)))
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

// depthFirst returns the indexes of docs in the order a tree is printed:
// each document followed by what it lists, in the order the call came to
// know of them, before its next sibling. GetDocuments gives them in the
// order the call came to know of them, where the children of one index may
// come after a sibling of it. A document whose parent is not in docs is
// printed as a root.
func depthFirst(docs []sitemap.Document) []int {
	children := make([][]int, len(docs))
	var roots []int
	for i, d := range docs {
		if d.Parent >= 0 && d.Parent < len(docs) && d.Parent != i {
			children[d.Parent] = append(children[d.Parent], i)
		} else {
			roots = append(roots, i)
		}
	}
	order := make([]int, 0, len(docs))
	stack := make([]int, 0, len(roots))
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, roots[i])
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, i)
		for j := len(children[i]) - 1; j >= 0; j-- {
			stack = append(stack, children[i][j])
		}
	}
	return order
}

// treeLine is the line of one document in the text form of the tree:
//
//	testdata/sitemap-pages.xml (urlset, parsed): 3 URLs, 0 errors, 1.2 KiB, 1ms
func treeLine(d *sitemap.Document, display func(string) string, message func(error) string) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("  ", max(d.Depth, 0)))
	b.WriteString(display(d.URL))
	b.WriteString(" (")
	if d.Format != "" {
		b.WriteString(string(d.Format))
		b.WriteString(", ")
	}
	b.WriteString(string(d.Status))
	if d.Found != "" && d.Found != sitemap.FoundRoot && d.Found != sitemap.FoundIndex {
		b.WriteString(", from ")
		b.WriteString(string(d.Found))
	}
	b.WriteString(")")
	var facts []string
	if d.FinalURL != "" && d.FinalURL != d.URL {
		facts = append(facts, "redirected to "+display(d.FinalURL))
	}
	if read(d) {
		facts = append(facts, count(int64(d.URLs), "URL"), count(int64(d.Errors), "error"), size(d))
		if d.Duration > 0 {
			facts = append(facts, d.Duration.Round(durationPrecision(d.Duration)).String())
		}
	}
	if d.LeftOut > 0 {
		facts = append(facts, count(int64(d.LeftOut), "more sitemap")+" left out by the listing limit")
	}
	if len(facts) > 0 {
		b.WriteString(": ")
		b.WriteString(strings.Join(facts, ", "))
	}
	if d.Err != nil {
		b.WriteString(" — ")
		b.WriteString(message(d.Err))
	}
	return b.String()
}

// read reports whether the document was read, in whole or in part: its
// counts, size and time mean something.
func read(d *sitemap.Document) bool {
	switch d.Status {
	case sitemap.StatusParsed, sitemap.StatusPartial, sitemap.StatusReading:
		return true
	case sitemap.StatusFailed:
		return d.HTTPStatus != 0 || d.WireBytes > 0
	}
	return false
}

// size is the size of a document: decoded, and on the wire when that
// differs (a gzipped sitemap).
func size(d *sitemap.Document) string {
	s := bytesText(d.DecodedBytes)
	if d.WireBytes != d.DecodedBytes && d.WireBytes > 0 {
		s += " (" + bytesText(d.WireBytes) + " on the wire)"
	}
	return s
}

// bytesText writes a number of bytes in B, KiB or MiB.
func bytesText(n int64) string {
	switch {
	case n < 1<<10:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

// durationPrecision keeps three significant figures or so of a duration.
func durationPrecision(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return time.Millisecond
	case d >= time.Millisecond:
		return 10 * time.Microsecond
	}
	return time.Microsecond
}

// jsonDocument is a document of the tree in -format json. The names are
// part of the command's interface.
type jsonDocument struct {
	URL          string  `json:"url"`
	Found        string  `json:"found"`
	Parent       int     `json:"parent"`
	Depth        int     `json:"depth"`
	Status       string  `json:"status"`
	Error        *string `json:"error"`
	Format       string  `json:"format"`
	FinalURL     string  `json:"final_url"`
	HTTPStatus   int     `json:"http_status"`
	ContentType  string  `json:"content_type"`
	ETag         string  `json:"etag"`
	LastModified string  `json:"last_modified"`
	WireBytes    int64   `json:"wire_bytes"`
	DecodedBytes int64   `json:"decoded_bytes"`
	URLs         int     `json:"urls"`
	Errors       int     `json:"errors"`
	DurationMS   float64 `json:"duration_ms"`
	LastMod      *string `json:"lastmod"`
	LeftOut      int     `json:"left_out"`
}

func jsonDocumentOf(d *sitemap.Document, display func(string) string, message func(error) string) jsonDocument {
	j := jsonDocument{
		URL: display(d.URL), Found: string(d.Found), Parent: d.Parent, Depth: d.Depth,
		Status: string(d.Status), Format: string(d.Format), HTTPStatus: d.HTTPStatus,
		ContentType: d.ContentType, ETag: d.ETag, LastModified: d.LastModified,
		WireBytes: d.WireBytes, DecodedBytes: d.DecodedBytes, URLs: d.URLs, Errors: d.Errors,
		DurationMS: float64(d.Duration) / float64(time.Millisecond), LastMod: jsonline.Date(d.LastMod), LeftOut: d.LeftOut,
	}
	if d.FinalURL != "" {
		j.FinalURL = display(d.FinalURL)
	}
	if d.Err != nil {
		msg := message(d.Err)
		j.Error = &msg
	}
	return j
}
