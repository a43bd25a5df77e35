package cluster

import (
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is an embedded NATS server with JetStream, for tests, the demo
// and small clusters.
type Server struct{ s *server.Server }

// StartServer starts a NATS server with JetStream storing under dir,
// listening on host:port (port -1: a free one).
func StartServer(dir, host string, port int) (*Server, error) {
	s, err := server.NewServer(&server.Options{Host: host, Port: port, JetStream: true, StoreDir: dir, NoSigs: true})
	if err != nil {
		return nil, fmt.Errorf("cluster: NATS server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(30 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("cluster: NATS server on %s:%d not ready after 30s", host, port)
	}
	return &Server{s: s}, nil
}

// URL is the address clients connect to.
func (s *Server) URL() string { return s.s.ClientURL() }

// Shutdown stops the server and waits for it.
func (s *Server) Shutdown() {
	s.s.Shutdown()
	s.s.WaitForShutdown()
}
