package xmlscan

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
)

// This file reads start and end tags: those that fit in the buffer at
// once, and those longer than it, which stream through it.

// endTag reads an end tag "</name S? >".
func (t *Scanner) endTag() (rawKind, error) {
	// Nearly always the end tag is "</" and the name of the open element,
	// checked when it started, then '>'.
	if n := len(t.stk); n > 0 && !t.stk[n-1].binding {
		e := &t.stk[n-1]
		prefix, local := t.elemName(e)
		b := t.buf[t.pos+2 : t.end]
		i := len(local) + 1
		if len(prefix) > 0 {
			i += len(prefix) + 1
		}
		if i <= len(b) && b[i-1] == '>' {
			if len(prefix) == 0 && string(b[:i-1]) == string(local) {
				t.pos += 2 + i
				t.tok.set(End, b[:0], b[:i-1], nil)
				t.endOfTop = true
				return rawEnd, nil
			}
			if len(prefix) > 0 && string(b[:len(prefix)]) == string(prefix) && b[len(prefix)] == ':' && string(b[len(prefix)+1:i-1]) == string(local) {
				t.pos += 2 + i
				t.tok.set(End, b[:len(prefix)], b[len(prefix)+1:i-1], nil)
				t.endOfTop = true
				return rawEnd, nil
			}
		}
	}
	for {
		b := t.buf[t.pos:t.end]
		prefix, local, i, err := t.nsName(b, 2, "expected element name after </")
		if err == nil {
			i = skipSpace(b, i)
			switch {
			case i == len(b) && t.pos == 0 && t.end == len(t.buf) && t.rerr == nil:
				t.pos = t.end // the name and the space after it
				return t.endTagSpace(prefix, local)
			case i == len(b):
				err = errNeedMore
			case b[i] != '>':
				return 0, t.syntaxError("invalid characters between </"+string(local)+" and >", t.pos+i)
			}
		}
		if err == errNeedMore {
			if err = t.wait(); err != nil {
				return 0, err
			}
			continue
		}
		if err != nil {
			return 0, err
		}
		t.pos += i + 1
		t.tok.set(End, prefix, local, nil)
		return rawEnd, nil
	}
}

// endTagSpace reads the rest of an end tag prefix:local, slices of the
// buffer read up to pos, whose white space filled the buffer: the name is
// copied aside, and the space is let go as it is read.
func (t *Scanner) endTagSpace(prefix, local []byte) (rawKind, error) {
	t.endName = append(append(t.endName[:0], prefix...), local...)
	prefix, local = t.endName[:len(prefix)], t.endName[len(prefix):]
	for {
		t.pos = skipSpace(t.buf[:t.end], t.pos)
		if t.pos < t.end {
			break
		}
		if err := t.wait(); err != nil {
			return 0, err
		}
	}
	if t.buf[t.pos] != '>' {
		return 0, t.syntaxError("invalid characters between </"+string(local)+" and >", t.pos)
	}
	t.pos++
	t.tok.set(End, prefix, local, nil)
	return rawEnd, nil
}

// startTag reads a start tag with its attributes, then unescapes the
// attribute values in place: the tag is read whole before anything in it
// changes, since reading it again after more input would see the changes.
// A tag that does not fit in the buffer is read by longStart instead.
func (t *Scanner) startTag() (rawKind, error) {
	if t.bareStart() {
		return rawStart, nil
	}
	for {
		n, empty, err := t.parseStart(t.buf[t.pos:t.end])
		if err == errNeedMore {
			if t.pos == 0 && t.end == len(t.buf) && t.rerr == nil {
				return t.longStart()
			}
			if err = t.wait(); err != nil {
				return 0, err
			}
			continue
		}
		if err != nil {
			return 0, err
		}
		for i := range t.tok.Attrs {
			if !t.quoted[i] {
				continue
			}
			a := &t.tok.Attrs[i]
			at := t.pos + (cap(t.buf[t.pos:]) - cap(a.Value))
			if a.Value, err = t.decode(a.Value, modeAttr, false, at); err != nil {
				return 0, err
			}
		}
		t.tok.Forbidden, t.forbidden = t.forbidden, false
		if t.keep != nil {
			t.dropped = t.dropped[:0]
			if err := t.keepAttrs(); err != nil {
				return 0, err
			}
			if len(t.dropped) > 0 {
				t.droppedEnd = t.base + int64(t.pos+n)
			}
		}
		if empty {
			t.needClose = true
			t.setLimit()
			t.toClose = append(append(t.toClose[:0], t.tok.Name.Space...), t.tok.Name.Local...)
			t.toCloseAt = len(t.tok.Name.Space)
		}
		t.pos += n
		return rawStart, nil
	}
}

