// Command sitemap-fleet reads sitemaps with a fleet of workers on NATS
// JetStream: in one process on an embedded server (run), or as a server
// (serve), workers on any machines (worker) and the commands that submit a
// crawl, follow it, print its URLs and cancel it.
//
//	sitemap-fleet run [flags] URL...                  everything in one process
//	sitemap-fleet serve -listen HOST:PORT -dir DIR    the embedded server alone
//	sitemap-fleet worker -nats URL                    a worker, until interrupted
//	sitemap-fleet submit -nats URL [flags] URL...     a new crawl: prints its name
//	sitemap-fleet status -nats URL [CRAWL]            what a crawl (or each) came to
//	sitemap-fleet urls -nats URL CRAWL                a crawl's URLs, until it is done
//	sitemap-fleet cancel -nats URL CRAWL              ends a crawl
//
// The flags of a crawl are those of the sitemap command, under the same
// names; the URLs are printed in its formats (-format text, jsonl, csv),
// and with -sitemaps the sitemaps the documents list, as sitemap
// -sitemaps prints them.
// The exit status is 0 on success, 1 on a failure, 2 for wrong flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command of args and returns its exit status.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	c := &cmd{name: args[0], stdout: stdout, stderr: stderr}
	commands := map[string]func(context.Context, []string) error{
		"run": c.run, "serve": c.serve, "worker": c.worker, "submit": c.submit,
		"status": c.status, "urls": c.urls, "cancel": c.cancel,
	}
	f := commands[args[0]]
	if f == nil {
		fmt.Fprintf(stderr, "sitemap-fleet: unknown command %q\nRun 'sitemap-fleet -h' for usage.\n", args[0])
		return exitUsage
	}
	err := f(ctx, args[1:])
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "sitemap-fleet %s: %v\nRun 'sitemap-fleet %s -h' for usage.\n", c.name, err, c.name)
		return exitUsage
	case errors.Is(err, errFailed):
		return exitFailed
	}
	fmt.Fprintf(stderr, "sitemap-fleet %s: %v\n", c.name, err)
	return exitFailed
}

// errFailed is a failure already reported.
var errFailed = errors.New("failed")

// usageError is an error of the flags or arguments.
type usageError struct{ error }

// cmd is one run of the command.
type cmd struct {
	name           string
	stdout, stderr io.Writer
}

const usage = `Usage of sitemap-fleet:

  sitemap-fleet run [flags] URL...
	read the sitemaps of URL, in one process on an embedded NATS server whose
	state is in -dir (default ./sitemap-fleet-data), and print the URLs as
	sitemap does (with -sitemaps, the sitemaps the documents list, as
	sitemap -sitemaps does)
  sitemap-fleet serve -listen HOST:PORT -dir DIR
	run the embedded NATS server with JetStream alone, for workers to join
  sitemap-fleet worker -nats URL [-concurrency N]
	read the documents of every crawl, until interrupted
  sitemap-fleet submit -nats URL [flags] URL...
	submit a crawl; its name alone is printed once it is queued
  sitemap-fleet status -nats URL [CRAWL]
	the documents queued, reading, done and failed, the URLs handed on, the
	jobs delivered again and the workers alive, of CRAWL or of every crawl
  sitemap-fleet urls -nats URL [-format FORMAT] CRAWL
	the URLs of CRAWL as they come, until it is done (the sitemaps it
	lists, once it is done, when it was submitted with -sitemaps)
  sitemap-fleet cancel -nats URL CRAWL
	end CRAWL

The flags of a crawl are the sitemap command's: -max-urls, -max-sitemaps,
-max-depth, -max-validation-errors, -max-response-size, -timeout,
-user-agent, -follow, -rules, -strict, -block-private, -retries, -host-rate,
-max-host-concurrency, -crawl-delay, -since, -trust-index-lastmod, -sitemaps,
-state NAME (the shared store of conditional fetching, and of the changes since the
last crawl that used it) and -changes (only what changed: + new, ~ lastmod moved,
- gone). Run 'sitemap-fleet COMMAND -h' for the flags of a command.
`
