package main

// This file is discovery in the command: the discover subcommand, which
// prints every candidate a discovery tried, and the discovery that comes
// first when the URL given is a site with no path.

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"iter"
	"net/url"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/printable"
)

const discoverUsageHead = `Usage: sitemap discover [flags] SITE

sitemap discover looks for the sitemaps of SITE (an origin such as
https://example.com, or any URL of the site): the Sitemap: lines of its
robots.txt, the <link rel="sitemap"> elements and the RSS and Atom feeds its
home page announces, and the paths sitemap generators write to
(/sitemap.xml, /sitemap_index.xml, /wp-sitemap.xml, ...). It reads each
candidate to tell whether it is a sitemap, follows none of the sitemaps an
index lists, and prints one line a candidate: what came of it, how it was
found, its URL and, for one that is no sitemap, why.

  sitemap https://example.com     (a URL with no path) discovers the same
                                  way, then prints the URLs of the sitemaps
                                  found.

Outcomes: sitemap, read (the robots.txt or the home page), failed (a status
other than 200, a network error), not-sitemap (an HTML page or a document
that does not parse), duplicate (the same content, or the same document as
one found), skipped (not requested: known already, the follow rules, a
limit or the budget).

Exit status: 0 when a sitemap was found, 1 when none was or the run was
interrupted, 2 when the flags or the argument are wrong.

Flags:
`

// discoverFlags are the flags of discovery, besides those of the command.
type discoverFlags struct {
	fallback bool
	budget   int
}

func (d *discoverFlags) add(fs *flag.FlagSet) {
	fs.BoolVar(&d.fallback, "well-known-fallback", false, "try the well-known paths only when robots.txt and the home page announce no sitemap")
	fs.IntVar(&d.budget, "max-discovery-requests", sitemap.DefaultMaxDiscoveryRequests, "make at most `N` requests of discovery's own: the home page, robots.txt,\nthe well-known paths (0: no limit)")
}

// runDiscover is sitemap discover ARGS.
func (c *command) runDiscover(ctx context.Context, args []string) int {
	var o options
	var d discoverFlags
	fs := c.flags(&o)
	d.add(fs)
	target, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, discoverUsageHead)
		fs.SetOutput(c.stdout)
		fs.PrintDefaults()
		return exitOK
	}
	if err == nil && !isHTTPURL(target) {
		err = fmt.Errorf("an http:// or https:// URL of the site expected, not %q", target)
	}
	if err == nil {
		err = o.check(target)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "sitemap discover: %v\nRun 'sitemap discover -h' for usage.\n", err)
		return exitUsage
	}
	c.con = newConsole(c.stdout, c.stderr, c.progress)
	s, ok := c.configure(&o)
	if !ok {
		return exitUsage
	}
	s.SetWellKnownFallback(d.fallback).SetMaxDiscoveryRequests(d.budget)
	if s.GetErrorsCount() > 0 {
		for err := range s.Errors() {
			c.printError(err)
		}
		return exitUsage
	}
	stopProgress := c.startProgress(s)
	cands, discErr := s.DiscoverSitemaps(ctx, target)
	stopProgress()
	if err := c.con.locked(func() error { return writeCandidates(c.con.stdout, o.format, cands) }); err != nil {
		c.printError(fmt.Errorf("write the output: %w", err))
		return exitFailed
	}
	for err := range s.Errors() {
		c.printError(err)
	}
	found := countFound(cands)
	c.con.errorLine(fmt.Sprintf("Summary: %s tried, %s found, %s fetched, %s", count(int64(len(cands)), "candidate"),
		count(int64(found), "sitemap"), count(c.docs.Load(), "document"), count(s.GetErrorsCount(), "error")))
	if discErr != nil || found == 0 {
		return exitFailed
	}
	return exitOK
}

// countFound returns how many candidates are sitemaps.
func countFound(cands []sitemap.Candidate) int {
	n := 0
	for _, c := range cands {
		if c.Outcome == sitemap.OutcomeSitemap {
			n++
		}
	}
	return n
}

// jsonCandidate is a candidate in the jsonl output.
type jsonCandidate struct {
	URL      string `json:"url"`
	Found    string `json:"found"`
	Outcome  string `json:"outcome"`
	FinalURL string `json:"final_url,omitempty"`
	Error    string `json:"error,omitempty"`
}

// writeCandidates writes the candidates in format: text, one line each
// (outcome, how found, URL, and why after a tab), jsonl or csv.
func writeCandidates(w *bufio.Writer, format string, cands []sitemap.Candidate) error {
	// The cause alone: the line names the URL already.
	why := func(c sitemap.Candidate) string {
		var nerr *sitemap.NetworkError
		var perr *sitemap.ParseError
		switch {
		case c.Err == nil:
			return ""
		case errors.As(c.Err, &nerr):
			return nerr.Err.Error()
		case errors.As(c.Err, &perr):
			return perr.Err.Error()
		}
		return c.Err.Error()
	}
	switch format {
	case outputJSONL:
		enc := newJSONEncoder(w)
		for _, c := range cands {
			if err := enc.Encode(jsonCandidate{c.URL, string(c.Found), string(c.Outcome), c.FinalURL, why(c)}); err != nil {
				return err
			}
		}
	case outputCSV:
		cw := csv.NewWriter(w)
		cw.Write([]string{"outcome", "found", "url", "final_url", "error"})
		for _, c := range cands {
			writeCSV(cw, string(c.Outcome), string(c.Found), c.URL, c.FinalURL, why(c))
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
	default:
		for _, c := range cands {
			fmt.Fprintf(w, "%-11s %-10s %s", c.Outcome, c.Found, printable.Escape(c.URL))
			if c.Err != nil {
				fmt.Fprintf(w, "\t%s", printable.Escape(why(c)))
			}
			w.WriteByte('\n')
		}
	}
	return w.Flush()
}

// isSite reports whether the URL given names a site rather than a
// document: an http(s) URL with a host and no path (or /), no query.
func isSite(target string) bool {
	if !isHTTPURL(target) {
		return false
	}
	u, err := url.Parse(target)
	return err == nil && u.Host != "" && (u.Path == "" || u.Path == "/") && u.RawQuery == ""
}

// discoverSite is the run of a URL that names a site: the sitemaps of the
// site are discovered and read ([sitemap.S.Discover]), which standard
// error says, with each sitemap found and how; then the URLs, and the
// errors, are handed to the loop of list. The URLs are kept until the call
// ends, not streamed: discovery tells a sitemap found twice only once it
// is read.
func (c *command) discoverSite(ctx context.Context, s *sitemap.S, site string) iter.Seq2[sitemap.URL, error] {
	return func(yield func(sitemap.URL, error) bool) {
		c.con.errorLine("Discovery: " + site + " has no path: looking for its sitemaps in robots.txt, the home page and the well-known paths")
		s.Discover(ctx, site)
		found := 0
		for _, cand := range s.GetCandidates() {
			if cand.Outcome == sitemap.OutcomeSitemap {
				found++
				c.con.errorLine(fmt.Sprintf("Discovery: found %s (%s)", cand.URL, cand.Found))
			}
		}
		if found == 0 {
			c.discoveredNone = true
			c.con.errorLine("Discovery: no sitemap found; 'sitemap discover " + site + "' shows what was tried")
		}
		for u := range s.URLs() {
			if !yield(u, nil) {
				return
			}
		}
		for err := range s.Errors() {
			if !yield(sitemap.URL{}, err) {
				return
			}
		}
	}
}
