package sitemap_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// A Last-Modified later than the response's Date (a server's clock, or a
// file's time, in the future) is not kept: sent back in If-Modified-Since,
// it would have a server that compares it as a bound (Apache's way)
// answer 304 until that date, whatever changed since.
func TestConditionalLastModifiedAhead(t *testing.T) {
	var mu sync.Mutex
	body := "https://example.com/a"
	future := time.Now().AddDate(50, 0, 0).UTC().Format(http.TimeFormat)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if ims, err := http.ParseTime(r.Header.Get("If-Modified-Since")); err == nil {
			if lm, _ := http.ParseTime(future); !lm.After(ims) {
				w.WriteHeader(http.StatusNotModified)
				return
			}
		}
		w.Header().Set("Last-Modified", future)
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s</loc></url></urlset>`, body)
	}))
	defer srv.Close()
	st := store.NewMemory()
	s := sitemap.New().SetStore(st)
	if _, err := s.Parse(srv.URL+"/s.xml", nil); err != nil {
		t.Fatal(err)
	}
	// A record that holds it all the same (put by an earlier version)
	// does not send it either.
	st.Put(t.Context(), srv.URL+"/s.xml", sitemap.Record{LastModified: future})
	mu.Lock()
	body = "https://example.com/b"
	mu.Unlock()
	if _, err := s.Parse(srv.URL+"/s.xml", nil); err != nil {
		t.Fatal(err)
	}
	if got := locsOf(s.GetURLs()); len(got) != 1 || got[0] != "https://example.com/b" {
		t.Errorf("after the change: %v (%s), want the new URL read", got, s.GetDocuments()[0].Status)
	}
}
