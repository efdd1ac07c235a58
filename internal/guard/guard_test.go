package guard

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// The table of internal and public addresses, at both ends of each range,
// moved from the root's TestIsBlockedAddress.
func TestClassify(t *testing.T) {
	blocked := []string{
		// IPv4 special-purpose ranges, at both ends.
		"0.0.0.0", "0.255.255.255", "10.0.0.1", "10.255.255.255",
		"100.64.0.0", "100.127.255.255", "127.0.0.1", "127.255.255.254",
		"169.254.169.254", "169.254.0.1", "172.16.0.1", "172.31.255.255",
		"192.0.0.8", "192.0.2.1", "192.88.99.1", "192.168.0.1", "192.168.255.255",
		"198.18.0.1", "198.19.255.255", "198.51.100.7", "203.0.113.9",
		"224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
		// IPv6.
		"::", "::1", "fe80::1", "fe80::1%eth0", "febf::1", "fc00::1", "fd12:3456::1",
		"ff02::1", "ff0e::1", "fec0::1", "100::1", "2001::1", "2001:db8::1",
		"2001:2::1", "3fff::1", "64:ff9b:1::1", "4000::1", "::2:1",
		// IPv4 inside IPv6: mapped, compatible, NAT64, 6to4.
		"::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254", "::ffff:0.0.0.0",
		"::127.0.0.1", "::10.0.0.1",
		"64:ff9b::127.0.0.1", "64:ff9b::a9fe:a9fe", "64:ff9b::10.0.0.1", "64:ff9b::100.64.0.1",
		"2002:7f00:0001::1", "2002:c0a8:0101::1", "2002:0a00:0001:ffff::", "2002:a9fe:a9fe::",
		"2002:0000:0000::1",
	}
	allowed := []string{
		"8.8.8.8", "1.1.1.1", "93.184.216.34", "100.63.255.255", "100.128.0.0",
		"172.15.255.255", "172.32.0.0", "192.0.1.1", "192.169.0.1", "198.17.255.255",
		"198.20.0.0", "223.255.255.255", "11.0.0.1", "126.255.255.255", "128.0.0.1",
		"2606:4700:4700::1111", "2a00:1450:4001::200e", "2001:200::1",
		"::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:0808:0808::1",
	}
	for _, a := range blocked {
		addr := netip.MustParseAddr(a)
		if ok, class := Classify(addr); !ok || class == "" {
			t.Errorf("Classify(%s) = %v, %q; want blocked, with its range", a, ok, class)
		}
		if err := Check(netip.AddrPortFrom(addr, 80).String(), nil); !errors.Is(err, ErrBlocked) {
			t.Errorf("Check(%s) = %v, want ErrBlocked", a, err)
		}
	}
	for _, a := range allowed {
		addr := netip.MustParseAddr(a)
		if ok, class := Classify(addr); ok {
			t.Errorf("Classify(%s) = blocked (%s), want allowed", a, class)
		}
		if err := Check(netip.AddrPortFrom(addr, 443).String(), nil); err != nil {
			t.Errorf("Check(%s) = %v, want nil", a, err)
		}
	}
	if ok, _ := Classify(netip.Addr{}); !ok {
		t.Error("the zero Addr is not blocked")
	}
}

// The message names the address and its range, once; an address that is
// no IP address (a Unix socket) is refused.
func TestCheckMessage(t *testing.T) {
	err := Check("[::ffff:169.254.169.254]:80", nil)
	var be *BlockedError
	if !errors.As(err, &be) || be.Class != "IPv4-mapped link-local" {
		t.Fatalf("Check = %v, want a *BlockedError of an IPv4-mapped link-local address", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "169.254.169.254") || strings.Count(msg, "link-local") != 1 {
		t.Errorf("message = %q, want the address and link-local once", msg)
	}
	if err := Check("/tmp/sock", nil); !errors.Is(err, ErrBlocked) {
		t.Errorf("Check(unix socket) = %v, want ErrBlocked", err)
	}
}

// allow lets through exactly the addresses it accepts.
func TestCheckAllow(t *testing.T) {
	lo := netip.MustParseAddrPort("127.0.0.1:8080")
	allow := func(ap netip.AddrPort) bool { return ap == lo }
	if err := Check(lo.String(), allow); err != nil {
		t.Errorf("Check(allowed %s) = %v", lo, err)
	}
	if err := Check("127.0.0.1:8081", allow); !errors.Is(err, ErrBlocked) {
		t.Errorf("Check(another port) = %v, want ErrBlocked", err)
	}
	if d := Dialer(allow); d.ControlContext == nil || d.Timeout == 0 {
		t.Error("Dialer has no check or no timeout")
	}
}
