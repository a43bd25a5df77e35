package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/internal/filelock"
	"github.com/draughts-arbiter/arbiter/internal/sqlitefile"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/engines/tournament"
	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/match/web"
	"github.com/draughts-arbiter/arbiter/reports"
)

func init() { subcommands = append(subcommands, newTournamentCmd) }

// tournamentFlags are the options shared by `tournament` and `demo`.
type tournamentFlags struct {
	sets      []string
	logFormat string
	logLevel  string
	progress  string
	engineLog bool
	noReport  bool
	cluster   clusterFlags
	force     bool

	forceConcurrency bool
	serve            string // --serve ADDR: the live view

	// Set by match, the other front of the same runner:
	command       string             // the command's name in messages ("" = tournament)
	aliases       []configs.Override // old flag names, laid under the flags
	engineLogPath string             // the engine log's path (--log-dir), instead of engines.log in the output directory
	pdnCopy       string             // also copy games.pdn here (--pdn)
}

// name is the command's name for messages.
func (tf *tournamentFlags) name() string {
	if tf.command == "" {
		return "tournament"
	}
	return tf.command
}

func (tf *tournamentFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&tf.sets, "set", nil, "override any config key: --set key=value (dotted keys; engines by index or name, e.g. engines.0.time_control=60+1)")
	fs.StringVar(&tf.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&tf.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&tf.progress, "progress", "auto", "the standings while the event runs: auto (on a terminal redrawn in place under a progress bar, else a plain line every few games), on (always in place), plain or off")
	fs.BoolVar(&tf.engineLog, "engine-log", false, "write every engine's protocol exchange to engines.log in the output directory")
	fs.BoolVar(&tf.noReport, "no-report", false, "do not write the report at the end")
	tf.cluster.register(fs)
	fs.BoolVar(&tf.forceConcurrency, "force-concurrency", false, "run more games at once than the machine has processors for (concurrency x the engines' threads option)")
	fs.StringVar(&tf.serve, "serve", "", "serve a live view of the event at `ADDR` while it runs, and its final state after it until Ctrl-C (HOST:PORT or PORT, e.g. 8080; loopback unless HOST says otherwise)")
	fs.BoolVar(&tf.force, "force", false, "resume an event whose engines' commands changed even when an engine is not the same (its Hub id and version)")
	// One flag per config key: --concurrency, --out, --rounds, --openings-seed, ...
	for _, k := range configs.FlagKeys() {
		usage := "override config key " + k.Key
		if k.Default != "" {
			usage += " (default " + k.Default + ")"
		}
		switch k.Kind {
		case reflect.Int:
			fs.Int(k.Flag, 0, usage)
		case reflect.Uint64:
			fs.Uint64(k.Flag, 0, usage)
		case reflect.Float64:
			fs.Float64(k.Flag, 0, usage)
		case reflect.Bool:
			fs.Bool(k.Flag, false, usage)
		default:
			fs.String(k.Flag, "", usage)
		}
	}
}

// overrides collects the flags that were given, then the --set values.
func (tf *tournamentFlags) overrides(fs *pflag.FlagSet) ([]configs.Override, error) {
	out := append([]configs.Override(nil), tf.aliases...)
	for _, k := range configs.FlagKeys() {
		f := fs.Lookup(k.Flag)
		if f == nil || !f.Changed {
			continue
		}
		var v any
		var err error
		switch k.Kind {
		case reflect.Int:
			v, err = fs.GetInt(k.Flag)
		case reflect.Uint64:
			v, err = fs.GetUint64(k.Flag)
		case reflect.Float64:
			v, err = fs.GetFloat64(k.Flag)
		case reflect.Bool:
			v, err = fs.GetBool(k.Flag)
		default:
			v = f.Value.String()
		}
		if err != nil {
			return nil, err
		}
		out = append(out, configs.Override{Key: k.Key, Value: v, Source: "--" + k.Flag})
	}
	for _, kv := range tf.sets {
		o, err := configs.ParseSet(kv)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func newTournamentCmd() *cobra.Command {
	var (
		file string
		tf   tournamentFlags
	)
	cmd := &cobra.Command{
		Use:   "tournament [-c] FILE [--key value ...] [--set key=value ...]",
		Short: "Run (or resume) a tournament described by a YAML config",
		Long: `tournament runs (or resumes) the event a YAML config describes: the engines, the rules,
the clock, the openings, a round-robin, gauntlet or Swiss, up to --concurrency games at
once. Every finished game is committed to arbiter.db in the output directory, so the same
command resumes the event; at the end it writes report.html, results.json and games.pdn
there. Any config key can be overridden: the common ones by a flag of their own, any one
with --set key=value.
Exit status: 0 done, 2 bad config or usage, 3 runtime failure or interrupted.

Guide: docs/engine-testing.md (every config key: configs/README.md)`,
		Example: `  arbiter tournament -c configs/demo.yaml --out out/demo --concurrency 2
  arbiter tournament -c configs/english-wcdf.yaml --time-control 60+1 --set engines.1.options.hash=64`,
		// The config may also come as the one argument: "arbiter
		// tournament event.yaml" is what a newcomer types first.
		Args:        cobra.MaximumNArgs(1),
		Annotations: map[string]string{annotContext: "yes", annotDrain: "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if file != "" && file != args[0] {
					return usagef("tournament: two configs (-c %s and %s): give one", file, args[0])
				}
				file = args[0]
			}
			if file == "" {
				return usagef("tournament: -c FILE is required (shipped configs: %s)", strings.Join(configs.Shipped(), ", "))
			}
			over, err := tf.overrides(cmd.Flags())
			if err != nil {
				return usagef("tournament: %v", err)
			}
			ev, err := loadTournament(cmd.Context(), file, over)
			if err != nil {
				return usageError{err}
			}
			return runTournament(cmd, ev, tf)
		},
	}
	cmd.Flags().StringVarP(&file, "config", "c", "", "the event's YAML config file")
	tf.register(cmd.Flags())
	return cmd
}

