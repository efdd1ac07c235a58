// Command sitemap reads a sitemap, and the sitemaps it leads to, and prints
// the URLs it finds as it finds them: one a line, as JSON lines or as CSV.
// sitemap tree prints the documents it read instead, with the state of
// each.
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
// located in its directory: the sitemaps it lists by relative locations are
// read from that directory, or below it, through an [os.Root] (so never
// above it, by .. or by a symbolic link), and a page it lists by a relative
// location is reported rather than guessed. The library still sees HTTPS
// URLs only: the file is located at https://local.invalid/ followed by its
// absolute path, a host that cannot resolve, and the command's transport
// answers the requests for that host from the directory. The transport is
// there only when the document given is a file: a URL given never leads to
// a file being read. In strict mode, which wants every location absolute
// and on the site of its sitemap, a file without -base is taken to be on the
// site of its first location instead, with a note. Standard input without
// -base is located at file:///dev/stdin, where relative locations are
// errors. A robots.txt is recognised by its URL, so a file named robots.txt
// is read as one; -robots reads any file or standard input as one.
//
// The URLs are written as the library hands them on ([sitemap.S.Stream]),
// through a buffer that is flushed every tenth of a second, so that the
// output starts when the first sitemap is parsed and memory does not grow
// with the URLs.
//
// A URL with no path (or /) names a site: its sitemaps are discovered
// first ([sitemap.S.Discover]: its robots.txt, its home page's links and
// feeds, the well-known paths), standard error says which were found, and
// their URLs are written once the call has ended; a run that finds none
// exits 1. sitemap discover SITE prints every place the discovery tried,
// what came of it and how it was found, without reading further.
//
// Errors go to standard error, one a line, each after the name of its type
// (ConfigError, NetworkError, ParseError, ValidationError; Error for one
// that is not the library's, such as a file that cannot be read), as they
// are recorded, followed by a summary line. The exit status is 0 when the
// document given was read, 1 when it was not (or the run was interrupted),
// 2 when the flags are wrong.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"math"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/urlnorm"
	"github.com/gositemap/sitemap/store"
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
	outputJSON  = "json" // the tree's form for machines
	// The forms of sitemap lint for code review (sarif.go).
	outputSARIF, outputMarkdown = "sarif", "markdown"
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
	defer c.closeState() // polite.go
	if len(args) > 0 && args[0] == "lint" {
		return c.lint(ctx, args[1:]) // lint.go
	}
	if len(args) > 0 && args[0] == "report" {
		return c.report(ctx, args[1:]) // report.go
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

	con       *console           // stdout and stderr of the run
	transport *countingTransport // the transport of the requests
	local     *localDir          // the directory of a local file given without -base
	docs      atomic.Int64       // documents fetched (or read from the input) so far
	urls      atomic.Int64       // URLs written so far
	extra     atomic.Int64       // errors of the command's own, which the instance does not hold

	discoveredNone bool        // the site given has no sitemap that discovery found (discover.go)
	state          *store.File // the store of -state, nil when none (polite.go)
}

// options are the flags of the command.
type options struct {
	base     string
	format   string
	sitemaps bool
	strict   bool
	readOptions
	maxValidationErrors int
	maxResponseSize     int64
	timeout             seconds
	userAgent           string
	robots              bool
	noFollow            bool
	tree                bool   // sitemap tree: print the documents of the call
	hostOptions                // polite.go
	state               string // polite.go
	stateReset          bool   // polite.go
	trustLastmod        bool   // polite.go
	changes, noResume   bool   // changes.go
	since               sinceFlag
}

