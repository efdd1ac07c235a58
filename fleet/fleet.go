package fleet

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The names of what the fleet keeps on the server. Two fleets on one
// server share them: a crawl's name keeps its messages and keys apart.
const (
	jobsStream    = "SITEMAP_FLEET_JOBS"   // work queue: one message a document to read
	outStream     = "SITEMAP_FLEET_OUT"    // the URLs and errors of every crawl
	jobsPrefix    = "sitemap-fleet.jobs."  // + crawl
	outPrefix     = "sitemap-fleet.out."   // + crawl
	crawlsBucket  = "sitemap-fleet-crawls" // crawl records and counters
	docsBucket    = "sitemap-fleet-docs"   // one key a document of a crawl
	hostsBucket   = "sitemap-fleet-hosts"  // leases of the host slots, turns of the host pace
	storeBucket   = "sitemap-fleet-store"  // the records of conditional fetching
	workersBucket = "sitemap-fleet-workers"
	consumerName  = "sitemap-fleet-workers"
)

// MinServerVersion is the oldest NATS server the fleet works with: it uses
// work-queue streams, key-value revisions, de-duplication by Nats-Msg-Id and
// redelivery after the acknowledgement wait, which 2.9.10 has, and nothing
// newer (no per-message TTL, no atomic batch, no counter).
const MinServerVersion = "2.9.10"

// Options are the settings of a fleet: how the streams and buckets it
// creates are shaped. Every process of a fleet should open it with the same
// ones; the first to open creates them.
type Options struct {
	// AckWait is how long a job may go unacknowledged before it is
	// delivered again: the time after which the document of a worker that
	// died is read by another. A worker that is reading tells the server it
	// is still at work three times per AckWait. 0 is 30 s.
	AckWait time.Duration
	// Retention is how long the output of a crawl, and the record of its
	// documents, are kept. 0 is 24 hours.
	Retention time.Duration
	// Replicas is how many servers of a cluster hold each stream and
	// bucket: 1 (the default) or 3.
	Replicas int
}

func (o *Options) fill() {
	if o.AckWait <= 0 {
		o.AckWait = 30 * time.Second
	}
	if o.Retention <= 0 {
		o.Retention = 24 * time.Hour
	}
	if o.Replicas <= 0 {
		o.Replicas = 1
	}
}

// dupWindow is the de-duplication window of the streams: it covers the
// longest redelivery, so that a batch published again by the worker that
// reads a document after another died is dropped as a duplicate.
func (o *Options) dupWindow() time.Duration {
	return max(2*time.Minute, 10*o.AckWait)
}

// Fleet is a connection to the fleet's state on a NATS server: what a
// submitter, a worker or a reader of the output uses. It is safe for
// concurrent use.
type Fleet struct {
	nc   *nats.Conn
	js   jetstream.JetStream
	opts Options

	jobs, out           jetstream.Stream
	crawls, docs, hosts jetstream.KeyValue
	records, workers    jetstream.KeyValue
	maxPayload          int
	consumer            jetstream.Consumer

	counts countCache // the counters this process last wrote (Fleet.count)
}

