package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"sync"

	"github.com/gositemap/sitemap"
)

// stateFormat names the format of a state file, so that a file of some
// other program is told apart from one of this package.
const stateFormat = "gositemap-state/1"

// MaxFileSize is the largest state file, in bytes, that [OpenFile] reads
// and [File.Sync] writes: 256 MiB, room for records of millions of
// sitemaps. A larger file is refused, never read into memory.
const MaxFileSize = 256 << 20

// stateFile is the content of a state file.
type stateFile struct {
	Format  string                    `json:"format"`
	Records map[string]sitemap.Record `json:"records"`
}

// File is a [sitemap.Store] in a JSON file: the store of the command's
// -state flag. It reads the file when opened, holds the records put in
// memory, and writes them when synced (a call syncs it when it ends). A
// write is atomic: the records go to a temporary file in the same
// directory, which is synced and renamed over the file, so a crash
// mid-write leaves the last good state. Two processes that sync one file
// do not corrupt it: on Unix a sync holds an exclusive flock on the file
// path+".lock", reads the file again, lays its own records over what it
// finds and writes the result, so that records put by the other process
// are kept; elsewhere the writes are atomic but not locked, and the last
// sync wins. It is safe for concurrent use.
type File struct {
	path string
	mem  *Memory

	mu    sync.Mutex
	dirty map[string]sitemap.Record // put since the last sync
}

// FileOptions are the options of [OpenFile]. A nil *FileOptions is the
// zero value.
type FileOptions struct {
	// DiscardCorrupt, when true, opens a state file that is corrupt or of
	// another program as an empty store, which the next sync writes anew,
	// instead of failing with [ErrCorrupt].
	DiscardCorrupt bool
}

// ErrCorrupt is wrapped by the error of [OpenFile] for a state file that
// is not one this package wrote, or that it cannot make sense of.
var ErrCorrupt = errors.New("store: state file cannot be read")

// OpenFile opens the state file at path: it reads its records, or starts
// empty when there is no file yet. A file that is not a state file of this
// package (corrupt, or of another program) is an error naming the file and
// wrapping [ErrCorrupt], unless o.DiscardCorrupt is true: then the store
// starts empty and the next sync writes the file anew. A path that is not a
// regular file (a directory, a named pipe, a device, or a symbolic link to
// one of them) is an error naming the file whatever o says, found without
// waiting for a writer or reading a byte; so is a file larger than
// [MaxFileSize], and a directory where the file cannot be written.
func OpenFile(path string, o *FileOptions) (*File, error) {
	if o == nil {
		o = &FileOptions{}
	}
	records, err := readStateFile(path)
	if err != nil && !(o.DiscardCorrupt && errors.Is(err, ErrCorrupt)) {
		return nil, err
	}
	f := &File{path: path, mem: NewMemory(), dirty: map[string]sitemap.Record{}}
	if err == nil {
		f.mem.records = records
	}
	// The file can be written: a store that cannot be is told now, not at
	// the end of a call.
	if err := f.checkWritable(); err != nil {
		return nil, err
	}
	return f, nil
}

// Path returns the path of the state file.
func (f *File) Path() string { return f.path }

// Get returns the record of key.
func (f *File) Get(ctx context.Context, key string) (sitemap.Record, bool, error) {
	return f.mem.Get(ctx, key)
}

// Put sets the record of key; it is written at the next Sync.
func (f *File) Put(ctx context.Context, key string, r sitemap.Record) error {
	f.mem.Put(ctx, key, r)
	f.mu.Lock()
	f.dirty[key] = cloneRecord(r)
	f.mu.Unlock()
	return nil
}

// Sync writes the records put since the last sync to the file, over the
// records the file holds by then.
func (f *File) Sync() error {
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
	switch {
	case errors.Is(err, ErrCorrupt):
		onDisk = map[string]sitemap.Record{} // opened with DiscardCorrupt
	case err != nil:
		return err // the path became something that is no state file at all
	}
	maps.Copy(onDisk, f.dirty)
	if err := writeStateFile(f.path, onDisk); err != nil {
		return err
	}
	f.dirty = map[string]sitemap.Record{}
	return nil
}

// Close syncs the store.
func (f *File) Close() error { return f.Sync() }

// checkWritable creates and removes a temporary file in the directory of
// the state file.
func (f *File) checkWritable() error {
	tmp, err := os.CreateTemp(filepath.Dir(f.path), filepath.Base(f.path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("state file %s cannot be written: %w", f.path, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// openRegular opens the file at path for reading, and refuses it unless it
// is a regular file. The open itself does not wait: a named pipe is opened
// without waiting for a writer (openFlags), and then refused by the
// descriptor's own mode, so that nothing can swap the file between the
// check and the read.
func openRegular(path string) (*os.File, int64, error) {
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("not a regular file (%s)", fileKind(fi.Mode()))
	}
	return f, fi.Size(), nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// readStateFile reads the records of the state file at path: none when it
// does not exist.
func readStateFile(path string) (map[string]sitemap.Record, error) {
	f, size, err := openRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]sitemap.Record{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	defer f.Close()
	if size > MaxFileSize {
		return nil, fmt.Errorf("state file %s: %d bytes, more than the %d a state file may hold", path, size, MaxFileSize)
	}
	// The size may have grown since the stat: read one byte past the cap
	// at most to tell.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("state file %s: more than the %d bytes a state file may hold", path, MaxFileSize)
	}
	var st stateFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("state file %s: %w: %v", path, ErrCorrupt, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("state file %s: %w: data after the state", path, ErrCorrupt)
	}
	if st.Format != stateFormat {
		return nil, fmt.Errorf("state file %s: %w: format %q, want %q", path, ErrCorrupt, st.Format, stateFormat)
	}
	if st.Records == nil {
		st.Records = map[string]sitemap.Record{}
	}
	return st.Records, nil
}

// writeStateFile writes records to path atomically: to a temporary file in
// its directory, synced, then renamed over path.
func writeStateFile(path string, records map[string]sitemap.Record) (err error) {
	data, err := json.MarshalIndent(stateFile{Format: stateFormat, Records: records}, "", "\t")
	if err != nil {
		return fmt.Errorf("state file %s: %w", path, err)
	}
	if len(data)+1 > MaxFileSize {
		return fmt.Errorf("state file %s: the records take %d bytes, more than the %d a state file may hold", path, len(data)+1, MaxFileSize)
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
