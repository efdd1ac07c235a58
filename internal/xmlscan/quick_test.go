package xmlscan

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// quickCases are documents whose tokens the quick path reads (see
// quick.go), each at an edge of it: a name read again after the bindings
// changed, prefixes bound twice, names at and past maxInternLen, the table
// full, and end tags it must leave to the general path.
func quickCases() []string {
	var many strings.Builder
	many.WriteString("<r>")
	for round := range 2 {
		for i := range maxInterned + 20 {
			fmt.Fprintf(&many, "<n%d>%d</n%d>\n", i, round, i)
		}
	}
	many.WriteString("</r>")
	long := func(n int) string { return strings.Repeat("x", n) }
	return []string{
		// One slot, translated in four epochs.
		`<a xmlns="u1"><b></b><c xmlns="u2"><b>t</b></c><b></b><d xmlns="u3"></d><b></b></a>`,
		`<r xmlns:p="u1"><p:x></p:x><q xmlns:p="u2"><p:x>t</p:x></q><p:x></p:x><p:y></p:y></r>`,
		// Unbound prefixes, the xml prefix, colons that do not split.
		`<r><p:x></p:x><xml:x></xml:x><a:></a:><p:x>` + "\n " + `</p:x></r>`,
		// Names that start with another name, which guess must not take
		// for it.
		`<r><abcdefghi></abcdefghi><abcdefgh></abcdefgh><abcdefghi></abcdefghi><abcdefgh>></abcdefgh><ab></ab><abc></abc><ab></ab><a>b</a><abcdefghij></abcdefghij></r>`,
		// Names of 7 to 9 bytes and at the length bound.
		`<r><abcdefg></abcdefg><abcdefgh></abcdefgh><abcdefghi></abcdefghi></r>`,
		"<r><" + long(31) + "></" + long(31) + "><" + long(32) + "></" + long(32) + "><" + long(33) + "></" + long(33) + "></r>",
		"<r><p:" + long(30) + "></p:" + long(30) + "><" + long(15) + ":" + long(16) + "></" + long(15) + ":" + long(16) + "></r>",
		// Digits, '-', '_', '.' and a non-ASCII byte in names.
		`<r><a1-b_c.d></a1-b_c.d><é></é><aé></aé><a_></a_></r>`,
		// End tags the quick path leaves: space, another name, a prefix
		// that differs, a name that only starts the same.
		`<r><a></a ><b></bb></b><p:c></q:c></p:c><dd></d></dd></r>`,
		`<r><a><b></a></r>`,
		`<r><a></a></r></r>`,
		// Texts: indentation, tabs, \r, plain text before and after
		// references, and the skipped space of SkipSpace.
		"<r>\n    <a>x</a>\n\t<a>\r\n</a>  \n  <a>a &amp; b</a>        <a> </a></r>",
		many.String(),
	}
}

func TestQuickPath(t *testing.T) {
	for _, doc := range quickCases() {
		for _, strict := range []bool{true, false} {
			checkSame(t, doc, strict)
		}
	}
}

