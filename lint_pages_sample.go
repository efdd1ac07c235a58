package sitemap

import (
	"cmp"
	"slices"
)

// This file is the samples of lint's page checks (lint_pages.go): each
// document keeps the pages of the smallest hashes it lists, each once, in
// a heap whose top is the largest; and the samples of a tree of many
// documents are trimmed as they grow to what the turns of pick can take
// from them, so that the memory of the page checks is that of about
// twice the pages checked and a page per document, whatever CheckPages
// and the size of the tree.

// pageHeap is a heap of the entries of a sample, the largest hash on top
// (at 0). Its two moves are written here rather than through
// container/heap, whose interface would give the type exported methods.
type pageHeap []*pageEntry

// up moves the entry at i up to its place.
func (h pageHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent].hash >= h[i].hash {
			return
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
}

// down moves the entry at i down to its place.
func (h pageHeap) down(i int) {
	for {
		largest := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(h) && h[c].hash > h[largest].hash {
				largest = c
			}
		}
		if largest == i {
			return
		}
		h[i], h[largest] = h[largest], h[i]
		i = largest
	}
}

// keep adds pe to the sample s, and trims the samples when they have
// grown by n since they last were.
func (p *pageChecks) keep(s *pageSample, pe *pageEntry) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s.add(pe) {
		if p.kept++; p.kept >= p.trimAt {
			p.trim()
		}
	}
}

// wants reports whether a page of hash sum would join the sample: one it
// does not hold, while it is not full or of a hash below its largest.
func (s *pageSample) wants(sum uint64) bool {
	return !s.has[sum] && (len(s.entries) < s.limit || sum < s.entries[0].hash)
}

// add adds pe to the sample when it wants it, in place of its largest
// entry when it is full, and reports whether the sample grew.
func (s *pageSample) add(pe *pageEntry) bool {
	if !s.wants(pe.hash) {
		return false
	}
	s.has[pe.hash] = true
	if len(s.entries) < s.limit {
		s.entries = append(s.entries, pe)
		s.entries.up(len(s.entries) - 1)
		return true
	}
	delete(s.has, s.entries[0].hash)
	s.entries[0] = pe
	s.entries.down(0)
	return false
}

// trim cuts every sample to the turns pick needs: the first turn at the
// end of which the turns so far hold n distinct pages. A sample takes no
// more than that many from then on (its limit); the entries left out are
// those of its largest hashes, which pick would not reach.
func (p *pageChecks) trim() {
	samples := make([]*pageSample, 0, len(p.docs))
	for _, s := range p.docs {
		// Sorted from the largest hash down, a sample is still a heap.
		slices.SortFunc(s.entries, func(a, b *pageEntry) int { return cmp.Compare(b.hash, a.hash) })
		samples = append(samples, s)
	}
	seen := map[string]bool{}
	turns := 0
	for more := true; more && len(seen) < p.n; turns++ {
		more = false
		for _, s := range samples {
			if i := len(s.entries) - 1 - turns; i >= 0 {
				seen[s.entries[i].key], more = true, true
			}
		}
	}
	p.kept = 0
	for _, s := range samples {
		if cut := len(s.entries) - turns; cut > 0 {
			for _, e := range s.entries[:cut] {
				delete(s.has, e.hash)
			}
			s.entries = slices.Clone(s.entries[cut:])
		}
		s.limit = min(s.limit, max(turns, 1))
		p.kept += len(s.entries)
	}
	p.trimAt = p.kept + p.n
}
