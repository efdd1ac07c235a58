package fleet

import (
	"context"
	"fmt"
	"sync"

	"github.com/gositemap/sitemap"
)

// This file is the store a document's instance reads and writes with
// change detection (changes.go): the fleet's Store, its Puts held until
// the document's output is stored, and the records below an index got
// ahead for the library's walk of the last tree.

// heldStore is a store whose Puts are held until flush: the records of a
// document vouch for the URLs handed on, and change detection compares the
// next reading of the document with them.
type heldStore struct {
	sitemap.Store
	rootKey string // the key of the document's record

	mu       sync.Mutex
	puts     []heldPut
	rootURLs []byte                    // the URLs of the document's record, as got
	got      map[string]sitemap.Record // the records of the sitemaps below an index, got ahead
}

// Get gets the record of key, and keeps the URLs of the document's. The
// library walks the last tree from an index one record at a time: the
// records of what the index's record lists, level by level, are got
// ahead, claimParallel at a time, when the index's is.
func (h *heldStore) Get(ctx context.Context, key string) (sitemap.Record, bool, error) {
	h.mu.Lock()
	r, ok := h.got[key]
	h.mu.Unlock()
	if ok {
		return r, true, nil
	}
	r, ok, err := h.Store.Get(ctx, key)
	if key == h.rootKey {
		h.mu.Lock()
		h.rootURLs = r.URLs
		ahead := h.got == nil && len(r.Children) > 0
		h.mu.Unlock()
		if ahead {
			h.getAhead(ctx, r.Children)
		}
	}
	return r, ok, err
}

// getAhead gets the records of the sitemaps below children. One that
// fails is left to the library's own Get.
func (h *heldStore) getAhead(ctx context.Context, children []sitemap.StoredChild) {
	got := map[string]sitemap.Record{}
	var mu sync.Mutex
	seen := map[string]bool{h.rootKey: true}
	var level []string
	add := func(cs []sitemap.StoredChild) {
		for _, c := range cs {
			if k := storeKeyOf(c.Loc); !seen[k] {
				seen[k] = true
				level = append(level, k)
			}
		}
	}
	add(children)
	for depth := 0; len(level) > 0 && depth < maxOldDepth; depth++ {
		keys := level
		level = nil
		next := make([][]sitemap.StoredChild, len(keys))
		parallel(ctx, len(keys), func(i int) error {
			r, ok, err := h.Store.Get(ctx, keys[i])
			if err == nil && ok {
				mu.Lock()
				got[keys[i]] = r
				mu.Unlock()
				next[i] = r.Children
			}
			return nil
		})
		for _, cs := range next {
			add(cs)
		}
	}
	h.mu.Lock()
	h.got = got
	h.mu.Unlock()
}

// root returns the URLs of the document's record.
func (h *heldStore) root() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rootURLs
}

type heldPut struct {
	key string
	rec sitemap.Record
}

// Put holds the record.
func (h *heldStore) Put(_ context.Context, key string, r sitemap.Record) error {
	h.mu.Lock()
	h.puts = append(h.puts, heldPut{key, r})
	h.mu.Unlock()
	return nil
}

// flush puts the records held, in order, the last of each key.
func (h *heldStore) flush(ctx context.Context) error {
	h.mu.Lock()
	puts := h.puts
	h.puts = nil
	h.mu.Unlock()
	last := map[string]int{}
	for i, p := range puts {
		last[p.key] = i
	}
	for i, p := range puts {
		if last[p.key] != i {
			continue
		}
		if err := h.Store.Put(ctx, p.key, p.rec); err != nil {
			return fmt.Errorf("record %s: %w", p.key, err)
		}
	}
	return nil
}
