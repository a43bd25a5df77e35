package director

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// Results reported by the players (see passes.go): each side of a board
// of a published round has a result link; the players report from their
// phones, and the result is recorded (source "players") when both say the
// same. Until then the director sees what each said, and confirms one
// side's word or settles a disagreement by recording the result as usual
// (Record): the director's word stands over the players'. A result already
// recorded is not changed by a player's report: the player is told to ask
// the director.

// SourcePlayers is a board's Source when both players reported its result.
const SourcePlayers = "players"

// playerOutcomes are the results a player reports: a game played. A
// forfeit is the director's to record.
var playerOutcomes = []string{"1-0", "0-1", "=-="}

func init() {
	codeText["director.report-outcome"] = "{result} is not a result a player reports (1-0, 0-1 or ½-½); the director records forfeits."
	codeText["director.board-done"] = "The result of board {board} is already recorded ({result}); ask the director to change it."
}

// BoardLinks are the secrets of the result links of one board.
type BoardLinks struct {
	Board int    `json:"board"`
	White string `json:"white"`
	Black string `json:"black"`
}

// ReportLinks returns the result links of round n's boards, made the
// first time they are asked for: the director prints them (token is the
// director's secret, whose key seals them). Only a published round has
// them; a board decided at pairing (a round-robin's absent player) has
// none.
func (s *Store) ReportLinks(ctx context.Context, id, token string, n int) ([]BoardLinks, error) {
	if err := s.checkToken(ctx, id, token); err != nil {
		return nil, err
	}
	var out []BoardLinks
	err := s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		r, err := sn.rnd(n)
		if err != nil {
			return err
		}
		switch r.State {
		case Paired:
			return refuse(message.Conflict, "director.not-published", "round", fmt.Sprint(n))
		case Closed:
			return refuse(message.Conflict, "director.closed", "round", fmt.Sprint(n))
		}
		made := 0
		for _, b := range r.Boards {
			if b.Source == "auto" {
				continue
			}
			bl := BoardLinks{Board: b.Board}
			for side, who := range map[int]int{int(tally.White): b.White, int(tally.Black): b.Black} {
				var had int
				if err := tx.QueryRow("SELECT count(*) FROM passes WHERE event = ? AND kind = ? AND round = ? AND board = ? AND side = ? AND player = ?",
					id, PassReport, n, b.Board, side, who).Scan(&had); err != nil {
					return fmt.Errorf("director: reading passes: %w", err)
				}
				secret, err := s.issue(tx, token, Pass{Event: id, Kind: PassReport, Round: n, Board: b.Board, Side: side, Player: who})
				if err != nil {
					return err
				}
				if had == 0 {
					made++
				}
				if side == int(tally.White) {
					bl.White = secret
				} else {
					bl.Black = secret
				}
			}
			out = append(out, bl)
		}
		if made > 0 {
			return s.audit(tx, id, "links", say("audit.links-results", "round", fmt.Sprint(n), "count", fmt.Sprint(made)))
		}
		return nil
	})
	return out, err
}

// Seat is a player as a board's page names them.
type Seat struct {
	Name   string `json:"name"`
	Number int    `json:"number"`
}

// Choice is a result a player may report, with its label as the event
// writes it (ResultLabel).
type Choice struct {
	Outcome string `json:"outcome"`
	Label   string `json:"label"`
}

// BoardReport is a board as a player's result link shows it.
type BoardReport struct {
	Event string `json:"event"` // the event's name
	Round int    `json:"round"`
	Board int    `json:"board"`
	Side  string `json:"side"` // white | black: whose link this is
	White Seat   `json:"white"`
	Black Seat   `json:"black"`
	// Mine and Theirs are what this side and the opponent reported (one of
	// Outcomes, "" nothing yet).
	Mine   string `json:"mine"`
	Theirs string `json:"theirs"`
	// Result is the board's recorded result ("" not in), Label as the
	// event writes it, Source who gave it (players, director, online).
	Result string `json:"result"`
	Label  string `json:"label"`
	Source string `json:"source"`
	// Disputed: both reported, not the same, and no result yet: the
	// director decides.
	Disputed bool     `json:"disputed"`
	Open     bool     `json:"open"` // the round takes reports (published, not closed)
	Choices  []Choice `json:"choices"`
}

