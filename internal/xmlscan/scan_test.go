package xmlscan

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// scanCases are tiny documents read by both tokenizers in both modes.
var scanCases = []struct{ name, doc string }{
	{"empty", ""},
	{"text only", "hello"},
	{"one element", "<a>b</a>"},
	{"self-closing", "<a/>"},
	{"self-closing with space", "<a  />"},
	{"nested", "<a><b>x</b><c/></a>"},
	{"attributes double quotes", `<a x="1" y="two words"/>`},
	{"attributes single quotes", `<a x='1' y='"q"'/>`},
	{"attribute no space between", `<a x="1"y="2"/>`},
	{"attribute spaces around =", "<a x \t=\r\n '1'/>"},
	{"attribute with >", `<a x="1>2">t</a>`},
	{"attribute with entities", `<a x="&lt;&amp;&gt;&quot;&apos;&#65;&#x42;"/>`},
	{"attribute with newline", "<a x=\"1\r\n2\r3\n4\"/>"},
	{"attribute with <", `<a x="1<2"/>`},
	{"attribute unquoted", `<a x=1 y=b-c:d_e>t</a>`},
	{"attribute without value", `<a x y>t</a>`},
	{"attribute prefixed without value", `<a p:x>t</a>`},
	{"attribute empty unquoted", `<a x=>t</a>`},
	{"attribute empty unquoted self-closing", `<a x=/>`},
	{"attribute duplicate", `<a x="1" x="2"/>`},
	{"attribute unquoted then quote", `<a x=1"2">t</a>`},
	{"default namespace", `<a xmlns="urn:x"><b/></a>`},
	{"prefixed namespace", `<p:a xmlns:p="urn:p"><p:b p:c="1" d="2"/></p:a>`},
	{"namespace scope ends", `<a><b xmlns="urn:b"><c/></b><c/></a>`},
	{"namespace redeclared", `<a xmlns:p="u1"><p:b xmlns:p="u2"><p:c/></p:b><p:c/></a>`},
	{"namespace twice in one tag", `<a xmlns:p="u1" xmlns:p="u2"><p:b/></a>`},
	{"namespace declared after use", `<p:a p:x="1" xmlns:p="urn:p"/>`},
	{"namespace empty", `<a xmlns="urn:a"><b xmlns=""><c/></b></a>`},
	{"unbound prefix", `<p:a q:x="1"></p:a>`},
	{"xml prefix", `<a xml:lang="en"><xml:b/></a>`},
	{"xml prefix redeclared", `<a xmlns:xml="urn:other" xml:lang="en"/>`},
	{"xmlns element", `<xmlns:a/><xmlns/>`},
	{"xmlns bound prefix", `<a xmlns:p="xmlns"><b p:c="1" c="2"/></a>`},
	{"xmlns attribute via empty prefix", `<a xmlns:p=""><b p:xmlns="v"/></a>`},
	{"leading colon", `<:a :b="1"></:a>`},
	{"trailing colon", `<a: b:="1"></a:>`},
	{"two colons", `<a:b:c/>`},
	{"two colons in attribute", `<a b:c:d="1"/>`},
	{"end prefix mismatch", `<p:a xmlns:p="u" xmlns:q="u"></q:a>`},
	{"end mismatch", `<a><b></a>`},
	{"end mismatch deeper", `<a><b><c></a></b>`},
	{"end mismatch with namespace", `<a><b xmlns="x"></a>`},
	{"end mismatch keeps namespace", `<a><b xmlns:p="u"></a><p:c/>`},
	{"end without start", `</a>`},
	{"end after root", `<a></a></b>`},
	{"end with space", "<a></a \n>"},
	{"end with garbage", `<a></a b>`},
	{"end without name", `<a></ >`},
	{"unclosed", `<a><b>`},
	{"unclosed with text", `<a>text`},
	{"two roots and text", `x<a/>y<b/>z`},
	{"cdata", `<a><![CDATA[<b>&amp;]]></a>`},
	{"cdata empty", `<a><![CDATA[]]></a>`},
	{"cdata with brackets", `<a><![CDATA[]]]]><![CDATA[>]]></a>`},
	{"cdata between text", `<a>x<![CDATA[y]]>z</a>`},
	{"cdata crlf", "<a><![CDATA[x\r\ny\rz]]></a>"},
	{"cdata unterminated", `<a><![CDATA[x`},
	{"cdata bad", `<a><![CDATX[x]]></a>`},
	{"text ]]>", `<a>x]]>y</a>`},
	{"text ]]]>", `<a>x]]]>y</a>`},
	{"text ]] >", `<a>x]] >y</a>`},
	{"text ]]&gt;", `<a>x]]&gt;y</a>`},
	{"predefined entities", `<a>&lt;&gt;&amp;&apos;&quot;</a>`},
	{"char refs", `<a>&#65;&#x42;&#x63;&#0000067;&#x1F600;</a>`},
	{"char ref uppercase X", `<a>&#X41;</a>`},
	{"char ref empty", `<a>&#;</a>`},
	{"char ref zero", `<a>&#0;</a>`},
	{"char ref surrogate", `<a>&#xD800;</a>`},
	{"char ref FFFE", `<a>&#xFFFE;</a>`},
	{"char ref too big", `<a>&#x110000;</a>`},
	{"char ref huge", `<a>&#99999999999999999999999;</a>`},
	{"char ref no semicolon", `<a>&#65 x</a>`},
	{"char ref at end", `<a>&#65</a>`},
	{"html entity", `<a>&nbsp;&eacute;&hellip;</a>`},
	{"unknown entity", `<a>&foo;</a>`},
	{"unknown entity no semicolon", `<a>&foo bar</a>`},
	{"bare ampersand", `<a>fish & chips</a>`},
	{"ampersand at end of text", `<a>x&</a>`},
	{"ampersand semicolon", `<a>&;</a>`},
	{"double ampersand", `<a>&&amp;</a>`},
	{"entity with invalid utf8", "<a>&\xff;</a>"},
	{"entity bad name", `<a>&1x;</a>`},
	{"entity declared in doctype", `<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>`},
	{"ampersand at eof", `<a>x&`},
	{"entity at eof", `<a>x&amp`},
	{"text at eof after entity", `<a></a>&amp;`},
	{"comment", `<a><!-- c --></a>`},
	{"comment empty", `<a><!----></a>`},
	{"comment dashes", `<a><!-- a - b --></a>`},
	{"comment double dash", `<a><!-- a -- b --></a>`},
	{"comment triple dash end", `<a><!-- a ---></a>`},
	{"comment -->", `<a><!-->--></a>`},
	{"comment unterminated", `<a><!-- x`},
	{"comment bad open", `<a><!-x--></a>`},
	{"comment invalid utf8", "<a><!-- \xff --></a>"},
	{"pi", `<?xml version="1.0" encoding="UTF-8"?><a><?pi data?></a>`},
	{"pi version 1.1", `<?xml version="1.1"?><a/>`},
	{"pi version single quotes", `<?xml version='2.0'?><a/>`},
	{"pi version unquoted", `<?xml version=2.0?><a/>`},
	{"pi version substring", `<?xml myversion="2.0"?><a/>`},
	{"pi other target version", `<?php version="2.0"?><a/>`},
	{"pi encoding latin1", `<?xml version="1.0" encoding="ISO-8859-1"?><a>x</a>`},
	{"pi empty", `<?x?><a/>`},
	{"pi no target", `<? x?><a/>`},
	{"pi bad target", `<?1x?><a/>`},
	{"pi unterminated", `<?xml version="1.0"`},
	{"pi with >", `<?x a>b?><a/>`},
	{"doctype", `<!DOCTYPE urlset><a/>`},
	{"doctype internal subset", `<!DOCTYPE a [ <!ELEMENT a (#PCDATA)> <!ATTLIST a x CDATA "y>"> ]><a/>`},
	{"doctype with comment", `<!DOCTYPE a [ <!-- > ' " --> ]><a/>`},
	{"doctype quoted brackets", `<!DOCTYPE a SYSTEM "a>b" '<'><a/>`},
	{"doctype nested", `<!DOCTYPE a [<!ENTITY % p "<!ENTITY x 'y'>">]><a/>`},
	{"doctype unterminated", `<!DOCTYPE a [`},
	{"directive empty", `<!>x><a/>`},
	{"directive <!- in subset", `<!DOCTYPE a [<!-x>]><a/>`},
	{"crlf in text", "<a>x\r\ny\rz\n\r\n</a>"},
	{"crlf between elements", "<a>\r\n<b/>\r\n</a>\r\n"},
	{"tab and newline in tags", "<a\r\n\tx\n=\t'1'\r\n/>"},
	{"invalid utf8 text", "<a>\xff</a>"},
	{"invalid utf8 attribute", "<a x=\"\xff\"/>"},
	{"invalid utf8 name", "<a\xff/>"},
	{"utf8 name", "<été ça='1'>x</été>"},
	{"utf8 invalid name char", "<a\u00d7/>"},
	{"utf8 text", "<a>Grüße, 世界 😀</a>"},
	{"control char", "<a>\x01</a>"},
	{"control char in attribute", "<a x=\"\x01\"/>"},
	{"nul in text", "<a>\x00</a>"},
	{"bom", "\ufeff<a/>"},
	{"lt in text", "<a>1 < 2</a>"},
	{"lt at eof", "<a>1<"},
	{"lone lt", "<"},
	{"gt in text", "<a>1 > 2</a>"},
	{"bad name start", "<1a/>"},
	{"bad name dash", "<-a/>"},
	{"space before name", "< a/>"},
	{"slash without gt", "<a/ >"},
	{"tag unterminated", "<a x='1'"},
	{"tag unterminated name", "<abc"},
	{"attribute unterminated", "<a x='1"},
	{"attribute without equals strict", "<a x/>"},
	{"bad attribute name", "<a 1x='1'/>"},
	{"autoclose br", "<p>a<br>b</p>"},
	{"autoclose br closed", "<p>a<br></br>b</p>"},
	{"autoclose BR mixed case", "<p>a<BR></br>b</p>"},
	{"autoclose br self-closed", "<p>a<br/>b</p>"},
	{"autoclose img with attributes", `<p><img src="x.png" alt=y>t</p>`},
	{"autoclose at end", "<p><br></p>"},
	{"autoclose at eof", "<br>"},
	{"autoclose before comment at eof", "<br><!-- c -->"},
	{"autoclose with namespace", `<p><br xmlns="urn:x">t</p>`},
	{"autoclose prefixed", `<p xmlns:h="urn:h"><h:link>t</p>`},
	{"autoclose kelvin", "<p><lin\u212a>t</p>"},
	{"autoclose nested", "<p><br><hr></p>"},
	{"html", `<html><head><meta charset=utf-8><link rel=stylesheet href="a.css"></head><body><p>x&nbsp;y<br>z</body></html>`},
	{"urlset", `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/a?x=1&amp;y=2</loc>
    <lastmod>2024-01-02</lastmod>
    <changefreq>daily</changefreq>
    <priority>0.8</priority>
    <image:image><image:loc>https://example.com/a.png</image:loc></image:image>
  </url>
</urlset>
`},
	{"attribute value reference cut by quote", `<a x="&amp"/>`},
}

