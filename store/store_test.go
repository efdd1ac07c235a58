package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// The stores of conditional fetching (issue 16): Memory and File.

func TestMemory(t *testing.T) {
	ctx := t.Context()
	m := store.NewMemory()
	if _, ok, err := m.Get(ctx, "https://example.com/s.xml"); ok || err != nil {
		t.Fatalf("Get of an empty store = %v, %v", ok, err)
	}
	r := sitemap.Record{ETag: `"x"`, Children: []sitemap.StoredChild{{Loc: "https://example.com/a.xml", LastMod: "2024-01-01"}}}
	if err := m.Put(ctx, "k", r); err != nil {
		t.Fatal(err)
	}
	r.Children[0].Loc = "changed by the caller"
	got, ok, _ := m.Get(ctx, "k")
	if !ok || got.ETag != `"x"` || got.Children[0].Loc != "https://example.com/a.xml" {
		t.Errorf("Get = %+v, %v; want the record as put, not the caller's later change", got, ok)
	}
	if m.Len() != 1 {
		t.Errorf("Len = %d", m.Len())
	}
}

func TestFileRoundTrip(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "state.json")
	fs, err := store.OpenFile(path, nil)
	if err != nil {
		t.Fatalf("open of a missing file: %v", err)
	}
	want := sitemap.Record{ETag: `"e1"`, LastModified: "Tue, 01 Dec 2026 10:00:00 GMT", IndexLastMod: "2026-12-01",
		Children: []sitemap.StoredChild{{Loc: "https://example.com/a.xml", LastMod: "2026-11-30"}}}
	fs.Put(ctx, "https://example.com/index.xml", want)
	// The record is on the file when Put returns (issue 32: a process
	// killed keeps it), before any sync.
	if again, err := store.OpenFile(path, nil); err != nil {
		t.Fatal(err)
	} else if got, ok, _ := again.Get(ctx, "https://example.com/index.xml"); !ok || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("before the sync, read back %+v, %v; want %+v", got, ok, want)
	}
	if err := fs.Sync(); err != nil {
		t.Fatal(err)
	}
	again, err := store.OpenFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, ok, _ := again.Get(ctx, "https://example.com/index.xml")
	if !ok || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("read back %+v, %v; want %+v", got, ok, want)
	}
	if again.Path() != path {
		t.Errorf("Path = %q", again.Path())
	}
	// No temporary file is left behind.
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// A corrupt or foreign file is an error naming it, or, when asked, an
// empty store whose sync writes the file anew.
func TestFileCorrupt(t *testing.T) {
	for name, content := range map[string]string{
		"not JSON":      "{\"format\": \"gositemap-state/1\", \"records\": {",
		"foreign JSON":  `{"name": "some other program", "records": []}`,
		"other format":  `{"format": "gositemap-state/99", "records": {}}`,
		"trailing data": `{"format": "gositemap-state/1", "records": {}} {}`,
		"binary":        "\x00\x01\x02\xff",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			os.WriteFile(path, []byte(content), 0o644)
			_, err := store.OpenFile(path, nil)
			if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error = %v, want ErrCorrupt naming %s", err, path)
			}
			fs, err := store.OpenFile(path, &store.FileOptions{DiscardCorrupt: true})
			if err != nil {
				t.Fatalf("with DiscardCorrupt: %v", err)
			}
			if _, ok, _ := fs.Get(t.Context(), "k"); ok {
				t.Error("a record in a discarded state")
			}
			fs.Put(t.Context(), "k", sitemap.Record{ETag: `"1"`})
			if err := fs.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := store.OpenFile(path, nil); err != nil {
				t.Errorf("the file was not written anew: %v", err)
			}
		})
	}
}

func TestFileCannotBeOpened(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{dir, filepath.Join(dir, "missing-dir", "state.json")} {
		if _, err := store.OpenFile(path, &store.FileOptions{DiscardCorrupt: true}); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("OpenFile(%s) = %v, want an error naming it", path, err)
		}
	}
}

