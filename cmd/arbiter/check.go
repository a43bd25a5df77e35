package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

func init() { subcommands = append(subcommands, newCheckCmd) }

// checkCounts are the totals of `arbiter check`.
type checkCounts struct{ games, ok, illegal, unreadable int }

func newCheckCmd() *cobra.Command {
	var variant string
	cmd := &cobra.Command{
		Use:   "check [--variant V] FILE...",
		Short: "Audit PDN game records: replay every game and report the first illegal move",
		Long: `check replays every game of every PDN file under its rules: the GameType tag,
or a guess from the content (algebraic squares: russian; squares above 32:
international; otherwise english), or --variant, which overrides both.

It prints one line per game, "FILE: game N (White: ..., Black: ...): ok" or the
first problem: the move number and text, the line it is on, the position before it
(FEN) and the legal moves there. The last line is
  games=N ok=N illegal=N unreadable=N
Exit status: 0 when every game is ok, 1 otherwise, 2 for a usage error.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("check: no PDN file given (usage: arbiter check [--variant V] FILE...)")
			}
			var override *rules.Variant
			if variant != "" {
				v, err := rules.Lookup(variant)
				if err != nil {
					return usagef("check: --variant: %v", err)
				}
				override = v
			}
			out := cmd.OutOrStdout()
			var n checkCounts
			for _, file := range args {
				checkFile(out, file, override, &n)
			}
			fmt.Fprintf(out, "games=%d ok=%d illegal=%d unreadable=%d\n", n.games, n.ok, n.illegal, n.unreadable)
			if n.ok != n.games {
				return exitError{code: exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&variant, "variant", "", "rules for every game, overriding GameType tags (e.g. english, international, russian)")
	return cmd
}

// checkFile audits one file. A file that cannot be opened or read to the end
// counts as one unreadable game, so the totals never hide it.
func checkFile(out io.Writer, file string, override *rules.Variant, n *checkCounts) {
	f, err := os.Open(file)
	if err != nil {
		n.games++
		n.unreadable++
		fmt.Fprintf(out, "%s: unreadable file: %v\n", file, err)
		return
	}
	defer f.Close()
	err = pdn.Audit(f, file, override, func(rep pdn.Report) {
		n.games++
		switch rep.Status {
		case pdn.OK:
			n.ok++
		case pdn.Illegal:
			n.illegal++
		default:
			n.unreadable++
		}
		fmt.Fprintf(out, "%s: %s\n", file, rep)
	})
	if err != nil {
		n.games++
		n.unreadable++
		fmt.Fprintf(out, "%s: unreadable file, stopped reading: %v\n", file, err)
	}
}
