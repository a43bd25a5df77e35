package main

import (
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/match/people/online"
	"github.com/draughts-arbiter/arbiter/match/web"
	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
)

func init() { subcommands = append(subcommands, newServeCmd) }

// serveFlags are the flags of `arbiter serve`.
type serveFlags struct {
	addr, db, eventsDB, publicURL, engines, egdb string
	watch                                        string // --watch DIR: the live view of the event run there
	trustProxy                                   bool
	devicesPerAddress                            int
	maxGames                                     int
	logFormat, logLevel                          string
}

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--db FILE] [--events-db FILE] [--public-url URL] [--engines FILE] [--watch DIR]",
		Short: "Referee games between people on the web: a link for each player",
		Long: `serve runs the web referee: / creates a game between people (or against an engine) with a
link for White, Black, the spectators and the arbiter; /director runs a human event (Swiss
or round-robin) from a secret link. Games are kept in --db, events in --events-db (SQLite),
so running games resume after a restart. It listens on loopback unless --addr says
otherwise; links start with --public-url. --watch DIR serves instead the live view of an
engine event another process runs in DIR.
Exit status: 2 usage (flags, the engines file), 3 cannot run or stopped by a signal.

Guide: docs/web-referee.md (events: docs/human-events.md; internet: docs/internet.md)`,
		Example: `  arbiter serve --db arbiter-web.db --events-db arbiter-events.db
  arbiter serve --public-url https://draughts.example.org --trust-proxy --engines configs/demo.yaml
  arbiter serve --watch out/demo --addr 8081`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{annotContext: "yes"},
		RunE:        func(cmd *cobra.Command, args []string) error { return runServe(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (HOST:PORT; port 0 picks a free one)")
	fl.StringVar(&f.db, "db", "arbiter-web.db", "SQLite file of the games")
	fl.StringVar(&f.eventsDB, "events-db", "arbiter-events.db", "SQLite file of the events run by a director (/director)")
	fl.StringVar(&f.egdb, "egdb", "", "directory of endgame databases (arbiter egdb build --dir): an arbiter's link can ask the value of its game's position")
	fl.StringVar(&f.publicURL, "public-url", "", "URL people reach the server at; links start with it")
	fl.StringVar(&f.watch, "watch", "", "serve the live view of the event run in output directory `DIR` (read-only)")
	fl.StringVar(&f.engines, "engines", "", "YAML file (or directory) with the engines: players may choose")
	fl.BoolVar(&f.trustProxy, "trust-proxy", false, "take the client's address from X-Forwarded-For")
	fl.IntVar(&f.maxGames, "max-games", 10000, "games kept running at once")
	fl.IntVar(&f.devicesPerAddress, "devices-per-address", 1, "devices that may share one client address (a club's Wi-Fi reaching the server from one public address): the per-address limits are this many times larger")
	fl.StringVar(&f.logFormat, "log-format", "text", "log format: text or json")
	fl.StringVar(&f.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	return cmd
}

// maxDevicesPerAddress bounds --devices-per-address: a large venue's
// network, not a way to lift the limits altogether.
const maxDevicesPerAddress = 1000

func runServe(cmd *cobra.Command, f serveFlags) error {
	log, err := newLogger(f.logFormat, f.logLevel, cmd.ErrOrStderr())
	if err != nil {
		return usagef("serve: %v", err)
	}
	if f.publicURL != "" {
		if _, err := web.ParsePublicURL(f.publicURL); err != nil {
			return usagef("serve: --public-url: %v", err)
		}
	}
	if _, _, err := net.SplitHostPort(f.addr); err != nil {
		return usagef("serve: --addr %q: want HOST:PORT (%v)", f.addr, err)
	}
	if f.maxGames < 1 {
		return usagef("serve: --max-games must be at least 1")
	}
	if f.devicesPerAddress < 1 || f.devicesPerAddress > maxDevicesPerAddress {
		return usagef("serve: --devices-per-address %d: want 1 (one person an address) to %d", f.devicesPerAddress, maxDevicesPerAddress)
	}
	if f.watch != "" {
		if cmd.Flags().Changed("db") || cmd.Flags().Changed("events-db") || f.engines != "" {
			return usagef("serve: --watch serves an event's live view only; --db, --events-db and --engines are for the web referee")
		}
		return runWatch(cmd, f, log)
	}
	// The built-in engine at each strength is always offered; the
	// operator's engines are added (and replace one of the same name).
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("serve: finding this program for the built-in engine: %w", err)
	}
	engines := online.BuiltInEngines(exe)
	if f.engines != "" {
		more, err := loadEngines(f.engines)
		if err != nil {
			return usageError{fmt.Errorf("serve: --engines: %w", err)}
		}
		maps.Copy(engines, more)
	}

	if f.egdb != "" {
		held, err := egdbInventory(f.egdb)
		if err != nil {
			return usageError{fmt.Errorf("serve: --egdb: %w", err)}
		}
		if len(held) == 0 {
			log.Warn().Str("egdb", f.egdb).Msgf("no endgame database in %s: the arbiters' \"Ask the endgame database\" will answer that there is none; %s",
				f.egdb, egdbDirHint(f.egdb))
		} else {
			log.Info().Str("egdb", f.egdb).Msgf("endgame databases: %s", strings.Join(held, ", "))
		}
	}

	ctx := cmd.Context() // cancelled by SIGINT, SIGTERM or SIGHUP (see runWith)
	hall, err := online.Open(ctx, online.Config{Path: f.db, Engines: engines, Log: log, MaxGames: f.maxGames})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer func() {
		if err := hall.Close(); err != nil {
			log.Error().Err(err).Msg("closing the game store")
		}
	}()
	events, err := director.Open(director.Config{Path: f.eventsDB})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer func() {
		if err := events.Close(); err != nil {
			log.Error().Err(err).Msg("closing the events store")
		}
	}()
	names := hall.Engines()
	srv, err := web.New(web.Config{Hall: hall, Log: log, PublicURL: f.publicURL, TrustProxy: f.trustProxy, Limits: web.DefaultLimits.Shared(f.devicesPerAddress), Engines: names, Director: events, EGDB: f.egdb})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	ln, err := listen(f.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if ip := net.ParseIP(strings.Trim(hostOf(ln.Addr().String()), "[]")); ip != nil && !ip.IsLoopback() && f.publicURL == "" {
		log.Warn().Str("addr", ln.Addr().String()).Msg("listening beyond loopback without --public-url: links use the address each client reached")
	}
	log.Info().Str("addr", ln.Addr().String()).Str("db", f.db).Int("engines", len(names)).Msg("serving")
	if f.publicURL != "" {
		fmt.Fprintf(cmd.OutOrStdout(), "arbiter serve: %s/\n", strings.TrimSuffix(f.publicURL, "/"))
	} else {
		announce(cmd.OutOrStdout(), "arbiter serve: ", ln.Addr(), "")
	}
	err = srv.Serve(ctx, ln, 5*time.Second)
	if why := interruption(ctx); why != "" {
		log.Info().Str("signal", why).Msg("stopped")
	}
	return err
}

// listen listens on addr (TCP); a port in use says so in words.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if addrInUse(err) {
		return nil, fmt.Errorf("%w: another program (perhaps another arbiter) listens there; stop it, or choose another port", err)
	}
	return ln, err
}

