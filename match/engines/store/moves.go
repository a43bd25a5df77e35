package store

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"
)

// A finished game's moves are one blob in its row (games.moves, schema
// version 8), not a row each: storing a game is then one statement, which
// for a match of instant engines was a third of the arbiter's own work
// beside the engines' pipes. The blob is movesFormat, the number of plies
// (uvarint: a blob cut short is known as such), then per ply:
//
//	uvarint len, text    the move
//	varint               thinking time, ns
//	varint               the side's clock after the move, ns
//	byte                 1 when a score follows, else 0
//	[8 bytes]            the score, IEEE 754 little-endian
//	varint               depth
//	varint               nodes
//	uvarint len, pv      principal variation
//	varint               latency, ns
//
// NULL is a game with no recorded moves (a running game, or one migrated
// from a file that had none); an empty game is the format byte alone.
const movesFormat = 1

// minPly is the fewest bytes a ply takes (eight one-byte fields): a
// count above what the blob can hold is corrupt, not an allocation.
const minPly = 8

// errCorruptMoves is wrapped by unpackMoves for a blob it cannot read.
var errCorruptMoves = errors.New("corrupt moves")

// packMoves is the blob of ms.
func packMoves(ms []Move) []byte {
	n := 1
	for _, m := range ms {
		n += len(m.Text) + len(m.PV) + 40
	}
	b := make([]byte, 1, n)
	b[0] = movesFormat
	b = binary.AppendUvarint(b, uint64(len(ms)))
	for _, m := range ms {
		b = appendMove(b, m)
	}
	return b
}

func appendMove(b []byte, m Move) []byte {
	b = binary.AppendUvarint(b, uint64(len(m.Text)))
	b = append(b, m.Text...)
	b = binary.AppendVarint(b, int64(m.Time))
	b = binary.AppendVarint(b, int64(m.Clock))
	if m.HasScore {
		b = append(b, 1)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.Score))
	} else {
		b = append(b, 0)
	}
	b = binary.AppendVarint(b, int64(m.Depth))
	b = binary.AppendVarint(b, m.Nodes)
	b = binary.AppendUvarint(b, uint64(len(m.PV)))
	b = append(b, m.PV...)
	return binary.AppendVarint(b, int64(m.Latency))
}

// unpackMoves reads packMoves's blob; nil for NULL.
func unpackMoves(b []byte) ([]Move, error) {
	if b == nil {
		return nil, nil
	}
	if len(b) == 0 || b[0] != movesFormat {
		return nil, fmt.Errorf("%w: not format %d", errCorruptMoves, movesFormat)
	}
	n, k := binary.Uvarint(b[1:])
	if k <= 0 || n > uint64(len(b)-1-k)/minPly {
		return nil, fmt.Errorf("%w: no ply count", errCorruptMoves)
	}
	ms := make([]Move, n)
	r := moveReader{b: b[1+k:]}
	for i := range ms {
		var err error
		if ms[i], err = r.move(); err != nil {
			return nil, fmt.Errorf("%w: ply %d of %d: %v", errCorruptMoves, i+1, n, err)
		}
	}
	if len(r.b) > 0 {
		return nil, fmt.Errorf("%w: %d bytes after ply %d", errCorruptMoves, len(r.b), n)
	}
	return ms, nil
}

// moveReader reads the plies of a blob one by one.
type moveReader struct{ b []byte }

var errShort = errors.New("cut short")

func (r *moveReader) varint() (int64, error) {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		return 0, errShort
	}
	r.b = r.b[n:]
	return v, nil
}

func (r *moveReader) text() (string, error) {
	n, k := binary.Uvarint(r.b)
	if k <= 0 || n > uint64(len(r.b)-k) {
		return "", errShort
	}
	s := string(r.b[k : k+int(n)])
	r.b = r.b[k+int(n):]
	return s, nil
}

