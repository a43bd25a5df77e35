package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/check"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/rules"
)

func init() { subcommands = append(subcommands, newEngineCheckCmd) }

func newEngineCheckCmd() *cobra.Command {
	var (
		spec, variant, positions, logFile string
		moveTime                          time.Duration
	)
	cmd := &cobra.Command{
		Use:   "engine-check --engine SPEC [--variant V] [--positions FILE] [--move-time D] [--log FILE]",
		Short: "Check that an engine speaks Hub as the arbiter expects (a checklist)",
		Long: `engine-check runs an engine through what the arbiter will ask of it (handshake and init,
searches judged by the rules, every level form against its allowance, stop and ping during
a search, bad input, quit) and prints one line per check, PASS, WARN or FAIL, with what to
fix. SPEC is match's --engine SPEC; protocols hub, hub1 and cb (not dxp).
Exit status: 0 nothing failed, 1 a check failed, 2 a bad SPEC.

Guide: docs/engines.md`,
		Example: `  arbiter engine-check --engine 'cmd=self engine' --variant english
  arbiter engine-check --engine 'proto=hub1 cmd=./scan-2.0' --variant international --move-time 500ms --log check.log`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if spec == "" {
				return usagef("engine-check: --engine SPEC is required")
			}
			e, err := parseEngineSpec(spec)
			if err != nil {
				return usagef("engine-check: --engine: %v", err)
			}
			// Refused before the spec is validated: a DXP spec without
			// addr= would otherwise be told to add an address, only to be
			// refused once it has one.
			if e["protocol"] == configs.DXP {
				return errDXPNotChecked
			}
			e["name"] = "engine"
			// An event of the engine and a placeholder: the spec is checked
			// and resolved as a config file's engine entry is.
			doc, err := yaml.Marshal(map[string]any{"variant": variant,
				"engines": []any{e, map[string]any{"name": "placeholder", "command": "self engine"}}})
			if err != nil {
				return err
			}
			ev, err := configs.Parse(doc, "engine-check", ".", configs.Options{})
			if err != nil {
				return usageError{err}
			}
			es := ev.Engines[0]
			version := 2
			switch es.Protocol {
			case configs.Hub, configs.CB:
			case configs.Hub1:
				version = 1
			case configs.DXP:
				return errDXPNotChecked
			default:
				return usagef("engine-check: protocol %s is not checked (hub, hub1 and cb are)", es.Protocol)
			}
			opts := check.Options{Command: es.Argv, Dir: es.Dir, Env: es.Env, Variant: ev.Variant, MoveTime: moveTime,
				InitTimeout: es.InitTimeout, Version: version}
			for _, o := range es.Options {
				opts.Params = append(opts.Params, hub.Param{Name: o.Name, Value: o.Value})
			}
			if positions != "" {
				ops, err := configs.LoadOpenings(positions, "all", ".", ev.Variant)
				if err != nil {
					return usagef("engine-check: --positions: %v", err)
				}
				for _, op := range ops {
					opts.Positions = append(opts.Positions, op.Position)
				}
			}
			if logFile != "" {
				f, err := os.Create(logFile)
				if err != nil {
					return fmt.Errorf("engine-check: --log: %w", err)
				}
				defer f.Close()
				opts.Log = f
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "engine-check: %s (%s, %s)\n", es.Command, es.Protocol, ev.Variant.Name())
			items := check.Run(opts)
			if !printChecklist(out, items) {
				return exitError{exitFailed}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&spec, "engine", "", "the engine: SPEC as for match (e.g. 'cmd=./scan hub')")
	f.StringVar(&variant, "variant", "international", "rules ("+fmt.Sprint(rules.Presets())+")")
	f.StringVar(&positions, "positions", "", "positions to search: a FEN list (.fen/.txt) or an opening file")
	f.DurationVar(&moveTime, "move-time", 200*time.Millisecond, "time per move of the position searches")
	f.StringVar(&logFile, "log", "", "write the protocol exchange to FILE")
	return cmd
}

// errDXPNotChecked is engine-check's answer to a DXP engine, whatever else
// its spec says.
var errDXPNotChecked = usagef("engine-check: protocol dxp is not checked: DXP has no search limits, stop or ping to check; " +
	"try the engine in a short match (arbiter match) instead (hub, hub1 and cb are checked)")

// printChecklist prints the items and a summary; it reports whether none
// failed.
func printChecklist(w io.Writer, items []check.Item) bool {
	n := map[check.Status]int{}
	for _, it := range items {
		n[it.Status]++
		fmt.Fprintf(w, "[%s] %s: %s\n", it.Status, it.Name, it.Detail)
		if it.Fix != "" && it.Status != check.Pass {
			fmt.Fprintf(w, "       fix: %s\n", it.Fix)
		}
	}
	fmt.Fprintf(w, "%d checks: %d passed, %d warnings, %d failed", len(items), n[check.Pass], n[check.Warn], n[check.Fail])
	if n[check.Skip] > 0 {
		fmt.Fprintf(w, ", %d not run", n[check.Skip])
	}
	fmt.Fprintln(w)
	return n[check.Fail] == 0
}
