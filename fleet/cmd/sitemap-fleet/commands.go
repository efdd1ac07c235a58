package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"path/filepath"
	"sync"
	"time"

	"github.com/gositemap/sitemap/fleet"
	"github.com/nats-io/nats.go"
)

// run reads a crawl in this process, on an embedded server.
func (c *cmd) run(ctx context.Context, args []string) error {
	fs := newFlags("run")
	crawl, follow, rules, timeout := crawlFlags(fs)
	format := fs.String("format", "text", "output `FORMAT`: text, jsonl or csv")
	dir := fs.String("dir", "sitemap-fleet-data", "the `DIR` the embedded server keeps its state in")
	conc := fs.Int("max-concurrency", 16, "read at most `N` documents at the same time")
	var o fleetOptions
	o.add(fs)
	roots, err := parse(fs, args, c.stdout)
	if err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if len(roots) == 0 {
		return usageError{errors.New("a URL to read is required")}
	}
	settings, err := crawlOf(crawl, follow, rules, timeout)
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	srv, err := fleet.StartServer(fleet.ServerOptions{Dir: abs})
	if err != nil {
		return err
	}
	defer srv.Stop()
	nc, err := srv.Connect()
	if err != nil {
		return err
	}
	defer nc.Close()
	f, err := fleet.Open(ctx, nc, o.options())
	if err != nil {
		return err
	}
	// The worker starts first: its request for jobs waits on the server
	// when the first is queued.
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { f.Work(wctx, fleet.WorkerOptions{Concurrency: *conc, Logf: c.logf}) })
	name, err := f.Submit(ctx, settings, roots...)
	if err != nil {
		stop()
		wg.Wait()
		return err
	}
	err = c.print(ctx, f, name, *format, settings)
	stop()
	wg.Wait()
	// The crawl is printed (or interrupted, and its jobs would be read by
	// the next run of this directory): nothing can read it again, as its
	// name was never shown, and the next start of the server would read
	// it back. Only the store of -state and the keys of the hosts stay.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if rerr := f.Remove(rctx, name); rerr != nil && err == nil {
		c.logf("%v", rerr)
	}
	return err
}

// print writes the URLs of crawl (its sitemaps when it is a listing) to
// standard output in format and its errors to standard error, until it is
// done, then the summary.
func (c *cmd) print(ctx context.Context, f *fleet.Fleet, crawl, format string, settings fleet.Crawl) error {
	if settings.Sitemaps {
		return c.printSitemaps(ctx, f, crawl, format)
	}
	w := newURLWriter(c.stdout, format, settings.Changes || settings.OnlyChanges, settings.OnlyChanges)
	var urls, errs int
	stopFlush := make(chan struct{})
	var mu sync.Mutex
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stopFlush:
				return
			case <-t.C:
				mu.Lock()
				w.flush()
				mu.Unlock()
			}
		}
	}()
	var failed error
	// jsonl writes the lines as they come, without reading them.
	for line, err := range f.Lines(ctx, crawl) {
		if err != nil {
			var de *fleet.DocError
			if !errors.As(err, &de) {
				failed = err
				break
			}
			errs++
			fmt.Fprintf(c.stderr, "%s: %s\n", de.Type, escape(de.Message))
			continue
		}
		urls++
		mu.Lock()
		err = w.write(line)
		mu.Unlock()
		if err != nil {
			failed = fmt.Errorf("write the output: %w", err)
			break
		}
	}
	close(stopFlush)
	if err := w.flush(); err != nil && failed == nil {
		failed = fmt.Errorf("write the output: %w", err)
	}
	if failed != nil {
		return failed
	}
	st, err := f.Status(ctx, crawl)
	if err != nil {
		return err
	}
	return c.summary(st, count(urls, "URL"), errs)
}

