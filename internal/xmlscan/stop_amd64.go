//go:build !purego

package xmlscan

// stopAt is in stop_amd64.s.
//
//go:noescape
func stopAt(w []byte, i, n int, s *stopSet) int