// bareStart reads the start tag at pos when it is a name and '>', as most
// start tags of a sitemap are: there are no attributes to read and nothing
// to unescape. It reports false, having read nothing, for any other tag
// (one not read whole yet among them), which startTag then reads.
func (t *Scanner) bareStart() bool {
	b := t.buf[t.pos:t.end]
	j, colon := 1, 0
name:
	for ; j < len(b); j++ {
		switch c := nameClass[b[j]]; {
		case c == nameASCII:
		case c == nameColon && colon == 0:
			colon = j
		default:
			break name
		}
	}
	if j == 1 || j == len(b) || b[j] != '>' || !firstASCII[b[1]] || j-1 > maxNameLength {
		return false
	}
	if colon <= 1 || colon == j-1 {
		// No colon, or one that does not split the name (see nsName).
		t.tok.set(Start, b[1:1], b[1:j], nil)
	} else {
		t.tok.set(Start, b[1:colon], b[colon+1:j], nil)
	}
	t.pos += j + 1
	return true
}

// keepAttrs drops from t.tok the attributes that t.keep does not read, and
// cuts the values of those it does, as longStart does.
func (t *Scanner) keepAttrs() error {
	attrs, kept := t.tok.Attrs[:0], 0
	for _, a := range t.tok.Attrs {
		if !isDecl(a.Name) {
			if !t.keep.wants(t.tok.Name.Local, a.Name.Local) {
				if t.obs != nil {
					t.dropped = append(t.dropped, a.Name)
				}
				continue
			}
			if kept++; kept > maxKeptAttrs {
				return t.syntaxError(fmt.Sprintf("element <%s> has more than %d attributes read", t.tok.Name.Local, maxKeptAttrs), t.pos)
			}
			a.Value = a.Value[:min(len(a.Value), t.keep.Keep+1)]
		}
		attrs = append(attrs, a)
	}
	t.tok.Attrs = attrs
	return nil
}

// isDecl reports whether the attribute named n, untranslated, declares a
// namespace.
func isDecl(n Name) bool {
	return bytes.Equal(n.Space, xmlnsBytes) || len(n.Space) == 0 && bytes.Equal(n.Local, xmlnsBytes)
}

// longStart reads a start tag that does not fit in the buffer, from its
// '<' at pos, through the buffer: each name, each '=' and each chunk of a
// value is let go once read, and what is kept of it (the names, the
// namespace declarations and the attributes t.keep reads) is copied to
// t.tagArena first. So the tag costs what is kept of it, whatever its
// length; with t.keep nil that is all of it, as with parseStart.
func (t *Scanner) longStart() (rawKind, error) {
	lt := longTag{ar: t.tagArena[:0], parts: t.tagParts[:0]}
	prefix, local, err := t.waitName(1, "expected element name after <")
	if err != nil {
		return 0, err
	}
	lt.ar = append(append(lt.ar, prefix...), local...)
	lt.nameMid, lt.nameEnd = len(prefix), len(lt.ar)
	empty, err := t.longAttrs(&lt)
	if err != nil {
		return 0, err
	}
	ar, nameMid, nameEnd := lt.ar, lt.nameMid, lt.nameEnd
	t.tagArena, t.tagParts = ar, lt.parts
	t.tok.set(Start, ar[:nameMid], ar[nameMid:nameEnd], nil)
	t.tok.Forbidden, t.forbidden = t.forbidden, false
	for _, p := range lt.parts {
		t.tok.Attrs = append(t.tok.Attrs, Attr{Name{ar[p.off:p.mid], ar[p.mid:p.val]}, ar[p.val:p.end]})
	}
	if empty {
		t.needClose = true
		t.setLimit()
		t.toClose = append(append(t.toClose[:0], ar[:nameMid]...), ar[nameMid:nameEnd]...)
		t.toCloseAt = nameMid
	}
	return rawStart, nil
}

