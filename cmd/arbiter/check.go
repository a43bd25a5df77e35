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

// checkCounts are the totals of `arbiter check`; failed counts the files
// that could not be read to the end (I/O errors, not games).
type checkCounts struct{ games, ok, illegal, unreadable, failed int }

func newCheckCmd() *cobra.Command {
	var variant string
	cmd := &cobra.Command{
		Use:   "check [--variant V] FILE...",
		Short: "Audit PDN game records: replay every game and report the first illegal move",
		Long: `check replays every game of every PDN file under its rules: its GameType tag
(or a Variant tag naming a preset). A game without one is played under --variant
when given; otherwise the moves decide: the first of international (PDN 3.0's
default), english or russian (the usual 8x8 game for numbered or algebraic
squares; first when no square is above 32), then the other presets, under which
every move is legal. The line of such a game ends with the variant taken and
why, e.g. "(variant: english (no GameType; legal as english, not as international))".

It prints one line per game, "FILE: game N (White: ..., Black: ...): ok" or the
first problem: the move number and text, the line it is on, the position before it
(FEN) and the legal moves there. The last line is
  games=N ok=N illegal=N unreadable=N
Exit status: 0 when every game is ok, 1 otherwise, 2 for a usage error, 3 when a
file cannot be read (it is named; the other files are still checked).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("check: no PDN file given (usage: arbiter check [--variant V] FILE...)")
			}
			var fallback *rules.Variant
			if variant != "" {
				v, err := rules.Lookup(variant)
				if err != nil {
					return usagef("check: --variant: %v", err)
				}
				fallback = v
			}
			out := cmd.OutOrStdout()
			var n checkCounts
			for _, file := range args {
				checkFile(out, cmd.ErrOrStderr(), file, fallback, &n)
			}
			fmt.Fprintf(out, "games=%d ok=%d illegal=%d unreadable=%d\n", n.games, n.ok, n.illegal, n.unreadable)
			switch {
			case n.failed > 0:
				return exitError{code: exitRuntime}
			case n.ok != n.games:
				return exitError{code: exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&variant, "variant", "", "rules for games without a GameType tag (e.g. english, international, russian); a tag wins")
	return cmd
}

// checkFile audits one file. A file that cannot be opened or read to the end
// is an I/O error, not a game: it is named on stderr (and on out, so the
// listing shows where it stopped) and makes the exit status 3.
func checkFile(out, errOut io.Writer, file string, fallback *rules.Variant, n *checkCounts) {
	f, err := os.Open(file)
	if err != nil {
		n.failed++
		fmt.Fprintf(out, "%s: cannot read the file: %v\n", file, err)
		fmt.Fprintf(errOut, "error: check: %v\n", err)
		return
	}
	defer f.Close()
	err = pdn.Audit(f, file, fallback, func(rep pdn.Report) {
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
		n.failed++
		fmt.Fprintf(out, "%s: cannot read the file to the end, stopped reading: %v\n", file, err)
		fmt.Fprintf(errOut, "error: check: %v\n", err)
	}
}
