package sitemap_test

import (
	"context"
	"errors"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// BlockPrivateDialer copies the dialer it is given, leaves it as it was,
// and runs the dialer's own check before its own.
func TestBlockPrivateDialer(t *testing.T) {
	if d := sitemap.BlockPrivateDialer(nil); d.Timeout != 30*time.Second || d.ControlContext == nil {
		t.Errorf("from nil: timeout %v, ControlContext set %v", d.Timeout, d.ControlContext != nil)
	}

	errOwn := errors.New("own check")
	var calls []string
	own := &net.Dialer{Timeout: 7 * time.Second, Control: func(network, address string, _ syscall.RawConn) error {
		calls = append(calls, "control "+address)
		if address == "8.8.4.4:53" {
			return errOwn
		}
		return nil
	}}
	d := sitemap.BlockPrivateDialer(own)
	if d == own || d.Timeout != 7*time.Second || d.Control != nil || own.ControlContext != nil {
		t.Fatalf("the copy: same %v, timeout %v, Control kept %v, the original changed %v",
			d == own, d.Timeout, d.Control != nil, own.ControlContext != nil)
	}
	ctx := context.Background()
	if err := d.ControlContext(ctx, "tcp", "8.8.8.8:443", nil); err != nil {
		t.Errorf("a public address: %v", err)
	}
	if err := d.ControlContext(ctx, "tcp", "8.8.4.4:53", nil); !errors.Is(err, errOwn) {
		t.Errorf("the dialer's own check failing: %v, want its error", err)
	}
	if err := d.ControlContext(ctx, "tcp", "10.0.0.1:80", nil); !errors.Is(err, sitemap.ErrBlockedAddress) {
		t.Errorf("an internal address: %v, want ErrBlockedAddress", err)
	}
	if len(calls) != 3 {
		t.Errorf("the dialer's own check ran %d times, want 3: %q", len(calls), calls)
	}

	// A ControlContext of the dialer's is run rather than its Control, as
	// net.Dialer does.
	var ran string
	both := &net.Dialer{
		Control:        func(string, string, syscall.RawConn) error { ran = "Control"; return nil },
		ControlContext: func(context.Context, string, string, syscall.RawConn) error { ran = "ControlContext"; return nil },
	}
	if err := sitemap.BlockPrivateDialer(both).ControlContext(ctx, "tcp", "127.0.0.1:80", nil); !errors.Is(err, sitemap.ErrBlockedAddress) || ran != "ControlContext" {
		t.Errorf("with both: %v, ran %q", err, ran)
	}
}
