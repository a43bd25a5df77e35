package egdb

import (
	"context"
	"fmt"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Counts are the values of one table's positions.
type Counts struct {
	Material        Material
	Win, Loss, Draw uint64
}

// Count tallies the values of the positions of m (both sides to move).
func (db *DB) Count(m Material) (Counts, error) {
	s, err := db.table(m)
	if err != nil {
		return Counts{}, err
	}
	c := Counts{Material: m}
	for i := uint64(0); i < 2*s.t.size; i++ {
		switch Value(s.bits[i/4] >> (2 * (i % 4)) & 3) {
		case Win:
			c.Win++
		case Loss:
			c.Loss++
		case Draw:
			c.Draw++
		}
	}
	return c, nil
}

// Verify checks every position of m against its moves, as minimax defines
// the values: a won position has a move into a position lost for the
// opponent; a lost one has only moves into positions the opponent wins (or
// no move, where the rules say it loses); a drawn one has no move into a
// lost position and at least one into a drawn one. It returns the first
// position that breaks this, with its value and its moves' values.
func (db *DB) Verify(ctx context.Context, m Material) error { return db.VerifyEvery(ctx, m, 1) }

// VerifyEvery is Verify of one index in every (1: all of them), for the
// tables too large to check whole in the time at hand: a sample spread over
// the whole table (every materials' kinds and squares, both sides to move).
// Only m's table and the tables its moves lead into are kept in memory.
func (db *DB) VerifyEvery(ctx context.Context, m Material, every uint64) error {
	if every < 1 {
		every = 1
	}
	s, err := db.table(m)
	if err != nil {
		return err
	}
	known, err := db.keepOnly([]Material{m})
	if err != nil {
		return err
	}
	var moves []rules.Move
	for i, k := uint64(0), 0; i < 2*s.t.size; i, k = i+every, k+1 {
		if k&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		p, ok := s.t.position(i)
		if !ok {
			continue
		}
		got := s.value(i)
		moves = p.AppendLegalMoves(moves[:0])
		if len(moves) == 0 {
			if want := valueOf(p.Outcome(), p.Turn()); got != want {
				return fmt.Errorf("egdb: %s: %s has no move and is a %s, but the table says %s", m, p.FEN(), want, got)
			}
			continue
		}
		var lost, drawn, won int
		for _, mv := range moves {
			q := p.Play(mv)
			var v Value
			var err error
			if MaterialOf(q) == m {
				v, err = s.probe(q)
			} else {
				v, err = known.probe(q)
			}
			if err != nil {
				return err
			}
			switch v {
			case Loss:
				lost++
			case Draw:
				drawn++
			case Win:
				won++
			default:
				return fmt.Errorf("egdb: %s: %s: a move leads to a position without a value", m, p.FEN())
			}
		}
		want := Loss
		switch {
		case lost > 0:
			want = Win
		case drawn > 0:
			want = Draw
		}
		if got != want {
			return fmt.Errorf("egdb: %s: %s is a %s in the table, but its moves lead to %d lost, %d drawn and %d won positions for the opponent",
				m, p.FEN(), got, lost, drawn, won)
		}
	}
	return nil
}
