package store

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gositemap/sitemap"
)

// An append that fails part-way (a disk full in the middle of a line)
// leaves a cut line at the end of the journal: the store appends nothing
// after it, and the next Put writes the file anew, so that the file
// reads back whole with every record put, the failed one included, and
// is never refused as corrupt (issue 32: a file cut in a write is read up
// to its last complete record).
func TestFilePutFailedPartWay(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "state")
	f, err := OpenFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	put := func(i int) error {
		return f.Put(ctx, fmt.Sprintf("https://example.com/%d.xml", i), sitemap.Record{ETag: fmt.Sprint(i)})
	}
	for i := range 3 {
		if err := put(i); err != nil {
			t.Fatal(err)
		}
	}
	// The write of record 3 fails after half a line: the half is in the
	// file, and the descriptor refuses the rest.
	half := []byte(`{"key":"https://example.com/3.xml","rec`)
	f.mu.Lock()
	if _, err := f.app.Write(half); err != nil {
		t.Fatal(err)
	}
	f.size += int64(len(half))
	f.app.Close()
	ro, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	f.app = ro
	f.mu.Unlock()
	if err := put(3); err == nil {
		t.Fatal("the append to a read-only descriptor did not fail")
	}
	for i := 4; i < 6; i++ {
		if err := put(i); err != nil {
			t.Fatalf("put %d after the failed one: %v", i, err)
		}
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	g, err := OpenFile(path, nil)
	if err != nil {
		t.Fatalf("the file is refused: %v", err)
	}
	for i := range 6 {
		if r, ok, _ := g.Get(ctx, fmt.Sprintf("https://example.com/%d.xml", i)); !ok || r.ETag != fmt.Sprint(i) {
			t.Errorf("record %d read back: %v, %+v", i, ok, r)
		}
	}
}
