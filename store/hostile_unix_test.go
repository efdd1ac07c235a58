//go:build unix

package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// Issue 31, bug 3: a state file on a named pipe that no one writes made
// OpenFile wait in open(2) for a writer, for good. Every path that is not
// a regular file is now refused at once, with an error naming it, whatever
// DiscardCorrupt says.

// mkfifo makes a named pipe at path.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// openWithin runs OpenFile on path, and fails the test rather than hang
// when it has not returned by the time the guard's context ends: a writer
// then opens the pipe, which releases a reader stuck in open(2).
func openWithin(t *testing.T, path string, o *store.FileOptions) (*store.File, error) {
	t.Helper()
	type result struct {
		f   *store.File
		err error
	}
	done := make(chan result, 1)
	go func() {
		f, err := store.OpenFile(path, o)
		done <- result{f, err}
	}()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	select {
	case r := <-done:
		return r.f, r.err
	case <-ctx.Done():
		t.Errorf("OpenFile(%s) blocked", path)
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		r := <-done
		return r.f, r.err
	}
}

// wantRefused checks that err refuses path as no regular file, and is no
// ErrCorrupt, which DiscardCorrupt would write over.
func wantRefused(t *testing.T, err error, path, kind string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a regular file") ||
		!strings.Contains(err.Error(), kind) || errors.Is(err, store.ErrCorrupt) {
		t.Errorf("error = %v; want one naming %s as %s, not ErrCorrupt", err, path, kind)
	}
}

func TestHostileStateFileFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	mkfifo(t, path)
	for _, o := range []*store.FileOptions{nil, {DiscardCorrupt: true}} {
		_, err := openWithin(t, path, o)
		wantRefused(t, err, path, "named pipe")
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v, %v", fi.Mode(), err)
	}
}

func TestHostileStateFileSymlinkToFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo, path := filepath.Join(dir, "pipe"), filepath.Join(dir, "state.json")
	mkfifo(t, fifo)
	if err := os.Symlink(fifo, path); err != nil {
		t.Skip(err)
	}
	_, err := openWithin(t, path, &store.FileOptions{DiscardCorrupt: true})
	wantRefused(t, err, path, "named pipe")
}

func TestHostileStateFileDirectory(t *testing.T) {
	path := t.TempDir()
	_, err := openWithin(t, path, &store.FileOptions{DiscardCorrupt: true})
	wantRefused(t, err, path, "directory")
}

// A character device that never ends (/dev/zero) is refused before a byte
// of it is read.
func TestHostileStateFileCharDevice(t *testing.T) {
	const path = "/dev/zero"
	if _, err := os.Stat(path); err != nil {
		t.Skip(err)
	}
	_, err := openWithin(t, path, nil)
	wantRefused(t, err, path, "character device")
}

// A state file larger than MaxFileSize (sparse: it takes no room) is
// refused by its size, without being read into memory.
func TestHostileStateFileHuge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(store.MaxFileSize + 1); err != nil {
		f.Close()
		t.Skip(err)
	}
	f.Close()
	for _, o := range []*store.FileOptions{nil, {DiscardCorrupt: true}} {
		_, err := openWithin(t, path, o)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "more than") || errors.Is(err, store.ErrCorrupt) {
			t.Errorf("error = %v; want one naming %s and its size", err, path)
		}
	}
}

// The lock file of a sync (path+".lock") that is a named pipe is refused
// at the sync, which does not wait on it.
func TestHostileStateLockFileFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	mkfifo(t, path+".lock")
	f, err := store.OpenFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Put(t.Context(), "k", sitemap.Record{ETag: `"1"`})
	done := make(chan error, 1)
	go func() { done <- f.Sync() }()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	select {
	case err = <-done:
	case <-ctx.Done():
		t.Fatal("Sync blocked on the lock file")
	}
	if err == nil || !strings.Contains(err.Error(), path+".lock") || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Sync = %v; want an error naming the lock file", err)
	}
}

// A state file replaced by a named pipe between the open and the sync: the
// sync refuses it rather than wait on it or write over it.
func TestHostileStateFileBecomesFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	f, err := store.OpenFile(path, &store.FileOptions{DiscardCorrupt: true})
	if err != nil {
		t.Fatal(err)
	}
	mkfifo(t, path)
	f.Put(t.Context(), "k", sitemap.Record{ETag: `"1"`})
	done := make(chan error, 1)
	go func() { done <- f.Sync() }()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	select {
	case err = <-done:
	case <-ctx.Done():
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		t.Fatal("Sync blocked on the pipe")
	}
	wantRefused(t, err, path, "named pipe")
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was written over: %v, %v", fi.Mode(), err)
	}
}
