package report

import "github.com/gositemap/sitemap"

// This file is the section "Changes since the last run" of a report of a
// call with a store and [sitemap.Incremental].Changes on: the counts of
// the call (the Changes of its first document) and the first URLs of each
// change, kept by AddURL as they come.

// maxChangeSamples is how many URLs of each change the page lists.
const maxChangeSamples = 20

// changeSamples are the first URLs of each change a report was given.
type changeSamples struct {
	added, moved, gone []string
}

// addChange keeps u among the first of its change, and reports whether it
// is gone: a URL of the last run, not one of the documents read.
func (r *Report) addChange(u sitemap.URL) (gone bool) {
	var s *[]string
	switch u.Source.Change() {
	case sitemap.ChangeNew:
		s = &r.changes.added
	case sitemap.ChangeLastMod:
		s = &r.changes.moved
	case sitemap.ChangeGone:
		s, gone = &r.changes.gone, true
	default:
		return false
	}
	if len(*s) < maxChangeSamples {
		*s = append(*s, u.Loc)
	}
	return gone
}

// changesView is the section of the changes.
type changesView struct {
	New, LastMod, Gone, Unchanged, Unknown string
	Groups                                 []changeGroup // those with URLs
}

// changeGroup is the sample of the URLs of one change.
type changeGroup struct {
	ID, Title, Count string
	URLs             []link
	More             string // "" when the sample is all of them
}

// changesView returns the section of the changes of the call whose tree
// is docs, nil when change detection was off.
func (r *Report) changesView(docs []sitemap.Document) *changesView {
	if len(docs) == 0 || docs[0].Changes == nil {
		return nil
	}
	n := docs[0].Changes
	v := &changesView{New: number(int64(n.New)), LastMod: number(int64(n.LastMod)), Gone: number(int64(n.Gone)),
		Unchanged: number(int64(n.Unchanged)), Unknown: number(int64(n.Unknown))}
	for _, g := range []struct {
		id, title string
		count     int
		sample    []string
	}{{"new", "New URLs", n.New, r.changes.added}, {"lastmod", "URLs whose lastmod changed", n.LastMod, r.changes.moved},
		{"gone", "URLs gone", n.Gone, r.changes.gone}} {
		if g.count == 0 {
			continue
		}
		cg := changeGroup{ID: g.id, Title: g.title, Count: number(int64(g.count))}
		for _, u := range g.sample {
			cg.URLs = append(cg.URLs, r.linkOf(u))
		}
		if more := g.count - len(g.sample); more > 0 {
			cg.More = number(int64(more))
		}
		v.Groups = append(v.Groups, cg)
	}
	return v
}

// changesCard is the card of the changes.
func changesCard(c *changesView, n *sitemap.ChangeCounts) card {
	k := card{Label: "Changes", Value: number(int64(n.New + n.LastMod + n.Gone)),
		Note:  c.New + " new, " + c.LastMod + " lastmod, " + c.Gone + " gone, " + c.Unknown + " unknown",
		Class: "ok"}
	if n.Gone > 0 || n.Unknown > 0 {
		k.Class = "warn"
	}
	return k
}
