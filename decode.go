package sitemap

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
	"golang.org/x/text/encoding/htmlindex"
)

// This file is the decode stage: bytes in, text out. It undoes gzip (every
// member, capped at the size limit), drops a UTF-8 byte order mark, tells
// XML from text, and transcodes an XML document whose declaration names an
// encoding other than UTF-8. It knows bytes and encodings only: not the
// formats, nor what the parse makes of the text, nor how the results are
// kept (it tells how far into its input the reader is, for whoever asks).
//
// gzip is github.com/klauspost/compress/gzip, the API of compress/gzip:
// it inflates W1 and W2 of bench/ in 26% fewer instructions (issue 19),
// which on a machine with no core to spare for the read-ahead is the
// difference between a gzipped document at 1.21 and at 1.15 times the time
// of the plain one.

var bom = []byte{0xEF, 0xBB, 0xBF}

// encodingError is the cause of the *ParseError of a document in an
// encoding the package does not read: UTF-16 or UTF-32 (ENC-11), in any
// format, or one its declaration names and no decoder knows.
type encodingError = tagged[unreadable]

type unreadable struct{}

// errUnicodeEncoding is the encodingError of a document in UTF-16 or
// UTF-32: name is the encoding, as its first bytes tell it; byBOM tells
// whether they are a byte order mark.
func errUnicodeEncoding(name string, byBOM bool) error {
	how := "its first bytes"
	if byBOM {
		how = "its byte order mark"
	}
	return &encodingError{err: fmt.Errorf("%s documents are not supported (told by %s)", name, how)}
}

// unicodeEncoding tells a document in UTF-16 or UTF-32 by its first bytes:
// a byte order mark, or, in a document without one, the zero bytes around
// its first ASCII characters (XML 1.0, appendix F: "<?" or "<" is the start
// of an XML document; any text that begins with two ASCII characters is told
// the same way). It returns "" for any other document, UTF-8 among them,
// which has no zero byte among its first four unless it is not text at all.
func unicodeEncoding(head []byte) (name string, byBOM bool) {
	ascii := func(c byte) bool { return c != 0 && c < 0x80 }
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}):
		return "UTF-32LE", true
	case bytes.HasPrefix(head, []byte{0, 0, 0xFE, 0xFF}):
		return "UTF-32BE", true
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return "UTF-16LE", true
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return "UTF-16BE", true
	case len(head) < 4:
		return "", false
	case ascii(head[0]) && head[1] == 0 && head[2] == 0 && head[3] == 0:
		return "UTF-32LE", false
	case head[0] == 0 && head[1] == 0 && head[2] == 0 && ascii(head[3]):
		return "UTF-32BE", false
	case ascii(head[0]) && head[1] == 0 && ascii(head[2]) && head[3] == 0:
		return "UTF-16LE", false
	case head[0] == 0 && ascii(head[1]) && head[2] == 0 && ascii(head[3]):
		return "UTF-16BE", false
	}
	return "", false
}

// errUnsupportedEncoding is the encodingError of a document whose
// declaration names an encoding the package cannot read.
func errUnsupportedEncoding(name string) error {
	return &encodingError{err: fmt.Errorf("unsupported encoding %q", name)}
}

// inlineGzip is the size of the largest gzipped body that is inflated on
// the goroutine of the parse, as it reads, rather than on the read-ahead's:
// for a small body, the hand-over of its blocks to the parse and back costs
// more than inflating it beside the parse saves.
const inlineGzip = 4 << 10

// peekSize is how much of a document is looked at to tell its format and
// its encoding.
const peekSize = 1024

// maxDeclLength bounds the XML declaration read for the encoding it names.
// XML allows any white space between its parts, so a declaration may end
// past peekSize; it is read as far as it goes, up to this bound, which no
// declaration of a real document comes near (one is some 60 bytes). A
// declaration that runs past it is a *ParseError rather than a document read
// as UTF-8 whatever it declares. It is well below the 16 KiB of the decode
// stage's buffer, which holds what is peeked at.
const maxDeclLength = 4 << 10

