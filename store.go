package sitemap

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// This file is the state that conditional fetching keeps between runs:
// the Store interface, and the two stores the package ships, in memory and
// in a file.

// A Record is what a [Store] keeps of one sitemap (or robots.txt) from the
// last run that read it whole.
type Record struct {
	// ETag and LastModified are the validators of the response, as the
	// server sent them, to be sent back in If-None-Match and
	// If-Modified-Since. Either may be empty.
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"lastModified,omitempty"`
	// IndexLastmod is the <lastmod> that the index which listed the sitemap
	// gave it, as written, or empty.
	IndexLastmod string `json:"indexLastmod,omitempty"`
	// Children are, for a sitemap index or a robots.txt, the sitemaps it
	// listed, in order: what an unchanged index still leads to.
	Children []StoredChild `json:"children,omitempty"`
	// Format is the format the document was read as, as [Document.Format]
	// names it.
	Format string `json:"format,omitempty"`
}

// A StoredChild is a sitemap that an index listed, with the <lastmod> it
// was listed with, as written.
type StoredChild struct {
	Loc     string `json:"loc"`
	Lastmod string `json:"lastmod,omitempty"`
}

// A Store keeps a [Record] per sitemap between runs. Its keys are the
// request keys of the sitemaps, a password in the user information
// replaced by xxxxx. A fleet of crawlers can put it on a database of its
// own; [NewMemoryStore] and [OpenFileStore] are the ones the package ships.
//
// The methods are called from the goroutines of a call at the same time: an
// implementation must be safe for concurrent use. Get reports false when it
// holds no record for key. An error of either is recorded about the
// sitemap (a *ParseError) and the sitemap is read as with no store.
type Store interface {
	Get(ctx context.Context, key string) (Record, bool, error)
	Put(ctx context.Context, key string, r Record) error
}

// A Flusher is a [Store] that holds what it is given until Flush: a call
// flushes its store when it ends.
type Flusher interface {
	Flush() error
}

// MemoryStore is a [Store] in memory, for the calls of one process. The
// zero value is not ready: use [NewMemoryStore]. It is safe for concurrent
// use.
type MemoryStore struct {
	mu      sync.Mutex
	records map[string]Record
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{records: map[string]Record{}} }

// Get returns the record of key.
func (m *MemoryStore) Get(_ context.Context, key string) (Record, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.records[key]
	return cloneRecord(r), ok, nil
}

// Put sets the record of key.
func (m *MemoryStore) Put(_ context.Context, key string, r Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.records[key] = cloneRecord(r)
	return nil
}

// Len returns how many records the store holds.
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.records)
}

func cloneRecord(r Record) Record {
	r.Children = slices.Clone(r.Children)
	return r
}

// stateFormat names the format of a state file, so that a file of some
// other program is told apart from one of this package.
const stateFormat = "gositemap-state/1"

// stateFile is the content of a state file.
type stateFile struct {
	Format  string            `json:"format"`
	Records map[string]Record `json:"records"`
}

// FileStore is a [Store] in a JSON file: the embedded default of the
// command's -state flag. It reads the file when opened, holds the records
// put in memory, and writes them when flushed (a call flushes it when it
// ends). A write is atomic: the records go to a temporary file in the same
// directory, which is synced and renamed over the file, so a crash
// mid-write leaves the last good state. Two processes that flush one file
// do not corrupt it: on Unix a flush holds an exclusive flock on the file
// path+".lock", reads the file again, lays its own records over what it
// finds and writes the result, so that records put by the other process
// are kept; elsewhere the writes are atomic but not locked, and the last
// flush wins. It is safe for concurrent use.
type FileStore struct {
	path string
	mem  *MemoryStore

	mu    sync.Mutex
	dirty map[string]Record // put since the last flush
}

// ErrCorruptState is wrapped by the error of [OpenFileStore] for a state
// file that is not one this package wrote, or that it cannot read.
var ErrCorruptState = errors.New("sitemap: state file cannot be read")

// OpenFileStore opens the state file at path: it reads its records, or
// starts empty when there is no file yet. A file that cannot be read, or is
// not a state file of this package (corrupt, or of another program), is an
// error naming the file and wrapping [ErrCorruptState], unless
// discardCorrupt is true: then the store starts empty and the next flush
// writes the file anew.
func OpenFileStore(path string, discardCorrupt bool) (*FileStore, error) {
	records, err := readStateFile(path)
	if err != nil && !(discardCorrupt && errors.Is(err, ErrCorruptState)) {
		return nil, err
	}
	fs := &FileStore{path: path, mem: NewMemoryStore(), dirty: map[string]Record{}}
	if err == nil {
		fs.mem.records = records
	}
	// The file can be written: a store that cannot be is told now, not at
	// the end of a call.
	if err := fs.checkWritable(); err != nil {
		return nil, err
	}
	return fs, nil
}

// Path returns the path of the state file.
func (f *FileStore) Path() string { return f.path }

// Get returns the record of key.
func (f *FileStore) Get(ctx context.Context, key string) (Record, bool, error) {
	return f.mem.Get(ctx, key)
}

// Put sets the record of key; it is written at the next Flush.
func (f *FileStore) Put(ctx context.Context, key string, r Record) error {
	f.mem.Put(ctx, key, r)
	f.mu.Lock()
	f.dirty[key] = cloneRecord(r)
	f.mu.Unlock()
	return nil
}

// Flush writes the records put since the last flush to the file, over the
// records the file holds by then.
func (f *FileStore) Flush() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.dirty) == 0 {
		return nil
	}
	unlock, err := lockState(f.path + ".lock")
	if err != nil {
		return fmt.Errorf("state file %s: %w", f.path, err)
	}
	defer unlock()
	onDisk, err := readStateFile(f.path)
	if err != nil {
		onDisk = map[string]Record{} // a corrupt file opened with discardCorrupt
	}
	maps.Copy(onDisk, f.dirty)
	if err := writeStateFile(f.path, onDisk); err != nil {
		return err
	}
	f.dirty = map[string]Record{}
	return nil
}

// Close flushes the store.
func (f *FileStore) Close() error { return f.Flush() }

// checkWritable creates and removes a temporary file in the directory of
// the state file.
func (f *FileStore) checkWritable() error {
	tmp, err := os.CreateTemp(filepath.Dir(f.path), filepath.Base(f.path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("state file %s cannot be written: %w", f.path, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// readStateFile reads the records of the state file at path: none when it
// does not exist.
func readStateFile(path string) (map[string]Record, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]Record{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	var st stateFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("state file %s: %w: %v", path, ErrCorruptState, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("state file %s: %w: data after the state", path, ErrCorruptState)
	}
	if st.Format != stateFormat {
		return nil, fmt.Errorf("state file %s: %w: format %q, want %q", path, ErrCorruptState, st.Format, stateFormat)
	}
	if st.Records == nil {
		st.Records = map[string]Record{}
	}
	return st.Records, nil
}

// writeStateFile writes records to path atomically: to a temporary file in
// its directory, synced, then renamed over path.
func writeStateFile(path string, records map[string]Record) (err error) {
	data, err := json.MarshalIndent(stateFile{Format: stateFormat, Records: records}, "", "\t")
	if err != nil {
		return fmt.Errorf("state file %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("state file %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
			err = fmt.Errorf("state file %s: %w", path, err)
		}
	}()
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