// longTag is what longStart keeps of a long start tag: the element's name
// at ar[:nameEnd], split at nameMid, and the attributes kept, parts, whose
// bytes follow in ar.
type longTag struct {
	ar               []byte
	parts            []tagPart
	nameMid, nameEnd int
	decls, kept      int // the namespace declarations and the attributes read so far
	val, limit       int // the value being read starts at ar[val:]; limit is how much of it is kept, -1 for all
}

// add keeps what limit allows of b, the next bytes of the value being read.
func (lt *longTag) add(b []byte) {
	if lt.limit >= 0 {
		b = b[:min(len(b), max(lt.limit-(len(lt.ar)-lt.val), 0))]
	}
	lt.ar = append(lt.ar, b...)
}

// need waits until n bytes from pos are read.
func (t *Scanner) need(n int) error {
	for t.end-t.pos < n {
		if err := t.wait(); err != nil {
			return err
		}
	}
	return nil
}

// waitSpace waits until pos is at a byte that is not white space, letting
// the space go.
func (t *Scanner) waitSpace() error {
	for {
		t.pos = skipSpace(t.buf[:t.end], t.pos)
		if t.pos < t.end {
			return nil
		}
		if err := t.wait(); err != nil {
			return err
		}
	}
}

// waitName reads the name at pos+i, waiting for it whole, and moves pos
// past it.
func (t *Scanner) waitName(i int, msg string) (prefix, local []byte, err error) {
	for {
		prefix, local, j, err := t.nsName(t.buf[t.pos:t.end], i, msg)
		if err == errNeedMore {
			if err = t.wait(); err != nil {
				return nil, nil, err
			}
			continue
		}
		if err == nil {
			t.pos += j
		}
		return prefix, local, err
	}
}

// longAttrs reads the attributes of a long start tag up to its end, and
// tells whether it ends in "/>".
func (t *Scanner) longAttrs(lt *longTag) (empty bool, err error) {
	for {
		if err := t.waitSpace(); err != nil {
			return false, err
		}
		switch t.buf[t.pos] {
		case '/':
			if err := t.need(2); err != nil {
				return false, err
			}
			if t.buf[t.pos+1] != '>' {
				return false, t.syntaxError("expected /> in element", t.pos)
			}
			t.pos += 2
			return true, nil
		case '>':
			t.pos++
			return false, nil
		}
		if err := t.longAttr(lt); err != nil {
			return false, err
		}
	}
}

// longAttr reads one attribute of a long start tag, and keeps it in lt if
// it is kept.
func (t *Scanner) longAttr(lt *longTag) error {
	ap, al, err := t.waitName(0, "expected attribute name in element")
	if err != nil {
		return err
	}
	decl := isDecl(Name{ap, al})
	keep, err := t.longKeep(lt, decl, al)
	if err != nil {
		return err
	}
	var p tagPart
	p.off = len(lt.ar)
	if keep {
		lt.ar = append(lt.ar, ap...)
		p.mid = len(lt.ar)
		lt.ar = append(lt.ar, al...)
	}
	p.val = len(lt.ar)
	lt.val = p.val
	if err := t.waitSpace(); err != nil {
		return err
	}
	if err := t.longValue(lt, keep, p.mid); err != nil {
		return err
	}
	if !keep {
		return nil
	}
	if decl {
		if err := t.checkDecl(&lt.decls, 0, lt.ar[p.val:]); err != nil {
			return err
		}
	}
	p.end = len(lt.ar)
	lt.parts = append(lt.parts, p)
	return nil
}

// longKeep tells whether the attribute local of a long start tag is kept,
// a namespace declaration when decl, and sets how much of its value is.
func (t *Scanner) longKeep(lt *longTag, decl bool, local []byte) (bool, error) {
	keep := t.keep == nil || decl
	if !keep && t.keep.wants(lt.ar[lt.nameMid:lt.nameEnd], local) {
		if lt.kept++; lt.kept > maxKeptAttrs {
			return false, t.syntaxError(fmt.Sprintf("element <%s> has more than %d attributes read", lt.ar[lt.nameMid:lt.nameEnd], maxKeptAttrs), t.pos)
		}
		keep = true
	}
	lt.limit = -1
	switch {
	case decl:
		if lt.decls >= maxNSDecls {
			return false, t.checkDecl(&lt.decls, 0, nil)
		}
		lt.limit = maxNSURILength + 1
	case !keep:
		lt.limit = 0
	case t.keep != nil:
		lt.limit = t.keep.Keep + 1
	}
	return keep, nil
}