// tokenStream reads tk to its end and renders what the parse stage sees:
// start and end elements with their namespaces, and the character data
// between them concatenated. It stops at the first error, or after a
// million tokens.
func tokenStream(tk tokenizer) ([]string, error) {
	var out []string
	var text []byte
	textForbidden := false
	flush := func() {
		if len(text) > 0 {
			mark := ""
			if textForbidden {
				mark = "!"
			}
			out = append(out, "T"+mark+strconv.Quote(string(text)))
			text = text[:0]
		}
		textForbidden = false
	}
	for range 1_000_000 {
		tok, err := tk.Next()
		if err != nil {
			flush()
			return out, err
		}
		switch tok.Kind {
		case Text:
			text = append(text, tok.Text...)
			textForbidden = textForbidden || tok.Forbidden
		case Start:
			flush()
			var b strings.Builder
			b.WriteString("S")
			if tok.Forbidden {
				b.WriteString("!")
			}
			fmt.Fprintf(&b, "{%s}%s", tok.Name.Space, tok.Name.Local)
			for _, a := range tok.Attrs {
				fmt.Fprintf(&b, " {%s}%s=%q", a.Name.Space, a.Name.Local, a.Value)
			}
			out = append(out, b.String())
		case End:
			flush()
			out = append(out, fmt.Sprintf("E{%s}%s", tok.Name.Space, tok.Name.Local))
		default:
			return out, fmt.Errorf("token of kind %d", tok.Kind)
		}
	}
	return out, errors.New("too many tokens")
}

