package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// A Memory store keeps the records of the calls of one process: set it on
// an instance, and its second call of a site sends the validators the
// first one got.
func ExampleNewMemory() {
	mem := store.NewMemory()
	s := sitemap.New().SetStore(mem)
	fmt.Println(s.GetStore() == mem, mem.Len())
	// Output:
	// true 0
}

func ExampleMemory_Put() {
	ctx := context.Background()
	mem := store.NewMemory()
	mem.Put(ctx, "https://example.com/sitemap.xml", sitemap.Record{ETag: `"v1"`})
	r, ok, _ := mem.Get(ctx, "https://example.com/sitemap.xml")
	fmt.Println(r.ETag, ok)
	// Output:
	// "v1" true
}

func ExampleMemory_Get() {
	_, ok, err := store.NewMemory().Get(context.Background(), "https://example.com/never-seen.xml")
	fmt.Println(ok, err)
	// Output:
	// false <nil>
}

func ExampleMemory_Len() {
	mem := store.NewMemory()
	for _, key := range []string{"https://example.com/a.xml", "https://example.com/b.xml", "https://example.com/a.xml"} {
		mem.Put(context.Background(), key, sitemap.Record{})
	}
	fmt.Println(mem.Len())
	// Output:
	// 2
}

// The state file of a crawler run again: what one process put and synced,
// the next one opens. A file that is no state file is refused, unless
// DiscardCorrupt says to start afresh.
func ExampleOpenFile() {
	dir, err := os.MkdirTemp("", "state")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "state.json")

	f, err := store.OpenFile(path, nil) // no file yet: an empty store
	if err != nil {
		fmt.Println(err)
		return
	}
	sitemap.New().SetStore(f) // a call syncs it when it ends
	f.Put(context.Background(), "https://example.com/sitemap.xml", sitemap.Record{ETag: `"v1"`})
	f.Sync()

	again, _ := store.OpenFile(path, nil)
	r, ok, _ := again.Get(context.Background(), "https://example.com/sitemap.xml")
	fmt.Println(r.ETag, ok)

	os.WriteFile(path, []byte("not a state file"), 0o644)
	_, err = store.OpenFile(path, nil)
	fmt.Println(errors.Is(err, store.ErrCorrupt))
	_, err = store.OpenFile(path, &store.FileOptions{DiscardCorrupt: true})
	fmt.Println(err)
	// Output:
	// "v1" true
	// true
	// <nil>
}

// exampleFile opens a state file in a new directory, removed by the
// function it returns.
func exampleFile() (*store.File, func()) {
	dir, err := os.MkdirTemp("", "state")
	if err != nil {
		panic(err)
	}
	f, err := store.OpenFile(filepath.Join(dir, "state.json"), nil)
	if err != nil {
		panic(err)
	}
	return f, func() { os.RemoveAll(dir) }
}

func ExampleFile_Sync() {
	f, done := exampleFile()
	defer done()
	ctx := context.Background()
	f.Put(ctx, "https://example.com/a.xml", sitemap.Record{LastModified: "Tue, 01 Dec 2026 10:00:00 GMT"})
	f.Put(ctx, "https://example.com/b.xml", sitemap.Record{ETag: `"b1"`})
	f.Put(ctx, "https://example.com/b.xml", sitemap.Record{ETag: `"b2"`})
	lines := func() int {
		data, _ := os.ReadFile(f.Path())
		return bytes.Count(data, []byte("\n"))
	}
	// Each Put is on the file at once, appended: the header and a line a
	// record put.
	fmt.Println("lines before Sync:", lines())
	f.Sync()
	// While no more than half the file is of records put again since, Sync
	// syncs it as it is.
	fmt.Println("lines after Sync:", lines())
	for i := 3; i <= 6; i++ {
		f.Put(ctx, "https://example.com/b.xml", sitemap.Record{ETag: fmt.Sprintf(`"b%d"`, i)})
	}
	fmt.Println("lines before Sync:", lines())
	f.Sync()
	// Past that, Sync writes it anew, a line a record.
	fmt.Println("lines after Sync:", lines())
	// Output:
	// lines before Sync: 4
	// lines after Sync: 4
	// lines before Sync: 8
	// lines after Sync: 3
}

func ExampleFile_Close() {
	f, done := exampleFile()
	defer done()
	f.Put(context.Background(), "https://example.com/sitemap.xml", sitemap.Record{ETag: `"v1"`})
	fmt.Println(f.Close()) // Close syncs
	_, err := os.Stat(f.Path())
	fmt.Println(err == nil)
	// Output:
	// <nil>
	// true
}

func ExampleFile_Path() {
	f, done := exampleFile()
	defer done()
	fmt.Println(filepath.Base(f.Path()))
	// Output:
	// state.json
}

func ExampleFile_Get() {
	f, done := exampleFile()
	defer done()
	_, ok, _ := f.Get(context.Background(), "https://example.com/sitemap.xml")
	fmt.Println(ok)
	// Output:
	// false
}

func ExampleFile_Put() {
	f, done := exampleFile()
	defer done()
	ctx := context.Background()
	f.Put(ctx, "https://example.com/index.xml", sitemap.Record{
		Children: []sitemap.StoredChild{{Loc: "https://example.com/a.xml", LastMod: "2026-11-30"}},
	})
	r, _, _ := f.Get(ctx, "https://example.com/index.xml")
	fmt.Println(r.Children[0].Loc, r.Children[0].LastMod)
	// Output:
	// https://example.com/a.xml 2026-11-30
}

// Two spellings of one sitemap have one request key: a frontier that
// queues each key once fetches it once, as a call does.
func ExampleRequestKey() {
	fmt.Println(store.RequestKey("HTTPS://Example.com:443/a/../sitemap.xml#top"))
	fmt.Println(store.RequestKey("https://example.com/sitemap.xml") == store.RequestKey("https://EXAMPLE.com/./sitemap.xml"))
	// Output:
	// https://example.com/sitemap.xml
	// true
}
