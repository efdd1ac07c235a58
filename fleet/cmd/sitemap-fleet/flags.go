package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gositemap/sitemap/fleet"
	"github.com/gositemap/sitemap/internal/dates"
	"github.com/nats-io/nats.go"
)

// patterns is a repeatable flag of regular expressions.
type patterns []string

func (p *patterns) String() string     { return strings.Join(*p, " ") }
func (p *patterns) Set(v string) error { *p = append(*p, v); return nil }

// seconds is -timeout: whole seconds, as 10, 10s or 2m.
type seconds uint16

func (s *seconds) String() string { return strconv.Itoa(int(*s)) }
func (s *seconds) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		d, derr := time.ParseDuration(v)
		if derr != nil || d%time.Second != 0 {
			return fmt.Errorf("%q: whole seconds expected, such as 10, 10s or 2m", v)
		}
		n = int(d / time.Second)
	}
	if n < 1 || n > 65535 {
		return fmt.Errorf("%q: 1 to 65535 seconds expected", v)
	}
	*s = seconds(n)
	return nil
}

// newFlags returns the flag set of a command, its messages written by
// parse.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("sitemap-fleet "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// crawlFlags adds the flags of a crawl, the sitemap command's, to fs and
// returns the settings they fill.
func crawlFlags(fs *flag.FlagSet) (*fleet.Crawl, *patterns, *patterns, *seconds) {
	c := fleet.DefaultCrawl()
	fs.IntVar(&c.MaxURLs, "max-urls", c.MaxURLs, "hand on at most `N` URLs across the fleet (0: no limit)")
	fs.IntVar(&c.MaxSitemaps, "max-sitemaps", c.MaxSitemaps, "queue at most `N` sitemaps across the fleet (0: no limit)")
	fs.IntVar(&c.MaxDepth, "max-depth", c.MaxDepth, "follow at most `N` levels of sitemap indexes (at least 1)")
	fs.IntVar(&c.MaxValidationErrors, "max-validation-errors", c.MaxValidationErrors, "record at most `N` validation errors a document (0: no limit)")
	fs.Int64Var(&c.MaxResponseSize, "max-response-size", c.MaxResponseSize, "read documents of at most `BYTES` bytes, decompressed or not")
	fs.StringVar(&c.UserAgent, "user-agent", c.UserAgent, "send `TEXT` as the User-Agent header of the requests")
	fs.BoolVar(&c.Sitemaps, "sitemaps", false, "list the sitemaps the documents list, with their dates, instead of the URLs (a listing,\nprinted once the crawl is done; the URLs are counted, not handed on)")
	fs.BoolVar(&c.Strict, "strict", false, "strict mode: validate URLs and values as the sitemaps.org protocol requires")
	fs.BoolVar(&c.BlockPrivate, "block-private", false, "refuse to connect to loopback, private, link-local and other internal addresses")
	fs.IntVar(&c.Retries, "retries", 0, "try a request again up to `N` times after a 429, 502, 503, 504, a reset or a timeout (0 to 100)")
	fs.Float64Var(&c.HostRate, "host-rate", 0, "send at most `R` requests a second to each host, across the fleet (0: no limit)")
	fs.BoolVar(&c.CrawlDelay, "crawl-delay", false, "space the requests to a host by the Crawl-delay of its robots.txt, when the crawl reads it,\nacross the fleet (or by 1/R of -host-rate where that is longer)")
	fs.IntVar(&c.MaxHostConcurrency, "max-host-concurrency", 0, "have at most `K` requests in flight to each host, across the fleet (0: no limit)")
	fs.StringVar(&c.State, "state", "", "keep the records of conditional fetching in the shared store `NAME`, and fetch only what\nchanged since the last crawl that used it")
	fs.BoolVar(&c.OnlyChanges, "changes", false, "with -state, print only what changed since the last crawl that used it, one a line:\n+ URL new, ~ URL lastmod moved, - URL gone (jsonl: the \"change\" field, csv: the change column)")
	fs.BoolVar(&c.TrustIndexLastMod, "trust-index-lastmod", false, "with -state, do not fetch a sitemap whose index gives it the lastmod it had at the last crawl")
	fs.Func("since", "leave out the URLs, and do not queue the sitemaps, whose lastmod is older than `DATE`\n(W3C datetime: 2024-01-15 or 2024-01-15T12:00:00Z)", func(v string) error {
		t, ok := dates.ParseW3C(strings.TrimSpace(v))
		if !ok {
			return fmt.Errorf("%q is not a W3C datetime (such as 2024-01-15 or 2024-01-15T12:00:00Z)", v)
		}
		c.Since = t
		return nil
	})
	follow, rules := new(patterns), new(patterns)
	fs.Var(follow, "follow", "queue only the sitemaps whose URL matches the regular expression `RE` (repeatable)")
	fs.Var(rules, "rules", "keep only the URLs that match the regular expression `RE` (repeatable)")
	timeout := seconds(c.Timeout)
	fs.Var(&timeout, "timeout", "the time a request may take, in whole `SECONDS`: 10, 10s or 2m")
	return &c, follow, rules, &timeout
}

