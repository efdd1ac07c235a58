package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/printable"
)

// This file is the lint subcommand: sitemap lint URL|FILE prints every
// finding of the document and of the sitemaps it leads to.

const lintUsage = `Usage: sitemap lint [flags] URL|FILE|-

sitemap lint reads a sitemap (and what it leads to) as sitemap does, and
prints every problem it finds, one a line:

  DOCUMENT:LINE:COL: SEVERITY CODE: message

then a summary by code on standard error. LINE and COL are 0 for a finding
about a document as a whole. The codes are listed in the documentation of
sitemap.Code. The exit status is 1 when an error was found, 0 when only
warnings and notes were (or nothing), 2 when the flags are wrong.

A FILE without -base is read as sitemap reads it: the sitemaps it lists
by relative locations are read from its directory, and each document is
named by its path. A file has no site of its own, so the checks of where
a URL stands (loc-other-host, loc-other-scheme, loc-outside-path) and
robots.txt are left out for it. The flags that bound the reading
(-follow, -rules, -since, -max-urls, -max-sitemaps and the others) are
those of sitemap; every entry read is checked, -rules or not.

With -check-pages N it also requests up to N of the pages the sitemaps
list, the same ones on every run, taken across the sitemaps, HEAD first:
at most one request a second to a host unless -host-rate says otherwise,
none that robots.txt disallows, none outside the hosts of the sitemaps.
A page that could not be checked is a page-unchecked note.

Flags:
`

// lintOptions are the flags of sitemap lint, which sitemap report shares:
// those of the findings, and those of sitemap that bound the reading.
type lintOptions struct {
	base, format, userAgent    string
	noRobots, noFollow, robots bool
	maxPerCode, maxFindings    int
	maxResponseSize            int64
	timeout                    seconds
	checkPages                 int
	hostOptions                // polite.go
	readOptions                // main.go
	since                      sinceFlag
}

// lintFlags are the flags of sitemap lint, -format among them when
// withFormat (sitemap report shares the rest).
func (c *command) lintFlags(o *lintOptions, withFormat bool) *flag.FlagSet {
	fs := flag.NewFlagSet("sitemap lint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&o.base, "base", "", "the `URL` a FILE or standard input is located at (default: the file's file:// URL;\nthe checks of where a URL stands and robots.txt need an HTTP(S) URL)")
	if withFormat {
		fs.StringVar(&o.format, "format", outputPlain, "output `FORMAT`: text (one finding a line), jsonl (one JSON object a finding),\nsarif (SARIF 2.1.0, for code scanning) or markdown (a summary for a pull request)")
	}
	fs.BoolVar(&o.noRobots, "no-robots", false, "fetch no robots.txt: robots-disallowed and cross-submission are not checked")
	fs.BoolVar(&o.noFollow, "no-follow", false, "fetch none of the sitemaps the document lists")
	fs.IntVar(&o.maxPerCode, "max-per-code", 0, "list at most `N` findings of one code, 1,000 when 0 (the rest are counted)")
	fs.IntVar(&o.maxFindings, "max-findings", 0, "list at most `N` findings in all, 10,000 when 0 (the rest are counted)")
	fs.Int64Var(&o.maxResponseSize, "max-response-size", sitemap.DefaultMaxResponseSize, "read documents of at most `BYTES` bytes, decompressed or not")
	o.timeout = sitemap.DefaultFetchTimeout
	fs.Var(&o.timeout, "timeout", "the time a request may wait for its server, added up over its response and the reads\nof its body (a slow output costs nothing), in whole `SECONDS`: 10, 10s or 2m (1 to 65535)")
	fs.StringVar(&o.userAgent, "user-agent", sitemap.DefaultUserAgent, "send `TEXT` as the User-Agent header, and check robots.txt for it")
	fs.IntVar(&o.checkPages, "check-pages", 0, "request up to `N` of the pages listed, the same ones on every run, spread across the sitemaps,\nand report their status, redirects, noindex, canonical and Last-Modified (0: none)")
	hostFlags(fs, &o.hostOptions)
	fs.BoolVar(&o.robots, "robots", false, "read the FILE or standard input as a robots.txt, whatever its name")
	readFlags(fs, &o.readOptions)
	fs.Var(&o.since, "since", "leave out the URLs, and do not fetch the sitemaps, whose lastmod is older than `DATE`\n(W3C datetime: 2024-01-15 or 2024-01-15T12:00:00Z)")
	return fs
}

// lint is sitemap lint with args, the arguments after "lint".
func (c *command) lint(ctx context.Context, args []string) int {
	c.con = newConsole(c.stdout, c.stderr, false) // printError writes through it
	var o lintOptions
	fs := c.lintFlags(&o, true)
	target, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, lintUsage)
		fs.SetOutput(c.stdout)
		fs.PrintDefaults()
		return exitOK
	}
	if err == nil && o.format != outputPlain && o.format != outputJSONL && o.format != outputSARIF && o.format != outputMarkdown {
		err = fmt.Errorf("invalid value %q for flag -format: text, jsonl, sarif or markdown expected", o.format)
	}
	if err == nil {
		err = o.check(target)
	}
	if err != nil {
		return c.usageError("sitemap lint", err)
	}
	s, in, code := c.lintCall("lint", &o, target, sitemap.Incremental{Since: o.since.t}, nil)
	defer c.local.close()
	if code != exitOK {
		return code
	}
	defer in.close()
	// The command prints no URL: the call keeps none (EachURL), and its
	// memory stays flat however large the site.
	findings := func(yield func(sitemap.Finding) bool) {
		for f := range s.Lint(ctx, in.loc, in.r, o.lintOptions(func(sitemap.URL) {})) {
			if c.keepLocal(&f) {
				f.Document = c.local.display(f.Document)
				if !yield(f) {
					return
				}
			}
		}
	}
	return c.writeFindings(findings, o.format, artifactOf(target, c.local.display(in.loc)))
}

