package main

// This file is discovery in the command: the discover subcommand, which
// prints the sitemaps a discovery found (and, with -v or -format jsonl,
// every place it tried), and the discovery that comes first when the URL
// given is a site with no path.

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"iter"
	"net/url"
	"strconv"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/printable"
)

const discoverUsageHead = `Usage: sitemap discover [flags] SITE

sitemap discover looks for the sitemaps of SITE (an origin such as
https://example.com, or any URL of the site): the Sitemap: lines of its
robots.txt, the <link rel="sitemap"> elements and the RSS and Atom feeds its
home page announces, and the paths sitemap generators write to
(/sitemap.xml, /sitemap_index.xml, /wp-sitemap.xml, ...). It reads each
place to tell whether it is a sitemap, follows none of the sitemaps an
index lists, and prints one line a sitemap found: how it was found
(robots, home-page, feed, well-known) and its URL.

With -v, every place tried goes to standard error as well, with what came
of it and why; -format jsonl or csv writes every place tried, one object or
row each, with its status, instead of the sitemaps found.

  sitemap https://example.com     (a URL with no path) discovers the same
                                  way, then prints the URLs of the sitemaps
                                  found.

Statuses: parsed (a sitemap, or the robots.txt or home page read for what
it names), failed (a status other than 200, a network error), not-sitemap
(an HTML page or a document that does not parse), duplicate (the same
content, or the same document as one found), not-followed, limited,
not-reached (not requested: the follow rules, a limit or the budget, the
end of the run).

Exit status: 0 when a sitemap was found, 1 when none was or the run was
interrupted, 2 when the flags or the argument are wrong.

Flags:
`

// discoverFlags are the flags of discovery, besides those of the command.
type discoverFlags struct {
	fallback bool
	budget   int
	verbose  bool
}

func (d *discoverFlags) add(fs *flag.FlagSet) {
	fs.BoolVar(&d.fallback, "well-known-fallback", false, "try the well-known paths only when robots.txt and the home page announce no sitemap")
	fs.IntVar(&d.budget, "max-discovery-requests", 0, "make at most `N` requests of discovery's own: the home page, robots.txt,\nthe well-known paths (0: 32, room for all of them)")
	fs.BoolVar(&d.verbose, "v", false, "write every place tried, with what came of it, to standard error")
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
	if err == nil && d.budget < 0 {
		err = fmt.Errorf("-max-discovery-requests: a negative budget, %d", d.budget)
	}
	if err == nil {
		err = o.check(target)
	}
	if err != nil {
		return c.usageError("sitemap discover", err)
	}
	c.con = newConsole(c.stdout, c.stderr, c.progress)
	s, ok := c.configure(&o)
	if !ok {
		return exitUsage
	}
	// Find without reading further: each place is read to tell whether it
	// is a sitemap, and nothing the sitemaps found list is fetched.
	s.SetSelection(sitemap.Selection{RootOnly: true})
	if s.GetErrorsCount() > 0 {
		for err := range s.Errors() {
			c.printError(err)
		}
		return exitUsage
	}
	stopProgress := c.startProgress(s)
	var discErr error
	opt := &sitemap.DiscoverOptions{MaxRequests: d.budget, WellKnownFallback: d.fallback}
	for _, err := range s.DiscoverStream(ctx, target, opt) {
		// The URLs are not the output: the sitemaps they came from are.
		if err != nil {
			c.printError(err)
			discErr = err
		}
	}
	stopProgress()
	places := placesOf(s.GetDocuments())
	if err := c.con.locked(func() error { return writePlaces(c.con.stdout, o.format, places) }); err != nil {
		c.printError(fmt.Errorf("write the output: %w", err))
		return exitFailed
	}
	if d.verbose {
		for _, p := range places {
			c.con.errorLine(placeLine(p))
		}
	}
	found := 0
	for _, p := range places {
		if isFoundSitemap(p) {
			found++
		}
	}
	if found == 0 && !d.verbose {
		c.con.errorLine("No sitemap found; -v lists the places tried and what came of each")
	}
	c.con.errorLine(fmt.Sprintf("Summary: %s tried, %s found, %s fetched, %s", count(int64(len(places)), "place"),
		count(int64(found), "sitemap"), count(c.docs.Load(), "document"), count(s.GetErrorsCount(), "error")))
	if found == 0 || ctx.Err() != nil || isCut(discErr, target) {
		return exitFailed
	}
	return exitOK
}

