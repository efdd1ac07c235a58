package sitemap

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/gositemap/sitemap/internal/dates"
	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is the call's side of conditional fetching and of Since (their
// settings are in settings.go). A call with a store looks up the record of each
// sitemap before its request, sends its validators, reads a 304 Not
// Modified as "unchanged" (and follows what an unchanged index listed from
// the record), and puts a new record for each document it read whole.
// It is a feature on the hook surface (hooks.go): attachStore makes its
// state, condState, and attaches its hooks, which the run of the call
// (resume.go) and change detection (changes.go) share; the stages hold no
// field of it. Since is a rule of the configuration (condConfig), which the
// stages ask as they ask the URL rules.

// condConfig is the configuration of conditional fetching and of Since.
// Its zero value turns both off, as the spec has it.
type condConfig struct {
	store        Store
	since        time.Time
	trustLastmod bool

	// Change detection and resuming (changes.go, resume.go).
	changes, onlyChanges, noResume bool
	goneShare                      float64 // 0: defaultMaxGoneShare
}

// condState is the state of a call with a store: conditional fetching,
// the run (resume.go) and change detection (changes.go).
type condState struct {
	c   *call
	cfg condConfig

	mu      sync.Mutex
	records map[string]Record // the records looked up, by store key

	runs *runState    // the run, nil for a discovery: resume.go
	chg  *changeState // change detection, nil when off: changes.go
}

// attachStore sets up the call's side of its store, when it has one: the
// validators of the fetcher, the run and change detection (not for a
// discovery, whose root is a site), and the hooks. It is called when the
// call starts to read, after the hooks its entry point attached (a
// discovery reads its candidates itself, without a record) and the
// selection's.
func (c *call) attachStore() {
	if c.cfg.cond.store == nil {
		return
	}
	k := &condState{c: c, cfg: c.cfg.cond, records: map[string]Record{}}
	c.f.validators = func(rawURL string) Record { return k.record(storeKey(rawURL)) }
	c.f.refused = k.dropValidators
	h := hooks{instead: k.readUnchanged, notModified: k.readNotModified, whole: k.remember}
	if c.hooks.root == nil {
		k.startRun()
		if k.cfg.changes || k.cfg.onlyChanges {
			k.startChanges()
		}
		h.finish = k.finish
	}
	c.attach(h)
}