func TestQuickPathTaken(t *testing.T) {
	// The names of a sitemap go into the table, and their tokens come
	// through it: the same names in the end tags, the namespace once
	// translated.
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>a</loc></url><url><loc>b</loc></url></urlset>`
	tk := newScanner(strings.NewReader(doc), true)
	defer tk.Release()
	got, err := tokenStream(tk)
	if errMsg(err) != "EOF" {
		t.Fatal(err)
	}
	if len(tk.slots) != 2 || string(tk.slots[0].b[:tk.slots[0].n]) != "url" || string(tk.slots[1].b[:tk.slots[1].n]) != "loc" {
		t.Fatalf("slots %+v", tk.slots)
	}
	if want := "S{http://www.sitemaps.org/schemas/sitemap/0.9}loc"; !strings.Contains(strings.Join(got, " "), want) {
		t.Fatalf("got %q, want %s among them", got, want)
	}
}

func TestQuickPathTableFull(t *testing.T) {
	// Past maxInterned names the table takes no more, and the elements
	// are kept in the arena.
	var b strings.Builder
	b.WriteString("<r>")
	for i := range 3 * maxInterned {
		fmt.Fprintf(&b, "<n%d></n%d>", i, i)
	}
	b.WriteString("</r>")
	tk := newScanner(strings.NewReader(b.String()), true)
	defer tk.Release()
	if _, err := tokenStream(tk); errMsg(err) != "EOF" {
		t.Fatal(err)
	}
	if len(tk.slots) != maxInterned {
		t.Fatalf("%d slots", len(tk.slots))
	}
}

// classStream reads tk to its end with classes set, and renders each start
// and end element with its class and the id of its binding, checking that
// the class is that of its local name and that one id always comes with
// the same namespace URI.
func classStream(t *testing.T, tk *Scanner, classes map[string]uint8) []string {
	t.Helper()
	tk.SetClasses(classes)
	spaces := map[uint64]string{}
	var out []string
	for {
		tok, err := tk.Next()
		if err != nil {
			return append(out, errMsg(err))
		}
		if tok.Kind == Text {
			if tok.Class != 0 || tok.NS != 0 {
				t.Fatalf("text %q with class %d, ns %d", tok.Text, tok.Class, tok.NS)
			}
			continue
		}
		if want := classes[string(tok.Name.Local)]; tok.Class != want {
			t.Fatalf("%s kind %d: class %d, want %d (so far %q)", tok.Name.Local, tok.Kind, tok.Class, want, out)
		}
		if tok.NS != 0 {
			if sp, ok := spaces[tok.NS]; ok && sp != string(tok.Name.Space) {
				t.Fatalf("ns %d is %q and %q", tok.NS, sp, tok.Name.Space)
			}
			spaces[tok.NS] = string(tok.Name.Space)
		}
		out = append(out, fmt.Sprintf("%d{%s}%s/%d/%d", tok.Kind, tok.Name.Space, tok.Name.Local, tok.Class, tok.NS))
	}
}

func TestClasses(t *testing.T) {
	classes := map[string]uint8{"url": 1, "loc": 2, "image": 3, "link": 4, "b": 5}
	docs := append(quickCases(),
		`<urlset xmlns="u" xmlns:image="i"><url><loc>x</loc><image:image><image:loc>y</image:loc></image:image><link href="h"/><url xmlns="u"><loc/></url></url></urlset>`,
		`<a xmlns:p="u"><p:b><p:b xmlns:p="u"></p:b></p:b><p:b/></a>`,
	)
	for _, doc := range docs {
		for _, strict := range []bool{true, false} {
			want := classStream(t, newScanner(strings.NewReader(doc), strict), classes)
			for _, rd := range scanReaders {
				tk := newScannerSize(rd.wrap(doc), strict, rd.size)
				if strings.HasPrefix(rd.name, "no slack") {
					tk.buf = tk.buf[:len(tk.buf):len(tk.buf)]
				}
				if got := classStream(t, tk, classes); strings.Join(got, " ") != strings.Join(want, " ") {
					t.Fatalf("%s: %q\ngot  %q\nwant %q", rd.name, doc, got, want)
				}
			}
		}
	}
	// The elements of one binding share its id; a second declaration of
	// the same URI has another.
	got := classStream(t, newScanner(strings.NewReader(docs[len(docs)-2]), true), classes)
	if got[1] != "1{u}url/1/1" || got[2] != "1{u}loc/2/1" || got[3] != "2{u}loc/2/1" || got[4] != "1{i}image/3/2" {
		t.Fatalf("got %q", got)
	}
	if !strings.Contains(strings.Join(got, " "), "1{u}url/1/3") {
		t.Fatalf("got %q, want the inner url's own binding", got)
	}
}

// generalStream reads doc token by token with a buffer of size bytes, by
// Next or, when general, by the general path alone (next), and renders
// each token whole with its class and binding, then the error that ends
// the document: the quick path must give what the general path gives,
// token for token.
func generalStream(doc []byte, strict bool, r func(io.Reader) io.Reader, size int, general bool) []string {
	tk := newScannerSize(r(bytes.NewReader(doc)), strict, size)
	tk.SetClasses(map[string]uint8{"loc": 1, "title": 2})
	var out []string
	for range 100_000 {
		var tok *Token
		var err error
		if general {
			tok, err = tk.next()
		} else {
			tok, err = tk.Next()
		}
		if err != nil {
			return append(out, errText(err))
		}
		out = append(out, fmt.Sprintf("%s/%d/%d", renderTok(tok), tok.Class, tok.NS))
	}
	return append(out, "too many tokens")
}

// quickSizes are the first buffer sizes generalStream is run with: the
// tokens then fall across the ends of the bytes read at every offset.
var quickSizes = []int{16, 17, 19, 23, 24, 31, 32, 40, 47, 64, 100, scanBufSize}

// quickReaders are the readers the quick path is checked through: the
// document whole, a byte at a time, and half of each read.
var quickReaders = []func(io.Reader) io.Reader{
	func(r io.Reader) io.Reader { return r },
	iotest.OneByteReader,
	iotest.HalfReader,
}

// checkGeneral compares the quick path with the general path on doc, read
// whole and in pieces into buffers of every size of quickSizes.
func checkGeneral(t *testing.T, doc []byte) {
	t.Helper()
	for _, strict := range []bool{true, false} {
		for _, size := range quickSizes {
			for ri, r := range quickReaders {
				want := generalStream(doc, strict, r, size, true)
				if got := generalStream(doc, strict, r, size, false); !slices.Equal(got, want) {
					t.Fatalf("%q strict %v, size %d, reader %d:\ngot  %q\nwant %q", doc, strict, size, ri, got, want)
				}
			}
		}
	}
}

// quickTextCases are texts and CDATA sections at the edges of quickRefs
// and quickCDATA, each put in a document at several offsets.
var quickTextCases = []string{
	"<![CDATA[]]>", "<![CDATA[a]]>", "<![CDATA[View 0 & more]]>", "<![CDATA[<a>&amp;</a>]]>",
	"<![CDATA[a]]]>", "<![CDATA[a]]]]>", "<![CDATA[]]]]>", "<![CDATA[a]b]]c]] >]]>", "<![CDATA[]>]]>",
	"<![CDATA[a\rb]]>", "<![CDATA[a\r\nb]]>", "<![CDATA[\r]]>", "<![CDATA[a\tb\nc]]>", "<![CDATA[é]]>",
	"<![CDATA[\x01]]>", "<![CDATA[\x7f]]>", "<![CDATA[\xff]]>", "<![CDATA[a", "<![CDATA[a]]", "<![CDATA[a]",
	"<![CDAT", "<![CDATX[a]]>", "<![cdata[a]]>", "<!-- c -->", "<![CDATA[" + strings.Repeat("0123456789", 12) + "]]>",
	"a &amp; b", "&amp;", "&lt;&gt;&quot;&apos;&amp;", "x&lt;y&gt;z", "&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;",
	"&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;", "a &amp b", "a &amp", "&am;", "&amp ;", "&ampx;", "&AMP;",
	"&#38;", "&#x26;", "&nbsp;", "&copy; x", "&unknown;", "& b", "&", "&lt", "&quot", "&apos;x&quo;",
	"a]b", "a]]b", "a]]>b", "]", "]]", "&amp;]]>", "&amp;]x", "a\rb&amp;", "&amp;\r\n", "&amp;é", "é&amp;",
	"&amp;\x01", "\t&amp;\n", "&amp;" + strings.Repeat("x", 70) + "&lt;", strings.Repeat("y", 70) + "&gt;",
}

// quickTextDocs puts each of quickTextCases in documents at offsets that
// move it across the words and the buffer sizes of quickSizes.
func quickTextDocs() [][]byte {
	var docs [][]byte
	for _, c := range quickTextCases {
		for pad := range 10 {
			p := strings.Repeat(" ", pad)
			docs = append(docs,
				[]byte("<r><loc>"+p+c+"</loc>"+p+"<title>"+c+"</title></r>"),
				[]byte("<r>"+c+"<title>"+p+c+"</title>"+c),
			)
		}
	}
	return docs
}

func TestQuickTextSameAsGeneral(t *testing.T) {
	for _, doc := range quickTextDocs() {
		checkGeneral(t, doc)
	}
}

func TestQuickTextSameAsStd(t *testing.T) {
	for _, c := range quickTextCases {
		for _, strict := range []bool{true, false} {
			doc := "<r><loc>" + c + "</loc> <title>" + c + "</title>\n  " + c + "</r>"
			if _, err := tokenStream(newStdTokenizer(strings.NewReader(doc), strict)); err == io.EOF {
				checkSame(t, doc, strict)
				continue
			}
			// A document encoding/xml rejects: the same error, and the
			// tokens before it as FuzzScanDifferential holds them (a
			// small buffer may hand out part of a text the error cuts).
			_, want := tokenStream(newStdTokenizer(strings.NewReader(doc), strict))
			_, got := tokenStream(newScanner(strings.NewReader(doc), strict))
			if errMsg(got) != errMsg(want) {
				t.Fatalf("%q strict %v: got error %q, want %q", doc, strict, errMsg(got), errMsg(want))
			}
		}
	}
}

func TestQuickTextTaken(t *testing.T) {
	// A whole CDATA section and a text with the predefined references
	// are read by the quick path, which hands them out in one token each.
	doc := "<a>x &amp; &lt;y&gt;</a><b><![CDATA[View 0 & <more>]]></b>"
	tk := newScanner(strings.NewReader(doc), true)
	defer tk.Release()
	var texts []string
	for {
		tok, err := tk.Next()
		if err != nil {
			break
		}
		if tok.Kind == Text {
			texts = append(texts, string(tok.Text))
		}
	}
	if want := []string{"x & <y>", "View 0 & <more>"}; !slices.Equal(texts, want) {
		t.Fatalf("texts %q, want %q", texts, want)
	}
	b := []byte("<![CDATA[a]]></b>" + strings.Repeat(" ", bufSlack))
	tk = newScanner(bytes.NewReader(nil), true)
	tk.buf, tk.end = b, len(b)-bufSlack
	if tok := tk.quickCDATA(b[1:]); tok == nil || string(tok.Text) != "a" || tk.pos != 13 {
		t.Fatalf("quickCDATA: %v, pos %d", tok, tk.pos)
	}
	b = []byte("a&amp;b</b>" + strings.Repeat(" ", bufSlack))
	tk.buf, tk.pos, tk.end = b, 0, len(b)-bufSlack
	if tok := tk.quickRefs(b); tok == nil || string(tok.Text) != "a&b" || tk.pos != 7 {
		t.Fatalf("quickRefs: %v, pos %d", tok, tk.pos)
	}
}

// TestCDATAText checks cdataText against its definition on every length
// and position of "]]>" and of a byte decode would change or check.
func TestCDATAText(t *testing.T) {
	ref := func(b []byte) int {
		for i, c := range b {
			switch {
			case c == ']' && i+2 < len(b) && b[i+1] == ']' && b[i+2] == '>':
				return i
			case c == ']' && i+2 >= len(b):
				return -1
			case c != '\t' && c != '\n' && (c < 0x20 || c >= 0x80):
				return -1
			}
		}
		return -1
	}
	for n := range 24 {
		for _, c := range []byte{'a', '\t', '\n', '\r', ']', '>', 0x01, 0x7F, 0xC3} {
			for at := range n {
				b := bytes.Repeat([]byte("x"), n)
				b[at] = c
				for end := -1; end+3 <= n; end++ {
					bb := slices.Clone(b)
					if end >= 0 {
						copy(bb[end:], "]]>")
					}
					for _, junk := range []string{"", "]]>]]>]]>", "\r\r\r\r\r\r\r\r", "xxxxxxxx"} {
						wide := append(slices.Clone(bb), junk...)[:n]
						if got, want := cdataText(wide, n), ref(bb); got != want {
							t.Fatalf("cdataText(%q, then %q) = %d, want %d", bb, junk, got, want)
						}
					}
				}
			}
		}
	}
}

// FuzzQuickPath holds the quick path to the general path: token for token,
// the same tokens and the same error, read whole and in pieces into small
// buffers.
func FuzzQuickPath(f *testing.F) { fuzzQuick(f, checkGeneral) }

// fuzzQuick fuzzes check, a comparison of the quick path's, over documents
// of up to 4 KiB, from the texts at the edges of the quick path and the
// realistic documents of every format: each is read many times over, in
// buffers of every size of quickSizes.
func fuzzQuick(f *testing.F, check func(*testing.T, []byte)) {
	for _, doc := range quickTextDocs()[:40] {
		f.Add(doc)
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > 4<<10 {
			return
		}
		check(t, doc)
	})
}

// checkSkip holds SkipText to Next on doc, read whole and in pieces into
// buffers of every size of quickSizes: two scanners read it side by side,
// one calling SkipText after every start element. Where it skips, the
// other must read only text and then the end of that element, with no
// error and no forbidden reference; elsewhere both give the same tokens
// and the same error. It returns how many elements were skipped.
func checkSkip(t *testing.T, doc []byte) (skipped int) {
	t.Helper()
	classes := map[string]uint8{"loc": 1, "title": 2}
	for _, strict := range []bool{true, false} {
		for _, size := range quickSizes {
			for ri, r := range quickReaders {
				a := newScannerSize(r(bytes.NewReader(doc)), strict, size)
				b := newScannerSize(r(bytes.NewReader(doc)), strict, size)
				a.SetClasses(classes)
				b.SetClasses(classes)
				fail := func(format string, args ...any) {
					t.Helper()
					t.Fatalf("%q strict %v, size %d, reader %d: "+format, append([]any{doc, strict, size, ri}, args...)...)
				}
				for range 100_000 {
					ta, ea := a.Next()
					tb, eb := b.Next()
					if ea != nil || eb != nil {
						if errText(ea) != errText(eb) {
							fail("Next ends in %q, beside SkipText in %q", errText(ea), errText(eb))
						}
						break
					}
					ga, gb := fmt.Sprintf("%s/%d/%d", renderTok(ta), ta.Class, ta.NS), fmt.Sprintf("%s/%d/%d", renderTok(tb), tb.Class, tb.NS)
					if ga != gb {
						fail("Next gives %s, beside SkipText %s", ga, gb)
					}
					if tb.Kind != Start || !b.SkipText() {
						continue
					}
					skipped++
					name := tb.Name
					for {
						ta, ea = a.Next()
						if ea != nil {
							fail("SkipText skipped <%s>, where Next ends in %q", name.Local, errText(ea))
						}
						if ta.Kind == Text && !ta.Forbidden {
							continue
						}
						if ta.Kind != End || string(ta.Name.Local) != string(name.Local) || string(ta.Name.Space) != string(name.Space) {
							fail("SkipText skipped <%s>, where Next gives %s", name.Local, renderTok(ta))
						}
						break
					}
				}
			}
		}
	}
	return skipped
}

// TestSkipText checks SkipText on elements it skips (empty, plain text,
// one plain CDATA section), on those it must leave to Next (a child, a
// reference, a character from 0x80, a '\r', text then CDATA, a self-closed
// element, a misnamed end tag) and on some it may do either with, each at
// several offsets in the buffer, and that it skips the first kind and not
// the second.
func TestSkipText(t *testing.T) {
	skip := []string{"<t></t>", "<t>plain text</t>", "<t><![CDATA[<p>x</p>]]></t>", "<t>a\tb\nc</t>",
		"<t>" + strings.Repeat("0123456789", 30) + "</t>"}
	// Either is right of these: a start tag with attributes, bindings.
	either := []string{"<n:t xmlns:n='u'>x</n:t>", "<t a='1'>x</t>", "<n:t xmlns:n='u'><n:u>x</n:u></n:t>"}
	keep := []string{"<t><c/></t>", "<t>a &amp; b</t>", "<t>é</t>", "<t>a\rb</t>", "<t>a<![CDATA[b]]></t>",
		"<t/>", "<t>x</u>", "<t>x</t >", "<t><![CDATA[a]]>x/t></t>", "<t><!-- c --></t>", "<t>x]]>y</t>", "<t>\x01</t>", "<t>x"}
	for _, c := range slices.Concat(skip, keep, either) {
		for pad := range 6 {
			doc := []byte("<r>" + strings.Repeat(" ", pad) + c + "</r>")
			checkSkip(t, doc)
		}
	}
	for _, c := range skip {
		if n := checkSkip(t, []byte("<r>"+c+"</r>")); n == 0 {
			t.Errorf("SkipText never skipped %q", c)
		}
	}
	for _, c := range keep {
		if c == "<t>x" {
			continue
		}
		doc := []byte("<r>" + c + "</r>")
		tk := New(bytes.NewReader(doc), true, nil)
		tk.Next() // <r>
		tk.Next() // <t>
		if tk.SkipText() {
			t.Errorf("SkipText skipped %q", c)
		}
	}
}

// FuzzSkipText holds SkipText to Next (see checkSkip).
func FuzzSkipText(f *testing.F) {
	fuzzQuick(f, func(t *testing.T, doc []byte) { checkSkip(t, doc) })
}
