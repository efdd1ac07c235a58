// Package fleet reads the sitemaps of the web with a fleet of workers on
// NATS JetStream: one process on an embedded server, or any number of
// workers on any number of machines around a server or a cluster of them.
//
// The unit of work is one document (a robots.txt, an index, a sitemap), a
// job on a work-queue stream. A worker reads it through the library with
// [sitemap.Selection] RootOnly, so that it follows nothing itself;
// publishes its URLs, as the JSON lines of "sitemap -format jsonl", to an
// output stream in batches of up to 1,000, each with a message id made of
// the crawl, the document and the batch; claims each sitemap it lists once
// per crawl (a key created in the docs bucket) and queues it; and then
// acknowledges its job. A worker that dies mid-document loses nothing: the
// job is delivered again after the AckWait, and what is published again is
// dropped by its id. The crawl is done when its subject of the work queue
// holds no message: a job is removed only once acknowledged, after the
// jobs of what its document lists are queued; the reader of its output
// learns it from the entries of its documents in the docs bucket, which
// it watches. A crawl may be a listing
// ([Crawl] Sitemaps, "sitemap -sitemaps"): its output then holds the
// sitemaps its documents list, which [Fleet.Sitemaps] merges, and no URL.
//
// The limits of a crawl on URLs and sitemaps are counted across the fleet
// by compare-and-set on a counter's revision; the limits per host
// (requests in flight, requests a second) by leases on slot keys and a
// key holding the next turn of the host. The library's store of
// conditional fetching is [Store], on a bucket. With [Crawl] Changes,
// each URL says what became of it since the last crawl with the same
// State, over the whole tree as the library compares it in one call:
// each worker compares its document with its record through the library,
// and with a snapshot of the last tree taken at Submit, and the reader of
// the output hands on the URLs gone once the crawl is done. Only what
// NATS 2.9.10 has is used.
package fleet
