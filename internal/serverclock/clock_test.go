package serverclock

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A clock that runs out cancels its request's context and says so.
func TestExpires(t *testing.T) {
	ctx, k := Start(context.Background(), time.Millisecond)
	defer k.End()
	if k.Expired() {
		t.Fatal("expired before it ran")
	}
	k.Run()
	<-ctx.Done()
	if !k.Expired() || k.Timeout() != time.Millisecond {
		t.Errorf("Expired %v, Timeout %v; want true and 1ms", k.Expired(), k.Timeout())
	}
}

// A clock ended, or paused, does not run out; End releases the context
// without it being a timeout.
func TestPausedAndEnded(t *testing.T) {
	ctx, k := Start(context.Background(), time.Hour)
	k.Run()
	k.Pause()
	k.End()
	<-ctx.Done()
	if k.Expired() {
		t.Error("a clock ended expired")
	}
	// The next request of a chain has the time left, and ends apart.
	ctx2, k2 := k.Next(context.Background())
	if k2.Timeout() != time.Hour || ctx2.Err() != nil {
		t.Errorf("Next: timeout %v, context %v; want 1h and live", k2.Timeout(), ctx2.Err())
	}
	k2.End()
}

// A nil clock does nothing: its reads are the reader's.
func TestNil(t *testing.T) {
	var k *Clock
	k.Run()
	k.Pause()
	p := make([]byte, 4)
	n, err := k.Read(strings.NewReader("abc"), p)
	k.End()
	if n != 3 || err != nil || k.Expired() {
		t.Errorf("Read %d, %v, Expired %v; want 3, nil, false", n, err, k.Expired())
	}
}
