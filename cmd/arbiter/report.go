package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/engines/tournament"
)

func init() { subcommands = append(subcommands, newReportCmd) }

func newReportCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "report DIR",
		Short: "Rewrite report.html, results.json and games.pdn from DIR's database",
		Long: `report reads DIR/arbiter.db, the database of a tournament, match or demo, and writes
report.html, results.json and games.pdn there again from the finished games. It can run
while the event is still going.

Guide: docs/engine-testing.md`,
		Example: `  arbiter report out/demo
  arbiter report out/match-2026-12-04-151200`,
		Args:        cobra.ExactArgs(1),
		Annotations: map[string]string{annotContext: "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			db := filepath.Join(dir, store.FileName)
			if _, err := os.Stat(db); err != nil {
				return usagef("report: %s: no tournament database (%s) there: give the output directory of a match or tournament "+
					"(its --out, or the out: of its config; a match without --out writes out/match-DATE-TIME)", dir, store.FileName)
			}
			st, err := store.Open(db)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := tournament.WriteReport(cmd.Context(), st, dir); err != nil {
				if errors.Is(err, store.ErrNoEvent) {
					return usagef("report: %v", err)
				}
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "report: %s\n", tournament.ReportPath(dir))
			return nil
		},
	}
}