// loadTournament loads the event of `arbiter tournament`: without an
// opening book it takes the variant's default one, as `match` does
// (deterministic engines would replay the same pair in every encounter),
// unless its output directory holds the same event begun from the start
// position by an arbiter that did not take it: that one resumes as it was
// begun, not refused as another configuration.
func loadTournament(ctx context.Context, file string, over []configs.Override) (*configs.Event, error) {
	ev, err := configs.Load(file, configs.Options{Overrides: over, DefaultBook: true})
	if err != nil || ev.DefaultBook == "" {
		return ev, err
	}
	stored := storedHash(ctx, ev.Out)
	if stored == "" || stored == ev.Hash {
		return ev, nil
	}
	if old, err := configs.Load(file, configs.Options{Overrides: over}); err == nil && old.Hash == stored {
		return old, nil
	}
	return ev, nil
}

// storedHash is the configuration hash of the event in output directory
// out, "" when there is none (or it cannot be read: opening the output
// says why).
func storedHash(ctx context.Context, out string) string {
	if _, err := os.Stat(filepath.Join(out, store.FileName)); err != nil {
		return ""
	}
	st, err := store.OpenDir(out)
	if err != nil {
		return ""
	}
	defer st.Close()
	sev, err := st.Event(ctx)
	if err != nil {
		return ""
	}
	return sev.ConfigHash
}

// newLogger makes the console logger.
func newLogger(format, level string, w io.Writer) (zerolog.Logger, error) {
	lv, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		return zerolog.Nop(), fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	switch format {
	case "json":
		return zerolog.New(w).Level(lv).With().Timestamp().Logger(), nil
	case "text":
		// Colours only on a terminal: a pipe, a file or CI gets plain text.
		return zerolog.New(zerolog.ConsoleWriter{Out: w, TimeFormat: time.TimeOnly, NoColor: !isTerminal(w)}).Level(lv).With().Timestamp().Logger(), nil
	}
	return zerolog.Nop(), fmt.Errorf("--log-format %q: want text or json", format)
}

