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
	// URLs is, with [Incremental.Changes] on, what the call keeps of the
	// URLs a urlset listed, to compare the next run with: their locations,
	// sorted and front-coded, each with a fingerprint of its lastmod, about
	// a dozen bytes a URL. It is opaque to a store, which keeps it as it is
	// given; the call never changes the slice it puts or gets. It is nil
	// for a record put with changes off: the next run with them on fetches
	// the sitemap once without validators, to learn its URLs.
	URLs []byte `json:"urls,omitempty"`
	// Run is the run of a streaming call that put the record (see
	// [Store]), 0 for a record put by a call that does not stream.
	Run uint64 `json:"run,omitempty"`
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
//
// A store keeps every field of a Record as it is put, URLs and Run
// included. Beside the records of the sitemaps, a streaming call keeps the
// state of its runs under the key "#run " followed by the key of the
// document given: a Record with Run, the number of the run, and URLs, an
// opaque state (whether the run ended complete, and the URLs it keeps as
// unknown). A call that resumes reads it first, then the records; for a
// resume to survive the process being killed, a Put must be durable when
// it returns (written to a database, or appended to a file as store.File
// does), not held until the call ends. The context a call gives Put has
// the values of the call's but is never cancelled: a record vouches for
// URLs already handed on, and the last of a streaming call is put as the
// call ends.
type Store interface {
	Get(ctx context.Context, key string) (Record, bool, error)
	Put(ctx context.Context, key string, r Record) error
}

// A Syncer is a [Store] that holds what it is given until Sync writes it
// out: a call syncs its store when it ends.
type Syncer interface {
	Sync() error
}
