package fleet

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// debianServer is where Debian's nats-server package puts the server.
const debianServer = "/usr/sbin/nats-server"

// The fleet on Debian's nats-server (2.9.10 in bookworm, the oldest it
// supports), when it is installed: a crawl's output is the library's.
func TestDebianServer(t *testing.T) {
	if _, err := os.Stat(debianServer); err != nil {
		t.Skipf("%s is not installed (apt-get install nats-server): the fleet is not tried on it", debianServer)
	}
	port := freePorts(t, 1)[0]
	cmd := exec.Command(debianServer, "-js", "-sd", t.TempDir(), "-a", "127.0.0.1", "-p", fmt.Sprint(port))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("nats-server:\n%s", stderr.String())
		}
	})
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	var nc *nats.Conn
	var err error
	// The server takes a moment to listen: connecting is retried, up to
	// the first success.
	nc, err = nats.Connect(url, nats.RetryOnFailedConnect(true), nats.MaxReconnects(100), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for !nc.IsConnected() {
		select {
		case <-ctx.Done():
			t.Fatalf("no connection to %s: %s", url, stderr.String())
		case <-time.After(20 * time.Millisecond): // the server starts
		}
	}
	t.Logf("server version %s", nc.ConnectedServerVersion())
	f := openOn(t, nc, Options{AckWait: testAckWait})
	s := newSite(t, 20, 50, false)
	startWorkers(t, f, 2, WorkerOptions{Concurrency: 4})
	c := DefaultCrawl()
	c.MaxHostConcurrency, c.State = 3, "debian"
	crawl, err := f.Submit(ctx, c, s.URL+"/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	got, errs := collect(t, ctx, f, crawl)
	if len(errs) > 0 {
		t.Errorf("errors: %v", errs)
	}
	sameLines(t, got, reference(t, s.URL+"/index.xml"))
}
