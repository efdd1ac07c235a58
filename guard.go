package sitemap

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// This file is the guard against internal addresses: the classifier of an
// IP address, and the check a net.Dialer runs on the address it is about to
// connect to, once the name has been resolved.

// ErrBlockedAddress is wrapped by the *NetworkError of a request refused
// because the address it was to connect to is internal: loopback, private,
// link-local, shared (CGNAT), unique-local, unspecified, multicast or
// reserved. See [S.SetBlockPrivate] and [BlockPrivateDialer].
var ErrBlockedAddress = errors.New("sitemap: connection to an internal address refused")

// blockedError is the cause of a refused connection: the address and the
// range it falls in.
type blockedError struct {
	addr  netip.Addr
	class string
}

func (e *blockedError) Error() string {
	return fmt.Sprintf("address %s is %s: %v", e.addr, e.class, ErrBlockedAddress)
}

func (e *blockedError) Unwrap() error { return ErrBlockedAddress }

// addrRange is a range of addresses the guard refuses, with its name.
type addrRange struct {
	prefix netip.Prefix
	class  string
}

func mustPrefixes(ranges ...[2]string) []addrRange {
	out := make([]addrRange, len(ranges))
	for i, r := range ranges {
		out[i] = addrRange{netip.MustParsePrefix(r[0]), r[1]}
	}
	return out
}

// blockedV4 are the IPv4 ranges that are not globally reachable, after the
// IANA IPv4 Special-Purpose Address Registry (RFC 6890 and its updates).
var blockedV4 = mustPrefixes(
	[2]string{"0.0.0.0/8", "unspecified or this network"},
	[2]string{"10.0.0.0/8", "private"},
	[2]string{"100.64.0.0/10", "shared address space (CGNAT)"},
	[2]string{"127.0.0.0/8", "loopback"},
	[2]string{"169.254.0.0/16", "link-local"},
	[2]string{"172.16.0.0/12", "private"},
	[2]string{"192.0.0.0/24", "reserved (IETF protocol assignments)"},
	[2]string{"192.0.2.0/24", "reserved (documentation)"},
	[2]string{"192.88.99.0/24", "reserved (6to4 relay anycast)"},
	[2]string{"192.168.0.0/16", "private"},
	[2]string{"198.18.0.0/15", "reserved (benchmarking)"},
	[2]string{"198.51.100.0/24", "reserved (documentation)"},
	[2]string{"203.0.113.0/24", "reserved (documentation)"},
	[2]string{"224.0.0.0/4", "multicast"},
	[2]string{"240.0.0.0/4", "reserved"},
)

// blockedV6 are the IPv6 ranges within global unicast (2000::/3) that are
// not globally reachable. Every address outside 2000::/3 is refused, but
// for the forms that embed an IPv4 address, which are judged by it.
var blockedV6 = mustPrefixes(
	[2]string{"2001::/23", "reserved (IETF protocol assignments)"},
	[2]string{"2001:db8::/32", "reserved (documentation)"},
	[2]string{"3fff::/20", "reserved (documentation)"},
)

var (
	globalUnicast = netip.MustParsePrefix("2000::/3")
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour     = netip.MustParsePrefix("2002::/16")
	ipv4Compat    = netip.MustParsePrefix("::/96")
)

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
func IsBlockedAddress(addr netip.Addr) (blocked bool, class string) {
	addr = addr.WithZone("")
	switch {
	case !addr.IsValid():
		return true, "not a valid address"
	case addr.Is4In6():
		return isBlockedV4(addr.Unmap(), "IPv4-mapped ")
	case addr.Is4():
		return isBlockedV4(addr, "")
	case addr == netip.IPv6Unspecified():
		return true, "unspecified"
	case addr == netip.IPv6Loopback():
		return true, "loopback"
	case ipv4Compat.Contains(addr):
		return isBlockedV4(embedded(addr, 12), "IPv4-compatible ")
	case nat64.Contains(addr):
		return isBlockedV4(embedded(addr, 12), "NAT64 ")
	case sixToFour.Contains(addr):
		return isBlockedV4(embedded(addr, 2), "6to4 ")
	case !globalUnicast.Contains(addr):
		return true, v6Class(addr)
	}
	for _, r := range blockedV6 {
		if r.prefix.Contains(addr) {
			return true, r.class
		}
	}
	return false, ""
}

// embedded returns the IPv4 address held in the four bytes of the IPv6
// address a from byte at.
func embedded(a netip.Addr, at int) netip.Addr {
	b := a.As16()
	return netip.AddrFrom4([4]byte(b[at : at+4]))
}

func isBlockedV4(a netip.Addr, form string) (bool, string) {
	for _, r := range blockedV4 {
		if r.prefix.Contains(a) {
			return true, form + r.class
		}
	}
	return false, ""
}

// v6Class names the range of an IPv6 address outside global unicast.
func v6Class(a netip.Addr) string {
	switch {
	case a.IsLinkLocalUnicast():
		return "link-local"
	case a.IsPrivate():
		return "unique-local"
	case a.IsMulticast():
		return "multicast"
	}
	return "reserved"
}

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
		return guardCheck(network, address, nil)
	}
	return &out
}

// guardCheck is the check of BlockPrivateDialer, with allow, when not nil, letting through
// the addresses it accepts: the tests' way to reach a loopback server
// through the guard.
func guardCheck(network, address string, allow func(netip.AddrPort) bool) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("address %q is not an IP address: %w", address, ErrBlockedAddress)
	}
	addr := ap.Addr()
	if allow != nil && allow(ap) {
		return nil
	}
	if blocked, class := IsBlockedAddress(addr); blocked {
		return &blockedError{addr: addr.WithZone(""), class: class}
	}
	return nil
}

// guardDialer returns the dialer of the default client with the guard on,
// with the settings of net/http's default transport.
func guardDialer(allow func(netip.AddrPort) bool) *net.Dialer {
	return &net.Dialer{
		Timeout:   30 * time.Second,
		KeepAlive: 30 * time.Second,
		ControlContext: func(_ context.Context, network, address string, _ syscall.RawConn) error {
			return guardCheck(network, address, allow)
		},
	}
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