// Open checks that the server of nc runs JetStream at version
// [MinServerVersion] or later, and creates the streams and buckets of the
// fleet or checks those already there: a stream or bucket of another shape
// under the same name is an error that names it.
func Open(ctx context.Context, nc *nats.Conn, o Options) (*Fleet, error) {
	o.fill()
	if v := nc.ConnectedServerVersion(); !versionAtLeast(v, MinServerVersion) {
		return nil, fmt.Errorf("fleet: the NATS server runs %s; the fleet needs %s or later", v, MinServerVersion)
	}
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncTimeout(30*time.Second))
	if err != nil {
		return nil, fmt.Errorf("fleet: %w", err)
	}
	if _, err := js.AccountInfo(ctx); err != nil {
		return nil, fmt.Errorf("fleet: the NATS server has no JetStream for this account: %w", err)
	}
	f := &Fleet{nc: nc, js: js, opts: o, maxPayload: int(nc.MaxPayload())}
	buckets := []struct {
		kv  *jetstream.KeyValue
		cfg jetstream.KeyValueConfig
	}{
		{&f.crawls, jetstream.KeyValueConfig{Bucket: crawlsBucket, TTL: o.Retention}},
		{&f.docs, jetstream.KeyValueConfig{Bucket: docsBucket, TTL: o.Retention}},
		{&f.hosts, jetstream.KeyValueConfig{Bucket: hostsBucket}},
		{&f.records, jetstream.KeyValueConfig{Bucket: storeBucket}},
		{&f.workers, jetstream.KeyValueConfig{Bucket: workersBucket, TTL: workerTTL}},
	}
	// The streams and the buckets are opened at once, each a round trip
	// or two (a dozen, one after the other, were a tenth of a short run),
	// and the consumer once its stream is there. The first error, in the
	// order they are listed, is the answer.
	errs := make([]error, 3+len(buckets))
	var wg sync.WaitGroup
	wg.Go(func() {
		f.jobs, errs[0] = f.stream(ctx, jetstream.StreamConfig{
			Name: jobsStream, Subjects: []string{jobsPrefix + ">"}, Retention: jetstream.WorkQueuePolicy,
			Storage: jetstream.FileStorage, Replicas: o.Replicas, Duplicates: o.dupWindow(),
		})
		if errs[0] != nil {
			return
		}
		var err error
		f.consumer, err = js.CreateOrUpdateConsumer(ctx, jobsStream, jetstream.ConsumerConfig{
			Durable: consumerName, AckPolicy: jetstream.AckExplicitPolicy, AckWait: o.AckWait,
			MaxAckPending: 4096, Replicas: o.Replicas,
		})
		if err != nil {
			errs[len(errs)-1] = fmt.Errorf("fleet: consumer %s of stream %s: %w", consumerName, jobsStream, err)
		}
	})
	wg.Go(func() {
		f.out, errs[1] = f.stream(ctx, jetstream.StreamConfig{
			Name: outStream, Subjects: []string{outPrefix + ">"}, Retention: jetstream.LimitsPolicy,
			Storage: jetstream.FileStorage, Replicas: o.Replicas, Duplicates: o.dupWindow(), MaxAge: o.Retention,
		})
	})
	for i, b := range buckets {
		wg.Go(func() {
			b.cfg.Replicas, b.cfg.Storage = o.Replicas, jetstream.FileStorage
			*b.kv, errs[2+i] = f.bucket(ctx, b.cfg)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return f, nil
}

// stream returns the stream of cfg, created when it is not there; one of
// another shape is an error.
func (f *Fleet) stream(ctx context.Context, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	s, err := f.js.Stream(ctx, cfg.Name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		s, err = f.js.CreateStream(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("fleet: create stream %s: %w", cfg.Name, err)
		}
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fleet: stream %s: %w", cfg.Name, err)
	}
	got := s.CachedInfo().Config
	if got.Retention != cfg.Retention || strings.Join(got.Subjects, " ") != strings.Join(cfg.Subjects, " ") {
		return nil, fmt.Errorf("fleet: stream %s is there with another shape (retention %v, subjects %q): not the fleet's", cfg.Name, got.Retention, got.Subjects)
	}
	return s, nil
}

// bucket returns the key-value bucket of cfg, created when it is not
// there; a stream of that name that is no bucket is an error.
func (f *Fleet) bucket(ctx context.Context, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	kv, err := f.js.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = f.js.CreateKeyValue(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("fleet: create bucket %s: %w", cfg.Bucket, err)
		}
		return kv, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fleet: bucket %s: %w", cfg.Bucket, err)
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("fleet: bucket %s: %w", cfg.Bucket, err)
	}
	if st.TTL() != cfg.TTL {
		return nil, fmt.Errorf("fleet: bucket %s is there with another shape (TTL %v, want %v): not the fleet's, or of other options", cfg.Bucket, st.TTL(), cfg.TTL)
	}
	return kv, nil
}

// versionAtLeast reports whether the version v (such as 2.10.4, or
// 2.11.0-beta.1) is min or later.
func versionAtLeast(v, min string) bool {
	parse := func(s string) [3]int {
		s, _, _ = strings.Cut(strings.TrimPrefix(s, "v"), "-")
		var n [3]int
		for i, p := range strings.SplitN(s, ".", 3) {
			n[i], _ = strconv.Atoi(p)
		}
		return n
	}
	a, b := parse(v), parse(min)
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return true
}

// failover runs op until it succeeds, fails for good, or ctx ends. The
// errors of a cluster electing a leader anew (no responders, a request or
// a stream that does not answer, JetStream unavailable for a moment) are
// waited out for up to a minute, a tenth of a second between tries; any
// other error is op's answer.
func failover(ctx context.Context, op func() error) error {
	var since time.Time
	for {
		err := op()
		if err == nil || !passing(err) || ctx.Err() != nil {
			return err
		}
		if since.IsZero() {
			since = time.Now()
		} else if time.Since(since) > time.Minute {
			return err
		}
		t := time.NewTimer(100 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

// passing tells the errors of a cluster between two leaders.
func passing(err error) bool {
	return errors.Is(err, nats.ErrNoResponders) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, jetstream.ErrJetStreamNotEnabled) ||
		errors.Is(err, context.DeadlineExceeded)
}
