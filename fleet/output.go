package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/klauspost/compress/s2"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The header of an output message that says what it holds, and how many.
const (
	hdrKind      = "Sitemap-Fleet-Kind"
	hdrCount     = "Sitemap-Fleet-Count"
	hdrCoding    = "Sitemap-Fleet-Encoding"
	kindURLs     = "urls"
	kindErrors   = "errors"
	kindSitemaps = "sitemaps"
	codingS2     = "s2"
)

// natsMsg is one message of the output, before it is published.
type natsMsg struct {
	subject string
	data    []byte
	kind    string
	count   int
}

// publishOut publishes m with the message id id, without waiting for the
// server's acknowledgement, which acks collects: a copy published again
// within the de-duplication window is dropped by the server.
func (f *Fleet) publishOut(m *natsMsg, id string, acks *acks) error {
	msg := nats.NewMsg(m.subject)
	msg.Data = m.data
	if m.kind == kindURLs || m.kind == kindSitemaps {
		// The lines of a batch are compressed: the server keeps what it
		// was last written in memory for seconds (the caches of its
		// blocks), so that the output a crawl publishes, not the lines
		// in flight, would otherwise size the memory of a server, and of
		// sitemap-fleet run. JSON lines of URLs shrink about 15 times.
		msg.Data = s2.Encode(nil, m.data)
		msg.Header.Set(hdrCoding, codingS2)
	}
	msg.Header.Set(hdrKind, m.kind)
	if m.count > 0 {
		msg.Header.Set(hdrCount, strconv.Itoa(m.count))
	}
	return acks.publish(f.js, msg, id)
}

// acks are the acknowledgements of the messages a job published without
// waiting: the job is acknowledged once all of them came.
type acks struct {
	futures []jetstream.PubAckFuture
}

// publish publishes msg, with the message id id when not empty.
func (a *acks) publish(js jetstream.JetStream, msg *nats.Msg, id string) error {
	var opts []jetstream.PublishOpt
	if id != "" {
		opts = append(opts, jetstream.WithMsgID(id))
	}
	fut, err := js.PublishMsgAsync(msg, opts...)
	if err != nil {
		return fmt.Errorf("publish %s: %w", msg.Subject, err)
	}
	a.futures = append(a.futures, fut)
	return nil
}

