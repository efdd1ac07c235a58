//go:build unix

package main

import "syscall"

// openNonblock opens a file without waiting for a writer when it is a named
// pipe: the local files a sitemap lists are refused unless regular.
const openNonblock = syscall.O_NONBLOCK
