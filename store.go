package sitemap

import "context"

// This file is what conditional fetching keeps between runs, as the call
// sees it: the Store interface and its Record. The stores the module ships,
// in memory and in a file, are in the package store.

// A Record is what a [Store] keeps of one sitemap (or robots.txt) from the
// last run that read it whole.
type Record struct {
	// ETag and LastModified are the validators of the response, as the
	// server sent them, to be sent back in If-None-Match and
	// If-Modified-Since. Either may be empty.
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"lastModified,omitempty"`
	// IndexLastMod is the <lastmod> that the index which listed the sitemap
	// gave it, as written, or empty.
	IndexLastMod string `json:"indexLastmod,omitempty"`
	// Children are, for a sitemap index or a robots.txt, the sitemaps it
	// listed, in order: what an unchanged index still leads to.
	Children []StoredChild `json:"children,omitempty"`
	// Format is the format the document was read as.
	Format Format `json:"format,omitempty"`
}

// A StoredChild is a sitemap that an index listed, with the <lastmod> it
// was listed with, as written.
type StoredChild struct {
	Loc     string `json:"loc"`
	LastMod string `json:"lastmod,omitempty"`
}

// A Store keeps a [Record] per sitemap between runs. Its keys are the
// request keys of the sitemaps, a password in the user information
// replaced by xxxxx. A fleet of crawlers can put it on a database of its
// own; the package store holds the two the module ships, store.Memory and
// store.File.
//
// The methods are called from the goroutines of a call at the same time: an
// implementation must be safe for concurrent use. Get reports false when it
// holds no record for key. An error of either is recorded about the
// sitemap (a *ParseError) and the sitemap is read as with no store.
type Store interface {
	Get(ctx context.Context, key string) (Record, bool, error)
	Put(ctx context.Context, key string, r Record) error
}

// A Syncer is a [Store] that holds what it is given until Sync writes it
// out: a call syncs its store when it ends.
type Syncer interface {
	Sync() error
}
