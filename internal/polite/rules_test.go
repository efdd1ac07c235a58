package polite

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The rules lint checks a URL against, read through the same groups as
// the Crawl-delay.

func allowed(t *testing.T, r *Robots, want map[string]bool) {
	t.Helper()
	for path, w := range want {
		if got := r.Allowed(path); got != w {
			t.Errorf("Allowed(%q) = %v, want %v", path, got, w)
		}
	}
}

// The longest pattern that matches holds, an Allow on a tie; * and $.
func TestRobotsPrecedence(t *testing.T) {
	r := ReadRobots([]byte(`User-agent: *
Disallow: /private
Allow: /private/open$
Disallow: /*.pdf$
Allow: /page
Disallow: /page
Disallow: /a*b*c
Disallow:
Allow: /%7efred
Disallow: /~fred/x
Disallow: /caf%C3%A9
`), NewAgent("TestBot"))
	allowed(t, r, map[string]bool{
		"/":                true,
		"/private":         false,
		"/private/x":       false,
		"/private/open":    true,
		"/private/open/x":  false,
		"/doc.pdf":         false,
		"/doc.pdf?x=1":     true,
		"/page":            true,
		"/a-b-c":           false,
		"/acb":             true,
		"/a/b/c/d":         false,
		"/~fred/x":         false,
		"/%7efred":         true,
		"/caf%c3%a9":       false,
		"/other?q=private": true,
	})
	if (&Robots{}).Allowed("/anything") != true {
		t.Error("the zero Robots disallows")
	}
}

// The groups of * apply only when no group names the agent; groups that
// name it combine; a prefix of the token is another agent.
func TestRobotsGroups(t *testing.T) {
	const robots = `User-agent: *
Disallow: /

User-agent: test
Disallow: /test-only

User-agent: TestBot
Disallow: /a

Sitemap: https://example.com/s1.xml
User-agent: testbot/2.0
Disallow: /b
Sitemap:   https://example.com/s2.xml   # the second
`
	r := ReadRobots([]byte(robots), NewAgent("TestBot/1.0"))
	allowed(t, r, map[string]bool{"/": true, "/a": false, "/b/c": false, "/test-only": true})
	r = ReadRobots([]byte(robots), NewAgent("otherbot"))
	allowed(t, r, map[string]bool{"/": false, "/x": false})
	r = ReadRobots([]byte(robots), NewAgent("Test"))
	allowed(t, r, map[string]bool{"/": true, "/test-only": false, "/a": true})
	if got := strings.Join(r.Sitemaps, " "); got != "https://example.com/s1.xml https://example.com/s2.xml" {
		t.Errorf("Sitemaps = %q", got)
	}
	// A group that names the agent with no rule still sets * aside.
	r = ReadRobots([]byte("User-agent: *\nDisallow: /\nUser-agent: testbot\n"), NewAgent("TestBot"))
	allowed(t, r, map[string]bool{"/": true})
	// CRLF, a byte order mark, a rule before any group.
	r = ReadRobots([]byte("\xef\xbb\xbfDisallow: /x\r\nUser-agent: *\r\nDisallow: /y\r\n"), NewAgent("TestBot"))
	allowed(t, r, map[string]bool{"/x": true, "/y": false})
}

// The sibling of issue 31 bug 5 on lint's path: a robots.txt of endless
// User-agent lines costs the Robots and nothing more.
func TestReadRobotsKeepsNoAgents(t *testing.T) {
	body := []byte(strings.Repeat("User-agent: x0000001\n", 25_000)) // 500 KiB, what lint reads
	a := NewAgent("TestBot/1.0")
	if allocs := testing.AllocsPerRun(10, func() { ReadRobots(body, a) }); allocs > 1 {
		t.Errorf("%v allocations, want the Robots alone", allocs)
	}
}

func TestMatches(t *testing.T) {
	for _, tc := range []struct {
		path, pattern string
		want          bool
	}{
		{"/fish", "/fish", true}, {"/fish.html", "/fish", true}, {"/Fish", "/fish", false},
		{"/fish", "/fish*", true}, {"/fishheads/x", "/fish*", true},
		{"/x.php", "/*.php", true}, {"/x.php?y", "/*.php", true}, {"/x.php?y", "/*.php$", false},
		{"/x.php", "/*.php$", true}, {"/", "/$", true}, {"/a", "/$", false},
		{"/a$b", "/a$b", true}, {"/ab", "/a$b", false},
		{"/abc", "*", true}, {"/abc", "/**c", true}, {"/ab", "/**c", false},
	} {
		if got := matches(tc.path, tc.pattern); got != tc.want {
			t.Errorf("matches(%q, %q) = %v, want %v", tc.path, tc.pattern, got, tc.want)
		}
	}
}

// slowMatches is the reference of matches: Google's set of the positions
// in path that the pattern read so far can end at.
func slowMatches(path, pattern string) bool {
	pos := []int{0}
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '$' && i == len(pattern)-1:
			return pos[len(pos)-1] == len(path)
		case c == '*':
			var all []int
			for p := pos[0]; p <= len(path); p++ {
				all = append(all, p)
			}
			pos = all
		default:
			var next []int
			for _, p := range pos {
				if p < len(path) && path[p] == c {
					next = append(next, p+1)
				}
			}
			if pos = next; len(pos) == 0 {
				return false
			}
		}
	}
	return true
}

// matches finds the pieces between the *s at their first places: it
// agrees with the reference on random paths and patterns of a small
// alphabet, where the pieces overlap and repeat.
func TestMatchesAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func(alphabet string, n int) string {
		b := make([]byte, r.IntN(n+1))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 200_000 {
		path, pattern := "/"+word("ab$", 8), "/"+word("ab*$", 6)
		if got, want := matches(path, pattern), slowMatches(path, pattern); got != want {
			t.Fatalf("matches(%q, %q) = %v, the reference says %v", path, pattern, got, want)
		}
	}
}

// A sibling of issue 31 bug 5 on lint's path, for time: a rule of 30,000
// *s against long paths is read in a few scans, allocating nothing, where
// a set of positions costs the path's length for each byte of the rule.
func TestMatchesManyStars(t *testing.T) {
	pattern := "/" + strings.Repeat("a*", 30_000) + "b"
	short, long := "/"+strings.Repeat("a", 2000)+"b", "/"+strings.Repeat("a", 40_000)+"b"
	allocs := testing.AllocsPerRun(10, func() {
		if matches(short, pattern) || !matches(long, pattern) {
			t.Fatal("wrong match")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations", allocs)
	}
}

// Robots.CrawlDelay is the delay of the groups that apply to the agent,
// as Delay reads it line by line; Agent.Token is the product token.
func TestRobotsCrawlDelay(t *testing.T) {
	body := []byte("User-agent: *\nCrawl-delay: 2\n\nUser-agent: TestBot\nCrawl-delay: 7\nDisallow: /x\n")
	a := NewAgent("TestBot/1.0 (+https://example.com)")
	if a.Token() != "TestBot" {
		t.Errorf("Token %q", a.Token())
	}
	if rank, secs := ReadRobots(body, a).CrawlDelay(); rank != Named || secs != 7 {
		t.Errorf("named: %v %v, want 7 s", rank, secs)
	}
	if rank, secs := ReadRobots(body, NewAgent("other")).CrawlDelay(); rank != Star || secs != 2 {
		t.Errorf("star: %v %v, want 2 s", rank, secs)
	}
	if rank, secs := ReadRobots([]byte("Disallow: /\n"), a).CrawlDelay(); rank != None || secs != 0 {
		t.Errorf("no group: %v %v", rank, secs)
	}
}
