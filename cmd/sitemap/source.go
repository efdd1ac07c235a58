package main

import (
	"errors"

	"github.com/gositemap/sitemap"
)

// sourceOf returns the URL of the sitemap u came from.
func sourceOf(u *sitemap.URL) string { return "" }

// setNoFollow sets the library's "list the children, follow none".
func setNoFollow(s *sitemap.S, on bool) {
	if on {
		s.SetFollow([]string{"^$"})
	}
}

// writeTree writes the tree of the call.
func (c *command) writeTree(s *sitemap.S, o *options) error {
	return errors.New("sitemap tree needs the library's GetDocuments")
}