// isCut reports whether err is the error of a discovery of site that was
// cut short.
func isCut(err error, site string) bool {
	var perr *sitemap.ParseError
	return errors.As(err, &perr) && perr.URL == site
}

// placesOf returns the places a discovery tried, among the documents of its
// call: those it came to on its own (the site itself and what an index
// lists are none).
func placesOf(docs []sitemap.Document) []sitemap.Document {
	var out []sitemap.Document
	for _, d := range docs {
		switch d.Found {
		case sitemap.FoundRobots, sitemap.FoundHomePage, sitemap.FoundFeed, sitemap.FoundWellKnown:
			out = append(out, d)
		}
	}
	return out
}

// isFoundSitemap reports whether the place d is a sitemap found: read as
// one, and neither the robots.txt nor the home page that name sitemaps.
func isFoundSitemap(d sitemap.Document) bool {
	return (d.Status == sitemap.StatusParsed || d.Status == sitemap.StatusPartial) &&
		d.Format != sitemap.FormatRobots && d.Format != sitemap.FormatHTML
}

// why returns the cause of what came of a place, without its URL, which
// the line names already; empty when there is none.
func why(d sitemap.Document) string {
	var nerr *sitemap.NetworkError
	var perr *sitemap.ParseError
	switch {
	case d.Err == nil:
		return ""
	case errors.As(d.Err, &nerr):
		return nerr.Err.Error()
	case errors.As(d.Err, &perr):
		return perr.Err.Error()
	}
	return d.Err.Error()
}

// placeLine is the line of a place tried on standard error (-v): what came
// of it, how it was found, its URL and, after a tab, why.
func placeLine(d sitemap.Document) string {
	line := fmt.Sprintf("%-12s %-10s %s", d.Status, d.Found, d.URL)
	if w := why(d); w != "" {
		line += "\t" + w
	}
	return line
}

// jsonPlace is a place tried in the jsonl output.
type jsonPlace struct {
	URL        string `json:"url"`
	Found      string `json:"found"`
	Status     string `json:"status"`
	Sitemap    bool   `json:"sitemap"`
	Format     string `json:"format,omitempty"`
	FinalURL   string `json:"final_url,omitempty"`
	HTTPStatus int    `json:"http_status,omitempty"`
	Error      string `json:"error,omitempty"`
}

// writePlaces writes the outcome of a discovery in format: text, one line
// a sitemap found (how it was found, then its URL); jsonl or csv, every
// place tried with its status.
func writePlaces(w *bufio.Writer, format string, places []sitemap.Document) error {
	switch format {
	case outputJSONL:
		enc := newJSONEncoder(w)
		for _, d := range places {
			finalURL := d.FinalURL
			if finalURL == d.URL {
				finalURL = ""
			}
			if err := enc.Encode(jsonPlace{d.URL, string(d.Found), string(d.Status), isFoundSitemap(d),
				string(d.Format), finalURL, d.HTTPStatus, why(d)}); err != nil {
				return err
			}
		}
	case outputCSV:
		cw := csv.NewWriter(w)
		cw.Write([]string{"status", "found", "url", "sitemap", "final_url", "error"})
		for _, d := range places {
			writeCSV(cw, string(d.Status), string(d.Found), d.URL, strconv.FormatBool(isFoundSitemap(d)), d.FinalURL, why(d))
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
	default:
		for _, d := range places {
			if isFoundSitemap(d) {
				fmt.Fprintf(w, "%-10s %s\n", d.Found, printable.Escape(d.URL))
			}
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
// site are discovered and read ([sitemap.S.DiscoverStream]), which
// standard error says; the URLs and the errors are handed to the loop of
// list as they come, then standard error names each sitemap found and how.
func (c *command) discoverSite(ctx context.Context, s *sitemap.S, site string) iter.Seq2[sitemap.URL, error] {
	return func(yield func(sitemap.URL, error) bool) {
		c.con.errorLine("Discovery: " + site + " has no path: looking for its sitemaps in robots.txt, the home page and the well-known paths")
		for u, err := range s.DiscoverStream(ctx, site, nil) {
			if !yield(u, err) {
				return
			}
		}
		found := 0
		for _, d := range placesOf(s.GetDocuments()) {
			if isFoundSitemap(d) {
				found++
				c.con.errorLine(fmt.Sprintf("Discovery: found %s (%s)", d.URL, d.Found))
			}
		}
		if found == 0 {
			c.discoveredNone = true
			c.con.errorLine("Discovery: no sitemap found; 'sitemap discover -v " + site + "' shows what was tried")
		}
	}
}
