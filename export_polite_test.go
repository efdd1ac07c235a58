package sitemap

import "net/netip"

// The hooks of the tests of retries, host limits and the guard.

// SetGuardAllowForTest lets the guard of s through to the addresses allow
// accepts: a test's way to have a loopback server stand for a public host.
func SetGuardAllowForTest(s *S, allow func(netip.AddrPort) bool) {
	s.set("test.allow", func() error { return nil }, func(c *config) { c.polite.allow = allow })
}
