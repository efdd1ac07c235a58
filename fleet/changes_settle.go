package fleet

// This file is the reader's side of change detection (changes.go): the
// URLs gone that the documents gave and the URLs seen elsewhere, held by
// the reader of a crawl's output and settled once the crawl is done, the
// share held back kept as unknown for the next crawl, and the counts of
// a crawl's status.

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/changes"
	"github.com/gositemap/sitemap/store"
	"github.com/nats-io/nats.go/jetstream"
)

// settler is the reader's side of change detection in a crawl: the
// candidates gone and the URLs seen, settled once the crawl is done.
type settler struct {
	f      *Fleet
	crawl  string
	rec    crawlRecord
	seen   map[uint64]struct{} // the URLs of the last tree seen again
	listed map[uint64]struct{} // the sitemaps of the crawl's tree, by their request keys
	cands  []candidate
}

// candidate is a URL a document says is gone.
type candidate struct {
	h       uint64
	line    []byte
	sitemap string // the sitemap that listed it
	doc     string // the document that says it is gone: the sitemap, or an index that no longer lists it
}

// newSettler returns the settler of crawl, nil when it has no change
// detection.
func (f *Fleet) newSettler(crawl string, rec crawlRecord) *settler {
	if !rec.Settings.changes() {
		return nil
	}
	return &settler{f: f, crawl: crawl, rec: rec, seen: map[uint64]struct{}{}, listed: map[uint64]struct{}{}}
}

// take holds msg when it is one of change detection's, and reports
// whether it was.
func (s *settler) take(msg jetstream.Msg) (bool, error) {
	if s == nil {
		return false, nil
	}
	switch msg.Headers().Get(hdrKind) {
	case kindSeen, kindListed:
		set := s.seen
		if msg.Headers().Get(hdrKind) == kindListed {
			set = s.listed
		}
		data := msg.Data()
		for ; len(data) >= 8; data = data[8:] {
			set[binary.LittleEndian.Uint64(data)] = struct{}{}
		}
		return true, nil
	case kindGone:
		doc, data, _ := bytes.Cut(msg.Data(), []byte{'\n'})
		for len(data) > 0 {
			var line []byte
			line, data, _ = bytes.Cut(data, []byte{'\n'})
			var j struct {
				Loc     string `json:"loc"`
				Sitemap string `json:"sitemap"`
			}
			if err := json.Unmarshal(line, &j); err != nil {
				return true, fmt.Errorf("fleet: a URL gone of the output does not read: %w", err)
			}
			s.cands = append(s.cands, candidate{h: hashLoc(j.Loc), line: slices.Clip(line), sitemap: j.Sitemap, doc: string(doc)})
		}
		return true, nil
	}
	return false, nil
}

// finish hands on the URLs gone of the crawl, once it is done, or the
// error of too many.
func (s *settler) finish(ctx context.Context, yield func([]byte, error) bool) bool {
	if s == nil {
		return true
	}
	if len(s.cands) == 0 {
		s.f.crawls.Put(ctx, goneKey(s.crawl), []byte("0"))
		return true
	}
	if rec, err := s.f.record(ctx, s.crawl); err != nil || rec.Cancelled {
		return true // a crawl cut short hands on no URL gone
	}
	for _, r := range s.rec.Roots {
		s.listed[hashLoc(store.RequestKey(r))] = struct{}{}
	}
	var gone []candidate
	done := map[uint64]bool{}
	for _, c := range s.cands {
		if _, ok := s.seen[c.h]; ok || done[c.h] {
			continue
		}
		if c.doc != c.sitemap {
			// A sitemap an index no longer lists: another document of
			// the crawl that lists it settles it, or leaves it unknown.
			if _, ok := s.listed[hashLoc(store.RequestKey(c.sitemap))]; ok {
				continue
			}
		}
		done[c.h] = true
		gone = append(gone, c)
	}
	_, total, err := s.f.snapshotSize(ctx, s.crawl)
	if err != nil {
		return yield(nil, err)
	}
	share := s.rec.Settings.MaxGoneShare
	if share == 0 {
		share = defaultMaxGoneShare
	}
	if len(gone) > 0 && float64(len(gone)) > share*float64(total) {
		err := &sitemap.ParseError{URL: s.rec.Roots[0], Err: fmt.Errorf("%d of %d URLs (%s%%) gone at once, over the %s%% set",
			len(gone), total, percent(float64(len(gone))/float64(total)), percent(share))}
		s.f.crawls.Put(ctx, goneKey(s.crawl), []byte("0"))
		typ, text, _ := strings.Cut(errorLine(err), ": ")
		if !yield(nil, &DocError{Type: typ, Message: text}) {
			return false
		}
		if err := s.keepUnknown(ctx, gone); err != nil {
			return yield(nil, fmt.Errorf("fleet: keep the URLs held back for the next crawl: %w", err))
		}
		return true
	}
	s.f.crawls.Put(ctx, goneKey(s.crawl), []byte(strconv.Itoa(len(gone))))
	for _, c := range gone {
		if !yield(c.line, nil) {
			return false
		}
	}
	return true
}

