package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/serverclock"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// batchSize is how many URLs one message of the output holds at most.
const batchSize = 1000

// workerTTL is how long the record of a worker lasts without a heartbeat:
// how long a worker that died is still counted alive.
const workerTTL = 15 * time.Second

// WorkerOptions are the settings of one worker: what cannot cross the
// wire with a crawl.
type WorkerOptions struct {
	// Name names the worker in status and in the messages of refusals;
	// empty is the host name and process id.
	Name string
	// Concurrency is how many documents the worker reads at once; 0 is 8.
	Concurrency int
	// Client is the HTTP client of the requests, used as the library uses
	// a client set with SetHTTPClient: its Timeout covers the whole body.
	// nil is a client of the worker's own whose timeout is the crawl's,
	// charged as the library's own client charges it in a streaming call:
	// to the waits for the server alone, added up, so that a body read at
	// the pace of the output's publishing is not cut. The fleet wraps the
	// transport with the host limits of the crawl.
	Client *http.Client
	// Configure, when not nil, is called on the library's instance of each
	// document after the crawl's settings are applied: what a worker sets
	// that a crawl cannot carry (settings of the library that take
	// functions, and those the crawl does not know yet).
	Configure func(crawl string, s *sitemap.S)
	// Logf, when not nil, receives a line for each job refused or failed
	// in a way the output does not show.
	Logf func(format string, args ...any)
}

