package fleet

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildCommand builds sitemap-fleet into a temporary directory.
func buildCommand(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sitemap-fleet")
	out, err := exec.Command("go", "build", "-o", bin, "./cmd/sitemap-fleet").CombinedOutput()
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
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
	s := newSite(t, 40, 50, true)
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
	crawl, err := f.Submit(ctx, DefaultCrawl(), s.URL+"/index.xml")
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
