package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/cluster"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/engines/tournament"
	"github.com/draughts-arbiter/arbiter/match/schedule"
)

func init() { subcommands = append(subcommands, newWorkerCmd, newNATSServerCmd) }

// natsFlags say how to reach NATS (tournament --nats, worker).
type natsFlags struct {
	url    string
	listen string // for --nats embedded
	o      cluster.ConnOptions
}

func (nf *natsFlags) register(fs *pflag.FlagSet, embedded bool) {
	usage := "NATS server URL (nats://host:4222)"
	if embedded {
		usage = "play the event on cluster workers through this NATS server (nats://host:4222), or \"embedded\" to start one here (see --nats-listen)"
		fs.StringVar(&nf.listen, "nats-listen", "127.0.0.1:4222", "with --nats embedded: where the server listens for workers (its JetStream files go to OUT/nats)")
	}
	fs.StringVar(&nf.url, "nats", "", usage)
	fs.StringVar(&nf.o.Creds, "nats-creds", "", "NATS credentials file (user JWT and nkey seed)")
	fs.StringVar(&nf.o.NKey, "nats-nkey", "", "NATS nkey seed file")
	fs.StringVar(&nf.o.User, "nats-user", "", "NATS user name")
	fs.StringVar(&nf.o.Password, "nats-password", "", "NATS password (better: $ARBITER_NATS_PASSWORD)")
	fs.StringVar(&nf.o.Token, "nats-token", "", "NATS token (better: $ARBITER_NATS_TOKEN)")
	fs.StringVar(&nf.o.TLSCA, "nats-tls-ca", "", "CA certificate to verify the NATS server with (implies TLS)")
	fs.StringVar(&nf.o.TLSCert, "nats-tls-cert", "", "client certificate for NATS (mutual TLS)")
	fs.StringVar(&nf.o.TLSKey, "nats-tls-key", "", "client certificate's key for NATS")
}

// connect connects as name; secrets may come from the environment.
func (nf *natsFlags) connect(name string, log zerolog.Logger) (*nats.Conn, error) {
	o := nf.o
	o.URL, o.Name, o.Log = nf.url, name, log
	if o.Password == "" {
		o.Password = os.Getenv("ARBITER_NATS_PASSWORD")
	}
	if o.Token == "" {
		o.Token = os.Getenv("ARBITER_NATS_TOKEN")
	}
	return cluster.Connect(o)
}

// clusterFlags are the tournament's cluster options.
type clusterFlags struct {
	natsFlags
	ackWait   time.Duration
	scaleTime bool
}

func (cf *clusterFlags) register(fs *pflag.FlagSet) {
	cf.natsFlags.register(fs, true)
	fs.BoolVar(&cf.scaleTime, "nats-scale-time", false, "scale the time controls on each worker by its speed against this machine's (a short benchmark; the factor goes into each game's PDN)")
	fs.DurationVar(&cf.ackWait, "nats-ack-wait", cluster.DefaultAckWait, "a game whose worker gives no news for this long goes to another worker")
}

// clusterRun is a tournament's coordinator and what it holds open.
type clusterRun struct {
	coord  *cluster.Coordinator
	nc     *nats.Conn
	server *cluster.Server
}