// printSitemaps writes the listing of crawl to standard output in format
// once it is done, as sitemap -sitemaps does, and its errors to standard
// error as they come, then the summary.
func (c *cmd) printSitemaps(ctx context.Context, f *fleet.Fleet, crawl, format string) error {
	var list []fleet.Sitemap
	errs := 0
	for sm, err := range f.Sitemaps(ctx, crawl) {
		if err != nil {
			var de *fleet.DocError
			if !errors.As(err, &de) {
				return err
			}
			errs++
			fmt.Fprintf(c.stderr, "%s: %s\n", de.Type, escape(de.Message))
			continue
		}
		list = append(list, sm)
	}
	if err := writeSitemaps(c.stdout, format, list); err != nil {
		return fmt.Errorf("write the output: %w", err)
	}
	// The URLs of a listing are counted by the workers, not published.
	st, err := f.Status(ctx, crawl)
	if err != nil {
		return err
	}
	return c.summary(st, count(st.URLs, "URL")+", "+count(len(list), "sitemap")+" listed", errs)
}

// summary writes the last line, of the status st of the crawl, with urls
// (how many were printed, or counted) and errs, and returns errFailed for
// a crawl cancelled or with no document read.
func (c *cmd) summary(st fleet.Status, urls string, errs int) error {
	fmt.Fprintf(c.stderr, "Summary: %s read, %s failed, %s, %s, %s delivered again\n",
		count(st.Done, "document"), count(st.Failed, "document"), urls, count(errs, "error"), count(st.Redelivered, "job"))
	if n := st.Changes; n != nil {
		fmt.Fprintf(c.stderr, "URLs: %d new, %d changed, %d gone, %d unchanged, %d unknown\n", n.New, n.LastMod, n.Gone, n.Unchanged, n.Unknown)
	}
	if st.Cancelled || st.Failed > 0 && st.Done == 0 {
		return errFailed
	}
	return nil
}

func count[N int | int64](n N, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// logf writes a line of a worker to standard error.
func (c *cmd) logf(format string, args ...any) {
	fmt.Fprintf(c.stderr, "sitemap-fleet: "+format+"\n", args...)
}

// serve runs the embedded server until interrupted.
func (c *cmd) serve(ctx context.Context, args []string) error {
	fs := newFlags("serve")
	listen := fs.String("listen", "127.0.0.1:4222", "the `HOST:PORT` clients connect to")
	dir := fs.String("dir", "sitemap-fleet-data", "the `DIR` JetStream keeps its state in")
	name := fs.String("name", "", "the `NAME` of this server in a cluster")
	cluster := fs.String("cluster", "", "the `HOST:PORT` of the routes of this server, in a cluster")
	routes := new(patterns)
	fs.Var(routes, "routes", "the route `URL` (nats://HOST:PORT) of another server of the cluster (repeatable)")
	if _, err := parse(fs, args, c.stdout); err != nil {
		return err
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	srv, err := fleet.StartServer(fleet.ServerOptions{Dir: abs, Listen: *listen, Name: *name, Cluster: *cluster, ClusterName: "sitemap-fleet", Routes: *routes})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "sitemap-fleet: serving %s, state in %s\n", srv.ClientURL(), abs)
	<-ctx.Done()
	srv.Stop()
	return nil
}

// open connects to -nats and opens the fleet.
func (c *cmd) open(ctx context.Context, n *natsFlags) (*fleet.Fleet, *nats.Conn, error) {
	nc, err := n.connect()
	if err != nil {
		return nil, nil, err
	}
	octx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	f, err := fleet.Open(octx, nc, n.options())
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return f, nc, nil
}

// worker runs a worker until interrupted.
func (c *cmd) worker(ctx context.Context, args []string) error {
	fs := newFlags("worker")
	var n natsFlags
	n.add(fs)
	conc := fs.Int("concurrency", 16, "read at most `N` documents at the same time")
	name := fs.String("name", "", "the `NAME` of the worker in status (default: host name and process id)")
	if _, err := parse(fs, args, c.stdout); err != nil {
		return err
	}
	f, nc, err := c.open(ctx, &n)
	if err != nil {
		return err
	}
	defer nc.Close()
	return f.Work(ctx, fleet.WorkerOptions{Name: *name, Concurrency: *conc, Logf: log.New(c.stderr, "", log.LstdFlags).Printf})
}

// submit submits a crawl and prints its name.
func (c *cmd) submit(ctx context.Context, args []string) error {
	fs := newFlags("submit")
	var n natsFlags
	n.add(fs)
	crawl, follow, rules, timeout := crawlFlags(fs)
	roots, err := parse(fs, args, c.stdout)
	if err != nil {
		return err
	}
	if len(roots) == 0 {
		return usageError{errors.New("a URL to read is required")}
	}
	f, nc, err := c.open(ctx, &n)
	if err != nil {
		return err
	}
	defer nc.Close()
	settings, err := crawlOf(crawl, follow, rules, timeout)
	if err != nil {
		return err
	}
	name, err := f.Submit(ctx, settings, roots...)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, name)
	return nil
}

