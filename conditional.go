package sitemap

import (
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/gositemap/sitemap/internal/dates"
	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is conditional fetching and Since: the settings, and the
// call's side of them. A call with a store looks up the record of each
// sitemap before its request, sends its validators, reads a 304 Not
// Modified as "unchanged" (and follows what an unchanged index listed from
// the record), and puts a new record for each document it read whole.

// condConfig is the configuration of conditional fetching and of Since.
// Its zero value turns both off, as the spec has it.
type condConfig struct {
	store        Store
	since        time.Time
	trustLastmod bool
}

// fieldStore is the name of the setting of SetStore and SetStateFile.
const fieldStore = "store"

// SetStore sets the store of conditional fetching; nil, the default, turns
// it off. With a store set, a call looks up the [Record] of each sitemap it
// is to fetch (by its request key, a password redacted), sends its ETag in
// If-None-Match and its Last-Modified in If-Modified-Since, and takes a 304
// Not Modified for an answer: the sitemap's status in [S.GetDocuments] is
// [StatusUnchanged], its URLs are not read again, and the sitemaps an
// unchanged index listed are followed from the record, each checked in
// turn. A 304 to a request sent without validators is the *NetworkError of
// any status other than 200.
//
// A document updates its record only when it was read to its end with no
// error and every URL of it was delivered: one cut short by
// [S.SetMaxURLs], the listing limit, the context, a break out of the loop of
// [S.Stream], or a truncation keeps its old record, so that the next run
// reads it again rather than receiving a 304 for URLs nobody got. A store
// that fails to get or put a record is reported as a *ParseError naming
// the sitemap, wrapping its error; the sitemap is read as with no store. A
// store that is a [Flusher] is flushed when the call ends. The document
// given as content or a reader is never looked up.
func (s *S) SetStore(st Store) *S {
	return s.set(fieldStore, func() error { return nil }, func(c *config) { c.cond.store = st })
}

// SetStateFile sets as the store a [FileStore] on the file at path, opened
// now (see [OpenFileStore]). A file that cannot be opened, or is corrupt or
// foreign while discardCorrupt is false, is rejected with a *ConfigError
// naming the file, and the store stays as it was; while that error is
// outstanding, Parse parses nothing.
func (s *S) SetStateFile(path string, discardCorrupt bool) *S {
	var fs *FileStore
	return s.set(fieldStore, func() (err error) { fs, err = OpenFileStore(path, discardCorrupt); return err },
		func(c *config) { c.cond.store = fs })
}

// GetStore returns the store of conditional fetching, nil when none is set.
func (s *S) GetStore() Store { return get(s, func(c *config) Store { return c.cond.store }) }

// SetTrustIndexLastmod turns on or off the trust in the <lastmod> of a
// sitemap index; it is off by default, and needs a store ([S.SetStore]).
// With it on, a sitemap whose index gives it the same <lastmod> as the one
// the record of its last reading holds is not fetched at all: its status is
// [StatusUnchanged], and, for an index, what it listed is followed from the
// record. It saves the request of every unchanged sitemap, and trusts the
// index to move a <lastmod> when the sitemap changes.
func (s *S) SetTrustIndexLastmod(on bool) *S {
	return s.set("trustIndexLastmod", func() error { return nil }, func(c *config) { c.cond.trustLastmod = on })
}

// GetTrustIndexLastmod reports whether the <lastmod> of an index is
// trusted, see [S.SetTrustIndexLastmod].
func (s *S) GetTrustIndexLastmod() bool {
	return get(s, func(c *config) bool { return c.cond.trustLastmod })
}

// SetSince sets the time a call asks for changes since; the zero time, the
// default, asks for everything. With a time set, a URL whose lastmod is
// older is left out, and does not count towards [S.SetMaxURLs], as with
// [S.SetRules]; a sitemap whose index gives it a <lastmod> older than the
// time is listed by [S.GetSitemaps] but not fetched, with the status
// [StatusNotModifiedSince]. A URL or sitemap with no date, or a date that
// cannot be read, is kept. A date without a time is compared at its own
// precision: 2024-01-15 is kept for a time of 2024-01-15T12:00, as 2024-01
// is for any time in January 2024.
func (s *S) SetSince(t time.Time) *S {
	return s.set("since", func() error { return nil }, func(c *config) { c.cond.since = t })
}

// GetSince returns the time a call asks for changes since, zero when none.
func (s *S) GetSince() time.Time { return get(s, func(c *config) time.Time { return c.cond.since }) }

// condState is the state of conditional fetching in one call.
type condState struct {
	cfg condConfig

	mu      sync.Mutex
	records map[string]Record // the records looked up, by store key
}

// initCond sets up conditional fetching and Since for the call, when its
// configuration asks for either.
func (c *call) initCond() {
	if c.cfg.cond.store == nil && c.cfg.cond.since.IsZero() {
		return
	}
	c.cond = &condState{cfg: c.cfg.cond, records: map[string]Record{}}
	if c.cond.cfg.store != nil {
		c.f.validators = func(rawURL string) Record { return c.cond.record(storeKey(rawURL)) }
	}
}

// attachCond attaches the hooks of conditional fetching to the call, when
// it has a store: when the call starts to read, after those its entry
// point attached (a discovery reads its candidates itself, without a
// record).
func (c *call) attachCond() {
	if c.cond != nil && c.cond.cfg.store != nil {
		c.attach(hooks{instead: c.readUnchanged, notModified: c.readNotModified, whole: c.remember})
	}
}

// storeKey is the key of the record of the sitemap at loc: its request key,
// with a password in the user information replaced by xxxxx.
func storeKey(loc string) string { return redact(urlnorm.Key(loc)) }

func (k *condState) record(key string) Record {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.records[key]
}

// lookup gets the record of the sitemap ch from the store, and keeps it for
// the validators of its request. An error of the store is recorded.
func (c *call) lookup(ch child) (Record, bool) {
	key := storeKey(ch.loc)
	rec, ok, err := c.cond.cfg.store.Get(c.ctx, key)
	if err != nil {
		c.record(&ParseError{URL: ch.loc, Err: fmt.Errorf("state store: %w", err)})
		return Record{}, false
	}
	if ok {
		c.cond.mu.Lock()
		c.cond.records[key] = rec
		c.cond.mu.Unlock()
	}
	return rec, ok
}

// readUnchanged is the start of the read of the sitemap ch with a store:
// it looks up its record, and when the <lastmod> its index gives it is the
// record's and SetTrustIndexLastmod is on, reads it from the record instead
// of fetching it (done).
func (c *call) readUnchanged(ch child, level int, robots bool, start time.Time) (children []child, err error, done bool) {
	rec, ok := c.lookup(ch)
	if !ok || !c.cond.cfg.trustLastmod || ch.lastmod == "" || !sameLastmod(rec.IndexLastmod, ch.lastmod) {
		return nil, nil, false
	}
	c.fetched.giveBack(1) // it is not fetched
	return c.replay(ch, rec, level, robots, response{}, start), nil, true
}

// readNotModified reads the sitemap ch, which its server says is unchanged
// since the record, from the record.
func (c *call) readNotModified(ch child, level int, robots bool, resp response, start time.Time) []child {
	return c.replay(ch, c.cond.record(storeKey(ch.loc)), level, robots, resp, start)
}

// replay reads the sitemap ch from its record rec: the sitemaps it listed,
// with their <lastmod>, are listed again and followed as if it had been
// read, and its status is StatusUnchanged. resp is the 304 that said so,
// none when the index's <lastmod> did.
func (c *call) replay(ch child, rec Record, level int, robots bool, resp response, start time.Time) []child {
	final := resp.final
	if final == "" {
		final = ch.loc
	}
	base, err := url.Parse(final)
	if err != nil {
		base = &url.URL{}
	}
	d := newDoc(c, base, final)
	d.src, d.node, d.found, d.format = newSource(ch.loc), ch.node, FoundIndex, docFormatOf(rec.Format)
	if robots {
		d.found, d.format = FoundRobots, formatRobots
	}
	c.observe(ch, level, d)
	var e rawEntry
	for _, sc := range rec.Children {
		e.reset(true, false)
		e.loc.set, e.lastmod.set = true, sc.Lastmod != ""
		e.loc.append([]byte(sc.Loc))
		e.lastmod.append([]byte(sc.Lastmod))
		d.entry(&e)
	}
	deep := level+1 > c.cfg.maxDepth
	c.commit(d, deep)
	c.s.updateDoc(ch.node, func(n *Document) {
		n.FinalURL, n.HTTPStatus = final, resp.status
		n.ContentType, n.ETag, n.LastModified = resp.contentType, resp.etag, resp.lastModified
	})
	c.parsed(d, start, StatusUnchanged, nil)
	if ch.lastmod != "" && ch.lastmod != rec.IndexLastmod && resp.status != 0 {
		// The server says it is unchanged, though the index moved its
		// date: the record takes the new one.
		rec.IndexLastmod = ch.lastmod
		c.put(ch.loc, rec)
	}
	return c.toFollow(d, deep, final)
}

// docFormatOf is the docFormat of a Format kept in a record.
func docFormatOf(f string) docFormat {
	for df := formatURLSet; df <= formatRobots; df++ {
		if string(formatOf(df)) == f {
			return df
		}
	}
	return formatIndex
}

// remember puts the record of the sitemap ch, read whole into d with the
// response resp, when nothing of it was left out: no URL for the URL limit
// (which, once full, may have cut any document) or for Since, which a later
// run may not ask for, and no sitemap for the listing limit.
func (c *call) remember(ch child, d *doc, resp response) {
	if c.urls.full() || d.listFull || d.leftOut > 0 || d.sinceOut > 0 {
		return
	}
	rec := Record{ETag: resp.etag, LastModified: resp.lastModified, IndexLastmod: ch.lastmod, Format: string(formatOf(d.format))}
	for i, sm := range d.sitemaps {
		rec.Children = append(rec.Children, StoredChild{Loc: sm.Loc, Lastmod: d.lastmodRaw[d.keys[i]]})
	}
	if rec.ETag == "" && rec.LastModified == "" && rec.IndexLastmod == "" && len(rec.Children) == 0 {
		return // nothing a later run could use
	}
	c.put(ch.loc, rec)
}

// put puts rec as the record of the sitemap at loc. In a streaming call,
// the loop puts it, once it has handed on everything the document yielded:
// a loop left before that leaves the old record.
func (c *call) put(loc string, rec Record) {
	put := func() error {
		if err := c.cond.cfg.store.Put(c.ctx, storeKey(loc), rec); err != nil {
			return &ParseError{URL: loc, Err: fmt.Errorf("state store: %w", err)}
		}
		return nil
	}
	if c.emit != nil {
		c.emitItem(item{put: put})
		return
	}
	if err := put(); err != nil {
		c.record(err)
	}
}

// endStore flushes the store of the call when it is a Flusher. An error is
// recorded in the results, about the document given.
func (c *call) endStore() {
	if c.cond == nil || c.cond.cfg.store == nil {
		return
	}
	if f, ok := c.cond.cfg.store.(Flusher); ok {
		if err := f.Flush(); err != nil {
			c.s.record(&ParseError{URL: c.root, Err: fmt.Errorf("state store: %w", err)})
		}
	}
}

// sameLastmod reports whether two <lastmod> values, as written, are the
// same time.
func sameLastmod(a, b string) bool {
	if a == b {
		return true
	}
	ta, oka := dates.ParseW3C(a)
	tb, okb := dates.ParseW3C(b)
	return oka && okb && ta.Equal(tb)
}

// noteLastmod keeps the <lastmod> of the sitemap with key, as written, for
// the record of the document and for Since, when the call has either: of a
// sitemap listed twice, the later.
func (d *doc) noteLastmod(key string, raw []byte, t *LastModTime) {
	if d.c.cond == nil || t == nil {
		return
	}
	if old, ok := d.lastmodRaw[key]; ok {
		if ot, ok := dates.ParseW3C(old); ok && !t.After(ot) {
			return
		}
	}
	if d.lastmodRaw == nil {
		d.lastmodRaw = map[string]string{}
	}
	d.lastmodRaw[key] = string(raw)
}

// childLastmod is the <lastmod> of the sitemap with key, as written, that
// noteLastmod kept.
func (d *doc) childLastmod(key string) string { return d.lastmodRaw[key] }

// sinceLeavesOut reports whether Since leaves out a URL or sitemap whose
// date is t, written raw (rfc822 for an RSS <pubDate>).
func (k *condState) sinceLeavesOut(t *LastModTime, raw []byte, rfc822 bool) bool {
	if k == nil || k.cfg.since.IsZero() || t == nil {
		return false
	}
	end := t.Time
	if !rfc822 {
		// A date without a time stands for the whole of its year, month
		// or day.
		switch len(raw) {
		case 4:
			end = end.AddDate(1, 0, 0)
		case 7:
			end = end.AddDate(0, 1, 0)
		case 10:
			end = end.AddDate(0, 0, 1)
		default:
			return t.Before(k.cfg.since)
		}
		return !end.After(k.cfg.since)
	}
	return t.Before(k.cfg.since)
}

// sinceSkips reports whether Since leaves the sitemap ch unfetched: its
// index gives it a <lastmod> older than the time.
func (c *call) sinceSkips(ch child) bool {
	if c.cond == nil || c.cond.cfg.since.IsZero() || ch.lastmod == "" {
		return false
	}
	t, ok := dates.ParseW3C(ch.lastmod)
	return ok && c.cond.sinceLeavesOut(&LastModTime{t}, []byte(ch.lastmod), false)
}