// errLongDeclaration is the cause of the *ParseError of a document whose XML
// declaration does not end within maxDeclLength bytes.
var errLongDeclaration = fmt.Errorf("XML declaration does not end within its first %d bytes", maxDeclLength)

// readers keeps the buffered readers of documents that were read, so that
// a call of many small documents does not allocate one for each: a fifth
// of the CPU time of a call of a 10-URL sitemap (ARCHITECTURE.md, "Speed
// machinery").
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 16<<10) }}

func getReader(r io.Reader) *bufio.Reader {
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	return br
}

func putReader(br *bufio.Reader) {
	br.Reset(nil)
	readers.Put(br)
}

// gzipReaders keeps the inflaters of gzipped documents that were read: one
// holds some 40 KiB of window and tables, which a call of many small
// gzipped sitemaps allocated again for each: a third of the CPU time of a
// call of a gzipped 10-URL sitemap (ARCHITECTURE.md, "Speed machinery").
var gzipReaders sync.Pool // of *gzip.Reader

// getGzip returns an inflater of the gzip member that r begins with, one of
// gzipReaders when there is one, having read the member's header.
func getGzip(r io.Reader) (*gzip.Reader, error) {
	z, ok := gzipReaders.Get().(*gzip.Reader)
	if !ok {
		return gzip.NewReader(r)
	}
	if err := z.Reset(r); err != nil {
		gzipReaders.Put(z)
		return nil, err
	}
	return z, nil
}

// decode undoes the compression of r and drops a byte order mark. maxSize
// caps the content, decompressed. beforeRead, when not nil, runs whenever
// the parse stage has read all that has come and asks for more: before a
// read that may wait for input. Once ctx (when not nil) has ended, the next
// read of the parse stage fails with a *ctxEndedError, so that the parse
// stops within a buffer of input, at one check a buffer. pos tells, on the
// goroutine that reads out, about how many bytes of r lie behind what out
// has handed on: the bytes read from r, or for a gzipped r those read for
// the block of inflated bytes out is at (the buffers put it a little ahead
// of the reader). done gives the buffers back once the document is read; it
// closes r when r is an io.Closer that a goroutine of decode is still
// reading from. It returns how many bytes were read from r (wire), and how
// many they decompressed to (decoded; the same for a body not compressed).
// gzipped tells whether r is. size is the size of r, -1 when it is not
// known: a gzipped body of at most inlineGzip bytes is inflated as the
// parse stage reads, without the read-ahead.
func decode(ctx context.Context, r io.Reader, size, maxSize int64, beforeRead func()) (out *bufio.Reader, pos func() int64, gzipped bool, done func() (wire, decoded int64), err error) {
	lim := &limitedReader{r: r, left: maxSize,
		err: &causedError{fmt.Sprintf("content is larger than the limit of %d bytes", maxSize), ErrMaxResponseSize}}
	hook := &hookedReader{lim, beforeRead, ctx}
	br := getReader(hook)
	wire := func() int64 { return maxSize - lim.left }
	done = func() (int64, int64) { putReader(br); return wire(), wire() }
	out = br
	pos = func() int64 { return maxSize - lim.left }
	// A read that fails after some bytes came is seen by the parse stage,
	// after them, here and in the peeks below: the bytes at hand are read.
	magic, err := br.Peek(2)
	if err != nil && !isEOF(err) && len(magic) == 0 {
		return nil, nil, false, done, err
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		z, err := getGzip(br)
		if err != nil {
			return nil, nil, false, done, gzipError(err)
		}
		z.Multistream(false)
		gzipped = true
		// The inflater reads br from now on, on the read-ahead's goroutine
		// unless the body is small: the hook runs above the inflation
		// instead, where the parse stage reads, and sees the context there.
		hook.before, hook.ctx = nil, nil
		// The bytes inflated so far: those read, less those that wait in
		// br. The read-ahead's goroutine takes the mark of each block it
		// reads; the reader, the mark of the block it is at.
		read := pos
		mark := func() int64 { return read() - int64(br.Buffered()) }
		inflated := &limitedReader{r: &gzipMembers{br: br, z: z}, left: maxSize, err: errDecompressedLimit(maxSize)}
		decoded := func() int64 { return maxSize - inflated.left }
		if 0 <= size && size <= inlineGzip {
			zr := getReader(&hookedReader{inflated, beforeRead, ctx})
			out, pos, done = zr, mark, func() (int64, int64) {
				gzipReaders.Put(z)
				putReader(zr)
				putReader(br)
				return wire(), decoded()
			}
		} else {
			reached := new(int64)
			pos = func() int64 { return *reached }
			ra := newReadAhead(inflated, mark, reached)
			if c, ok := r.(io.Closer); ok {
				ra.abort = c.Close
			}
			zr := getReader(&hookedReader{ra, beforeRead, ctx})
			// zr, not out: a return with an error sets out to nil before
			// done runs. The read-ahead ends first, as it reads from br.
			out, done = zr, func() (int64, int64) {
				ra.close() // the goroutine that reads inflated has ended
				gzipReaders.Put(z)
				putReader(zr)
				putReader(br)
				return wire(), decoded()
			}
		}
	}
	b, err := out.Peek(4)
	if err != nil && !isEOF(err) && len(b) == 0 {
		return nil, nil, false, done, err
	}
	if bytes.HasPrefix(b, bom) {
		out.Discard(3)
	} else if name, byBOM := unicodeEncoding(b); name != "" {
		// In every format: a robots.txt or a text sitemap in UTF-16 would
		// otherwise read as lines of nothing, an empty success.
		return nil, nil, false, done, errUnicodeEncoding(name, byBOM)
	}
	return out, pos, gzipped, done, nil
}

