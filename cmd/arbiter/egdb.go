package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
)

func init() { subcommands = append(subcommands, newEGDBCmd) }

// defaultEGDBDir is where `egdb build` writes and the other commands read
// when --dir is not given.
const defaultEGDBDir = "egdb"

func newEGDBCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "egdb build|probe|verify",
		Short: "Endgame databases: build, probe and verify the value of small endings",
		Long: `egdb computes by retrograde analysis the value (win, draw or loss for the side to move,
with perfect play) of every position with few pieces, and reads it back. The database
lives under --dir (default ./egdb); an interrupted build resumes. The values ignore
repetition and the N-move rules.

Guide: docs/egdb.md`,
		Example: `  arbiter egdb build --variant english --pieces 4
  arbiter egdb probe --variant english --fen "W:WK18:BK1,K3"`,
	}
	cmd.AddCommand(newEGDBBuildCmd(), newEGDBProbeCmd(), newEGDBVerifyCmd())
	return cmd
}

type egdbFlags struct {
	variant, dir string
	pieces       int
}

func (o *egdbFlags) add(cmd *cobra.Command, pieces bool) {
	f := cmd.Flags()
	f.StringVar(&o.variant, "variant", "", "rules preset (english, international, russian, ...); required")
	f.StringVar(&o.dir, "dir", defaultEGDBDir, "the databases' directory")
	if pieces {
		f.IntVar(&o.pieces, "pieces", 0, "build every ending of 2 to N pieces; required")
	}
}

func (o *egdbFlags) lookup() (*rules.Variant, error) {
	if o.variant == "" {
		return nil, usagef("--variant is required (english, international, russian, ...)")
	}
	v, err := rules.Lookup(o.variant)
	if err != nil {
		return nil, usageError{err}
	}
	if err := egdb.Supported(v); err != nil {
		return nil, usagef("%w; the variants that can have one: %s", err, strings.Join(egdbVariants(), ", "))
	}
	return v, nil
}

// egdbVariants names the variants an endgame database can be built for.
func egdbVariants() []string {
	var names []string
	for _, name := range rules.Presets() {
		if v, err := rules.Lookup(name); err == nil && egdb.Supported(v) == nil {
			names = append(names, name)
		}
	}
	return names
}

func newEGDBBuildCmd() *cobra.Command {
	var o egdbFlags
	var workers int
	cmd := &cobra.Command{
		Use:   "build --variant V --pieces N [--dir DIR]",
		Short: "Build the database of every ending with up to N pieces",
		Long: `build solves every ending with up to --pieces pieces, from the fewest up, and writes one
file per material under --dir/VARIANT; an interrupted build keeps the tables it finished
and the same command goes on from there.

Guide: docs/egdb.md`,
		Example: `  arbiter egdb build --variant english --pieces 4
  arbiter egdb build --variant international --pieces 3 --dir /data/egdb`,
		Args: cobra.NoArgs,
		// A signal cancels the context: the table being solved is given
		// up, the finished ones kept, and the user told how to go on.
		Annotations: map[string]string{annotContext: "yes"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := o.lookup()
			if err != nil {
				return err
			}
			if o.pieces < 2 || o.pieces > egdb.MaxPieces {
				return usagef("--pieces must be 2 to %d, not %d", egdb.MaxPieces, o.pieces)
			}
			return runEGDBBuild(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), v, o, workers)
		},
	}
	o.add(cmd, true)
	cmd.Flags().IntVar(&workers, "workers", 0, "tables solved at once (default: one per CPU)")
	return cmd
}

// runEGDBBuild builds the database. On a terminal a progress bar counts
// the positions; off one (a log file, a pipe, CI) the bar's carriage
// returns would pile up into one unreadable line, so each table gets a
// line of its own instead.
func runEGDBBuild(ctx context.Context, out, errw io.Writer, v *rules.Variant, o egdbFlags, workers int) error {
	var bar *progressbar.ProgressBar
	t0 := time.Now()
	var built, found int
	tables := len(egdb.Materials(o.pieces))
	live := isTerminal(errw)
	opt := egdb.BuildOptions{Pieces: o.pieces, Workers: workers,
		Total: func(n uint64) {
			if live {
				bar = progressbar.NewOptions64(int64(n), progressbar.OptionSetWriter(errw), progressbar.OptionSetDescription("positions"),
					progressbar.OptionShowCount(), progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
			}
		},
		Progress: func(n uint64) {
			if bar != nil {
				bar.Add64(int64(n))
			}
		},
		Table: func(m egdb.Material, solved bool) {
			what := "already built"
			if solved {
				built++
				what = "solved"
			} else {
				found++
			}
			if !live {
				fmt.Fprintf(errw, "%-12s %s (%d of %d tables, %s)\n", m, what, built+found, tables, time.Since(t0).Round(100*time.Millisecond))
			}
		},
	}
	db, err := egdb.Build(ctx, v, o.dir, opt)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintf(errw, "interrupted: the tables solved so far are kept; run the same command to go on\n")
			return exitError{exitRuntime}
		}
		return err
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(out, "%s up to %d pieces in %s: %s solved, %d already built, %s (peak heap %d MiB)\n",
		v.Name(), db.Pieces(), o.dir, tableCount(built), found, time.Since(t0).Round(time.Millisecond), ms.HeapSys>>20)
	return nil
}

