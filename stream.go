package sitemap

import (
	"context"
	"io"
	"iter"
)

// Stream runs the same call as [S.ParseContext], with the same settings,
// limits, rules and scheduler, but hands each URL to the loop once its entry
// has been checked, instead of keeping it: the URLs of the call are not
// added to [S.GetURLs], so memory stays flat however many pass through. It
// is made for crawlers that read millions of URLs. A document hands its URLs
// on in small batches, never holding one back while it waits for more of
// the document to arrive.
//
// The loop gets a URL with a nil error, or an error with a zero URL: every
// error the call records, in the order it records them, among them the one
// ParseContext would return. The errors are recorded in [S.GetErrors] as
// well, and the sitemaps in [S.GetSitemaps]. The URLs are the loop's own.
//
// Breaking out of the loop ends the call: the requests in flight are
// cancelled, and the loop returns once the goroutines of the call have
// ended; nothing is recorded about the call being cut short then, nor about
// the requests the break cancelled. A panic in the body of the loop ends the
// call in the same way before it goes on up; a panic of the caller's code
// on a goroutine of the call (see [S.ParseContext]) ends the loop and is
// raised again from it as a *PanicError. The URLs
// of a document are handed on while it is read, so when a document turns
// out to be broken further on, its URLs have already been handed on before
// its *ParseError; they count against [S.SetMaxURLs] like any other.
//
// The time the body of the loop takes is not charged to the fetch of the
// document being read, however long it is: with the default client, the
// fetch timeout counts the time each request waits for the server (for the
// response, then for each part of the body) rather than the time from the
// request to the end of the body, as it does for ParseContext. A client set
// with [S.SetHTTPClient] is used as it is: its Timeout covers the reading of
// the body, as net/http defines it, and so the time of the loop too; leave
// it 0 and bound the call with ctx, or with a Transport's
// ResponseHeaderTimeout, to stream slowly with a client of your own.
//
// Like Parse, a streaming call waits for any other call on s to end, and
// holds s until its loop ends: the body of the loop must not start another
// call on s. The getters may be called from it. A nil ctx is taken as
// [context.Background], as ParseContext takes it.
func (s *S) Stream(ctx context.Context, url string, urlContent *string) iter.Seq2[URL, error] {
	return s.stream(ctx, url, func() io.Reader { return contentReader(urlContent) }, nil)
}

// StreamReader is [S.Stream] for a document the caller has at hand: r is
// the document located at url, never fetched, as [S.ParseReader] reads it.
// The caller owns r, as there.
func (s *S) StreamReader(ctx context.Context, url string, r io.Reader) iter.Seq2[URL, error] {
	if r == nil {
		r = nilBody
	}
	return s.stream(ctx, url, func() io.Reader { return r }, nil)
}

// stream is the call of Stream, StreamReader and DiscoverStream: body
// returns the document given, nil when it is to be fetched, each time the
// sequence is ranged over; prep, when not nil, makes the call begun one of
// a feature (a discovery).
func (s *S) stream(ctx context.Context, url string, body func() io.Reader, prep func(*call)) iter.Seq2[URL, error] {
	return func(yield func(URL, error) bool) {
		c, err := s.begin(ctx, url)
		defer s.parsing.Unlock()
		if err != nil {
			yield(URL{}, err)
			return
		}

		if prep != nil {
			prep(c)
		}
		out := make(chan []item, 16)
		c.emit = out
		c.f.chargeServerOnly()
		go func() {
			defer close(out)
			c.guard(func() { c.run(body()) })
		}()
		// However the loop ends (it is left, its body panics, or the call
		// has handed on everything), the call ends with it, and its
		// goroutines have ended before the loop returns. A panic of the
		// body goes on up then, as it is, once the store has ended too.
		stored := false
		defer func() {
			c.halt()
			for range out {
			}
			if !stored {
				c.endStore()
			}
		}()
	loop:
		for batch := range out {
			if c.stopped() {
				break // a goroutine of the call panicked
			}
			for _, it := range batch {
				if it.after != nil {
					// What the document yielded is handed on: its record
					// is put.
					if err := it.after(); err != nil {
						s.record(err)
						it.err = err
					} else {
						continue
					}
				}
				if !yield(it.u, it.err) {
					break loop
				}
			}
			clear(batch)
			batch = batch[:0]
			itemBatches.Put(&batch)
		}
		c.halt()
		for range out {
		}
		stored = true
		c.endStore()
		c.raise()
	}
}
