package fleet

import (
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
	"github.com/nats-io/nats.go/jetstream"
)

// crawlRecord is the record of a crawl in the crawls bucket, under its
// name: its settings and roots, written once by Submit, and whether it was
// cancelled.
type crawlRecord struct {
	Settings  Crawl     `json:"settings"`
	Roots     []string  `json:"roots"`
	Submitted time.Time `json:"submitted"`
	Cancelled bool      `json:"cancelled,omitempty"`
}

// counters are the counts of a crawl the whole fleet shares, under
// name.count in the crawls bucket, changed by compare-and-set on their
// revision: the room under the URL limit taken by the workers, the
// sitemaps queued (the limits of the crawl are counted against them), and
// the jobs delivered more than once. Held is the room of each document
// being read (by its key), dropped once it is recorded done: as many
// entries as documents in flight. Cut is the document the URL limit cut,
// which records its error.
type counters struct {
	URLs        int64            `json:"urls"`
	Sitemaps    int64            `json:"sitemaps"`
	Redelivered int64            `json:"redelivered"`
	Held        map[string]int64 `json:"held,omitempty"`
	Cut         string           `json:"cut,omitempty"`
	MapsLimited bool             `json:"sitemapsLimited,omitempty"`
}

// The states of a document of a crawl.
const (
	stateQueued  = "queued"
	stateReading = "reading"
	stateDone    = "done"
	stateFailed  = "failed"
	stateLimited = "limited" // listed, and not queued because of the sitemap limit
	// A document redirected to a sitemap of the crawl that another claimed
	// first (children.go: claimFinal): not read on its own.
	stateDuplicate = "duplicate"
	// The claim of the sitemap a document was redirected to, under the
	// key of that sitemap: not a document of its own.
	stateRedirected = "redirected"
)

// docEntry is what the docs bucket keeps of a document of a crawl, under
// crawl.hash: its URL, who queued it, and what became of it.
type docEntry struct {
	URL    string `json:"url"`
	Parent string `json:"parent,omitempty"` // the key of the document that queued it
	Depth  int    `json:"depth"`
	State  string `json:"state"`
	URLs   int    `json:"urls,omitempty"`
	Listed int    `json:"listed,omitempty"` // in a listing, the sitemaps it lists, published
	Errors int    `json:"errors,omitempty"`
	// Changes are the URLs of the document new, with their lastmod moved,
	// and unchanged, with change detection (changes.go).
	Changes *changeCounts `json:"changes,omitempty"`
	Err     string        `json:"err,omitempty"`
}

// job is the message of one document on the work queue.
type job struct {
	URL   string `json:"url"`
	Depth int    `json:"depth"`
}

// docKey is the key of a document of crawl in the docs bucket: the crawl
// and a hash of its request key, so that every spelling of one sitemap is
// one document.
func docKey(crawl, loc string) string {
	h := sha256.Sum256([]byte(store.RequestKey(loc)))
	return crawl + "." + hex.EncodeToString(h[:12])
}

// Submit queues a new crawl of roots with the settings c and returns its
// name once every root is queued. Its version is set to [Version]; a
// setting the library rejects is its *sitemap.ConfigError.
func (f *Fleet) Submit(ctx context.Context, c Crawl, roots ...string) (string, error) {
	c.Version = Version
	if !c.changes() && !c.Sitemaps {
		c.Version = minVersion // workers of version 2 read it
	}
	if err := c.check(); err != nil {
		return "", err
	}
	if len(roots) == 0 {
		return "", errors.New("fleet: a crawl needs a URL to start from")
	}
	var b [5]byte
	crand.Read(b[:])
	name := time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
	rec, _ := json.Marshal(crawlRecord{Settings: c, Roots: roots, Submitted: time.Now().UTC()})
	if _, err := f.crawls.Create(ctx, name, rec); err != nil {
		return "", fmt.Errorf("fleet: record crawl %s: %w", name, err)
	}
	if c.changes() {
		if err := f.snapshotLast(ctx, name, c.State, roots); err != nil {
			return "", err
		}
	}
	for _, root := range roots {
		if _, err := f.queue(ctx, name, "", job{URL: root}, false); err != nil {
			return "", err
		}
	}
	return name, nil
}

