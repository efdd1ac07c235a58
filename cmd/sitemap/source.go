package main

import "github.com/gositemap/sitemap"

// sourceOf returns the URL of the sitemap u came from, as it was requested.
func sourceOf(u *sitemap.URL) string { return u.Source.URL() }

// writeTree writes the tree of the call.
func (c *command) writeTree(s *sitemap.S, o *options) error {
	return writeTree(c.con.stdout, o.format, s.GetDocuments(), c.local.display, c.errorText)
}
