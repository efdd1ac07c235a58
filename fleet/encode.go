package fleet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/gositemap/sitemap/internal/jsonline"
	"sync"
	"unicode/utf8"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/printable"
)

// This file is the form of the URLs on the wire: a batch is JSON lines,
// each the line "sitemap -format jsonl" prints for the URL
// (internal/jsonline, which the command writes too), so that a reader of a
// crawl's output writes the lines as they come.

// appendLine appends the JSON line of u to b, with its change when not
// empty.
func appendLine(b *bytes.Buffer, u *sitemap.URL, change string) error {
	j := jsonline.Of(u)
	j.Sitemap = u.Source.URL()
	j.Change = change
	return appendURLLine(b, &j)
}

// appendURLLine appends the JSON line of j to b: written by hand when it
// has no extension (fastline.go), by encoding/json otherwise.
func appendURLLine(b *bytes.Buffer, j *jsonline.URL) error {
	e := lineEncoders.Get().(*lineEncoder)
	defer lineEncoders.Put(e)
	var plain bool
	if e.scratch, plain = appendPlainURL(e.scratch[:0], j); plain {
		escapeControls(b, e.scratch)
		return nil
	}
	v := *j // a copy for encoding/json, so that j stays on its caller's stack
	return appendJSON(b, &v)
}

// lineEncoder is an encoder of JSON lines and the buffer it writes to,
// kept for the next line: a batch of URLs is encoded without an encoder
// or a buffer made for each.
type lineEncoder struct {
	line    bytes.Buffer
	enc     *json.Encoder
	scratch []byte // the line written by hand
}

var lineEncoders = sync.Pool{New: func() any {
	e := &lineEncoder{}
	e.enc = json.NewEncoder(&e.line)
	e.enc.SetEscapeHTML(false) // URLs keep their & as it is
	return e
}}

// appendJSON appends the JSON line of v to b, as the command writes it.
func appendJSON(b *bytes.Buffer, v any) error {
	e := lineEncoders.Get().(*lineEncoder)
	defer lineEncoders.Put(e)
	e.line.Reset()
	if err := e.enc.Encode(v); err != nil {
		return err
	}
	escapeControls(b, e.line.Bytes())
	return nil
}

// escapeControls appends p to b with DEL, the C1 controls and the
// bidirectional controls, which encoding/json leaves as they are, written
// as \u escapes, as the command's JSON output has them.
func escapeControls(b *bytes.Buffer, p []byte) {
	ascii := 0
	for ascii < len(p) && p[ascii] < 0x7f {
		ascii++
	}
	b.Write(p[:ascii])
	for i := ascii; i < len(p); {
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
