package sitemap

import (
	"bufio"
	"io"
)

// This file is the parse stage of plain-text sitemaps, and the line reader
// that robots.go shares.

// maxLineLength bounds the part of a line that is kept. A longer line is
// handed on cut, marked as such, and the rest of it is read past without
// being kept, so a line of any length costs no more memory than this.
const maxLineLength = maxValueLength

// eachLine calls fn for every line of r, without its line ending (LF or
// CRLF). cut is true for a line longer than maxLineLength, of which line is
// the beginning. fn returns false to stop.
func eachLine(r *bufio.Reader, fn func(line []byte, cut bool) bool) error {
	var long []byte // the beginning of a line longer than r's buffer
	cut := false
	for {
		chunk, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !cut {
				if room := maxLineLength - len(long); room < len(chunk) {
					long, cut = append(long, chunk[:max(room, 0)]...), true
				} else {
					long = append(long, chunk...)
				}
			}
			continue
		}
		line := chunk
		if len(long) > 0 || cut {
			if !cut {
				if room := maxLineLength - len(long); room < len(chunk) {
					long, cut = append(long, chunk[:max(room, 0)]...), true
				} else {
					long = append(long, chunk...)
				}
			}
			line = long
		}
		line = trimLineEnd(line)
		// A last line without its line ending is a line when the input
		// ends there, not when reading it failed: then it may be cut.
		if len(line) > 0 && err == io.EOF || err == nil {
			if !fn(line, cut) {
				return nil
			}
		}
		long, cut = long[:0], false
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// trimLineEnd returns line without the LF or CRLF it ends with, and
// without a CR that ends the input's last line. It compares two bytes where
// bytes.TrimSuffix would call memequal twice a line.
func trimLineEnd(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line
}

// parseText reads a text sitemap: every line that begins with http:// or
// https:// is the location of a page. Other lines are skipped. first, when
// above 0, is the number of the first line of r, from which the lines are
// numbered: each entry carries its line, and column 1, where a URL line's
// URL starts (rawEntry.line, rawEntry.col). At 0 no line is counted.
func parseText(r *bufio.Reader, sink entrySink, first int) error {
	// The entry of a line holds nothing but its loc, and the sink does not
	// change an entry it is handed: e is reset once, and its loc is the
	// line itself rather than a copy of it. The line is no longer than
	// maxLineLength, which is maxValueLength, so it is what value.append
	// would have kept, and it is held with no room past its end: nothing
	// can append to it over the reader's buffer.
	var e rawEntry
	e.reset(false, false)
	e.loc.set = true
	entry := func(line []byte, cut bool) bool {
		if !hasHTTPPrefix(line) {
			return true
		}
		if !sink.begin() {
			return false
		}
		e.loc.b, e.loc.cut = line[:len(line):len(line)], cut
		return sink.entry(&e)
	}
	if first <= 0 {
		return eachLine(r, entry)
	}
	// Numbered (for lint): the count is kept out of the loop of a call
	// that needs none, where it would cost every line of every text
	// sitemap.
	e.line, e.col = first-1, 1
	return eachLine(r, func(line []byte, cut bool) bool {
		e.line++
		return entry(line, cut)
	})
}

// hasHTTPPrefix reports whether line begins with http:// or https://, in
// any letter case.
func hasHTTPPrefix(line []byte) bool {
	if len(line) < 7 || line[0]|0x20 != 'h' || line[1]|0x20 != 't' || line[2]|0x20 != 't' || line[3]|0x20 != 'p' {
		return false
	}
	i := 4
	if line[4]|0x20 == 's' {
		i = 5
	}
	return len(line) >= i+3 && line[i] == ':' && line[i+1] == '/' && line[i+2] == '/'
}

// equalFoldLetters reports whether s[i:i+len(name)] is name without regard
// to case. name holds only ASCII letters (a scheme, a change frequency),
// which is what lets a byte be folded by its 0x20 bit alone. s must hold
// len(name) bytes from i.
func equalFoldLetters[T ~string | ~[]byte](s T, i int, name string) bool {
	for k := range len(name) {
		if s[i+k]|0x20 != name[k]|0x20 {
			return false
		}
	}
	return true
}
