package sitemap

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// This file tells the format of a document and dispatches it: it runs the
// decode stage over the body, then the parse stage of robots.txt, of text
// or of XML. It knows the formats only by their first bytes; it does not
// know what their entries become.

// errNoURLLines is the cause of the *ParseError of a text document with no
// line that is a URL.
var errNoURLLines = errors.New("not a sitemap: no XML root element, and no line begins with http:// or https://")

// More formats, besides the XML ones of parse_xml.go.
const (
	formatText docFormat = iota + 100
	formatRobots
)

// parse decodes body and runs the parse stage its format calls for. size
// is the size of body, -1 when it is not known. alone, when above 0, is the
// size of a body read while no other document is: the document sizes one
// array for its URLs from how far into it the parse is (docBuf.sizeFrom). An error is the document's: of its body (a
// *bodyError), of the context (a *ctxEndedError), of the parse stopped in
// tolerant mode (a *partialError), or the cause of its *ParseError.
func (d *doc) parse(body io.Reader, robots bool, size, alone int64) error {
	var beforeRead func()
	if d.c.emit != nil {
		// A streaming call hands on the URLs it holds before it waits.
		beforeRead = func() { d.flush() }
	}
	r, pos, gzipped, done, err := decode(d.c.ctx, body, size, d.c.cfg.maxResponseSize, beforeRead)
	defer func() { d.wire, d.decoded = done() }()
	if err != nil {
		return err
	}
	if alone > 0 {
		d.buf.sizeFrom(pos, alone, gzipped, d.c.cfg.maxURLs)
	}
	if robots {
		d.format = formatRobots
	}
	if h := d.hooks.body; h != nil {
		if err := h(r); err != nil {
			return err
		}
	}
	if robots {
		return parseRobots(r, d, d.hooks.robotsLine)
	}
	xml, dropped, err := isXML(r)
	if err != nil {
		return err
	}
	if !xml {
		d.format = formatText
		first := 0 // the lines are not numbered
		if d.hooks.numberLines {
			first = dropped + 1
		}
		if err := parseText(r, d, first); err != nil {
			return err
		}
		if d.lines == 0 {
			return errNoURLLines
		}
		return nil
	}
	tr, err := transcode(r)
	if err != nil {
		return err
	}
	if h := d.hooks.text; h != nil {
		tr = h(tr, tr != io.Reader(r))
	}
	return d.parseXMLDoc(tr)
}

// looksLikeHTML reports whether the text at the start of r is an HTML page:
// it begins, after white space, with an HTML doctype or an <html>, <head>
// or <body> tag. A soft 404 is one.
func looksLikeHTML(r *bufio.Reader) bool {
	head, _ := r.Peek(64)
	head = bytes.TrimLeft(head, " \t\r\n")
	for _, start := range []string{"<!doctype html", "<html", "<head", "<body"} {
		if len(head) > len(start) && bytes.EqualFold(head[:len(start)], []byte(start)) {
			if c := head[len(start)]; c == '>' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '/' {
				return true
			}
		}
	}
	return false
}
