package fleet

import (
	"context"
	"fmt"
	"sync"

	"github.com/gositemap/sitemap"
)

// This file is the store a document's instance reads and writes with
// change detection (changes.go): the fleet's Store, its Puts held until
// the document's output is stored, and no record below the document.

// heldStore is a store whose Puts are held until flush: the records of a
// document vouch for the URLs handed on, and change detection compares the
// next reading of the document with them. The instance of the document
// sees its own record and its run's state alone: the library would walk
// the last tree below an index one record at a time, to find the URLs of
// the sitemaps it no longer lists, which the fleet finds itself, for
// those alone (docChanges.dropped).
type heldStore struct {
	sitemap.Store
	rootKey, runKey string // the keys of the document's record and of its run's state

	mu   sync.Mutex
	puts []heldPut
	root sitemap.Record // the document's record, as got
}

// Get gets the record of key: the document's, which it keeps, or its
// run's state; of any other, none.
func (h *heldStore) Get(ctx context.Context, key string) (sitemap.Record, bool, error) {
	if key != h.rootKey && key != h.runKey {
		return sitemap.Record{}, false, nil
	}
	r, ok, err := h.Store.Get(ctx, key)
	if key == h.rootKey {
		h.mu.Lock()
		h.root = r
		h.mu.Unlock()
	}
	return r, ok, err
}

// record returns the document's record, as got.
func (h *heldStore) record() sitemap.Record {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.root
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
