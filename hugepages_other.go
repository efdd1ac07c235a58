//go:build !linux

package sitemap

// adviseHuge does nothing but on Linux (see hugepages_linux.go).
func adviseHuge([]URL) {}
