package main

// The flags -retries, -host-rate and -block-private (issue 16).

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

const politeURLSet = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>`

func politeServer(t *testing.T, failFirst int) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= int64(failFirst) {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, politeURLSet)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestBlockPrivateFlag(t *testing.T) {
	for _, v := range proxyVariables {
		t.Setenv(v, "")
	}
	srv, n := politeServer(t, 0)
	r := runCLI(t, "", "-block-private", srv.URL+"/sitemap.xml")
	if r.code == 0 || !strings.Contains(r.stderr, "NetworkError") || !strings.Contains(r.stderr, "loopback") {
		t.Errorf("exit %d, stderr %q; want the refusal of a loopback address", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "warning") {
		t.Errorf("a warning with no proxy set: %q", r.stderr)
	}
	if n.Load() != 0 || r.stdout != "" {
		t.Errorf("%d requests, stdout %q; want none", n.Load(), r.stdout)
	}
	if r := runCLI(t, "", srv.URL+"/sitemap.xml"); r.code != 0 || r.stdout != "https://example.com/a\n" {
		t.Errorf("without the flag: exit %d, stdout %q", r.code, r.stdout)
	}
}

func TestBlockPrivateProxyWarning(t *testing.T) {
	for _, v := range proxyVariables {
		t.Setenv(v, "")
	}
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	srv, _ := politeServer(t, 0)
	r := runCLI(t, "", "-block-private", srv.URL+"/sitemap.xml")
	if !strings.Contains(r.stderr, "warning: HTTPS_PROXY is set") {
		t.Errorf("stderr %q, want the proxy warning", r.stderr)
	}
	if r := runCLI(t, "", srv.URL+"/sitemap.xml"); strings.Contains(r.stderr, "warning") {
		t.Errorf("a warning without -block-private: %q", r.stderr)
	}
}

func TestRetriesFlag(t *testing.T) {
	srv, n := politeServer(t, 2)
	r := runCLI(t, "", "-retries", "3", srv.URL+"/sitemap.xml")
	if r.code != 0 || r.stdout != "https://example.com/a\n" || n.Load() != 3 {
		t.Errorf("exit %d, stdout %q, %d requests; want the URL after 3", r.code, r.stdout, n.Load())
	}
	srv, n = politeServer(t, 2)
	if r := runCLI(t, "", srv.URL+"/sitemap.xml"); r.code == 0 || n.Load() != 1 {
		t.Errorf("without -retries: exit %d after %d requests", r.code, n.Load())
	}
}

func TestPoliteFlagsReachSettings(t *testing.T) {
	c := &command{stdin: strings.NewReader(""), stdout: &strings.Builder{}, stderr: &strings.Builder{}}
	var o options
	if _, err := parseArgs(c.flags(&o), []string{"-retries", "4", "-host-rate", "0.5", "-max-host-concurrency", "3", "-block-private", "x"}); err != nil {
		t.Fatal(err)
	}
	s, ok := c.configure(&o)
	if !ok || s.GetPoliteness().Retry.Max != 4 || s.GetPoliteness().Host.Rate != 0.5 || s.GetPoliteness().Host.MaxConcurrency != 3 || !s.GetBlockPrivate() {
		t.Errorf("settings %d, %v, %v", s.GetPoliteness().Retry.Max, s.GetPoliteness().Host.Rate, s.GetBlockPrivate())
	}
	for _, args := range [][]string{{"-retries", "-1"}, {"-host-rate", "-2"}, {"-max-host-concurrency", "-1"}} {
		r := runCLI(t, "", append(args, "x.xml")...)
		if r.code != 2 || !strings.Contains(r.stderr, "ConfigError") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a ConfigError", args, r.code, r.stderr)
		}
	}
}

// etagServer serves an index of two sitemaps, all with ETags, answering
// If-None-Match; it counts the bodies it sends.
func etagServer(t *testing.T) (*httptest.Server, *atomic.Int64, *atomic.Int64) {
	t.Helper()
	var bodies, version atomic.Int64
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		etag := fmt.Sprintf(`"%s-%d"`, r.URL.Path, version.Load())
		if r.URL.Path != "/b.xml" {
			etag = fmt.Sprintf(`"%s"`, r.URL.Path)
		}
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		bodies.Add(1)
		switch r.URL.Path {
		case "/index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/a.xml</loc><lastmod>2024-01-10</lastmod></sitemap><sitemap><loc>%[1]s/b.xml</loc><lastmod>2024-02-10</lastmod></sitemap></sitemapindex>`, srv.URL)
		default:
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com%s/%d</loc></url></urlset>`, r.URL.Path, version.Load())
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &bodies, &version
}

func TestStateFlag(t *testing.T) {
	srv, bodies, version := etagServer(t)
	state := filepath.Join(t.TempDir(), "state.json")
	r := runCLI(t, "", "-state", state, srv.URL+"/index.xml")
	if r.code != 0 || len(lines(r.stdout)) != 2 || bodies.Load() != 3 {
		t.Fatalf("first run: exit %d, stdout %q, %d bodies", r.code, r.stdout, bodies.Load())
	}
	bodies.Store(0)
	r = runCLI(t, "", "-state", state, srv.URL+"/index.xml")
	if r.code != 0 || r.stdout != "" || bodies.Load() != 0 || !strings.Contains(r.stderr, "Changes: 0 read, 3 unchanged, 0 not modified since") {
		t.Errorf("second run: exit %d, stdout %q, stderr %q, %d bodies", r.code, r.stdout, r.stderr, bodies.Load())
	}
	version.Add(1)
	r = runCLI(t, "", "-state", state, srv.URL+"/index.xml")
	if r.stdout != "https://example.com/b.xml/1\n" || !strings.Contains(r.stderr, "Changes: 1 read, 2 unchanged") {
		t.Errorf("third run: stdout %q, stderr %q", r.stdout, r.stderr)
	}
}

func TestStateFlagCorrupt(t *testing.T) {
	srv, bodies, _ := etagServer(t)
	state := filepath.Join(t.TempDir(), "state.json")
	os.WriteFile(state, []byte("{not json"), 0o644)
	r := runCLI(t, "", "-state", state, srv.URL+"/index.xml")
	if r.code != 2 || !strings.Contains(r.stderr, state) || !strings.Contains(r.stderr, "ConfigError") || bodies.Load() != 0 {
		t.Errorf("exit %d, stderr %q, %d bodies; want 2 and a ConfigError naming the file, nothing fetched", r.code, r.stderr, bodies.Load())
	}
	r = runCLI(t, "", "-state", state, "-state-reset", srv.URL+"/index.xml")
	if r.code != 0 || len(lines(r.stdout)) != 2 {
		t.Errorf("with -state-reset: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "", "-state", state, srv.URL+"/index.xml"); r.code != 0 {
		t.Errorf("after -state-reset the file is still unreadable: %q", r.stderr)
	}
}

func TestSinceFlag(t *testing.T) {
	srv, bodies, _ := etagServer(t)
	r := runCLI(t, "", "-since", "2024-02-01", srv.URL+"/index.xml")
	if r.code != 0 || r.stdout != "https://example.com/b.xml/0\n" || bodies.Load() != 2 ||
		!strings.Contains(r.stderr, "Changes: 2 read, 0 unchanged, 1 not modified since") {
		t.Errorf("exit %d, stdout %q, stderr %q, %d bodies", r.code, r.stdout, r.stderr, bodies.Load())
	}
	if r := runCLI(t, "", "-since", "last tuesday", srv.URL+"/index.xml"); r.code != 2 || !strings.Contains(r.stderr, "-since") {
		t.Errorf("a bad -since: exit %d, stderr %q", r.code, r.stderr)
	}
}
