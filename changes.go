package sitemap

import (
	"fmt"
	"hash/maphash"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/gositemap/sitemap/internal/changes"
	"github.com/gositemap/sitemap/internal/urlnorm"
)

// This file is change detection (Incremental.Changes): an observer of the
// call on the hook surface, attached in call.run when the call has a store
// and changes on. When the call starts it loads what the store kept of the
// last run's tree (load): from the record of the document given, through
// the Children of each index, the lists of URLs of the urlsets, each URL
// as a 64-bit hash of its location with its lastmod fingerprint and its
// place in its list, in a table grouped by sitemap (changes_table.go).
// Its url hook looks each URL up, marks it seen and tells its change
// through the Source it gives it; its listed hook marks seen, uncounted,
// a URL a rule or the selection left out. The list of the document goes
// into its record (list, called by remember), made in the order of the
// last run's list. A sitemap
// replayed from its record (304 Not Modified, a trusted index <lastmod>,
// a resumed run) marks its URLs seen (carry). Once the call has read
// everything, finish hands on the URLs not seen whose sitemap was settled
// (read whole, replayed, or no longer listed by an index read whole) as
// gone, unless they are too many, and keeps the others as unknown in the
// state of the run (resume.go).

// Change is how a URL compares with the last run that read the same tree
// into the store; see [Incremental.Changes].
type Change string

// The changes of a URL; "" when change detection is off.
const (
	ChangeNew       Change = "new"       // not in the last run
	ChangeLastMod   Change = "lastmod"   // in the last run, with another lastmod
	ChangeUnchanged Change = "unchanged" // in the last run, with the same lastmod
	ChangeGone      Change = "gone"      // in the last run, and no longer
)

// ChangeCounts are the counts of a call with [Incremental.Changes] on:
// URLs new, whose lastmod moved, gone, unchanged (compared, or carried
// over by a sitemap that did not change), and unknown (of the last run,
// in a sitemap this one did not read whole).
type ChangeCounts struct {
	New, LastMod, Gone, Unchanged, Unknown int
}

// Change returns the change of the URLs that carry s: "" when change
// detection is off. The URLs of one document that changed in different
// ways carry different Sources of the same URL.
func (s Source) Change() Change {
	if s.doc == nil {
		return ""
	}
	return s.doc.change
}

// oldEntry is a URL of the last run: the hash of its location, its lastmod
// fingerprint, and its place in the list of its sitemap (1 for the first
// entry; 0 for a URL the last run kept as unknown). Its sitemap is the
// group of the table it is in.
type oldEntry struct {
	h   uint64
	fp  uint32
	ord uint32
}

// oldSitemap is a document of the last run's tree.
type oldSitemap struct {
	loc, key, nkey string // its location, store key and request key
	list           []byte // its list of URLs (changes.Encode), nil for an index
	kept           []byte // the URLs the last run kept as unknown in it
	children       []int  // for an index, its sitemaps
	resumed        bool   // its list was put by the run this call resumes
	cut            bool   // its list was put by a run cut short that this call does not resume
}

// ofLast reports whether an entry of the list of sm with flag f is a URL
// of the last run: of a list put by the run this call resumes, all but
// those it added; of one put by a run cut short that this call does not
// resume, all (those it added were handed on, those it removed never
// handed on gone); of another, all but those removed before it.
func (sm *oldSitemap) ofLast(f changes.Flag) bool {
	switch {
	case sm.resumed:
		return f != changes.Added
	case sm.cut:
		return true
	}
	return f != changes.Removed
}

// What became of a sitemap of the last run in this one.
const (
	smUnknown = iota
	smWhole   // read whole
	smCarried // replayed from its record
)

// changeState is change detection in one call.
type changeState struct {
	c    *call
	st   *condState // the call's side of the store, which it shares
	seed maphash.Seed
	only bool

	old    []oldEntry // by sitemap, then hash: sitemap i's from seg[i] to seg[i+1]
	seg    []uint32
	gdir   []uint32 // of each sitemap, from gat[i], the start in its group of each bucket of hashes: lookIn
	gat    []uint32
	byHash []uint32 // the indices of old, by hash
	dir    []uint32 // the start in byHash of each bucket of hashes: index
	bits   uint     // the top bits of a hash that name its bucket
	dup    []uint64 // a bit per entry of old: another entry has its hash
	seen   []atomic.Uint64
	sms    []oldSitemap
	byKey  map[string]int

	mu      sync.Mutex
	settled []uint8 // per sitemap of sms
	dropped []bool  // per sitemap: an index read whole no longer lists it
	docs    map[*doc]*docChanges

	nNew, nLastmod, nLeftOut atomic.Int64
}

