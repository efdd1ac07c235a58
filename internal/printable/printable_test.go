package printable

import (
	"strconv"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"https://example.com/a?b=c&d", "https://example.com/a?b=c&d"},
		{"404 Not Found", "404 Not Found"},
		{"café ☕ 日本 \\ \"", "café ☕ 日本 \\ \""},
		{"\ufffd", "\ufffd"}, // the replacement character, written as such
		{"400 \x1b]0;title\a\x1b[2J\x1b[31mred", `400 \x1b]0;title\a\x1b[2J\x1b[31mred`},
		{"a\tb\nc\rd\be\ff\vg\x00h\x7f", `a\tb\nc\rd\be\ff\vg\x00h\x7f`},
		{"\u009b31m", `\u009b31m`},               // C1 CSI
		{"abc\u202egpj.exe", `abc\u202egpj.exe`}, // right-to-left override
		{"\u2066x\u2069\u200e\u061c", `\u2066x\u2069\u200e\u061c`},
		{"line\u2028sep", `line\u2028sep`},
		{"bad \xff\xc3 utf8", `bad \xff\xc3 utf8`},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestEscapeControlsNothing checks that what Escape writes holds no
// character it would escape: escaping twice changes nothing.
func TestEscapeControlsNothing(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		s := "a" + string(r) + "\xfe"
		once := Escape(s)
		for _, c := range once {
			if IsControl(c) {
				t.Fatalf("Escape(%q) = %q holds %U", s, once, c)
			}
		}
		if Escape(once) != once {
			t.Fatalf("Escape(%q) = %q is escaped again", s, once)
		}
		if IsControl(r) && once == s {
			t.Fatalf("Escape(%q) left %U", s, r)
		}
		if !IsControl(r) && r != 0xfffd && once != "a"+string(r)+`\xfe` {
			t.Fatalf("Escape(%q) = %q, want only \\xfe escaped", s, once)
		}
	}
	plain := "https://example.com/plain/" + strconv.Itoa(1)
	if n := testing.AllocsPerRun(10, func() { Escape(plain) }); n != 0 {
		t.Errorf("Escape of plain text allocates %v times", n)
	}
}
