package xmlscan

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

type notes []string

func (n *notes) Note(kind NoteKind, msg string, line, col int) {
	*n = append(*n, fmt.Sprintf("%d %d:%d %s", kind, line, col, msg))
}

// An observer is told what tolerant mode reads past, at the line and the
// column of the input, whatever the reads and the refills of the buffer;
// a scanner without one keeps no position.
func TestObserverPositions(t *testing.T) {
	pad := strings.Repeat("<a>x</a>\n", 3*scanBufSize/9) // past several refills
	doc := "<!DOCTYPE r>\n<r>\n" + pad + "  <b>fish & chips</b>\n<c>&nbsp;</c><d></e></r>"
	for _, r := range []io.Reader{strings.NewReader(doc), iotest.OneByteReader(strings.NewReader(doc))} {
		var got notes
		sc := New(r, false, nil)
		sc.SetObserver(&got)
		for {
			if _, err := sc.Next(); err != nil {
				break
			}
		}
		line := 3 + strings.Count(pad, "\n")
		want := notes{
			"2 1:1 a <!DOCTYPE …> declaration",
			fmt.Sprintf("1 %d:11 & that begins no reference (write &amp;)", line),
			fmt.Sprintf("1 %d:4 entity &nbsp; is HTML's, not XML's", line+1),
			// After the end tag; tolerant mode reads </e> as the end of
			// <d>, then of <r>, as encoding/xml does.
			fmt.Sprintf("1 %d:21 element <d> closed by </e>", line+1),
			fmt.Sprintf("1 %d:21 element <r> closed by </e>", line+1),
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%T: notes:\n%s\nwant:\n%s", r, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		sc.Release()
	}
	sc := New(strings.NewReader(doc), false, nil)
	sc.Next()
	if l, c := sc.Pos(); l != 0 || c != 0 {
		t.Errorf("without an observer Pos is %d:%d, want 0:0", l, c)
	}
}

// DroppedAttrs names, resolved, the attributes the table dropped from the
// start tag just read, declarations aside; nothing for a tag after it
// (bare or with only kept attributes), and nothing without an observer.
func TestDroppedAttrs(t *testing.T) {
	doc := `<r xmlns="urn:r" xmlns:x="urn:x" a="1" x:b="2"><k keep="1"/><s/><k keep="1" c="3"/></r>`
	table := &AttrTable{Elems: map[string][]string{"k": {"keep"}}, Keep: 10}
	read := func(observe bool) []string {
		sc := New(strings.NewReader(doc), false, table)
		if observe {
			sc.SetObserver(new(notes))
		}
		var got []string
		for {
			tok, err := sc.Next()
			if err != nil {
				break
			}
			if tok.Kind != Start {
				continue
			}
			names := []string{}
			for _, n := range sc.DroppedAttrs() {
				names = append(names, "{"+string(n.Space)+"}"+string(n.Local))
			}
			got = append(got, string(tok.Name.Local)+fmt.Sprint(names))
		}
		return got
	}
	want := "r[{}a {urn:x}b] k[] s[] k[{}c]"
	if got := strings.Join(read(true), " "); got != want {
		t.Errorf("with an observer: %s, want %s", got, want)
	}
	if got := strings.Join(read(false), " "); got != "r[] k[] s[] k[]" {
		t.Errorf("without an observer: %s", got)
	}
}
