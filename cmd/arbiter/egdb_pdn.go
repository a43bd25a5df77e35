package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// runEGDBProbePDN values the endings of the games of a PDN file, for an
// arbiter asking whether a recorded ending was won or drawn: for each game
// the first position that is in the database and the last one, each with
// its result with perfect play, beside the recorded result. The values
// ignore repetition and the N-move rules, so a recorded draw of a won
// position is no error of the record.
func runEGDBProbePDN(out io.Writer, fallback *rules.Variant, dir, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return usageError{fmt.Errorf("--pdn: %w", err)}
	}
	defer f.Close()
	r := pdn.NewReader(f, file)
	dbs := map[string]*egdb.DB{} // by variant; nil: none in dir
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w (`arbiter check %s` lists every problem of the file)", file, err, file)
		}
		if err := probeGame(out, g, fallback, dir, dbs); err != nil {
			return err
		}
	}
}

// probeGame writes one game's lines; an error is a database that cannot be
// read, not a game that cannot be valued (that gets a line).
func probeGame(out io.Writer, g *pdn.Game, fallback *rules.Variant, dir string, dbs map[string]*egdb.DB) error {
	fmt.Fprintf(out, "game %d: %s - %s %s (recorded)\n", g.Number, tagOr(g, "White"), tagOr(g, "Black"), g.Result)
	v, err := pdn.VariantOf(g, fallback)
	if err == nil && v == nil {
		err = errors.New("no GameType tag: give --variant")
	}
	var rep *pdn.Replayed
	if err == nil {
		rep, err = pdn.Replay(g, v)
	}
	if err != nil {
		fmt.Fprintf(out, "  not valued: %v\n", err)
		return nil
	}
	db, seen := dbs[v.Name()]
	if !seen {
		db, _ = egdb.Open(v, dir, 0)
		dbs[v.Name()] = db
	}
	if db == nil {
		fmt.Fprintf(out, "  not valued: %s holds no %s database: `%s` builds one\n", dir, v.Name(), egdb.BuildCommand(v, dir, 0))
		return nil
	}
	first := -1
	for i, p := range rep.Positions {
		if over(p) {
			break
		}
		val, err := db.Probe(p)
		if err != nil {
			return err
		}
		if val != egdb.Unknown {
			first = i
			break
		}
	}
	last := len(rep.Positions) - 1
	if first >= 0 {
		if err := probeLine(out, db, rep, first, "from "+positionAt(g, first)); err != nil {
			return err
		}
	}
	switch final := rep.Final(); {
	case over(final):
		winner := rules.Black
		if final.Pieces(rules.Black).Empty() {
			winner = rules.White
		}
		val, err := db.Probe(final)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  at the end (%s): the game is over, %s has no pieces left (%s)\n",
			final.FEN(), winner.Opponent().Name(), val.Outcome(final.Turn()).PDN(rep.Variant.WideResults()))
	case first < 0:
		fmt.Fprintf(out, "  never in the database: the last position has %d pieces, the database holds up to %d\n",
			egdb.MaterialOf(final).Pieces(), db.Pieces())
	case first != last:
		if err := probeLine(out, db, rep, last, "at the end"); err != nil {
			return err
		}
	}
	if first >= 0 || over(rep.Final()) {
		val, err := db.Probe(rep.Final())
		if err != nil {
			return err
		}
		if res := val.Outcome(rep.Final().Turn()).PDN(rep.Variant.WideResults()); g.Result != "*" && g.Result != res {
			fmt.Fprintf(out, "  the recorded %s is not the last position's result with perfect play (%s): a draw by repetition or a move-count rule (which the database ignores), a resignation, a time forfeit or a mistake would explain it\n", g.Result, res)
		}
	}
	return nil
}

// over reports whether a side of p has no pieces left: the game is over,
// whatever the database holds.
func over(p rules.Position) bool {
	return p.Pieces(rules.White).Empty() || p.Pieces(rules.Black).Empty()
}

// probeLine writes the value of the game's i-th position.
func probeLine(out io.Writer, db *egdb.DB, rep *pdn.Replayed, i int, where string) error {
	p := rep.Positions[i]
	val, err := db.Probe(p)
	if err != nil {
		return err
	}
	res := val.Outcome(p.Turn()).PDN(rep.Variant.WideResults())
	fmt.Fprintf(out, "  %s (%d pieces, %s): %s with perfect play (%s)\n", where, egdb.MaterialOf(p).Pieces(), p.FEN(), perfectPlay(val, p.Turn()), res)
	return nil
}

// perfectPlay is a value in words that need no side to move.
func perfectPlay(v egdb.Value, turn rules.Color) string {
	switch v {
	case egdb.Win:
		return turn.Name() + " wins"
	case egdb.Loss:
		return turn.Opponent().Name() + " wins"
	}
	return "a draw"
}

// positionAt names the game's i-th position: the start, or the move that
// led to it as the record numbers it ("31... 22x15").
func positionAt(g *pdn.Game, i int) string {
	if i == 0 || i > len(g.Moves) {
		return "the start"
	}
	m := g.Moves[i-1]
	dots := "."
	if m.Second {
		dots = "..."
	}
	return fmt.Sprintf("%d%s %s", m.Num, dots, m.Text)
}

// tagOr is g's tag name, or "?" as PDN writes an unknown value.
func tagOr(g *pdn.Game, name string) string {
	if v := g.Tag(name); v != "" {
		return v
	}
	return "?"
}
