package main

import "github.com/gositemap/sitemap"

// sourceOf returns the URL of the sitemap u came from.
func sourceOf(u *sitemap.URL) string { return "" }
