package testbin

import (
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"testing"
)

// Ports handed out by UnboundAddr in this process: two tests never get one.
var (
	portsMu sync.Mutex
	ports   = map[int]bool{}
)

// UnboundAddr returns a localhost address nobody listens on, for a child
// process that must be told its address before it starts (a DXP engine
// that listens, a NATS server a worker dials before it is up). The port is
// below the kernel's ephemeral range (32768-60999 on Linux), which a
// listen-close of port 0 would give: there any outgoing connection may
// take the port before the child binds it, and a dial to it may connect
// to itself (TCP's simultaneous open, the kernel picking the destination
// port as the source). Below the range only an explicit bind takes a
// port; a program of the machine doing so between this check and the
// child's bind remains possible, and a caller that can tell should try
// another address.
func UnboundAddr(t testing.TB) string {
	t.Helper()
	portsMu.Lock()
	defer portsMu.Unlock()
	for range 100 {
		port := 20000 + rand.IntN(12000)
		if ports[port] {
			continue
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			continue // taken: another
		}
		ln.Close()
		ports[port] = true
		return addr
	}
	t.Fatal("no free port from 20000 to 31999")
	return ""
}
