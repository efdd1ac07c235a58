package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"time"

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

With -check-pages N it also requests up to N of the pages the sitemaps
list, the same ones on every run, taken across the sitemaps, HEAD first:
at most one request a second to a host unless -host-rate says otherwise,
none that robots.txt disallows, none outside the hosts of the sitemaps.
A page that could not be checked is a page-unchecked note.

Flags:
`

// lintOptions are the flags of sitemap lint.
type lintOptions struct {
	base, format, userAgent string
	noRobots, noFollow      bool
	maxPerCode, maxFindings int
	maxResponseSize         int64
	timeout                 seconds
	checkPages              int
	hostOptions             // polite.go
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
	fs.Var(&o.timeout, "timeout", "the time a request may take, in whole `SECONDS`")
	fs.StringVar(&o.userAgent, "user-agent", sitemap.DefaultUserAgent, "send `TEXT` as the User-Agent header, and check robots.txt for it")
	fs.IntVar(&o.checkPages, "check-pages", 0, "request up to `N` of the pages listed, the same ones on every run, spread across the sitemaps,\nand report their status, redirects, noindex, canonical and Last-Modified (0: none)")
	hostFlags(fs, &o.hostOptions)
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
	if err == nil && o.checkPages < 0 {
		err = fmt.Errorf("invalid value %d for flag -check-pages: a number of pages from 0 up expected", o.checkPages)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "sitemap lint: %v\nRun 'sitemap lint -h' for usage.\n", err)
		return exitUsage
	}
	s := sitemap.New().SetSelection(sitemap.Selection{RootOnly: o.noFollow}).SetMaxResponseSize(o.maxResponseSize).
		SetFetchTimeout(uint16(o.timeout)).SetUserAgent(o.userAgent).
		SetPoliteness(o.politeness()).SetBlockPrivate(o.blockPrivate)
	if s.GetErrorsCount() > 0 {
		for err := range s.Errors() {
			c.printError(err)
		}
		fmt.Fprintln(c.stderr, "Run 'sitemap lint -h' for usage.")
		return exitUsage
	}
	s.SetHTTPClient(&http.Client{Transport: c.baseTransport(o.blockPrivate), Timeout: time.Duration(o.timeout) * time.Second})
	opts := &sitemap.LintOptions{NoRobots: o.noRobots, MaxPerCode: o.maxPerCode, MaxFindings: o.maxFindings, CheckPages: o.checkPages}

	var findings func(func(sitemap.Finding) bool)
	loc := target
	if isHTTPURL(target) {
		findings = s.Lint(ctx, target, nil, opts)
	} else {
		var r io.Reader
		var closeFn func()
		loc, r, closeFn, err = c.lintInput(target, o.base)
		if err != nil {
			c.printError(err)
			return exitFailed
		}
		defer closeFn()
		findings = s.Lint(ctx, loc, r, opts)
	}
	return c.writeFindings(findings, o.format, artifactOf(target, loc))
}

// lintInput opens the file (or standard input) to lint, and returns the URL
// it is located at.
func (c *command) lintInput(target, base string) (loc string, r io.Reader, closeFn func(), err error) {
	loc, closeFn = base, func() {}
	if target == "-" {
		if loc == "" {
			loc = stdinBase
		}
		return loc, c.stdin, closeFn, nil
	}
	f, err := os.Open(target)
	if err != nil {
		return "", nil, nil, err
	}
	if loc == "" {
		if loc, err = fileURL(target); err != nil {
			f.Close()
			return "", nil, nil, err
		}
	}
	return loc, f, func() { f.Close() }, nil
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
	counts := map[sitemap.Code]int64{}
	var errs, warns, infos int64
	for f := range findings {
		out.write(f)
		n := max(f.More, 1)
		counts[f.Code] += n
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
	codes := make([]sitemap.Code, 0, len(counts))
	for code := range counts {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	for _, code := range codes {
		fmt.Fprintf(c.stderr, "  %-20s %-8s %d\n", code, code.Severity(), counts[code])
	}
	fmt.Fprintf(c.stderr, "Summary: %s, %s, %s\n", count(errs, "error"), count(warns, "warning"), count(infos, "note"))
	if errs > 0 {
		return exitFailed
	}
	return exitOK
}

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
