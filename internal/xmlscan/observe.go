package xmlscan

import "bytes"

// This file is what a scanner tells an observer: what tolerant mode reads
// past, the directives it skips, and where in its input it is. A scanner
// without an observer keeps no position and tells nothing; it pays a nil
// check on the paths of bad input and one per refill of its buffer.

// NoteKind is the kind of what a scanner tells its observer.
type NoteKind uint8

// The kinds of notes.
const (
	// NoteSyntax: XML that is not well-formed, which tolerant mode reads
	// past (strict mode fails on it).
	NoteSyntax NoteKind = iota + 1
	// NoteDirective: a directive, such as a DOCTYPE, was skipped; the
	// message names it.
	NoteDirective
	// NoteDecl: an XML declaration that does not stand at the start of the
	// input.
	NoteDecl
)

// Observer is told of what the scanner reads past or skips, with the line
// and column where it stands (see [Scanner.Pos]).
type Observer interface {
	Note(kind NoteKind, msg string, line, col int)
}

// SetObserver makes the scanner tell o what it reads past or skips, and
// keep its position for [Scanner.Pos]. It is called before the first
// token is read.
func (t *Scanner) SetObserver(o Observer) {
	t.obs, t.qLine = o, 1
}

// Pos returns the line (from 1) and the column (the byte of the line, from
// 1) of the scanner's input at which the next token starts. It counts only
// with an observer set; without one it returns 0, 0.
func (t *Scanner) Pos() (line, col int) { return t.posAt(t.pos) }

// posAt is the line and column of buf[at]. The lines are counted from
// where the last position asked for was on: an at before it is taken as
// that position.
func (t *Scanner) posAt(at int) (line, col int) {
	if t.obs == nil || t.buf == nil {
		return 0, 0
	}
	at = min(max(at, t.qAt), t.end)
	seg := t.buf[t.qAt:at]
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		t.qLine += n
		t.qLineStart = t.base + int64(t.qAt+bytes.LastIndexByte(seg, '\n')+1)
	}
	t.qAt = at
	return t.qLine, int(t.base+int64(at)-t.qLineStart) + 1
}

// note tells the observer msg, of kind, at buf[at].
func (t *Scanner) note(kind NoteKind, msg string, at int) {
	line, col := t.posAt(at)
	t.obs.Note(kind, msg, line, col)
}

// noteDirective tells the observer of the directive at pos, after its
// "<!": its name, and whether the part of it in the buffer declares an
// entity.
func (t *Scanner) noteDirective() {
	// Enough of it to tell its name, unless the input ends first.
	for t.end-t.pos < len("<!DOCTYPE ") && t.more(len("<!DOCTYPE ")-(t.end-t.pos)) {
	}
	b := t.buf[t.pos:t.end]
	name := b[min(2, len(b)):]
	if i := bytes.IndexAny(name, " \t\r\n[>"); i >= 0 {
		name = name[:i]
	}
	msg := "a <!" + string(name) + " …> declaration"
	if bytes.Contains(b, []byte("<!ENTITY")) && string(name) != "ENTITY" {
		msg += " declaring an ENTITY"
	}
	t.note(NoteDirective, msg, t.pos)
}

// DroppedAttrs returns the attributes of the start element just returned
// by Next that the scanner dropped because its caller's table does not
// read them, namespace declarations aside, with their names resolved (the
// namespace URI in Space). It is called once, right after that Next, and
// only with an observer set; its slice is valid until the next call of
// Next. The attributes of a start tag too long for the buffer are not
// kept for it (nil).
func (t *Scanner) DroppedAttrs() []Name {
	if t.obs == nil || len(t.dropped) == 0 || t.droppedEnd != t.base+int64(t.pos) {
		return nil
	}
	t.droppedEnd = -1
	for i := range t.dropped {
		n := &t.dropped[i]
		n.Space = t.translate(n.Space, n.Local, false)
	}
	return t.dropped
}
