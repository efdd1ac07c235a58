package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/report"
)

// This file is the report subcommand: sitemap report URL|FILE writes one
// self-contained HTML page of what one lint call saw (package report).

const reportUsage = `Usage: sitemap report [flags] URL|FILE|- > report.html

sitemap report reads a sitemap, and what it leads to, in one call as
sitemap lint does, and writes one HTML page of it on standard output:
summary cards, the tree of the documents folded by index, the findings of
lint grouped by code with their first places, and a histogram of lastmod
by month. The page needs nothing else (no script, no style sheet, no font,
no image is requested) and reads with JavaScript off and in print.

The call keeps no URL: memory stays flat however large the site, and the
page lists no URL one by one beyond the first places of each code.

A FILE without -base is read as sitemap tree reads it: the sitemaps it
lists by relative locations are read from its directory. A file has no
site of its own, so the checks of where a URL stands (loc-other-host,
loc-other-scheme, loc-outside-path) and robots.txt are left out for it,
as sitemap lint leaves them out for a file.

With -state FILE, the URLs are compared with those of the last run that
used FILE (a run of sitemap report, or of sitemap -state), and the page
shows the changes since: how many URLs are new, changed (their lastmod),
gone, unchanged and unknown (in a sitemap not read whole), with the first
20 of those new, changed and gone. As with sitemap -state, a sitemap its
server says has not changed (304) is not read again: its URLs count as
unchanged, and its findings are not in the page.

The exit status is that of sitemap lint: 1 when an error was found, 0
when only warnings and notes were (or nothing), 2 when the flags are
wrong.

Flags:
`

// reportOptions are the flags of sitemap report: those of sitemap lint
// but -format, and those of sitemap that bound the reading.
type reportOptions struct {
	lintOptions
	title                                       string
	sequential                                  bool
	maxURLs, maxSitemaps, maxDepth, concurrency int
	follow                                      patterns
	state                                       string
	stateReset                                  bool
}

func (c *command) reportFlags(o *reportOptions) *flag.FlagSet {
	fs := c.lintFlags(&o.lintOptions, false)
	fs.Init("sitemap report", flag.ContinueOnError)
	fs.StringVar(&o.title, "title", "", "the `TEXT` that heads the page (default: Sitemap report and the URL)")
	fs.BoolVar(&o.sequential, "sequential", false, "fetch the sitemaps one at a time, in the order they are listed")
	fs.IntVar(&o.maxSitemaps, "max-sitemaps", sitemap.DefaultMaxSitemaps, "fetch, and list, at most `N` sitemaps (0: no limit)")
	fs.IntVar(&o.maxDepth, "max-depth", sitemap.DefaultMaxDepth, "follow at most `N` levels of sitemap indexes (at least 1)")
	fs.IntVar(&o.concurrency, "max-concurrency", sitemap.DefaultMaxConcurrency, "work on at most `N` sitemaps at the same time (0: no limit)")
	fs.Var(&o.follow, "follow", "fetch only the sitemaps whose URL matches the regular expression `RE` (repeatable)")
	fs.IntVar(&o.maxURLs, "max-urls", sitemap.DefaultMaxURLs, "read at most `N` URLs (0: no limit)")
	fs.StringVar(&o.state, "state", "", "compare the URLs with the last run that used the state `FILE`, and show what changed")
	fs.BoolVar(&o.stateReset, "state-reset", false, "with -state, start afresh from a state file that cannot be read, rather than stop")
	return fs
}