// check checks what the flags of lint cannot check themselves.
func (o *lintOptions) check(target string) error {
	if o.checkPages < 0 {
		return fmt.Errorf("invalid value %d for flag -check-pages: a number of pages from 0 up expected", o.checkPages)
	}
	return checkInput(target, o.base, o.robots)
}

// lintOptions are the settings of the lint call that o describes, with
// each URL handed to eachURL when it is not nil.
func (o *lintOptions) lintOptions(eachURL func(sitemap.URL)) *sitemap.LintOptions {
	return &sitemap.LintOptions{NoRobots: o.noRobots, MaxPerCode: o.maxPerCode, MaxFindings: o.maxFindings,
		CheckPages: o.checkPages, EachURL: eachURL}
}

// lintCall makes the instance that o describes, for sitemap lint or
// sitemap report (name), with inc its incremental setting, calls prepare
// on it when prepare is not nil, and opens the document given. It returns
// the instance and the input with exitOK, or, having printed why, the
// status to exit with.
//
// The requests go through the library's own client, whose -timeout counts
// the waits for the server alone, as a streaming call's does, not the
// reading of a body that the checks of lint slow down. A FILE given
// without -base is read as sitemap reads one: the sitemaps it lists by
// relative locations are read from its directory, through the command's
// transport, which charges -timeout to a request for another host as the
// library's client does; a file has no site, so no robots.txt is fetched
// for it (see keepLocal).
func (c *command) lintCall(name string, o *lintOptions, target string, inc sitemap.Incremental, prepare func(*sitemap.S) error) (*sitemap.S, *input, int) {
	s := sitemap.New().SetSelection(sitemap.Selection{RootOnly: o.noFollow}).SetMaxResponseSize(o.maxResponseSize).
		SetFetchTimeout(uint16(o.timeout)).SetUserAgent(o.userAgent).SetMultiThread(!o.sequential).
		SetMaxSitemaps(o.maxSitemaps).SetMaxDepth(o.maxDepth).SetMaxConcurrency(o.maxConcurrency).SetFollow(o.follow).
		SetRules(o.rules).SetMaxURLs(o.maxURLs).SetBlockPrivate(o.blockPrivate).SetPoliteness(o.politeness()).
		SetIncremental(inc)
	if s.GetErrorsCount() > 0 {
		for err := range s.Errors() {
			c.printError(err)
		}
		fmt.Fprintf(c.stderr, "Run 'sitemap %s -h' for usage.\n", name)
		return nil, nil, exitUsage
	}
	if prepare != nil {
		if err := prepare(s); err != nil {
			c.printError(err)
			return nil, nil, exitFailed
		}
	}
	c.transport = c.newTransport(o.blockPrivate, o.timeout) // timeout.go
	in, err := c.input(target, &options{base: o.base, robots: o.robots})
	if err != nil {
		c.printError(err)
		return nil, nil, exitFailed
	}
	if c.local != nil {
		o.noRobots = true
		s.SetHTTPClient(&http.Client{Transport: c.transport})
	}
	return s, in, exitOK
}

