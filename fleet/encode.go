package fleet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/gositemap/sitemap/internal/jsonline"
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