// startCluster makes the coordinator of ev when --nats is given (nil
// otherwise): the store gets the event first, as its creation time is part
// of the event's id in the cluster.
func startCluster(ctx context.Context, cf clusterFlags, ev *configs.Event, st *store.Store, log zerolog.Logger) (*clusterRun, error) {
	if cf.url == "" {
		return nil, nil
	}
	if ev.Schedule.Kind == schedule.Swiss {
		// The coordinator publishes a plan made in advance; a Swiss is
		// paired round by round.
		return nil, usagef("tournament: --nats: a Swiss event (tournament: swiss) is played on this machine only, not on a cluster")
	}
	cr := &clusterRun{}
	if cf.url == "embedded" {
		host, port, err := net.SplitHostPort(cf.listen)
		n, perr := strconv.Atoi(port)
		if err != nil || perr != nil {
			return nil, usagef("tournament: --nats-listen %q: want host:port", cf.listen)
		}
		if cr.server, err = cluster.StartServer(filepath.Join(ev.Out, "nats"), host, n); err != nil {
			return nil, err
		}
		cf.url = cr.server.URL()
		log.Info().Str("url", cf.url).Msg("embedded NATS server: workers connect with --nats " + cf.url)
	}
	sched, err := schedule.New(ev.Schedule)
	if err != nil {
		cr.close()
		return nil, err
	}
	if err := st.Init(ctx, tournament.EventRecord(ev, len(sched.All()))); err != nil {
		cr.close()
		return nil, err
	}
	if cr.nc, err = cf.connect("arbiter coordinator: "+ev.Name, log); err != nil {
		cr.close()
		return nil, err
	}
	if cr.coord, err = cluster.NewCoordinator(ctx, cr.nc, ev, st, cluster.CoordinatorOptions{AckWait: cf.ackWait, ScaleTime: cf.scaleTime, Log: log}); err != nil {
		if !cr.nc.IsConnected() && ctx.Err() == nil {
			// The setup's own error is only "context deadline exceeded".
			err = fmt.Errorf("tournament: %s; --nats embedded starts one in this process (%w)", cluster.NotAnswering(cf.url), err)
		}
		cr.close()
		return nil, err
	}
	return cr, nil
}

// executor is the runner's executor (nil: local games).
func (cr *clusterRun) executor() tournament.Executor {
	if cr == nil {
		return nil
	}
	return cr.coord
}

// context is the run's context. A coordinator told to stop gently (a
// first signal: opt.Drain) leaves at once: every unfinished game is in
// progress on the workers, whose results wait for the next run; a drain
// would wait for them all.
func (cr *clusterRun) context(ctx context.Context, opt *tournament.Options) (context.Context, func()) {
	if cr == nil || opt.Drain == nil {
		return ctx, func() {}
	}
	drain := opt.Drain
	opt.Drain = nil
	rctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-drain:
			cancel()
		case <-rctx.Done():
		}
	}()
	return rctx, cancel
}

// finish withdraws the games left when the SPRT stopped the event.
func (cr *clusterRun) finish(sum *tournament.Summary, log zerolog.Logger) error {
	if cr == nil || sum == nil || sum.Stopped == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := cr.coord.Stop(ctx, sum.Stopped); err != nil {
		return fmt.Errorf("tournament: withdrawing the games left from the workers: %w", err)
	}
	log.Info().Msg("the games left are withdrawn from the workers")
	return nil
}

// workers prints how many of the event's games each worker played.
func (cr *clusterRun) workers(ctx context.Context, st *store.Store, w io.Writer) error {
	if cr == nil {
		return nil
	}
	n := map[string]int{}
	if err := st.Games(ctx, store.ReadOptions{NoPDN: true, NoTimes: true}, func(g store.Game) error { n[g.Worker]++; return nil }); err != nil {
		return err
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(n)) {
		who := name
		if who == "" {
			who = "(this machine)"
		}
		parts = append(parts, fmt.Sprintf("%s %d", who, n[name]))
	}
	fmt.Fprintf(w, "workers: %s\n", strings.Join(parts, ", "))
	return nil
}

func (cr *clusterRun) close() {
	if cr == nil {
		return
	}
	if cr.coord != nil {
		cr.coord.Close()
	}
	if cr.nc != nil {
		cr.nc.Drain()
	}
	if cr.server != nil {
		cr.server.Shutdown()
	}
}