// defaultMaxGoneShare is the library's share of the last tree's URLs that
// may be gone at once when MaxGoneShare is 0.
const defaultMaxGoneShare = 0.30

// percent writes a share as a percentage, to a tenth when less than one,
// as the library's message does.
func percent(f float64) string {
	p := f * 100
	if p < 1 && p > 0 {
		return strconv.FormatFloat(p, 'f', 1, 64)
	}
	return strconv.FormatFloat(p, 'f', 0, 64)
}

// addChanges adds the changes of a document to the status.
func (st *Status) addChanges(c *changeCounts) {
	if c == nil {
		return
	}
	if st.Changes == nil {
		st.Changes = &sitemap.ChangeCounts{}
	}
	st.Changes.New += c.New
	st.Changes.LastMod += c.LastMod
	st.Changes.Unchanged += c.Unchanged
}

// goneKey is the key of the number of URLs gone of a crawl in the crawls
// bucket, put by the reader that settled them.
func goneKey(crawl string) string { return crawl + ".gone" }

// settledChanges completes the changes of a crawl's status with the URLs
// gone and unknown, once a reader has settled them.
func (f *Fleet) settledChanges(ctx context.Context, crawl string, st *Status) {
	if st.Changes == nil {
		st.Changes = &sitemap.ChangeCounts{}
	}
	e, err := f.crawls.Get(ctx, goneKey(crawl))
	if err != nil {
		return
	}
	_, total, err := f.snapshotSize(ctx, crawl)
	if err != nil {
		return
	}
	st.Changes.Gone, _ = strconv.Atoi(string(e.Value()))
	st.Changes.Unknown = max(total-st.Changes.Unchanged-st.Changes.LastMod-st.Changes.Gone, 0)
}

// keptKey is the key, in a State's store, of the record whose Children are
// the documents in whose run's state the fleet kept URLs as unknown.
const keptKey = "#fleet kept"

// runKeyOf is the key of the state of the runs from the document at loc,
// as the library keys it.
func runKeyOf(loc string) string { return "#run " + storeKeyOf(loc) }

// keptSections returns the URLs the fleet kept as unknown in st, by
// sitemap.
func keptSections(ctx context.Context, st sitemap.Store) ([]changes.Section, error) {
	docs, ok, err := st.Get(ctx, keptKey)
	if err != nil || !ok {
		return nil, err
	}
	var all []changes.Section
	for _, d := range docs.Children {
		rec, ok, err := st.Get(ctx, runKeyOf(d.Loc))
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if _, kept, err := changes.DecodeRun(rec.URLs); err == nil {
			all = append(all, kept...)
		}
	}
	return all, nil
}

// keepUnknown keeps the URLs gone that the share held back as unknown for
// the next crawl, as the library keeps them: in the state of the run of
// the document that said they were gone, by sitemap, where its next
// reading finds them (gone then, if its sitemap still settles them, or
// seen again).
func (s *settler) keepUnknown(ctx context.Context, held []candidate) error {
	st, err := s.f.Store(s.rec.Settings.State)
	if err != nil {
		return err
	}
	t, err := s.f.loadSnapshot(ctx, s.crawl)
	if err != nil {
		return err
	}
	byDoc := map[string]map[string][]changes.Entry{}
	for _, c := range held {
		if byDoc[c.doc] == nil {
			byDoc[c.doc] = map[string][]changes.Entry{}
		}
		var fp uint32
		if es := t.find(c.h); len(es) > 0 {
			fp = es[0].fp
		}
		u, err := ParseLine(c.line)
		if err != nil {
			return err
		}
		byDoc[c.doc][c.sitemap] = append(byDoc[c.doc][c.sitemap], changes.Entry{Loc: u.Loc, FP: fp})
	}
	for doc, sections := range byDoc {
		key := runKeyOf(doc)
		rec, _, err := st.Get(ctx, key)
		if err != nil {
			return err
		}
		complete, kept, err := changes.DecodeRun(rec.URLs)
		if err != nil {
			complete, kept = true, nil
		}
		for sm, entries := range sections {
			i := slices.IndexFunc(kept, func(sec changes.Section) bool { return sec.Sitemap == sm })
			if i < 0 {
				kept = append(kept, changes.Section{Sitemap: sm})
				i = len(kept) - 1
			}
			changes.Decode(kept[i].List, func(loc []byte, fp uint32, _ changes.Flag) bool {
				entries = append(entries, changes.Entry{Loc: string(loc), FP: fp})
				return true
			})
			kept[i].List = changes.Encode(entries)
		}
		rec.URLs = changes.EncodeRun(complete, kept)
		if err := st.Put(ctx, key, rec); err != nil {
			return err
		}
	}
	docs, _, err := st.Get(ctx, keptKey)
	if err != nil {
		return err
	}
	for doc := range byDoc {
		if !slices.ContainsFunc(docs.Children, func(c sitemap.StoredChild) bool { return c.Loc == doc }) {
			docs.Children = append(docs.Children, sitemap.StoredChild{Loc: doc})
		}
	}
	return st.Put(ctx, keptKey, docs)
}
