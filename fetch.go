package sitemap

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"time"
)

// fetcher sends the requests of one call.
type fetcher struct {
	client    *http.Client
	userAgent string
	maxSize   int64
}

// newFetcher returns the fetcher of a call: the client set with
// SetHTTPClient, used as it is, or one of its own with the fetch timeout.
func newFetcher(cfg *config) *fetcher {
	client := cfg.httpClient
	if client == nil {
		client = &http.Client{Timeout: time.Duration(cfg.fetchTimeout) * time.Second}
	}
	return &fetcher{client: client, userAgent: cfg.userAgent, maxSize: cfg.maxResponseSize}
}

// errStatus is the cause of the *NetworkError of a response whose status is
// not 200 OK.
type errStatus struct{ status string }

func (e errStatus) Error() string { return "unexpected HTTP status " + e.status }

// bodyError is an error of reading a response body: the connection broke
// off, the deadline passed, or the body grew past the size limit. It is told
// apart from an error of decoding the content, which is a parse error.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

// get requests rawURL. It returns the body, capped at the size limit, and
// the URL the body was served from after redirects. Errors reading the body
// come back as *bodyError.
func (f *fetcher) get(ctx context.Context, rawURL string) (*cappedBody, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("User-Agent", f.userAgent)
	resp, err := f.client.Do(req)
	if err != nil {
		// A *url.Error repeats the method and the URL, which the
		// *NetworkError gives already.
		if ue, ok := err.(*url.Error); ok {
			err = ue.Err
		}
		return nil, "", err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, "", errStatus{resp.Status}
	}
	if resp.ContentLength > f.maxSize {
		resp.Body.Close()
		return nil, "", errSizeLimit(f.maxSize)
	}
	final := rawURL
	if resp.Request != nil && resp.Request.URL != nil {
		final = resp.Request.URL.String()
	}
	return &cappedBody{rc: resp.Body, left: f.maxSize, limit: f.maxSize, size: resp.ContentLength}, final, nil
}

// cappedBody is a response body that fails with an error wrapping
// ErrMaxResponseSize once it has given more than limit bytes, rather than
// cutting the document short without a word.
type cappedBody struct {
	rc    io.ReadCloser
	left  int64 // how many more bytes may be read
	limit int64
	size  int64 // the Content-Length of the response, -1 when unknown
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, &bodyError{errSizeLimit(b.limit)}
	}
	// Read one byte beyond the limit, to tell a body of exactly the limit
	// from a longer one.
	// (len(p)-1 > left rather than len(p) > left+1: left+1 overflows for
	// a limit of math.MaxInt64.)
	if size := int64(len(p)); size > 0 && size-1 > b.left {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n + int(b.left), &bodyError{errSizeLimit(b.limit)}
	}
	if err != nil && err != io.EOF {
		err = &bodyError{err}
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
