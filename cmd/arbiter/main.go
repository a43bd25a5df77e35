// Command arbiter is a tournament arbiter and engine-match runner for
// draughts and checkers. Each subcommand lives in its own file.
//
// A command: nothing imports it, and it may import every package of the
// module (it wires the wings, the stores and the HTTP front together).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/draughts-arbiter/arbiter/configs"
)

// Exit statuses scripts can rely on.
const (
	exitOK      = 0
	exitFailed  = 1 // the command ran and found a problem (illegal game, failed test)
	exitUsage   = 2 // bad flags or arguments
	exitRuntime = 3 // the command could not do its job (I/O, engines, database, interrupted, a bug)
)

// usageError marks errors in how the command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usage error.
func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// exitError carries a chosen exit status without a message of its own.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// subcommands registers the subcommands; each file adds its own in init.
var subcommands []func() *cobra.Command

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "arbiter",
		Short: "Tournament arbiter and engine-match runner for draughts and checkers",
		Long: `arbiter plays engines against each other with clocks and honest statistics, referees
games between people on the web (serve) and runs human events (serve, /director).
Quick starts: README.md; a guide per role: docs/ (engine-testing, engines, web-referee,
human-events, check-and-pdn, cluster, internet, egdb, exit-codes, variants).`,
		Example: `  arbiter demo
  arbiter serve
  arbiter match --engine 'cmd=self engine --level 3' --engine 'cmd=self engine --level greedy' --time-control 10+0.1`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{explainFlag(cmd, err)} })
	root.Version = versionText()
	root.SetVersionTemplate("{{.Version}}\n")
	for _, f := range subcommands {
		root.AddCommand(f())
	}
	explainArgs(root)
	return root
}

// explainArgs makes wrong arguments a usage error that says what the
// command takes, with its usage line and first example, where cobra says
// only "accepts 1 arg(s), received 0", or `unknown command "x" for
// "arbiter serve"` of a command that takes none.
func explainArgs(c *cobra.Command) {
	for _, sub := range c.Commands() {
		explainArgs(sub)
	}
	check := c.Args
	if check == nil || c.HasSubCommands() {
		return
	}
	c.Args = func(cmd *cobra.Command, args []string) error {
		err := check(cmd, args)
		if err == nil {
			return nil
		}
		what := err.Error()
		if strings.HasPrefix(what, "unknown command") {
			what = fmt.Sprintf("takes no arguments (got %q)", strings.Join(args, " "))
		}
		example, _, _ := strings.Cut(strings.TrimSpace(cmd.Example), "\n")
		if example != "" {
			example = "; e.g. " + example
		}
		name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ") // the root's name starts every message
		return usagef("%s: %s (usage: %s%s)", name, what, cmd.UseLine(), example)
	}
}

// explainFlag is a flag error that says what to do: the command's flag
// nearest a mistyped one, and where the flags are listed. pflag says only
// "unknown flag: --engine" (of a worker, whose flag is --engines).
func explainFlag(cmd *cobra.Command, err error) error {
	name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	help := fmt.Sprintf("%q lists its flags", cmd.CommandPath()+" --help")
	if !cmd.HasParent() {
		name = "" // the root's name starts every message already
	} else {
		name += ": "
	}
	if typed, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		if near := configs.Closest(typed, names); near != "" {
			return fmt.Errorf("%sunknown flag --%s: did you mean --%s? (%s)", name, typed, near, help)
		}
		return fmt.Errorf("%sunknown flag --%s (%s)", name, typed, help)
	}
	return fmt.Errorf("%s%w (%s)", name, err, help)
}

// versionText is what --version prints: the module version (or
// "(devel)" for a build from a checkout) and the build's VCS revision, from
// the build information the Go toolchain embeds.
func versionText() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "arbiter (no build information)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var rev, when string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	text := "arbiter " + version
	if rev == "" {
		text += ", revision unknown (built without VCS information)"
	} else {
		text += ", revision " + rev
		if when != "" {
			text += " of " + when
		}
		if modified {
			text += " (with uncommitted changes)"
		}
	}
	return text + ", " + info.GoVersion
}

