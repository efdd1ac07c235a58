package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gositemap/sitemap"
)

// The guard against internal addresses (issue 16): SetBlockPrivate,
// BlockPrivateDialer and IsBlockedAddress.

// gdServe starts a loopback server of one urlset at /sitemap.xml, and
// counts the requests it gets.
func gdServe(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>`)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// gdBlocked checks that err is a *NetworkError for want wrapping
// ErrBlockedAddress.
func gdBlocked(t *testing.T, err error, want string) {
	t.Helper()
	var nerr *sitemap.NetworkError
	if !errors.As(err, &nerr) || !errors.Is(err, sitemap.ErrBlockedAddress) {
		t.Fatalf("error = %v (%T), want a *NetworkError wrapping ErrBlockedAddress", err, err)
	}
	if nerr.URL != want {
		t.Errorf("NetworkError.URL = %q, want %q", nerr.URL, want)
	}
}

func TestGuardRefusesLoopbackServer(t *testing.T) {
	srv, hits := gdServe(t)
	s := sitemap.New().SetFetchTimeout(60).SetBlockPrivate(true)
	_, err := s.Parse(srv.URL+"/sitemap.xml", nil)
	gdBlocked(t, err, srv.URL+"/sitemap.xml")
	if n := hits.Load(); n != 0 {
		t.Errorf("the server got %d requests, want 0", n)
	}
	if len(s.GetURLs()) != 0 {
		t.Errorf("got URLs %v", s.GetURLs())
	}
	if !s.GetBlockPrivate() {
		t.Error("GetBlockPrivate() = false after SetBlockPrivate(true)")
	}
}

func TestGuardOffByDefault(t *testing.T) {
	srv, _ := gdServe(t)
	s := sitemap.New().SetFetchTimeout(60)
	if _, err := s.Parse(srv.URL+"/sitemap.xml", nil); err != nil || len(s.GetURLs()) != 1 {
		t.Fatalf("Parse = %v, %d URLs; want the loopback server read", err, len(s.GetURLs()))
	}
	if s.GetBlockPrivate() {
		t.Error("GetBlockPrivate() = true by default")
	}
}

// A redirect from an allowed host to a loopback one is refused when the
// redirect's connection is dialled. The allowed host is a loopback server
// too, let through by port with the tests' hook.
func TestGuardRefusesRedirectToLoopback(t *testing.T) {
	inner, hits := gdServe(t)
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inner.URL+"/sitemap.xml", http.StatusFound)
	}))
	defer outer.Close()
	allowed := netip.MustParseAddrPort(outer.Listener.Addr().String())

	s := sitemap.New().SetFetchTimeout(60).SetBlockPrivate(true)
	sitemap.SetGuardAllowForTest(s, func(ap netip.AddrPort) bool { return ap == allowed })
	_, err := s.Parse(outer.URL+"/sitemap.xml", nil)
	gdBlocked(t, err, outer.URL+"/sitemap.xml")
	if n := hits.Load(); n != 0 {
		t.Errorf("the redirect's target got %d requests, want 0", n)
	}

	// The hook alone lets the first hop through: without the guard the
	// same redirect is followed.
	s = sitemap.New().SetFetchTimeout(60)
	if _, err := s.Parse(outer.URL+"/sitemap.xml", nil); err != nil || len(s.GetURLs()) != 1 {
		t.Fatalf("without the guard: %v, %d URLs", err, len(s.GetURLs()))
	}
}

// A host name that resolves to loopback is refused: the check sees the
// resolved address.
func TestGuardRefusesNameResolvingToLoopback(t *testing.T) {
	if addrs, err := net.DefaultResolver.LookupHost(t.Context(), "localhost"); err != nil || len(addrs) == 0 {
		t.Skipf("localhost does not resolve here: %v", err)
	}
	srv, hits := gdServe(t)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	loc := "http://localhost:" + port + "/sitemap.xml"
	s := sitemap.New().SetFetchTimeout(60).SetBlockPrivate(true)
	_, err := s.Parse(loc, nil)
	gdBlocked(t, err, loc)
	if n := hits.Load(); n != 0 {
		t.Errorf("the server got %d requests, want 0", n)
	}
}

// A sitemap index that lists an internal sitemap: the one listed is
// refused and reported, the others are read.
func TestGuardRefusesListedSitemap(t *testing.T) {
	inner, hits := gdServe(t)
	var outer *httptest.Server
	outer = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%s/sitemap.xml</loc></sitemap><sitemap><loc>%s/ok.xml</loc></sitemap></sitemapindex>`, inner.URL, outer.URL)
		case "/ok.xml":
			fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/ok</loc></url></urlset>`)
		}
	}))
	defer outer.Close()
	allowed := netip.MustParseAddrPort(outer.Listener.Addr().String())
	s := sitemap.New().SetFetchTimeout(60).SetBlockPrivate(true)
	sitemap.SetGuardAllowForTest(s, func(ap netip.AddrPort) bool { return ap == allowed })
	if _, err := s.Parse(outer.URL+"/index.xml", nil); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got := s.GetURLs(); len(got) != 1 || got[0].Loc != "https://example.com/ok" {
		t.Errorf("URLs = %v, want only https://example.com/ok", got)
	}
	errs := s.GetErrors()
	if len(errs) != 1 {
		t.Fatalf("errors = %v, want one", errs)
	}
	gdBlocked(t, errs[0], inner.URL+"/sitemap.xml")
	if hits.Load() != 0 {
		t.Error("the internal sitemap was requested")
	}
}

// gdControl runs the check of BlockPrivateDialer on address.
func gdControl(network, address string) error {
	return sitemap.BlockPrivateDialer(nil).ControlContext(context.Background(), network, address, nil)
}

// BlockPrivateDialer guards a client of one's own.
func TestBlockPrivateDialerOnOwnClient(t *testing.T) {
	srv, hits := gdServe(t)
	dialer := sitemap.BlockPrivateDialer(&net.Dialer{Timeout: 60 * time.Second})
	tr := &http.Transport{DialContext: dialer.DialContext}
	defer tr.CloseIdleConnections()
	s := sitemap.New().SetHTTPClient(&http.Client{Transport: tr, Timeout: 60 * time.Second})
	_, err := s.Parse(srv.URL+"/sitemap.xml", nil)
	gdBlocked(t, err, srv.URL+"/sitemap.xml")
	if hits.Load() != 0 {
		t.Error("the server was requested")
	}
	if err := gdControl("tcp", "8.8.8.8:443"); err != nil {
		t.Errorf("BlockPrivateDialer check(8.8.8.8:443) = %v, want nil", err)
	}
	if err := gdControl("unix", "/tmp/sock"); !errors.Is(err, sitemap.ErrBlockedAddress) {
		t.Errorf("BlockPrivateDialer check(unix socket) = %v, want ErrBlockedAddress", err)
	}
}

// The message names the address and its range, once.
func TestGuardMessage(t *testing.T) {
	err := gdControl("tcp", "[::ffff:169.254.169.254]:80")
	if err == nil || !strings.Contains(err.Error(), "169.254.169.254") || !strings.Contains(err.Error(), "link-local") {
		t.Errorf("message = %v, want the address and link-local", err)
	}
}

func TestIsBlockedAddress(t *testing.T) {
	for a, want := range map[string]bool{"169.254.169.254": true, "::ffff:10.1.2.3": true, "8.8.8.8": false, "2606:4700:4700::1111": false} {
		addr := netip.MustParseAddr(a)
		if ok, class := sitemap.IsBlockedAddress(addr); ok != want || ok == (class == "") {
			t.Errorf("IsBlockedAddress(%s) = %v, %q; want %v", a, ok, class, want)
		}
		err := gdControl("tcp", netip.AddrPortFrom(addr, 80).String())
		if want != errors.Is(err, sitemap.ErrBlockedAddress) || !want && err != nil {
			t.Errorf("BlockPrivateDialer check(%s) = %v, want blocked %v", a, err, want)
		}
	}
	if ok, _ := sitemap.IsBlockedAddress(netip.Addr{}); !ok {
		t.Error("the zero Addr is not blocked")
	}
}

// A streaming call keeps the guard: its client is rebuilt for the server's
// clock with the same transport.
func TestGuardStream(t *testing.T) {
	srv, hits := gdServe(t)
	s := sitemap.New().SetFetchTimeout(60).SetBlockPrivate(true)
	var got []error
	for u, err := range s.Stream(t.Context(), srv.URL+"/sitemap.xml", nil) {
		if err == nil {
			t.Errorf("got URL %s", u.Loc)
			continue
		}
		got = append(got, err)
	}
	if len(got) != 1 {
		t.Fatalf("errors = %v, want one", got)
	}
	gdBlocked(t, got[0], srv.URL+"/sitemap.xml")
	if hits.Load() != 0 {
		t.Error("the server was requested")
	}
}