// errText renders an error for comparison: io.EOF is a clean end.
func errText(err error) string {
	var se *xml.SyntaxError
	switch {
	case err == io.EOF:
		return "EOF"
	case errors.As(err, &se):
		return fmt.Sprintf("syntax error on line %d: %s", se.Line, se.Msg)
	}
	return err.Error()
}

// scanReaders are the ways a case is fed to the scanner.
var scanReaders = []struct {
	name  string
	wrap  func(string) io.Reader
	size  int  // the scanner's first buffer size
	dirty bool // the buffer is full of what another document left in it
}{
	{"whole", func(s string) io.Reader { return strings.NewReader(s) }, scanBufSize, false},
	{"OneByteReader", func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }, scanBufSize, false},
	{"HalfReader", func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) }, scanBufSize, false},
	{"tiny buffer", func(s string) io.Reader { return strings.NewReader(s) }, 16, false},
	{"tiny buffer OneByteReader", func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }, 16, false},
	{"tiny buffer HalfReader", func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) }, 16, false},
	{"DataErrReader", func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) }, 17, false},
	// A buffer that an earlier scanner gave back (see release) holds the
	// bytes of its document: none of them may be read as this one's.
	{"reused buffer", func(s string) io.Reader { return strings.NewReader(s) }, scanBufSize, true},
	{"reused buffer OneByteReader", func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }, scanBufSize, true},
	// A buffer with no bytes past its length: near its end the quick path
	// is not taken (see quick.go), and the general path reads the tokens.
	{"no slack", func(s string) io.Reader { return strings.NewReader(s) }, scanBufSize, false},
	{"no slack HalfReader", func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) }, 16, false},
}