// report is sitemap report with args, the arguments after "report".
func (c *command) report(ctx context.Context, args []string) int {
	var o reportOptions
	fs := c.reportFlags(&o)
	target, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, reportUsage)
		fs.SetOutput(c.stdout)
		fs.PrintDefaults()
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "sitemap report: %v\nRun 'sitemap report -h' for usage.\n", err)
		return exitUsage
	}
	c.con = newConsole(c.stdout, c.stderr, false)
	s := sitemap.New().SetSelection(sitemap.Selection{RootOnly: o.noFollow}).SetMaxResponseSize(o.maxResponseSize).
		SetFetchTimeout(uint16(o.timeout)).SetUserAgent(o.userAgent).SetMultiThread(!o.sequential).
		SetMaxSitemaps(o.maxSitemaps).SetMaxDepth(o.maxDepth).SetMaxConcurrency(o.concurrency).SetFollow(o.follow).
		SetMaxURLs(o.maxURLs).SetBlockPrivate(o.blockPrivate).
		SetPoliteness(o.politeness())
	if o.state != "" {
		s.SetIncremental(sitemap.Incremental{Changes: true})
	}
	if s.GetErrorsCount() > 0 {
		for err := range s.Errors() {
			c.printError(err)
		}
		fmt.Fprintln(c.stderr, "Run 'sitemap report -h' for usage.")
		return exitUsage
	}
	if err := c.openState(s, &options{state: o.state, stateReset: o.stateReset}); err != nil { // polite.go
		c.printError(err)
		return exitFailed
	}
	// The library's own client charges -timeout to the waits for the
	// server alone, as a streaming call does, not to the reading of a
	// body that the checks of lint slow down: a URL is read with it. The
	// sitemaps of a local file are read through the file's transport,
	// whose requests for other hosts wait -timeout at most for the
	// response's header.
	var base http.RoundTripper = http.DefaultTransport
	if t, ok := c.baseTransport(o.blockPrivate).(*http.Transport); ok {
		t = t.Clone()
		t.ResponseHeaderTimeout = time.Duration(o.timeout) * time.Second
		base = t
	}
	c.transport = &countingTransport{base: base, n: &c.docs}

	loc, r := target, io.Reader(nil)
	if !isHTTPURL(target) {
		in, err := c.input(target, &options{base: o.base})
		defer c.local.close()
		if err != nil {
			c.printError(err)
			return exitFailed
		}
		defer in.close()
		loc, r = in.loc, in.r
		if c.local != nil {
			o.noRobots = true
			s.SetHTTPClient(&http.Client{Transport: c.transport})
		}
	}
	rep := &report.Report{Title: o.title, Display: c.local.display}
	opts := &sitemap.LintOptions{NoRobots: o.noRobots, MaxPerCode: o.maxPerCode, MaxFindings: o.maxFindings, CheckPages: o.checkPages, EachURL: rep.AddURL}
	bySeverity := map[sitemap.Severity]int64{}
	for f := range s.Lint(ctx, loc, r, opts) {
		if c.local != nil && isLocal(f.Document) && siteCheck[f.Code] {
			continue // a file has no site: see reportUsage
		}
		f.Message = c.local.message(f.Message)
		rep.AddFinding(f)
		bySeverity[f.Severity] += max(f.More, 1)
	}
	docs := s.GetDocuments()
	urls := 0
	for _, d := range docs {
		urls += d.URLs
	}
	bw := bufio.NewWriter(c.stdout)
	err = rep.WriteHTML(bw, docs)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		c.printError(fmt.Errorf("write the report: %w", err))
		return exitFailed
	}
	fmt.Fprintf(c.stderr, "Summary: %s, %s; %s, %s, %s\n", count(int64(len(docs)), "document"), count(int64(urls), "URL"),
		count(bySeverity[sitemap.SeverityError], "error"), count(bySeverity[sitemap.SeverityWarning], "warning"), count(bySeverity[sitemap.SeverityInfo], "note"))
	c.changeSummary(s) // changes.go
	if bySeverity[sitemap.SeverityError] > 0 || ctx.Err() != nil {
		return exitFailed
	}
	return exitOK
}

// siteCheck are the codes of the checks of where a URL stands, which
// make no sense for a local file, located at local.invalid.
var siteCheck = map[sitemap.Code]bool{
	sitemap.CodeLocOtherHost: true, sitemap.CodeLocOtherScheme: true, sitemap.CodeLocOutsidePath: true,
}
