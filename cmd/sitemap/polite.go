package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/gositemap/sitemap"
)

// The flags of retries, of the pace per host and of the guard against
// internal addresses.

func politeFlags(fs *flag.FlagSet, o *options) {
	fs.IntVar(&o.retries, "retries", 0, "try a request again up to `N` times after a 429, 502, 503, 504, a reset or a timeout,\nafter its Retry-After or a random backoff (0 to 100)")
	fs.Float64Var(&o.hostRate, "host-rate", 0, "send at most `R` requests a second to each host, such as 2 or 0.5 (0: no limit)")
	fs.BoolVar(&o.blockPrivate, "block-private", false, "refuse to connect to loopback, private, link-local and other internal addresses,\nafter DNS and on every redirect (through a proxy, the proxy's address is checked)")
}

// proxyVariables are the environment variables net/http takes a proxy from.
var proxyVariables = []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"}

// baseTransport is the transport the requests go through: net/http's
// default, or with -block-private a copy of it whose dialer runs the
// library's guard. A proxy set in the environment is then the address the
// guard sees: the command warns.
func (c *command) baseTransport(o *options) http.RoundTripper {
	def, ok := http.DefaultTransport.(*http.Transport)
	if !o.blockPrivate || !ok {
		return http.DefaultTransport
	}
	for _, name := range proxyVariables {
		if v := os.Getenv(name); v != "" {
			fmt.Fprintf(c.stderr, "sitemap: warning: %s is set: -block-private checks the address of the proxy, not of the hosts it connects to\n", name)
			break
		}
	}
	t := def.Clone()
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: sitemap.GuardControl}
	t.DialContext = dialer.DialContext
	return t
}