// startChanges loads the last run's tree and attaches the hooks of change
// detection.
func (st *condState) startChanges() {
	c := st.c
	k := &changeState{c: c, st: st, seed: maphash.MakeSeed(), only: c.cfg.cond.onlyChanges, byKey: map[string]int{}}
	k.visit(c.root, 0)
	for _, sec := range st.runs.kept {
		i, ok := k.byKey[storeKey(sec.Sitemap)]
		if !ok {
			i = k.add(sec.Sitemap, Record{})
		}
		k.sms[i].kept = sec.List
	}
	k.index()
	k.seen = make([]atomic.Uint64, (len(k.old)+63)/64)
	k.settled = make([]uint8, len(k.sms))
	k.dropped = make([]bool, len(k.sms))
	st.chg = k
	c.attach(hooks{document: k.document})
}

// maxOldDepth bounds the walk of the last run's tree.
const maxOldDepth = 64

// visit adds the document at loc, and what it listed, to the last run's
// tree; it returns its index, -1 when the store has no record of it.
func (k *changeState) visit(loc string, depth int) int {
	key := storeKey(loc)
	if i, ok := k.byKey[key]; ok || depth > maxOldDepth {
		if !ok {
			return -1
		}
		return i
	}
	rec, ok := k.st.lookup(child{loc: loc})
	if !ok {
		return -1
	}
	i := k.add(loc, rec)
	for _, ch := range rec.Children {
		if j := k.visit(ch.Loc, depth+1); j >= 0 {
			k.sms[i].children = append(k.sms[i].children, j)
		}
	}
	return i
}

// add adds a document of the last run, with its record.
func (k *changeState) add(loc string, rec Record) int {
	i := len(k.sms)
	key := storeKey(loc)
	k.byKey[key] = i
	resumed := k.st.resumes(rec)
	cut := !resumed && k.st.runs.cut != 0 && rec.Run == k.st.runs.cut
	k.sms = append(k.sms, oldSitemap{loc: loc, key: key, nkey: urlnorm.Key(loc), list: rec.URLs, resumed: resumed, cut: cut})
	return i
}

// eachOld calls f with each URL of the last run in sitemap i: those of
// its list that are (oldSitemap.ofLast), and those the last run kept as
// unknown in it.
func (k *changeState) eachOld(i int, f func(e oldEntry)) {
	sm := &k.sms[i]
	add := func(list []byte, kept bool) {
		ord := uint32(0)
		changes.Decode(list, func(loc []byte, fp uint32, fl changes.Flag) bool {
			ord++
			if kept || sm.ofLast(fl) {
				e := oldEntry{h: maphash.Bytes(k.seed, loc), fp: fp, ord: ord}
				if kept {
					e.ord = 0
				}
				f(e)
			}
			return true
		})
	}
	if sm.list != nil {
		add(sm.list, false)
	}
	if sm.kept != nil {
		add(sm.kept, true)
	}
}

// docChanges is what change detection keeps of one document while it is
// read.
type docChanges struct {
	entries []changes.Entry
	ords    []uint32  // of each entry, its place in the sitemap's list of the last run (oldEntry.ord)
	room    int       // the URLs its sitemap had in the last run
	srcs    [3]Source // of the URLs new, with their lastmod moved, unchanged
}

// add adds an entry of the document, with its place in the last run's
// list. The first makes room for as many as the last run's, not grown by
// copies (and none for a document replayed, which has no entry).
func (dc *docChanges) add(e changes.Entry, ord uint32) {
	if dc.entries == nil && dc.room > 0 {
		dc.entries, dc.ords = make([]changes.Entry, 0, dc.room), make([]uint32, 0, dc.room)
	}
	dc.entries = append(dc.entries, e)
	dc.ords = append(dc.ords, ord)
}

// changeSlot is the index in docChanges.srcs of each change.
var changeSlot = [...]Change{ChangeNew, ChangeLastMod, ChangeUnchanged}