// queue claims the document j of crawl for parent (the key of the
// document that lists it, "" for a root) and puts it on the work queue. A
// document another parent claimed is left alone; one this parent claimed
// earlier (a job delivered again after a worker died) is published again,
// and the server drops the copy by its message id. It reports whether the
// document is the parent's.
func (f *Fleet) queue(ctx context.Context, crawl, parent string, j job, redo bool) (bool, error) {
	key := docKey(crawl, j.URL)
	entry, _ := json.Marshal(docEntry{URL: j.URL, Parent: parent, Depth: j.Depth, State: stateQueued})
	if _, err := f.docs.Create(ctx, key, entry); err != nil {
		if !isConflict(err) {
			return false, fmt.Errorf("fleet: claim %s: %w", j.URL, err)
		}
		e, err := f.docs.Get(ctx, key)
		if err != nil {
			return false, fmt.Errorf("fleet: claim %s: %w", j.URL, err)
		}
		var d docEntry
		if json.Unmarshal(e.Value(), &d) != nil || d.Parent != parent || d.State != stateQueued || !redo {
			return d.Parent == parent, nil
		}
	}
	return true, f.publishJob(ctx, crawl, key, j)
}

func (f *Fleet) publishJob(ctx context.Context, crawl, key string, j job) error {
	body, _ := json.Marshal(j)
	if _, err := f.js.Publish(ctx, jobsPrefix+crawl, body, jetstream.WithMsgID(key)); err != nil {
		return fmt.Errorf("fleet: queue %s: %w", j.URL, err)
	}
	return nil
}

