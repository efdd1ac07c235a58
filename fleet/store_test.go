package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// A record larger than the largest message of the server is split into
// parts and read back whole; a smaller one that replaces it drops them.
func TestStoreSplitsLargeRecords(t *testing.T) {
	_, f := startNode(t)
	st, err := f.Store("split")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var big sitemap.Record
	for i := range 40000 { // about 2.5 MB of JSON: more than the 1 MiB of a message
		big.Children = append(big.Children, sitemap.StoredChild{Loc: fmt.Sprintf("https://example.com/sitemap-%06d.xml", i), LastMod: "2024-01-01"})
	}
	if err := st.Put(ctx, "https://example.com/index.xml", big); err != nil {
		t.Fatal(err)
	}
	got, ok, err := st.Get(ctx, "https://example.com/index.xml")
	if err != nil || !ok || len(got.Children) != len(big.Children) || got.Children[39999] != big.Children[39999] {
		t.Fatalf("Get: %d children, %v, %v", len(got.Children), ok, err)
	}
	if err := st.Put(ctx, "https://example.com/index.xml", sitemap.Record{ETag: `"small"`}); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := st.Get(ctx, "https://example.com/index.xml"); err != nil || !ok || got.ETag != `"small"` || len(got.Children) != 0 {
		t.Errorf("Get after a small Put: %+v, %v, %v", got, ok, err)
	}
	keys, _ := f.records.Keys(ctx)
	if len(keys) != 1 {
		t.Errorf("%d keys left, want the record alone: %v", len(keys), keys)
	}
	if _, ok, err := st.Get(ctx, "https://example.com/never.xml"); ok || err != nil {
		t.Errorf("Get of a key never put: %v, %v", ok, err)
	}
}

// A second crawl with the same State sends the validators the first one
// learnt, whichever workers read it: every document is answered 304 and
// no URL is handed on again.
func TestSecondCrawlUnchanged(t *testing.T) {
	_, f := startNode(t)
	var bodies, notModified atomic.Int64
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"`+strings.Trim(r.URL.Path, "/")+`"`)
		if r.Header.Get("If-None-Match") == w.Header().Get("ETag") {
			notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		bodies.Add(1)
		if r.URL.Path == "/index.xml" {
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/a.xml</loc></sitemap><sitemap><loc>%[1]s/b.xml</loc></sitemap></sitemapindex>`, srv.URL)
			return
		}
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com%s</loc></url></urlset>`, r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	startWorkers(t, f, 2, WorkerOptions{Concurrency: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := DefaultCrawl()
	c.State = "site"
	var urls []int
	for range 2 {
		crawl, err := f.Submit(ctx, c, srv.URL+"/index.xml")
		if err != nil {
			t.Fatal(err)
		}
		got, errs := collect(t, ctx, f, crawl)
		if len(errs) > 0 {
			t.Errorf("errors: %v", errs)
		}
		urls = append(urls, len(got))
	}
	// The unchanged index lists its sitemaps from its record, and each is
	// queued and answered 304 in turn.
	if urls[0] != 2 || urls[1] != 0 || bodies.Load() != 3 || notModified.Load() != 3 {
		t.Errorf("URLs %v, %d bodies, %d answered 304; want [2 0], 3 and 3", urls, bodies.Load(), notModified.Load())
	}
}

// A record reads back as it was put, its list of URLs cut out of the JSON
// and decoded on its own, wherever the key falls.
func TestUnmarshalRecord(t *testing.T) {
	for _, r := range []sitemap.Record{
		{URLs: []byte{1, 2, 3, 0, 255}},
		{ETag: `"x\\"urls\\":\\"y"`, URLs: []byte("list"), Run: 3},
		{Children: []sitemap.StoredChild{{Loc: `https://example.com/"urls":"a`}}, URLs: []byte{}, Format: sitemap.FormatIndex},
		{ETag: "e"},
	} {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var got sitemap.Record
		if len(r.URLs) == 0 {
			r.URLs = nil
		}
		if err := unmarshalRecord(data, &got); err != nil || !reflect.DeepEqual(got, r) {
			t.Errorf("%s: %+v, %v", data, got, err)
		}
	}
	for _, data := range []string{`{"urls":"AQID"}`, `{"run":1,"urls":"AQID"}`, `{"urls":"AQID","run":1}`} {
		var got sitemap.Record
		if err := unmarshalRecord([]byte(data), &got); err != nil || !bytes.Equal(got.URLs, []byte{1, 2, 3}) {
			t.Errorf("%s: %+v, %v", data, got, err)
		}
	}
}
