package sitemap

import (
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

// runState is the run of a call with a store.
type runState struct {
	n       uint64            // the number of the run, 0 for a call that does not stream
	resumed bool              // it resumes a run cut short: records of Run n were handed on
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
	r := &runState{n: 1}
	if ok {
		complete, kept, derr := changes.DecodeRun(rec.URLs)
		r.n, r.kept = rec.Run, kept
		switch {
		case derr != nil:
			r.n, r.kept = rec.Run+1, nil // a state this code did not write: start afresh
		case complete || k.cfg.noResume || c.emit == nil:
			r.n++
		default:
			r.resumed = true
		}
	}
	k.runs = r
	if c.emit == nil {
		return // a call that does not stream leaves no run to resume
	}
	k.putNowAt(c.root, runKey(c.root), Record{Run: r.n, URLs: changes.EncodeRun(false, r.kept)})
}

// endRun puts the state of the run, complete, with the URLs kept as
// unknown, once what the call hands on is handed on.
func (k *condState) endRun(kept []changes.Section) {
	k.putAt(k.c.root, runKey(k.c.root), Record{Run: k.runs.n, URLs: changes.EncodeRun(true, kept)})
}

// resumes reports whether the record rec of a sitemap was put by the run
// this call resumes, once its URLs were handed on.
func (k *condState) resumes(rec Record) bool {
	return k.runs != nil && k.runs.resumed && rec.Run == k.runs.n
}