// wait waits for every acknowledgement and returns the first error.
func (a *acks) wait(ctx context.Context) error {
	var first error
	for _, fut := range a.futures {
		select {
		case <-fut.Ok():
		case err := <-fut.Err():
			if first == nil {
				first = fmt.Errorf("publish %s: %w", fut.Msg().Subject, err)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	a.futures = a.futures[:0]
	return first
}

// batcher gathers the URLs of one document into batches of up to
// batchSize and publishes each, its id the crawl, the document and its
// number, after taking its room within the URL limit of the crawl.
type batcher struct {
	w     *worker
	ctx   context.Context
	crawl string
	key   string
	loc   string // the URL of the document
	acks  *acks
	max   int // the URL limit of the crawl; 0 is none

	// countOnly counts the URLs, each batch taking its room under the
	// URL limit, and publishes none: the crawl is a listing.
	countOnly bool
	change    string // the change of the URL added, with change detection (changes.go)

	buf     bytes.Buffer
	inBuf   int
	batch   int
	n       int   // URLs published
	full    bool  // the URL limit is reached
	limited error // the error of the limit, when this document was the first to meet it
}

func (b *batcher) add(u *sitemap.URL) error {
	if b.full {
		return nil
	}
	if !b.countOnly {
		if err := appendLine(&b.buf, u, b.change); err != nil {
			return err
		}
	}
	b.inBuf++
	if b.inBuf == batchSize {
		return b.flush()
	}
	return nil
}

// flush publishes the batch gathered, as much of it as the URL limit of
// the crawl leaves room for.
func (b *batcher) flush() error {
	if b.inBuf == 0 {
		return nil
	}
	held, cut, err := b.w.room(b.ctx, b.crawl, b.key, b.n+b.inBuf, b.max)
	if err != nil {
		return err
	}
	data := b.buf.Bytes()
	room := max(held-b.n, 0)
	if room < b.inBuf {
		b.full = true
		if cut {
			b.limited = limitError(b.loc, "URLs", b.max, sitemap.ErrMaxURLs)
		}
		data = cutLines(data, room)
	}
	if room > 0 && !b.countOnly {
		m := &natsMsg{subject: outPrefix + b.crawl, data: data, kind: kindURLs, count: room}
		if err := b.w.f.publishOut(m, b.key+"."+strconv.Itoa(b.batch), b.acks); err != nil {
			return err
		}
	}
	b.n += room
	b.batch++
	b.buf.Reset()
	b.inBuf = 0
	return nil
}

// cutLines returns the first n lines of data.
func cutLines(data []byte, n int) []byte {
	end := 0
	for range n {
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			return data
		}
		end += i + 1
	}
	return data[:end]
}

// URL is one URL of a crawl's output.
type URL struct {
	// Loc is its location and Sitemap the URL of the sitemap that lists it.
	Loc     string
	Sitemap string
	// LastMod, ChangeFreq and Priority are as the JSON line has them: nil
	// when the sitemap gives none.
	LastMod    *string
	ChangeFreq *string
	Priority   *float32
	// Images, News, Videos and Hreflangs count its extensions (News is 0
	// or 1).
	Images, News, Videos, Hreflangs int
	// Change is, with change detection, new, lastmod, unchanged or gone
	// (see [Crawl].Changes).
	Change string
	// JSON is its line as "sitemap -format jsonl" prints it, without the
	// newline.
	JSON []byte
}

// DocError is an error of a document of a crawl, as a worker recorded it.
type DocError struct {
	// Type is the name of its type in the library (NetworkError,
	// ParseError, ValidationError, ConfigError) or Error.
	Type string
	// Message is its message.
	Message string
}

// Error returns the message.
func (e *DocError) Error() string { return e.Message }

// URLs returns the output of crawl as it comes, in the order the workers
// published it: each URL, and each error of a document as a *DocError. It
// ends once the crawl is done (or cancelled) and all of its output was
// read, or with the error that stopped it (ctx's among them). With change
// detection ([Crawl].Changes), the URLs gone come last, once the crawl is
// done, settled by the reader over the whole tree (or the error of too
// many at once).
func (f *Fleet) URLs(ctx context.Context, crawl string) iter.Seq2[URL, error] {
	return func(yield func(URL, error) bool) {
		for line, err := range f.Lines(ctx, crawl) {
			var u URL
			if err == nil {
				u, err = ParseLine(line)
			}
			if !yield(u, err) {
				return
			}
		}
	}
}

// Lines is [Fleet.URLs] without reading the lines: each URL as its line of
// "sitemap -format jsonl", without the newline, for a reader that writes
// them as they are. A line stays valid after the loop goes on.
func (f *Fleet) Lines(ctx context.Context, crawl string) iter.Seq2[[]byte, error] {
	return f.lines(ctx, crawl, kindURLs)
}

// lines is the output of crawl as it comes: the lines of its messages of
// kind, and its errors as *DocError.
func (f *Fleet) lines(ctx context.Context, crawl, kind string) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		rec, err := f.record(ctx, crawl)
		if err != nil {
			yield(nil, err)
			return
		}
		var settle *settler // changes_settle.go; nil without change detection
		if kind == kindURLs {
			settle = f.newSettler(crawl, rec)
		}
		wctx, stopWatch := context.WithCancel(ctx)
		defer stopWatch()
		allRead := f.watchRead(wctx, crawl, rec.Roots)
		asked := time.Now() // when the server was last asked whether the crawl is done
		var cons jetstream.Consumer
		err = failover(ctx, func() (err error) {
			cons, err = f.js.OrderedConsumer(ctx, outStream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{outPrefix + crawl}})
			return err
		})
		if err != nil {
			yield(nil, fmt.Errorf("fleet: read the output of %s: %w", crawl, err))
			return
		}
		// A server that fails (a leader elected anew in a cluster) is
		// waited out for up to a minute: the ordered consumer starts
		// again where it was.
		var failingSince time.Time
		failed := func(err error) bool {
			if failingSince.IsZero() {
				failingSince = time.Now()
			}
			if time.Since(failingSince) > time.Minute {
				yield(nil, fmt.Errorf("fleet: read the output of %s: %w", crawl, err))
				return true
			}
			t := time.NewTimer(100 * time.Millisecond)
			defer t.Stop()
			select {
			case <-ctx.Done():
			case <-t.C:
			}
			return false
		}
		it, err := cons.Messages(jetstream.PullMaxMessagesWithBytesLimit(readAheadMessages, readAheadBytes))
		if err != nil {
			yield(nil, fmt.Errorf("fleet: read the output of %s: %w", crawl, err))
			return
		}
		defer it.Stop()
		// read counts the messages read; once the crawl is done, its
		// output is all stored, and is read up to the count the stream
		// holds for it.
		var read, total uint64
		done := false
		quiet := firstPoll // how long the next wait for a message lasts before the question
		for {
			if ctx.Err() != nil {
				yield(nil, ctx.Err())
				return
			}
			if done && read >= total {
				settle.finish(ctx, yield)
				return
			}
			wait := quiet
			if done {
				wait = time.Minute
			}
			msg, err := it.Next(jetstream.NextMaxWait(wait))
			if err == nil {
				failingSince = time.Time{}
				quiet = firstPoll
				read++
				if held, err := settle.take(msg); held {
					if err != nil && !yield(nil, err) {
						return
					}
					continue
				}
				if !yieldMsg(msg, kind, yield) {
					return
				}
				continue
			}
			if !errors.Is(err, nats.ErrTimeout) || done {
				if failed(err) {
					return
				}
				continue
			}
			// Nothing came for a while: is the crawl done? Its last
			// document is recorded done a round trip or two after its
			// last message comes, so the look is soon after a message,
			// then less and less often; the server is asked only now and
			// then (or without a watch, at each look).
			quiet = min(2*quiet, outputPoll)
			var n uint64
			select {
			case <-allRead:
				err = nil
			default:
				if allRead != nil && time.Since(asked) < slowPoll {
					continue
				}
				asked = time.Now()
				n, err = f.pending(ctx, crawl)
			}
			if err == nil && n == 0 {
				total, err = f.outputCount(ctx, crawl)
				done = err == nil
			}
			if err != nil && failed(err) {
				return
			}
		}
	}
}

