package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/gositemap/sitemap/internal/printable"
)

// Issue 31, bug 4: what a server or a document controls reaches the
// terminal escaped, by every command and in every format.

// hostileReason is a reason phrase that retitles the terminal's window,
// clears its screen, turns what follows red, and reverses the rest of the
// line.
const hostileReason = "Bad \x1b]0;pwned\a\x1b[2J\x1b[31mRequest\u202e\u009b"

// rawServer answers on loopback with the raw responses of routes, by path,
// and with the hostile status line for any other path: net/http's server
// would not send either.
func rawServer(t *testing.T, routes map[string]string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer conn.Close()
				req, err := http.ReadRequest(bufio.NewReader(conn))
				if err != nil {
					return
				}
				body, ok := routes[req.URL.Path]
				if loc, found := strings.CutPrefix(body, "redirect "); found {
					fmt.Fprintf(conn, "HTTP/1.1 302 Found\r\nLocation: %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", loc)
					return
				}
				if !ok {
					fmt.Fprintf(conn, "HTTP/1.1 400 %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", hostileReason)
					return
				}
				fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/xml\u202e\r\nETag: \"e\u009b31m\"\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
			})
		}
	})
	return "http://" + ln.Addr().String()
}

// obeyed returns the first character of out a terminal would act on, or
// -1 when there is none. A line break ends a line and a tab parts the
// fields of a line, as they are meant to.
func obeyed(out string) rune {
	for i, r := range out {
		if r == utf8.RuneError && !strings.HasPrefix(out[i:], "\ufffd") {
			return r
		}
		if r != '\n' && r != '\t' && printable.IsControl(r) {
			return r
		}
	}
	return -1
}

// TestHostileTerminalEscapesFromServer runs every command, in every format,
// on a server whose status lines, headers and documents hold escape
// sequences, C1 controls and bidirectional overrides: none reaches standard
// output or standard error as it is, and what they said is still there,
// escaped.
func TestHostileTerminalEscapesFromServer(t *testing.T) {
	base := rawServer(t, map[string]string{
		"/index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			`<sitemap><loc>/gone.xml</loc></sitemap><sitemap><loc>/pages.xml</loc></sitemap><sitemap><loc>/moved.xml</loc></sitemap></sitemapindex>`,
		"/moved.xml":             "redirect /pages\u202e\u009b.xml",
		"/pages\u202e\u009b.xml": "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>/b</loc></url></urlset>",
		"/pages.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` +
			"<url><loc>/a\u202egpj.exe</loc><image:image><image:loc>/i.png</image:loc><image:title>t\u009b2J\u202e</image:title></image:image></url></urlset>",
		"/pages.txt":  "/relative\x1b[2J\nhttps://x.example/\x1b]0;t\a\n",
		"/robots.txt": "Sitemap: /pages.xml\n",
	})
	for _, args := range [][]string{
		{base + "/index.xml"},
		{"-format", "csv", base + "/index.xml"},
		{"-format", "jsonl", base + "/index.xml"},
		{"-strict", base + "/pages.txt"},
		{"-sitemaps", base + "/index.xml"},
		{"tree", base + "/index.xml"},
		{"tree", "-format", "json", base + "/index.xml"},
		{"lint", "-no-robots", base + "/index.xml"},
		{"lint", "-no-robots", base + "/pages.txt"},
		{"lint", "-no-robots", "-format", "jsonl", base + "/index.xml"},
		{"lint", "-no-robots", "-format", "jsonl", base + "/pages.txt"},
		{"lint", "-no-robots", "-format", "markdown", base + "/index.xml"},
		{"lint", "-no-robots", "-format", "markdown", base + "/pages.txt"},
		{"lint", "-no-robots", "-format", "sarif", base + "/index.xml"},
		{"discover", "-v", base},
		{"discover", "-format", "csv", base},
		{"discover", "-format", "jsonl", base},
	} {
		r := runCLI(t, "", args...)
		for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
			if c := obeyed(out); c >= 0 {
				t.Errorf("sitemap %s: %s holds %U:\n%s", strings.Join(args, " "), name, c, out)
			}
		}
		if all := r.stdout + r.stderr; !strings.Contains(all, `\x1b`) && !strings.Contains(all, `\u001b`) &&
			!strings.Contains(all, `\u202e`) && !strings.Contains(all, `\u009b`) {
			t.Errorf("sitemap %s: nothing escaped shows:\n%s\n%s", strings.Join(args, " "), r.stdout, r.stderr)
		}
	}
}

// TestHostileStatusLineInMessages checks the text of the failed request of
// a sitemap whose status line holds escape sequences, in the listing's
// error line and the tree's line.
func TestHostileStatusLineInMessages(t *testing.T) {
	base := rawServer(t, nil)
	want := `NetworkError: fetch "` + base + `/gone.xml": unexpected HTTP status 400 Bad \x1b]0;pwned\a\x1b[2J\x1b[31mRequest\u202e\u009b`
	r := runCLI(t, "", base+"/gone.xml")
	if got := lines(r.stderr); len(got) == 0 || got[0] != want {
		t.Errorf("stderr:\n%s\nwant first line:\n%s", r.stderr, want)
	}
	r = runCLI(t, "", "tree", "-format", "json", base+"/gone.xml")
	var docs []jsonDocument
	if err := json.Unmarshal([]byte(r.stdout), &docs); err != nil || len(docs) != 1 || docs[0].Error == nil {
		t.Fatalf("tree json: %v\n%s", err, r.stdout)
	}
	if got := *docs[0].Error; got != want {
		t.Errorf("tree json error %q, want %q", got, want)
	}
}

// A record whose text is not all ASCII ends with a line break like any
// other: jsonWriter escaped it as \u000a (it escaped every control of a
// write that held a byte from 0x7f up), which glued the records of
// -format jsonl into one line and broke the SARIF log.
func TestJSONLinesNonASCII(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/news.xml"
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.example/a</loc><lastmod>2024年</lastmod></url>` +
		`<url><loc>https://x.example/b</loc><lastmod>é` + "\u202e" + `</lastmod></url></urlset>`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  []string
		lines int // the records of JSON lines; 0 for one JSON value
	}{
		{[]string{"-format", "jsonl", path}, 2},
		{[]string{"lint", "-format", "jsonl", path}, 2},
		{[]string{"lint", "-format", "sarif", path}, 0},
		{[]string{"tree", "-format", "json", path}, 0},
	} {
		r := runCLI(t, "", c.args...)
		recs := []string{r.stdout}
		if c.lines > 0 {
			if recs = lines(r.stdout); len(recs) != c.lines {
				t.Errorf("sitemap %s: %d lines, want %d:\n%s", strings.Join(c.args, " "), len(recs), c.lines, r.stdout)
			}
		}
		for _, rec := range recs {
			if !json.Valid([]byte(rec)) || strings.Contains(rec, `\u000a`) {
				t.Errorf("sitemap %s: no JSON: %s", strings.Join(c.args, " "), rec)
			}
		}
	}
}
