// Command sitemap reads a sitemap, and the sitemaps it leads to, and prints
// the URLs it finds: one a line, as JSON lines or as CSV.
//
// Install it with
//
//	go install github.com/gositemap/sitemap/cmd/sitemap@latest
//
// and run sitemap -h for its usage.
//
// The argument is a URL, which is fetched, a file, or - for standard input.
// A file or standard input is handed to the library as the content of the
// document, located at the URL that -base gives. Without -base, a file is
// located at its own file:// URL and standard input at file:///dev/stdin:
// relative locations in it then come out as errors (they are no HTTP or
// HTTPS URLs) rather than as guesses, and the sitemaps it lists are only
// fetched when they are absolute HTTP(S) URLs. A robots.txt is recognised by
// that URL as well, so a file named robots.txt is read as one, and standard
// input is read as one when -base names a robots.txt.
//
// Errors go to standard error, one a line, each after the name of its type
// (ConfigError, NetworkError, ParseError, ValidationError; Error for one
// that is not the library's, such as a file that cannot be read), followed
// by a summary line. The exit status is 0 when the document given was read,
// 1 when it was not (or the run was interrupted), 2 when the flags are wrong.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gositemap/sitemap"
)

// stdinBase is where standard input is located when -base is not given.
const stdinBase = "file:///dev/stdin"

// progressInterval is how often the progress line is redrawn.
const progressInterval = 200 * time.Millisecond

// The exit statuses.
const (
	exitOK      = 0 // the document given was read
	exitFailed  = 1 // it was not, or the run was interrupted
	exitUsage   = 2 // bad flags or arguments
	outputPlain = "text"
	outputJSONL = "jsonl"
	outputCSV   = "csv"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the command: it parses args, reads the document they name and
// writes the results to stdout and the errors to stderr. It returns the
// exit status. An interrupt (Ctrl-C) cuts the run short; what was collected
// until then is printed.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	c := &command{stdin: stdin, stdout: stdout, stderr: stderr, progress: isTerminal(stderr)}
	if len(args) > 0 && args[0] == "lint" {
		return c.lint(ctx, args[1:]) // lint.go
	}
	return c.run(ctx, args)
}

// isTerminal reports whether w is a terminal, which is when the progress
// line is drawn.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// command is one run of the command and where it reads and writes.
type command struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	progress       bool // draw a progress line on stderr while the run lasts

	docs atomic.Int64 // documents fetched (or read from the input) so far
}

// options are the flags of the command.
type options struct {
	base                string
	format              string
	sitemaps            bool
	strict              bool
	sequential          bool
	maxURLs             int
	maxSitemaps         int
	maxDepth            int
	maxConcurrency      int
	maxValidationErrors int
	maxResponseSize     int64
	timeout             seconds
	userAgent           string
	follow, rules       patterns
}

