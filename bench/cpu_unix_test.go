//go:build unix

package bench_test

import (
	"syscall"
	"time"
)

// cpuTime returns the user and system CPU time of the process so far, all
// its threads (the garbage collector's included); ok is false when the
// system does not say.
func cpuTime() (d time.Duration, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