func main() {
	setCrashTraceback()
	if os.Getenv(cpuProfileEnv) == "" {
		// No allocation profile is ever written without the CPU profile:
		// its sampling (a stack walk and a record per 512 KB allocated,
		// in memory never touched before) cost a 200-game match 100 page
		// faults and the walks' CPU for nothing.
		runtime.MemProfileRate = 0
	}
	stop := startCPUProfile()
	code := run(os.Args[1:])
	stop()
	writeSelfStats()
	os.Exit(code)
}

// setCrashTraceback makes what cannot be recovered die of SIGABRT. A Go
// runtime fatal error (concurrent map writes, out of memory, a deadlock)
// cannot be recovered, and neither can a panic in a goroutine that does
// not recover it; the runtime would exit 2, the status of a usage error.
// With traceback "crash" it prints every goroutine's stack and raises
// SIGABRT instead: the process dies of that signal (a shell shows 134),
// which no script can take for a usage error.
func setCrashTraceback() { debug.SetTraceback("crash") }

// gamesGCPercent is the collector's setting (GOGC) for the commands that
// play engine games (match, tournament, demo, worker), unless the user set
// GOGC. Such a process keeps a small live heap (about 1 MB: the running
// games and the store's buffers) and allocates a few KB a ply, so at the
// runtime's 100 it collected about every 3 MB, 20 times in a 200-game
// match of instant engines, for some 30 ms of CPU by the runtime's own
// count (ARBITER_SELF_STATS gc_cpu_ns). At 200 it collects 7 times, for
// 10-19 ms, and the heap's extra 4 MB cost some 300 page faults (about 4 ms
// on the project's virtual machine, where a fresh page costs 12 µs). At 400
// the faults (2,100 more) cost more than the collections saved.
const gamesGCPercent = 200

// tuneRuntimeForGames sets the runtime for a command that plays engine
// games: the collector at gamesGCPercent unless the user set GOGC, and no
// more threads running Go code at once (GOMAXPROCS) than games played here
// at once (localGames; 0 for a coordinator whose games are played by
// workers, which keeps the runtime's default), unless the user set
// GOMAXPROCS.
//
// A game loop spends its time waiting on an engine's pipe; when the reply
// wakes it, a runtime with a second idle processor wakes a second thread
// to look for work too, which finds none and sleeps again: futex calls and
// context switches at every ply, for nothing. With one game at a time and
// one processor for Go code, a 200-game match of instant engines spent
// 6 % less CPU on a quiet machine and 15 to 23 % less beside other work
// (load 2 to 22), where the idle thread's wake-ups also competed with the
// engines for the cores (issue 23; the old and the new binary alternating,
// medians of eight to ten runs each). The engines, in
// processes of their own, keep every processor; a game's clock is read
// when the reply is read, so a busy Go processor could only delay that
// read by what the runtime's preemption allows (well under a millisecond
// for this program's short steps), far inside the time margin.
func tuneRuntimeForGames(localGames int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gamesGCPercent)
	}
	if localGames > 0 && os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(min(localGames, runtime.GOMAXPROCS(0)))
	}
}

// Signals that stop a command: all three alike.
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// annotContext marks the commands that watch cmd.Context() and clean up
// when it is cancelled (tournament, demo, match, report); a signal stops
// any other command at once, with exit status 3.
const annotContext = "arbiter/stops-on-context"

// annotDrain marks the commands that stop gently on a first signal
// (tournament, demo, match): they start no more games, finish the ones in
// progress and write their report (see drainOf); a second signal exits at
// once. They watch their context too.
const annotDrain = "arbiter/drains-on-signal"

