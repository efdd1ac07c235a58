package fleet

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/changes"
	"github.com/gositemap/sitemap/internal/jsonline"
	"github.com/gositemap/sitemap/store"
)

// This file is change detection across the fleet (Crawl.Changes): what
// "sitemap -state FILE" and "-changes" print, over the whole tree of the
// crawl, though each worker reads one document.
//
// A worker reads each document with the library's change detection on, so
// that the library compares it with its own record (the only one its
// instance sees: changes_store.go): the URLs of its last list are
// unchanged or lastmod, the others new, and those of its last list it no
// longer has gone; for an index read whole, the worker adds the URLs of
// the sitemaps it no longer lists, from their records (dropped), as the
// library would. What one document cannot know is the rest of the
// tree: a URL new to its sitemap may have been listed by another (moved,
// or listed twice now), and a URL gone from its sitemap may be listed by
// another now. So:
//
//   - Submit takes a snapshot of the last tree (oldTree): the records of
//     the store from the crawl's roots, through the Children of each
//     index, each URL of each list as a 64-bit hash of its location with
//     the fingerprint of its lastmod, before any worker changes a record.
//     It is kept beside the crawl's record, in parts: 12 bytes a URL.
//   - Each worker loads it once per crawl. A URL the library says is new
//     that the snapshot holds is labelled unchanged or lastmod by its
//     fingerprint, as the library does in one call; it, and each URL the
//     snapshot holds in two sitemaps or more, is published as seen.
//   - The URLs the library says are gone are candidates: published apart,
//     with the document that gave them, not printed. The reader of the
//     output holds the candidates and the seen, and once the crawl is done
//     hands on as gone the candidates not seen anywhere (each once), of a
//     sitemap that settles them: the document itself, read whole, or a
//     sitemap an index read whole no longer lists and that no document
//     of the crawl lists (each publishes what it lists). More than
//     MaxGoneShare of the snapshot's URLs gone at once is the library's
//     error instead, and none is gone.
//
// The reader holds what the candidates and the seen take: the URLs gone,
// moved, or listed by two sitemaps, 8 bytes each and the line of each
// candidate; the workers hold the snapshot, 16 bytes a URL of the last
// tree.

// The kinds of the output messages of change detection, held by the
// reader (hdrKind).
const (
	kindGone   = "gone"   // the JSON lines of URLs a document says are gone
	kindSeen   = "seen"   // hashes (8 bytes each) of URLs of the last tree seen again
	kindListed = "listed" // hashes of the request keys of the sitemaps a document lists
)

// hashLoc is the hash of a location that the snapshot and the seen carry:
// FNV-1a, the same in every process.
func hashLoc[T string | []byte](s T) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// oldEntry is a URL of the last tree: the hash of its location and the
// fingerprint of its lastmod.
type oldEntry struct {
	h  uint64
	fp uint32
}

// oldTree is the snapshot of the last tree of a crawl's State.
type oldTree struct {
	entries []oldEntry          // sorted by hash; one per hash and fingerprint
	dups    map[uint64]struct{} // the hashes listed by two sitemaps or more
	total   int                 // distinct URLs
}

// find returns the entries of hash h.
func (t *oldTree) find(h uint64) []oldEntry {
	i, _ := slices.BinarySearchFunc(t.entries, h, func(e oldEntry, h uint64) int {
		switch {
		case e.h < h:
			return -1
		case e.h > h:
			return 1
		}
		return 0
	})
	j := i
	for j < len(t.entries) && t.entries[j].h == h {
		j++
	}
	return t.entries[i:j]
}

