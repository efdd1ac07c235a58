package polite

import (
	"bytes"
	"strings"
)

// Robots is what a robots.txt says to one agent: the Allow and Disallow
// rules of the groups that apply to it (read as groups.go reads them), and
// its Sitemap: lines. The zero Robots allows everything: the robots.txt of
// a host that answers 4xx.
type Robots struct {
	// Sitemaps are the values of the Sitemap: lines, in order.
	Sitemaps []string
	// Missing tells that the host has no robots.txt (it answered a client
	// error): everything is allowed, and nothing is listed.
	Missing bool

	named, star []rule
	seenNamed   bool // a group names the agent: the groups of * do not apply
	delay       Delay
}

// CrawlDelay returns the Crawl-delay that applies to the agent, in
// seconds (0 for none), and the rank of the groups it comes from, as
// [Delay.Delay] does.
func (r *Robots) CrawlDelay() (Rank, float64) { return r.delay.Delay() }

// rule is an Allow or Disallow rule: a path pattern with * and $.
type rule struct {
	pattern string
	allow   bool
}

// ReadRobots reads the robots.txt body for agent a. It keeps the rules of
// the groups that name a and of those of "*", and the sitemaps: never more
// than the body.
func ReadRobots(body []byte, a Agent) *Robots {
	r := &Robots{delay: Delay{g: groups{agent: a}}}
	g := groups{agent: a}
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	for len(body) > 0 {
		line := body
		if i := bytes.IndexAny(body, "\r\n"); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		r.delay.Line(line)
		kind, value, rank := g.next(line)
		switch {
		case kind == lineSitemap:
			if len(value) > 0 {
				r.Sitemaps = append(r.Sitemaps, string(value))
			}
		case kind == lineAgent && rank == Named:
			r.seenNamed = true
		case (kind == lineAllow || kind == lineDisallow) && rank != None && len(value) > 0:
			// An empty pattern matches nothing: "Disallow:" allows all.
			ru := rule{pattern: normalizeEscapes(string(value)), allow: kind == lineAllow}
			if rank == Named {
				r.named = append(r.named, ru)
			} else {
				r.star = append(r.star, ru)
			}
		}
	}
	return r
}

// Allowed reports whether the robots.txt allows the agent to fetch path,
// the escaped path of a URL with its query ("/a/b?c=d"). The rule of the
// longest pattern that matches holds; between an Allow and a Disallow of
// the same length, the Allow. With no rule matching, path is allowed.
func (r *Robots) Allowed(path string) bool {
	rules := r.star
	if r.seenNamed {
		rules = r.named
	}
	path = normalizeEscapes(path)
	allow, disallow := -1, -1
	for _, ru := range rules {
		if !matches(path, ru.pattern) {
			continue
		}
		if ru.allow {
			allow = max(allow, len(ru.pattern))
		} else {
			disallow = max(disallow, len(ru.pattern))
		}
	}
	return disallow <= allow
}

// matches reports whether path matches pattern from its start: a * in the
// pattern stands for any run of bytes, a $ at its end for the end of path.
// The pieces between the *s are found in turn, each at its first place
// after the one before, which is where a match is found if there is one:
// a pattern of any number of *s costs a few scans of path.
func matches(path, pattern string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	first, rest, starred := strings.Cut(pattern, "*")
	if !strings.HasPrefix(path, first) {
		return false
	}
	if !starred {
		return !anchored || len(path) == len(first)
	}
	at := len(first)
	for {
		piece, more, starred := strings.Cut(rest, "*")
		if !starred { // the last piece
			if anchored {
				return len(path)-at >= len(piece) && strings.HasSuffix(path, piece)
			}
			return strings.Contains(path[at:], piece)
		}
		i := strings.Index(path[at:], piece)
		if i < 0 {
			return false
		}
		at, rest = at+i+len(piece), more
	}
}

// normalizeEscapes returns s with the hex digits of its %-escapes in
// upper case and every byte beyond ASCII escaped, so that a pattern and a
// path compare as the same escaped text.
func normalizeEscapes(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '%' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			b = append(b, '%', hex[c>>4], hex[c&15])
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, '%', upper(s[i+1]), upper(s[i+2]))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }

func upper(c byte) byte {
	if 'a' <= c && c <= 'f' {
		return c - 'a' + 'A'
	}
	return c
}