func newWorkerCmd() *cobra.Command {
	var (
		nf          natsFlags
		concurrency int
		engines     string
		name        string
		logFormat   string
		logLevel    string
		engineLog   string
	)
	cmd := &cobra.Command{
		Use:   "worker --nats URL --engines PATH [--concurrency N] [--name NAME]",
		Short: "Play the games of cluster events (tournament --nats) on this machine",
		Long: `worker plays the games of cluster events (arbiter tournament --nats URL) on this machine
and sends each result to its coordinator. It runs only the engines defined here (--engines:
a config's engines: list or a directory of them), and only the same build as the
coordinator's. A worker that stops or dies loses nothing: its games go to another worker.
Exit status: 0 stopped by a signal, 2 usage or configuration, 3 runtime failure.

Guide: docs/cluster.md`,
		Example: `  arbiter worker --nats nats://127.0.0.1:4222 --engines configs/demo.yaml
  arbiter worker --nats nats://coordinator:4222 --engines engines/ --concurrency 4 --name box2 --nats-creds worker.creds`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{annotContext: "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if nf.url == "" {
				return usagef("worker: --nats URL is required")
			}
			if engines == "" {
				return usagef("worker: --engines PATH is required (the engines this worker may run, by name)")
			}
			if concurrency < 1 {
				return usagef("worker: --concurrency %d: want at least 1", concurrency)
			}
			tuneRuntimeForGames(concurrency)
			log, err := newLogger(logFormat, logLevel, cmd.ErrOrStderr())
			if err != nil {
				return usagef("worker: %v", err)
			}
			specs, err := configs.LoadEngines(engines, configs.Options{})
			if err != nil {
				return usageError{err}
			}
			if name == "" {
				host, _ := os.Hostname()
				name = fmt.Sprintf("%s-%d", host, os.Getpid())
			}
			elog := zerolog.Nop()
			if engineLog != "" {
				f, err := os.OpenFile(engineLog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
				if err != nil {
					return fmt.Errorf("worker: %w", err)
				}
				defer f.Close()
				elog = zerolog.New(f).With().Timestamp().Logger()
			}
			nc, err := nf.connect("arbiter worker "+name, log)
			if err != nil {
				return err
			}
			defer nc.Close()
			err = cluster.RunWorker(cmd.Context(), nc, cluster.WorkerOptions{Name: name, Concurrency: concurrency, Engines: specs, Log: log, EngineLog: elog})
			if err != nil {
				return err
			}
			if why := interruption(cmd.Context()); why != "" {
				log.Info().Str("signal", why).Msg("worker stopped; its games in progress went back to the stream")
				return exitError{exitOK}
			}
			return nil
		},
	}
	fs := cmd.Flags()
	nf.register(fs, false)
	fs.IntVar(&concurrency, "concurrency", 1, "games played at once")
	fs.StringVar(&engines, "engines", "", "the engines this worker may run: a YAML file with an engines: list (an event's config will do) or a directory of them")
	fs.StringVar(&name, "name", "", "the worker's name in the coordinator's report (default host-pid)")
	fs.StringVar(&logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&engineLog, "engine-log", "", "write every engine's protocol exchange to this file")
	return cmd
}

func newNATSServerCmd() *cobra.Command {
	var listen, dir string
	cmd := &cobra.Command{
		Use:   "nats-server [--listen HOST:PORT] [--store DIR]",
		Short: "Run an embedded NATS server with JetStream (for a small cluster or the demo)",
		Long: `nats-server runs the built-in NATS server with JetStream, storing under --store, until a
signal stops it. It has no authentication: for other machines run a configured nats-server
with TLS and credentials.

Guide: docs/cluster.md`,
		Example: `  arbiter nats-server
  arbiter nats-server --listen 127.0.0.1:4223 --store out/nats`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{annotContext: "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			host, port, err := net.SplitHostPort(listen)
			n, perr := strconv.Atoi(port)
			if err != nil || perr != nil {
				return usagef("nats-server: --listen %q: want host:port", listen)
			}
			s, err := cluster.StartServer(dir, host, n)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "nats-server: listening on", s.URL())
			<-cmd.Context().Done()
			s.Shutdown()
			return exitError{exitOK}
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:4222", "address to listen on")
	cmd.Flags().StringVar(&dir, "store", "out/nats", "JetStream storage directory")
	return cmd
}
