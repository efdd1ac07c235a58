package sitemap

import (
	"context"
	"sync"
)

// The scheduler of a call: the sitemaps that the documents read so far list
// wait in a queue, with no goroutine of their own, until their turn. One
// loop, on the goroutine of the call, takes them in turn: with
// multi-threading off it reads each one itself, and what a sitemap lists
// is followed before the sitemaps listed after it (depth first, in listed
// order, MULTI-7); with it on it starts a goroutine for each once a slot is
// free (MAXCONC-3), and the goroutine gives the slot back once its document
// is parsed, before what it lists is queued (MAXCONC-8). No goroutine waits
// for the sitemaps of an index, however deep the indexes nest.

// pending is what is left to follow of the sitemaps a document listed, at
// level.
type pending struct {
	children []child
	level    int
}

// queue holds the lists still to be followed, the latest on top, and counts
// the goroutines reading a sitemap, whose lists are still to come.
type queue struct {
	mu      sync.Mutex
	more    sync.Cond // signalled when a list is pushed or a goroutine ends
	lists   []pending
	reading int
}

// push puts the sitemaps of p on top of the queue, if there are any.
func (q *queue) push(p pending) {
	if len(p.children) == 0 {
		return
	}
	q.mu.Lock()
	q.lists = append(q.lists, p)
	q.mu.Unlock()
	q.more.Signal()
}

// pop takes the list on top of the queue, waiting while the queue is empty
// and a goroutine may still push one; false when none is left.
func (q *queue) pop() (pending, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.lists) == 0 {
		if q.reading == 0 {
			return pending{}, false
		}
		q.more.Wait()
	}
	last := len(q.lists) - 1
	p := q.lists[last]
	q.lists[last] = pending{}
	q.lists = q.lists[:last]
	return p, true
}

// started counts a goroutine that will push what its sitemap lists, and
// ended counts it out once it has.
func (q *queue) started() {
	q.mu.Lock()
	q.reading++
	q.mu.Unlock()
}

func (q *queue) ended() {
	q.mu.Lock()
	q.reading--
	q.mu.Unlock()
	q.more.Signal()
}

// follow fetches and parses the sitemaps a document lists, at level, and
// what they list in turn, until the queue is empty and no goroutine of the
// call is reading a sitemap.
func (c *call) follow(children []child, level int) {
	c.queue.push(pending{children, level})
	for {
		p, ok := c.queue.pop()
		if !ok {
			return
		}
		c.followList(p)
	}
}

// followList follows the sitemaps of p in listed order: with
// multi-threading on, each of them, in a goroutine of its own; with it off,
// up to the first one that is read, which it reads, and then it queues the
// rest of p and, on top of it, what that one lists. The sitemaps of p left
// out once the call is to read no more are no longer counted as listed,
// and the tree says why they were left out.
func (c *call) followList(p pending) {
	for i, ch := range p.children {
		read, stop, why := c.admit(&ch)
		if stop == "" && read && c.cfg.multiThread && !c.start(ch, p.level) {
			stop = StatusNotReached
		}
		if stop != "" {
			c.listed.Add(-int64(len(p.children) - i))
			c.leaveOut(p.children[i:], stop, why)
			return
		}
		if !read || c.cfg.multiThread {
			continue
		}
		grand, _ := c.read(ch, nil, p.level, false)
		c.queue.push(pending{p.children[i+1:], p.level})
		c.queue.push(pending{grand, p.level + 1})
		return
	}
}

// admit decides whether the sitemap ch is to be read, and takes its place
// against the fetch limit: read is false when it is left out on its own
// (the follow rules, or one requested already); stop, when not empty, is
// the status of ch and of the sitemaps listed after it, which the call is
// to read none of, and why the limit that stops it. A sitemap to be read
// that has no place in the tree is given one.
func (c *call) admit(ch *child) (read bool, stop Status, why error) {
	if c.ctx.Err() != nil {
		c.cut.Store(true)
		return false, StatusNotReached, nil
	}
	if !c.followed(ch.loc) || c.hooks.follow != nil && !c.hooks.follow(*ch) {
		c.listed.Add(-1)
		c.leaveOut([]child{*ch}, StatusNotFollowed, nil)
		return false, "", nil
	}
	if !c.claim(ch.key) {
		c.listed.Add(-1)
		c.leaveOut([]child{*ch}, StatusDuplicate, nil)
		return false, "", nil
	}
	if c.sinceSkips(*ch) {
		c.listed.Add(-1)
		c.leaveOut([]child{*ch}, StatusNotModifiedSince, nil)
		return false, "", nil
	}
	if c.urls.full() {
		// A sitemap is left out: it may hold URLs.
		c.limitURLs()
		return false, StatusLimited, errURLsLimit(c.cfg.maxURLs)
	}
	if !c.fetched.take() {
		c.limitSitemaps()
		return false, StatusLimited, errSitemapsLimit(c.cfg.maxSitemaps)
	}
	if ch.node < 0 {
		ch.node = c.s.addFetched(*ch)
	}
	return true, "", nil
}

// start waits for a slot (with no bound when the concurrency is 0), then
// reads the sitemap ch in a goroutine of its own, which gives the slot back
// once the document is parsed and queues what it lists; false when the
// context ended the wait.
func (c *call) start(ch child, level int) bool {
	if c.slots != nil {
		if err := c.slots.Acquire(c.ctx, 1); err != nil {
			c.cut.Store(true)
			return false
		}
	}
	c.queue.started()
	c.wg.Go(func() {
		defer c.queue.ended()
		c.guard(func() {
			c.holdSlot(ch.loc, true)
			grand, _ := c.read(ch, nil, level, false)
			c.holdSlot(ch.loc, false)
			if c.slots != nil {
				c.slots.Release(1)
			}
			c.queue.push(pending{grand, level + 1})
		})
	})
	return true
}

// outsideSlot runs wait, a wait of the request for loc for a retry or for
// its host (fetch.go: send), outside the call's slot: a goroutine that holds
// one gives it back for the wait and takes one again after, so that a wait
// stops no other sitemap from being read. Only the reads that start runs
// hold a slot, each under its URL (holdSlot); the document passed to
// Parse, the candidates of a discovery, and every document with
// multi-threading off are read with none. When the context ends while the
// slot is to be taken again, it is taken regardless, as the goroutine gives
// it back once it ends, which it does at once.
func (c *call) outsideSlot(loc string, wait func() error) error {
	if c.slots == nil || !c.holdsSlot(loc) {
		return wait()
	}
	c.slots.Release(1)
	err := wait()
	if c.slots.Acquire(c.ctx, 1) != nil {
		_ = c.slots.Acquire(context.Background(), 1)
	}
	return err
}

// holdSlot marks the read of the sitemap at loc as holding a slot, or no
// longer. A sitemap is read once in a call, so its URL names its read.
func (c *call) holdSlot(loc string, held bool) {
	if c.slots == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if held {
		if c.slotHeld == nil {
			c.slotHeld = map[string]bool{}
		}
		c.slotHeld[loc] = true
	} else {
		delete(c.slotHeld, loc)
	}
}

// holdsSlot reports whether the read of the sitemap at loc holds a slot.
func (c *call) holdsSlot(loc string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.slotHeld[loc]
}