// scanDeparts reports whether the scanner's stream departs from encoding/xml
// by design: a character reference to a code point XML forbids, which
// tolerant mode marks (tokenStream's "!") where encoding/xml fails or reads
// it as U+FFFD or as text, and which strict mode rejects as a surrogate too,
// where encoding/xml reads U+FFFD.
func scanDeparts(got []string, err error, strict bool) bool {
	if strict {
		msg := errMsg(err)
		const prefix = "illegal character code U+D"
		return len(msg) == len(prefix)+3 && strings.HasPrefix(msg, prefix) && msg[len(prefix)] >= '8'
	}
	for _, s := range got {
		if strings.HasPrefix(s, "S!") || strings.HasPrefix(s, "T!") {
			return true
		}
	}
	return false
}

// checkSame compares the scanner, fed every way of scanReaders, with encoding/xml
// on doc: the token streams and the errors must be the same, but for the
// line number of an error. Where the scanner departs by design (see
// scanDeparts), it is compared with itself read whole.
func checkSame(t *testing.T, doc string, strict bool) {
	t.Helper()
	want, wantErr := tokenStream(newStdTokenizer(strings.NewReader(doc), strict))
	if got, gotErr := tokenStream(newScanner(strings.NewReader(doc), strict)); scanDeparts(got, gotErr, strict) {
		want, wantErr = got, gotErr
	}
	for _, rd := range scanReaders {
		tk := newScannerSize(rd.wrap(doc), strict, rd.size)
		if strings.HasPrefix(rd.name, "no slack") {
			tk.buf = tk.buf[:len(tk.buf):len(tk.buf)]
		}
		if rd.dirty {
			const junk = "<a>&amp;]]>\r\n<!--"
			for i := range tk.buf[:cap(tk.buf)] {
				tk.buf[:cap(tk.buf)][i] = junk[i%len(junk)]
			}
		}
		got, gotErr := tokenStream(tk)
		if (gotErr == io.EOF) != (wantErr == io.EOF) {
			t.Fatalf("%s: got error %v, want %v\ngot  %q\nwant %q", rd.name, errText(gotErr), errText(wantErr), got, want)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: streams differ\ngot  %q\nwant %q\n(errors %v, %v)", rd.name, got, want, errText(gotErr), errText(wantErr))
		}
		if g, w := errMsg(gotErr), errMsg(wantErr); g != w {
			t.Fatalf("%s: got error %q, want %q", rd.name, g, w)
		}
	}
}

// errMsg is the error without its line number.
func errMsg(err error) string {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return se.Msg
	}
	return errText(err)
}

func TestScanTokenizer(t *testing.T) {
	for _, c := range scanCases {
		for _, strict := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/strict=%v", c.name, strict), func(t *testing.T) {
				checkSame(t, c.doc, strict)
			})
		}
	}
}

