package main

import (
	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/configs"
)

func init() { subcommands = append(subcommands, newDemoCmd) }

func newDemoCmd() *cobra.Command {
	var tf tournamentFlags
	cmd := &cobra.Command{
		Use:   "demo [--key value ...]",
		Short: "Run the built-in demo tournament (configs/demo.yaml) into out/demo",
		Long: `demo runs the built-in configs/demo.yaml: the sparring engine at four strengths in a
round-robin of English checkers on the 3-move ballot, two games at a time, and prints the
path of the report. It takes tournament's options; run it again and it resumes.

Guide: docs/engine-testing.md`,
		Example: `  arbiter demo
  arbiter demo --out out/demo2 --concurrency 1 --serve 8080`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{annotContext: "yes", annotDrain: "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			over, err := tf.overrides(cmd.Flags())
			if err != nil {
				return usagef("demo: %v", err)
			}
			ev, err := configs.LoadEmbedded("demo.yaml", configs.Options{Overrides: over})
			if err != nil {
				return usageError{err}
			}
			return runTournament(cmd, ev, tf)
		},
	}
	tf.register(cmd.Flags())
	return cmd
}