// drainer is the first signal of a draining command: ch is closed when it
// comes, sig is which signal it was.
type drainer struct {
	ch  chan struct{}
	mu  sync.Mutex
	sig os.Signal
	// idle: the command's work is done and it only waits for a signal
	// (the live view kept up after the event): that signal ends it with
	// status 0.
	idle bool
}

// lingering marks a draining command's work done (see drainer.idle).
func lingering(ctx context.Context) {
	if d, _ := ctx.Value(drainKey{}).(*drainer); d != nil {
		d.mu.Lock()
		d.idle = true
		d.mu.Unlock()
	}
}

type drainKey struct{}

// drainOf is the drain channel of a command's context (nil for a command
// that does not drain) and a function naming the signal that closed it
// ("" while none has).
func drainOf(ctx context.Context) (<-chan struct{}, func() string) {
	d, _ := ctx.Value(drainKey{}).(*drainer)
	if d == nil {
		return nil, func() string { return "" }
	}
	return d.ch, func() string {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.sig == nil {
			return ""
		}
		return signalName(d.sig)
	}
}

// interrupted is the cancellation cause of the command's context when a
// signal stops it.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string { return "interrupted by " + signalName(e.sig) }

// signalName is the usual name of a stop signal ("SIGTERM").
func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// interruption says what stopped a command whose context is done: "SIGTERM"
// for a signal, "" otherwise.
func interruption(ctx context.Context) string {
	var in interrupted
	if errors.As(context.Cause(ctx), &in) {
		return signalName(in.sig)
	}
	return ""
}

func run(args []string) int { return runWith(args, os.Stderr) }

// runWith runs the command line and returns the exit status. SIGINT,
// SIGTERM and SIGHUP cancel the context of the commands that watch it
// (a second signal exits at once) and stop the others at once; either way
// the status is 3. A panic in the command's own goroutine is a bug of ours:
// it is reported with its stack and gives status 3.
func runWith(args []string, stderr io.Writer) (code int) {
	root := newRoot()
	root.SetArgs(args)
	root.SetErr(stderr)

	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	watches, drains := false, false
	if c, _, err := root.Find(args); err == nil {
		watches = c.Annotations[annotContext] != ""
		drains = c.Annotations[annotDrain] != ""
	}
	drain := &drainer{ch: make(chan struct{})}
	if drains {
		ctx = context.WithValue(ctx, drainKey{}, drain)
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	defer signal.Stop(sigs)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for n := 0; ; n++ {
			var s os.Signal
			select {
			case s = <-sigs:
			case <-done:
				return
			}
			if !watches || n > 0 {
				fmt.Fprintf(stderr, "arbiter: interrupted by %s\n", signalName(s))
				os.Exit(exitRuntime)
			}
			if drains {
				drain.mu.Lock()
				if drain.idle {
					fmt.Fprintf(stderr, "arbiter: %s: stopping the live view\n", signalName(s))
				} else {
					fmt.Fprintf(stderr, "arbiter: %s: finishing the games in progress, then stopping (a second signal exits at once)\n", signalName(s))
					drain.sig = s
				}
				drain.mu.Unlock()
				close(drain.ch)
				continue
			}
			fmt.Fprintf(stderr, "arbiter: %s: stopping (a second signal exits at once)\n", signalName(s))
			cancel(interrupted{s})
		}
	}()

	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "arbiter: internal error (a bug; please report it with this text): panic: %v\n\n%s", v, debug.Stack())
			code = exitRuntime
		}
	}()
	err := root.ExecuteContext(ctx)
	if err == nil {
		why := interruption(ctx)
		if _, sig := drainOf(ctx); why == "" {
			why = sig()
		}
		if why != "" {
			// The command finished its work anyway; the signal still says
			// the run was not wanted to the end.
			fmt.Fprintln(stderr, "arbiter: interrupted by", why)
			return exitRuntime
		}
		return exitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintln(stderr, "arbiter:", err)
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return exitUsage
	}
	return exitRuntime
}

// isCobraUsage recognises cobra's own argument errors (unknown command, arg count).
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "accepts ", "requires at least", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