// readAheadBytes is how much of a crawl's output its reader holds before
// the loop takes it: compressed, about 15 MiB of lines. readAheadMessages
// bounds it too: a limit in bytes alone makes the client's buffer one of a
// million messages, 8 MB of pointers made for each reader and scanned by
// every collection of the garbage while it reads (an eighth of the CPU of
// sitemap-fleet run on a short crawl).
const (
	readAheadBytes    = 1 << 20
	readAheadMessages = 1000
)

// The reader of a crawl's output looks whether the crawl is done when no
// message came for firstPoll after the last one, then after twice as long
// each time up to outputPoll: it watches the entries of the documents
// (watchRead), and asks the server only every slowPoll (or at each look,
// when it has no watch).
const (
	firstPoll  = 4 * time.Millisecond
	outputPoll = 20 * time.Millisecond
)

// slowPoll is how often the reader of a crawl's output asks the server
// whether the crawl's queue is empty, besides its watch: the watch cannot
// see a crawl cancelled, or a job dropped (its entry stays queued), and
// may lag behind a server that failed.
var slowPoll = time.Second

// watchRead returns a channel closed once every document of crawl is
// read, as the entries of the docs bucket say: every entry is in a state
// of its end (done, failed, duplicate, limited, or a redirect's claim),
// the roots among them. A worker records a document done only once its
// output is stored and the entries of the sitemaps it lists are created
// (queued), and the watch hands on the entries in the order they were
// written, so an instant at which none is queued or being read is one at
// which the crawl's output is all stored: its reader may count it. The
// first state is looked at once the watch has handed on the last entry
// of each key as of its start. Nil when the watch cannot start: the
// reader then asks the server at each look, as before.
func (f *Fleet) watchRead(ctx context.Context, crawl string, roots []string) <-chan struct{} {
	w, err := f.docs.Watch(ctx, crawl+".*", jetstream.IgnoreDeletes())
	if err != nil {
		return nil
	}
	read := make(chan struct{})
	go func() {
		defer w.Stop()
		rootKeys := map[string]bool{}
		for _, r := range roots {
			rootKeys[docKey(crawl, r)] = true
		}
		open := map[string]bool{} // the documents not read yet
		rootsSeen := map[string]bool{}
		started := false
		for {
			var e jetstream.KeyValueEntry
			select {
			case <-ctx.Done():
				return
			case u, ok := <-w.Updates():
				if !ok {
					return
				}
				e = u
			}
			if e == nil {
				started = true
			} else {
				var d docEntry
				if json.Unmarshal(e.Value(), &d) != nil {
					continue
				}
				if d.State == stateQueued || d.State == stateReading {
					open[e.Key()] = true
				} else {
					delete(open, e.Key())
				}
				if rootKeys[e.Key()] {
					rootsSeen[e.Key()] = true
				}
			}
			if started && len(open) == 0 && len(rootsSeen) == len(rootKeys) {
				close(read)
				return
			}
		}
	}()
	return read
}

