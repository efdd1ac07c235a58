package fleet

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// builds are the commands the tests run, each built once, in one
// temporary directory that TestMain removes.
var builds struct {
	dirOnce sync.Once
	dir     string
	dirErr  error
	mu      sync.Mutex
	done    map[string]*build
}

type build struct {
	once sync.Once
	path string
	err  error
}

// buildOnce builds the command of the package pkg as name, once for the
// tests that run it, and returns its path.
func buildOnce(t *testing.T, name, pkg string) string {
	t.Helper()
	builds.dirOnce.Do(func() { builds.dir, builds.dirErr = os.MkdirTemp("", "sitemap-fleet-test") })
	if builds.dirErr != nil {
		t.Fatal(builds.dirErr)
	}
	builds.mu.Lock()
	if builds.done == nil {
		builds.done = map[string]*build{}
	}
	b := builds.done[name]
	if b == nil {
		b = &build{}
		builds.done[name] = b
	}
	builds.mu.Unlock()
	b.once.Do(func() {
		b.path = filepath.Join(builds.dir, name)
		if out, err := exec.Command("go", "build", "-o", b.path, pkg).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("build %s: %v\n%s", name, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// buildCommand builds sitemap-fleet.
func buildCommand(t *testing.T) string { return buildOnce(t, "sitemap-fleet", "./cmd/sitemap-fleet") }

// buildSitemap builds the sitemap command of the library beside it.
func buildSitemap(t *testing.T) string {
	return buildOnce(t, "sitemap", "github.com/gositemap/sitemap/cmd/sitemap")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
	}
	os.Exit(code)
}

// sitemap-fleet run prints what sitemap prints for the same URL, in its
// formats, and a summary on standard error.
func TestRunCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := buildCommand(t)
	s := newSite(t, 10, 20, false)
	dir := t.TempDir()
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "run", "-dir", dir, "-format", "jsonl", s.URL+"/index.xml")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	slices.Sort(got)
	sameLines(t, got, reference(t, s.URL+"/index.xml"))
	if !strings.Contains(stderr.String(), "Summary: 11 documents read, 0 documents failed, 200 URLs, 0 errors") {
		t.Errorf("stderr %q", stderr.String())
	}
	// The same directory serves a second run; text and csv are sitemap's.
	out, err = exec.Command(bin, "run", "-dir", dir, "-format", "csv", s.URL+"/s/3.xml").Output()
	lines := strings.Split(string(out), "\n")
	if err != nil || len(lines) != 22 || lines[0] != "loc,lastmod,changefreq,priority,images,news,videos,hreflangs,sitemap" ||
		lines[1] != "https://w3.example/3/0?a=1&b=2,2024-01-01T10:00:00Z,,0,0,0,0,0,"+s.URL+"/s/3.xml" {
		t.Errorf("csv: %v, %d lines, %q", err, len(lines), lines[:min(len(lines), 2)])
	}
	if out, err := exec.Command(bin, "status", "-nats", "nats://crawler:s3cret@127.0.0.1:1").CombinedOutput(); err == nil ||
		!strings.Contains(string(out), "connect to nats://crawler:xxxxx@127.0.0.1:1") || strings.Contains(string(out), "s3cret") {
		t.Errorf("a server that cannot be reached: %v, %s; want an error at once, the password hidden", err, out)
	}
	if out, err := exec.Command(bin, "run", "-dir", dir, "-bogus", "x").CombinedOutput(); err == nil || !strings.Contains(string(out), "flag provided but not defined: -bogus") {
		t.Errorf("a wrong flag: %v, %s", err, out)
	}
}

// Three worker processes of the built command on one server; one is
// killed with SIGKILL while every worker waits at the site for a document
// of the second half. Its jobs are delivered again to the others: no URL
// is missing, none is there twice, and status counts the jobs delivered
// again.
func TestKillWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := buildCommand(t)
	srv, err := StartServer(ServerOptions{Dir: t.TempDir(), Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	f := openFleet(t, srv, Options{AckWait: testAckWait})
	const workers, conc = 3, 4
	// A worker has up to jobsPerSlot*conc jobs in hand, conc of them read
	// at once; the gated second half must leave every worker conc jobs
	// even when the first ones to fetch hold all they may.
	gated := (workers-1)*jobsPerSlot*conc + conc
	s := newSite(t, 2*gated, 50, true)
	s.fullAt = workers * conc
	var procs []*exec.Cmd
	for i := range workers {
		cmd := exec.Command(bin, "worker", "-nats", srv.ClientURL(), "-ack-wait", testAckWait.String(),
			"-concurrency", strconv.Itoa(conc), "-name", "p"+strconv.Itoa(i))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs = append(procs, cmd)
		t.Cleanup(func() {
			cmd.Process.Signal(syscall.SIGTERM)
			cmd.Wait()
			if stderr.Len() > 0 {
				t.Logf("worker %d:\n%s", i, stderr.String())
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The requests that wait at the gate wait for every worker to come to
	// it, which on a loaded machine takes longer than the default timeout.
	c := DefaultCrawl()
	c.Timeout = 60
	crawl, err := f.Submit(ctx, c, s.URL+"/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.full: // every worker holds documents of the second half
	case <-ctx.Done():
		t.Fatal("the workers did not all come to the gate")
	}
	if err := procs[0].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	procs[0].Wait()
	s.open()
	got, errs := collect(t, ctx, f, crawl)
	if len(errs) > 0 {
		t.Errorf("errors: %v", errs)
	}
	st, err := f.Status(ctx, crawl)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "status", "-nats", srv.ClientURL(), "-ack-wait", testAckWait.String(), crawl).Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("status: %s", strings.TrimSpace(string(out)))
	if st.Redelivered < conc {
		t.Errorf("%d jobs delivered again; want at least the %d the killed worker held", st.Redelivered, conc)
	}
	if m := regexp.MustCompile(`(\d+) jobs? delivered again`).FindSubmatch(out); m == nil || string(m[1]) != strconv.FormatInt(st.Redelivered, 10) {
		t.Errorf("status prints %q; want %d jobs delivered again", out, st.Redelivered)
	}
	sameLines(t, got, reference(t, s.URL+"/index.xml"))
}
