package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strconv"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/jsonline"
	"github.com/gositemap/sitemap/store"
)

// This file is the listing of a crawl ([Crawl] Sitemaps, "sitemap
// -sitemaps"): each worker publishes the sitemaps a document lists as it
// reads it, and the reader of the output merges them, as the library
// merges those of the documents of one call ([sitemap.S.GetSitemaps]).
//
// The docs bucket holds a key for each sitemap claimed, not what the
// listing needs: the sitemaps the follow rules or the depth limit leave
// unread (which the library lists all the same), and the date each
// document gives a sitemap (the listing keeps the latest). So the listing
// is published, as messages of its own kind: as much as the documents'
// URLs would cost, less the URLs, which a listing counts and does not
// publish.

// Sitemap is a sitemap that a document of a crawl lists, in a crawl that
// is a listing.
type Sitemap struct {
	// Loc is its URL, as the document that first listed it gave it.
	Loc string
	// LastMod is the latest <lastmod> the documents give it, as the JSON
	// line has it; nil when none gives one.
	LastMod *string
	// JSON is its line as "sitemap -sitemaps -format jsonl" prints it,
	// without the newline.
	JSON []byte
}

// sitemapLine is the JSON line of a sitemap, as "sitemap -sitemaps
// -format jsonl" writes it.
type sitemapLine struct {
	Loc     string  `json:"loc"`
	LastMod *string `json:"lastmod"`
}

// appendSitemapLine appends the JSON line of sm to b.
func appendSitemapLine(b *bytes.Buffer, sm sitemapLine) error { return appendJSON(b, sm) }

// publishSitemaps publishes the sitemaps a document lists, but those the
// sitemap limit left out (by their keys), in messages of up to batchSize
// lines, each with the message id of the document, "sitemaps" and its
// number. It returns how many it published.
func (w *worker) publishSitemaps(crawl, key string, listed []sitemap.Sitemap, leftOut map[string]bool, acks *acks) (int, error) {
	var b bytes.Buffer
	n, batch, all := 0, 0, 0
	flush := func() error {
		if n == 0 {
			return nil
		}
		m := &natsMsg{subject: outPrefix + crawl, data: b.Bytes(), kind: kindSitemaps, count: n}
		err := w.f.publishOut(m, key+".sitemaps."+strconv.Itoa(batch), acks)
		b, n = bytes.Buffer{}, 0
		batch++
		return err
	}
	for _, sm := range listed {
		if leftOut[docKey(crawl, sm.Loc)] {
			continue
		}
		if err := appendSitemapLine(&b, sitemapLine{Loc: sm.Loc, LastMod: jsonline.Date(sm.LastMod)}); err != nil {
			return all, err
		}
		all++
		if n++; n == batchSize {
			if err := flush(); err != nil {
				return all, err
			}
		}
	}
	return all, flush()
}

// Sitemaps returns the listing of crawl, a crawl submitted with [Crawl]
// Sitemaps: the errors of its documents as they come, as *DocError, and
// once the crawl is done, the sitemaps its documents list, each once, in
// the order they were found. As [sitemap.S.GetSitemaps] does, a sitemap
// listed under several spellings of its URL (see [store.RequestKey]) is
// listed once, under the first, with the latest date any document gives
// it, and no more than the crawl's MaxSitemaps are listed. It ends with
// the error that stopped it, ctx's among them. The listing of a crawl that
// is not one is empty.
func (f *Fleet) Sitemaps(ctx context.Context, crawl string) iter.Seq2[Sitemap, error] {
	return func(yield func(Sitemap, error) bool) {
		rec, err := f.record(ctx, crawl)
		if err != nil {
			yield(Sitemap{}, err)
			return
		}
		var list []Sitemap
		at := map[string]int{}
		for line, err := range f.lines(ctx, crawl, kindSitemaps) {
			if err != nil {
				if !yield(Sitemap{}, err) {
					return
				}
				if _, ok := err.(*DocError); !ok {
					return
				}
				continue
			}
			var sm sitemapLine
			if err := json.Unmarshal(line, &sm); err != nil {
				yield(Sitemap{}, fmt.Errorf("fleet: a line of the listing does not read: %w", err))
				return
			}
			k := store.RequestKey(sm.Loc)
			if i, ok := at[k]; ok {
				if laterDate(sm.LastMod, list[i].LastMod) {
					list[i].LastMod = sm.LastMod
					var b bytes.Buffer
					appendSitemapLine(&b, sitemapLine{Loc: list[i].Loc, LastMod: sm.LastMod})
					list[i].JSON = bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
				}
				continue
			}
			if limit := rec.Settings.MaxSitemaps; limit > 0 && len(list) >= limit {
				continue
			}
			at[k] = len(list)
			list = append(list, Sitemap{Loc: sm.Loc, LastMod: sm.LastMod, JSON: line})
		}
		for _, sm := range list {
			if !yield(sm, nil) {
				return
			}
		}
	}
}

// laterDate reports whether the date a is later than b, both as the JSON line
// has them (RFC 3339); a date is later than none.
func laterDate(a, b *string) bool {
	if a == nil {
		return false
	}
	if b == nil {
		return true
	}
	ta, erra := time.Parse(time.RFC3339Nano, *a)
	tb, errb := time.Parse(time.RFC3339Nano, *b)
	return erra == nil && (errb != nil || ta.After(tb))
}