// document is the document hook: the url hook of the document ch.
func (k *changeState) document(ch child, level int, d *doc) docHooks {
	dc := &docChanges{}
	sm, ok := k.byKey[storeKey(ch.loc)]
	if !ok {
		sm = -1
	} else {
		dc.room = int(k.seg[sm+1] - k.seg[sm])
	}
	for i, chg := range changeSlot {
		dc.srcs[i] = Source{&docSource{url: d.src.URL(), change: chg}}
	}
	k.mu.Lock()
	if k.docs == nil {
		k.docs = map[*doc]*docChanges{}
	}
	k.docs[d] = dc
	k.mu.Unlock()
	return docHooks{
		url: func(u URL) (bool, Source) {
			var t LastModTime
			if u.LastMod != nil {
				t = *u.LastMod
			}
			fp := changes.Fingerprint(t.Time, u.LastMod != nil)
			oldFP, found, ord := k.lookIn(sm, maphash.String(k.seed, u.Loc))
			slot := 2
			switch {
			case !found:
				slot = 0
				k.nNew.Add(1)
			case oldFP != fp:
				slot = 1
				k.nLastmod.Add(1)
			}
			flag := changes.Listed
			if slot == 0 {
				flag = changes.Added
			}
			dc.add(changes.Entry{Loc: u.Loc, FP: fp, Flag: flag}, ord)
			if slot == 2 && k.only {
				return false, Source{}
			}
			return true, dc.srcs[slot]
		},
		// A URL left out by a rule or the selection is still listed:
		// neither handed on nor gone, nor counted. Its record keeps the
		// lastmod last handed on; one not known before is left out of it,
		// new when it is let through.
		listed: func(loc string) {
			if fp, found, ord := k.lookIn(sm, maphash.String(k.seed, loc)); found {
				k.nLeftOut.Add(1)
				dc.add(changes.Entry{Loc: loc, FP: fp, Flag: changes.Listed}, ord)
			}
		},
		ended: func(st Status, err error) {
			if st == StatusUnchanged {
				k.carry(ch)
			}
			if st != StatusParsed {
				k.mu.Lock()
				delete(k.docs, d)
				k.mu.Unlock()
			}
		},
	}
}

// carry marks the URLs of the sitemap ch, replayed from its record,
// seen: unchanged.
func (k *changeState) carry(ch child) {
	i, ok := k.byKey[storeKey(ch.loc)]
	if !ok {
		return
	}
	k.mu.Lock()
	k.settled[i] = smCarried
	k.mu.Unlock()
	changes.Decode(k.sms[i].list, func(loc []byte, _ uint32, f changes.Flag) bool {
		if f != changes.Removed {
			k.lookIn(i, maphash.Bytes(k.seed, loc))
		}
		return true
	})
}

// list returns what the record of the document ch, read whole into d,
// keeps of its URLs, and settles it: nil for an index, whose sitemaps no
// longer listed are dropped. The list marks the URLs new in this run, and
// keeps those of the last run no longer listed, for a run that resumes
// this one (changes.Added, changes.Removed).
func (k *changeState) list(ch child, d *doc) []byte {
	k.mu.Lock()
	dc := k.docs[d]
	delete(k.docs, d)
	i, known := k.byKey[storeKey(ch.loc)]
	if known {
		k.settled[i] = smWhole
	}
	k.mu.Unlock()
	if d.format == formatIndex || d.format == formatRobots {
		if known {
			listed := map[string]bool{}
			for _, sm := range d.sitemaps {
				listed[storeKey(sm.Loc)] = true
			}
			var newly []int
			for _, j := range k.sms[i].children {
				if !listed[k.sms[j].key] {
					k.drop(j, 0, &newly)
				}
			}
			k.keepDropped(newly)
		}
		return nil
	}
	if dc == nil {
		dc = &docChanges{}
	}
	if !known || k.sms[i].list == nil {
		return changes.Encode(dc.entries)
	}
	return changes.Encode(k.merge(dc, &k.sms[i]))
}

