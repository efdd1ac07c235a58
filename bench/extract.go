package bench

// The reference extractor of issue 19. It is frozen: written before any
// optimisation of the library, it stays as it is so that every later
// figure is a ratio to the same thing. It keeps the fields the library
// keeps on each workload and checks nothing: no namespace, no end tag
// matched to its start, no URL resolved or normalised, no limit. Its only
// guards are the ones that keep it from panicking.

import (
	"bytes"
	"io"
	"strconv"
	"time"

	"github.com/orisano/gosax"
)

// URL is what [Extract] keeps of a <url> or an RSS <item>.
type URL struct {
	Loc        string    // <loc>, or the <link> of an item
	LastMod    time.Time // <lastmod>, or the <pubDate> of an item; zero when it does not parse
	ChangeFreq string    // <changefreq>
	Priority   float32   // <priority>; 0 when it does not parse
	Images     []Image   // the <image:image> elements
}

// Image is what [Extract] keeps of an <image:image>.
type Image struct {
	Loc   string // <image:loc>
	Title string // <image:title>
}

// ReadBufferSize is the size of the buffer Extract gives gosax: the size of
// the library scanner's buffer, so that neither reads in larger chunks.
const ReadBufferSize = 64 << 10

// Extract reads the urlset or RSS feed in r and returns its URLs in
// document order. Elements are told apart by their names as written,
// prefix included; text is unescaped and CDATA unwrapped.
func Extract(r io.Reader) ([]URL, error) {
	x := gosax.NewReaderSize(r, ReadBufferSize)
	var urls []URL
	var text []byte
	inURL := false
	for {
		e, err := x.Event()
		if err != nil {
			return nil, err
		}
		switch e.Type() {
		case gosax.EventEOF:
			return urls, nil
		case gosax.EventStart:
			text = text[:0]
			switch name, _ := gosax.Name(e.Bytes); string(name) {
			case "url", "item":
				urls = append(urls, URL{})
				inURL = true
			case "image:image":
				if inURL {
					u := &urls[len(urls)-1]
					u.Images = append(u.Images, Image{})
				}
			}
		case gosax.EventText:
			t, err := gosax.Unescape(e.Bytes)
			if err != nil {
				return nil, err
			}
			text = append(text, t...)
		case gosax.EventCData:
			text = append(text, e.Bytes[len("<![CDATA["):len(e.Bytes)-len("]]>")]...)
		case gosax.EventEnd:
			if !inURL {
				continue
			}
			u := &urls[len(urls)-1]
			t := bytes.TrimSpace(text)
			switch name, _ := gosax.Name(e.Bytes); string(name) {
			case "url", "item":
				inURL = false
			case "loc", "link":
				u.Loc = string(t)
			case "lastmod", "pubDate":
				u.LastMod = parseDate(string(t))
			case "changefreq":
				u.ChangeFreq = string(t)
			case "priority":
				p, _ := strconv.ParseFloat(string(t), 32)
				u.Priority = float32(p)
			case "image:loc":
				if n := len(u.Images); n > 0 {
					u.Images[n-1].Loc = string(t)
				}
			case "image:title":
				if n := len(u.Images); n > 0 {
					u.Images[n-1].Title = string(t)
				}
			}
		}
	}
}

// parseDate reads a W3C date-time, a W3C date or an RFC 1123 date, the
// layout chosen by the first byte and the length, and gives the zero time
// for anything else.
func parseDate(s string) time.Time {
	layout := time.RFC1123
	if s != "" && '0' <= s[0] && s[0] <= '9' {
		layout = time.RFC3339
		if len(s) == len(time.DateOnly) {
			layout = time.DateOnly
		}
	}
	t, _ := time.Parse(layout, s)
	return t
}
