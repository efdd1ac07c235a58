//go:build unix

package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// A store opened Exclusive holds its file until Close: a second one is
// refused at once with ErrInUse naming the file, the holder syncs without
// waiting for itself, and once it is closed the file opens again.
func TestFileExclusive(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "state")
	ex := &store.FileOptions{Exclusive: true}
	a, err := store.OpenFile(path, ex)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.OpenFile(path, ex); !errors.Is(err, store.ErrInUse) || !strings.Contains(err.Error(), path) {
		t.Fatalf("a second store at once: %v, want ErrInUse naming %s", err, path)
	}
	// The holder's syncs and its compactions take no lock it holds.
	for i := range 3 {
		a.Put(ctx, "k", sitemap.Record{Run: uint64(i + 1)})
		if err := a.Sync(); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := store.OpenFile(path, ex)
	if err != nil {
		t.Fatalf("once the first is closed: %v", err)
	}
	defer b.Close()
	if r, ok, _ := b.Get(ctx, "k"); !ok || r.Run != 3 {
		t.Errorf("read back %v %+v", ok, r)
	}
}

// A store opened Exclusive removes the temporary files a process killed
// while it wrote the state file anew left behind, and those alone.
func TestFileExclusiveRemovesLeftTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state")
	left := []string{"state.123456789.tmp", "state.42.tmp"}
	kept := []string{"state.notmine.tmp", "other.123.tmp", "state", "state.123.tmp.bak"}
	for _, n := range append(left, kept...) {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	os.WriteFile(path, nil, 0o644)
	f, err := store.OpenFile(path, &store.FileOptions{Exclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, n := range left {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			t.Errorf("%s left behind", n)
		}
	}
	for _, n := range kept {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s removed: %v", n, err)
		}
	}
}