// merge returns the entries of the list of a sitemap read whole, dc, that
// had the list of sm in the last run, sorted by location: dc's entries,
// and sm's entries no longer listed (changes.Removed, for a run that
// resumes this one). Most entries of dc were in sm's list, found at their
// place in it (dc.ords): they come in its order with no sort; only the
// others (new, moved from another sitemap) are sorted, and merged in.
func (k *changeState) merge(dc *docChanges, sm *oldSitemap) []changes.Entry {
	at := make([]int32, changes.Len(sm.list)) // of each place, 1 + the index of its entry in dc
	var rest []changes.Entry
	for x, e := range dc.entries {
		switch o := dc.ords[x]; {
		case o == 0 || int(o) > len(at):
			rest = append(rest, e)
		case at[o-1] == 0:
			at[o-1] = int32(x + 1)
		}
	}
	changes.Sort(rest)
	out := make([]changes.Entry, 0, len(dc.entries)+len(at)-len(rest))
	r, place := 0, 0
	changes.Decode(sm.list, func(loc []byte, fp uint32, f changes.Flag) bool {
		for r < len(rest) && rest[r].Loc < string(loc) {
			out = append(out, rest[r])
			r++
		}
		if place++; place > len(at) {
			return false // a list longer than it says: not read further
		}
		switch {
		case at[place-1] > 0:
			out = append(out, dc.entries[at[place-1]-1])
		case !sm.ofLast(f):
			// Not a URL of the last run: an entry new in the run
			// resumed, or one removed before.
		case r < len(rest) && rest[r].Loc == string(loc):
			// Listed now, found elsewhere than its place.
		default:
			out = append(out, changes.Entry{Loc: string(loc), FP: fp, Flag: changes.Removed})
		}
		return true
	})
	return append(out, rest[r:]...)
}

// drop marks the sitemap i of the last run, and what it listed, as no
// longer listed, and adds to newly those it marks.
func (k *changeState) drop(i, depth int, newly *[]int) {
	k.mu.Lock()
	was := k.dropped[i]
	k.dropped[i] = true
	k.mu.Unlock()
	if was || depth > maxOldDepth {
		return
	}
	*newly = append(*newly, i)
	for _, j := range k.sms[i].children {
		k.drop(j, depth+1, newly)
	}
}

// keepDropped keeps the URLs of the sitemaps an index read whole no longer
// lists (dropped) in the state of the run at once, as unknown: the record
// of the index, put as soon as it is handed on, no longer leads to them,
// and a run cut short before finish hands them on gone would lose them.
// The next run finds them there, and hands them on gone once the document
// given is read whole or unchanged.
func (k *changeState) keepDropped(dropped []int) {
	var secs []changes.Section
	for _, i := range dropped {
		sm := &k.sms[i]
		if sm.list == nil {
			continue
		}
		var es []changes.Entry
		changes.Decode(sm.list, func(loc []byte, fp uint32, f changes.Flag) bool {
			if sm.ofLast(f) {
				es = append(es, changes.Entry{Loc: string(loc), FP: fp})
			}
			return true
		})
		if len(es) > 0 {
			secs = append(secs, changes.Section{Sitemap: sm.loc, List: changes.Encode(es)})
		}
	}
	if len(secs) > 0 {
		k.st.keepNow(secs) // resume.go
	}
}

// finish ends change detection once the call has read everything: when
// the call was complete, it hands on the URLs gone (or, too many, records
// the error and keeps them), puts the state of the run with the URLs kept
// as unknown, and sets the counts on the document given.
func (k *changeState) finish(complete bool) {
	c := k.c
	// Which sitemaps settle the fate of their URLs not seen.
	settled := make([]bool, len(k.sms))
	for i := range k.sms {
		settled[i] = k.settled[i] != smUnknown || k.dropped[i] && !c.s.hasDoc(k.sms[i].nkey)
	}
	// Of the sitemaps the last run kept URLs in that are not in its
	// tree, what the document given read whole, or replayed, settles.
	if root, ok := k.byKey[storeKey(c.root)]; ok && k.settled[root] != smUnknown {
		for i := range k.sms {
			if k.sms[i].kept != nil && k.sms[i].list == nil && !c.s.hasDoc(k.sms[i].nkey) {
				settled[i] = true
			}
		}
	}
	var gone, unknown, total, seenN int
	for x, i := 0, 0; x < len(k.old); x++ {
		for x >= int(k.seg[i+1]) {
			i++
		}
		if k.isDup(x) {
			// Counted once: by the first of its hash in byHash.
			if i, _ := k.find(k.old[x].h); int(k.byHash[i]) != x {
				continue
			}
		}
		total++
		if k.isSeen(x) {
			seenN++
			continue
		}
		if complete && settled[i] {
			gone++
		} else {
			unknown++
		}
	}
	counts := ChangeCounts{New: int(k.nNew.Load()), LastMod: int(k.nLastmod.Load()), Unchanged: seenN - int(k.nLastmod.Load()) - int(k.nLeftOut.Load()), Unknown: unknown}
	if counts.Unchanged < 0 {
		counts.Unchanged = 0
	}
	keepGone := false
	if share := k.share(); gone > 0 && float64(gone) > share*float64(total) {
		c.record(&ParseError{URL: c.root, Err: fmt.Errorf("%d of %d URLs (%s%%) gone at once, over the %s%% set",
			gone, total, percent(float64(gone)/float64(total)), percent(share))})
		keepGone = true
		counts.Unknown += gone
		gone = 0
	}
	counts.Gone = gone
	var kept []changes.Section
	if complete {
		kept = k.handOnGone(settled, keepGone)
	}
	c.s.updateDoc(0, func(n *Document) { n.Changes = &counts })
	if complete {
		k.st.endRun(kept)
	}
}