// reportBoard finds the board of a report pass in sn: ErrUnknownPass when
// the round, the board or the side's player is not the pass's any more.
func reportBoard(sn *Snapshot, p Pass) (*Round, *Board, error) {
	if p.Kind != PassReport || p.Round < 1 || p.Round > len(sn.Rounds) {
		return nil, nil, ErrUnknownPass
	}
	r := &sn.Rounds[p.Round-1]
	if p.Board < 1 || p.Board > len(r.Boards) {
		return nil, nil, ErrUnknownPass
	}
	b := &r.Boards[p.Board-1]
	if (p.Side == int(tally.White) && b.White != p.Player) || (p.Side == int(tally.Black) && b.Black != p.Player) ||
		(p.Side != int(tally.White) && p.Side != int(tally.Black)) {
		return nil, nil, ErrUnknownPass
	}
	return r, b, nil
}

// claims reads what each side of board b of round n said (0 White's, 1
// Black's); a report by a player no longer on that side does not count.
func claims(ctx context.Context, q querier, id string, n int, b *Board) ([2]string, error) {
	var out [2]string
	rows, err := q.QueryContext(ctx, "SELECT side, player, outcome FROM reports WHERE event = ? AND round = ? AND board = ?", id, n, b.Board)
	if err != nil {
		return out, fmt.Errorf("director: reading reports: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var side, player int
		var o string
		if err := rows.Scan(&side, &player, &o); err != nil {
			return out, fmt.Errorf("director: reading reports: %w", err)
		}
		switch {
		case side == int(tally.White) && player == b.White:
			out[0] = o
		case side == int(tally.Black) && player == b.Black:
			out[1] = o
		}
	}
	return out, rows.Err()
}

func (sn *Snapshot) seat(id int) Seat {
	if p := sn.player(id); p != nil {
		return Seat{Name: p.Name, Number: p.Number}
	}
	return Seat{}
}

// boardReport is the page of pass p.
func boardReport(ctx context.Context, q querier, sn *Snapshot, p Pass) (*BoardReport, error) {
	r, b, err := reportBoard(sn, p)
	if err != nil {
		return nil, err
	}
	said, err := claims(ctx, q, sn.Event.ID, r.N, b)
	if err != nil {
		return nil, err
	}
	out := &BoardReport{Event: sn.Event.Name, Round: r.N, Board: b.Board, Side: "white", White: sn.seat(b.White), Black: sn.seat(b.Black),
		Mine: said[0], Theirs: said[1], Result: b.Outcome(), Label: sn.Event.ResultLabel(*b), Source: b.Source,
		Open: r.State == Published, Choices: make([]Choice, 0, len(playerOutcomes))}
	if p.Side == int(tally.Black) {
		out.Side, out.Mine, out.Theirs = "black", said[1], said[0]
	}
	out.Disputed = !b.Done() && said[0] != "" && said[1] != "" && said[0] != said[1]
	for _, o := range playerOutcomes {
		res := outcomes[o]
		out.Choices = append(out.Choices, Choice{Outcome: o, Label: sn.Event.ResultLabel(Board{WhiteResult: res[0], BlackResult: res[1]})})
	}
	return out, nil
}

// BoardReportOf is the board of a result link as its player sees it.
func (s *Store) BoardReportOf(ctx context.Context, secret string) (*BoardReport, error) {
	p, err := s.ResolvePass(ctx, secret)
	if err != nil {
		return nil, err
	}
	if p.Kind != PassReport {
		return nil, ErrUnknownPass
	}
	sn, err := s.Get(ctx, p.Event)
	if err != nil {
		return nil, err
	}
	return boardReport(ctx, s.db, sn, p)
}

// Report records what the holder of a result link says the board's
// result is (1-0, 0-1, a draw: ParseOutcome's forms). When the other side
// said the same, the result is recorded (source "players"); when it said
// otherwise, the audit log flags the disagreement for the director. A
// player may change their word until the result is in.
func (s *Store) Report(ctx context.Context, secret, outcome string) (*BoardReport, error) {
	p, err := s.ResolvePass(ctx, secret)
	if err != nil {
		return nil, err
	}
	if p.Kind != PassReport {
		return nil, ErrUnknownPass
	}
	var out *BoardReport
	err = s.update(ctx, p.Event, func(tx *sql.Tx, sn *Snapshot) error {
		r, b, err := reportBoard(sn, p)
		if err != nil {
			return err
		}
		switch r.State {
		case Paired:
			return refuse(message.Conflict, "director.not-published", "round", fmt.Sprint(r.N))
		case Closed:
			return refuse(message.Conflict, "director.closed", "round", fmt.Sprint(r.N))
		}
		res, ok := ParseOutcome(outcome)
		o := Board{WhiteResult: res[0], BlackResult: res[1]}.Outcome()
		if !ok || (o != "1-0" && o != "0-1" && o != "=-=") {
			return refuse(message.Invalid, "director.report-outcome", "result", fmt.Sprintf("%q", clip(outcome, 16)))
		}
		label := sn.Event.labelPart(Board{WhiteResult: res[0], BlackResult: res[1]})
		if b.Done() {
			if b.Outcome() == o {
				out, err = boardReport(ctx, tx, sn, p)
				return err
			}
			return refuse(message.Conflict, "director.board-done", "board", fmt.Sprint(b.Board), "result", sn.Event.ResultLabel(*b))
		}
		side, other := "White", "Black"
		if p.Side == int(tally.Black) {
			side, other = "Black", "White"
		}
		said, err := claims(ctx, tx, p.Event, r.N, b)
		if err != nil {
			return err
		}
		mine, theirs := said[0], said[1]
		if p.Side == int(tally.Black) {
			mine, theirs = said[1], said[0]
		}
		if mine != o {
			if _, err := tx.Exec(`INSERT INTO reports (event, round, board, side, player, outcome, at) VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (event, round, board, side) DO UPDATE SET player = excluded.player, outcome = excluded.outcome, at = excluded.at`,
				p.Event, r.N, b.Board, p.Side, p.Player, o, s.now().UnixNano()); err != nil {
				return fmt.Errorf("director: storing a report: %w", err)
			}
			if err := s.audit(tx, p.Event, "report", say("audit.report", "round", fmt.Sprint(r.N), "board", fmt.Sprint(b.Board), "side", side, "player", sn.label(p.Player)).with("result", label)); err != nil {
				return err
			}
		}
		switch {
		case theirs == o:
			if _, err := tx.Exec("UPDATE boards SET wres = ?, bres = ?, source = ? WHERE event = ? AND round = ? AND board = ?",
				string(res[0]), string(res[1]), SourcePlayers, p.Event, r.N, b.Board); err != nil {
				return fmt.Errorf("director: recording round %d board %d: %w", r.N, b.Board, err)
			}
			b.WhiteResult, b.BlackResult, b.Source = res[0], res[1], SourcePlayers
			if err := s.audit(tx, p.Event, "result", say("audit.result", "round", fmt.Sprint(r.N), "board", fmt.Sprint(b.Board)).with("result", label).with("source", part("audit.source."+SourcePlayers))); err != nil {
				return err
			}
		case theirs != "" && mine != o:
			line := say("audit.dispute", "round", fmt.Sprint(r.N), "board", fmt.Sprint(b.Board), "side", side, "other", other)
			if err := s.audit(tx, p.Event, "dispute", line.with("result", label).with("other_result", sn.Event.labelPart(boardOf(theirs)))); err != nil {
				return err
			}
		}
		out, err = boardReport(ctx, tx, sn, p)
		return err
	})
	return out, err
}

func boardOf(outcome string) Board {
	r := outcomes[outcome]
	return Board{WhiteResult: r[0], BlackResult: r[1]}
}

// Claims is what the players of a board reported (one of Outcomes, ""
// nothing yet), as the director's page shows it.
type Claims struct {
	White    string `json:"white,omitempty"`
	Black    string `json:"black,omitempty"`
	Disputed bool   `json:"disputed,omitempty"` // they disagree and no result is in
}

// RoundClaims is what the players reported on round n's boards: board ->
// claims (boards nobody reported on are left out).
func (s *Store) RoundClaims(ctx context.Context, id string, n int) (map[int]Claims, error) {
	sn, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	r, err := sn.rnd(n)
	if err != nil {
		return nil, err
	}
	out := map[int]Claims{}
	for i := range r.Boards {
		b := &r.Boards[i]
		said, err := claims(ctx, s.db, id, n, b)
		if err != nil {
			return nil, err
		}
		if said[0] == "" && said[1] == "" {
			continue
		}
		out[b.Board] = Claims{White: said[0], Black: said[1], Disputed: !b.Done() && said[0] != "" && said[1] != "" && said[0] != said[1]}
	}
	return out, nil
}
