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
		Long: `cb-host loads LIB, a CheckerBoard engine library (getmove and enginecommand: Kingsrow,
Cake, most English and Italian engines), and speaks Hub version 2 for it on standard input
and output, keeping it inside the arbiter's clock. The arbiter starts it for an engine with
proto=cb; run it by hand to try an engine ("hub", "init", "level move-time=1", "go think").

Guide: docs/engines.md`,
		Example: `  arbiter cb-host ./kingsrow.so
  arbiter cb-host --no-guard /opt/cake/cake.so`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
			out := cmd.OutOrStdout()
			if out == os.Stdout && hubOutputFirst {
				if f, err := hubOutput(); err == nil {
					out = f
				}
			}
			lib, err := cb.Load(args[0])
			if err != nil {
				return usagef("cb-host: %v", err)
			}
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