// storeKeyOf is the key of the record of the sitemap at loc, as the library
// keys it: its request key, a password in it replaced by xxxxx.
func storeKeyOf(loc string) string {
	k := store.RequestKey(loc)
	scheme := strings.Index(k, "://")
	if scheme < 0 {
		return k
	}
	rest := k[scheme+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndexByte(rest[:end], '@')
	if at < 0 {
		return k
	}
	colon := strings.IndexByte(rest[:at], ':')
	if colon < 0 {
		return k
	}
	return k[:scheme+3] + rest[:colon+1] + "xxxxx" + rest[at:]
}

// maxOldDepth bounds the walk of the last tree, as the library's.
const maxOldDepth = 64

// snapshot reads the last tree of roots from st: the records from each
// root down, through the Children of each index, level by level, the
// records of a level read claimParallel at a time.
func snapshot(ctx context.Context, st sitemap.Store, roots []string) (*oldTree, error) {
	var (
		mu    sync.Mutex
		all   []listed
		seen  = map[string]bool{}
		level []string
	)
	for _, r := range roots {
		if k := storeKeyOf(r); !seen[k] {
			seen[k] = true
			level = append(level, r)
		}
	}
	sm := 0
	for depth := 0; len(level) > 0 && depth <= maxOldDepth; depth++ {
		next := make([][]sitemap.StoredChild, len(level))
		base := sm
		err := parallel(ctx, len(level), func(i int) error {
			rec, ok, err := st.Get(ctx, storeKeyOf(level[i]))
			if err != nil {
				return fmt.Errorf("fleet: the last crawl's record of %s: %w", level[i], err)
			}
			if !ok {
				return nil
			}
			next[i] = rec.Children
			var mine []listed
			changes.Decode(rec.URLs, func(loc []byte, fp uint32, f changes.Flag) bool {
				if f != changes.Removed { // a URL the run before the last removed
					mine = append(mine, listed{hashLoc(loc), fp, uint32(base + i)})
				}
				return true
			})
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
			return nil
		})
		if err != nil {
			return nil, err
		}
		sm += len(level)
		level = level[:0:0]
		for _, children := range next {
			for _, ch := range children {
				if k := storeKeyOf(ch.Loc); !seen[k] {
					seen[k] = true
					level = append(level, ch.Loc)
				}
			}
		}
	}
	// The URLs the fleet kept as unknown, in the state of the runs of the
	// documents that said they were gone (keepUnknown), are of the last
	// tree too, as the library's own kept.
	kept, err := keptSections(ctx, st)
	if err != nil {
		return nil, err
	}
	for _, sec := range kept {
		changes.Decode(sec.List, func(loc []byte, fp uint32, _ changes.Flag) bool {
			all = append(all, listed{hashLoc(loc), fp, uint32(sm)})
			return true
		})
		sm++
	}
	sortByHash(all)
	t := &oldTree{dups: map[uint64]struct{}{}}
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].h == all[i].h {
			j++
		}
		g := all[i:j] // one URL, as each sitemap listed it
		t.total++
		for x, e := range g {
			if e.sm != g[0].sm {
				t.dups[e.h] = struct{}{}
			}
			if !slices.ContainsFunc(g[:x], func(o listed) bool { return o.fp == e.fp }) {
				t.entries = append(t.entries, oldEntry{e.h, e.fp})
			}
		}
		i = j
	}
	return t, nil
}

// listed is a URL of the last tree as one of its sitemaps listed it: the
// hash of its location, the fingerprint of its lastmod, its sitemap.
type listed struct {
	h  uint64
	fp uint32
	sm uint32
}