// share is the largest share of URLs that may be gone at once.
func (k *changeState) share() float64 {
	if s := k.c.cfg.cond.goneShare; s > 0 {
		return s
	}
	return defaultMaxGoneShare
}

// percent writes a share as a percentage, to a tenth when less than one.
func percent(f float64) string {
	p := f * 100
	if p < 1 && p > 0 {
		return strconv.FormatFloat(p, 'f', 1, 64)
	}
	return strconv.FormatFloat(p, 'f', 0, 64)
}

// handOnGone hands on the URLs not seen of the settled sitemaps as gone
// (or keeps them, when keepGone), and returns the sections of the URLs
// kept as unknown: those the last run kept in a sitemap not settled, and
// the gone kept.
func (k *changeState) handOnGone(settled []bool, keepGone bool) []changes.Section {
	var kept []changes.Section
	var batch []URL
	// Only the sitemaps with URLs not seen, and something to do with
	// them, are read again: of a sitemap not settled, only what the last
	// run kept in it is kept (an index read alone, with
	// Selection.RootOnly, settles none of its sitemaps).
	unseen := make([]bool, len(k.sms))
	for i := range k.sms {
		if !settled[i] && k.sms[i].kept == nil {
			continue
		}
		for x := k.seg[i]; x < k.seg[i+1]; x++ {
			if !k.isSeen(int(x)) {
				unseen[i] = true
				break
			}
		}
	}
	for i := range k.sms {
		if !unseen[i] {
			if i == len(k.sms)-1 {
				k.emitGone(batch)
			}
			continue
		}
		sm := &k.sms[i]
		var keep []changes.Entry
		src := Source{&docSource{url: sm.loc, change: ChangeGone}}
		each := func(list []byte, fromKept bool) {
			changes.Decode(list, func(loc []byte, fp uint32, f changes.Flag) bool {
				if !fromKept && !sm.ofLast(f) {
					return true
				}
				h := maphash.Bytes(k.seed, loc)
				x, y := k.find(h)
				if x == y || k.isSeen(int(k.byHash[x])) {
					return true
				}
				switch {
				case !settled[i] && fromKept, settled[i] && keepGone:
					keep = append(keep, changes.Entry{Loc: string(loc), FP: fp})
				case settled[i]:
					batch = append(batch, URL{Loc: string(loc), Source: src})
					k.markSeen(h) // once, whichever sitemaps listed it
				}
				return true
			})
		}
		each(sm.list, false)
		each(sm.kept, true)
		if len(keep) > 0 {
			kept = append(kept, changes.Section{Sitemap: sm.loc, List: changes.Encode(keep)})
		}
		if len(batch) >= streamBatch || i == len(k.sms)-1 {
			k.emitGone(batch)
			batch = batch[:0]
		}
	}
	return kept
}

// emitGone hands on the URLs gone: to the loop of a streaming call, or to
// the results.
func (k *changeState) emitGone(us []URL) {
	if len(us) == 0 {
		return
	}
	c := k.c
	if c.emit == nil {
		c.s.addURLs(us)
		return
	}
	b := itemBatches.Get().(*[]item)
	for _, u := range us {
		*b = append(*b, item{u: u})
	}
	c.emitBatch(b)
}
