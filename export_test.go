package sitemap

import "time"

// The hooks of the tests of the fetch timeout.

// SetFetchTimeoutForTest sets the fetch timeout of s to d, of any length,
// so that a test that waits for the timeout waits milliseconds rather than
// the whole seconds SetFetchTimeout takes. A later SetFetchTimeout sets it
// again in seconds.
func SetFetchTimeoutForTest(s *S, d time.Duration) *S {
	return s.set("test.fetchTimeout", func() error { return nil }, func(c *config) { c.fetchWait = d })
}