// outputCount returns how many messages the output of crawl holds.
func (f *Fleet) outputCount(ctx context.Context, crawl string) (uint64, error) {
	subj := outPrefix + crawl
	info, err := f.out.Info(ctx, jetstream.WithSubjectFilter(subj))
	if err != nil {
		return 0, fmt.Errorf("fleet: the output of %s: %w", crawl, err)
	}
	return info.State.Subjects[subj], nil
}

// yieldMsg hands on what one message of the output holds: its errors, or
// its lines when it is of kind; nothing of another kind.
func yieldMsg(msg jetstream.Msg, kind string, yield func([]byte, error) bool) bool {
	errs := msg.Headers().Get(hdrKind) == kindErrors
	if !errs && msg.Headers().Get(hdrKind) != kind {
		return true
	}
	data := msg.Data()
	if msg.Headers().Get(hdrCoding) == codingS2 {
		var err error
		if data, err = s2.Decode(nil, data); err != nil {
			return yield(nil, fmt.Errorf("fleet: a message of the output does not decode: %w", err))
		}
	}
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if errs {
			typ, text, _ := strings.Cut(string(line), ": ")
			if !yield(nil, &DocError{Type: typ, Message: text}) {
				return false
			}
			continue
		}
		if !yield(line[:len(line):len(line)], nil) {
			return false
		}
	}
	return true
}

// ParseLine reads a line of [Fleet.Lines] (a line of "sitemap -format
// jsonl") as a URL.
func ParseLine(line []byte) (URL, error) {
	var j struct {
		Loc        string            `json:"loc"`
		LastMod    *string           `json:"lastmod"`
		ChangeFreq *string           `json:"changefreq"`
		Priority   *float32          `json:"priority"`
		Images     []json.RawMessage `json:"images"`
		News       json.RawMessage   `json:"news"`
		Videos     []json.RawMessage `json:"videos"`
		Hreflangs  []json.RawMessage `json:"hreflangs"`
		Sitemap    string            `json:"sitemap"`
		Change     string            `json:"change"`
	}
	if err := json.Unmarshal(line, &j); err != nil {
		return URL{}, fmt.Errorf("fleet: a line of the output does not read: %w", err)
	}
	u := URL{Loc: j.Loc, Sitemap: j.Sitemap, LastMod: j.LastMod, ChangeFreq: j.ChangeFreq, Priority: j.Priority,
		Images: len(j.Images), Videos: len(j.Videos), Hreflangs: len(j.Hreflangs), Change: j.Change, JSON: line}
	if len(j.News) > 0 && string(j.News) != "null" {
		u.News = 1
	}
	return u, nil
}

// pending returns how many documents of crawl are on the work queue,
// queued or in flight: a job stays there until it is acknowledged, and a
// document acknowledges its own job only once the jobs of what it lists
// are queued, so 0 is a crawl done.
func (f *Fleet) pending(ctx context.Context, crawl string) (uint64, error) {
	subj := jobsPrefix + crawl
	info, err := f.jobs.Info(ctx, jetstream.WithSubjectFilter(subj))
	if err != nil {
		return 0, fmt.Errorf("fleet: the queue of %s: %w", crawl, err)
	}
	return info.State.Subjects[subj], nil
}