// sortByHash sorts a by hash, in four passes of 16 bits, stably: a
// million URLs in a few milliseconds, where a sort by comparison took a
// tenth of the CPU of a crawl.
func sortByHash(a []listed) {
	tmp := make([]listed, len(a))
	src, dst := a, tmp
	count := make([]int, 1<<16)
	for shift := 0; shift < 64; shift += 16 {
		clear(count)
		for _, e := range src {
			count[uint16(e.h>>shift)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, e := range src {
			k := uint16(e.h >> shift)
			dst[count[k]] = e
			count[k]++
		}
		src, dst = dst, src
	}
}

// encode returns the snapshot as bytes: its total, its entries (hash and
// fingerprint) and the hashes listed twice.
func (t *oldTree) encode() []byte {
	b := make([]byte, 0, 3*binary.MaxVarintLen64+12*len(t.entries)+8*len(t.dups))
	b = binary.AppendUvarint(b, uint64(t.total))
	b = binary.AppendUvarint(b, uint64(len(t.entries)))
	for _, e := range t.entries {
		b = binary.LittleEndian.AppendUint64(b, e.h)
		b = binary.LittleEndian.AppendUint32(b, e.fp)
	}
	b = binary.AppendUvarint(b, uint64(len(t.dups)))
	for h := range t.dups {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	return b
}

var errSnapshot = errors.New("fleet: the snapshot of the last tree does not read")

// decodeOldTree reads what encode wrote.
func decodeOldTree(b []byte) (*oldTree, error) {
	t := &oldTree{dups: map[uint64]struct{}{}}
	next := func() (uint64, bool) {
		v, k := binary.Uvarint(b)
		if k <= 0 {
			return 0, false
		}
		b = b[k:]
		return v, true
	}
	total, ok1 := next()
	n, ok2 := next()
	if !ok1 || !ok2 || n > uint64(len(b))/12 {
		return nil, errSnapshot
	}
	t.total = int(total)
	t.entries = make([]oldEntry, n)
	for i := range t.entries {
		t.entries[i] = oldEntry{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint32(b[8:])}
		b = b[12:]
	}
	d, ok := next()
	if !ok || d != uint64(len(b))/8 || len(b)%8 != 0 {
		return nil, errSnapshot
	}
	for range d {
		t.dups[binary.LittleEndian.Uint64(b)] = struct{}{}
		b = b[8:]
	}
	return t, nil
}

// The keys of the snapshot of a crawl in the crawls bucket: crawl.old
// holds the number of its parts and its total, crawl.old.N each part.
func oldKey(crawl string) string { return crawl + ".old" }

// putSnapshot keeps the snapshot t of crawl, in parts of at most a
// message each.
func (f *Fleet) putSnapshot(ctx context.Context, crawl string, t *oldTree) error {
	data := t.encode()
	limit := max(f.maxPayload-4096, 1024)
	n := max((len(data)+limit-1)/limit, 1)
	err := parallel(ctx, n, func(i int) error {
		_, err := f.crawls.Put(ctx, oldKey(crawl)+"."+strconv.Itoa(i), data[min(i*limit, len(data)):min((i+1)*limit, len(data))])
		return err
	})
	if err != nil {
		return fmt.Errorf("fleet: keep the last tree of %s: %w", crawl, err)
	}
	if _, err := f.crawls.Put(ctx, oldKey(crawl), fmt.Appendf(nil, "%d %d", n, t.total)); err != nil {
		return fmt.Errorf("fleet: keep the last tree of %s: %w", crawl, err)
	}
	return nil
}

// snapshotSize returns the number of parts of the snapshot of crawl and
// the URLs of the last tree.
func (f *Fleet) snapshotSize(ctx context.Context, crawl string) (parts, total int, err error) {
	e, err := f.crawls.Get(ctx, oldKey(crawl))
	if err != nil {
		return 0, 0, fmt.Errorf("fleet: the last tree of %s: %w", crawl, err)
	}
	if _, err := fmt.Sscanf(string(e.Value()), "%d %d", &parts, &total); err != nil {
		return 0, 0, errSnapshot
	}
	return parts, total, nil
}

// loadSnapshot reads the snapshot of crawl.
func (f *Fleet) loadSnapshot(ctx context.Context, crawl string) (*oldTree, error) {
	n, _, err := f.snapshotSize(ctx, crawl)
	if err != nil {
		return nil, err
	}
	parts := make([][]byte, n)
	err = parallel(ctx, n, func(i int) error {
		p, err := f.crawls.Get(ctx, oldKey(crawl)+"."+strconv.Itoa(i))
		if err != nil {
			return fmt.Errorf("fleet: the last tree of %s, part %d: %w", crawl, i, err)
		}
		parts[i] = p.Value()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return decodeOldTree(bytes.Join(parts, nil))
}

// oldTreeOnce is the snapshot of the last tree of a crawl in a worker,
// loaded by the first document that needs it.
type oldTreeOnce struct {
	mu sync.Mutex
	t  *oldTree
}

// oldTree returns the snapshot of the crawl of cs, loaded once.
func (cs *crawlState) oldTree(ctx context.Context, f *Fleet, crawl string) (*oldTree, error) {
	cs.old.mu.Lock()
	defer cs.old.mu.Unlock()
	if cs.old.t == nil {
		t, err := f.loadSnapshot(ctx, crawl)
		if err != nil {
			return nil, err
		}
		cs.old.t = t
	}
	return cs.old.t, nil
}

// docChanges is change detection in the reading of one document by a
// worker; nil for a crawl without it.
type docChanges struct {
	old  *oldTree
	only bool
	held *heldStore

	gone  bytes.Buffer // the JSON lines of the URLs the library says are gone
	seen  []uint64     // the hashes of the URLs of the last tree seen again
	moved changeCounts // of the URLs the library says are new, those the last tree holds elsewhere
}

// changeCounts are the changes of a document, kept in its entry.
type changeCounts struct {
	New       int `json:"new,omitempty"`
	LastMod   int `json:"lastmod,omitempty"`
	Unchanged int `json:"unchanged,omitempty"`
}

// docChanges returns change detection for a document of crawl: nil when
// the crawl has none.
func (w *worker) docChanges(ctx context.Context, crawl, loc string, cs *crawlState) (*docChanges, error) {
	c := &cs.rec.Settings
	if !c.changes() || cs.store == nil {
		return nil, nil
	}
	t, err := cs.oldTree(ctx, w.f, crawl)
	if err != nil {
		return nil, err
	}
	return &docChanges{old: t, only: c.OnlyChanges, held: &heldStore{Store: cs.store, rootKey: storeKeyOf(loc), runKey: runKeyOf(loc)}}, nil
}

// store is the store the document's instance reads and writes: its Puts
// held until its output is stored (heldStore).
func (d *docChanges) store(st sitemap.Store) sitemap.Store {
	if d == nil || st == nil {
		return st
	}
	return d.held
}

// add adds u to out, with its change when the crawl compares with the
// last: a URL gone is held as a candidate, and an unchanged one left out
// with OnlyChanges.
func (d *docChanges) add(u *sitemap.URL, out *batcher) error {
	if d == nil {
		return out.add(u)
	}
	if keep, err := d.url(u, out); !keep || err != nil {
		return err
	}
	return out.add(u)
}

// url tells what becomes of a URL of the document: whether it is handed
// on, and with which change (set on out). A URL gone is held as a
// candidate.
func (d *docChanges) url(u *sitemap.URL, out *batcher) (bool, error) {
	chg := u.Source.Change()
	switch chg {
	case sitemap.ChangeGone:
		if out.full {
			return false, nil
		}
		return false, appendLine(&d.gone, u, string(chg))
	case sitemap.ChangeNew:
		h := hashLoc(u.Loc)
		if es := d.old.find(h); len(es) > 0 {
			// In another sitemap of the last tree: moved, or listed
			// twice now.
			d.seen = append(d.seen, h)
			var t sitemap.LastModTime
			if u.LastMod != nil {
				t = *u.LastMod
			}
			fp := changes.Fingerprint(t.Time, u.LastMod != nil)
			chg = sitemap.ChangeLastMod
			for _, e := range es {
				if e.fp == fp {
					chg = sitemap.ChangeUnchanged
				}
			}
			if chg == sitemap.ChangeLastMod {
				d.moved.LastMod++
			} else {
				d.moved.Unchanged++
			}
		}
	default:
		if len(d.old.dups) > 0 {
			if h := hashLoc(u.Loc); d.isDup(h) {
				d.seen = append(d.seen, h)
			}
		}
	}
	if chg == sitemap.ChangeUnchanged && d.only {
		return false, nil
	}
	out.change = string(chg)
	return true, nil
}

// dropped adds to the URLs gone those of the sitemaps an index (or a
// robots.txt) read whole no longer lists, and of what they listed, from
// their records, as the library's change detection does in one call:
// each is a candidate, which another document of the crawl that lists the
// sitemap, or lists the URL, cancels.
func (d *docChanges) dropped(ctx context.Context, loc string, docs []sitemap.Document) error {
	old := d.held.record().Children
	if len(old) == 0 || len(docs) == 0 || docs[0].Status != sitemap.StatusParsed ||
		docs[0].Format != sitemap.FormatIndex && docs[0].Format != sitemap.FormatRobots {
		return nil
	}
	seen := map[string]bool{storeKeyOf(loc): true}
	for _, doc := range docs[1:] {
		if doc.Parent == 0 {
			seen[storeKeyOf(doc.URL)] = true
		}
	}
	var walk func(children []sitemap.StoredChild, depth int) error
	walk = func(children []sitemap.StoredChild, depth int) error {
		for _, ch := range children {
			k := storeKeyOf(ch.Loc)
			if seen[k] || depth > maxOldDepth {
				continue
			}
			seen[k] = true
			rec, ok, err := d.held.Store.Get(ctx, k)
			if err != nil {
				return fmt.Errorf("the last crawl's record of %s: %w", ch.Loc, err)
			}
			if !ok {
				continue
			}
			var lineErr error
			changes.Decode(rec.URLs, func(u []byte, _ uint32, fl changes.Flag) bool {
				if fl != changes.Removed {
					lineErr = appendGone(&d.gone, string(u), ch.Loc)
				}
				return lineErr == nil
			})
			if lineErr != nil {
				return lineErr
			}
			if err := walk(rec.Children, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(old, 1)
}

// appendGone appends the line of the URL at loc gone from sitemap, as the
// library hands it on: no lastmod, the sitemap that last listed it.
func appendGone(b *bytes.Buffer, loc, sm string) error {
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(jsonline.URL{Loc: loc, Sitemap: sm, Change: string(sitemap.ChangeGone)}); err != nil {
		return err
	}
	escapeControls(b, line.Bytes())
	return nil
}

// isDup reports whether the last tree holds the URL of hash h in two
// sitemaps or more.
func (d *docChanges) isDup(h uint64) bool {
	_, ok := d.old.dups[h]
	return ok
}

// publish publishes the candidates and the seen of the document, apart
// from its URLs, for the reader to settle once the crawl is done. A
// sitemap replayed from its record (304 Not Modified) handed on none of
// its URLs: those of its list the last tree holds twice are seen.
func (d *docChanges) publish(ctx context.Context, f *Fleet, crawl, key, loc string, out *batcher, docs []sitemap.Document, a *acks) error {
	if d == nil || out.full {
		return nil
	}
	if err := d.dropped(ctx, loc, docs); err != nil {
		return err
	}
	if len(d.old.dups) > 0 && len(docs) > 0 && docs[0].Status == sitemap.StatusUnchanged {
		changes.Decode(d.held.record().URLs, func(loc []byte, _ uint32, fl changes.Flag) bool {
			if fl != changes.Removed {
				if h := hashLoc(loc); d.isDup(h) {
					d.seen = append(d.seen, h)
				}
			}
			return true
		})
	}
	// The lines gone, batchSize a message, each the document that says
	// they are gone, then their lines.
	gone := d.gone.Bytes()
	for n := 0; len(gone) > 0; n++ {
		part := cutLines(gone, batchSize)
		gone = gone[len(part):]
		data := append([]byte(loc+"\n"), part...)
		m := &natsMsg{subject: outPrefix + crawl, data: data, kind: kindGone}
		if err := f.publishOut(m, key+".gone."+strconv.Itoa(n), a); err != nil {
			return err
		}
	}
	// The sitemaps the document lists are of the crawl's tree, followed or
	// not: a sitemap an index no longer lists that another lists is not
	// settled by the index.
	var listed []uint64
	for _, doc := range docs[min(len(docs), 1):] {
		if doc.Parent == 0 {
			listed = append(listed, hashLoc(store.RequestKey(doc.URL)))
		}
	}
	if err := publishHashes(f, crawl, key, kindSeen, d.seen, a); err != nil {
		return err
	}
	return publishHashes(f, crawl, key, kindListed, listed, a)
}

// publishHashes publishes hashes as messages of kind, seenBatch a message.
func publishHashes(f *Fleet, crawl, key, kind string, hashes []uint64, a *acks) error {
	for i := 0; i < len(hashes); i += seenBatch {
		part := hashes[i:min(i+seenBatch, len(hashes))]
		b := make([]byte, 0, 8*len(part))
		for _, h := range part {
			b = binary.LittleEndian.AppendUint64(b, h)
		}
		m := &natsMsg{subject: outPrefix + crawl, data: b, kind: kind}
		if err := f.publishOut(m, key+"."+kind+"."+strconv.Itoa(i/seenBatch), a); err != nil {
			return err
		}
	}
	return nil
}

// seenBatch is how many hashes one message of the seen holds.
const seenBatch = 64 << 10

// put writes the records the document's instance put, once its output is
// stored: a worker that dies before leaves the records of the last crawl,
// and the document read again gives the same lines. A document the URL
// limit cut puts none.
func (d *docChanges) put(ctx context.Context, out *batcher) error {
	if d == nil {
		return nil
	}
	if out.full {
		// The URL limit cut the document: its records would vouch for
		// URLs not handed on. The next crawl compares it with the last.
		return nil
	}
	return d.held.flush(ctx)
}

// snapshotLast keeps the snapshot of the last tree of roots in the store
// of state, for the crawl to compare with.
func (f *Fleet) snapshotLast(ctx context.Context, crawl, state string, roots []string) error {
	st, err := f.Store(state)
	if err != nil {
		return err
	}
	t, err := snapshot(ctx, st, roots)
	if err != nil {
		return err
	}
	return f.putSnapshot(ctx, crawl, t)
}

// counts returns the changes of the document: the library's, the URLs it
// says are new that the last tree holds elsewhere moved to lastmod or
// unchanged.
func (d *docChanges) counts(docs []sitemap.Document) *changeCounts {
	if d == nil || len(docs) == 0 || docs[0].Changes == nil {
		return nil
	}
	n := docs[0].Changes
	c := &changeCounts{New: n.New - d.moved.LastMod - d.moved.Unchanged, LastMod: n.LastMod + d.moved.LastMod, Unchanged: n.Unchanged + d.moved.Unchanged}
	if *c == (changeCounts{}) {
		return nil
	}
	return c
}