// Stores that sync one file at the same time, each with a file
// descriptor of its own as two processes would have, keep each other's
// records, and the file stays readable.
func TestFileConcurrentFlushes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	const writers, each = 8, 20
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			fs, err := store.OpenFile(path, nil)
			if err != nil {
				t.Error(err)
				return
			}
			for i := range each {
				fs.Put(t.Context(), fmt.Sprintf("w%d/k%d", w, i), sitemap.Record{ETag: fmt.Sprint(i)})
				if err := fs.Sync(); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	fs, err := store.OpenFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for w := range writers {
		for i := range each {
			if r, ok, _ := fs.Get(t.Context(), fmt.Sprintf("w%d/k%d", w, i)); !ok || r.ETag != fmt.Sprint(i) {
				t.Fatalf("record w%d/k%d lost", w, i)
			}
		}
	}
}

// Two processes: the test binary runs itself as writers on one file.
func TestFileTwoProcesses(t *testing.T) {
	if path := os.Getenv("SITEMAP_STORE_WRITER"); path != "" {
		fs, err := store.OpenFile(path, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for i := range 30 {
			fs.Put(t.Context(), fmt.Sprintf("%s/k%d", os.Getenv("SITEMAP_STORE_NAME"), i), sitemap.Record{ETag: fmt.Sprint(i)})
			if err := fs.Sync(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	path := filepath.Join(t.TempDir(), "state.json")
	var wg sync.WaitGroup
	for _, name := range []string{"p1", "p2", "p3"} {
		wg.Go(func() {
			cmd := exec.CommandContext(t.Context(), exe, "-test.run=^TestFileTwoProcesses$", "-test.count=1")
			cmd.Env = append(os.Environ(), "SITEMAP_STORE_WRITER="+path, "SITEMAP_STORE_NAME="+name)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", name, err, out)
			}
		})
	}
	wg.Wait()
	fs, err := store.OpenFile(path, nil)
	if err != nil {
		t.Fatalf("the file after three processes: %v", err)
	}
	for _, name := range []string{"p1", "p2", "p3"} {
		for i := range 30 {
			if _, ok, _ := fs.Get(t.Context(), fmt.Sprintf("%s/k%d", name, i)); !ok {
				t.Fatalf("record %s/k%d lost", name, i)
			}
		}
	}
}

// A state file cut in the middle of a write is read up to its last
// complete record (issue 32); a state file of format 1, of the code before
// change detection, is read, and written anew as a journal.
func TestFileJournal(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "state.json")
	f, err := store.OpenFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		f.Put(ctx, fmt.Sprintf("https://example.com/%d.xml", i), sitemap.Record{ETag: fmt.Sprintf(`"%d"`, i), URLs: []byte{1, 0}, Run: 7})
	}
	data, _ := os.ReadFile(path)
	for cut := len(data) - 1; cut > len(data)-40; cut-- {
		os.WriteFile(path, data[:cut], 0o644)
		g, err := store.OpenFile(path, nil)
		if err != nil {
			t.Fatalf("cut at %d of %d: %v", cut, len(data), err)
		}
		_, ok1, _ := g.Get(ctx, "https://example.com/1.xml")
		r2, ok2, _ := g.Get(ctx, "https://example.com/2.xml")
		if !ok1 || ok2 && cut < len(data)-1 {
			t.Errorf("cut at %d of %d: record 1 %v, record 2 %v (%+v); want 1 and not the cut one", cut, len(data), ok1, ok2, r2)
		}
		// Appending after the cut line starts on a line of its own.
		g.Put(ctx, "https://example.com/3.xml", sitemap.Record{ETag: `"3"`})
		h, err := store.OpenFile(path, nil)
		if err != nil {
			t.Fatalf("after an append to a file cut at %d: %v", cut, err)
		}
		if r, ok, _ := h.Get(ctx, "https://example.com/3.xml"); !ok || r.ETag != `"3"` {
			t.Errorf("after an append to a file cut at %d: %+v, %v", cut, r, ok)
		}
		g.Close()
	}
	// A line in the middle that is no record is corruption, named.
	os.WriteFile(path, []byte("{\"format\":\"gositemap-state/2\"}\n{\"key\":\n{\"key\":\"k\",\"record\":{}}\n"), 0o644)
	if _, err := store.OpenFile(path, nil); !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a broken line: %v", err)
	}
	// Format 1.
	os.WriteFile(path, []byte(`{"format": "gositemap-state/1", "records": {"k": {"etag": "\"v\""}}}`), 0o644)
	g, err := store.OpenFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok, _ := g.Get(ctx, "k"); !ok || r.ETag != `"v"` || r.URLs != nil {
		t.Errorf("format 1: %+v, %v", r, ok)
	}
	g.Put(ctx, "k2", sitemap.Record{ETag: `"w"`})
	if data, _ := os.ReadFile(path); !strings.HasPrefix(string(data), `{"format":"gositemap-state/2"}`) {
		t.Errorf("format 1 not written anew as a journal: %.60s", data)
	}
}