// longValue reads the value of an attribute of a long start tag from pos,
// at '=' or at what follows a name without one; mid is where the name's
// local part starts in lt.ar.
func (t *Scanner) longValue(lt *longTag, keep bool, mid int) error {
	if t.buf[t.pos] != '=' {
		if t.strict {
			return t.syntaxError("attribute name without = in element", t.pos)
		}
		if t.obs != nil {
			t.note(NoteSyntax, "attribute name without = in element", t.pos)
		}
		if keep {
			lt.add(lt.ar[mid:lt.val])
		}
		return nil
	}
	t.pos++
	if err := t.waitSpace(); err != nil {
		return err
	}
	switch q := t.buf[t.pos]; {
	case q == '"' || q == '\'':
		t.pos++
		return t.longQuoted(lt, q)
	case t.strict:
		return t.syntaxError("unquoted or missing attribute value in element", t.pos)
	}
	if t.obs != nil {
		t.note(NoteSyntax, "unquoted or missing attribute value in element", t.pos)
	}
	return t.longUnquoted(lt)
}

// longQuoted reads a quoted value from pos, after its quote q, chunk by
// chunk through the buffer.
func (t *Scanner) longQuoted(lt *longTag, q byte) error {
	for {
		b := t.buf[t.pos:t.end]
		k := bytes.IndexByte(b, q)
		v := b
		if k >= 0 {
			v = b[:k]
		}
		if at := bytes.IndexByte(v, '<'); at >= 0 {
			return t.syntaxError("unescaped < inside quoted string", t.pos+at)
		}
		n := len(v)
		if k < 0 && n > 0 {
			n = textCut(v, modeAttr)
		}
		if n > 0 {
			out, err := t.decode(v[:n], modeAttr, false, t.pos)
			if err != nil {
				return err
			}
			lt.add(out)
			t.pos += n
		}
		if k >= 0 {
			t.pos++
			return nil
		}
		if err := t.wait(); err != nil {
			return err
		}
	}
}

// longUnquoted reads an unquoted value from pos, as HTML does, which
// tolerant mode allows.
func (t *Scanner) longUnquoted(lt *longTag) error {
	for {
		b := t.buf[t.pos:t.end]
		k := 0
		for k < len(b) && unquotedByte[b[k]] {
			k++
		}
		lt.add(b[:k])
		t.pos += k
		if k < len(b) {
			return nil
		}
		if err := t.wait(); err != nil {
			return err
		}
	}
}

// parseStart reads the start tag at the front of b into t.tok without
// changing b. It returns the length of the tag and whether it ends in "/>".
func (t *Scanner) parseStart(b []byte) (n int, empty bool, err error) {
	prefix, local, i, err := t.nsName(b, 1, "expected element name after <")
	if err != nil {
		return 0, false, err
	}
	t.tok.set(Start, prefix, local, nil)
	t.quoted = t.quoted[:0]
	for {
		i = skipSpace(b, i)
		if i == len(b) {
			return 0, false, errNeedMore
		}
		switch b[i] {
		case '/':
			if i+1 == len(b) {
				return 0, false, errNeedMore
			}
			if b[i+1] != '>' {
				return 0, false, t.syntaxError("expected /> in element", t.pos+i)
			}
			return i + 2, true, nil
		case '>':
			return i + 1, false, nil
		}
		var a Attr
		if a.Name.Space, a.Name.Local, i, err = t.nsName(b, i, "expected attribute name in element"); err != nil {
			return 0, false, err
		}
		i = skipSpace(b, i)
		if i == len(b) {
			return 0, false, errNeedMore
		}
		var quoted bool
		if a.Value, quoted, i, err = t.attrValue(b, i, a.Name.Local); err != nil {
			return 0, false, err
		}
		t.tok.Attrs = append(t.tok.Attrs, a)
		t.quoted = append(t.quoted, quoted)
	}
}

