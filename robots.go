package sitemap

import (
	"bufio"
	"bytes"
	"unicode"
)

// This file reads the Sitemap: lines of a robots.txt (which one is, by its
// URL, is urlnorm.go's isRobotsURL).

// parseRobots hands the value of every Sitemap: line of a robots.txt to
// sink as the location of a sitemap. The name of the directive is matched
// in any letter case, the line may be indented, and a # starts a comment.
// each, when not nil, is given every line first, its comment and
// indentation cut (the robotsLine hook, hooks.go). Each entry carries the
// number of its line, from 1, and the byte of the line its value starts
// at, past the white space that the value's text leaves out
// (rawEntry.line, rawEntry.col, value.text).
func parseRobots(r *bufio.Reader, sink entrySink, each func(line []byte)) error {
	var e rawEntry
	n := 0
	return eachLine(r, func(line []byte, cut bool) bool {
		n++
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line, cut = line[:i], false
		}
		full := len(line)
		line = bytes.TrimLeft(line, " \t")
		if each != nil {
			each(line)
		}
		const directive = "sitemap"
		if len(line) < len(directive) || !bytes.EqualFold(line[:len(directive)], []byte(directive)) {
			return true
		}
		rest := bytes.TrimLeft(line[len(directive):], " \t")
		if len(rest) == 0 || rest[0] != ':' {
			return true
		}
		v := rest[1:]
		e.reset(true, false)
		e.loc.set = true
		e.loc.append(v)
		e.loc.cut = e.loc.cut || cut
		e.line, e.col = n, full-len(bytes.TrimLeftFunc(v, unicode.IsSpace))+1
		return sink.entry(&e)
	})
}