// isTerminal reports whether w is a terminal (a console writer's colours
// and cursor codes are for terminals only). A *tournament.Console is as
// its own writer is.
func isTerminal(w io.Writer) bool {
	if c, ok := w.(interface{ Live() bool }); ok {
		return c.Live()
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// runTournament runs a resolved event and writes its report: the one
// runner behind tournament, demo and match.
//
// The runtime is tuned for playing games (tuneRuntimeForGames): the
// collector, and one processor for Go code per game played here at once.
func runTournament(cmd *cobra.Command, ev *configs.Event, tf tournamentFlags) error {
	localGames := ev.Concurrency
	if tf.cluster.url != "" {
		localGames = 0 // played by the workers
	}
	tuneRuntimeForGames(localGames)
	stderr := cmd.ErrOrStderr()
	name := tf.name()
	console, log, liveAt, err := tf.setUp(ev, stderr)
	if err != nil {
		return err
	}
	ctx := cmd.Context() // cancelled by SIGINT, SIGTERM or SIGHUP (see runWith)
	ids, err := tf.preflight(ctx, ev)
	if err != nil {
		return err
	}
	st, closeOut, err := tf.openOutput(ctx, ev, ids, stderr)
	if err != nil {
		return err
	}
	defer closeOut()
	engineLog, closeLog, err := tf.openEngineLog(ev)
	if err != nil {
		return err
	}
	defer closeLog()
	out := cmd.OutOrStdout()
	start := log.Info().Str("event", ev.Name).Str("config", ev.File).Str("out", ev.Out).Int("engines", len(ev.Engines)).
		Int("concurrency", ev.Concurrency).Str("variant", ev.Variant.Name()).Str("time_control", tcLabel(ev.TimeControl))
	if ev.DefaultBook != "" {
		// The configuration named no book: say which one the games start
		// from, and how to choose another.
		start = start.Str("openings", ev.DefaultBook+" (the variant's default; openings.file or --openings-file chooses another)")
	}
	start.Msg(name)
	drain, drainedBy := drainOf(ctx)
	opt := tournament.Options{Event: ev, Store: st, Log: log, EngineLog: engineLog, Console: console, Drain: drain}
	var ls *liveServer
	if liveAt != "" {
		live := web.NewLive()
		if ls, err = startLive(liveAt, live, log, stderr, name); err != nil {
			return err
		}
		defer ls.stop()
		opt.Observer = live
	}
	if tf.command == "match" {
		opt.OnResult = gameLine(out)
	}
	cr, err := startCluster(ctx, tf.cluster, ev, st, log)
	if err != nil {
		return err
	}
	defer cr.close()
	opt.Executor = cr.executor()
	runCtx, stopRun := cr.context(ctx, &opt)
	defer stopRun()
	sum, err := tournament.Run(runCtx, opt)
	if ferr := cr.finish(sum, log); ferr != nil && err == nil {
		err = ferr
	}
	stopped, err := tf.runError(ctx, ev, sum, err, drainedBy, out)
	if err != nil {
		return err
	}
	printSummary(out, stderr, ev, sum)
	if err := cr.workers(ctx, st, out); err != nil {
		return err
	}
	if sum.Match != nil {
		tournament.WriteMatchSummary(out, sum.Match)
	}
	if err := tf.writeOutputs(cmd.Context(), ev, st, out); err != nil {
		return err
	}
	if stopped != nil {
		return stopped
	}
	ls.linger(ctx, drain, out, name, ev.Out)
	return neverStarted(name+": games recorded (as losses), but no game got going with: ", sum.NeverStarted)
}

// setUp reads the flags that shape the run before anything starts: the
// console (on a terminal the standings are redrawn in place under a
// progress bar, and the log goes above them; off one a plain line every
// few games), the logger, the live view's address, and what a cluster
// cannot play. It prints the configuration's warnings.
func (tf *tournamentFlags) setUp(ev *configs.Event, stderr io.Writer) (*tournament.Console, zerolog.Logger, string, error) {
	name := tf.name()
	var console *tournament.Console
	logTo := stderr
	switch tf.progress {
	case "on", "auto":
		live := tf.progress == "on" || isTerminal(stderr) && tf.logFormat == "text"
		console = tournament.NewConsole(stderr, live)
		if live {
			logTo = console
		}
	case "plain":
		console = tournament.NewConsole(stderr, false)
	case "off":
	default:
		return nil, zerolog.Logger{}, "", usagef("%s: --progress %q: want auto, on, plain or off", name, tf.progress)
	}
	log, err := newLogger(tf.logFormat, tf.logLevel, logTo)
	if err != nil {
		return nil, log, "", usagef("%s: %v", name, err)
	}
	liveAt := ""
	if tf.serve != "" {
		if liveAt, err = liveAddr(tf.serve); err != nil {
			return nil, log, "", usagef("%s: %v", name, err)
		}
	}
	if tf.cluster.url != "" && ev.Schedule.Kind == schedule.Swiss {
		// Refused here, before the output directory, its lock and its
		// database are made: a refused command leaves nothing behind.
		// (startCluster refuses it too, for any other caller.)
		return nil, log, "", usagef("%s: --nats: a Swiss event (tournament: swiss) is played on this machine only, not on a cluster", name)
	}
	for _, w := range ev.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	return console, log, liveAt, nil
}

// preflight starts every engine once before anything is written: one that
// cannot play is a mistake in the configuration, not a string of lost
// games. A machine with too few processors for the event's concurrency is
// refused first. On a cluster the engines run on the workers: nothing to
// start here.
func (tf *tournamentFlags) preflight(ctx context.Context, ev *configs.Event) ([]store.Identity, error) {
	name := tf.name()
	remote := tf.cluster.url != ""
	if need, why := tournament.CPUs(ev); need > runtime.NumCPU() && !tf.forceConcurrency && !remote {
		return nil, usagef("%s: %s needs %d processors and this machine has %d: engines would lose on time through no fault of their own "+
			"(lower --concurrency, or give --force-concurrency to run anyway)", name, why, need, runtime.NumCPU())
	}
	if remote {
		return nil, nil
	}
	ids, err := tournament.Preflight(ctx, ev, zerolog.Nop())
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s interrupted%s while starting the engines: %w", name, by(ctx), err)
		}
		return nil, usageError{fmt.Errorf("%s: %w", name, err)}
	}
	return ids, nil
}