// attrValue reads the value of an attribute named local whose name ends at
// b[i]: after =, a quoted value, or in tolerant mode an unquoted one or, with
// no =, the name itself, as HTML reads them. It returns the value, whether
// it was quoted and where the attribute ends.
func (t *Scanner) attrValue(b []byte, i int, local []byte) (value []byte, quoted bool, next int, err error) {
	if b[i] != '=' {
		if t.strict {
			return nil, false, 0, t.syntaxError("attribute name without = in element", t.pos+i)
		}
		if t.obs != nil {
			t.note(NoteSyntax, "attribute name without = in element", t.pos+i)
		}
		return local, false, i, nil
	}
	if i = skipSpace(b, i+1); i == len(b) {
		return nil, false, 0, errNeedMore
	}
	switch q := b[i]; {
	case q == '"' || q == '\'':
		v := b[i+1:]
		k := bytes.IndexByte(v, q)
		if k >= 0 {
			v = v[:k]
		}
		if lt := bytes.IndexByte(v, '<'); lt >= 0 {
			return nil, false, 0, t.syntaxError("unescaped < inside quoted string", t.pos+i+1+lt)
		}
		if k < 0 {
			return nil, false, 0, errNeedMore
		}
		return v, true, i + k + 2, nil
	case t.strict:
		return nil, false, 0, t.syntaxError("unquoted or missing attribute value in element", t.pos+i)
	}
	if t.obs != nil {
		t.note(NoteSyntax, "unquoted or missing attribute value in element", t.pos+i)
	}
	// Tolerant mode reads an unquoted value as HTML does.
	k := i
	for k < len(b) && unquotedByte[b[k]] {
		k++
	}
	if k == len(b) {
		return nil, false, 0, errNeedMore
	}
	return b[i:k], false, k, nil
}

// nsName is Decoder.nsname at b[i]: a name, split at its colon into a
// prefix and a local name. It returns the index after the name; a name that
// is missing or has more than one colon is the syntax error msg.
func (t *Scanner) nsName(b []byte, i int, msg string) (prefix, local []byte, j int, err error) {
	j = i
	var seen uint8
	colon, colons := 0, 0
	for j < len(b) {
		// Names are mostly letters: skip them eight at a time, then look
		// at the byte that is not one through the table.
		for j+8 <= len(b) {
			if m := asciiLetters(binary.LittleEndian.Uint64(b[j:])); m != allHigh {
				j += bits.TrailingZeros64(^m&allHigh) >> 3
				break
			}
			j += 8
		}
		if j == len(b) {
			break
		}
		c := nameClass[b[j]]
		if c == 0 {
			break
		}
		if c == nameColon {
			colon = j - i
			colons++
		}
		seen |= c
		j++
	}
	if j-i > maxNameLength {
		return nil, nil, 0, t.syntaxError(fmt.Sprintf("XML name longer than %d bytes", maxNameLength), t.pos+i)
	}
	if j == len(b) {
		return nil, nil, 0, errNeedMore
	}
	name := b[i:j]
	if len(name) == 0 {
		return nil, nil, 0, t.syntaxError(msg, t.pos+i)
	}
	if seen&nameNonASCII == 0 && !firstASCII[name[0]] || seen&nameNonASCII != 0 && !isName(name) {
		return nil, nil, 0, t.syntaxError("invalid XML name: "+string(name), t.pos+i)
	}
	switch {
	case colons == 0:
		return name[:0], name, j, nil
	case colons > 1:
		return nil, nil, 0, t.syntaxError(msg, t.pos+i)
	case colon == 0 || colon == len(name)-1:
		return name[:0], name, j, nil
	}
	return name[:colon], name[colon+1:], j, nil
}

// allHigh has the high bit of every byte of a word set.
const allHigh = 0x8080808080808080

// asciiLetters returns the word w, eight bytes, with the high bit of each
// byte set that is an ASCII letter and every other bit clear. Each byte is
// tested at once without carries into the next: with its high bit cleared
// first, adding to it cannot overflow it.
func asciiLetters(w uint64) uint64 {
	const ones = 0x0101010101010101
	l := (w | 0x2020202020202020) &^ allHigh // lower case, and below 0x80
	atLeastA := l + (0x80-'a')*ones
	pastZ := l + (0x80-'z'-1)*ones
	return atLeastA &^ pastZ &^ w & allHigh
}

// skipSpace is Decoder.space: the index of the first byte at or after b[i]
// that is not XML white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\r', '\n', '\t':
			i++
			continue
		}
		break
	}
	return i
}
