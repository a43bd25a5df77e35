package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/match/engines/cb"
)

func init() { subcommands = append(subcommands, newCBHostCmd) }

func newCBHostCmd() *cobra.Command {
	var opts cb.Options
	c := &cobra.Command{
		Use:   "cb-host LIB",
		Short: "Run a CheckerBoard engine library (getmove, enginecommand) as a Hub engine",
		Long: `cb-host loads LIB, a CheckerBoard engine (a shared library exporting getmove and,
optionally, enginecommand: the API of Kingsrow, Cake and most English and Italian
engines), and speaks Hub (version 2) for it on standard input and output. The
arbiter starts it for an engine with protocol cb; it can be run by hand to try an
engine ("hub", "init", "pos pos=...", "level move-time=1", "go think").

The engine's name comes from enginecommand "name", its rules from "get gametype"
(English without it); Hub options are passed on as enginecommand "set NAME VALUE".
"stop" sets getmove's *playnow.

The host keeps the engine inside the arbiter's clock: getmove is given a share
of what the clock allows (the allowance less a reserve for returning the move,
divided by the engine's overshoot, learned move by move), and the host raises
*playnow itself at the deadline, the allowance less that reserve. Each move's
"info" line in the engine log says what it gave (maxtime, deadline), what it
learned (overshoot, stop-latency) and whether it had to stop the engine
(stopped=host; host-stops counts them). --no-guard hands getmove the clock as
it stands and never stops the engine on the host's account. The move is read from the board the engine
returns (as CheckerBoard reads an English engine's move), else from its CBmove,
and passed on as the engine made it. An engine that crashes takes this process
down with it, never the arbiter.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
			lib, err := cb.Load(args[0])
			if err != nil {
				return usagef("cb-host: %v", err)
			}
			out := cmd.OutOrStdout()
			if out == os.Stdout {
				if f, err := hubOutput(); err == nil {
					out = f
				}
			}
			if err := cb.Serve(lib, cmd.InOrStdin(), out, opts); err != nil {
				return fmt.Errorf("cb-host: %w", err)
			}
			// Quit while getmove may still run: exit without waiting for it.
			os.Exit(exitOK)
			return nil
		},
	}
	c.Flags().BoolVar(&opts.NoGuard, "no-guard", false, "never stop the engine on the host's account (it keeps its own time, as under CheckerBoard)")
	return c
}
