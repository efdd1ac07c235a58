package urlnorm

import (
	"errors"
	"strings"
	"testing"
)

// Origin builds the origin of a site once, in normal form; it refuses what
// is no HTTP(S) URL with a host, as the root URL of a call is refused.
func TestOrigin(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://example.com", "https://example.com"},
		{"HTTPS://Example.COM/some/page?x=1#f", "https://example.com"},
		{"http://example.com:8080/a", "http://example.com:8080"},
		{"https://bücher.example/", "https://xn--bcher-kva.example"},
		{"https://example.com/" + strings.Repeat("a", 3*MaxLength), "https://example.com"},
	} {
		if got, err := Origin(tc.in); err != nil || got != tc.want {
			t.Errorf("Origin(%.40q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "ftp://example.com", "https://", "not a url", "http://[::1"} {
		if got, err := Origin(in); err == nil {
			t.Errorf("Origin(%q) = %q, want an error", in, got)
		}
	}
	if _, err := Origin("https:///path"); !errors.Is(err, ErrNoHost) {
		t.Errorf("no host: %v", err)
	}
}

// MovedOrigin takes the origin a home page was redirected to only when it
// is the site's own: over https, or with or without www., on the same port
// (or the default ports of an upgrade to https). Issue 17.
func TestMovedOrigin(t *testing.T) {
	for _, tc := range []struct{ origin, final, want string }{
		{"http://example.com", "https://example.com/", "https://example.com"},
		{"http://example.com", "https://www.example.com/home", "https://www.example.com"},
		{"https://www.example.com", "https://example.com/", "https://example.com"},
		{"https://Example.com", "https://WWW.example.com/", "https://www.example.com"},
		{"https://example.com", "http://example.com/", "https://example.com"},           // no downgrade
		{"https://example.com", "https://other.example/", "https://example.com"},        // another site
		{"https://example.com", "https://www.example.com.evil/", "https://example.com"}, // another site
		{"http://127.0.0.1:8080", "http://127.0.0.1:9090/", "http://127.0.0.1:8080"},    // another port
		{"http://example.com:8080", "https://example.com:8080/", "https://example.com:8080"},
		{"http://example.com", "https://example.com:8443/", "http://example.com"},
		{"https://example.com", "ftp://example.com/", "https://example.com"},
		{"https://example.com", "/relative", "https://example.com"},
		{"https://example.com", "https://example.com/", "https://example.com"},
	} {
		if got := MovedOrigin(tc.origin, tc.final); got != tc.want {
			t.Errorf("MovedOrigin(%q, %q) = %q, want %q", tc.origin, tc.final, got, tc.want)
		}
	}
}

// IsRobots is the one rule, of the library and of the command, that reads
// a document as a robots.txt: its last path segment, unescaped, in any
// letter case.
func TestIsRobots(t *testing.T) {
	for in, want := range map[string]bool{
		"https://example.com/robots.txt":        true,
		"https://example.com/ROBOTS.TXT?x=1":    true,
		"https://example.com/dir/robots%2Etxt":  true,
		"robots.txt":                            true,
		"/tmp/site/robots.txt":                  true,
		"https://example.com/robots.txt/":       false,
		"https://example.com/robots.txt.gz":     false,
		"https://example.com/a?f=robots.txt":    false,
		"https://example.com/robots.txt#x":      true,
		"http://[::1/robots.txt":                true, // does not parse: the path as written
		"https://example.com/sitemap.xml":       false,
		"https://example.com/robots.txt%2Fmore": false,
	} {
		if got := IsRobots(in); got != want {
			t.Errorf("IsRobots(%q) = %v, want %v", in, got, want)
		}
	}
}
