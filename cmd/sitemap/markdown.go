package main

import (
	"bufio"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/printable"
)

// This file is sitemap lint -format markdown: a summary of the findings
// for a comment on a pull request. It lists the codes found with their
// severity and count, then the first places of each, everything a
// document wrote escaped, and stays within what GitHub takes of a comment.

// The bounds of the summary.
const (
	markdownMax    = 65536 // characters
	markdownPlaces = 3     // places listed of a code
	markdownText   = 300   // characters kept of a message or a URL
)

// markdownWriter gathers the counts and the first places of each code,
// and writes the summary at the end.
type markdownWriter struct {
	w        *bufio.Writer
	artifact func(document string) string // how a document is named (sarif.go)
	counts   map[sitemap.Code]int64
	places   map[sitemap.Code][]sitemap.Finding
	sev      map[sitemap.Severity]int64
}

func (m *markdownWriter) write(f sitemap.Finding) {
	if m.counts == nil {
		m.counts, m.places, m.sev = map[sitemap.Code]int64{}, map[sitemap.Code][]sitemap.Finding{}, map[sitemap.Severity]int64{}
	}
	n := max(f.More, 1)
	m.counts[f.Code] += n
	m.sev[f.Severity] += n
	if f.More == 0 && len(m.places[f.Code]) < markdownPlaces {
		m.places[f.Code] = append(m.places[f.Code], f)
	}
}

var sevOrder = map[sitemap.Severity]int{sitemap.SeverityError: 0, sitemap.SeverityWarning: 1, sitemap.SeverityInfo: 2}

func (m *markdownWriter) end() {
	var b strings.Builder
	fmt.Fprintf(&b, "### sitemap lint: %d errors, %d warnings, %d notes\n\n",
		m.sev[sitemap.SeverityError], m.sev[sitemap.SeverityWarning], m.sev[sitemap.SeverityInfo])
	if len(m.counts) == 0 {
		b.WriteString("Nothing found.\n")
		m.w.WriteString(b.String())
		return
	}
	codes := make([]sitemap.Code, 0, len(m.counts))
	for code := range m.counts {
		codes = append(codes, code)
	}
	slices.SortFunc(codes, func(a, b sitemap.Code) int {
		return cmp.Or(cmp.Compare(sevOrder[a.Severity()], sevOrder[b.Severity()]), cmp.Compare(m.counts[b], m.counts[a]), strings.Compare(string(a), string(b)))
	})
	b.WriteString("| Code | Severity | Count | What to do |\n|---|---|---:|---|\n")
	for _, code := range codes {
		_, todo := code.Help()
		fmt.Fprintf(&b, "| `%s` | %s | %d | %s |\n", code, code.Severity(), m.counts[code], mdEscape(todo))
	}
	b.WriteString("\n#### First places\n\n")
	left, size := 0, utf8.RuneCountInString(b.String())
	for _, code := range codes {
		for _, f := range m.places[code] {
			line := fmt.Sprintf("- `%s` %s", code, mdCode(short(m.artifact(f.Document))))
			if f.Line > 0 {
				line += fmt.Sprintf(":%d:%d", f.Line, f.Column)
			}
			line += ": " + mdEscape(short(f.Message))
			if f.URL != "" {
				line += " " + mdCode(short(f.URL))
			}
			line += "\n"
			n := utf8.RuneCountInString(line)
			if size+n > markdownMax-200 {
				left++
				continue
			}
			b.WriteString(line)
			size += n
		}
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n%d more places are left out: the summary stays within %d characters.\n", left, markdownMax)
	}
	m.w.WriteString(b.String())
}

// short cuts s to markdownText characters.
func short(s string) string {
	if utf8.RuneCountInString(s) <= markdownText {
		return s
	}
	r := []rune(s)
	return string(r[:markdownText]) + "…"
}

// mdSpecial are the characters that start something inline in GitHub's
// Markdown: a tag or an entity, a link or an image, emphasis or
// strikethrough, a code span, a table cell's end, math. The text escaped
// never starts a line, so the characters that start a block need
// nothing. A mention (@user) or a reference (#12) is no Markdown: GitHub
// finds it in the text once rendered, where a backslash is gone; mdEscape
// writes a zero-width space after each @ and #, as bots that quote
// others' text in comments do.
const mdSpecial = "\\`*_[]<>|~!&$"

// mdEscape makes s plain text in Markdown (GitHub's, tables included): a
// backslash before each of mdSpecial, so that nothing in it is a tag, a
// link, an emphasis or a cell's end, line breaks and tabs as spaces, and
// the other controls (C0, C1, bidirectional: what a terminal or a
// reader's eye would obey) as \u escapes, as the command writes them
// everywhere.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case printable.IsControl(r):
			fmt.Fprintf(&b, `\\u%04x`, r) // the backslash escaped: the text shows \u202e
		case r == '@' || r == '#':
			b.WriteRune(r)
			b.WriteRune('\u200b') // no mention, no reference: nobody is notified, no issue is linked
		case strings.ContainsRune(mdSpecial, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCode makes s a code span: shown as it is, never a tag or a link, but
// for its controls, as in mdEscape. Its delimiters are one backtick more
// than the longest run of them in s.
func mdCode(s string) string {
	var esc strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			esc.WriteByte(' ')
		case printable.IsControl(r):
			fmt.Fprintf(&esc, `\u%04x`, r)
		default:
			esc.WriteRune(r)
		}
	}
	s = esc.String()
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		s = " " + s + " "
	}
	return fence + s + fence
}
