package fleet

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gositemap/sitemap/internal/polite"
	"github.com/gositemap/sitemap/internal/urlnorm"
	"github.com/nats-io/nats.go/jetstream"
)

// This file is politeness across the fleet: at most K requests in flight
// to a host, and at most R a second, whichever worker sends them. Both are
// kept in the hosts bucket with compare-and-set on revisions, as NATS
// 2.9.10 has them: K slot keys a host, each a lease that a worker takes
// (create, or update of an expired lease at its revision), gives back
// (delete at its revision) or that expires on its own when a worker dies
// with it (the expiry is written in the lease and checked by the next
// taker: per-message TTLs need NATS 2.11); and one key a host for the time
// of its next turn, moved on by 1/R with every request, or by the host's
// Crawl-delay when the crawl honours it and that is longer.

// hostGate is the transport of a crawl with host limits: each request
// takes a slot of its host, then its turn, before it is sent, and gives
// the slot back once its body is closed.
type hostGate struct {
	f     *Fleet
	base  http.RoundTripper
	crawl *Crawl
	name  string // the crawl's
	owner string
}

// lease is the value of a slot key.
type lease struct {
	Owner   string    `json:"owner"`
	Expires time.Time `json:"expires"`
}

func (g *hostGate) RoundTrip(req *http.Request) (*http.Response, error) {
	base := g.base
	if base == nil {
		base = http.DefaultTransport
	}
	host := hostKey(req.URL.Host)
	release, err := g.slot(req.Context(), host)
	if err != nil {
		return nil, err
	}
	if err := g.turn(req.Context(), host); err != nil {
		release()
		return nil, err
	}
	resp, err := base.RoundTrip(req)
	if err != nil {
		release()
		return nil, err
	}
	if g.crawl.CrawlDelay && resp.StatusCode == http.StatusOK && urlnorm.IsRobots(req.URL.String()) {
		resp.Body = g.readDelay(resp.Body, host)
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

// hostKey is the token of a host in the keys of the hosts bucket.
func hostKey(host string) string {
	h := sha256.Sum256([]byte(host))
	return hex.EncodeToString(h[:10])
}

// slot takes a slot of host, waiting while all K are held, and returns
// the function that gives it back. With no limit it takes none.
func (g *hostGate) slot(ctx context.Context, host string) (func(), error) {
	k := g.crawl.MaxHostConcurrency
	if k <= 0 {
		return func() {}, nil
	}
	kv := g.f.hosts
	// A lease outlives the longest request, body included, that the
	// library lets run: its timeout, and a margin.
	hold := 2*g.crawl.timeout() + 5*time.Second
	wait := 2 * time.Millisecond
	start := rand.IntN(k)
	for {
		for i := range k {
			key := "slot." + host + "." + strconv.Itoa((start+i)%k)
			v, _ := json.Marshal(lease{Owner: g.owner, Expires: time.Now().Add(hold)})
			rev, err := kv.Create(ctx, key, v)
			if err != nil && isConflict(err) {
				e, gerr := kv.Get(ctx, key)
				if gerr != nil {
					continue
				}
				var l lease
				if json.Unmarshal(e.Value(), &l) == nil && time.Now().Before(l.Expires) {
					continue
				}
				rev, err = kv.Update(ctx, key, v, e.Revision())
			}
			if err == nil {
				var once sync.Once
				return func() {
					once.Do(func() {
						ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
						defer cancel()
						kv.Delete(ctx, key, jetstream.LastRevision(rev))
					})
				}, nil
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
		t := time.NewTimer(wait + time.Duration(rand.Int64N(int64(wait))))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, 50*time.Millisecond)
	}
}

// turn waits for the next turn of host under the rate of the crawl and
// the Crawl-delay recorded for the host: it moves the host's next turn on
// by the longer of the two, by compare-and-set, and waits until the turn
// it took.
func (g *hostGate) turn(ctx context.Context, host string) error {
	var step time.Duration
	if r := g.crawl.HostRate; r > 0 {
		step = time.Duration(float64(time.Second) / r)
	}
	if g.crawl.CrawlDelay {
		d, err := g.delay(ctx, host)
		if err != nil {
			return err
		}
		step = max(step, d)
	}
	if step <= 0 {
		return nil
	}
	return g.move(ctx, host, func(at time.Time) (time.Time, time.Time) { return at, at.Add(step) })
}

// move changes the next turn of host by compare-and-set: next is given
// the turn recorded (now when it is past or none is) and returns the turn
// taken and the next one. move waits until the turn taken.
func (g *hostGate) move(ctx context.Context, host string, next func(time.Time) (time.Time, time.Time)) error {
	kv := g.f.hosts
	key := "rate." + host
	for {
		now := time.Now()
		at := now
		e, err := kv.Get(ctx, key)
		var rev uint64
		switch {
		case err == nil:
			rev = e.Revision()
			if n, err := strconv.ParseInt(string(e.Value()), 10, 64); err == nil {
				at = time.Unix(0, n)
			}
			if at.Before(now) {
				at = now
			}
		case !errors.Is(err, jetstream.ErrKeyNotFound):
			return err
		}
		taken, after := next(at)
		at = taken
		v := []byte(strconv.FormatInt(after.UnixNano(), 10))
		if rev == 0 {
			_, err = kv.Create(ctx, key, v)
		} else {
			_, err = kv.Update(ctx, key, v, rev)
		}
		if err != nil {
			if isConflict(err) {
				continue
			}
			return err
		}
		if d := time.Until(at); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
		return nil
	}
}

// delayKey is the key, in the crawls bucket, of the Crawl-delay a worker
// recorded for host: under the crawl, as the library honours only the
// robots.txt a call reads, and kept as long as the crawl's record.
func (g *hostGate) delayKey(host string) string {
	return g.name + ".delay." + host
}

// delay returns the Crawl-delay recorded for host in the crawl, 0 when
// none is.
func (g *hostGate) delay(ctx context.Context, host string) (time.Duration, error) {
	e, err := g.f.crawls.Get(ctx, g.delayKey(host))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, _ := strconv.ParseInt(string(e.Value()), 10, 64)
	return time.Duration(n), nil
}

// readDelay returns body, read through the one reader of the groups of a
// robots.txt (internal/polite) as it goes: once it is closed, the
// Crawl-delay that applies to the crawl's user agent, if any, is recorded
// for host, and the host's next turn is put off by it.
func (g *hostGate) readDelay(body io.ReadCloser, host string) io.ReadCloser {
	return &delayBody{ReadCloser: body, delay: polite.NewDelay(polite.NewAgent(g.crawl.UserAgent)), done: func(secs float64) {
		d := min(time.Duration(secs*float64(time.Second)), polite.MaxCrawlDelay)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := g.f.crawls.Put(ctx, g.delayKey(host), []byte(strconv.FormatInt(int64(d), 10))); err != nil {
			return
		}
		// The next request to the host waits the delay from now, as the
		// library's pace starts when it reads the robots.txt.
		g.move(ctx, host, func(at time.Time) (time.Time, time.Time) {
			return time.Now(), later(at, time.Now().Add(d))
		})
	}}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// maxRobotsLine is the longest line of a robots.txt a delayBody reads
// whole; the rest of a longer one is dropped.
const maxRobotsLine = 4096

// delayBody reads the lines of a robots.txt as they are read, and hands
// on the Crawl-delay that applies once when it is closed.
type delayBody struct {
	io.ReadCloser
	delay *polite.Delay
	line  []byte
	done  func(secs float64)
	once  sync.Once
}

func (b *delayBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	for rest := p[:n]; len(rest) > 0; {
		chunk, tail, found := bytes.Cut(rest, []byte{'\n'})
		if room := maxRobotsLine - len(b.line); room > 0 {
			b.line = append(b.line, chunk[:min(len(chunk), room)]...)
		}
		if !found {
			break
		}
		b.feed()
		rest = tail
	}
	return n, err
}

// feed reads the line gathered, without its comment.
func (b *delayBody) feed() {
	line, _, _ := bytes.Cut(b.line, []byte{'#'})
	b.delay.Line(line)
	b.line = b.line[:0]
}

func (b *delayBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(func() {
		if len(b.line) > 0 {
			b.feed()
		}
		if rank, secs := b.delay.Delay(); rank != polite.None && secs > 0 {
			b.done(secs)
		}
	})
	return err
}

// releasingBody gives the slot of its request back when it is closed.
type releasingBody struct {
	io.ReadCloser
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}