// openAt is the address to open for a server listening at addr: itself,
// or, for one listening on every interface (0.0.0.0, ::), where [::]
// opens nothing, this machine's first network address, then the others
// and loopback (what players on the club's network type).
func openAt(addr net.Addr) (first string, others []string) {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return "http://" + addr.String(), nil
	}
	port := strconv.Itoa(tcp.Port)
	var urls []string
	if ifaces, err := net.InterfaceAddrs(); err == nil {
		for _, a := range ifaces {
			ipn, ok := a.(*net.IPNet)
			if !ok || ipn.IP.IsLoopback() || ipn.IP.To4() == nil && !ipn.IP.IsGlobalUnicast() || ipn.IP.IsLinkLocalUnicast() {
				continue
			}
			urls = append(urls, "http://"+net.JoinHostPort(ipn.IP.String(), port))
		}
	}
	urls = append(urls, "http://"+net.JoinHostPort("127.0.0.1", port))
	return urls[0], urls[1:]
}

// announce prints where to open a server: "PREFIX URL/SUFFIX", then a
// line for each other address it answers at.
func announce(w io.Writer, prefix string, addr net.Addr, suffix string) {
	first, others := openAt(addr)
	fmt.Fprintf(w, "%s%s/%s\n", prefix, first, suffix)
	for _, u := range others {
		fmt.Fprintf(w, "%s%s/ (the same server)\n", prefix, u)
	}
}

func hostOf(addr string) string {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return h
}

// loadEngines reads the operator's engines: the `engines:` list of a YAML
// file (or of a directory of them), as `worker --engines` reads it.
func loadEngines(path string) (map[string]online.EngineSpec, error) {
	specs, err := configs.LoadEngines(path, configs.Options{})
	if err != nil {
		return nil, err
	}
	out := make(map[string]online.EngineSpec, len(specs))
	for _, s := range specs {
		out[s.Name] = s
	}
	return out, nil
}

// egdbInventory lists the databases in dir (serve --egdb) as
// "english up to 4 pieces", so that whoever starts the server sees at once
// a mistyped or empty directory, not an arbiter at a board later. A
// directory that is not there is an error saying how to make it.
func egdbInventory(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: `arbiter egdb build --variant V --pieces N --dir %s` makes it", err, dir)
	}
	held := []string{}
	for _, e := range entries {
		v, err := rules.Lookup(e.Name())
		if !e.IsDir() || err != nil {
			continue
		}
		h := egdb.Survey(v, dir)
		if h.Pieces == 0 {
			continue
		}
		s := fmt.Sprintf("%s up to %d pieces", v.Name(), h.Pieces)
		if h.Partial > 0 {
			s += fmt.Sprintf(" (%d of the %d tables of %d pieces: an unfinished build)", h.Partial, h.Of, h.Pieces+1)
		}
		held = append(held, s)
	}
	return held, nil
}

// egdbDirHint says what to give --egdb when dir holds no database: the
// directory above, when dir is one variant's (its tables in it); the one
// below, when a subdirectory holds databases; else the build command.
func egdbDirHint(dir string) string {
	if tables, _ := filepath.Glob(filepath.Join(dir, "*.wdl")); len(tables) > 0 {
		return fmt.Sprintf("%s holds one variant's tables: give the directory above it, --egdb %s", dir, filepath.Dir(filepath.Clean(dir)))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if held, err := egdbInventory(sub); e.IsDir() && err == nil && len(held) > 0 {
			return fmt.Sprintf("%s holds %s: give --egdb %s", sub, strings.Join(held, ", "), sub)
		}
	}
	return fmt.Sprintf("`arbiter egdb build --variant V --pieces N --dir %s` builds one", dir)
}
