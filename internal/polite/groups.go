package polite

import (
	"bytes"
	"strconv"
	"strings"
)

// This file is the one reader of the groups of a robots.txt (RFC 9309,
// section 2.2.1), after Google's parser: which groups apply to an agent,
// read a line at a time, keeping nothing of a group but its rank.
//
// A group is a run of User-agent lines and the rules after them. The
// value of a User-agent line is matched by its leading product token (the
// letters, '-' and '_' it begins with: "TestBot/2.1" is "TestBot"), in any
// letter case, for equality with the agent's own, never as a prefix: a
// group of "test" is not one of "testbot". A value of "*" (alone, or
// before a space) is the group of every agent. Every group that names the
// agent applies, combined; the groups of * apply only when none in the
// whole file names it.

// Rank is how a group applies to an agent.
type Rank int8

const (
	None  Rank = iota // the group is another agent's
	Star              // the group of "*"
	Named             // the group names the agent's product token
)

// Agent is the product token of a user agent, as the groups of a
// robots.txt are matched against it.
type Agent struct{ token string }

// NewAgent returns the agent of the user agent string ua: the product
// token is its first word, up to a '/', cut at the first character that
// is not a letter, '-' or '_' ("TestBot/1.0 (+https://x)" is "TestBot").
// An agent whose token is empty is named by no group: only "*" applies.
func NewAgent(ua string) Agent {
	word, _, _ := strings.Cut(strings.TrimSpace(ua), " ")
	return Agent{token: string(productToken([]byte(word)))}
}

// Token returns the product token of the agent, in the letter case the
// user agent gives it.
func (a Agent) Token() string { return a.token }

// productToken returns the product token that value begins with.
func productToken(value []byte) []byte {
	i := 0
	for i < len(value) {
		c := value[i] | 0x20 // lower case of a letter
		if !('a' <= c && c <= 'z' || value[i] == '-' || value[i] == '_') {
			break
		}
		i++
	}
	return value[:i]
}

// Match returns the rank of a User-agent line of the given value, without
// its comment and spaces around it.
func (a Agent) Match(value []byte) Rank {
	if len(value) > 0 && value[0] == '*' && (len(value) == 1 || value[1] == ' ' || value[1] == '\t') {
		return Star
	}
	if a.token != "" && bytes.EqualFold(productToken(value), []byte(a.token)) {
		return Named
	}
	return None
}

// Kinds of lines of a robots.txt.
const (
	lineNone      = iota // a line with no field: a blank line, a comment, garbage
	lineAgent            // User-agent
	lineAllow            // Allow
	lineDisallow         // Disallow
	lineDelay            // Crawl-delay
	lineSitemap          // Sitemap, which belongs to no group
	lineOtherRule        // any other field, a rule of its group
)

// splitLine returns the kind of a line of a robots.txt and its value, the
// comment and the spaces around the field and the value left out. It does
// not allocate.
func splitLine(line []byte) (kind int, value []byte) {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	name, value, ok := bytes.Cut(line, []byte(":"))
	if !ok {
		return lineNone, nil
	}
	name, value = bytes.TrimSpace(name), bytes.TrimSpace(value)
	for _, f := range fields {
		if bytes.EqualFold(name, []byte(f.name)) {
			return f.kind, value
		}
	}
	return lineOtherRule, value
}

var fields = [...]struct {
	name string
	kind int
}{{"user-agent", lineAgent}, {"allow", lineAllow}, {"disallow", lineDisallow}, {"crawl-delay", lineDelay}, {"sitemap", lineSitemap}}

// groups follows the groups of a robots.txt line by line. It keeps the
// rank of the group being read and nothing else: a group of a million
// User-agent lines costs what a group of one does.
type groups struct {
	agent    Agent
	rank     Rank // the best rank of the User-agent lines of the group
	inAgents bool // the last line of a group was a User-agent line
}

// next reads one line and returns its kind, its value and the rank of the
// group it is a line of. A User-agent line after a rule starts a group; a
// Sitemap: line neither starts nor ends one; a line before any User-agent
// line is of no group.
func (g *groups) next(line []byte) (kind int, value []byte, rank Rank) {
	kind, value = splitLine(line)
	switch kind {
	case lineNone, lineSitemap:
	case lineAgent:
		if !g.inAgents {
			g.rank = None
		}
		g.rank = max(g.rank, g.agent.Match(value))
		g.inAgents = true
	default:
		g.inAgents = false
	}
	return kind, value, g.rank
}

// Delay reads the Crawl-delay that applies to an agent from the lines of a
// robots.txt, one at a time, as they arrive: that of the groups naming the
// agent, or else of those of "*". Where several groups apply, or a group
// gives several, the longest holds; a group that applies and gives none
// asks for none. What it keeps is a few words, whatever it reads.
type Delay struct {
	g    groups
	rank Rank    // the best rank of a group seen so far
	secs float64 // the longest Crawl-delay of the groups of that rank
}

// NewDelay returns the reader of the Crawl-delay of a.
func NewDelay(a Agent) *Delay { return &Delay{g: groups{agent: a}} }

// Line reads one line of the robots.txt, with or without its line ending,
// and reports whether the delay that applies changed.
func (d *Delay) Line(line []byte) (changed bool) {
	kind, value, rank := d.g.next(line)
	if rank == None || rank < d.rank {
		return false
	}
	if rank > d.rank {
		d.rank, d.secs, changed = rank, 0, true
	}
	if kind != lineDelay {
		return changed
	}
	if secs, ok := ParseDelay(value); ok && secs > d.secs {
		d.secs, changed = secs, true
	}
	return changed
}

// Delay returns the delay that applies so far, in seconds (0 for none),
// and the rank of the groups it comes from (None while no group applies).
func (d *Delay) Delay() (Rank, float64) { return d.rank, d.secs }

// ParseDelay reads the value of a Crawl-delay line: a decimal number of
// seconds greater than 0 ("10", "0.5", "2."), of any length. A number of
// more than nine digits before its point is taken as MaxCrawlDelay, which
// it is beyond. Any other value (a sign, an exponent, a word) is none.
func ParseDelay(v []byte) (float64, bool) {
	i := 0
	for i < len(v) && '0' <= v[i] && v[i] <= '9' {
		i++
	}
	whole, frac := v[:i], v[i:]
	if len(frac) > 0 {
		if frac[0] != '.' {
			return 0, false
		}
		frac = frac[1:]
		for _, c := range frac {
			if c < '0' || c > '9' {
				return 0, false
			}
		}
	}
	if len(whole)+len(frac) == 0 {
		return 0, false
	}
	whole = bytes.TrimLeft(whole, "0")
	if len(whole) > 9 {
		return MaxCrawlDelay.Seconds(), true
	}
	var num [9 + 1 + 9]byte // nine digits are beyond a nanosecond
	n := copy(num[:], whole)
	num[n] = '.'
	n++
	n += copy(num[n:], frac[:min(len(frac), 9)])
	secs, err := strconv.ParseFloat(string(num[:n]), 64)
	if err != nil || !(secs > 0) {
		return 0, false
	}
	return secs, true
}