// tableCount is n tables in words ("1 table", "16 tables").
func tableCount(n int) string {
	if n == 1 {
		return "1 table"
	}
	return fmt.Sprintf("%d tables", n)
}

func newEGDBProbeCmd() *cobra.Command {
	var o egdbFlags
	var fen, file string
	cmd := &cobra.Command{
		Use:   "probe --variant V --fen FEN [--dir DIR] | probe --pdn FILE [--variant V] [--dir DIR]",
		Short: "The value of a position and of each of its legal moves",
		Long: `probe prints the value of the position --fen (win, draw or loss for the side to move) and
that of each of its legal moves, from the database under --dir. With --pdn, the endings of a
file's games: for each, the first position in the database and the last, with their results
with perfect play, beside the recorded result (--variant for games without a GameType tag).

Guide: docs/egdb.md`,
		Example: `  arbiter egdb probe --variant english --fen "B:WK18,K27:BK1"
  arbiter egdb probe --variant english --dir /data/egdb --fen "W:WK18:BK1,K3"
  arbiter egdb probe --pdn games.pdn`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file != "" {
				if fen != "" {
					return usagef("give --fen or --pdn, not both")
				}
				var v *rules.Variant
				if o.variant != "" {
					var err error
					if v, err = o.lookup(); err != nil {
						return err
					}
				}
				return runEGDBProbePDN(cmd.OutOrStdout(), v, o.dir, file)
			}
			v, err := o.lookup()
			if err != nil {
				return err
			}
			if fen == "" {
				return usagef("--fen (a position) or --pdn (a file of games) is required")
			}
			p, err := rules.ParseFEN(v, fen)
			if err != nil {
				return usageError{err}
			}
			return runEGDBProbe(cmd.OutOrStdout(), cmd.ErrOrStderr(), v, o, p)
		},
	}
	o.add(cmd, false)
	cmd.Flags().StringVar(&fen, "fen", "", "the position, as a PDN FEN")
	cmd.Flags().StringVar(&file, "pdn", "", "a PDN file: value the ending of each of its games")
	return cmd
}

func runEGDBProbe(out, errw io.Writer, v *rules.Variant, o egdbFlags, p rules.Position) error {
	if egdb.Survey(v, o.dir).Pieces == 0 {
		// Not built at all: the build that holds this position.
		return tooManyPieces(v, o.dir, p, 0)
	}
	db, err := egdb.Open(v, o.dir, 0)
	if err != nil {
		return err
	}
	val, err := db.Probe(p)
	if err != nil {
		return err
	}
	if val == egdb.Unknown {
		return tooManyPieces(v, o.dir, p, db.Pieces())
	}
	fmt.Fprintf(out, "%s: %s to move %s\n", p.FEN(), p.Turn().Name(), verdict(val))
	for _, c := range []rules.Color{rules.White, rules.Black} {
		if p.Pieces(c).Empty() {
			// No move of a finished game has a value to show.
			fmt.Fprintf(out, "  the game is over: %s has no pieces left\n", c.Name())
			return nil
		}
	}
	for _, m := range p.LegalMoves() {
		mv, err := db.Probe(p.Play(m))
		if err != nil {
			return err
		}
		// The value after the move is the opponent's: a move into a lost
		// position wins.
		fmt.Fprintf(out, "  %-8s %s\n", p.MoveText(m), moveValue(mv))
	}
	noteUnfinished(errw, v, o.dir)
	return nil
}

// tooManyPieces is probe's error for a position beyond the database (held:
// the most pieces it holds, 0 when there is none): what would hold it, and the command that builds it (or finishes the build an
// interruption left).
func tooManyPieces(v *rules.Variant, dir string, p rules.Position, held int) error {
	n := egdb.MaterialOf(p).Pieces()
	if n > egdb.MaxPieces {
		return fmt.Errorf("%s has %d pieces: no endgame database holds more than %d; probe a position of fewer pieces", p.FEN(), n, egdb.MaxPieces)
	}
	want := max(n, 2)
	next := fmt.Sprintf("`%s` builds the tables up to %d (docs/egdb.md gives the time and disk each size takes)", egdb.BuildCommand(v, dir, want), want)
	if h := egdb.Survey(v, dir); want == h.Pieces+1 && h.Partial > 0 {
		next = h.Unfinished(v, dir)
	}
	if held == 0 {
		return fmt.Errorf("%s has %d pieces; %s holds no %s database: %s", p.FEN(), n, dir, v.Name(), next)
	}
	return fmt.Errorf("%s has %d pieces; the database in %s holds up to %d: %s", p.FEN(), n, dir, held, next)
}

