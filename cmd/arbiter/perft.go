package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/rules"
)

func init() { subcommands = append(subcommands, newPerftCmd) }

// perftOptions are the flags of `arbiter perft`.
type perftOptions struct {
	variant, fen, count string
	depth               int
	divide              bool
	hashMB, threads     int
}

func newPerftCmd() *cobra.Command {
	var o perftOptions
	cmd := &cobra.Command{
		Use:   "perft --variant V [--fen FEN] --depth N [--count unique|keep] [--divide]",
		Short: "Count the leaf nodes of the move tree (move-generator check and speed)",
		Long: `perft counts the positions exactly 1..N plies below the start position (or --fen) and
prints "depth nodes seconds" per depth; --divide prints the count under each root move.
--count keep counts every capture path instead of one move per (from, to, captured set).
--hash and --threads change the time only, never the counts.

Guide: docs/engine-testing.md (perft)`,
		Example: `  arbiter perft --variant english --depth 6
  arbiter perft --variant international --count keep --depth 5 --divide --hash 0 --threads 1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPerft(cmd.OutOrStdout(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.variant, "variant", "", "rules preset (e.g. english, international, russian); required")
	f.StringVar(&o.fen, "fen", "", "start position as a PDN FEN (default: the variant's initial position)")
	f.IntVar(&o.depth, "depth", 0, "depth in plies, at least 1; required")
	f.StringVar(&o.count, "count", "unique", "unique (one move per from/to/captured set) or keep (every capture path)")
	f.BoolVar(&o.divide, "divide", false, "print the node count below each root move instead of one line per depth")
	f.IntVar(&o.hashMB, "hash", 256, "transposition table size in MB (0: none)")
	f.IntVar(&o.threads, "threads", 0, "worker goroutines (0: one per CPU)")
	return cmd
}

func runPerft(out io.Writer, o perftOptions) error {
	if o.variant == "" {
		return usagef("perft: --variant is required (presets: %v)", rules.Presets())
	}
	v, err := rules.Lookup(o.variant)
	if err != nil {
		return usagef("perft: --variant: %w", err)
	}
	p := rules.NewPosition(v)
	if o.fen != "" {
		if p, err = rules.ParseFEN(v, o.fen); err != nil {
			return usagef("perft: --fen: %w", err)
		}
	}
	if o.depth < 1 {
		return usagef("perft: --depth must be at least 1, got %d", o.depth)
	}
	var keep bool
	switch o.count {
	case "unique":
	case "keep":
		keep = true
	default:
		return usagef("perft: --count must be unique or keep, got %q", o.count)
	}
	if o.hashMB < 0 || o.hashMB > 1<<20 {
		return usagef("perft: --hash must be between 0 and 1048576 MB, got %d", o.hashMB)
	}
	// A table the machine cannot hold would end the process with an
	// out-of-memory crash instead of an error.
	if ram := totalMemory(); ram > 0 && uint64(o.hashMB)<<20 > ram/2 {
		return usagef("perft: --hash %d MB is more than half of this machine's %d MB of memory", o.hashMB, ram>>20)
	}
	if o.threads < 0 || o.threads > 1024 {
		return usagef("perft: --threads must be 0 (one per CPU) to 1024, got %d", o.threads)
	}
	opts := rules.PerftOptions{Workers: o.threads}
	if o.hashMB > 0 && o.depth >= 4 {
		// Shallower counts never consult a table; do not allocate one.
		opts.Table = rules.NewPerftTable(o.hashMB << 20)
	}
	if o.divide {
		return perftDivide(out, p, o.depth, keep, opts)
	}
	for d := 1; d <= o.depth; d++ {
		start := time.Now()
		n, err := rules.PerftWith(p, d, keep, opts)
		if err != nil {
			return perftError(d, "", err)
		}
		secs := time.Since(start).Seconds()
		if _, err := fmt.Fprintf(out, "%d %d %s\n", d, n, strconv.FormatFloat(secs, 'f', 6, 64)); err != nil {
			return fmt.Errorf("perft: writing output: %w", err)
		}
	}
	return nil
}

// perftDivide prints the subtree size below each root move, then the total.
// In keep mode paths sharing an identity are written in long form so that
// every line names a distinct path.
func perftDivide(out io.Writer, p rules.Position, depth int, keep bool, opts rules.PerftOptions) error {
	moves := p.LegalMoves()
	if keep {
		moves = p.LegalPaths()
	}
	type line struct {
		m     rules.Move
		text  string
		nodes uint64
	}
	lines := make([]line, len(moves))
	var total uint64
	for i, m := range moves {
		text := p.MoveText(m)
		if keep {
			for j, o := range moves {
				if j != i && o.Same(m) {
					text = p.LongMoveText(m)
					break
				}
			}
		}
		n, err := rules.PerftWith(p.Play(m), depth-1, keep, opts)
		if err != nil {
			return perftError(depth, " (below "+text+" alone)", err)
		}
		if total+n < total {
			return fmt.Errorf("perft: depth %d: %w (the total of the root moves)", depth, rules.ErrPerftOverflow)
		}
		lines[i] = line{m, text, n}
		total += n
	}
	sort.SliceStable(lines, func(i, j int) bool {
		a, b := lines[i], lines[j]
		if a.m.From != b.m.From {
			return a.m.From < b.m.From
		}
		if a.m.To != b.m.To {
			return a.m.To < b.m.To
		}
		return a.text < b.text
	})
	for _, l := range lines {
		if _, err := fmt.Fprintf(out, "%s %d\n", l.text, l.nodes); err != nil {
			return fmt.Errorf("perft: writing output: %w", err)
		}
	}
	if _, err := fmt.Fprintf(out, "total %d\n", total); err != nil {
		return fmt.Errorf("perft: writing output: %w", err)
	}
	return nil
}

// perftError says which depth's count did not fit in 64 bits (perft counts
// with uint64: English W:WK29:BK1 overflows at depth 45).
func perftError(depth int, where string, err error) error {
	if errors.Is(err, rules.ErrPerftOverflow) {
		return fmt.Errorf("perft: depth %d: %w%s", depth, rules.ErrPerftOverflow, where)
	}
	return fmt.Errorf("perft: depth %d%s: %w", depth, where, err)
}
