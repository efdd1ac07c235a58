//go:build !unix

package bench_test

import "time"

// cpuTime reports that the CPU time of the process is not known here.
func cpuTime() (d time.Duration, ok bool) { return 0, false }
