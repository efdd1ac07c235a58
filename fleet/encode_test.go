package fleet

import (
	"bytes"
	"testing"
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