// readAhead reads from r in a goroutine of its own, a few blocks ahead of
// its reader. It puts the decompression of a gzip document on a second core,
// beside the parse stage, rather than before it: on two cores, a gzipped
// document is parsed in about the time of a plain one, not that plus the
// time of inflating it.
type readAhead struct {
	full  chan aheadBlock // blocks read, in order
	free  chan *[aheadSize]byte
	stop  chan struct{} // closed by close
	ended chan struct{} // closed when the goroutine has ended
	cur   aheadBlock    // the block being read
	off   int

	// spent holds the blocks read out and not yet handed back to free,
	// nspent of them: they go back aheadBlocks/2 at a time, or before the
	// reader waits for a block, so that the goroutine, asleep once it has
	// filled every block, is woken once for several blocks rather than
	// once for each (a wake costs the reader a system call).
	spent  [aheadBlocks]*[aheadSize]byte
	nspent int

	// mark, when set, tells the goroutine how far the input below has been
	// read for the block it has just read, and reached is set to the mark
	// of the block the reader is at: how far the input has been read for
	// what the parse stage has been handed.
	mark    func() int64
	reached *int64

	// abort, when set, ends a read of the goroutine that waits on the
	// network, for close: it closes the response body.
	abort func() error
}

// aheadBlock is what one read of readAhead's goroutine yielded: bytes, and
// the error that ended the reading, if any.
type aheadBlock struct {
	buf  *[aheadSize]byte
	n    int
	err  error
	mark int64
}

const (
	// aheadSize is the size of a block: what one read of the inflater
	// yields at most, the 32 KiB of its window.
	aheadSize   = 32 << 10
	aheadBlocks = 8 // how many blocks a read-ahead reads ahead at most
)

func newReadAhead(r io.Reader, mark func() int64, reached *int64) *readAhead {
	ra := &readAhead{
		full:    make(chan aheadBlock, aheadBlocks),
		free:    make(chan *[aheadSize]byte, aheadBlocks),
		stop:    make(chan struct{}),
		ended:   make(chan struct{}),
		mark:    mark,
		reached: reached,
	}
	for range aheadBlocks {
		ra.free <- new([aheadSize]byte)
	}
	go ra.fill(r)
	return ra
}