// Work runs a worker until ctx ends: it takes the documents of every crawl
// from the work queue, Concurrency at a time, and for each reads it through
// the library, publishes its URLs and errors, queues the sitemaps it lists
// and then acknowledges it. A worker killed in the middle of a document
// loses nothing: the document is delivered again after the AckWait of the
// fleet, and what it publishes again is dropped by its message id. Work
// returns nil when ctx ends, or the error that stopped it.
func (f *Fleet) Work(ctx context.Context, o WorkerOptions) error {
	if o.Concurrency <= 0 {
		o.Concurrency = 8
	}
	if o.Name == "" {
		host, _ := os.Hostname()
		o.Name = host + "-" + strconv.Itoa(os.Getpid())
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	w := &worker{f: f, o: o, crawls: map[string]*crawlState{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go w.heartbeat(ctx)
	// Concurrency documents are read at once; the bookkeeping after a
	// reading (the acknowledgements of what it published, the children
	// it queues) holds no slot, so up to jobsPerSlot times as many jobs
	// are in hand. Jobs are fetched as places in hand free up, each fetch
	// a pull request of its own that lasts at most fetchWait: a worker
	// holds no long-lived subscription that could stall. While more jobs
	// than slots are in hand, a fetch waits for half as many places as
	// slots (for fetchGather at most): a pull request (a subscription, a
	// request, its end) costs the server more than the job it brings.
	w.slots = make(chan struct{}, o.Concurrency)
	inHand := make(chan struct{}, jobsPerSlot*o.Concurrency)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		n, gathered := 0, false
		var gather *time.Timer
		for n < o.Concurrency {
			if n == 0 {
				select {
				case inHand <- struct{}{}:
					n++
					continue
				case <-ctx.Done():
					return nil
				}
			}
			if !gathered && n < (o.Concurrency+1)/2 && len(inHand)-n > o.Concurrency {
				// Jobs enough in hand: more places, for fetchGather at most.
				if gather == nil {
					gather = time.NewTimer(fetchGather)
				}
				select {
				case inHand <- struct{}{}:
					n++
					continue
				case <-gather.C:
					gathered = true
				case <-ctx.Done():
					gather.Stop()
					return nil
				}
			}
			select {
			case inHand <- struct{}{}:
				n++
				continue
			default:
			}
			break
		}
		if gather != nil {
			gather.Stop()
		}
		fctx, stopFetch := context.WithTimeout(ctx, fetchWait)
		batch, err := f.consumer.Fetch(n, jetstream.FetchContext(fctx))
		if err == nil {
			for msg := range batch.Messages() {
				n--
				wg.Go(func() {
					defer func() { <-inHand }()
					w.handle(ctx, msg)
				})
			}
			err = batch.Error()
		}
		stopFetch()
		for range n {
			<-inHand
		}
		if ctx.Err() != nil {
			return nil
		}
		if err != nil && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
			o.Logf("worker %s: %v", o.Name, err)
			t := time.NewTimer(100 * time.Millisecond) // the server is away: once more soon
			select {
			case <-ctx.Done():
			case <-t.C:
			}
		}
	}
}

// fetchWait is the longest a worker's request for jobs waits on the
// server before it is made anew, and fetchGather the longest a worker
// waits for more places before it asks for jobs, while it has jobs
// enough in hand: their documents' bookkeeping may hold them, and their
// places, while slots wait.
const (
	fetchWait   = time.Second
	fetchGather = 10 * time.Millisecond
)

// worker is the state of one call of Work.
type worker struct {
	f *Fleet
	o WorkerOptions

	slots chan struct{} // a place for each document being read

	mu     sync.Mutex
	crawls map[string]*crawlState
}

// jobsPerSlot is how many jobs a worker has in hand per document it reads
// at once.
const jobsPerSlot = 3

// room takes room under the URL limit of crawl for the document doc to
// have handed on upTo URLs in all, on the crawl's counters, which keep the
// room each document being read holds. A document delivered again (its
// worker died) finds the room it took the first time and takes none
// twice, so that the room of a dead worker is not lost to the output; and
// each batch takes exactly what it needs, so that no room is held where no
// URL will use it. It returns the room the document holds (upTo, or less
// once the limit is reached) and whether this document is the one the
// limit cut.
func (w *worker) room(ctx context.Context, crawl, doc string, upTo, limit int) (held int, cut bool, err error) {
	if limit <= 0 {
		return upTo, false, nil
	}
	q := &roomReq{doc: doc, upTo: upTo}
	if err := w.counted(ctx, crawl, limit, q); err != nil {
		// q may still be applied by the worker's compare-and-set under
		// way (counted returns at once when ctx ends): none of it is read.
		return 0, false, err
	}
	return q.held, q.cut, nil
}

// done drops the room the document doc holds from the crawl's counters,
// once the document is recorded done: its URLs stay counted. The change
// waits for the next compare-and-set of the worker's documents (a room
// kept a while longer costs a few bytes): a document of one batch then
// costs one, not two.
func (w *worker) done(crawl, doc string, limit int) {
	if limit <= 0 {
		return
	}
	w.mu.Lock()
	cs := w.crawls[crawl]
	w.mu.Unlock()
	cs.roomMu.Lock()
	cs.pending = append(cs.pending, &roomReq{doc: doc, done: true, ready: make(chan struct{})})
	cs.roomMu.Unlock()
}

// roomReq is a change of the room a document holds under the URL limit:
// more room (upTo URLs in all), or none once it is done.
type roomReq struct {
	doc   string
	upTo  int
	done  bool
	held  int  // the room it holds, as changed
	cut   bool // the limit cut this document
	err   error
	ready chan struct{}
}

// apply applies q to c and reports whether it changed them.
func (q *roomReq) apply(c *counters, limit int) bool {
	have, ok := c.Held[q.doc]
	if q.done {
		delete(c.Held, q.doc)
		return ok
	}
	q.held, q.cut = int(have), c.Cut == q.doc
	if have >= int64(q.upTo) {
		q.held = q.upTo
		return false
	}
	got := min(int64(q.upTo)-have, max(int64(limit)-c.URLs, 0))
	if have+got < int64(q.upTo) && c.Cut == "" {
		c.Cut, q.cut = q.doc, true
	}
	if got == 0 && !q.cut {
		return false
	}
	c.URLs += got
	if c.Held == nil {
		c.Held = map[string]int64{}
	}
	c.Held[q.doc] = have + got
	q.held = int(have + got)
	return true
}

// counted applies q to the counters of crawl. The changes of a worker's
// documents go in one compare-and-set, in the order they came: the one
// that finds none under way makes it, with those that come meanwhile, and
// goes on while more come; the others wait for it. The documents of a
// worker then contend for the counters once, not each on its own.
func (w *worker) counted(ctx context.Context, crawl string, limit int, q *roomReq) error {
	w.mu.Lock()
	cs := w.crawls[crawl]
	w.mu.Unlock()
	q.ready = make(chan struct{})
	cs.roomMu.Lock()
	cs.pending = append(cs.pending, q)
	lead := !cs.leading
	cs.leading = true
	cs.roomMu.Unlock()
	if !lead {
		select {
		case <-q.ready:
			return q.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for {
		cs.roomMu.Lock()
		reqs := cs.pending
		cs.pending = nil
		if len(reqs) == 0 {
			cs.leading = false
			cs.roomMu.Unlock()
			return q.err
		}
		cs.roomMu.Unlock()
		_, err := w.f.count(ctx, crawl, func(c *counters) bool {
			changed := false
			for _, r := range reqs {
				changed = r.apply(c, limit) || changed
			}
			return changed
		})
		for _, r := range reqs {
			r.err = err
			close(r.ready)
		}
	}
}

// recordAge is how long a worker goes by the record of a crawl it read
// before it reads it again: how late it may see a cancellation.
const recordAge = time.Second

// crawlState is what a worker keeps of a crawl it works on.
type crawlState struct {
	rec    crawlRecord
	follow []*regexp.Regexp
	client *http.Client
	store  sitemap.Store
	err    error // why the worker refuses the crawl

	read      time.Time // when rec was read, under worker.mu
	cancelled bool      // the crawl was cancelled, as of read, under worker.mu

	old oldTreeOnce // the last tree of change detection (changes.go)

	roomMu  sync.Mutex
	pending []*roomReq // changes of the room of documents, for the next compare-and-set (worker.counted)
	leading bool       // a compare-and-set of them is under way
}

// heartbeat keeps the worker's key in the workers bucket, whose TTL
// forgets a worker that stopped.
func (w *worker) heartbeat(ctx context.Context) {
	t := time.NewTicker(workerTTL / 3)
	defer t.Stop()
	for {
		w.f.workers.Put(ctx, strings.NewReplacer(".", "_", " ", "_", "*", "_", ">", "_").Replace(w.o.Name), []byte(time.Now().UTC().Format(time.RFC3339)))
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// crawl returns the state of crawl, read from its record the first time,
// and with the record's cancellation read again each time.
func (w *worker) crawl(ctx context.Context, crawl string) (cs *crawlState, cancelled bool, err error) {
	w.mu.Lock()
	cs = w.crawls[crawl]
	if cs != nil && time.Since(cs.read) < recordAge {
		cancelled = cs.cancelled
		w.mu.Unlock()
		return cs, cancelled, nil
	}
	w.mu.Unlock()
	rec, err := w.f.record(ctx, crawl)
	if err != nil {
		return nil, false, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if cs := w.crawls[crawl]; cs != nil {
		cs.cancelled, cs.read = rec.Cancelled, time.Now()
		return cs, rec.Cancelled, nil
	}
	cs = &crawlState{rec: rec, read: time.Now(), cancelled: rec.Cancelled}
	c := &cs.rec.Settings
	if c.Version < minVersion || c.Version > Version {
		cs.err = fmt.Errorf("crawl %s has settings of version %d; worker %s reads version %d: refused", crawl, c.Version, w.o.Name, Version)
	} else if err := c.check(); err != nil {
		cs.err = fmt.Errorf("crawl %s: worker %s refuses its settings: %w", crawl, w.o.Name, err)
	}
	for _, p := range c.Follow {
		re, err := regexp.Compile(p)
		if err != nil {
			cs.err = err
			break
		}
		cs.follow = append(cs.follow, re)
	}
	base := w.o.Client
	if base == nil {
		base = ownClient(w.o.Concurrency, c.timeout())
	}
	client := *base
	if c.HostRate > 0 || c.MaxHostConcurrency > 0 || c.CrawlDelay {
		client.Transport = &hostGate{f: w.f, base: base.Transport, crawl: c, name: crawl, owner: w.o.Name}
	}
	client.Transport = finalTap{base: client.Transport}
	cs.client = &client
	if c.State != "" {
		cs.store = &Store{kv: w.f.records, prefix: c.State, max: w.f.maxPayload}
	}
	w.crawls[crawl] = cs
	return cs, rec.Cancelled, nil
}

// ownClient is the client of a worker's own (see WorkerOptions.Client): a
// copy of net/http's default transport that keeps concurrency idle
// connections a host, timed by a serverclock.Transport of timeout.
func ownClient(concurrency int, timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = concurrency
	return &http.Client{Transport: &serverclock.Transport{Base: t, Timeout: timeout, Expired: timedOut}}
}

// timedOut is the error of a request of a worker's own client that waited
// the crawl's timeout for its server: the library's own words.
func timedOut(timeout time.Duration) error {
	return fmt.Errorf("the server took longer than the fetch timeout of %v: %w", timeout, context.DeadlineExceeded)
}

// handle reads the document of one job.
func (w *worker) handle(ctx context.Context, msg jetstream.Msg) {
	crawl := strings.TrimPrefix(msg.Subject(), jobsPrefix)
	cs, cancelled, err := w.crawl(ctx, crawl)
	if err != nil {
		w.o.Logf("%v: the job is dropped", err)
		msg.Term()
		return
	}
	if cancelled {
		msg.Term()
		return
	}
	if cs.err != nil {
		w.refuse(ctx, crawl, cs.err)
		msg.NakWithDelay(w.f.opts.AckWait)
		return
	}
	var j job
	if err := json.Unmarshal(msg.Data(), &j); err != nil {
		w.o.Logf("crawl %s: a job that does not read: %v", crawl, err)
		msg.Term()
		return
	}
	if meta, err := msg.Metadata(); err == nil && meta.NumDelivered > 1 {
		w.f.count(ctx, crawl, func(c *counters) bool { c.Redelivered++; return true })
		// A document recorded done whose job came again (its worker died
		// before the acknowledgement) has handed on all it holds.
		key := docKey(crawl, j.URL)
		if e, err := w.f.docs.Get(ctx, key); err == nil {
			var d docEntry
			if json.Unmarshal(e.Value(), &d) == nil && (d.State == stateDone || d.State == stateFailed || d.State == stateDuplicate) {
				w.done(crawl, key, cs.rec.Settings.MaxURLs)
				msg.Ack()
				return
			}
		}
	}
	// The server hears that the job is being worked on three times per
	// AckWait, so that a long document is not given to another worker.
	jctx, stop := context.WithCancel(ctx)
	go func() {
		t := time.NewTicker(w.f.opts.AckWait / 3)
		defer t.Stop()
		for {
			select {
			case <-jctx.Done():
				return
			case <-t.C:
				msg.InProgress()
			}
		}
	}()
	err = w.read(jctx, crawl, cs, j)
	stop()
	if err != nil {
		if ctx.Err() == nil {
			w.o.Logf("crawl %s: %s: %v: delivered again later", crawl, j.URL, err)
		}
		return // no ack: delivered again after AckWait
	}
	if err := msg.Ack(); err != nil && ctx.Err() == nil {
		w.o.Logf("crawl %s: ack %s: %v", crawl, j.URL, err)
	}
}

// refuse records, once per worker, that it refuses crawl, where status
// shows it.
func (w *worker) refuse(ctx context.Context, crawl string, why error) {
	w.o.Logf("%v", why)
	w.f.crawls.Put(ctx, crawl+".refused", []byte(why.Error()))
}

// read reads the document j of crawl and hands on what it holds: its URLs
// in batches, its errors, the sitemaps it lists; then records it done. An
// error is one of the fleet's (the server), after which the job is
// delivered again; what the document's own reading records is its output.
func (w *worker) read(ctx context.Context, crawl string, cs *crawlState, j job) error {
	c := &cs.rec.Settings
	key := docKey(crawl, j.URL)
	chg, err := w.docChanges(ctx, crawl, j.URL, cs) // changes.go; nil without Changes
	if err != nil {
		return err
	}
	s, err := c.instance(cs.client, chg.store(cs.store))
	if err != nil {
		return err
	}
	if w.o.Configure != nil {
		w.o.Configure(crawl, s)
	}
	var acks acks
	entry := docEntry{URL: j.URL, Depth: j.Depth, State: stateReading}
	settle := w.markReading(ctx, key, entry)
	defer settle()
	select {
	case w.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	held := true
	defer func() {
		if held {
			<-w.slots
		}
	}()
	var errs []error
	out := &batcher{w: w, ctx: ctx, crawl: crawl, key: key, loc: j.URL, max: c.MaxURLs, acks: &acks, countOnly: c.Sitemaps}
	// Where the document came from (a redirect) is claimed before its
	// first URL is handed on, or once it is read when it has none.
	final := &finalOf{}
	claimed, dup := false, false
	for u, err := range s.Stream(context.WithValue(ctx, finalKey{}, final), j.URL, nil) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !claimed {
			claimed = true
			if dup, err = w.claimFinal(ctx, crawl, key, j, final.get()); err != nil {
				return err
			} else if dup {
				break
			}
		}
		if err := chg.add(&u, out); err != nil { // out.add, with change detection's label (changes.go)
			return err
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	docs := s.GetDocuments()
	if !claimed && len(docs) > 0 && docs[0].Status != sitemap.StatusFailed {
		if dup, err = w.claimFinal(ctx, crawl, key, j, docs[0].FinalURL); err != nil {
			return err
		}
	}
	if dup {
		settle()
		entry.State = stateDuplicate
		if err := w.putEntry(ctx, key, entry); err != nil {
			return err
		}
		w.done(crawl, key, c.MaxURLs)
		return nil
	}
	// The document is read: its last batch takes its room and goes out
	// without its place, which another document's request takes.
	<-w.slots
	held = false
	if err := out.flush(); err != nil {
		return err
	}
	if out.limited != nil {
		errs = append(errs, out.limited)
	}
	if err := chg.publish(ctx, w.f, crawl, key, j.URL, out, docs, &acks); err != nil {
		return err
	}
	full := out.full
	var leftOut map[string]bool
	if len(docs) > 0 {
		more, left, err := w.children(ctx, crawl, cs, key, j, docs, full)
		if err != nil {
			return err
		}
		errs, leftOut = append(errs, more...), left
	}
	listed := 0
	if c.Sitemaps {
		if listed, err = w.publishSitemaps(crawl, key, s.GetSitemaps(), leftOut, &acks); err != nil {
			return err
		}
	}
	if err := w.publishErrors(crawl, key, errs, &acks); err != nil {
		return err
	}
	if err := acks.wait(ctx); err != nil {
		return err
	}
	settle()
	if err := chg.put(ctx, out); err != nil {
		return err
	}
	entry.State, entry.URLs, entry.Errors, entry.Listed = stateDone, out.n, len(errs), listed
	entry.Changes = chg.counts(docs)
	if len(docs) == 0 || docs[0].Status == sitemap.StatusFailed {
		entry.State = stateFailed
	}
	if len(docs) > 0 && docs[0].Err != nil {
		entry.Err = errorLine(docs[0].Err)
	}
	if err := w.putEntry(ctx, key, entry); err != nil {
		return err
	}
	w.done(crawl, key, c.MaxURLs)
	return nil
}

// readingAfter is how long a document is read before its entry says so.
var readingAfter = time.Second

// markReading writes the entry e of a document ("reading") once it has
// been read for readingAfter: one read sooner (most) goes from queued to
// done in one write, and status counts it queued while it is read. settle,
// called before the entry says what came of the document, and again at
// will, ends the wait, and waits for the write under way: no "reading"
// lands after "done".
func (w *worker) markReading(ctx context.Context, key string, e docEntry) (settle func()) {
	var mu sync.Mutex
	settled := false
	t := time.AfterFunc(readingAfter, func() {
		mu.Lock()
		defer mu.Unlock()
		if !settled {
			w.putEntry(ctx, key, e) // status alone reads it: an error is no matter
		}
	})
	return func() {
		t.Stop()
		mu.Lock()
		settled = true
		mu.Unlock()
	}
}

func (w *worker) putEntry(ctx context.Context, key string, e docEntry) error {
	v, _ := json.Marshal(e)
	if _, err := w.f.docs.Put(ctx, key, v); err != nil {
		return fmt.Errorf("record %s: %w", e.URL, err)
	}
	return nil
}

// publishErrors publishes the errors of a document as one message of the
// output, a line each: the name of its type, a tab, its message.
func (w *worker) publishErrors(crawl, key string, errs []error, acks *acks) error {
	if len(errs) == 0 {
		return nil
	}
	var b bytes.Buffer
	for _, err := range errs {
		b.WriteString(errorLine(err))
		b.WriteByte('\n')
	}
	m := &natsMsg{subject: outPrefix + crawl, data: b.Bytes(), kind: kindErrors}
	return w.f.publishOut(m, key+".errors", acks)
}

// errorLine is the line of an error as the sitemap command prints it: the
// name of its type, a colon, its message on one line.
func errorLine(err error) string {
	name := "Error"
	switch err.(type) {
	case *sitemap.ConfigError:
		name = "ConfigError"
	case *sitemap.NetworkError:
		name = "NetworkError"
	case *sitemap.ParseError:
		name = "ParseError"
	case *sitemap.ValidationError:
		name = "ValidationError"
	}
	return name + ": " + strings.ReplaceAll(err.Error(), "\n", "; ")
}
