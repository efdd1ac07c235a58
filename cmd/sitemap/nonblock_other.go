//go:build !unix

package main

// openNonblock is no flag where named pipes do not block an open.
const openNonblock = 0
