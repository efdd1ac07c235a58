package sitemap

import (
	"hash/fnv"
	"math/rand/v2"
	"sync"

	"github.com/gositemap/sitemap/internal/changes"
)

// This file is the run of a call with a store: its number, whether it
// resumes one cut short, and its state, kept in the store under runKey.
// A streaming call numbers its records (Record.Run) with its run; when the
// last run from the same document was cut short, the call takes its
// number, and the sitemaps whose records carry it were handed on whole
// then: readUnchanged replays them from their records instead of reading
// them again. Change detection keeps in the state the URLs it holds as
// unknown (changes.go).
//
// The records are shared by the runs of every document given, each with a
// state of its own: the first run from a document takes a random number,
// so that a run from one document never takes the records of a run from
// another for its own. And a run resumes only one that let through the
// same URLs (selection): a record vouches that its sitemap's URLs were
// handed on, those the rules, KeepURL and OnlyChanges let through then.
// Nor does it resume a run from the same document still going in this
// process (live): its state says cut short until it ends. (Across
// processes the command holds its state file: store.FileOptions.Exclusive.)

// runState is the run of a call with a store.
type runState struct {
	n       uint64            // the number of the run, 0 for a call that does not stream
	resumed bool              // it resumes a run cut short: records of Run n were handed on
	cut     uint64            // the number of a run cut short that it does not resume, 0 when none
	sel     uint64            // the fingerprint of its selection
	kept    []changes.Section // the URLs the last run kept as unknown
}

// runKey is the key of the state of the runs from the document at root.
func runKey(root string) string { return "#run " + storeKey(root) }

// startRun reads the state of the last run from the document given, and
// puts the state of this one, not complete yet, at once: a process killed
// from now on leaves a run to resume.
func (k *condState) startRun() {
	c := k.c
	st := k.cfg.store
	// A store that fails is reported by the records of the sitemaps; the
	// state of the run of one that fails here is none, and resumes nothing.
	rec, ok, err := st.Get(c.ctx, runKey(c.root))
	if err != nil {
		ok = false
	}
	r := &runState{n: firstRun()}
	sel := k.selection()
	going := c.emit != nil && live.start(runKey(c.root), c)
	if ok {
		complete, kept, was, derr := changes.DecodeRunOf(rec.URLs)
		r.n, r.kept = nextRun(rec.Run), kept
		switch {
		case derr != nil:
			r.kept = nil // a state this code did not write: start afresh
		case !complete && !k.cfg.noResume && c.emit != nil && was == sel && rec.Run != 0 && !going:
			r.n, r.resumed = rec.Run, true
		case !complete:
			r.cut = rec.Run // its lists hold the URLs it found gone and never handed on: changes.go
		}
	}
	r.sel = sel
	k.runs = r
	if c.emit == nil {
		return // a call that does not stream leaves no run to resume
	}
	k.putNowAt(c.root, runKey(c.root), Record{Run: r.n, URLs: changes.EncodeRunOf(false, r.kept, sel)})
}

// keepNow adds secs to the URLs the state of the run, not complete yet,
// keeps as unknown, and puts it now (keepDropped).
func (k *condState) keepNow(secs []changes.Section) {
	k.mu.Lock()
	k.runs.kept = append(k.runs.kept, secs...)
	state := changes.EncodeRunOf(false, k.runs.kept, k.runs.sel)
	k.mu.Unlock()
	k.putNowAt(k.c.root, runKey(k.c.root), Record{Run: k.runs.n, URLs: state})
}

// liveRuns are the streaming calls with a store going on in this process,
// by the key of the state of their runs.
type liveRuns struct {
	mu    sync.Mutex
	calls map[string]map[*call]bool
}

var live liveRuns

// start notes that c, a run from its document, is going, and reports
// whether another one from the same document is too.
func (l *liveRuns) start(key string, c *call) (others bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.calls == nil {
		l.calls = map[string]map[*call]bool{}
	}
	if l.calls[key] == nil {
		l.calls[key] = map[*call]bool{}
	}
	others = len(l.calls[key]) > 0
	l.calls[key][c] = true
	return others
}

// end notes that c has ended (endStore): nothing when it never started.
func (l *liveRuns) end(key string, c *call) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if cs := l.calls[key]; cs[c] {
		delete(cs, c)
		if len(cs) == 0 {
			delete(l.calls, key)
		}
	}
}

// firstRun is the number of the first run from a document: random, never
// 0 (the Run of a record put by a call that does not stream), and far
// from the end.
func firstRun() uint64 { return rand.Uint64()>>2 | 1 }

// nextRun is the number of the run after n, never 0.
func nextRun(n uint64) uint64 {
	if n++; n == 0 {
		return firstRun()
	}
	return n
}

// selection is the fingerprint of what the call lets through of the
// documents it reads whole: its URL rules, whether it has a KeepURL (a
// function the fingerprint takes to be the same from run to run), and
// whether it hands on only the changes. Never 0.
func (k *condState) selection() uint64 {
	cfg := &k.c.cfg
	h := fnv.New64a()
	for _, r := range cfg.rules {
		h.Write([]byte(r))
		h.Write([]byte{0})
	}
	h.Write([]byte{1, boolByte(cfg.selection.KeepURL != nil), boolByte(k.cfg.onlyChanges)})
	return h.Sum64() | 1
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// endRun puts the state of the run, complete, with the URLs kept as
// unknown, once what the call hands on is handed on.
func (k *condState) endRun(kept []changes.Section) {
	k.putAt(k.c.root, runKey(k.c.root), Record{Run: k.runs.n, URLs: changes.EncodeRunOf(true, kept, k.runs.sel)})
}

// resumes reports whether the record rec of a sitemap was put by the run
// this call resumes, once its URLs were handed on.
func (k *condState) resumes(rec Record) bool {
	return k.runs != nil && k.runs.resumed && rec.Run == k.runs.n
}
