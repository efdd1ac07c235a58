package sitemap

import (
	"fmt"
	"hash/fnv"
	"slices"
	"testing"
)

// The samples of the page checks of a tree of many documents stay near
// the pages checked (trim), and pick takes the same pages as it would
// from samples never trimmed: each document's pages of the smallest
// hashes, in turn. A page a document lists many times is kept once.
func TestPageSamplesTrimmed(t *testing.T) {
	const n, docs, per = 10, 40, 50
	p := &pageChecks{n: n, docs: map[int]*pageSample{}, trimAt: 2 * n}
	want := map[string][]uint64{} // by document: every hash, for the turns done by hand
	peak := 0
	for d := range docs {
		s := &pageSample{doc: fmt.Sprintf("https://example.com/s%02d.xml", d), has: map[uint64]bool{}, limit: n}
		p.docs[d] = s
		for i := range per {
			loc := fmt.Sprintf("https://example.com/%d/%d", d, i%(per/2)) // each page twice
			h := fnv.New64a()
			h.Write([]byte(loc))
			p.keep(s, &pageEntry{hash: h.Sum64(), loc: loc, key: loc})
			if !slices.Contains(want[s.doc], h.Sum64()) {
				want[s.doc] = append(want[s.doc], h.Sum64())
			}
			peak = max(peak, p.kept)
		}
	}
	if peak > 2*n+docs {
		t.Errorf("the samples held %d pages at most; want at most %d", peak, 2*n+docs)
	}
	var expect []uint64
	for i := 0; len(expect) < n; i++ {
		for d := range docs {
			hs := want[fmt.Sprintf("https://example.com/s%02d.xml", d)]
			slices.Sort(hs)
			if i < len(hs) && len(expect) < n {
				expect = append(expect, hs[i])
			}
		}
	}
	var got []uint64
	for _, e := range p.pick() {
		got = append(got, e.hash)
	}
	if !slices.Equal(got, expect) {
		t.Errorf("picked %x\nwant   %x", got, expect)
	}
}

// The Content-Type of a page that is HTML, however its parameters are
// written.
func TestIsHTML(t *testing.T) {
	for ct, want := range map[string]bool{
		"": true, "text/html": true, "TEXT/HTML; charset=UTF-8": true, "text/html;;charset=utf-8": true,
		"text/html; charset": true, "application/xhtml+xml": true, "text/plain": false, "image/png": false, "html": false,
	} {
		if got := isHTML(ct); got != want {
			t.Errorf("isHTML(%q) = %v", ct, got)
		}
	}
}