// move reads one ply.
func (r *moveReader) move() (Move, error) {
	var m Move
	var err error
	var v [2]int64
	if m.Text, err = r.text(); err != nil {
		return m, fmt.Errorf("move: %w", err)
	}
	for i := range v {
		if v[i], err = r.varint(); err != nil {
			return m, fmt.Errorf("times: %w", err)
		}
	}
	m.Time, m.Clock = time.Duration(v[0]), time.Duration(v[1])
	if len(r.b) == 0 || r.b[0] > 1 || r.b[0] == 1 && len(r.b) < 9 {
		return m, errors.New("score: cut short or not a flag")
	}
	if m.HasScore = r.b[0] == 1; m.HasScore {
		m.Score = math.Float64frombits(binary.LittleEndian.Uint64(r.b[1:9]))
		r.b = r.b[9:]
	} else {
		r.b = r.b[1:]
	}
	var depth int64
	if depth, err = r.varint(); err == nil {
		m.Depth = int(depth)
		m.Nodes, err = r.varint()
	}
	if err != nil {
		return m, fmt.Errorf("search: %w", err)
	}
	if m.PV, err = r.text(); err != nil {
		return m, fmt.Errorf("pv: %w", err)
	}
	latency, err := r.varint()
	if err != nil {
		return m, fmt.Errorf("latency: %w", err)
	}
	m.Latency = time.Duration(latency)
	return m, nil
}

// packMovesTable is the Go half of the migration from schema version 7:
// each game's rows of the old moves table become its blob, and the table
// goes. The games are taken a range of IDs at a time, so that an event of
// 100,000 games does not hold all its moves in memory at once.
func packMovesTable(tx *sql.Tx) error {
	var lo, hi sql.NullInt64
	if err := tx.QueryRow(`SELECT min(game), max(game) FROM moves`).Scan(&lo, &hi); err != nil {
		return err
	}
	const span = 1000
	for from := lo.Int64; lo.Valid && from <= hi.Int64; from += span {
		games, err := oldMoves(tx, from, from+span)
		if err != nil {
			return err
		}
		for _, g := range games {
			if _, err := tx.Exec(`UPDATE games SET moves = ? WHERE id = ?`, packMoves(g.moves), g.id); err != nil {
				return fmt.Errorf("game %d: %w", g.id+1, err)
			}
		}
	}
	_, err := tx.Exec(`DROP TABLE moves`)
	return err
}

// oldGame is one game's moves as the old moves table held them.
type oldGame struct {
	id    int
	moves []Move
}

// oldMoves reads the moves table's games from IDs lo to hi (excluded), in
// ID order.
func oldMoves(tx *sql.Tx, lo, hi int64) ([]oldGame, error) {
	rows, err := tx.Query(`SELECT game, text, ms, clock_ms, score, depth, nodes, pv, latency_ms FROM moves
		WHERE game >= ? AND game < ? ORDER BY game, ply`, lo, hi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var games []oldGame
	for rows.Next() {
		var g int
		var m Move
		var t, clock, latency float64
		var score sql.NullFloat64
		if err := rows.Scan(&g, &m.Text, &t, &clock, &score, &m.Depth, &m.Nodes, &m.PV, &latency); err != nil {
			return nil, err
		}
		m.Time, m.Clock, m.Latency = durationOf(t), durationOf(clock), durationOf(latency)
		m.Score, m.HasScore = score.Float64, score.Valid
		if len(games) == 0 || games[len(games)-1].id != g {
			games = append(games, oldGame{id: g})
		}
		last := &games[len(games)-1]
		last.moves = append(last.moves, m)
	}
	return games, rows.Err()
}

// msOf and durationOf convert between durations and the milliseconds the
// database holds (the live column's JSON; the moves table of schema
// version 7 and before).
func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func durationOf(ms float64) time.Duration {
	return time.Duration(math.Round(ms * float64(time.Millisecond)))
}
