package xmlscan

import (
	"bytes"
	"fmt"
)

// This file reads what the scanner skips: processing instructions (the
// XML declaration among them), comments and directives.

// procInst skips a processing instruction; if it is the XML declaration, its
// version must be 1.0, as in Decoder.rawToken. Its encoding is not looked at:
// the input is UTF-8 already.
//
// Any other processing instruction streams through the buffer: what has
// been looked at is let go at each read, so that one of any length costs
// nothing. The XML declaration is held whole, up to maxXMLDeclLength.
func (t *Scanner) procInst() (rawKind, error) {
	i := 2
	for {
		b := t.buf[t.pos:t.end]
		for i < len(b) && nameByte[b[i]] {
			i++
		}
		if i-2 > maxNameLength {
			return 0, t.syntaxError(fmt.Sprintf("XML name longer than %d bytes", maxNameLength), t.pos+2)
		}
		if i < len(b) {
			break
		}
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
	b := t.buf[t.pos:t.end]
	target := b[2:i]
	switch {
	case len(target) == 0:
		return 0, t.syntaxError("expected target name after <?", t.pos+2)
	case !isName(target):
		return 0, t.syntaxError("invalid XML name: "+string(target), t.pos+2)
	}
	if string(target) == "xml" {
		if t.obs != nil && t.base+int64(t.pos) > 0 {
			t.note(NoteDecl, "the XML declaration is not at the start of the document", t.pos)
		}
		return t.xmlDecl(i)
	}
	for {
		b := t.buf[t.pos:t.end]
		i = skipSpace(b, i)
		if k := bytes.Index(b[i:], []byte("?>")); k >= 0 {
			t.pos += i + k + 2
			return rawSkip, nil
		}
		// A '?' at the end may start the "?>".
		t.pos += max(i, len(b)-1)
		i = 0
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
}

// xmlDecl reads the rest of the XML declaration, from b[i] after its
// target, whole: its version must be 1.0, as in Decoder.rawToken.
func (t *Scanner) xmlDecl(i int) (rawKind, error) {
	for {
		b := t.buf[t.pos:t.end]
		j := skipSpace(b, i)
		if k := bytes.Index(b[j:], []byte("?>")); k >= 0 {
			if v := procInstParam("version", b[j:j+k]); len(v) > 0 && string(v) != "1.0" {
				return 0, fmt.Errorf("xml: unsupported version %q; only version 1.0 is supported", v)
			}
			t.pos += j + k + 2
			return rawSkip, nil
		}
		if len(b) > maxXMLDeclLength {
			return 0, t.syntaxError(fmt.Sprintf("XML declaration longer than %d bytes", maxXMLDeclLength), t.pos)
		}
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
}

// procInstParam is procInst of encoding/xml: the value of param="..." or
// param='...' in s, or nil.
func procInstParam(param string, s []byte) []byte {
	lenp := len(param) + 1
	i := 0
	var sep byte
	for i < len(s) {
		sub := s[i:]
		k := indexParam(sub, param)
		if k < 0 || lenp+k >= len(sub) {
			return nil
		}
		i += lenp + k + 1
		if c := sub[lenp+k]; c == '\'' || c == '"' {
			sep = c
			break
		}
	}
	if sep == 0 {
		return nil
	}
	j := bytes.IndexByte(s[i:], sep)
	if j < 0 {
		return nil
	}
	return s[i : i+j]
}

// indexParam is the index of param + "=" in s, or -1.
func indexParam(s []byte, param string) int {
	for off := 0; ; {
		k := bytes.Index(s[off:], []byte(param))
		if k < 0 {
			return -1
		}
		k += off
		if k+len(param) < len(s) && s[k+len(param)] == '=' {
			return k
		}
		off = k + 1
	}
}

// bang reads what starts with "<!": a comment, a CDATA section or a
// directive.
func (t *Scanner) bang() (rawKind, error) {
	for {
		b := t.buf[t.pos:t.end]
		if len(b) >= 3 {
			switch b[2] {
			case '-':
				if len(b) >= 4 {
					if b[3] != '-' {
						return 0, t.syntaxError("invalid sequence <!- not part of <!--", t.pos+3)
					}
					return t.comment()
				}
			case '[':
				const open = "<![CDATA["
				k := 3
				for k < len(b) && k < len(open) && b[k] == open[k] {
					k++
				}
				if k == len(open) {
					t.pos += k
					t.inCDATA = true
					t.setLimit()
					return t.cdata()
				}
				if k < len(b) {
					return 0, t.syntaxError("invalid <![ sequence", t.pos+k)
				}
			default:
				return t.directive()
			}
		}
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
}

// comment skips the comment at pos, after its "<!--", to its "-->" as
// Decoder.rawToken does: "--" ends it, and must be followed by '>'. What
// has been looked at is let go at each read, so that a comment of any
// length costs nothing.
func (t *Scanner) comment() (rawKind, error) {
	i := 4
	for {
		b := t.buf[t.pos:t.end]
		k := bytes.Index(b[i:], []byte("--"))
		switch {
		case k >= 0 && i+k+2 < len(b):
			if b[i+k+2] != '>' {
				return 0, t.syntaxError(`invalid sequence "--" not allowed in comments`, t.pos+i+k+2)
			}
			t.pos += i + k + 3
			return rawSkip, nil
		case k >= 0:
			i += k // the "--" ends the bytes read: keep it
		default:
			i = max(i, len(b)-1) // a '-' at the end may start a "--"
		}
		t.pos += i
		i = 0
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
}

// directive skips the directive at pos, such as <!DOCTYPE ...>, through
// the buffer as comment does.
func (t *Scanner) directive() (rawKind, error) {
	if t.obs != nil {
		t.noteDirective()
	}
	var d dirState
	i := 3
	for {
		b := t.buf[t.pos:t.end]
		n, done := skipDirective(b, i, &d)
		t.pos += n
		if done {
			return rawSkip, nil
		}
		i = 0
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
}

// dirState is where skipDirective is in a directive: in a quoted string,
// how deep in angle brackets, in a comment.
type dirState struct {
	inquote byte
	depth   int
	comment bool
}

// skipDirective reads a directive such as <!DOCTYPE ...> from b[i], after
// "<!" and the byte after it, as Decoder.rawToken does: angle brackets nest
// outside quotes, and a comment inside is skipped. It returns the length of
// the directive and true, or, if it runs past b, how much of b it is done
// with, d telling where it is after those bytes.
func skipDirective(b []byte, i int, d *dirState) (int, bool) {
	for i < len(b) {
		if d.comment {
			k := bytes.Index(b[i:], []byte("-->"))
			if k < 0 {
				return max(i, len(b)-2), false // "--" may end b
			}
			i += k + 3
			d.comment = false
			continue
		}
		c := b[i]
		if d.inquote == 0 && c == '>' && d.depth == 0 {
			return i + 1, true
		}
		switch {
		case c == d.inquote:
			d.inquote = 0
		case d.inquote != 0:
		case c == '\'' || c == '"':
			d.inquote = c
		case c == '>':
			d.depth--
		case c == '<':
			const open = "!--"
			k := 0
			for k < len(open) && i+1+k < len(b) && b[i+1+k] == open[k] {
				k++
			}
			switch {
			case k == len(open):
				d.comment = true
				i += 1 + k
				continue
			case i+1+k == len(b):
				return i, false // the '<' is read again with what follows
			}
			// Not a comment: the byte that differs is read as any other,
			// and since depth > 0 now it cannot end the directive.
			d.depth++
			i += 1 + k
			continue
		}
		i++
	}
	return i, false
}
