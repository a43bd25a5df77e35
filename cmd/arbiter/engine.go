package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/match/engines/sparring"
	"github.com/draughts-arbiter/arbiter/rules"
)

func init() { subcommands = append(subcommands, newEngineCmd) }

func newEngineCmd() *cobra.Command {
	var (
		variant, level, name  string
		seed                  uint64
		faults                []string
		dxpListen, dxpConnect string
		slowTime              time.Duration
		hub1                  bool
	)
	cmd := &cobra.Command{
		Use:   "engine [--variant V] [--level random|greedy|N] [--seed S] [--fault F]... [--hub1 | --dxp ADDR | --dxp-connect ADDR]",
		Short: "Run the sparring engine (Hub on stdin/stdout, or DXP over TCP)",
		Long: `engine runs the arbiter's own sparring engine, a real engine process for tests and demos:
Hub version 2 on standard input and output (--hub1: Scan 2.0's Hub 1), or DXP over TCP
(--dxp ADDR listens, --dxp-connect ADDR connects). Levels: random, greedy (the best
immediate material), N (alpha-beta to depth N, stopped early at its share of a Hub clock).
--fault makes it crash, hang, play an illegal move, write garbage or think too long at its
K-th move request.

Guide: docs/engines.md`,
		Example: `  arbiter engine --variant english --level 3
  arbiter engine --dxp 127.0.0.1:27531 --level greedy --fault illegal-at=5`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := rules.Lookup(variant)
			if err != nil {
				return usagef("engine: --variant: %v", err)
			}
			lv, err := sparring.ParseLevel(level)
			if err != nil {
				return usagef("engine: --level: %v", err)
			}
			var fs []sparring.Fault
			for _, f := range faults {
				more, err := sparring.ParseFaults(f)
				if err != nil {
					return usagef("engine: --fault: %v", err)
				}
				fs = append(fs, more...)
			}
			if dxpListen != "" && dxpConnect != "" {
				return usagef("engine: choose one of --dxp and --dxp-connect")
			}
			cfg := sparring.Config{Name: name, Variant: v, Level: lv, Seed: seed, Faults: fs}
			opts := sparring.DXPOptions{SlowTime: slowTime}
			out := cmd.OutOrStdout()
			switch {
			case dxpListen != "":
				err = sparring.ListenDXP(dxpListen, cfg, opts, func(a net.Addr) {
					fmt.Fprintf(out, "dxp listening on %s\n", a)
				})
			case dxpConnect != "":
				err = sparring.ConnectDXP(dxpConnect, 30*time.Second, cfg, opts)
			default:
				// Without this a GUI that closes our output kills the engine
				// with SIGPIPE and no word; with it the write fails, and the
				// engine says so on stderr and exits with status 3.
				signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
				in := cmd.InOrStdin()
				if sparring.ReadsDirectly(in) {
					runtime.GOMAXPROCS(1) // see ReadsDirectly
				}
				if hub1 {
					err = sparring.ServeHub1(in, out, cfg)
				} else {
					err = sparring.ServeHub(in, out, cfg)
				}
			}
			switch {
			case errors.Is(err, sparring.ErrCrash):
				fmt.Fprintln(os.Stderr, "arbiter engine: planned crash")
				os.Exit(3)
			case errors.Is(err, sparring.ErrHang):
				fmt.Fprintln(os.Stderr, "arbiter engine: planned hang")
				for {
					// Sleep rather than block forever: the runtime would call
					// a goroutine-less block a deadlock and exit.
					time.Sleep(time.Hour)
				}
			case err != nil:
				return fmt.Errorf("engine: %w", err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", "international", "rules ("+strings.Join(rules.Presets(), ", ")+")")
	f.StringVar(&level, "level", "random", "strength: random, greedy or a search depth N")
	f.Uint64Var(&seed, "seed", 0, "random seed (random level and tie-breaks)")
	f.StringArrayVar(&faults, "fault", nil, "misbehave: crash-at=K, hang-at=K, illegal-at=K, garbage-at=K, slow-at=K")
	f.StringVar(&name, "name", "sparring", "engine name (Hub id, DXP name)")
	f.StringVar(&dxpListen, "dxp", "", "speak DXP, listening on `ADDR` for the arbiter")
	f.StringVar(&dxpConnect, "dxp-connect", "", "speak DXP, connecting to the arbiter at `ADDR`")
	f.BoolVar(&hub1, "hub1", false, "speak Hub version 1 (Scan 2.0's protocol) instead of version 2")
	f.DurationVar(&slowTime, "slow-time", 0, "DXP: how long slow-at thinks (default: the game's time + 2s)")
	return cmd
}
