package sitemap

import (
	"iter"
	"slices"
)

// URLs returns an iterator over the URLs that [S.GetURLs] returns, in the
// same order. Each URL it yields is a deep copy that is the caller's own:
// changing it, or anything it points to, does not reach the instance.
//
// A loop goes through the URLs collected when it starts; no lock is held
// while it runs, so its body may call any method of s, Parse included. The
// URLs are copied one at a time, so a loop that ends early costs nothing for
// the rest. The iterator may be used for any number of loops.
func (s *S) URLs() iter.Seq[URL] {
	return func(yield func(URL) bool) {
		urls := s.GetURLs()
		for i := range urls {
			if !yield(copyURL(&urls[i])) {
				return
			}
		}
	}
}

// Errors returns an iterator over the errors that [S.GetErrors] returns, in
// the same order: the very values the instance keeps, so they compare equal
// to the error Parse returned. A loop goes through the errors recorded when
// it starts, and no lock is held while it runs.
func (s *S) Errors() iter.Seq[error] {
	return func(yield func(error) bool) {
		for _, err := range s.GetErrors() {
			if !yield(err) {
				return
			}
		}
	}
}

// copyURL returns a copy of u that shares no memory with it.
func copyURL(u *URL) URL {
	c := URL{
		Loc:        u.Loc,
		LastMod:    copyTime(u.LastMod),
		ChangeFreq: copyPtr(u.ChangeFreq),
		Priority:   copyPtr(u.Priority),
		Images:     slices.Clone(u.Images),
		Hreflangs:  slices.Clone(u.Hreflangs),
		Source:     u.Source, // a record nothing can change
	}
	if u.News != nil {
		n := *u.News
		n.PublicationDate = copyTime(n.PublicationDate)
		c.News = &n
	}
	if u.Videos != nil {
		c.Videos = make([]Video, len(u.Videos))
		for i := range u.Videos {
			c.Videos[i] = copyVideo(&u.Videos[i])
		}
	}
	return c
}

func copyVideo(v *Video) Video {
	c := *v
	c.Duration = copyPtr(v.Duration)
	c.ExpirationDate = copyTime(v.ExpirationDate)
	c.Rating = copyPtr(v.Rating)
	c.ViewCount = copyPtr(v.ViewCount)
	c.PublicationDate = copyTime(v.PublicationDate)
	c.Restriction = copyPtr(v.Restriction)
	c.Platform = copyPtr(v.Platform)
	c.Uploader = copyPtr(v.Uploader)
	c.Tags = slices.Clone(v.Tags)
	return c
}

func copyTime(t *LastModTime) *LastModTime { return copyPtr(t) }

func copyPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}
