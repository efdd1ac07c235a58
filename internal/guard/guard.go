// Package guard tells the internal addresses apart from the public ones:
// the classifier of an IP address, and the check a net.Dialer runs on the
// address it is about to connect to, once the name has been resolved. It
// knows nothing of sitemaps; the root package wraps it as
// IsBlockedAddress, the dialer check and the guarded default client.
package guard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// ErrBlocked is wrapped by the error of a connection refused because its
// address is internal. The root package exports it as ErrBlockedAddress.
var ErrBlocked = errors.New("sitemap: connection to an internal address refused")

// BlockedError is the cause of a refused connection: the address and the
// range it falls in.
type BlockedError struct {
	Addr  netip.Addr
	Class string
}

// Error names the address, its range and ErrBlocked.
func (e *BlockedError) Error() string {
	return fmt.Sprintf("address %s is %s: %v", e.Addr, e.Class, ErrBlocked)
}

// Unwrap returns ErrBlocked.
func (e *BlockedError) Unwrap() error { return ErrBlocked }

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

// Classify reports whether addr is internal (not globally reachable), and
// names the range it falls in. An IPv4 address written in IPv6
// (IPv4-mapped, IPv4-compatible, NAT64 and 6to4) is judged by the IPv4
// address it holds; an invalid addr is internal. The zone is ignored.
func Classify(addr netip.Addr) (blocked bool, class string) {
	addr = addr.WithZone("")
	switch {
	case !addr.IsValid():
		return true, "not a valid address"
	case addr.Is4In6():
		return classifyV4(addr.Unmap(), "IPv4-mapped ")
	case addr.Is4():
		return classifyV4(addr, "")
	case addr == netip.IPv6Unspecified():
		return true, "unspecified"
	case addr == netip.IPv6Loopback():
		return true, "loopback"
	case ipv4Compat.Contains(addr):
		return classifyV4(embedded(addr, 12), "IPv4-compatible ")
	case nat64.Contains(addr):
		return classifyV4(embedded(addr, 12), "NAT64 ")
	case sixToFour.Contains(addr):
		return classifyV4(embedded(addr, 2), "6to4 ")
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

func classifyV4(a netip.Addr, form string) (bool, string) {
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

// Check is the check of a dialer on the address it is about to connect
// to, "host:port" with the host resolved: an error wrapping ErrBlocked
// when the address is internal or is not an IP address at all. allow,
// when not nil, lets through the addresses it accepts (the tests' way to
// reach a loopback server through the guard).
func Check(address string, allow func(netip.AddrPort) bool) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("address %q is not an IP address: %w", address, ErrBlocked)
	}
	if allow != nil && allow(ap) {
		return nil
	}
	addr := ap.Addr()
	if blocked, class := Classify(addr); blocked {
		return &BlockedError{Addr: addr.WithZone(""), Class: class}
	}
	return nil
}

// Dialer returns a dialer with the settings of net/http's default
// transport whose every connection is checked, allow as in Check.
func Dialer(allow func(netip.AddrPort) bool) *net.Dialer {
	return &net.Dialer{
		Timeout:   30 * time.Second,
		KeepAlive: 30 * time.Second,
		ControlContext: func(_ context.Context, _, address string, _ syscall.RawConn) error {
			return Check(address, allow)
		},
	}
}