func (c *command) flags(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("sitemap", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the messages are written by run
	fs.Usage = func() {}

	fs.StringVar(&o.base, "base", "", "the `URL` a FILE or standard input is located at, against which relative\nlocations are resolved (default: a FILE is read in its directory, see above;\nfile:///dev/stdin for -)")
	fs.StringVar(&o.format, "format", outputPlain, "output `FORMAT`: text (one URL a line), jsonl (one JSON object a line, every field)\nor csv (a header row, then one row a URL); for sitemap tree, text or json")
	fs.BoolVar(&o.sitemaps, "sitemaps", false, "list the sitemaps the documents list, with their dates, instead of the URLs")
	fs.BoolVar(&o.strict, "strict", false, "strict mode: validate URLs and values as the sitemaps.org protocol requires")
	readFlags(fs, &o.readOptions)
	fs.IntVar(&o.maxValidationErrors, "max-validation-errors", sitemap.DefaultMaxValidationErrors, "record at most `N` validation errors (0: no limit)")
	fs.Int64Var(&o.maxResponseSize, "max-response-size", sitemap.DefaultMaxResponseSize, "read documents of at most `BYTES` bytes, decompressed or not")
	o.timeout = sitemap.DefaultFetchTimeout
	fs.Var(&o.timeout, "timeout", "the time a request may wait for its server, added up over its response and the reads\nof its body (a slow output costs nothing), in whole `SECONDS`: 10, 10s or 2m (1 to 65535)")
	fs.StringVar(&o.userAgent, "user-agent", sitemap.DefaultUserAgent, "send `TEXT` as the User-Agent header of the requests")
	fs.BoolVar(&o.noFollow, "no-follow", false, "read the document given and list the sitemaps it names, without fetching any of them")
	fs.BoolVar(&o.robots, "robots", false, "read the FILE or standard input as a robots.txt, whatever its name")
	politeFlags(fs, o)
	changeFlags(fs, o)
	return fs
}

// readOptions are the flags that bound the reading, which sitemap lint
// and sitemap report share.
type readOptions struct {
	sequential     bool
	maxURLs        int
	maxSitemaps    int
	maxDepth       int
	maxConcurrency int
	follow, rules  patterns
}

// readFlags adds the flags of o to fs.
func readFlags(fs *flag.FlagSet, o *readOptions) {
	fs.BoolVar(&o.sequential, "sequential", false, "fetch the sitemaps one at a time, in the order they are listed")
	fs.IntVar(&o.maxURLs, "max-urls", sitemap.DefaultMaxURLs, "collect at most `N` URLs (0: no limit)")
	fs.IntVar(&o.maxSitemaps, "max-sitemaps", sitemap.DefaultMaxSitemaps, "fetch, and list, at most `N` sitemaps (0: no limit)")
	fs.IntVar(&o.maxDepth, "max-depth", sitemap.DefaultMaxDepth, "follow at most `N` levels of sitemap indexes (at least 1)")
	fs.IntVar(&o.maxConcurrency, "max-concurrency", sitemap.DefaultMaxConcurrency, "work on at most `N` sitemaps at the same time (0: no limit)")
	fs.Var(&o.follow, "follow", "fetch only the sitemaps whose URL matches the regular expression `RE`\n(repeatable: any of them; the document given is always read)")
	fs.Var(&o.rules, "rules", "keep only the URLs that match the regular expression `RE` (repeatable: any of them)")
}

func (c *command) run(ctx context.Context, args []string) int {
	if len(args) > 0 && args[0] == "discover" {
		return c.runDiscover(ctx, args[1:]) // discover.go
	}
	var o options
	if len(args) > 1 && args[0] == "tree" {
		o.tree, args = true, args[1:]
	}
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
		return c.usageError("sitemap", err)
	}

	c.con = newConsole(c.stdout, c.stderr, c.progress)
	s, ok := c.configure(&o)
	if !ok {
		return exitUsage
	}
	in, err := c.input(target, &o)
	defer c.local.close()
	if err != nil {
		c.printError(err)
		c.summary(s, 1)
		return exitFailed
	}
	defer in.close()
	return c.list(ctx, s, &o, in)
}

// list reads the document given and prints the URLs, or with -sitemaps
// the sitemaps, of the run, the URLs as they come. It returns the exit
// status.
func (c *command) list(ctx context.Context, s *sitemap.S, o *options, in *input) int {
	var uw *urlWriter
	if !o.sitemaps && !o.tree {
		uw = newURLWriter(c.con.stdout, o.format, c.local.display, o.state != "", o.changes)
	}
	c.flushBeforePut(s, uw) // changes.go
	// A write that fails makes every later one fail (bufio.Writer keeps
	// the error), so the loop sees the error of a flush of the ticker at
	// its next write.
	var writeErr error
	stopFlush := ticker(flushInterval, func() { c.con.locked(uw.flush) })
	stopProgress := c.startProgress(s)
	for u, err := range c.stream(ctx, s, in) {
		if err != nil {
			c.printError(err)
			continue
		}
		if c.local != nil && isLocal(u.Loc) {
			c.printError(c.local.localURLError(u.Loc))
			c.extra.Add(1)
			continue
		}
		c.urls.Add(1)
		if uw == nil {
			continue
		}
		c.con.mu.Lock()
		err := uw.write(&u)
		c.con.mu.Unlock()
		if err != nil {
			writeErr = err
			break
		}
	}
	stopProgress()
	stopFlush()
	if writeErr == nil {
		writeErr = c.con.locked(func() error {
			if err := c.writeEnd(s, o); err != nil {
				return err
			}
			if err := uw.flush(); err != nil {
				return err
			}
			return c.con.stdout.Flush()
		})
	}
	if writeErr != nil {
		c.printError(fmt.Errorf("write the output: %w", writeErr))
		return exitFailed
	}
	c.summary(s, 0)
	c.stateSummary(s, o)
	if rootFailed(s) || ctx.Err() != nil || c.discoveredNone {
		return exitFailed
	}
	return exitOK
}