// openOutput makes the output directory, locks it (one event per output
// directory at a time: a second one would play the same games), opens its
// database and reconciles it with the event (a resumed run). closeOut
// closes the database and unlocks.
func (tf *tournamentFlags) openOutput(ctx context.Context, ev *configs.Event, ids []store.Identity, stderr io.Writer) (st *store.Store, closeOut func(), err error) {
	if err := os.MkdirAll(ev.Out, 0o755); err != nil {
		return nil, nil, fmt.Errorf("%s: output directory: %w", tf.name(), err)
	}
	unlock, err := lockDir(ev.Out)
	if err != nil {
		return nil, nil, err
	}
	st, err = store.OpenDir(ev.Out)
	if err != nil {
		unlock()
		return nil, nil, err
	}
	closeOut = func() {
		st.Close()
		unlock()
	}
	notes, err := tournament.Reconcile(ctx, st, ev, ids, tf.force)
	if err != nil {
		closeOut()
		if errors.Is(err, store.ErrConfigMismatch) {
			return nil, nil, usageError{err}
		}
		return nil, nil, err
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "warning: resuming with another command: %s\n", n)
	}
	return st, closeOut, nil
}

// openEngineLog opens the log of what the engines said (--engine-log:
// engines.log in the output directory; match's --log-dir: a path of its
// own), or a logger that writes nothing.
func (tf *tournamentFlags) openEngineLog(ev *configs.Event) (zerolog.Logger, func(), error) {
	if !tf.engineLog && tf.engineLogPath == "" {
		return zerolog.Nop(), func() {}, nil
	}
	name := tf.name()
	path := tf.engineLogPath
	if path == "" {
		path = filepath.Join(ev.Out, "engines.log")
	} else if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return zerolog.Nop(), nil, fmt.Errorf("%s: engine log: %w", name, err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return zerolog.Nop(), nil, fmt.Errorf("%s: engine log: %w", name, err)
	}
	return zerolog.New(f).With().Timestamp().Logger(), func() { f.Close() }, nil
}

// gameLine prints a line per game, in plan order, as the match always
// printed.
func gameLine(out io.Writer) func(tournament.Result) {
	return func(r tournament.Result) {
		fmt.Fprintf(out, "game %d: %s - %s %s (%s: %s) plies=%d", r.Index+1, r.WhiteName, r.BlackName, r.Result, r.Termination, r.Reason, r.Plies)
		// A game whose moves came without a search time (DXP) has no
		// latency to print; a game of no moves has none either.
		if !r.Resumed && r.LatencyMoves > 0 {
			fmt.Fprintf(out, " latency=%s max=%s", r.Latency.Round(10*time.Microsecond), r.MaxLatency.Round(10*time.Microsecond))
		}
		fmt.Fprintln(out)
	}
}

// runError reads how the run ended. The first signal drains the run: the
// report is still written, then stopped is the command's error. An
// interruption or a refused resume is the error itself (err), with the
// score so far for a match.
func (tf *tournamentFlags) runError(ctx context.Context, ev *configs.Event, sum *tournament.Summary, err error, drainedBy func() string, out io.Writer) (stopped, _ error) {
	name := tf.name()
	resume := "run the same command again to resume"
	if tf.command == "match" {
		resume = "run the same command with --out " + ev.Out + " to resume"
	}
	if errors.Is(err, tournament.ErrDrained) {
		return fmt.Errorf("%s stopped by %s after finishing the games in progress: %d of %d games finished; %s",
			name, drainedBy(), sum.Resumed+sum.Played, sum.Planned, resume), nil
	}
	switch {
	case err == nil:
		return nil, nil
	case errors.Is(err, store.ErrConfigMismatch):
		return nil, usageError{err}
	case errors.Is(err, context.Canceled):
		by := by(ctx)
		if sum == nil {
			// Interrupted before the runner had read the database.
			return nil, fmt.Errorf("%s interrupted%s before any game; %s: %w", name, by, resume, err)
		}
		if sum.Match != nil {
			tournament.WriteMatchSummary(out, sum.Match)
		}
		// Resumed+Played, not Finished: Finished counts results in plan
		// order, and a game may finish before the one planned ahead of it.
		return nil, fmt.Errorf("%s interrupted%s with %d of %d games finished (the games in progress are played again by the next run); %s",
			name, by, sum.Resumed+sum.Played, sum.Planned, resume)
	}
	if reason, ok := sqlitefile.CannotWrite(err); ok && sum != nil {
		// A full disk stops the event; what was stored is safe, and the
		// same command goes on from there once the disk takes writes.
		return nil, fmt.Errorf("%w\n%s stopped: %s; the %d games finished are kept in %s: make room (or mend the disk) and %s",
			err, name, reason, sum.Resumed+sum.Played, ev.Out, resume)
	}
	return nil, err
}

