//go:build !unix

package store

import "os"

// openFlags open a state file for reading.
const openFlags = os.O_RDONLY

// lockState locks nothing where flock is not at hand: the writes of a
// state file are atomic all the same, and the last sync wins; a store
// opened Exclusive is not told of another.
func lockState(string, bool) (unlock func(), err error) { return func() {}, nil }

// locksAcross reports whether lockState locks the file across processes.
const locksAcross = false
