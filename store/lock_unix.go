//go:build unix

package store

import (
	"fmt"
	"os"
	"syscall"
)

// openFlags open a state file for reading without waiting: a named pipe
// opened for reading would otherwise wait in open(2) for a writer.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

// lockState takes an exclusive flock on the file at path, made if need be,
// and returns what releases it: the lock of a state file's sync, held
// across processes, and of a store opened Exclusive, held until it is
// closed. Unless wait, a lock held elsewhere is ErrInUse at once. The lock
// file must be a regular file: one that is something else (a named pipe,
// a device) is refused without waiting.
func lockState(path string, wait bool) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("lock file %s is not a regular file (%s)", path, fileKind(fi.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			break
		}
	}
	if err == syscall.EWOULDBLOCK {
		err = ErrInUse
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// locksAcross reports whether lockState locks the file across processes.
const locksAcross = true