// fill reads r into free blocks until it fails or ends, or until close.
// A panic of r (the body of a response of the caller's RoundTripper) is
// handed to the reader, which raises it again on its own goroutine: the
// goroutine of the call that reads the document, where the call's guard
// takes it to the caller.
func (ra *readAhead) fill(r io.Reader) {
	defer close(ra.ended)
	ended := false
	defer func() {
		if !ended {
			p := newPanicError(recover(), debug.Stack())
			select {
			case ra.full <- aheadBlock{err: p}:
			case <-ra.stop:
			}
		}
	}()
	ra.fillBlocks(r)
	ended = true
}

func (ra *readAhead) fillBlocks(r io.Reader) {
	for {
		var buf *[aheadSize]byte
		select {
		case buf = <-ra.free:
		case <-ra.stop:
			return
		}
		// One read, not a loop to fill the block: what has come is handed
		// on at once, so that a document that arrives slowly is parsed as
		// it arrives.
		n, err := r.Read(buf[:])
		if n == 0 && err == nil {
			ra.free <- buf
			continue
		}
		var mark int64
		if ra.mark != nil {
			mark = ra.mark()
		}
		select {
		case ra.full <- aheadBlock{buf, n, err, mark}:
		case <-ra.stop:
			ra.free <- buf
			return
		}
		if err != nil {
			return
		}
	}
}

func (ra *readAhead) Read(p []byte) (int, error) {
	for ra.cur.buf == nil || ra.off == ra.cur.n {
		if ra.cur.err != nil {
			return 0, ra.cur.err
		}
		if ra.cur.buf != nil {
			ra.spent[ra.nspent] = ra.cur.buf
			ra.nspent++
			ra.cur.buf = nil
		}
		if ra.nspent >= aheadBlocks/2 || ra.nspent > 0 && len(ra.full) == 0 {
			ra.giveBack()
		}
		ra.cur, ra.off = <-ra.full, 0
		if p, ok := ra.cur.err.(*PanicError); ok {
			ra.cur.err = io.ErrUnexpectedEOF
			p.raise()
		}
		if ra.reached != nil {
			*ra.reached = ra.cur.mark
		}
	}
	n := copy(p, ra.cur.buf[ra.off:ra.cur.n])
	ra.off += n
	return n, nil
}

// giveBack hands the spent blocks back to the goroutine. It never blocks:
// free has room for every block.
func (ra *readAhead) giveBack() {
	for _, b := range ra.spent[:ra.nspent] {
		ra.free <- b
	}
	clear(ra.spent[:ra.nspent])
	ra.nspent = 0
}

// close ends the goroutine and waits for it. The blocks are left to the
// collector: a pool of them measured no gain on any workload of bench/
// (issue 30).
func (ra *readAhead) close() {
	close(ra.stop)
	select {
	case <-ra.ended:
	default:
		if ra.abort != nil {
			ra.abort()
		}
		<-ra.ended
	}
}

// hookedReader calls before, when set, ahead of every read of r, and fails
// once ctx, when set, has ended. Below the buffered reader of the decode
// stage, it runs when the document has been read as far as it has come and
// the parse stage asks for more: once a buffer, whether the document is
// fetched or passed in.
type hookedReader struct {
	r      io.Reader
	before func()
	ctx    context.Context
}

func (h *hookedReader) Read(p []byte) (int, error) {
	if h.before != nil {
		h.before()
	}
	if h.ctx != nil {
		if err := h.ctx.Err(); err != nil {
			return 0, &ctxEndedError{err: fmt.Errorf("parse stopped: %w", err)}
		}
	}
	return h.r.Read(p)
}

// ctxEndedError is the error of a read of the parse stage after the context
// of the call ended: the document stops there, and keeps the complete
// entries read before (CTX-11).
type ctxEndedError = tagged[ctxEnded]

