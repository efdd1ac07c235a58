package xmlscan

import (
	"fmt"
	"strings"
	"testing"
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
