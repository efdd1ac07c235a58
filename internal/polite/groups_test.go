package polite

import (
	"fmt"
	"strings"
	"testing"
)

// The one reader of the groups of a robots.txt (RFC 9309 2.2.1, as
// Google's parser reads it), its Crawl-delay and its rules.

func TestNewAgent(t *testing.T) {
	for ua, want := range map[string]string{
		"TestBot/1.0 (+https://example.org)": "TestBot",
		"  friendbot ":                       "friendbot",
		"Googlebot-Image/1.0":                "Googlebot-Image",
		"my_bot":                             "my_bot",
		"bot2000/1":                          "bot",
		"":                                   "",
		"2bot":                               "",
	} {
		if got := NewAgent(ua).token; got != want {
			t.Errorf("NewAgent(%q) = %q, want %q", ua, got, want)
		}
	}
}

// The value of a User-agent line names the agent when its product token
// is the agent's, in any letter case; a prefix is not enough, either way.
func TestAgentMatch(t *testing.T) {
	a := NewAgent("TestBot/1.0")
	for value, want := range map[string]Rank{
		"TestBot":        Named,
		"testbot":        Named,
		"TESTBOT/2.1":    Named,
		"testbot (cool)": Named,
		"test":           None, // the prefix match lint had before issue 30 took this group
		"testbots":       None,
		"TestBot-Image":  None,
		"Mozilla":        None,
		"*":              Star,
		"* ignored":      Star,
		"*bot":           None,
		"":               None,
	} {
		if got := a.Match([]byte(value)); got != want {
			t.Errorf("Match(%q) = %v, want %v", value, got, want)
		}
	}
	if got := NewAgent("").Match([]byte("")); got != None {
		t.Errorf("an empty token matched an empty value: %v", got)
	}
}

// delayOf reads robots with the user agent ua and returns the delay that
// applies, and how many times it changed.
func delayOf(ua, robots string) (Rank, float64, int) {
	d := NewDelay(NewAgent(ua))
	changes := 0
	for line := range strings.Lines(robots) {
		if d.Line([]byte(strings.TrimRight(line, "\r\n"))) {
			changes++
		}
	}
	rank, secs := d.Delay()
	return rank, secs, changes
}

const groupsRobots = `# groups
User-agent: otherbot
Crawl-delay: 9

User-agent: *
Disallow: /private/
Crawl-delay: 2

User-agent: TestBot
User-agent: friendbot
Disallow: /tmp/
Crawl-delay: %s

Sitemap: https://example.com/a.xml
`

// The cases of the root's TestCrawlDelay that tested the reader.
func TestDelay(t *testing.T) {
	for _, tc := range []struct {
		name, agent, delay string
		rank               Rank
		secs               float64
	}{
		{"token", "testbot/1.0 (+https://example.org)", "3", Named, 3},
		{"second agent of the group", "FriendBot", "1.5", Named, 1.5},
		{"star", "somebot/2", "3", Star, 2},
		{"long", "testbot", "100000", Named, 100000},
		{"a bad delay in the token's group asks for none", "testbot", "soon", Named, 0},
		{"a prefix of the token is another agent", "test", "3", Star, 2},
	} {
		rank, secs, _ := delayOf(tc.agent, fmt.Sprintf(groupsRobots, tc.delay))
		if rank != tc.rank || secs != tc.secs {
			t.Errorf("%s: %v, %v; want %v, %v", tc.name, rank, secs, tc.rank, tc.secs)
		}
	}
}

// Groups that name the agent combine: the longest delay holds, wherever it
// is; a * group after them is not heard; a Sitemap: line neither ends nor
// starts a group; a rule before any User-agent line is of none.
func TestDelayCombined(t *testing.T) {
	for _, tc := range []struct {
		name, robots string
		rank         Rank
		secs         float64
	}{
		{"longest of the named", "User-agent: testbot\nCrawl-delay: 4\n\nUser-agent: TestBot\nCrawl-delay: 1\n", Named, 4},
		{"a named group without delay", "User-agent: testbot\nCrawl-delay: 4\nUser-agent: testbot\nDisallow: /\n", Named, 4},
		{"star after named", "User-agent: testbot\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 5\n", Named, 1},
		{"sitemap inside the agents", "User-agent: x\nSitemap: /s.xml\nUser-agent: testbot\nCrawl-delay: 6\n", Named, 6},
		{"before any agent", "Crawl-delay: 7\nUser-agent: testbot\nDisallow: /\n", Named, 0},
		{"no group", "Crawl-delay: 7\nSitemap: /s.xml\n", None, 0},
		{"comments and spaces", "  user-AGENT :  TestBot # us\n\tcrawl-delay:2.5#s\n", Named, 2.5},
	} {
		rank, secs, _ := delayOf("TestBot/1", tc.robots)
		if rank != tc.rank || secs != tc.secs {
			t.Errorf("%s: %v, %v; want %v, %v", tc.name, rank, secs, tc.rank, tc.secs)
		}
	}
}

func TestParseDelay(t *testing.T) {
	for v, want := range map[string]float64{
		"10": 10, "0.5": 0.5, ".25": 0.25, "2.": 2, "007": 7,
		"0": -1, "0.0": -1, "": -1, ".": -1, "-1": -1, "+1": -1, "1e3": -1, "Inf": -1, "NaN": -1, "soon": -1, "1.2.3": -1, "1 2": -1,
		"123456789":                     123456789,
		"1234567890":                    MaxCrawlDelay.Seconds(),
		"1" + strings.Repeat("0", 1e6):  MaxCrawlDelay.Seconds(),
		"0." + strings.Repeat("0", 1e6): -1,
		"1." + strings.Repeat("5", 1e6): 1.555555555,
	} {
		got, ok := ParseDelay([]byte(v))
		if !ok {
			got = -1
		}
		if got != want {
			t.Errorf("ParseDelay(%.20q) = %v, want %v", v, got, want)
		}
	}
}

// Issue 31 bug 5, at the engine: whatever the lines, the reader allocates
// nothing as it reads them. It kept every agent of a group until its first
// rule.
func TestDelayKeepsNothing(t *testing.T) {
	lines := [][]byte{
		[]byte("User-agent: x0000001"), []byte("User-agent: TestBot/2"), []byte("Crawl-delay: 3"),
		[]byte("User-agent: *"), []byte("Disallow: /" + strings.Repeat("x", 4<<10)),
		[]byte("Crawl-delay: 1" + strings.Repeat("0", 4<<10)), []byte("Sitemap: /s.xml"), []byte("junk"),
	}
	d := NewDelay(NewAgent("TestBot/1.0"))
	allocs := testing.AllocsPerRun(100, func() {
		for range 100 {
			for _, l := range lines {
				d.Line(l)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations for 800 lines, want none", allocs)
	}
}