type ctxEnded struct{}

// gzipError is the cause of content that could not be decompressed.
func gzipError(err error) error {
	var be *bodyError
	if errors.As(err, &be) {
		return err
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("%w: %w", errGzip, err)
}

// errGzip is what the error of a gzip stream that could not be inflated
// wraps (lint's gzip-corrupt).
var errGzip = errors.New("gzip decompression failed")

// gzipMembers reads every member of a gzip file, and ignores what follows
// the last one when it is no member (a newline, say).
type gzipMembers struct {
	br   *bufio.Reader
	z    *gzip.Reader
	done bool
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for !g.done {
		n, err := g.z.Read(p)
		if err == io.EOF && n > 0 {
			// The end of a member: the bytes of it are handed on before
			// the input is looked at for another member, which may wait
			// for the network. The inflater's next read ends again.
			return n, nil
		}
		if err == io.EOF {
			next, _ := g.br.Peek(2)
			if len(next) == 2 && next[0] == 0x1f && next[1] == 0x8b {
				if err := g.z.Reset(g.br); err != nil {
					return n, gzipError(err)
				}
				g.z.Multistream(false)
			} else {
				g.done = true
			}
			err = nil
		}
		if err != nil {
			return n, gzipError(err)
		}
		if n > 0 || len(p) == 0 {
			return n, nil
		}
	}
	return 0, io.EOF
}

// limitedReader fails with err once more than left bytes were read, rather
// than cutting its input short without a word as io.LimitReader does. It is
// the one limit reader of the package: of the decode stage, over the input
// and over the inflated bytes, and of a response body (cappedBody).
type limitedReader struct {
	r    io.Reader
	left int64
	err  error
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.err
	}
	// Read one byte beyond the limit, to tell an input of exactly the
	// limit from a longer one. (len(p)-1 > left rather than len(p) >
	// left+1: left+1 overflows for a limit of math.MaxInt64.)
	if size := int64(len(p)); size > 0 && size-1 > l.left {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n + int(l.left), l.err
	}
	return n, err
}

// isXML reports whether the decoded document is XML: its first byte that
// is not white space is '<'. The white space before it is dropped, but for
// the indentation of the first line of a text document. A UTF-16 or UTF-32
// document is an error, and so is one of white space only. It looks at
// what has come of the document, and waits for more only while that is
// white space, so that a short document that stalls is read as far as it
// has come. The number it returns is that of the lines it dropped before
// a text document, which the numbers of its lines start after.
func isXML(r *bufio.Reader) (bool, int, error) {
	dropped := 0
	// Two bytes at least the first time, to tell UTF-16 by its zero byte.
	for have, first := 1, true; ; first = false {
		// A read that fails after some bytes came is seen by the parse
		// stage, after them: the bytes at hand tell the format.
		head, err := peekPast(r, have, peekSize)
		if err != nil && !isEOF(err) && len(head) == 0 {
			return false, dropped, err
		}
		// decode told UTF-16 and UTF-32 by their byte order mark, or by
		// the zero bytes among their first four; what is left is UTF-16
		// XML whose second character is not ASCII, or that is shorter.
		if first && len(head) >= 2 {
			switch {
			case head[0] == '<' && head[1] == 0:
				return false, 0, errUnicodeEncoding("UTF-16LE", false)
			case head[0] == 0 && head[1] == '<':
				return false, 0, errUnicodeEncoding("UTF-16BE", false)
			}
		}
		ws := len(head) - len(bytes.TrimLeft(head, " \t\r\n"))
		if ws < len(head) {
			if head[ws] == '<' {
				r.Discard(ws)
				return true, 0, nil
			}
			// A text document: its first line keeps its indentation, so
			// that it is read like any other line.
			nl := bytes.LastIndexByte(head[:ws], '\n')
			if nl >= 0 {
				dropped += bytes.Count(head[:nl], []byte{'\n'}) + 1
			}
			r.Discard(nl + 1)
			return false, dropped, nil
		}
		if err != nil && !isEOF(err) {
			return false, dropped, err
		}
		if err != nil {
			return false, dropped, errEmpty
		}
		// White space only so far: drop it, but for the indentation of the
		// line it ends in (one byte of it is enough to tell).
		keep := 1
		if nl := bytes.LastIndexByte(head, '\n'); nl >= 0 {
			keep = len(head) - nl - 1
			dropped += bytes.Count(head[:nl], []byte{'\n'}) + 1
		}
		r.Discard(len(head) - keep)
		have = keep
	}
}

