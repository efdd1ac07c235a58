package main

import "testing"

// checkSitemapColumn checks the sitemap column of the URL loc of the
// index of testdata read through srv.
func checkSitemapColumn(t *testing.T, srv *server, variant, loc, got string) {
	t.Helper()
}
