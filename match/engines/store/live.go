package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Live is what a running game has played so far, as the runner writes it
// for a live view in another process (`arbiter serve --watch`): the moves
// with what the engines said of them, and both clocks. It is kept in the
// game's row and goes when the game is finished or played again.
type Live struct {
	Moves []Move // without their Latency, a diagnostic of the finished game
	// Clocks are White's and Black's time left after the last move (0
	// untimed).
	Clocks  [2]time.Duration
	Updated time.Time
}

// liveJSON is Live as the games.live column holds it: short keys, as the
// row is rewritten while the game goes on.
type liveJSON struct {
	Moves   []liveMove `json:"m"`
	Clocks  [2]float64 `json:"c"` // ms
	Updated string     `json:"u"`
}

type liveMove struct {
	Text  string   `json:"t"`
	Ms    float64  `json:"ms,omitempty"`
	Clock float64  `json:"c,omitempty"`
	Score *float64 `json:"s,omitempty"`
	Depth int      `json:"d,omitempty"`
	Nodes int64    `json:"n,omitempty"`
	PV    string   `json:"pv,omitempty"`
}

func encodeLive(l Live) ([]byte, error) {
	j := liveJSON{Moves: make([]liveMove, len(l.Moves)), Clocks: [2]float64{msOf(l.Clocks[0]), msOf(l.Clocks[1])}, Updated: formatTime(l.Updated)}
	for i, m := range l.Moves {
		lm := liveMove{Text: m.Text, Ms: msOf(m.Time), Clock: msOf(m.Clock), Depth: m.Depth, Nodes: m.Nodes, PV: m.PV}
		if m.HasScore {
			sc := m.Score
			lm.Score = &sc
		}
		j.Moves[i] = lm
	}
	return json.Marshal(j)
}

func decodeLive(text string) (Live, error) {
	var l Live
	if text == "" {
		return l, nil
	}
	var j liveJSON
	if err := json.Unmarshal([]byte(text), &j); err != nil {
		return l, err
	}
	l.Moves = make([]Move, len(j.Moves))
	for i, m := range j.Moves {
		mv := Move{Text: m.Text, Time: durationOf(m.Ms), Clock: durationOf(m.Clock), Depth: m.Depth, Nodes: m.Nodes, PV: m.PV}
		if m.Score != nil {
			mv.Score, mv.HasScore = *m.Score, true
		}
		l.Moves[i] = mv
	}
	l.Clocks = [2]time.Duration{durationOf(j.Clocks[0]), durationOf(j.Clocks[1])}
	var err error
	l.Updated, err = parseTime(j.Updated)
	return l, err
}

// SetLive records l as running game id's moves so far. A game that is not
// running (finished, discarded, not started) is left as it is, so that a
// late write for a game that has just ended changes nothing.
func (s *Store) SetLive(ctx context.Context, id int, l Live) error {
	data, err := encodeLive(l)
	if err != nil {
		return fmt.Errorf("store: %s: game %d live moves: %w", s.path, id+1, err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE games SET live = ? WHERE id = ? AND status = 'running'`, string(data), id); err != nil {
		return fmt.Errorf("store: %s: game %d live moves: %w", s.path, id+1, err)
	}
	return nil
}

// RunningGames calls fn with each running game (its row as Start wrote it)
// and what SetLive last recorded of it (nothing yet: no moves), in ID order.
func (s *Store) RunningGames(ctx context.Context, fn func(Game, Live) error) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, cycle, round, board, pair, pair_game, white, black, opening, opening_fen,
		first_mover, started, worker, live FROM games WHERE status = 'running' ORDER BY id`)
	if err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	type row struct {
		g    Game
		live string
	}
	var all []row
	for rows.Next() {
		var r row
		var started string
		g := &r.g
		if err := rows.Scan(&g.ID, &g.Cycle, &g.Round, &g.Board, &g.Pair, &g.PairGame, &g.White, &g.Black, &g.Opening, &g.OpeningFEN,
			&g.FirstMover, &started, &g.Worker, &r.live); err != nil {
			rows.Close()
			return fmt.Errorf("store: %s: %w", s.path, err)
		}
		g.Status = Running
		if g.Started, err = parseTime(started); err != nil {
			rows.Close()
			return fmt.Errorf("store: %s: game %d started %q: %w", s.path, g.ID+1, started, err)
		}
		all = append(all, r)
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	// fn runs after the rows are closed: the one connection is free for it.
	for _, r := range all {
		l, err := decodeLive(r.live)
		if err != nil {
			return fmt.Errorf("store: %s: game %d: live moves: %w", s.path, r.g.ID+1, err)
		}
		r.g.Plies = len(l.Moves)
		if err := fn(r.g, l); err != nil {
			return err
		}
	}
	return nil
}