func TestScanTokenizerLongText(t *testing.T) {
	// Character data far longer than the buffer, with references, line
	// ends, multi-byte characters and "]]" falling on every chunk boundary.
	for _, strict := range []bool{true, false} {
		unit := "abc&amp;&#x1F600;\r\n]]é&lt;"
		if !strict {
			unit += "&nbsp;&foo;&"
		}
		for _, n := range []int{1, 2, 3, 5} {
			body := strings.Repeat(strings.Repeat("x", n)+unit, 3000)
			doc := "<a>" + body + "</a><b><![CDATA[" + strings.ReplaceAll(body, "]]", "]") + "]]></b>"
			checkSame(t, doc, strict)
		}
	}
}

func TestScanTokenizerLongTag(t *testing.T) {
	// A tag, a comment, a processing instruction and a directive longer than
	// the buffer.
	long := strings.Repeat("y", 3*scanBufSize)
	doc := `<a x="` + long + `" y='&lt;` + long + `'><!--` + long + `--><?pi ` + long + `?><b/></a>`
	checkSame(t, `<!DOCTYPE a [<!ENTITY x "`+long+`">]>`+doc, true)
	checkSame(t, doc, false)
}

// chunkReader reads at most n bytes at a time.
type chunkReader struct {
	r io.Reader
	n int
}

func (r chunkReader) Read(p []byte) (int, error) { return r.r.Read(p[:min(len(p), r.n)]) }