// finish ends change detection and the run, once the call has read
// everything: a call cut short (complete false) leaves its run to be
// resumed.
func (k *condState) finish(complete bool) {
	switch {
	case k.chg != nil:
		k.chg.finish(complete)
	case complete && k.c.emit != nil:
		k.endRun(k.runs.kept)
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
// the validators of its request. An error of the store is recorded. A
// record whose validators could not be sent (kept by an earlier version, or
// by a store of the caller's) loses them, in the store too: a record is
// never the cause of a failed request twice.
func (k *condState) lookup(ch child) (Record, bool) {
	key := storeKey(ch.loc)
	rec, ok, err := k.cfg.store.Get(k.c.ctx, key)
	if err != nil {
		k.c.record(&ParseError{URL: ch.loc, Err: fmt.Errorf("state store: %w", err)})
		return Record{}, false
	}
	if clean := usableRecord(rec); ok && (clean.ETag != rec.ETag || clean.LastModified != rec.LastModified) {
		rec = clean
		k.putNow(ch.loc, rec)
	}
	if ok && k.chg != nil && rec.URLs == nil && rec.Format != FormatIndex && rec.Format != FormatRobots && !k.resumes(rec) {
		// A record of no URLs yet: the sitemap is fetched once without
		// validators, for change detection to learn its URLs.
		rec.ETag, rec.LastModified, rec.IndexLastMod = "", "", ""
	}
	if ok {
		k.mu.Lock()
		k.records[key] = rec
		k.mu.Unlock()
	}
	return rec, ok
}

// usableRecord is rec less the validators that are not to be sent
// (usableETag, usableLastModified), and less a Last-Modified more than a
// day ahead of now (kept by an earlier version, or in a store of the
// caller's; see lastModifiedAhead).
func usableRecord(rec Record) Record {
	if !usableETag(rec.ETag) {
		rec.ETag = ""
	}
	if rec.LastModified != "" && !usableLastModified(rec.LastModified) {
		rec.LastModified = ""
	}
	if t, err := http.ParseTime(rec.LastModified); err == nil && t.After(time.Now().Add(24*time.Hour)) {
		rec.LastModified = ""
	}
	return rec
}

// dropValidators is told that the server of the sitemap at loc answered
// the validators of its record with a client error (see refusesValidators):
// the record loses them, for the request sent again now and in the store,
// so that the next run does not send them either. It reports whether the
// record had any.
func (k *condState) dropValidators(loc string) bool {
	key := storeKey(loc)
	k.mu.Lock()
	rec, ok := k.records[key]
	had := ok && (rec.ETag != "" || rec.LastModified != "")
	if had {
		rec.ETag, rec.LastModified = "", ""
		k.records[key] = rec
	}
	k.mu.Unlock()
	if had {
		k.putNow(loc, rec)
	}
	return had
}

// readUnchanged is the start of the read of the sitemap ch with a store:
// it looks up its record, and when the <lastmod> its index gives it is the
// record's and Incremental.TrustIndexLastMod is on, reads it from the record instead
// of fetching it (done).
func (k *condState) readUnchanged(ch child, level int, robots bool, start time.Time) (children []child, err error, done bool) {
	rec, ok := k.lookup(ch)
	if ok && k.resumes(rec) {
		// Handed on whole by the run this call resumes.
		k.c.fetched.giveBack(1)
		return k.replay(ch, rec, level, robots, response{}, start), nil, true
	}
	if !ok || !k.cfg.trustLastmod || ch.lastmod == "" || !sameLastmod(rec.IndexLastMod, ch.lastmod) {
		return nil, nil, false
	}
	k.c.fetched.giveBack(1) // it is not fetched
	return k.replay(ch, rec, level, robots, response{}, start), nil, true
}

// readNotModified reads the sitemap ch, which its server says is unchanged
// since the record, from the record.
func (k *condState) readNotModified(ch child, level int, robots bool, resp response, start time.Time) []child {
	return k.replay(ch, k.record(storeKey(ch.loc)), level, robots, resp, start)
}

// replay reads the sitemap ch from its record rec: the sitemaps it listed,
// with their <lastmod>, are listed again and followed as if it had been
// read, and its status is StatusUnchanged. resp is the 304 that said so,
// none when the index's <lastmod> did.
func (k *condState) replay(ch child, rec Record, level int, robots bool, resp response, start time.Time) []child {
	c := k.c
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
		e.loc.set, e.lastmod.set = true, sc.LastMod != ""
		e.loc.append([]byte(sc.Loc))
		e.lastmod.append([]byte(sc.LastMod))
		d.entry(&e)
	}
	deep := level+1 > c.cfg.maxDepth
	c.commit(d, deep)
	c.s.updateDoc(ch.node, func(n *Document) {
		n.FinalURL, n.HTTPStatus = final, resp.status
		n.ContentType, n.ETag, n.LastModified = resp.contentType, resp.etag, resp.lastModified
	})
	c.parsed(d, start, StatusUnchanged, nil)
	if ch.lastmod != "" && ch.lastmod != rec.IndexLastMod && resp.status != 0 {
		// The server says it is unchanged, though the index moved its
		// date: the record takes the new one.
		rec.IndexLastMod = ch.lastmod
		k.put(ch.loc, rec)
	}
	return c.toFollow(d, deep, final)
}

// docFormatOf is the docFormat of a Format kept in a record.
func docFormatOf(f Format) docFormat {
	for df := formatURLSet; df <= formatRobots; df++ {
		if formatOf(df) == f {
			return df
		}
	}
	return formatIndex
}

// remember puts the record of the sitemap ch, read whole into d with the
// response resp, when nothing of it was left out: no URL for the URL limit
// (which, once full, may have cut any document) or for Since, which a later
// run may not ask for, and no sitemap for the listing limit.
func (k *condState) remember(ch child, d *doc, resp response) {
	if k.c.urls.full() || d.listFull || d.leftOut > 0 || d.sinceOut > 0 {
		return
	}
	rec := usableRecord(Record{ETag: resp.etag, LastModified: resp.lastModified, IndexLastMod: ch.lastmod, Format: formatOf(d.format)})
	if lastModifiedAhead(resp) {
		rec.LastModified = ""
	}
	if k.runs != nil && k.c.emit != nil {
		rec.Run = k.runs.n
	}
	if k.chg != nil {
		rec.URLs = k.chg.list(ch, d)
	}
	if len(d.sitemaps) > 0 {
		rec.Children = make([]StoredChild, 0, len(d.sitemaps))
	}
	for i, sm := range d.sitemaps {
		rec.Children = append(rec.Children, StoredChild{Loc: sm.Loc, LastMod: d.lastmodRaw[d.keys[i]]})
	}
	if rec.ETag == "" && rec.LastModified == "" && rec.IndexLastMod == "" && len(rec.Children) == 0 && rec.URLs == nil && rec.Run == 0 {
		return // nothing a later run could use
	}
	k.put(ch.loc, rec)
}

// lastModifiedAhead reports whether the Last-Modified of resp is later
// than its Date: a server must not send one (RFC 9110, 8.8.2.1), and one
// that compares If-Modified-Since as a bound would answer 304 until then,
// whatever changed; it is not kept.
func lastModifiedAhead(resp response) bool {
	if resp.lastModified == "" || resp.date == "" {
		return false
	}
	lm, err1 := http.ParseTime(resp.lastModified)
	date, err2 := http.ParseTime(resp.date)
	return err1 == nil && err2 == nil && lm.After(date)
}

// put puts rec as the record of the sitemap at loc. In a streaming call,
// the loop puts it, once it has handed on everything the document yielded:
// a loop left before that leaves the old record.
func (k *condState) put(loc string, rec Record) { k.putAt(loc, storeKey(loc), rec) }

// putAt is put under key, about the document at loc.
func (k *condState) putAt(loc, key string, rec Record) {
	if k.c.emit != nil {
		k.c.emitItem(item{after: func() error { return k.storePut(loc, key, rec) }})
		return
	}
	k.putNowAt(loc, key, rec)
}

// putNow puts rec as the record of the sitemap at loc now, in a streaming
// call too: a record that asks the next run for more work (a record that
// lost its validators) needs no URL to have been handed on.
func (k *condState) putNow(loc string, rec Record) { k.putNowAt(loc, storeKey(loc), rec) }

// putNowAt is putNow under key.
func (k *condState) putNowAt(loc, key string, rec Record) {
	if err := k.storePut(loc, key, rec); err != nil {
		k.c.record(err)
	}
}

// storePut puts rec in the store under key; an error is a *ParseError
// naming loc. The context given to Put keeps the call's values but not its
// end: a record vouches for URLs handed on already, and a streaming call
// puts the last of them as it ends, after its context has been cancelled.
func (k *condState) storePut(loc, key string, rec Record) error {
	if err := k.cfg.store.Put(context.WithoutCancel(k.c.ctx), key, rec); err != nil {
		return &ParseError{URL: loc, Err: errStore(err)}
	}
	return nil
}

// errStore is the cause of the *ParseError of a store that failed.
func errStore(err error) error { return fmt.Errorf("state store: %w", err) }

// endStore ends the run of the call, and syncs the store of the call when
// it is a Syncer. An error is recorded in the results, about the document
// given.
func (c *call) endStore() {
	if c.emit != nil && c.cfg.cond.store != nil {
		live.end(runKey(c.root), c) // resume.go
	}
	if sy, ok := c.cfg.cond.store.(Syncer); ok {
		if err := sy.Sync(); err != nil {
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
// sitemap listed twice, the later. One longer than maxRawLastmod (a
// fraction of a second of a thousand digits, which ParseW3C reads as it
// reads nine) is kept in RFC 3339 instead: every record that names the
// sitemap would hold it otherwise, the index's and the sitemap's own.
func (d *doc) noteLastmod(key string, raw []byte, t *LastModTime) {
	if t == nil || d.c.cfg.cond.store == nil && d.c.cfg.cond.since.IsZero() {
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
	if len(raw) > maxRawLastmod {
		d.lastmodRaw[key] = t.Format(time.RFC3339Nano)
		return
	}
	d.lastmodRaw[key] = string(raw)
}

// maxRawLastmod is the longest <lastmod> kept as written: the longest W3C
// datetime of nine fraction digits and an offset,
// 2006-01-02T15:04:05.999999999+07:00, is 35 bytes.
const maxRawLastmod = 64

// childLastmod is the <lastmod> of the sitemap with key, as written, that
// noteLastmod kept.
func (d *doc) childLastmod(key string) string { return d.lastmodRaw[key] }

// sinceLeavesOut reports whether Since leaves out a URL or sitemap whose
// date is t, written raw (rfc822 for an RSS <pubDate>).
func (k *condConfig) sinceLeavesOut(t *LastModTime, raw []byte, rfc822 bool) bool {
	if k.since.IsZero() || t == nil {
		return false
	}
	if !rfc822 {
		// A date without a time stands for the whole of its year, month
		// or day.
		if end, ok := periodEnd(t.Time, len(raw)); ok {
			return !end.After(k.since)
		}
	}
	return t.Before(k.since)
}

// periodEnd returns the end of the period a W3C date without a time
// names, in UTC: t its start, span the length it is written in (4 a
// year, 7 a month, 10 a day); ok is false for any other length, a date
// with a time.
func periodEnd(t time.Time, span int) (end time.Time, ok bool) {
	switch span {
	case 4:
		return t.AddDate(1, 0, 0), true
	case 7:
		return t.AddDate(0, 1, 0), true
	case 10:
		return t.AddDate(0, 0, 1), true
	}
	return t, false
}

// sinceSkips reports whether Since leaves the sitemap ch unfetched: its
// index gives it a <lastmod> older than the time.
func (c *call) sinceSkips(ch child) bool {
	if c.cfg.cond.since.IsZero() || ch.lastmod == "" {
		return false
	}
	t, ok := dates.ParseW3C(ch.lastmod)
	return ok && c.cfg.cond.sinceLeavesOut(&LastModTime{t}, []byte(ch.lastmod), false)
}
