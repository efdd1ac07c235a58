package fleet

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// ServerOptions are the settings of an embedded NATS server.
type ServerOptions struct {
	// Dir is where JetStream keeps its state; required.
	Dir string
	// Listen is the HOST:PORT clients connect to; empty listens on no
	// port at all (the server is reached in process, through
	// [Server.Connect]). Port 0 (or -1) picks a free one.
	Listen string
	// Name names the server; in a cluster each has its own.
	Name string
	// Cluster, when not empty, is the HOST:PORT of this server's routes,
	// and Routes the route URLs (nats://HOST:PORT) of the others: the
	// servers of a cluster name each other.
	Cluster     string
	ClusterName string
	Routes      []string
}

// Server is an embedded NATS server with JetStream.
type Server struct {
	*server.Server
}

// StartServer starts a NATS server with JetStream in this process and
// waits until it is ready for connections.
func StartServer(o ServerOptions) (*Server, error) {
	opts := &server.Options{
		ServerName: o.Name,
		JetStream:  true,
		StoreDir:   o.Dir,
		NoSigs:     true,
		DontListen: o.Listen == "",
		Port:       -1,
		Host:       "127.0.0.1",
	}
	if o.Listen != "" {
		host, port, err := splitHostPort(o.Listen)
		if err != nil {
			return nil, err
		}
		opts.Host, opts.Port = host, port
	}
	if o.Cluster != "" {
		host, port, err := splitHostPort(o.Cluster)
		if err != nil {
			return nil, err
		}
		opts.Cluster = server.ClusterOpts{Name: o.ClusterName, Host: host, Port: port}
		for _, r := range o.Routes {
			u, err := urlParse(r)
			if err != nil {
				return nil, err
			}
			opts.Routes = append(opts.Routes, u)
		}
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("fleet: server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("fleet: the server in %s did not start", o.Dir)
	}
	return &Server{s}, nil
}

// Connect returns a connection to the server, in process when it listens
// on no port.
func (s *Server) Connect(opts ...nats.Option) (*nats.Conn, error) {
	if s.Addr() == nil {
		return nats.Connect("", append(opts, nats.InProcessServer(s.Server))...)
	}
	return nats.Connect(s.ClientURL(), opts...)
}

// Stop shuts the server down and waits until it has. A server of no
// cluster stops JetStream first, its state written out: the shutdown of
// the server would otherwise tell the pull requests still waiting (a
// worker's, a reader's) that they end, and then wait 50 ms for that to
// go out, which is a tenth of a short run. Their clients see the
// connection close instead.
func (s *Server) Stop() {
	if !s.JetStreamIsClustered() {
		s.ShutdownJetStream()
	}
	s.Shutdown()
	s.WaitForShutdown()
}

func splitHostPort(hp string) (string, int, error) {
	host, p, err := net.SplitHostPort(hp)
	if err != nil {
		return "", 0, fmt.Errorf("fleet: %q: HOST:PORT expected: %w", hp, err)
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < -1 || port > 65535 {
		return "", 0, fmt.Errorf("fleet: %q: a port from 0 to 65535 expected", hp)
	}
	if port == 0 {
		port = -1
	}
	return host, port, nil
}

func urlParse(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("fleet: route %q: nats://HOST:PORT expected", s)
	}
	return u, nil
}
