//go:build !amd64 || purego

package xmlscan

func stopAt(w []byte, i, n int, s *stopSet) int { return stopAtGo(w, i, n, s) }