// rootFailed reports whether the document given was not read whole: the
// error that ParseContext would return is about it.
func rootFailed(s *sitemap.S) bool {
	docs := s.GetDocuments()
	if len(docs) == 0 {
		return true
	}
	return docs[0].Status == sitemap.StatusFailed || docs[0].Status == sitemap.StatusPartial
}

// writeEnd writes what is written once the call has ended: the sitemaps
// with -sitemaps, the tree for sitemap tree.
func (c *command) writeEnd(s *sitemap.S, o *options) error {
	switch {
	case o.sitemaps:
		return writeSitemaps(c.con.stdout, o.format, s.GetSitemaps(), c.local.display)
	case o.tree:
		return c.writeTree(s, o)
	}
	if o.noFollow && s.GetSitemapCount() > 0 {
		c.con.clearLocked()
		fmt.Fprintf(c.stderr, "Note: -no-follow: %s listed and not read; -sitemaps prints them, sitemap tree shows them\n", count(s.GetSitemapCount(), "sitemap"))
	}
	return nil
}

// stream runs the call on the document given.
func (c *command) stream(ctx context.Context, s *sitemap.S, in *input) iter.Seq2[sitemap.URL, error] {
	if in.r == nil && isSite(in.loc) {
		return c.discoverSite(ctx, s, in.loc) // discover.go
	}
	if in.r == nil {
		return s.Stream(ctx, in.loc, nil)
	}
	return s.StreamReader(ctx, in.loc, in.r)
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
	switch {
	case o.tree && o.sitemaps:
		return errors.New("-sitemaps is for a listing: the tree shows every sitemap")
	case o.tree && o.format != outputPlain && o.format != outputJSON:
		return fmt.Errorf("invalid value %q for flag -format: text or json expected for a tree", o.format)
	case !o.tree && o.format != outputPlain && o.format != outputJSONL && o.format != outputCSV:
		return fmt.Errorf("invalid value %q for flag -format: text, jsonl or csv expected", o.format)
	}
	if (o.changes || o.noResume) && o.state == "" {
		return errors.New("-changes and -no-resume are for a run with -state FILE")
	}
	return checkInput(target, o.base, o.robots)
}

// checkInput checks -base and -robots against the document given, target.
func checkInput(target, base string, robots bool) error {
	if robots && isHTTPURL(target) {
		return errors.New("-robots is for a FILE or standard input: a URL is read as a robots.txt when its path ends in robots.txt")
	}
	if base == "" {
		return nil
	}
	if isHTTPURL(target) {
		return errors.New("-base is for a FILE or standard input: a URL is located where it is fetched from")
	}
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("invalid value %q for flag -base: %v", base, err)
	}
	if !u.IsAbs() {
		return fmt.Errorf("invalid value %q for flag -base: an absolute URL expected", base)
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
		SetRules(o.rules).
		SetPoliteness(o.politeness()).
		SetBlockPrivate(o.blockPrivate).
		SetIncremental(sitemap.Incremental{Since: o.since.t, TrustIndexLastMod: o.trustLastmod,
			Changes: o.state != "", OnlyChanges: o.changes, NoResume: o.noResume}).
		SetSelection(sitemap.Selection{RootOnly: o.noFollow})
	stateErr := c.openState(s, o) // polite.go
	// The requests go through a transport that counts the documents
	// fetched. With a client of its own, the library leaves the timeout to
	// the client: the transport carries the one of -timeout, which a
	// client's Timeout would charge with the time the output takes.
	c.transport = c.newTransport(o.blockPrivate, o.timeout) // timeout.go
	s.SetHTTPClient(&http.Client{Transport: c.transport})
	if s.GetErrorsCount() == 0 && stateErr == nil {
		return s, true
	}
	for err := range s.Errors() {
		c.printError(err)
	}
	if stateErr != nil {
		c.printError(stateErr)
	}
	fmt.Fprintln(c.stderr, "Run 'sitemap -h' for usage.")
	return s, false
}

