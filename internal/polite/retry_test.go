package polite

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/gositemap/sitemap/internal/guard"
)

// The engine of the retries on a fixed clock: no test waits. Moved from
// the root's retry_test.go where those tested the policy rather than the
// call.

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// top is a jitter that draws the top of its range.
func top(n int64) int64 { return n - 1 }

// waits runs policy r over the outcomes of tries 1, 2, ... until it ends
// them, and returns the waits it asked for and whether the last outcome
// was to be retried.
func waits(r Retry, outcomes ...func(try int) (int, string, error)) []time.Duration {
	var got []time.Duration
	for i, o := range outcomes {
		status, after, err := o(i + 1)
		d, again := r.Wait(i+1, status, after, err, t0, top)
		if !again {
			break
		}
		got = append(got, d)
	}
	return got
}

func status(code int, after string) func(int) (int, string, error) {
	return func(int) (int, string, error) { return code, after, nil }
}

func check(t *testing.T, name string, got []time.Duration, want ...time.Duration) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: waits = %v, want %v", name, got, want)
	}
}

// Retry-After in seconds and as an HTTP date; a date past asks for no
// wait.
func TestWaitRetryAfter(t *testing.T) {
	r := Retry{Max: 3}
	check(t, "seconds", waits(r, status(429, "1"), status(429, "1")), time.Second, time.Second)
	at := t0.Add(7 * time.Second).Format(http.TimeFormat)
	check(t, "dates", waits(r, status(503, at), status(503, "Sun, 01 Mar 2020 00:00:00 GMT")), 7*time.Second, 0)
	check(t, "RFC 850 and asctime", waits(r, status(503, "Sunday, 01-Mar-26 12:00:02 GMT"), status(503, "Sun Mar  1 12:00:03 2026")),
		2*time.Second, 3*time.Second)
}

// Without a Retry-After that can be read, the wait is drawn between 0 and
// a bound that doubles with each try, capped at the max wait.
func TestWaitBackoffCapped(t *testing.T) {
	r := Retry{Max: 4, MaxWait: 1500 * time.Millisecond}
	check(t, "backoff", waits(r, status(502, ""), status(504, ""), status(503, "soon"), status(503, ""), status(503, "")),
		500*time.Millisecond, time.Second, 1500*time.Millisecond, 1500*time.Millisecond)
	// The draw is the jitter's, between 0 and the bound.
	if d, _ := r.Wait(1, 503, "", nil, t0, func(n int64) int64 { return n / 2 }); d != 250*time.Millisecond {
		t.Errorf("half the range = %v, want 250ms", d)
	}
	// A hundredth try neither overflows nor passes the cap.
	if d, ok := (Retry{Max: 100}).Wait(100, 503, "", nil, t0, top); !ok || d != DefaultMaxWait {
		t.Errorf("try 100 = %v, %v; want the default cap", d, ok)
	}
}

// A Retry-After beyond the cap gives up at once; ten years and twenty
// digits do not overflow.
func TestWaitRetryAfterBeyondCap(t *testing.T) {
	for _, after := range []string{"120", "315360000", "99999999999999999999", "Fri, 01 Mar 2036 00:00:00 GMT"} {
		if d, ok := (Retry{Max: 3, MaxWait: time.Minute}).Wait(1, 429, after, nil, t0, top); ok || d < time.Minute {
			t.Errorf("Retry-After %s = %v, %v; want no retry", after, d, ok)
		}
	}
	if d, ok := RetryAfter("99999999999999999999", t0); !ok || d != maxRetryAfter {
		t.Errorf("RetryAfter(20 digits) = %v, %v", d, ok)
	}
}

// Other statuses are not retried, nor a try beyond Max; the default max
// wait is DefaultMaxWait.
func TestWaitStatusesAndMax(t *testing.T) {
	for _, code := range []int{200, 400, 401, 403, 404, 410, 500, 501} {
		if _, ok := (Retry{Max: 3}).Wait(1, code, "1", nil, t0, top); ok {
			t.Errorf("%d retried", code)
		}
	}
	if _, ok := (Retry{Max: 2}).Wait(3, 503, "1", nil, t0, top); ok {
		t.Error("a third try retried with Max 2")
	}
	if _, ok := (Retry{}).Wait(1, 503, "1", nil, t0, top); ok {
		t.Error("retried with Max 0")
	}
	if c := (Retry{}).Cap(); c != DefaultMaxWait {
		t.Errorf("Cap() = %v", c)
	}
}

// timeout is a net.Error that timed out.
type timeout struct{}

func (timeout) Error() string   { return "i/o timeout" }
func (timeout) Timeout() bool   { return true }
func (timeout) Temporary() bool { return true }

// A reset connection, one closed before the response, and a timeout before
// it are retried, after the backoff; a refused connection, the context's
// end and the guard are not.
func TestRetriable(t *testing.T) {
	for name, tc := range map[string]struct {
		err  error
		want bool
	}{
		"reset":    {&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, true},
		"aborted":  {&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNABORTED}, true},
		"eof":      {io.EOF, true},
		"cut":      {fmt.Errorf("reading: %w", io.ErrUnexpectedEOF), true},
		"timeout":  {&net.OpError{Op: "read", Net: "tcp", Err: timeout{}}, true},
		"refused":  {&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, false},
		"canceled": {fmt.Errorf("get: %w", context.Canceled), false},
		"guard":    {&net.OpError{Op: "dial", Net: "tcp", Err: guard.Check("127.0.0.1:80", nil)}, false},
	} {
		d, ok := (Retry{Max: 1}).Wait(1, 0, "", tc.err, t0, top)
		if ok != tc.want || Retriable(tc.err) != tc.want {
			t.Errorf("%s: retried %v, want %v", name, ok, tc.want)
		}
		if ok && d != 500*time.Millisecond {
			t.Errorf("%s: wait %v, want the first backoff", name, d)
		}
	}
}

// The real clock's sleep ends with its context.
func TestRealSleepEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := (Real{}).Sleep(ctx, time.Hour); err != context.Canceled {
		t.Errorf("Sleep = %v, want context.Canceled", err)
	}
	if err := (Real{}).Sleep(context.Background(), 0); err != nil {
		t.Errorf("Sleep(0) = %v", err)
	}
	if n := (Real{}).Jitter(1); n != 0 {
		t.Errorf("Jitter(1) = %d", n)
	}
}
