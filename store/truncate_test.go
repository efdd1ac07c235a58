package store_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// A state file cut at any byte (issue 32: the machine lost mid-write, a
// disk full) reads up to its last complete record, never refused: cut
// within a record's line, the records before it; cut within the header,
// or empty (mktemp's), none. A Put then writes the file anew, which reads
// back whole.
func TestFileCutAtEveryByte(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	path := filepath.Join(dir, "state")
	f, err := store.OpenFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	for i := range n {
		f.Put(ctx, fmt.Sprintf("https://example.com/%d.xml", i), sitemap.Record{ETag: fmt.Sprintf(`"%d"`, i), Run: uint64(i + 1)})
	}
	whole, err := os.ReadFile(path)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	cutPath := filepath.Join(dir, "cut")
	for cut := 0; cut <= len(whole); cut++ {
		os.WriteFile(cutPath, whole[:cut], 0o644)
		g, err := store.OpenFile(cutPath, nil)
		if err != nil {
			t.Fatalf("cut at %d of %d: %v", cut, len(whole), err)
		}
		// The lines after the header that end within the cut.
		lines := strings.Count(string(whole[:cut]), "\n") - 1
		for i := range n {
			r, ok, _ := g.Get(ctx, fmt.Sprintf("https://example.com/%d.xml", i))
			if ok != (i < lines) || ok && r.Run != uint64(i+1) {
				t.Fatalf("cut at %d: record %d read %v %+v, want it only when its line is whole", cut, i, ok, r)
			}
		}
		g.Put(ctx, "https://example.com/new.xml", sitemap.Record{ETag: `"new"`})
		if err := g.Close(); err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		h, err := store.OpenFile(cutPath, nil)
		if err != nil {
			t.Fatalf("cut at %d, then a Put: %v", cut, err)
		}
		if r, ok, _ := h.Get(ctx, "https://example.com/new.xml"); !ok || r.ETag != `"new"` {
			t.Fatalf("cut at %d, then a Put: read back %v %+v", cut, ok, r)
		}
		h.Close()
	}
}

// A journal of a version to come is refused with its format named, not
// as "data after the state".
func TestFileNewerVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state")
	os.WriteFile(path, []byte(`{"format":"gositemap-state/3"}`+"\n"+`{"key":"k","record":{}}`+"\n"), 0o644)
	_, err := store.OpenFile(path, nil)
	if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), `"gositemap-state/3"`) || !strings.Contains(err.Error(), path) {
		t.Errorf("error = %v, want ErrCorrupt naming the file and its format", err)
	}
}

// A state file written anew keeps the permissions of the one it replaces
// (the temporary file it is written to is its owner's alone): a file a
// group shares stays shared.
func TestFileWrittenAnewKeepsItsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state")
	// A journal whose last line is cut: the first Put writes it anew.
	os.WriteFile(path, []byte(`{"format":"gositemap-state/2"}`+"\n"+`{"key":"a","rec`), 0o644)
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	f, err := store.OpenFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Put(t.Context(), "k", sitemap.Record{ETag: `"1"`})
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode after it was written anew: %v %v, want -rw-r-----", fi.Mode(), err)
	}
}
