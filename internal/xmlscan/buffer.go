package xmlscan

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"sync"
)

// This file is the scanner's input: the buffer the document is read into,
// its pool, its refill as a token runs past what was read, and the errors
// of input that is malformed or ends too soon, on the line they are on.
// scan.go reads the tokens out of the buffer.

// scanBufSize is the size the scanner's buffer starts at. The buffer grows
// only while a single tag, comment, processing instruction or directive does
// not fit in it; character data is handed out in chunks instead.
const scanBufSize = 64 << 10

// scanBuffers holds the buffers of scanners that are done with them (see
// Release), at their first size, for the scanners of the next documents: a
// call of many sitemaps then allocates a few buffers, not one each.
// Each has bufSlack bytes past its length (see quick.go).
var scanBuffers = sync.Pool{New: func() any { return new([scanBufSize + bufSlack]byte) }}

// Release gives the scanner's buffer back to scanBuffers, unless a long tag
// made it grow: neither the scanner nor a token it handed out may be used
// afterwards.
func (t *Scanner) Release() {
	if cap(t.buf) == scanBufSize+bufSlack {
		scanBuffers.Put((*[scanBufSize + bufSlack]byte)(t.buf[:cap(t.buf)]))
	}
	t.buf, t.tok, t.quickLim = nil, Token{}, 0
}

// setLimit keeps t.quickLim after a change of t.err, t.needClose,
// t.inCDATA, t.end or t.buf: while any of the three is set, the next token
// is the general path's.
func (t *Scanner) setLimit() {
	t.quickLim = 0
	if t.err == nil && !t.needClose && !t.inCDATA {
		t.quickLim = min(t.end-1, cap(t.buf)-bufSlack+1)
	}
}

// syntaxError is the *xml.SyntaxError msg, on the line of buf[at].
func (t *Scanner) syntaxError(msg string, at int) error {
	at = min(max(at, t.pos), t.end)
	return &xml.SyntaxError{Msg: msg, Line: t.lines - bytes.Count(t.buf[at:t.end], []byte{'\n'})}
}

// eofError is the error of a token cut short by the end of the input.
func (t *Scanner) eofError() error {
	if t.rerr == io.EOF {
		return t.truncated("unexpected EOF")
	}
	return t.rerr
}

// TruncatedError is the *xml.SyntaxError of input that ends before the
// document does: inside a token, or with elements open. Its type, not its
// message, tells a reader that the input was cut off; it wraps
// io.ErrUnexpectedEOF as well, as a cut document's error does.
type TruncatedError struct{ *xml.SyntaxError }

// Unwrap returns the syntax error, so that errors.As finds it, and
// io.ErrUnexpectedEOF, so that errors.Is tells the cut.
func (e *TruncatedError) Unwrap() []error { return []error{e.SyntaxError, io.ErrUnexpectedEOF} }

// truncated is the *TruncatedError msg, on the last line read.
func (t *Scanner) truncated(msg string) error {
	return &TruncatedError{t.syntaxError(msg, t.end).(*xml.SyntaxError)}
}

// more reads at least want (> 0) more bytes of the input after buf[pos:end],
// or until the buffer is full, moving buf[pos:end] to the front of the
// buffer and growing it if they fill it. A token cut short by end asks for
// as many bytes again as it has, so that it is scanned a number of times
// logarithmic in its size, whatever the size of the reads. more reports
// whether it read anything; when it did not, t.rerr is set.
func (t *Scanner) more(want int) bool {
	if t.rerr != nil {
		return false
	}
	if t.pos > 0 {
		if t.obs != nil {
			t.Pos() // counts the lines of what is let go
			t.qAt -= t.pos
			t.base += int64(t.pos)
		}
		t.end = copy(t.buf, t.buf[t.pos:t.end])
		t.pos = 0
	}
	if t.end == len(t.buf) {
		b := make([]byte, 2*len(t.buf), 2*len(t.buf)+bufSlack)
		copy(b, t.buf[:t.end])
		t.buf = b
	}
	start := t.end
	for empty := 0; t.end < len(t.buf) && t.end-start < want; {
		n, err := t.r.Read(t.buf[t.end:])
		if n < 0 || n > len(t.buf)-t.end {
			t.rerr = errors.New("xml scanner: reader returned an invalid count")
			break
		}
		t.end += n
		if err != nil {
			t.rerr = err
			break
		}
		if n == 0 {
			if empty++; empty >= 100 {
				t.rerr = io.ErrNoProgress
				break
			}
		}
	}
	t.lines += bytes.Count(t.buf[start:t.end], []byte{'\n'})
	t.setLimit()
	return t.end > start
}

// wait is called when the token at pos runs past end: it reads more, or
// returns the error that ends the token.
func (t *Scanner) wait() error {
	if t.more(max(t.end-t.pos, 1)) {
		return nil
	}
	return t.eofError()
}
