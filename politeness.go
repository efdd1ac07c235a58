package sitemap

import "net/netip"

// politeConfig is the configuration of retries, of the limits per host and
// of the guard against internal addresses. Its zero value turns them all
// off, as the spec has it.
type politeConfig struct {
	blockPrivate bool

	// allow, set by tests only, lets the guard through to the addresses it
	// accepts (a loopback server).
	allow func(netip.AddrPort) bool
}
