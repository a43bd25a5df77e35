package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
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
		Long: `engine runs the arbiter's own sparring engine, a real engine process for tests
and demos. By default it speaks the Hub protocol (version 2) on standard input and
output. The variant is --variant (default international) until the GUI sets the
Hub parameter "variant" (any preset name, e.g. "set-param name=variant
value=english"); "level" and "seed" are Hub parameters too. With --hub1 it
speaks Hub version 1, Scan 2.0's protocol ("set variant english").

With --dxp ADDR it speaks DXP instead: it listens on ADDR (e.g. 127.0.0.1:27531,
port 0 picks a free port) and plays as the DXP Follower with every Initiator that
connects (the arbiter connects and sends GAMEREQ); it prints "dxp listening on
HOST:PORT" on standard output first. With --dxp-connect ADDR it connects to an
Initiator listening on ADDR instead. DXP has no variant field: --variant decides.

Levels: random (uniform among legal moves, from --seed), greedy (best immediate
material), N (alpha-beta to depth N on material).

Faults (K = the engine's own K-th move request in a game, 1-based; repeat --fault
or join with commas): crash-at=K (exit with status 3), hang-at=K (stop reading and
answering, ping included), illegal-at=K (a legal-looking illegal move, e.g. a plain
move while a capture is compulsory), garbage-at=K (junk instead of a move),
slow-at=K (think past the time limit; in Hub it moves when told to stop).`,
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
				if hub1 {
					err = sparring.ServeHub1(cmd.InOrStdin(), out, cfg)
				} else {
					err = sparring.ServeHub(cmd.InOrStdin(), out, cfg)
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
