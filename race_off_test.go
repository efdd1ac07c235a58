//go:build !race

package sitemap_test

// raceEnabled tells the tests that scale their work to the race detector,
// which makes code five to ten times slower.
const raceEnabled = false