// noteUnfinished tells the user, on w, of the tables an interrupted build
// left beyond the complete ones: they are not used until the build is
// finished.
func noteUnfinished(w io.Writer, v *rules.Variant, dir string) {
	if u := egdb.Survey(v, dir).Unfinished(v, dir); u != "" {
		fmt.Fprintf(w, "note: %s; until then positions of that many pieces are not in the database\n", u)
	}
}

// verdict is a value as a verb for the side to move.
func verdict(v egdb.Value) string {
	switch v {
	case egdb.Win:
		return "wins"
	case egdb.Loss:
		return "loses"
	}
	return "draws"
}

// moveValue is what a move gives its player, from the value of the
// position it leads to (the opponent's).
func moveValue(after egdb.Value) string {
	switch after {
	case egdb.Loss:
		return "wins"
	case egdb.Win:
		return "loses"
	case egdb.Draw:
		return "draws"
	}
	return "unknown"
}

func newEGDBVerifyCmd() *cobra.Command {
	var o egdbFlags
	var every uint64
	var from, to, workers int
	cmd := &cobra.Command{
		Use:   "verify --variant V [--dir DIR] [--from N] [--to N] [--every K]",
		Short: "Check every position of a database against its moves, and print each table's counts",
		Long: `verify checks every position of the database under --dir against its moves, as minimax
defines the values, and prints each table's wins, losses and draws. --from N checks only the
tables of N pieces and more, --to N those of N and fewer; --every K checks one position in K, spread over each whole table
(for the tables too large to check whole: international 5 pieces).

Guide: docs/egdb.md`,
		Example: `  arbiter egdb verify --variant english
  arbiter egdb verify --variant international --dir /data/egdb --from 5 --every 1000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := o.lookup()
			if err != nil {
				return err
			}
			if every < 1 {
				return usagef("--every must be 1 or more (1: every position), not %d", every)
			}
			db, err := egdb.Open(v, o.dir, 0)
			if err != nil {
				return err
			}
			noteUnfinished(cmd.ErrOrStderr(), v, o.dir)
			if to == 0 {
				to = db.Pieces()
			}
			if from > to || from > db.Pieces() || to < 2 {
				// Nothing to check is no agreement to report.
				return usagef("--from %d --to %d selects no table: the database in %s holds tables of 2 to %d pieces", from, to, o.dir, db.Pieces())
			}
			return runEGDBVerify(cmd.Context(), cmd.OutOrStdout(), db, from, to, every, workers)
		},
	}
	o.add(cmd, false)
	cmd.Flags().IntVar(&from, "from", 2, "check only the tables of this many pieces and more")
	cmd.Flags().IntVar(&to, "to", 0, "check only the tables of this many pieces and fewer (default: all)")
	cmd.Flags().Uint64Var(&every, "every", 1, "check one position in this many (1: all)")
	cmd.Flags().IntVar(&workers, "workers", 0, "tables checked at once (default: one per CPU)")
	return cmd
}

// runEGDBVerify checks the tables on workers goroutines and prints their
// counts in the build's order as they are done.
func runEGDBVerify(ctx context.Context, out io.Writer, db *egdb.DB, from, to int, every uint64, workers int) error {
	var ms []egdb.Material
	for _, m := range egdb.Materials(db.Pieces()) {
		if m.Pieces() >= from && m.Pieces() <= to {
			ms = append(ms, m)
		}
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	done := make([]chan egdb.Counts, len(ms))
	for k := range done {
		done[k] = make(chan egdb.Counts, 1)
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	failed := make(chan error, 1)
	go func() { // g.Go waits for a free worker; Wait after the last Go
		for k, m := range ms {
			g.Go(func() error {
				if err := db.VerifyEvery(ctx, m, every); err != nil {
					return err
				}
				c, err := db.Count(m)
				if err != nil {
					return err
				}
				done[k] <- c
				return nil
			})
		}
		failed <- g.Wait()
	}()
	fmt.Fprintf(out, "%-12s %12s %12s %12s\n", "material", "wins", "losses", "draws")
	for k := range ms {
		select {
		case c := <-done[k]:
			fmt.Fprintf(out, "%-12s %12d %12d %12d\n", c.Material, c.Win, c.Loss, c.Draw)
		case err := <-failed:
			if err == nil {
				// every table done: the rest are in their channels
				failed <- nil
				c := <-done[k]
				fmt.Fprintf(out, "%-12s %12d %12d %12d\n", c.Material, c.Win, c.Loss, c.Draw)
				continue
			}
			return exitErrorf(err)
		}
	}
	if every > 1 {
		fmt.Fprintf(out, "every position checked (one in %d) agrees with its moves\n", every)
	} else {
		fmt.Fprintf(out, "every position agrees with its moves\n")
	}
	return nil
}

// exitErrorf reports err and exits with exitFailed: the command ran and
// found a problem.
func exitErrorf(err error) error {
	fmt.Fprintln(os.Stderr, "arbiter:", err)
	return exitError{exitFailed}
}