// printSummary prints the end of a run: the engines' changes again (where
// the log of a long run does not bury them), the count of games, the
// standings and the latency the engines were not charged.
func printSummary(out, stderr io.Writer, ev *configs.Event, sum *tournament.Summary) {
	for _, c := range sum.EngineChanges {
		fmt.Fprintf(stderr, "warning: %s\n", c)
	}
	fmt.Fprintf(out, "%s: %d of %d games finished (%d in this run, %d earlier) in %s\n",
		ev.Name, sum.Finished, sum.Planned, sum.Played, sum.Resumed, sum.Elapsed.Round(time.Millisecond))
	if sum.Stopped != "" {
		fmt.Fprintf(out, "stopped early: %s\n", sum.Stopped)
	}
	if sum.SPRT != nil && sum.SPRT.Failure != "" {
		fmt.Fprintf(stderr, "warning: SPRT: LLR not computed: %s\n", sum.SPRT.Failure)
	}
	sum.Standings.Write(out)
	if l := sum.Latency; l.Moves > 0 {
		fmt.Fprintf(out, "latency not reported as thinking: %s per move on average, at most %s (game %d)\n",
			(l.Total / time.Duration(l.Moves)).Round(time.Microsecond), l.Max.Round(time.Microsecond), l.MaxGame)
	}
	for _, h := range sum.HostStops {
		fmt.Fprintf(out, "%s: its CheckerBoard host stopped the search to keep it inside its clock in %d of %d moves (stopped=host in its engine log)\n",
			h.Engine, h.Stopped, h.Moves)
	}
}

// writeOutputs writes the report (unless --no-report) and the copy of the
// games' PDN (--pdn, which needs the report's files).
func (tf *tournamentFlags) writeOutputs(ctx context.Context, ev *configs.Event, st *store.Store, out io.Writer) error {
	if !tf.noReport || tf.pdnCopy != "" {
		if err := tournament.WriteReport(ctx, st, ev.Out); err != nil {
			if reason, ok := sqlitefile.CannotWrite(err); ok {
				return fmt.Errorf("%w\nthe report was not written (%s); the games are safe in %s: make room and run \"arbiter report %s\" to write it", err, reason, ev.Out, ev.Out)
			}
			return err
		}
		fmt.Fprintf(out, "report: %s\n", tournament.ReportPath(ev.Out))
	}
	if tf.pdnCopy != "" {
		if err := copyFile(filepath.Join(ev.Out, reports.PDNFile), tf.pdnCopy); err != nil {
			return fmt.Errorf("%s: --pdn: %w", tf.name(), err)
		}
	}
	return nil
}

// by is " by SIGTERM" when a signal stopped the command, "" otherwise.
func by(ctx context.Context) string {
	if sig := interruption(ctx); sig != "" {
		return " by " + sig
	}
	return ""
}

// neverStarted is the error (exit status 3) for engines that failed every
// start of a game: their games are recorded as losses, but a script must
// not take the run for a test of those engines.
func neverStarted(prefix string, engines []string) error {
	if len(engines) == 0 {
		return nil
	}
	return errors.New(prefix + strings.Join(engines, "; "))
}

// lockDir takes an exclusive lock on dir/arbiter.lock (released when the
// process ends, however it ends).
func lockDir(dir string) (func(), error) {
	path := filepath.Join(dir, "arbiter.lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("tournament: %w", err)
	}
	if err := filelock.TryLock(f); err != nil {
		f.Close()
		if errors.Is(err, filelock.ErrLocked) {
			return nil, fmt.Errorf("tournament: another tournament is running in %s (%s is locked): wait for it to end, stop it (Ctrl-C where it runs; it resumes with the same command), or give this one another --out", dir, path)
		}
		return nil, fmt.Errorf("tournament: lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