// keepLocal reports whether the finding f is kept, and writes the URLs
// of the directory of a local file in its message as the paths of their
// files. The checks of where a URL stands make no sense for a file, which
// has no site of its own (it is located at local.invalid): their findings
// about a local document are left out.
func (c *command) keepLocal(f *sitemap.Finding) bool {
	if c.local == nil {
		return true
	}
	if isLocal(f.Document) && siteCheck[f.Code] {
		return false
	}
	f.Message = c.local.message(f.Message)
	return true
}

// siteCheck are the codes of the checks of where a URL stands.
var siteCheck = map[sitemap.Code]bool{
	sitemap.CodeLocOtherHost: true, sitemap.CodeLocOtherScheme: true, sitemap.CodeLocOutsidePath: true,
}

// writeFindings prints the findings in format and their summary, and
// returns the exit status: 1 when one of them is an error. artifact is
// where a finding of a document is, for SARIF.
func (c *command) writeFindings(findings func(func(sitemap.Finding) bool), format string, artifact func(string) string) int {
	bw := bufio.NewWriter(c.stdout)
	var out findingWriter
	switch format {
	case outputSARIF:
		out = newSARIFWriter(bw, artifact) // sarif.go
	case outputMarkdown:
		out = &markdownWriter{w: bw, artifact: artifact} // markdown.go
	case outputJSONL:
		out = jsonlFindings{newJSONEncoder(bw)}
	default:
		out = textFindings{bw}
	}
	// A code's findings are counted by the severity each was given, which
	// may be another than the code's own (duplicate-loc across documents
	// is a note).
	type codeSeverity struct {
		code     sitemap.Code
		severity sitemap.Severity
	}
	counts := map[codeSeverity]int64{}
	var errs, warns, infos int64
	for f := range findings {
		out.write(f)
		n := max(f.More, 1)
		counts[codeSeverity{f.Code, f.Severity}] += n
		switch f.Severity {
		case sitemap.SeverityError:
			errs += n
		case sitemap.SeverityWarning:
			warns += n
		default:
			infos += n
		}
	}
	out.end()
	if err := bw.Flush(); err != nil {
		c.printError(fmt.Errorf("write the output: %w", err))
		return exitFailed
	}
	keys := slices.SortedFunc(maps.Keys(counts), func(a, b codeSeverity) int {
		return cmp.Or(cmp.Compare(a.code, b.code), cmp.Compare(severityRank[a.severity], severityRank[b.severity]))
	})
	for _, k := range keys {
		fmt.Fprintf(c.stderr, "  %-20s %-8s %d\n", k.code, k.severity, counts[k])
	}
	fmt.Fprintf(c.stderr, "Summary: %s, %s, %s\n", count(errs, "error"), count(warns, "warning"), count(infos, "note"))
	if errs > 0 {
		return exitFailed
	}
	return exitOK
}

// severityRank orders the severities, the gravest first.
var severityRank = map[sitemap.Severity]int{sitemap.SeverityError: 0, sitemap.SeverityWarning: 1, sitemap.SeverityInfo: 2}

// findingWriter writes findings in one of the formats of sitemap lint.
type findingWriter interface {
	write(f sitemap.Finding)
	end() // once the last finding is written
}

// textFindings writes a finding a line, as Finding.String does.
type textFindings struct{ w *bufio.Writer }

func (t textFindings) write(f sitemap.Finding) { t.w.WriteString(printable.Escape(f.String()) + "\n") }
func (textFindings) end()                      {}

// jsonlFindings writes a JSON object a finding.
type jsonlFindings struct{ enc *json.Encoder }

func (j jsonlFindings) write(f sitemap.Finding) { j.enc.Encode(f) }
func (jsonlFindings) end()                      {}
