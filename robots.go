package sitemap

import (
	"bufio"
	"bytes"
)

// This file reads the Sitemap: lines of a robots.txt (which one is, by its
// URL, is urlnorm.go's isRobotsURL).

// parseRobots hands the value of every Sitemap: line of a robots.txt to
// sink as the location of a sitemap. The name of the directive is matched
// in any letter case, the line may be indented, and a # starts a comment.
// each, when not nil, is given every line first, its comment and
// indentation cut (the robotsLine hook, hooks.go).
func parseRobots(r *bufio.Reader, sink entrySink, each func(line []byte)) error {
	var e rawEntry
	return eachLine(r, func(line []byte, cut bool) bool {
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line, cut = line[:i], false
		}
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
		e.reset(true, false)
		e.loc.set = true
		e.loc.append(rest[1:])
		e.loc.cut = e.loc.cut || cut
		return sink.entry(&e)
	})
}