// input is the document given.
type input struct {
	loc   string    // the URL it is located at
	r     io.Reader // a FILE or standard input; nil for a URL, which is fetched
	close func()    // closes the FILE
}

// input returns the document given. A local file without -base is
// located in its directory (see localDir), whose files the requests for
// its sitemaps are answered from; in strict mode, it is located on the
// site of its first location instead (see strictBase).
func (c *command) input(target string, o *options) (in *input, err error) {
	if isHTTPURL(target) {
		return &input{loc: target, close: func() {}}, nil
	}
	name, loc := target, o.base
	var r io.Reader
	var file *os.File
	if target == "-" {
		name, r = "standard input", c.stdin
		if loc == "" {
			loc = stdinBase
		}
	} else {
		f, err := os.Open(target)
		if err != nil {
			if hint := bareURLHint(target); hint != "" && errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%w; %s", err, hint)
			}
			return nil, err
		}
		defer func() {
			if err != nil {
				f.Close()
			}
		}()
		r, file = f, f
	}
	// The start of the input tells a robots.txt, and in strict mode the
	// site of a local file; the library reads the rest as it comes.
	n := 4 << 10
	if o.strict && o.base == "" && target != "-" {
		n = 64 << 10
	}
	head, r, err := readHead(r, n)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, err // it names the file
		}
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	c.docs.Add(1)
	switch {
	case loc != "":
		if o.robots {
			loc = robotsURL(loc)
		}
	case o.strict:
		loc, err = c.strictBase(target, head, o.robots)
	default:
		c.local, loc, err = openLocal(target, o.robots)
		if err == nil {
			c.transport.base = c.local.transport(c.transport.base)
		}
	}
	if err != nil {
		return nil, err
	}
	if !o.robots && !urlnorm.IsRobots(loc) && looksLikeRobots(head[:min(len(head), 4<<10)]) {
		c.note(fmt.Sprintf("%s reads as a robots.txt, which is read as one when it is named robots.txt, or with -robots", name))
	}
	in = &input{loc: loc, r: r, close: func() {}}
	if file != nil {
		in.close = func() { file.Close() }
	}
	return in, nil
}

// strictBase is the URL of a local file in strict mode without -base. A
// file has no site of its own, and strict mode checks that every location
// is on the site of the sitemap (or that every entry is flagged): the file
// is located on the site of its first location, with a note, so that the
// rule is checked against that. A file with no absolute location stays at
// its file:// URL.
func (c *command) strictBase(target string, head []byte, asRobots bool) (string, error) {
	site := firstSite(head)
	if site == "" {
		return fileURL(target)
	}
	name := filepath.Base(target)
	if asRobots {
		name = "robots.txt"
	}
	c.note(fmt.Sprintf("strict mode: %s has no URL of its own (no -base): it is taken to be on %s, the site of its first location, and the same-site rule is checked against that", target, site))
	return site + "/" + url.PathEscape(name), nil
}

// robotsURL returns the URL of the robots.txt in the directory of loc.
func robotsURL(loc string) string {
	u, err := url.Parse(loc)
	if err != nil {
		return loc
	}
	u.Path = path.Join(path.Dir(u.Path), "robots.txt")
	u.RawPath, u.RawQuery, u.Fragment = "", "", ""
	return u.String()
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
// A *ValidationError that a request for a local file was refused with is
// written as itself, not as the *NetworkError of the request.
func (c *command) printError(err error) {
	c.con.errorLine(c.errorText(err))
}

// errorText is the line of an error: the name of its type, then its
// message, on one line, local URLs written as paths.
func (c *command) errorText(err error) string {
	var ne *sitemap.NetworkError
	var ve *sitemap.ValidationError
	if errors.As(err, &ne) && errors.As(ne.Err, &ve) {
		err = ve
	}
	msg := strings.ReplaceAll(err.Error(), "\n", "; ")
	return errorType(err) + ": " + c.local.message(msg)
}

// note writes a line to standard error that is no error.
func (c *command) note(msg string) {
	c.con.errorLine("Note: " + msg)
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
	c.con.errorLine(fmt.Sprintf("Summary: %s fetched, %s, %s listed, %s",
		count(c.docs.Load(), "document"), count(c.urls.Load(), "URL"),
		count(s.GetSitemapCount(), "sitemap"), count(s.GetErrorsCount()+c.extra.Load()+int64(extra), "error")))
}

func count(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
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
