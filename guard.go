package sitemap

import (
	"context"
	"net"
	"net/netip"
	"syscall"
	"time"

	"github.com/gositemap/sitemap/internal/guard"
)

// This file is the root's side of the guard against internal addresses:
// the exported names over internal/guard, which holds the classifier and
// the dialer check, and the setting.

// ErrBlockedAddress is wrapped by the *NetworkError of a request refused
// because the address it was to connect to is internal: loopback, private,
// link-local, shared (CGNAT), unique-local, unspecified, multicast or
// reserved. See [S.SetBlockPrivate] and [BlockPrivateDialer].
var ErrBlockedAddress = guard.ErrBlocked

// IsBlockedAddress reports whether the guard of [S.SetBlockPrivate] refuses
// to connect to addr, and names the range it falls in. It refuses every
// address that is not globally reachable: loopback, private (10/8,
// 172.16/12, 192.168/16), link-local, shared (100.64/10), unique-local
// (fc00::/7), unspecified, multicast, and the reserved ranges (0/8,
// 198.18/15, 240/4, the documentation ranges, every IPv6 address outside
// 2000::/3, ...). An IPv4 address written in IPv6 (IPv4-mapped
// ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96 and 6to4
// 2002::/16) is judged by the IPv4 address it holds. An invalid addr is
// refused. It is safe for concurrent use.
func IsBlockedAddress(addr netip.Addr) (blocked bool, class string) { return guard.Classify(addr) }

// BlockPrivateDialer returns a copy of d, or a new dialer with the
// timeouts of net/http's default transport when d is nil, that refuses to
// connect to the addresses [IsBlockedAddress] refuses: the check of
// [S.SetBlockPrivate], for a client of one's own. Its ControlContext runs
// d's own (or d's Control, when d has no ControlContext) first, then fails
// with an error wrapping [ErrBlockedAddress] when the address about to be
// connected to is internal. Since it runs on every connection the dialer
// makes, after the name of the host has been resolved, neither a redirect
// nor a name that resolves to an internal address (DNS rebinding included)
// gets past it. d is not changed.
//
// The default client of an instance guards itself once SetBlockPrivate is
// on. To guard a client of your own, set with [S.SetHTTPClient], give its
// transport such a dialer:
//
//	dialer := sitemap.BlockPrivateDialer(&net.Dialer{Timeout: 30 * time.Second})
//	client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
//
// Through a proxy, the address dialled is the proxy's: the guard checks the
// proxy, not the host a request names, which the proxy connects to.
func BlockPrivateDialer(d *net.Dialer) *net.Dialer {
	var out net.Dialer
	if d != nil {
		out = *d
	} else {
		out = net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	}
	own, ownCtx := out.Control, out.ControlContext
	out.Control = nil
	out.ControlContext = func(ctx context.Context, network, address string, c syscall.RawConn) error {
		var err error
		switch {
		case ownCtx != nil:
			err = ownCtx(ctx, network, address, c)
		case own != nil:
			err = own(network, address, c)
		}
		if err != nil {
			return err
		}
		return guard.Check(address, nil)
	}
	return &out
}

// SetBlockPrivate turns the guard against internal addresses on or off; it
// is off by default. With it on, the default client refuses to connect to
// any address that [IsBlockedAddress] refuses, such as 127.0.0.1,
// 10.0.0.1, 169.254.169.254 or [::1]: the request fails with a
// *NetworkError wrapping [ErrBlockedAddress]. The address is checked when
// the connection is dialled, after the name of the host is resolved, so a
// sitemap that names an internal host, redirects to one, or has a name
// resolve to one is refused all the same.
//
// The guard is part of the default client. A client set with
// [S.SetHTTPClient] is used as it is, and is guarded only if its dialer
// is one [BlockPrivateDialer] returned. The default client honours
// HTTP_PROXY, HTTPS_PROXY and NO_PROXY: through a proxy, the address
// dialled is the proxy's, so the guard checks the proxy (a proxy on an
// internal address is refused) and cannot see where the proxy connects;
// leave the proxy variables unset for the guard to check every host.
func (s *S) SetBlockPrivate(on bool) *S {
	return s.set("blockPrivate", func() error { return nil }, func(c *config) { c.polite.blockPrivate = on })
}

// GetBlockPrivate reports whether the guard of [S.SetBlockPrivate] is on.
func (s *S) GetBlockPrivate() bool {
	return get(s, func(c *config) bool { return c.polite.blockPrivate })
}
