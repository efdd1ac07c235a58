// Package store holds the two stores of conditional fetching that the
// module ships, each a [sitemap.Store]: [Memory], for the calls of one
// process, and [File], a JSON file that keeps the records between runs (the
// store of the command's -state flag). Set one on an instance with
// [sitemap.S.SetStore].
package store

import (
	"context"
	"slices"
	"sync"

	"github.com/gositemap/sitemap"
)

// Memory is a [sitemap.Store] in memory, for the calls of one process. The
// zero value is not ready: use [NewMemory]. It is safe for concurrent use.
type Memory struct {
	mu      sync.Mutex
	records map[string]sitemap.Record
}

// NewMemory returns an empty Memory store.
func NewMemory() *Memory { return &Memory{records: map[string]sitemap.Record{}} }

// Get returns the record of key.
func (m *Memory) Get(_ context.Context, key string) (sitemap.Record, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.records[key]
	return cloneRecord(r), ok, nil
}

// Put sets the record of key.
func (m *Memory) Put(_ context.Context, key string, r sitemap.Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.records[key] = cloneRecord(r)
	return nil
}

// Len returns how many records the store holds.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.records)
}

// cloneRecord copies r so that neither the caller nor the store sees the
// other's later changes. URLs is shared: the call never changes it.
func cloneRecord(r sitemap.Record) sitemap.Record {
	r.Children = slices.Clone(r.Children)
	return r
}