// natsFlags are the flags of the connection to a server.
type natsFlags struct {
	url, creds, ca, cert, key string
	fleetOptions
}

// fleetOptions are the flags of the shape of the fleet's streams.
type fleetOptions struct {
	ackWait, retention time.Duration
	replicas           int
}

func (o *fleetOptions) add(fs *flag.FlagSet) {
	fs.DurationVar(&o.ackWait, "ack-wait", 30*time.Second, "how long a job of a worker that stopped waits before it is given to another")
	fs.DurationVar(&o.retention, "retention", 24*time.Hour, "how long the output of a crawl is kept")
	fs.IntVar(&o.replicas, "replicas", 1, "how many servers of a cluster hold each stream and bucket (1 or 3)")
}

func (o *fleetOptions) options() fleet.Options {
	return fleet.Options{AckWait: o.ackWait, Retention: o.retention, Replicas: o.replicas}
}

func (n *natsFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&n.url, "nats", "", "the `URL` of the NATS server (nats://[USER:PASSWORD@]HOST:PORT, several comma-separated)")
	fs.StringVar(&n.creds, "creds", "", "the NATS credentials `FILE` (a JWT and its key)")
	fs.StringVar(&n.ca, "tls-ca", "", "the CA certificate `FILE` that the server's certificate is checked against")
	fs.StringVar(&n.cert, "tls-cert", "", "the client certificate `FILE`, for a server that asks for one (with -tls-key)")
	fs.StringVar(&n.key, "tls-key", "", "the key `FILE` of -tls-cert")
	n.fleetOptions.add(fs)
}

// connect connects to the server of -nats. A server that cannot be
// reached is an error at once, never a hang.
func (n *natsFlags) connect() (*nats.Conn, error) {
	if n.url == "" {
		return nil, usageError{errors.New("-nats URL is required")}
	}
	opts := []nats.Option{nats.Name("sitemap-fleet"), nats.Timeout(5 * time.Second), nats.MaxReconnects(-1)}
	if n.creds != "" {
		opts = append(opts, nats.UserCredentials(n.creds))
	}
	if n.ca != "" || n.cert != "" {
		cfg := &tls.Config{MinVersion: tls.VersionTLS12}
		if n.ca != "" {
			pem, err := os.ReadFile(n.ca)
			if err != nil {
				return nil, err
			}
			cfg.RootCAs = x509.NewCertPool()
			if !cfg.RootCAs.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("%s: no certificate in it", n.ca)
			}
		}
		if n.cert != "" {
			cert, err := tls.LoadX509KeyPair(n.cert, n.key)
			if err != nil {
				return nil, err
			}
			cfg.Certificates = []tls.Certificate{cert}
		}
		opts = append(opts, nats.Secure(cfg))
	}
	nc, err := nats.Connect(n.url, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", redactURL(n.url), err)
	}
	return nc, nil
}

// redactURL hides the password of the URLs of s.
func redactURL(s string) string {
	var out []string
	for _, u := range strings.Split(s, ",") {
		if at := strings.LastIndexByte(u, '@'); at >= 0 {
			if scheme := strings.Index(u, "://"); scheme >= 0 && scheme < at {
				user := u[scheme+3 : at]
				if name, _, ok := strings.Cut(user, ":"); ok {
					u = u[:scheme+3] + name + ":xxxxx" + u[at:]
				}
			}
		}
		out = append(out, u)
	}
	return strings.Join(out, ",")
}

// parse parses args by fs, flags before and after the operands, and
// returns the operands.
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(stdout)
				fmt.Fprintf(stdout, "Usage of %s:\n", fs.Name())
				fs.PrintDefaults()
				return nil, err
			}
			return nil, usageError{err}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if i := len(args) - len(rest) - 1; i >= 0 && args[i] == "--" {
			return append(operands, rest...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// crawlOf completes the settings of the flags. As with sitemap, -state
// compares each crawl with the last (every URL says its change), and
// -changes prints only what changed.
func crawlOf(c *fleet.Crawl, follow, rules *patterns, timeout *seconds) (fleet.Crawl, error) {
	c.Follow, c.Rules, c.Timeout = *follow, *rules, uint16(*timeout)
	if c.OnlyChanges && c.State == "" {
		return *c, usageError{errors.New("-changes is for a crawl with -state NAME")}
	}
	c.Changes = c.State != ""
	return *c, nil
}
