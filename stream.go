package sitemap

import (
	"context"
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
// ended; nothing is recorded about the call being cut short then. The URLs
// of a document are handed on while it is read, so when a document turns
// out to be broken further on, its URLs have already been handed on before
// its *ParseError; they count against [S.SetMaxURLs] like any other.
//
// Like Parse, a streaming call waits for any other call on s to end, and
// holds s until its loop ends: the body of the loop must not start another
// call on s. The getters may be called from it. A nil ctx is taken as
// [context.Background], as ParseContext takes it.
func (s *S) Stream(ctx context.Context, url string, urlContent *string) iter.Seq2[URL, error] {
	return func(yield func(URL, error) bool) {
		s.parsing.Lock()
		defer s.parsing.Unlock()
		s.mu.Lock()
		s.initialise()
		s.reset()
		cfg := s.cfg
		outstanding := len(s.configErrs) > 0
		s.mu.Unlock()
		if outstanding {
			yield(URL{}, errConfigOutstanding)
			return
		}

		if ctx == nil {
			ctx = context.Background()
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		out := make(chan []item, 16)
		stop := make(chan struct{})
		c := newCall(ctx, s, cfg, url)
		c.emit, c.stop = out, stop
		go func() {
			defer close(out)
			c.run(urlContent)
		}()
		for batch := range out {
			for _, it := range batch {
				if !yield(it.u, it.err) {
					close(stop)
					cancel()
					for range out {
					}
					return
				}
			}
			clear(batch)
			batch = batch[:0]
			itemBatches.Put(&batch)
		}
	}
}