// status prints the status of a crawl, or of each.
func (c *cmd) status(ctx context.Context, args []string) error {
	fs := newFlags("status")
	var n natsFlags
	n.add(fs)
	names, err := parse(fs, args, c.stdout)
	if err != nil {
		return err
	}
	if len(names) > 1 {
		return usageError{errors.New("at most one CRAWL")}
	}
	f, nc, err := c.open(ctx, &n)
	if err != nil {
		return err
	}
	defer nc.Close()
	if len(names) == 0 {
		if names, err = f.Crawls(ctx); err != nil {
			return err
		}
	}
	for _, name := range names {
		st, err := f.Status(ctx, name)
		if err != nil {
			return err
		}
		settings, err := f.Settings(ctx, name)
		if err != nil {
			return err
		}
		state := "running"
		switch {
		case st.Cancelled:
			state = "cancelled"
		case st.Finished:
			state = "done"
		}
		fmt.Fprintf(c.stdout, "%s %s: documents %d queued, %d in flight, %d done, %d failed, %d limited, %d duplicate; %s, %s; %s delivered again; %s alive\n",
			name, state, st.Queued, st.Reading, st.Done, st.Failed, st.Limited, st.Duplicate, handedOn(st, settings.Sitemaps), count(st.Errors, "error"), count(st.Redelivered, "job"), count(st.Workers, "worker"))
		if n := st.Changes; n != nil {
			fmt.Fprintf(c.stdout, "%s changes: %d new, %d changed, %d gone, %d unchanged, %d unknown\n", name, n.New, n.LastMod, n.Gone, n.Unchanged, n.Unknown)
		}
		if st.Refused != "" {
			fmt.Fprintf(c.stdout, "%s refused: %s\n", name, escape(st.Refused))
		}
	}
	return nil
}

// handedOn says what the crawl of st handed on: its URLs; for a listing,
// the URLs its documents read and the sitemaps they list (each
// document's, summed).
func handedOn(st fleet.Status, listing bool) string {
	if listing {
		return count(st.URLs, "URL") + " read, " + count(st.Listed, "sitemap") + " listed"
	}
	return count(st.URLs, "URL") + " out"
}

// urls prints the URLs of a crawl until it is done.
func (c *cmd) urls(ctx context.Context, args []string) error {
	fs := newFlags("urls")
	var n natsFlags
	n.add(fs)
	format := fs.String("format", "jsonl", "output `FORMAT`: text, jsonl or csv")
	names, err := parse(fs, args, c.stdout)
	if err != nil {
		return err
	}
	if len(names) != 1 {
		return usageError{errors.New("one CRAWL expected")}
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	f, nc, err := c.open(ctx, &n)
	if err != nil {
		return err
	}
	defer nc.Close()
	settings, err := f.Settings(ctx, names[0])
	if err != nil {
		return err
	}
	return c.print(ctx, f, names[0], *format, settings)
}

// cancel ends a crawl.
func (c *cmd) cancel(ctx context.Context, args []string) error {
	fs := newFlags("cancel")
	var n natsFlags
	n.add(fs)
	names, err := parse(fs, args, c.stdout)
	if err != nil {
		return err
	}
	if len(names) != 1 {
		return usageError{errors.New("one CRAWL expected")}
	}
	f, nc, err := c.open(ctx, &n)
	if err != nil {
		return err
	}
	defer nc.Close()
	return f.Cancel(ctx, names[0])
}
