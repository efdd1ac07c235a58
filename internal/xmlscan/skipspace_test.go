package xmlscan

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"testing"
)

// This file holds the tests of SkipSpace and of the scanner's fast paths
// for plain text and bare start tags (issue 19).

// renderTok renders one token with its namespaces, attributes and marks.
func renderTok(tok *Token) string {
	switch tok.Kind {
	case Text:
		return fmt.Sprintf("T%v%s", tok.Forbidden, strconv.Quote(string(tok.Text)))
	case End:
		return fmt.Sprintf("E{%s}%s", tok.Name.Space, tok.Name.Local)
	}
	s := fmt.Sprintf("S%v{%s}%s", tok.Forbidden, tok.Name.Space, tok.Name.Local)
	for _, a := range tok.Attrs {
		s += fmt.Sprintf(" {%s}%s=%q", a.Name.Space, a.Name.Local, a.Value)
	}
	return s
}

// isSpace reports whether b is only XML white space.
func isSpace(b []byte) bool { return skipSpace(b, 0) == len(b) }

// tokensOf reads doc through a scanner with a buffer of size bytes, token by
// token, SkipSpace set by skip before each token from the tokens read so
// far. dropSpace leaves the white-space-only texts out of what it returns.
func tokensOf(doc []byte, strict bool, size int, skip func([]string) bool, dropSpace bool) ([]string, string) {
	tk := newScannerSize(bytes.NewReader(doc), strict, size)
	var out []string
	for range 100_000 {
		tk.SkipSpace(skip(out))
		tok, err := tk.Next()
		if err != nil {
			return out, errText(err)
		}
		if dropSpace && tok.Kind == Text && isSpace(tok.Text) {
			continue
		}
		out = append(out, renderTok(tok))
	}
	return out, "too many tokens"
}

func TestSkipSpace(t *testing.T) {
	doc := []byte("<?xml version=\"1.0\"?>\n<a xmlns=\"u\">\n  <b> x </b>\r\n\t<c>  </c> <!-- c -->  <d/>\n</a>\n")
	always := func([]string) bool { return true }
	got, err := tokensOf(doc, true, scanBufSize, always, false)
	// The white space at the end of the input is handed out: it does not
	// come before a tag.
	want := []string{`Sfalse{u}a`, `Sfalse{u}b`, `Tfalse" x "`, `E{u}b`, `Sfalse{u}c`, `E{u}c`, `Sfalse{u}d`, `E{u}d`, `E{u}a`, `Tfalse"\n"`}
	if err != "EOF" || !slices.Equal(got, want) {
		t.Fatalf("SkipSpace on: %v\n%q\nwant\n%q", err, got, want)
	}
	// Off inside <c>, as a caller reading c's text sets it: c's white space
	// is handed out, and only it.
	inC := func(out []string) bool { return len(out) == 0 || out[len(out)-1] != `Sfalse{u}c` }
	got, _ = tokensOf(doc, true, scanBufSize, inC, false)
	want = slices.Insert(slices.Clone(want), 5, `Tfalse"  "`)
	if !slices.Equal(got, want) {
		t.Fatalf("SkipSpace off in <c>:\n%q\nwant\n%q", got, want)
	}
	// Off, every text is handed out, as encoding/xml gives it.
	never := func([]string) bool { return false }
	got, _ = tokensOf(doc, true, scanBufSize, never, false)
	if n := len(got); n != 17 {
		t.Fatalf("SkipSpace off: %d tokens, want 17: %q", n, got)
	}
}

// FuzzSkipSpace holds SkipSpace to leaving out white space and nothing
// else: read with it on, a document gives the tokens it gives with it off,
// less texts that are only white space (which it may still hand out where
// the white space reaches past what was read), and ends with the same
// error, in both modes, whole and through a tiny buffer.
func FuzzSkipSpace(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c.doc))
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		always := func([]string) bool { return true }
		never := func([]string) bool { return false }
		for _, strict := range []bool{true, false} {
			for _, size := range []int{scanBufSize, 16} {
				want, wantErr := tokensOf(doc, strict, size, never, true)
				got, gotErr := tokensOf(doc, strict, size, always, true)
				if gotErr != wantErr || !slices.Equal(got, want) {
					t.Fatalf("strict %v, buffer %d: with SkipSpace %s\n%q\nwithout %s\n%q", strict, size, gotErr, got, wantErr, want)
				}
			}
		}
	})
}

// TestPlainText checks plainText against its definition on every length
// and position of '<' and of a byte that needs decode.
func TestPlainText(t *testing.T) {
	ref := func(b []byte) int {
		for i, c := range b {
			if c == '<' {
				return i
			}
			if !plainByte[c] {
				return -1
			}
		}
		return -1
	}
	for n := range 20 {
		for _, c := range []byte{'a', '\t', '\n', '\r', '&', ']', '<', 0x01, 0xC3, ' '} {
			for at := range n {
				b := bytes.Repeat([]byte("x"), n)
				b[at] = c
				for _, lt := range []int{-1, 0, n / 2, n - 1} {
					bb := slices.Clone(b)
					if lt >= 0 && lt < n {
						bb[lt] = '<'
					}
					if got, want := plainText(bb), ref(bb); got != want {
						t.Fatalf("plainText(%q) = %d, want %d", bb, got, want)
					}
					// What lies past the length is never read as text.
					for _, junk := range []string{"<<<<<<<<", "&&&&&&&&", "xxxxxxxx"} {
						wide := append(slices.Clone(bb), junk...)[:n]
						if got, want := plainText(wide), ref(bb); got != want {
							t.Fatalf("plainText(%q, then %q) = %d, want %d", bb, junk, got, want)
						}
					}
				}
			}
		}
	}
}

// TestBareStart checks the names the fast path of bare start tags reads
// against those parseStart reads, and that it leaves the others to it.
func TestBareStart(t *testing.T) {
	for _, tag := range []string{"<a>", "<loc>", "<image:loc>", "<:a>", "<a:>", "<a:b:c>", "<a b='c'>", "<a/>", "<1a>", "<a.b-c_d>", "<é>", "<a", "<>", "<a >"} {
		for _, strict := range []bool{true, false} {
			doc := tag + "</x>"
			ref := newScanner(bytes.NewReader(nil), strict)
			ref.buf, ref.end = []byte(doc), len(doc)
			n, _, refErr := ref.parseStart(ref.buf)
			fast := newScanner(bytes.NewReader(nil), strict)
			fast.buf, fast.end = []byte(doc), len(doc)
			ok := fast.bareStart()
			if !ok {
				continue
			}
			if refErr != nil || fast.pos != n || len(ref.tok.Attrs) != 0 ||
				string(fast.tok.Name.Space) != string(ref.tok.Name.Space) || string(fast.tok.Name.Local) != string(ref.tok.Name.Local) {
				t.Errorf("%s: bareStart read %q:%q to %d; parseStart %q:%q to %d, %v", tag,
					fast.tok.Name.Space, fast.tok.Name.Local, fast.pos, ref.tok.Name.Space, ref.tok.Name.Local, n, refErr)
			}
		}
	}
}