// record returns the record of crawl.
func (f *Fleet) record(ctx context.Context, crawl string) (crawlRecord, error) {
	var r crawlRecord
	var e jetstream.KeyValueEntry
	err := failover(ctx, func() (err error) {
		e, err = f.crawls.Get(ctx, crawl)
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return r, fmt.Errorf("fleet: no crawl %q", crawl)
	}
	if err != nil {
		return r, fmt.Errorf("fleet: crawl %s: %w", crawl, err)
	}
	if err := json.Unmarshal(e.Value(), &r); err != nil {
		return r, fmt.Errorf("fleet: crawl %s: its record does not read: %w", crawl, err)
	}
	return r, nil
}

// Settings returns the settings crawl was submitted with.
func (f *Fleet) Settings(ctx context.Context, crawl string) (Crawl, error) {
	rec, err := f.record(ctx, crawl)
	return rec.Settings, err
}

// Cancel ends crawl: its queued documents are dropped, the workers drop
// those they are given, and a reader of its URLs comes to its end.
func (f *Fleet) Cancel(ctx context.Context, crawl string) error {
	for {
		e, err := f.crawls.Get(ctx, crawl)
		if err != nil {
			return fmt.Errorf("fleet: no crawl %q: %w", crawl, err)
		}
		var r crawlRecord
		if err := json.Unmarshal(e.Value(), &r); err != nil {
			return fmt.Errorf("fleet: crawl %s: %w", crawl, err)
		}
		r.Cancelled = true
		v, _ := json.Marshal(r)
		if _, err := f.crawls.Update(ctx, crawl, v, e.Revision()); err == nil {
			break
		} else if !isConflict(err) {
			return fmt.Errorf("fleet: cancel %s: %w", crawl, err)
		}
	}
	if err := f.jobs.Purge(ctx, jetstream.WithPurgeSubject(jobsPrefix+crawl)); err != nil {
		return fmt.Errorf("fleet: cancel %s: %w", crawl, err)
	}
	return nil
}

// Remove drops what the fleet keeps of crawl before its retention ends:
// its record and counters, the record of its documents, its output and
// what is left of its queue. A crawl still running is cancelled first.
// sitemap-fleet run removes its own once it has printed it, so that the
// next start of its directory has none of it to read back.
func (f *Fleet) Remove(ctx context.Context, crawl string) error {
	if !validToken(crawl, false) {
		return fmt.Errorf("fleet: no crawl %q", crawl)
	}
	if n, err := f.pending(ctx, crawl); err != nil || n > 0 {
		if err := f.Cancel(ctx, crawl); err != nil {
			return err
		}
	}
	docs, err := f.js.Stream(ctx, "KV_"+docsBucket)
	if err != nil {
		return fmt.Errorf("fleet: remove %s: %w", crawl, err)
	}
	crawls, err := f.js.Stream(ctx, "KV_"+crawlsBucket)
	if err != nil {
		return fmt.Errorf("fleet: remove %s: %w", crawl, err)
	}
	purges := []struct {
		stream  jetstream.Stream
		subject string
	}{
		{f.jobs, jobsPrefix + crawl},
		{f.out, outPrefix + crawl},
		{docs, "$KV." + docsBucket + "." + crawl + ".>"},
		{crawls, "$KV." + crawlsBucket + "." + crawl + ".>"}, // its counters, its refusal
		{crawls, "$KV." + crawlsBucket + "." + crawl},
	}
	for _, p := range purges {
		if err := p.stream.Purge(ctx, jetstream.WithPurgeSubject(p.subject)); err != nil {
			return fmt.Errorf("fleet: remove %s: %w", crawl, err)
		}
	}
	return nil
}

// count changes the counters of crawl by change, by compare-and-set on
// their revision, and returns them as changed. change may refuse (false):
// nothing is written then. The first try goes by the counters as this
// process last wrote them, when it has them: the write is then one round
// trip, not two (a read and a write), for as long as no other process
// writes them in between, as on a fleet of one worker (sitemap-fleet
// run). A write refused, and a change refused on what may be old, go by
// the counters read anew.
func (f *Fleet) count(ctx context.Context, crawl string, change func(*counters) bool) (counters, error) {
	key := crawl + ".count"
	cached := true
	for {
		var c counters
		var rev uint64
		var v []byte
		if cached {
			rev, v = f.lastCount(key)
			cached = rev > 0
		}
		if !cached {
			e, err := f.crawls.Get(ctx, key)
			switch {
			case err == nil:
				rev, v = e.Revision(), e.Value()
			case !errors.Is(err, jetstream.ErrKeyNotFound):
				return c, fmt.Errorf("fleet: counters of %s: %w", crawl, err)
			}
		}
		if rev > 0 {
			if err := json.Unmarshal(v, &c); err != nil {
				return c, fmt.Errorf("fleet: counters of %s: %w", crawl, err)
			}
		}
		if !change(&c) {
			if cached {
				cached = false
				continue
			}
			return c, nil
		}
		v, _ = json.Marshal(c)
		var err error
		if rev == 0 {
			rev, err = f.crawls.Create(ctx, key, v)
		} else {
			rev, err = f.crawls.Update(ctx, key, v, rev)
		}
		if err == nil {
			f.keepCount(key, rev, v)
			return c, nil
		}
		if !isConflict(err) {
			return c, fmt.Errorf("fleet: counters of %s: %w", crawl, err)
		}
		if cached {
			cached = false // another process wrote them: read them
			continue
		}
		// Another worker changed them first: a short wait at random
		// spreads the workers that contend for them.
		t := time.NewTimer(time.Duration(rand.Int64N(int64(time.Millisecond))))
		select {
		case <-ctx.Done():
			t.Stop()
			return c, ctx.Err()
		case <-t.C:
		}
	}
}

// countCache is the counters of each crawl as this process last wrote
// them, with their revision: the first try of [Fleet.count].
type countCache struct {
	mu sync.Mutex
	m  map[string]countEntry
}

type countEntry struct {
	rev uint64
	v   []byte
}

// lastCount returns the counters under key as this process last wrote
// them, and their revision; 0 when it has not.
func (f *Fleet) lastCount(key string) (uint64, []byte) {
	f.counts.mu.Lock()
	defer f.counts.mu.Unlock()
	e := f.counts.m[key]
	return e.rev, e.v
}

// keepCount keeps the counters written under key at rev. A crawl's entry
// is kept as long as the Fleet: a few hundred bytes a crawl.
func (f *Fleet) keepCount(key string, rev uint64, v []byte) {
	f.counts.mu.Lock()
	defer f.counts.mu.Unlock()
	if f.counts.m == nil {
		f.counts.m = map[string]countEntry{}
	}
	if e := f.counts.m[key]; e.rev < rev {
		f.counts.m[key] = countEntry{rev, v}
	}
}

// isConflict reports whether err is the refusal of a write whose revision
// is no longer the last, or of the creation of a key that exists: one code
// on a stream of one replica, another on a replicated one.
func isConflict(err error) bool {
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant) {
		return true
	}
	return errors.Is(err, jetstream.ErrKeyExists)
}

// limitError is the error a worker records when a limit of the crawl,
// counted across the fleet, is reached: a *sitemap.ParseError about the
// document, wrapping the library's sentinel.
func limitError(loc, what string, n int, sentinel error) error {
	return &sitemap.ParseError{URL: loc, Err: fmt.Errorf("%w: limit of %d %s reached across the fleet", sentinel, n, what)}
}
