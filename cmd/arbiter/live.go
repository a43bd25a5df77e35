package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/engines/tournament"
	"github.com/draughts-arbiter/arbiter/match/web"
)

// liveAddr checks a --serve address. A missing host is loopback, not every
// interface: the live view is reachable beyond this machine only when the
// address says so (0.0.0.0:8080, [::]:8080, a host's own address).
func liveAddr(addr string) (string, error) {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr // a bare port
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--serve %q: want HOST:PORT or PORT (%v)", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// liveServer is the live view of the event run by this process.
type liveServer struct {
	live   *web.Live
	addr   string // where it listens
	cancel context.CancelFunc
	done   chan error
}

// startLive listens on addr and serves live there until stop; it prints
// the page's address on w.
func startLive(addr string, live *web.Live, log zerolog.Logger, w io.Writer, name string) (*liveServer, error) {
	srv, err := web.New(web.Config{Live: live, Log: log})
	if err != nil {
		return nil, err
	}
	ln, err := listenLive(addr, log)
	if err != nil {
		return nil, fmt.Errorf("%s: --serve: %w", name, err)
	}
	announce(w, name+": live view at ", ln.Addr(), "")
	ctx, cancel := context.WithCancel(context.Background())
	ls := &liveServer{live: live, addr: ln.Addr().String(), cancel: cancel, done: make(chan error, 1)}
	go func() { ls.done <- srv.Serve(ctx, ln, 2*time.Second) }()
	return ls, nil
}

// listenLive listens on addr, warning when that is beyond loopback.
func listenLive(addr string, log zerolog.Logger) (net.Listener, error) {
	ln, err := listen(addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(strings.Trim(hostOf(ln.Addr().String()), "[]")); ip != nil && !ip.IsLoopback() {
		log.Warn().Str("addr", ln.Addr().String()).Msg("the live view is reachable beyond this machine")
	}
	return ln, nil
}

// linger keeps the live view of an event that has ended up with its
// final state, until a signal (a fast match would otherwise take its page
// away before anyone has looked). It says so, how to stop it, and how to
// serve the event again later. A signal that already came (the event was
// stopped) ends it at once.
func (ls *liveServer) linger(ctx context.Context, drain <-chan struct{}, w io.Writer, name, out string) {
	if ls == nil || ctx.Err() != nil {
		return
	}
	select {
	case <-drain:
		return
	default:
	}
	lingering(ctx) // before the line: a Ctrl-C that answers it must find the work done
	fmt.Fprintf(w, "%s: finished; the live view at http://%s/ keeps showing the final state until you stop it "+
		"(Ctrl-C, or kill -INT %d); \"arbiter serve --watch %s\" serves it again later\n", name, ls.addr, os.Getpid(), out)
	select {
	case <-ctx.Done():
	case <-drain:
	}
}

// stop ends the server (its streams first).
func (ls *liveServer) stop() error {
	if ls == nil {
		return nil
	}
	ls.cancel()
	return <-ls.done
}

// runWatch is `serve --watch DIR`: the live view of the event another
// process runs in DIR.
func runWatch(cmd *cobra.Command, f serveFlags, log zerolog.Logger) error {
	path := filepath.Join(f.watch, store.FileName)
	if _, err := os.Stat(path); err != nil {
		return usagef("serve: --watch %s: no event there (%v); give the output directory of a tournament or match", f.watch, err)
	}
	st, err := store.Open(path)
	if err != nil {
		return fmt.Errorf("serve: --watch: %w", err)
	}
	defer st.Close()
	ctx := cmd.Context()
	live := web.NewLive()
	watchCtx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		_ = web.WatchStore(watchCtx, st, live, tournament.LiveEvery, log)
	}()
	defer func() { stopWatch(); <-watched }()
	srv, err := web.New(web.Config{Live: live, Log: log, PublicURL: f.publicURL, TrustProxy: f.trustProxy, Limits: web.DefaultLimits.Shared(f.devicesPerAddress)})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	ln, err := listenLive(f.addr, log)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	log.Info().Str("addr", ln.Addr().String()).Str("watch", path).Msg("serving the live view")
	announce(cmd.OutOrStdout(), "arbiter serve: ", ln.Addr(), " (live view of "+f.watch+")")
	err = srv.Serve(ctx, ln, 5*time.Second)
	if why := interruption(ctx); why != "" {
		log.Info().Str("signal", why).Msg("stopped")
	}
	return err
}
