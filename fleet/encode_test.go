package fleet

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/gositemap/sitemap/internal/jsonline"
)

// The JSON lines write DEL, the C1 controls and the bidirectional
// controls as \u escapes, as the sitemap command does, after text of
// ASCII and before any: the rest of the line is as encoding/json writes
// it, & and non-ASCII letters kept.
func TestEscapeControls(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"loc":"https://a.example/?a=1&b=2"}`, `{"loc":"https://a.example/?a=1&b=2"}`},
		{"{\"loc\":\"https://a.example/\u202egpj.exe\"}", `{"loc":"https://a.example/\u202egpj.exe"}`},
		{"\x7f\u0085é\u2066x", `\u007f\u0085é\u2066x`},
		{"", ""},
	} {
		var b bytes.Buffer
		b.WriteString(">")
		escapeControls(&b, []byte(tc.in))
		if got := b.String(); got != ">"+tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, ">"+tc.want)
		}
	}
}

// The JSON line written by hand is byte for byte encoding/json's, for
// every string (controls, quotes, invalid UTF-8, U+2028, HTML's
// characters, DEL), priority and null; a URL with an extension goes to
// encoding/json. A field jsonline.URL gains fails the test until
// fastline.go writes it.
func TestFastLine(t *testing.T) {
	known := "Loc LastMod ChangeFreq Priority Images News Videos Hreflangs Sitemap Change"
	var fields []string
	for f := range reflect.TypeFor[jsonline.URL]().Fields() {
		fields = append(fields, f.Name)
	}
	if got := strings.Join(fields, " "); got != known {
		t.Fatalf("jsonline.URL has the fields %s; fastline.go writes %s", got, known)
	}
	strs := []string{"", "https://a.example/x?a=1&b=2<>", "\"\\/\b\f\n\r\t\x00\x01\x1f\x7f", "é\u2028\u2029\u202e\u0085", "\xff\xfe a \xc3", "日本語", "\u00a0\ufeff"}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		b := make([]byte, rnd.IntN(12))
		for i := range b {
			b[i] = byte(rnd.IntN(256))
		}
		strs = append(strs, string(b))
	}
	prios := []float32{0, 0.1, 0.5, 1, 0.3333333, 1e-7, 1e-6, 9.9e-7, 123456789, 5e20, 1e21, 3e-45, -0.25, float32(math.Inf(1)), float32(math.NaN())}
	for i, s := range strs {
		s2 := strs[(i*7+3)%len(strs)]
		p := prios[i%len(prios)]
		cases := []jsonline.URL{
			{Loc: s, Sitemap: s2},
			{Loc: s2, LastMod: &s, ChangeFreq: &s2, Priority: &p, Sitemap: s, Change: s2},
			{Loc: s, Images: []jsonline.Image{{Loc: s2}}, Sitemap: s2},
		}
		for _, j := range cases {
			var fast, slow bytes.Buffer
			errFast := appendURLLine(&fast, &j)
			errSlow := appendJSON(&slow, j)
			if fast.String() != slow.String() || (errFast == nil) != (errSlow == nil) {
				t.Fatalf("%+v:\nby hand  %q (%v)\njson     %q (%v)", j, fast.String(), errFast, slow.String(), errSlow)
			}
		}
	}
}
