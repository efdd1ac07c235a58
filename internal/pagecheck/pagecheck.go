// Package pagecheck reads what a page says about its own indexing: the
// robots directives of its <meta> elements and of its X-Robots-Tag
// headers, and the canonical URL of its <link rel="canonical"> or Link
// header. It knows nothing of sitemaps nor of how the page was fetched.
package pagecheck

import (
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// Head is what the head of an HTML page says about its indexing.
type Head struct {
	// Noindex is the name of the <meta> element whose content says
	// noindex (or none): "robots" or the agent's own, "" when none does.
	Noindex string
	// Canonical is the href of the first <link rel="canonical">, as
	// written, "" when there is none; Other is the first href of another
	// one that is written otherwise, "" when there is none.
	Canonical, Other string
	// Base is the href of the first <base>, as written, "" when there
	// is none: a relative canonical is resolved against it.
	Base string
	// Err is the error the reading of the page broke off with before
	// the end of its head, nil when it did not.
	Err error
}

// ReadHead reads the head of the HTML page in r, served with the
// Content-Type contentType (its charset, or the page's byte order mark or
// <meta charset>, says how it is encoded), for the product token agent
// (such as "gositemap"): a <meta name="robots"> or one named after agent,
// in any letter case, whose content says noindex, and the canonical links.
// The head ends at </head>, at <body>, at text that is not blank and at
// the first element a head may not hold, as it does for the search
// engines (Google stops reading the head at an element that has no place
// in it): what a comment, a script or the body holds is never read. The
// caller bounds r.
func ReadHead(r io.Reader, contentType, agent string) Head {
	var h Head
	er := &errReader{r: r}
	in := io.Reader(er)
	if cr, err := charset.NewReader(er, contentType); err == nil {
		in = cr
	}
	z := html.NewTokenizer(in)
	raw := false // within an element whose text is raw (title, script, style...)
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if er.err != nil {
				h.Err = er.err
			}
			return h
		case html.TextToken:
			if !raw && strings.TrimLeft(string(z.Text()), " \t\n\f\r\ufeff") != "" {
				return h // text: the body has begun (a byte order mark is none)
			}
		case html.EndTagToken:
			raw = false
			if name, _ := z.TagName(); atom.Lookup(name) == atom.Head {
				return h
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			raw = false
			switch atom.Lookup(name) {
			case atom.Html, atom.Head:
			case atom.Title, atom.Script, atom.Style, atom.Noscript, atom.Template:
				raw = tt == html.StartTagToken
			case atom.Meta:
				if hasAttr {
					attrs := attributes(z)
					n := strings.ToLower(strings.TrimSpace(attrs["name"]))
					if h.Noindex == "" && (n == "robots" || agent != "" && n == strings.ToLower(agent)) && Noindex(attrs["content"]) {
						h.Noindex = n
					}
				}
			case atom.Link:
				if hasAttr {
					attrs := attributes(z)
					href := strings.TrimSpace(attrs["href"])
					if !hasToken(attrs["rel"], "canonical") || href == "" {
						break
					}
					if h.Canonical == "" {
						h.Canonical = href
					} else if h.Other == "" && href != h.Canonical {
						h.Other = href
					}
				}
			case atom.Base:
				if hasAttr && h.Base == "" {
					h.Base = strings.TrimSpace(attributes(z)["href"])
				}
			default:
				return h // an element of the body
			}
		}
	}
}

// errReader is a reader that keeps the error other than io.EOF that its
// reader broke off with.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// attributes returns the attributes of the tag z is at, by lower-case
// name; the first of a name holds.
func attributes(z *html.Tokenizer) map[string]string {
	m := map[string]string{}
	for {
		k, v, more := z.TagAttr()
		if _, ok := m[string(k)]; !ok {
			m[string(k)] = string(v)
		}
		if !more {
			return m
		}
	}
}

// hasToken reports whether the space-separated list s holds tok, in any
// letter case.
func hasToken(s, tok string) bool {
	for _, f := range strings.Fields(s) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

// Noindex reports whether a list of robots directives, separated by
// commas, says noindex: "noindex" or "none", in any letter case.
func Noindex(directives string) bool {
	for _, d := range strings.Split(directives, ",") {
		switch strings.ToLower(strings.TrimSpace(d)) {
		case "noindex", "none":
			return true
		}
	}
	return false
}

// RobotsHeader reports whether the values of the X-Robots-Tag headers of
// a response say noindex to agent: a value with no agent's name before its
// directives applies to every agent, one that begins with "name:" to the
// agent of that name alone. Directives that take a value after a colon
// (unavailable_after: DATE, max-snippet: N) are not names.
func RobotsHeader(values []string, agent string) bool {
	for _, v := range values {
		if name, rest, ok := strings.Cut(v, ":"); ok && isAgentName(name) {
			if !strings.EqualFold(strings.TrimSpace(name), agent) {
				continue
			}
			v = rest
		}
		if Noindex(v) {
			return true
		}
	}
	return false
}

// isAgentName reports whether s, what comes before a colon in an
// X-Robots-Tag value, is the name of an agent rather than a directive.
func isAgentName(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || strings.ContainsAny(s, ", ") {
		return false
	}
	switch s {
	case "unavailable_after", "max-snippet", "max-image-preview", "max-video-preview":
		return false
	}
	return true
}

// LinkCanonical returns the target of the first rel="canonical" link of
// the values of the Link headers of a response, as written, "" when none
// has one (<https://example.com/a>; rel="canonical"), and the first
// target of another such link that is written otherwise, "" when there is
// none, as Head has them.
func LinkCanonical(values []string) (canonical, other string) {
	for _, v := range values {
		for _, link := range splitLinks(v) {
			start, end := strings.IndexByte(link, '<'), strings.IndexByte(link, '>')
			if start < 0 || end < start {
				continue
			}
			for _, param := range strings.Split(link[end+1:], ";") {
				k, val, ok := strings.Cut(param, "=")
				if !ok || !strings.EqualFold(strings.TrimSpace(k), "rel") || !hasToken(strings.Trim(strings.TrimSpace(val), `"`), "canonical") {
					continue
				}
				switch target := strings.TrimSpace(link[start+1 : end]); {
				case canonical == "":
					canonical = target
				case target != canonical:
					return canonical, target
				}
			}
		}
	}
	return canonical, ""
}

// splitLinks splits the value of a Link header at the commas between its
// links, none within the <...> of a target or a quoted parameter.
func splitLinks(v string) []string {
	var out []string
	inURL, inQuote, from := false, false, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '<' && !inQuote:
			inURL = true
		case c == '>' && !inQuote:
			inURL = false
		case c == '"' && !inURL:
			inQuote = !inQuote
		case c == ',' && !inURL && !inQuote:
			out = append(out, v[from:i])
			from = i + 1
		}
	}
	return append(out, v[from:])
}