func (c *command) flags(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("sitemap", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the messages are written by run
	fs.Usage = func() {}

	fs.StringVar(&o.base, "base", "", "the `URL` a FILE or standard input is located at, against which relative\nlocations are resolved (default: the file's own file:// URL, file:///dev/stdin for -)")
	fs.StringVar(&o.format, "format", outputPlain, "output `FORMAT`: text (one URL a line), jsonl (one JSON object a line, every field)\nor csv (a header row, then one row a URL)")
	fs.BoolVar(&o.sitemaps, "sitemaps", false, "list the sitemaps the documents list, with their dates, instead of the URLs")
	fs.BoolVar(&o.strict, "strict", false, "strict mode: validate URLs and values as the sitemaps.org protocol requires")
	fs.BoolVar(&o.sequential, "sequential", false, "fetch the sitemaps one at a time, in the order they are listed")
	fs.IntVar(&o.maxURLs, "max-urls", sitemap.DefaultMaxURLs, "collect at most `N` URLs (0: no limit)")
	fs.IntVar(&o.maxSitemaps, "max-sitemaps", sitemap.DefaultMaxSitemaps, "fetch, and list, at most `N` sitemaps (0: no limit)")
	fs.IntVar(&o.maxDepth, "max-depth", sitemap.DefaultMaxDepth, "follow at most `N` levels of sitemap indexes (at least 1)")
	fs.IntVar(&o.maxConcurrency, "max-concurrency", sitemap.DefaultMaxConcurrency, "work on at most `N` sitemaps at the same time (0: no limit)")
	fs.IntVar(&o.maxValidationErrors, "max-validation-errors", sitemap.DefaultMaxValidationErrors, "record at most `N` validation errors (0: no limit)")
	fs.Int64Var(&o.maxResponseSize, "max-response-size", sitemap.DefaultMaxResponseSize, "read documents of at most `BYTES` bytes, decompressed or not")
	o.timeout = sitemap.DefaultFetchTimeout
	fs.Var(&o.timeout, "timeout", "the time a request may take, in whole `SECONDS`: 10, 10s or 2m (1 to 65535 seconds)")
	fs.StringVar(&o.userAgent, "user-agent", sitemap.DefaultUserAgent, "send `TEXT` as the User-Agent header of the requests")
	fs.Var(&o.follow, "follow", "fetch only the sitemaps whose URL matches the regular expression `RE`\n(repeatable: any of them; the document given is always read)")
	fs.Var(&o.rules, "rules", "keep only the URLs that match the regular expression `RE` (repeatable: any of them)")
	return fs
}

func (c *command) run(ctx context.Context, args []string) int {
	var o options
	fs := c.flags(&o)
	target, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.usage(fs, c.stdout)
		return exitOK
	}
	if err == nil {
		err = o.check(target)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "sitemap: %v\nRun 'sitemap -h' for usage.\n", err)
		return exitUsage
	}

	s, ok := c.configure(&o)
	if !ok {
		return exitUsage
	}

	loc, content, err := c.input(target, &o)
	if err != nil {
		c.printError(err)
		c.summary(s, 1)
		return exitFailed
	}

	stopProgress := c.startProgress(s)
	_, parseErr := s.ParseContext(ctx, loc, content)
	stopProgress()

	if err := c.output(s, &o); err != nil {
		c.printError(fmt.Errorf("write the output: %w", err))
		return exitFailed
	}
	for err := range s.Errors() {
		c.printError(err)
	}
	c.summary(s, 0)
	if parseErr != nil {
		return exitFailed
	}
	return exitOK
}

// parseArgs parses the flags, which may stand before and after the
// argument, and returns the argument.
func parseArgs(fs *flag.FlagSet, args []string) (string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if i := len(args) - len(rest) - 1; i >= 0 && args[i] == "--" {
			operands = append(operands, rest...)
			break
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
	if len(operands) != 1 {
		return "", fmt.Errorf("one URL, FILE or - expected, %d given", len(operands))
	}
	return operands[0], nil
}

// check checks what the flags cannot check themselves.
func (o *options) check(target string) error {
	switch o.format {
	case outputPlain, outputJSONL, outputCSV:
	default:
		return fmt.Errorf("invalid value %q for flag -format: text, jsonl or csv expected", o.format)
	}
	if o.base == "" {
		return nil
	}
	if isHTTPURL(target) {
		return errors.New("-base is for a FILE or standard input: a URL is located where it is fetched from")
	}
	u, err := url.Parse(o.base)
	if err != nil {
		return fmt.Errorf("invalid value %q for flag -base: %v", o.base, err)
	}
	if !u.IsAbs() {
		return fmt.Errorf("invalid value %q for flag -base: an absolute URL expected", o.base)
	}
	return nil
}

// configure makes the instance the flags describe. It reports false, after
// printing them, when the library rejects a value.
func (c *command) configure(o *options) (*sitemap.S, bool) {
	s := sitemap.New().
		SetStrict(o.strict).
		SetMultiThread(!o.sequential).
		SetMaxURLs(o.maxURLs).
		SetMaxSitemaps(o.maxSitemaps).
		SetMaxDepth(o.maxDepth).
		SetMaxConcurrency(o.maxConcurrency).
		SetMaxValidationErrors(o.maxValidationErrors).
		SetMaxResponseSize(o.maxResponseSize).
		SetFetchTimeout(uint16(o.timeout)).
		SetUserAgent(o.userAgent).
		SetFollow(o.follow).
		SetRules(o.rules)
	// The requests go through a transport that counts the documents
	// fetched. With a client of its own, the library leaves the timeout to
	// the client, so the client carries the one of -timeout.
	s.SetHTTPClient(&http.Client{
		Transport: &countingTransport{base: http.DefaultTransport, n: &c.docs},
		Timeout:   time.Duration(o.timeout) * time.Second,
	})
	if s.GetErrorsCount() == 0 {
		return s, true
	}
	for err := range s.Errors() {
		c.printError(err)
	}
	fmt.Fprintln(c.stderr, "Run 'sitemap -h' for usage.")
	return s, false
}

// input returns the URL to parse and, for a file or standard input, its
// content.
func (c *command) input(target string, o *options) (loc string, content *string, err error) {
	if isHTTPURL(target) {
		return target, nil, nil
	}
	var r io.Reader
	loc = o.base
	if target == "-" {
		r = c.stdin
		if loc == "" {
			loc = stdinBase
		}
	} else {
		f, err := os.Open(target)
		if err != nil {
			return "", nil, err
		}
		defer f.Close()
		r = f
		if loc == "" {
			if loc, err = fileURL(target); err != nil {
				return "", nil, err
			}
		}
	}
	data, err := readCapped(r, o.maxResponseSize)
	if err != nil {
		if target == "-" {
			target = "standard input"
		}
		return "", nil, fmt.Errorf("read %s: %w", target, err)
	}
	c.docs.Add(1)
	text := string(data)
	return loc, &text, nil
}

// readCapped reads r to its end, like a response body is read: refusing
// more than limit bytes, so that an endless input does not fill memory.
func readCapped(r io.Reader, limit int64) ([]byte, error) {
	if limit < math.MaxInt64 {
		r = io.LimitReader(r, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("input is larger than the limit of %d bytes (-max-response-size): %w", limit, sitemap.ErrMaxResponseSize)
	}
	return data, nil
}

// isHTTPURL reports whether the argument is a URL to fetch rather than the
// name of a file.
func isHTTPURL(s string) bool {
	i := strings.Index(s, "://")
	if i < 0 {
		return false
	}
	scheme := strings.ToLower(s[:i])
	return scheme == "http" || scheme == "https"
}

// fileURL returns the file:// URL of the file at path.
func fileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/...
	}
	return (&url.URL{Scheme: "file", Path: p}).String(), nil
}

