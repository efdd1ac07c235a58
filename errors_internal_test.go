package sitemap

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestRedact: a password is redacted wherever a message names a URL, in
// the form net/url's URL.Redacted gives it, whether the URL parses or not
// (issue 13, item 12).
func TestRedact(t *testing.T) {
	tests := []struct{ name, msg, want string }{
		{"no URL", `strict mode: URL contains a space`, `strict mode: URL contains a space`},
		{"no user information", `fetch "https://example.com/s.xml": x`, `fetch "https://example.com/s.xml": x`},
		{"user without password", `fetch "https://user@example.com/s.xml": x`, `fetch "https://user@example.com/s.xml": x`},
		{"password", `fetch "https://user:pw@example.com/s.xml": x`, `fetch "https://user:xxxxx@example.com/s.xml": x`},
		{"empty password", `fetch "https://user:@example.com/": x`, `fetch "https://user:xxxxx@example.com/": x`},
		{"no path", `fetch "https://user:pw@example.com": x`, `fetch "https://user:xxxxx@example.com": x`},
		{"@ in the password", `parse "https://user:p@w@example.com?q": x`, `parse "https://user:xxxxx@example.com?q": x`},
		{"quoted quote in the password", `validate "https://user:p\"w@example.com/": net/url: invalid userinfo`, `validate "https://user:xxxxx@example.com/": net/url: invalid userinfo`},
		{"cause quoting another spelling", `validate "//u:pw@h:x/": parse "https://u:pw@h:x/": invalid port ":x" after host`, `validate "//u:xxxxx@h:x/": parse "https://u:xxxxx@h:x/": invalid port ":x" after host`},
		{"does not parse", `validate "https://u:pw@exa mple.com/%zz": x`, `validate "https://u:xxxxx@exa mple.com/%zz": x`},
		{"@ after the authority is none", `fetch "https://example.com/a:b@c": x`, `fetch "https://example.com/a:b@c": x`},
		{"already redacted", `fetch "https://user:xxxxx@example.com/": x`, `fetch "https://user:xxxxx@example.com/": x`},
		{"net/http's form", `Get "https://user:***@example.com/": x`, `Get "https://user:xxxxx@example.com/": x`},
		{"unquoted, at the end", `https://u:pw@h`, `https://u:xxxxx@h`},
		{"//", `a // b`, `a // b`},
		{"// in the path is the path's", `fetch "https://u:pw@h//a:b@c/": x`, `fetch "https://u:xxxxx@h//a:b@c/": x`},
		{"// in the query is the query's", `fetch "https://h/?to=//a:b@c": x`, `fetch "https://h/?to=//a:b@c": x`},
		{"a space in a quoted URL is the URL's", `fetch "https://u:p@h/a b//x:y@z": c`, `fetch "https://u:xxxxx@h/a b//x:y@z": c`},
		{"two URLs", `a https://u:p@h/x//y b "https://v:q@k"`, `a https://u:xxxxx@h/x//y b "https://v:xxxxx@k"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := redact(tt.msg); got != tt.want {
				t.Errorf("redact(%s)\n = %s\nwant %s", tt.msg, got, tt.want)
			}
		})
	}
	// As net/url's URL.Redacted, for a URL that net/url writes as it is.
	for _, raw := range []string{"https://user:pw@example.com/s.xml?q=1", "http://a:b@[::1]:8080/"} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := redact(raw); got != u.Redacted() {
			t.Errorf("redact(%q) = %q, URL.Redacted = %q", raw, got, u.Redacted())
		}
	}
}

// FuzzRedact: a URL that net/url parses with a password comes back from
// redact, quoted in a message as the errors quote URLs, with the password
// xxxxx and its user name, host, path and query as they were; a URL with
// no space, quote or control character does alone too, and the message
// names it as redact names it alone (issue 13, item 12).
func FuzzRedact(f *testing.F) {
	f.Add("user", "pw", "example.com", "/s.xml?q")
	f.Add("u", `p"w`, "h", "")
	f.Add("", "p@w", "[::1]:80", "#f")
	f.Fuzz(func(t *testing.T, user, pass, host, rest string) {
		raw := "https://" + user + ":" + pass + "@" + host + rest
		// In a message, a space or a quote ends a URL that is not quoted,
		// and a control character any URL: a URL with none of them reads
		// the same alone and quoted.
		bare := plainPrintable(raw) && !strings.Contains(raw, " ")
		msg := fmt.Sprintf("fetch %q: cause", raw)
		if bare {
			if want := fmt.Sprintf("fetch %q: cause", redact(raw)); redact(msg) != want {
				t.Errorf("redact of the message %s, want %s", redact(msg), want)
			}
		}
		u, err := url.Parse(raw)
		if err != nil || u.User == nil {
			return
		}
		if _, ok := u.User.Password(); !ok {
			return
		}
		check := func(got string) {
			t.Helper()
			r, err := url.Parse(got)
			if err != nil {
				t.Fatalf("redact of %q gives %q, which does not parse: %v", raw, got, err)
			}
			if p, _ := r.User.Password(); p != redactedPassword || r.User.Username() != u.User.Username() || r.Host != u.Host || r.Path != u.Path || r.RawQuery != u.RawQuery {
				t.Errorf("redact of %q gives %q", raw, got)
			}
		}
		if bare {
			check(redact(raw))
		}
		// Quoted, as the errors quote URLs, any URL reads whole.
		got, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(redact(msg), "fetch "), ": cause"))
		if err != nil {
			t.Fatalf("redact(%s) = %s, whose URL does not unquote: %v", msg, redact(msg), err)
		}
		check(got)
	})
}

// plainPrintable tells whether s is printable ASCII without a quote or a
// backslash, which %q leaves as it is.
func plainPrintable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
