package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"

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

It takes the flags of sitemap lint but -format, and reads a FILE as
sitemap lint does: the sitemaps it lists by relative locations are read
from its directory, and the checks of where a URL stands and robots.txt
are left out for it. The URLs -rules leaves out are checked but neither
counted nor drawn.

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
// but -format, and those of sitemap's change detection.
type reportOptions struct {
	lintOptions
	title                string
	state                string
	stateReset, noResume bool
	trustLastmod         bool
}

func (c *command) reportFlags(o *reportOptions) *flag.FlagSet {
	fs := c.lintFlags(&o.lintOptions, false)
	fs.Init("sitemap report", flag.ContinueOnError)
	fs.StringVar(&o.title, "title", "", "the `TEXT` that heads the page (default: Sitemap report and the URL)")
	fs.StringVar(&o.state, "state", "", "compare the URLs with the last run that used the state `FILE`, and show what changed")
	fs.BoolVar(&o.stateReset, "state-reset", false, "with -state, start afresh from a state file that cannot be read, rather than stop")
	fs.BoolVar(&o.noResume, "no-resume", false, "with -state, start a full run even when the last one was cut short")
	fs.BoolVar(&o.trustLastmod, "trust-index-lastmod", false, "with -state, do not fetch a sitemap whose index gives it the lastmod it had at the last run")
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
	if err == nil {
		err = o.check(target)
	}
	if err == nil && o.state == "" && (o.stateReset || o.noResume || o.trustLastmod) {
		err = errors.New("-state-reset, -no-resume and -trust-index-lastmod are for a run with -state FILE")
	}
	if err != nil {
		return c.usageError("sitemap report", err)
	}
	c.con = newConsole(c.stdout, c.stderr, false)
	inc := sitemap.Incremental{Since: o.since.t, Changes: o.state != "", NoResume: o.noResume, TrustIndexLastMod: o.trustLastmod}
	s, in, code := c.lintCall("report", &o.lintOptions, target, inc, func(s *sitemap.S) error {
		return c.openState(s, &options{state: o.state, stateReset: o.stateReset}) // polite.go
	})
	defer c.local.close()
	if code != exitOK {
		return code
	}
	defer in.close()
	defer c.closeState()

	rep := &report.Report{Title: o.title, Display: c.local.display}
	bySeverity := map[sitemap.Severity]int64{}
	for f := range s.Lint(ctx, in.loc, in.r, o.lintOptions.lintOptions(rep.AddURL)) {
		if c.keepLocal(&f) {
			rep.AddFinding(f)
			bySeverity[f.Severity] += max(f.More, 1)
		}
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
