package fleet

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sync"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// This file is how a worker queues the sitemaps a document lists: each
// claimed once per crawl, counted under the sitemap limit, and put on the
// work queue, the claims and the jobs pipelined; and how a document
// redirected to a sitemap claims that one too (claimFinal).

// children queues the sitemaps the document lists (docs[0] is the
// document, the others what it lists), as a call of the library would
// follow them: within the depth limit and the follow rules, each once per
// crawl, within the fleet's sitemap limit, none once the URL limit is
// reached. It returns the errors of the limits, and the keys of the
// sitemaps the sitemap limit left out (for the listing: see listing.go).
// The claims and the jobs are pipelined (see pipelined).
func (w *worker) children(ctx context.Context, crawl string, cs *crawlState, key string, j job, docs []sitemap.Document, urlsFull bool) ([]error, map[string]bool, error) {
	c := &cs.rec.Settings
	var errs []error
	final := docs[0].FinalURL
	if final == "" {
		final = j.URL
	}
	var listed []job
	for _, d := range docs[1:] {
		if d.Parent != 0 || d.Status != sitemap.StatusNotFollowed {
			continue
		}
		if len(cs.follow) > 0 && !matchAny(cs.follow, d.URL) {
			continue
		}
		if j.Depth+1 > c.MaxDepth {
			return []error{&sitemap.ParseError{URL: final, Err: fmt.Errorf("%w: max recursion depth of %d reached", sitemap.ErrMaxDepth, c.MaxDepth)}}, nil, nil
		}
		if urlsFull {
			return nil, nil, nil
		}
		listed = append(listed, job{URL: d.URL, Depth: j.Depth + 1})
	}
	// Claim each: created (ours), or there already (listed before, by this
	// document when it is delivered again, or by another).
	created := make([]bool, len(listed))
	var there []int
	err := pipelined(ctx, w.f.js, len(listed), func(i int) (*nats.Msg, jetstream.PublishOpt) {
		entry, _ := json.Marshal(docEntry{URL: listed[i].URL, Parent: key, Depth: listed[i].Depth, State: stateQueued})
		m := nats.NewMsg("$KV." + docsBucket + "." + docKey(crawl, listed[i].URL))
		m.Data = entry
		return m, jetstream.WithExpectLastSequencePerSubject(0)
	}, func(i int, err error) error {
		switch {
		case err == nil:
			created[i] = true
		case isConflict(err):
			there = append(there, i)
		default:
			return fmt.Errorf("claim %s: %w", listed[i].URL, err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	leftOut := map[string]bool{}
	var mu sync.Mutex
	err = parallel(ctx, len(there), func(k int) error {
		limited, err := w.again(ctx, crawl, key, listed[there[k]])
		if limited {
			mu.Lock()
			leftOut[docKey(crawl, listed[there[k]].URL)] = true
			mu.Unlock()
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	var ours []job
	for i, ok := range created {
		if ok {
			ours = append(ours, listed[i])
		}
	}
	if c.MaxSitemaps > 0 && len(ours) > 0 {
		took, first := 0, false
		_, err := w.f.count(ctx, crawl, func(n *counters) bool {
			took = int(min(int64(len(ours)), max(int64(c.MaxSitemaps)-n.Sitemaps, 0)))
			first = took < len(ours) && !n.MapsLimited
			n.Sitemaps += int64(took)
			n.MapsLimited = n.MapsLimited || took < len(ours)
			return took > 0 || first
		})
		if err != nil {
			return nil, nil, err
		}
		if first {
			errs = append(errs, limitError(final, "sitemaps", c.MaxSitemaps, sitemap.ErrMaxSitemaps))
		}
		for _, ch := range ours[took:] {
			v, _ := json.Marshal(docEntry{URL: ch.URL, Parent: key, Depth: ch.Depth, State: stateLimited})
			if _, err := w.f.docs.Put(ctx, docKey(crawl, ch.URL), v); err != nil {
				return nil, nil, err
			}
			leftOut[docKey(crawl, ch.URL)] = true
		}
		ours = ours[:took]
	}
	err = pipelined(ctx, w.f.js, len(ours), func(i int) (*nats.Msg, jetstream.PublishOpt) {
		m := nats.NewMsg(jobsPrefix + crawl)
		m.Data, _ = json.Marshal(ours[i])
		return m, jetstream.WithMsgID(docKey(crawl, ours[i].URL))
	}, func(i int, err error) error {
		if err != nil {
			return fmt.Errorf("queue %s: %w", ours[i].URL, err)
		}
		return nil
	})
	return errs, leftOut, err
}

// again looks at the entry of a sitemap the document lists that was
// claimed before. One this document claimed and that is still queued (its
// job comes again: the worker that read it died) is queued again, and the
// server drops the copy by its id. It reports whether the sitemap limit
// left the sitemap out.
func (w *worker) again(ctx context.Context, crawl, parent string, ch job) (limited bool, err error) {
	key := docKey(crawl, ch.URL)
	e, err := w.f.docs.Get(ctx, key)
	if err != nil {
		return false, fmt.Errorf("claim %s: %w", ch.URL, err)
	}
	var d docEntry
	if json.Unmarshal(e.Value(), &d) != nil {
		return false, nil
	}
	if d.Parent == parent && d.State == stateQueued {
		return false, w.f.publishJob(ctx, crawl, key, ch)
	}
	return d.State == stateLimited, nil
}

// claimFinal claims the sitemap at final, where the request of the
// document j (under key) of crawl was redirected, as the library does in
// one call: listed sitemaps that redirect to one sitemap, or to one listed
// itself (or to a root), are one document, read once. The claim is the key
// of final in the docs bucket, the one a listing of final creates: a
// document whose claim finds it made by another (a listing, a root, or
// another redirect that landed there first) is a duplicate, and hands on
// nothing. It reports whether j is a duplicate; a document not redirected
// (final of the same request key) claims nothing.
func (w *worker) claimFinal(ctx context.Context, crawl, key string, j job, final string) (dup bool, err error) {
	if final == "" || store.RequestKey(final) == store.RequestKey(j.URL) {
		return false, nil
	}
	fkey := docKey(crawl, final)
	entry, _ := json.Marshal(docEntry{URL: final, Parent: key, Depth: j.Depth, State: stateRedirected})
	if _, err := w.f.docs.Create(ctx, fkey, entry); err == nil {
		return false, nil
	} else if !isConflict(err) {
		return false, fmt.Errorf("claim %s: %w", final, err)
	}
	e, err := w.f.docs.Get(ctx, fkey)
	if err != nil {
		return false, fmt.Errorf("claim %s: %w", final, err)
	}
	var d docEntry
	if json.Unmarshal(e.Value(), &d) != nil {
		return true, nil
	}
	// This document's own claim, when its job comes again.
	return d.Parent != key || d.State != stateRedirected, nil
}

// finalTap is the outermost transport of a crawl's client: it notes the
// URL of each request made under a context of a document's reading (each
// hop of a redirect in turn), so that the worker knows where the
// document's body came from before it hands on its first URL.
type finalTap struct{ base http.RoundTripper }

// finalOf is what finalTap notes for one document: the URL last requested.
type finalOf struct {
	mu  sync.Mutex
	loc string
}

type finalKey struct{}

func (t finalTap) RoundTrip(req *http.Request) (*http.Response, error) {
	if f, ok := req.Context().Value(finalKey{}).(*finalOf); ok {
		f.mu.Lock()
		f.loc = req.URL.String()
		f.mu.Unlock()
	}
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(req)
}

func (f *finalOf) get() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.loc
}

// pipeWindow is how many claims or jobs of the children of a document are
// published at once before their answers are waited for.
const pipeWindow = 256

// pipelined publishes the messages msg(0) to msg(n-1) without waiting for
// each answer, pipeWindow at a time, and hands each answer to done, in
// order: an index of thousands of sitemaps is claimed, and queued, in
// about one round trip a window. It returns the first error of done, or
// of the context.
func pipelined(ctx context.Context, js jetstream.JetStream, n int, msg func(int) (*nats.Msg, jetstream.PublishOpt), done func(int, error) error) error {
	futs := make([]jetstream.PubAckFuture, 0, min(n, pipeWindow))
	for start := 0; start < n; start += pipeWindow {
		futs = futs[:0]
		end := min(start+pipeWindow, n)
		var first error
		for i := start; i < end; i++ {
			m, opt := msg(i)
			fut, err := js.PublishMsgAsync(m, opt)
			if err != nil {
				first = fmt.Errorf("publish %s: %w", m.Subject, err)
				break
			}
			futs = append(futs, fut)
		}
		for k, fut := range futs {
			var err error
			select {
			case <-fut.Ok():
			case err = <-fut.Err():
			case <-ctx.Done():
				return ctx.Err()
			}
			if err := done(start+k, err); err != nil && first == nil {
				first = err
			}
		}
		if first != nil {
			return first
		}
	}
	return nil
}

// claimParallel is how many claims of the children of a document, found
// there already, are looked at once.
const claimParallel = 32

// parallel runs f for 0 to n-1, claimParallel at a time, and returns the
// first error.
func parallel(ctx context.Context, n int, f func(int) error) error {
	if n == 0 {
		return nil
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	next := make(chan int)
	for range min(n, claimParallel) {
		wg.Go(func() {
			for i := range next {
				if err := f(i); err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	return cmp.Or(first, ctx.Err())
}

func matchAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