func TestScanTokenizerHugeTagSmallReads(t *testing.T) {
	// An 8 MB attribute value arriving 64 bytes at a time is scanned a
	// logarithmic number of times, not once per read, which would take
	// hundreds of gigabytes of scanning.
	doc := `<a x="` + strings.Repeat("v", 8<<20) + `"/>`
	done := make(chan error, 1)
	go func() {
		tk := newScanner(chunkReader{strings.NewReader(doc), 64}, true)
		tok, err := tk.Next()
		if err == nil && (tok.Kind != Start || len(tok.Attrs) != 1 || len(tok.Attrs[0].Value) != 8<<20) {
			err = fmt.Errorf("got %+v", tok.Name)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("timed out")
	}
}

func TestScanTokenizerDeep(t *testing.T) {
	for _, n := range []int{MaxNesting, MaxNesting + 1} {
		doc := strings.Repeat("<a>", n) + strings.Repeat("</a>", n)
		for _, strict := range []bool{true, false} {
			tk := newScanner(strings.NewReader(doc), strict)
			_, err := tokenStream(tk)
			if n > MaxNesting && !errors.Is(err, ErrTooDeep) || n <= MaxNesting && err != io.EOF {
				t.Errorf("depth %d, strict %v: got %v", n, strict, err)
			}
			checkSame(t, doc, strict)
		}
	}
}

func TestScanTokenizerMillionNested(t *testing.T) {
	// A million nested elements end at maxNesting, without a million of
	// anything held.
	doc := strings.Repeat("<a>", 1_000_000)
	done := make(chan error, 1)
	go func() {
		_, err := tokenStream(newScanner(strings.NewReader(doc), true))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrTooDeep) {
			t.Fatalf("got %v, want errTooDeep", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("timed out")
	}
}

// endlessLoc is a <loc> whose text never ends, n bytes in all.
type endlessLoc struct{ n int }

func (r *endlessLoc) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	p = p[:min(len(p), r.n)]
	for i := range p {
		p[i] = 'a'
	}
	if r.n == 1<<30 {
		copy(p, "<loc>")
	}
	r.n -= len(p)
	return len(p), nil
}

func TestScanTokenizerEndlessText(t *testing.T) {
	// 100 MB of character data passes through the buffer it started with.
	tk := newScannerSize(&endlessLoc{1 << 30}, true, scanBufSize)
	tk.r = io.LimitReader(tk.r, 100<<20)
	var n int
	var err error
	for {
		var tok *Token
		if tok, err = tk.Next(); err != nil {
			break
		}
		n += len(tok.Text)
	}
	var se *xml.SyntaxError
	if !errors.As(err, &se) || se.Msg != "unexpected EOF" {
		t.Fatalf("got %v, want unexpected EOF", err)
	}
	if n != 100<<20-len("<loc>") {
		t.Errorf("got %d bytes of text, want %d", n, 100<<20-len("<loc>"))
	}
	if len(tk.buf) != scanBufSize {
		t.Errorf("the buffer grew to %d bytes", len(tk.buf))
	}
}

func TestScanTokenizerAllocs(t *testing.T) {
	// What a document costs does not grow with its tokens: 5 URLs and 500
	// cost the same few allocations, made when the tokenizer starts.
	allocs := func(doc []byte, strict bool) float64 {
		rd := bytes.NewReader(doc)
		return testing.AllocsPerRun(5, func() {
			rd.Reset(doc)
			tk := newScanner(rd, strict)
			for {
				if _, err := tk.Next(); err != nil {
					if err != io.EOF {
						t.Fatal(err)
					}
					return
				}
			}
		})
	}
	for _, strict := range []bool{true, false} {
		for _, gen := range []func(int) []byte{genURLSet, genImageSitemap} {
			small, large := allocs(gen(5), strict), allocs(gen(500), strict)
			if large != small || small > 16 {
				t.Errorf("strict %v: %v allocations for 5 URLs, %v for 500", strict, small, large)
			}
		}
	}
}

func TestPlainPrefix(t *testing.T) {
	for c := 0; c < 256; c++ {
		for _, at := range []int{0, 3, 7, 8, 9, 15, 16, 20} {
			b := []byte(strings.Repeat("abcdefgh", 3))
			b[at] = byte(c)
			want := len(b)
			if !plainByte[c] {
				want = at
			}
			if got := plainPrefix(b); got != want {
				t.Fatalf("byte %#x at %d: got %d, want %d", c, at, got, want)
			}
		}
	}
	if got := plainPrefix([]byte("\n\t\n\tabcdefghijklmnop\nqrstuvw&")); got != 28 {
		t.Errorf("got %d, want 28", got)
	}
}

func TestASCIILetters(t *testing.T) {
	// Every byte value in every position of a word, among neighbours that
	// are letters and neighbours that are not: a carry from one byte to
	// the next would show as a wrong bit beside it.
	for _, fill := range []byte{'a', 'Z', 0x00, 0x7f, 0xff, '@', '[', '`', '{'} {
		for c := 0; c < 256; c++ {
			for at := range 8 {
				var b [8]byte
				for i := range b {
					b[i] = fill
				}
				b[at] = byte(c)
				var want uint64
				for i, x := range b {
					if 'a' <= x && x <= 'z' || 'A' <= x && x <= 'Z' {
						want |= 0x80 << (8 * i)
					}
				}
				if got := asciiLetters(binary.LittleEndian.Uint64(b[:])); got != want {
					t.Fatalf("% x: got %#x, want %#x", b, got, want)
				}
			}
		}
	}
}

func TestHTMLEntityNotLonger(t *testing.T) {
	// decode unescapes in place: no replacement may be longer than its
	// reference.
	for name, s := range xml.HTMLEntity {
		if len(s) > len(name)+2 {
			t.Errorf("&%s; is replaced by %q, which is longer", name, s)
		}
	}
}

func TestScanTokenizerManyBindings(t *testing.T) {
	// Past nsLinear bindings a prefix is found through t.ns: shadowed,
	// rebound and unbound again, it translates as encoding/xml has it.
	var b strings.Builder
	b.WriteString(`<r xmlns="d0" xmlns:a="a0">`)
	for i := range 20 {
		fmt.Fprintf(&b, `<e%d xmlns:p%d="u%d" xmlns:a="a%d"><a:x p%d:y="1"/>`, i, i, i, i+1, i)
		if i%3 == 0 {
			fmt.Fprintf(&b, `<f xmlns="d%d" xmlns:p0="v%d"><g p0:z="2"/></f>`, i+1, i)
		}
	}
	for i := 19; i >= 0; i-- {
		fmt.Fprintf(&b, `<a:w p0:z="3"/></e%d>`, i)
	}
	b.WriteString(`<a:v/><p0:u/></r>`)
	for _, strict := range []bool{true, false} {
		checkSame(t, b.String(), strict)
	}
}

// hasLongRef reports whether doc holds a reference longer than
// maxRefLength: the scanner reads it as what is no reference, by design,
// where encoding/xml, which buffers without bound, reads it whole.
func hasLongRef(doc []byte) bool {
	for i := 0; i < len(doc); i++ {
		if doc[i] != '&' {
			continue
		}
		j := i + 1
		for j < len(doc) && refByte[doc[j]] {
			j++
		}
		if j-i > maxRefLength {
			return true
		}
		i = j - 1
	}
	return false
}