// printError writes err on a line of its own, after the name of its type.
func (c *command) printError(err error) {
	msg := strings.ReplaceAll(err.Error(), "\n", "; ")
	fmt.Fprintf(c.stderr, "%s: %s\n", errorType(err), msg)
}

func errorType(err error) string {
	switch err.(type) {
	case *sitemap.ConfigError:
		return "ConfigError"
	case *sitemap.NetworkError:
		return "NetworkError"
	case *sitemap.ParseError:
		return "ParseError"
	case *sitemap.ValidationError:
		return "ValidationError"
	}
	return "Error"
}

// summary writes the last line: documents fetched, URLs, sitemaps listed
// and errors. extra counts errors printed that the instance does not hold.
func (c *command) summary(s *sitemap.S, extra int) {
	fmt.Fprintf(c.stderr, "Summary: %s fetched, %s, %s listed, %s\n",
		count(c.docs.Load(), "document"), count(s.GetURLCount(), "URL"),
		count(s.GetSitemapCount(), "sitemap"), count(s.GetErrorsCount()+int64(extra), "error"))
}

func count(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}

// startProgress draws the progress line on stderr, redrawn in place until
// the function it returns is called, which clears it. It draws nothing when
// stderr is not a terminal.
func (c *command) startProgress(s *sitemap.S) (stop func()) {
	if !c.progress {
		return func() {}
	}
	draw := func() {
		fmt.Fprintf(c.stderr, "\r\x1b[K%s fetched, %s found",
			count(c.docs.Load(), "document"), count(s.GetURLCount(), "URL"))
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	draw()
	wg.Go(func() {
		t := time.NewTicker(progressInterval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				draw()
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		fmt.Fprint(c.stderr, "\r\x1b[K")
	}
}

// countingTransport counts the responses with status 200 OK: the documents
// fetched. Redirects and failed requests are not documents.
type countingTransport struct {
	base http.RoundTripper
	n    *atomic.Int64
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusOK {
		t.n.Add(1)
	}
	return resp, err
}

// seconds is the value of -timeout: whole seconds, given as a number or as
// a duration.
type seconds uint16

func (s *seconds) String() string { return (time.Duration(*s) * time.Second).String() }

func (s *seconds) Set(v string) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		d, derr := time.ParseDuration(v)
		if derr != nil {
			return errors.New("a number of seconds or a duration such as 30s expected")
		}
		if d < 0 || d%time.Second != 0 {
			return errors.New("a whole number of seconds expected")
		}
		n = uint64(d / time.Second)
	}
	if n > math.MaxUint16 {
		return fmt.Errorf("at most %d seconds", math.MaxUint16)
	}
	*s = seconds(n)
	return nil
}

// patterns is the value of a repeatable flag.
type patterns []string

func (p *patterns) String() string { return strings.Join(*p, " ") }

func (p *patterns) Set(v string) error {
	*p = append(*p, v)
	return nil
}
