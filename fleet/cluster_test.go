package fleet

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// freePorts returns n ports of the loopback that were free a moment ago.
func freePorts(t *testing.T, n int) []int {
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// startCluster starts three servers of one cluster on the loopback.
func startCluster(t *testing.T) []*Server {
	routes := freePorts(t, 3)
	var urls []string
	for _, p := range routes {
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", p))
	}
	var servers []*Server
	for i := range 3 {
		srv, err := StartServer(ServerOptions{
			Dir: t.TempDir(), Listen: "127.0.0.1:0", Name: fmt.Sprintf("n%d", i),
			Cluster: fmt.Sprintf("127.0.0.1:%d", routes[i]), ClusterName: "fleet-test", Routes: urls,
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Stop)
		servers = append(servers, srv)
	}
	return servers
}

// openCluster opens the fleet, with three replicas, on a connection to
// every server of the cluster, once the cluster has elected its leader.
func openCluster(t *testing.T, servers []*Server, first int) *Fleet {
	var urls []string
	for i := range servers {
		urls = append(urls, servers[(first+i)%len(servers)].ClientURL())
	}
	nc, err := nats.Connect(strings.Join(urls, ","), nats.DontRandomize(), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		try, cancelTry := context.WithTimeout(ctx, 2*time.Second)
		f, err := Open(try, nc, Options{AckWait: testAckWait, Replicas: 3})
		cancelTry()
		if err == nil {
			return f
		}
		if ctx.Err() != nil {
			t.Fatalf("open on the cluster: %v", err)
		}
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(100 * time.Millisecond): // the cluster elects its leader
		}
	}
}

// A cluster of three that loses one server mid-crawl finishes the crawl:
// its output is the library's, each URL once.
func TestClusterLosesANode(t *testing.T) {
	servers := startCluster(t)
	submitter := openCluster(t, servers, 0)
	for i := range 3 {
		startWorkers(t, openCluster(t, servers, i), 1, WorkerOptions{Concurrency: 4})
	}
	s := newSite(t, 40, 50, true)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	crawl, err := submitter.Submit(ctx, DefaultCrawl(), s.URL+"/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.reached: // half the sitemaps read, the others wait at the gate
	case <-ctx.Done():
		t.Fatal(ctx.Err())
	}
	servers[1].Stop()
	s.open()
	got, errs := collect(t, ctx, submitter, crawl)
	if len(errs) > 0 {
		t.Errorf("errors: %v", errs)
	}
	st, _ := submitter.Status(ctx, crawl)
	t.Logf("status after the crawl: %+v", st)
	sameLines(t, got, reference(t, s.URL+"/index.xml"))
}
