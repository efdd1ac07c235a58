package fleet

import (
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
// of its next turn, moved on by 1/R with every request.

// hostGate is the transport of a crawl with host limits: each request
// takes a slot of its host, then its turn, before it is sent, and gives
// the slot back once its body is closed.
type hostGate struct {
	f     *Fleet
	base  http.RoundTripper
	crawl *Crawl
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

// turn waits for the next turn of host under the rate of the crawl: it
// moves the host's next turn on by 1/R, by compare-and-set, and waits
// until the turn it took.
func (g *hostGate) turn(ctx context.Context, host string) error {
	r := g.crawl.HostRate
	if r <= 0 {
		return nil
	}
	kv := g.f.hosts
	key := "rate." + host
	step := time.Duration(float64(time.Second) / r)
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
		next := []byte(strconv.FormatInt(at.Add(step).UnixNano(), 10))
		if rev == 0 {
			_, err = kv.Create(ctx, key, next)
		} else {
			_, err = kv.Update(ctx, key, next, rev)
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