// peekPast returns the bytes r holds, n at most, reading its input only when
// it holds have bytes or fewer, and then until it holds one more: it waits
// for no more of the input than it takes to see something new, where Peek
// of n bytes would wait for n of them.
func peekPast(r *bufio.Reader, have, n int) ([]byte, error) {
	return r.Peek(min(max(r.Buffered(), have+1), n))
}

// transcode returns r reading UTF-8, transcoding it from the encoding its
// XML declaration names. A document without one is UTF-8.
func transcode(r *bufio.Reader) (io.Reader, error) {
	// What has come of the document is looked at; a declaration that is
	// not whole in it is read as far as it goes, up to maxDeclLength: more
	// of the document is waited for only then, and only as much as it
	// takes.
	head, err := peekPast(r, 0, maxDeclLength)
	for err == nil && len(head) < maxDeclLength && declarationPending(head) {
		head, err = peekPast(r, len(head), maxDeclLength)
	}
	if err != nil && !isEOF(err) && (len(head) == 0 || declarationOpen(head)) {
		return nil, err
	}
	if err == nil && declarationOpen(head) {
		return nil, errLongDeclaration
	}
	label := declaredEncoding(head)
	if label == "" {
		return r, nil
	}
	l := strings.ToLower(label)
	if strings.HasPrefix(l, "utf-16") || strings.HasPrefix(l, "utf-32") || strings.HasPrefix(l, "ucs") {
		return nil, errUnsupportedEncoding(label)
	}
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, errUnsupportedEncoding(label)
	}
	name, _ := htmlindex.Name(enc)
	switch name {
	case "utf-8":
		return r, nil
	case "replacement", "utf-16be", "utf-16le":
		return nil, errUnsupportedEncoding(label)
	}
	return enc.NewDecoder().Reader(r), nil
}

// isDeclaration reports whether head starts with an XML declaration: the
// processing instruction of target xml, not one such as xml-stylesheet.
func isDeclaration(head []byte) bool {
	const start = "<?xml"
	if !bytes.HasPrefix(head, []byte(start)) || len(head) == len(start) {
		return false
	}
	c := head[len(start)]
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '?'
}

// declarationOpen reports whether head starts with an XML declaration that
// does not end within it.
func declarationOpen(head []byte) bool {
	return isDeclaration(head) && !bytes.Contains(head, []byte("?>"))
}

// declarationPending reports whether more of the document is needed to
// read the XML declaration that head may start with: head is the start of
// "<?xml " too short to tell, or a declaration that does not end within it.
func declarationPending(head []byte) bool {
	const start = "<?xml "
	if len(head) < len(start) && strings.HasPrefix(start, string(head)) {
		return true
	}
	return declarationOpen(head)
}

// declaredEncoding returns the encoding that the XML declaration at the
// start of head names, or "" when there is none.
func declaredEncoding(head []byte) string {
	head = bytes.TrimLeft(head, " \t\r\n")
	if !isDeclaration(head) {
		return ""
	}
	end := bytes.Index(head, []byte("?>"))
	if end < 0 {
		return ""
	}
	decl := head[5:end]
	i := bytes.Index(decl, []byte("encoding"))
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if len(rest) == 0 || rest[0] != '=' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
		return ""
	}
	q := rest[0]
	j := bytes.IndexByte(rest[1:], q)
	if j < 0 {
		return ""
	}
	return string(rest[1 : 1+j])
}