// Sync leaves the file as it is, synced, while no more than half of it is
// of records put again since it was written whole, and writes it anew past
// that, of the lines of the journal; the first Put after a sync that finds
// more than a third of it put again writes it anew in the background
// (issue 32: runs that put every record again leave a file twice their
// size, synced as it is), and Close past a third. The appends of
// megabytes, synced in the background as they pile up, and each file
// written anew are read back whole.
func TestFileSyncAppendsOrWritesAnew(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "state")
	f, err := store.OpenFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	big := bytes.Repeat([]byte{7}, 1<<20)
	readBack := func(what string, n int, etag string) int64 {
		t.Helper()
		g, err := store.OpenFile(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if r, ok, _ := g.Get(ctx, fmt.Sprintf("https://example.com/%d.xml", i)); !ok || r.ETag != etag || !bytes.Equal(r.URLs, big) {
				t.Errorf("%s, record %d read back: %v, ETag %q, %d bytes of URLs", what, i, ok, r.ETag, len(r.URLs))
			}
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	// One record put four times, then synced: written anew at Sync.
	for i := range 4 {
		f.Put(ctx, "https://example.com/0.xml", sitemap.Record{ETag: fmt.Sprint(i), URLs: big})
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	one := readBack("written anew at Sync", 1, "3")
	if one > 1<<20*14/10 {
		t.Errorf("one record of 1 MiB put four times: %d bytes after Sync, want it written anew", one)
	}
	// Four records put four times, synced each time.
	var sizes []int64
	for run := range 4 {
		for i := range 4 {
			f.Put(ctx, fmt.Sprintf("https://example.com/%d.xml", i), sitemap.Record{ETag: fmt.Sprint(run), URLs: big})
		}
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, readBack(fmt.Sprintf("run %d", run), 4, fmt.Sprint(run)))
	}
	// In lines of a record: appended to the file of one (5); past twice
	// its records at Sync, written anew (4); appended (8); at the first
	// Put, more than a third of it put again: written anew in the
	// background, the lines put since after those (8).
	header := int64(len(`{"format":"gositemap-state/2"}` + "\n"))
	line := one - header
	var got []int64
	for _, size := range sizes {
		got = append(got, (size-header)/line)
		if (size-header)%line != 0 {
			t.Errorf("sizes after each sync: %v, not of whole lines of %d bytes", sizes, line)
		}
	}
	if !slices.Equal(got, []int64{5, 4, 8, 8}) {
		t.Errorf("lines after each sync: %v, want 5, 4, 8, 8", got)
	}
	// Close writes it anew: the next OpenFile reads the records alone.
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if size := readBack("closed", 4, "3"); size != header+4*line {
		t.Errorf("closed: %d bytes, want %d, the four records", size, header+4*line)
	}
}