// Status is what a crawl has come to.
type Status struct {
	Crawl string
	// Roots are the URLs it started from; [Fleet.Settings] gives the
	// settings.
	Roots []string
	// Queued, Reading, Done and Failed count its documents: waiting on
	// the queue (or read for less than a second), being read (for a
	// second or more), read (whole or in part), and not read.
	// Limited counts those not queued because of the sitemap limit, and
	// Duplicate those not read on their own: redirected to a sitemap of
	// the crawl that another document listed, or was redirected to,
	// first (the library's StatusDuplicate).
	Queued, Reading, Done, Failed, Limited, Duplicate int
	// URLs is how many URLs it handed on, Errors how many errors its
	// documents recorded. In a listing ([Crawl] Sitemaps), URLs is how
	// many its documents read (counted under the URL limit, handed on
	// none), and Listed how many sitemaps they listed, each document's
	// counted on its own: one that two documents list counts in each,
	// where [Fleet.Sitemaps] lists it once.
	URLs, Errors, Listed int64
	// Redelivered is how many of its jobs were delivered more than once:
	// taken over from a worker that died or took too long.
	Redelivered int64
	// Workers is how many workers of the fleet are alive.
	Workers int
	// Finished is true once nothing of it is queued or in flight;
	// Cancelled when it was cancelled.
	Finished, Cancelled bool
	// Refused says why a worker refused it, when one did.
	Refused string
	// Changes, with change detection, count the URLs new, with their
	// lastmod moved and unchanged (carried over by a sitemap answered 304
	// among them) as the documents are read; once a reader of its output
	// has handed on the URLs gone, those too, and the unknown: the URLs
	// of the last tree neither seen again nor gone (about: a URL two
	// sitemaps list counts in each). Nil without change detection.
	Changes *sitemap.ChangeCounts
}

// Status returns the status of crawl.
func (f *Fleet) Status(ctx context.Context, crawl string) (Status, error) {
	rec, err := f.record(ctx, crawl)
	if err != nil {
		return Status{}, err
	}
	st := Status{Crawl: crawl, Roots: rec.Roots, Cancelled: rec.Cancelled}
	w, err := f.docs.Watch(ctx, crawl+".*", jetstream.IgnoreDeletes())
	if err != nil {
		return st, fmt.Errorf("fleet: documents of %s: %w", crawl, err)
	}
	defer w.Stop()
	for e := range w.Updates() {
		if e == nil {
			break
		}
		var d docEntry
		if json.Unmarshal(e.Value(), &d) != nil {
			continue
		}
		switch d.State {
		case stateQueued:
			st.Queued++
		case stateReading:
			st.Reading++
		case stateDone:
			st.Done++
		case stateFailed:
			st.Failed++
		case stateLimited:
			st.Limited++
		case stateDuplicate:
			st.Duplicate++
		}
		st.Errors += int64(d.Errors)
		st.addChanges(d.Changes) // changes.go
		st.URLs += int64(d.URLs)
		st.Listed += int64(d.Listed)
	}
	if c, err := f.count(ctx, crawl, func(*counters) bool { return false }); err == nil {
		st.Redelivered = c.Redelivered
	}
	if e, err := f.crawls.Get(ctx, crawl+".refused"); err == nil {
		st.Refused = string(e.Value())
	}
	if keys, err := f.workers.Keys(ctx); err == nil {
		st.Workers = len(keys)
	}
	n, err := f.pending(ctx, crawl)
	if err != nil {
		return st, err
	}
	st.Finished = n == 0
	if rec.Settings.changes() {
		f.settledChanges(ctx, crawl, &st) // changes.go
	}
	return st, nil
}

// Crawls returns the names of the crawls the fleet keeps, oldest first.
func (f *Fleet) Crawls(ctx context.Context) ([]string, error) {
	keys, err := f.crawls.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fleet: crawls: %w", err)
	}
	var names []string
	for _, k := range keys {
		if !strings.Contains(k, ".") {
			names = append(names, k)
		}
	}
	return names, nil
}
