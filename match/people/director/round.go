package director

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
)

// Pairing is a round's pairing by hand: boards of player ids (White,
// Black) and the player with the pairing-allocated bye (0 none).
type Pairing struct {
	Boards [][2]int `json:"boards"`
	Bye    int      `json:"bye,omitempty"`
}

// rnd finds round n.
func (sn *Snapshot) rnd(n int) (*Round, error) {
	if n < 1 || n > len(sn.Rounds) {
		return nil, refuse(message.NotFound, "director.unknown-round", "round", fmt.Sprint(n))
	}
	return &sn.Rounds[n-1], nil
}

// present lists the players (ids) to pair in round n: entered, not
// withdrawn, no bye asked for.
func (sn *Snapshot) present(n int) map[int]bool {
	out := map[int]bool{}
	for i := range sn.Players {
		p := &sn.Players[i]
		if p.Entered <= n && !sn.absentFrom(p, n) {
			out[p.ID] = true
		}
	}
	return out
}

// checkPairing checks that pg pairs each of the players exactly once (a
// board or the bye), nobody against themself, a bye only for an odd field.
func checkPairing(pg Pairing, players map[int]bool) error {
	seen := map[int]bool{}
	use := func(id int) error {
		if !players[id] {
			return fmt.Errorf("player %d is not to be paired in this round", id)
		}
		if seen[id] {
			return fmt.Errorf("player %d is paired twice", id)
		}
		seen[id] = true
		return nil
	}
	for i, b := range pg.Boards {
		if b[0] == b[1] {
			return fmt.Errorf("board %d pairs player %d with themself", i+1, b[0])
		}
		for _, id := range b {
			if err := use(id); err != nil {
				return err
			}
		}
	}
	if pg.Bye != 0 {
		if len(players)%2 == 0 {
			return fmt.Errorf("a bye with an even number of players")
		}
		if err := use(pg.Bye); err != nil {
			return err
		}
	}
	if len(seen) != len(players) {
		for id := range players {
			if !seen[id] {
				return fmt.Errorf("player %d is not paired", id)
			}
		}
	}
	return nil
}

// PairRound pairs round n: the next round, once the previous one is
// closed. manual nil pairs it by the event's system (the Swiss pairer, or
// the Berger tables); otherwise it is the director's pairing, checked.
func (s *Store) PairRound(ctx context.Context, id string, n int, manual *Pairing) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		switch {
		case n > sn.Event.Rounds:
			return refuse(message.Conflict, "director.all-rounds", "rounds", fmt.Sprint(sn.Event.Rounds))
		case n != sn.Next():
			return refuse(message.Conflict, "director.round-order", "round", fmt.Sprint(n), "next", fmt.Sprint(sn.Next()))
		case n > 1 && sn.Rounds[n-2].State != Closed:
			return refuse(message.Conflict, "director.round-open", "round", fmt.Sprint(n), "previous", fmt.Sprint(n-1))
		}
		present := sn.present(n)
		if len(present) < 2 {
			return refuse(message.Conflict, "director.too-few-players", "count", fmt.Sprint(len(present)))
		}
		var pg Pairing
		var auto map[int][2]tally.Result // round-robin boards with an absent side
		var absent = map[int]tally.Result{}
		how := part("audit.pairing.hand")
		switch {
		case manual != nil:
			pg = *manual
			if err := checkPairing(pg, present); err != nil {
				return refuse(message.Invalid, "director.bad-pairing", "detail", err.Error())
			}
		case sn.Event.System == RoundRobin:
			var err error
			if pg, auto, absent, err = sn.berger(n); err != nil {
				return err
			}
			how = part("audit.pairing.berger")
		default:
			opt := sn.Event.Options()
			opt.Forbidden = sn.forbiddenIn(n)
			rd, err := s.callPair(sn.StateAfter(n-1), opt)
			if errors.Is(err, swiss.ErrNoPairing) {
				return refuse(message.Conflict, "director.no-pairing", "round", fmt.Sprint(n))
			}
			if err != nil {
				return refuse(message.Failed, "director.pairing-failed", "round", fmt.Sprint(n), "detail", err.Error())
			}
			if pg, err = sn.fromNumbers(rd); err == nil {
				err = checkPairing(pg, present)
			}
			if err != nil {
				return refuse(message.Failed, "director.pairing-failed", "round", fmt.Sprint(n), "detail", "the pairing program's answer: "+err.Error())
			}
			how = part("audit.pairing.dutch")
		}
		if sn.Event.System == Swiss || manual != nil {
			// Everyone not paired: the bye asked for, else absent (Z).
			for i := range sn.Players {
				p := &sn.Players[i]
				if present[p.ID] || p.Entered > n {
					continue
				}
				if _, asked := sn.Requested[n][p.ID]; !asked {
					absent[p.ID] = tally.ZeroBye
				}
			}
		}
		if _, err := tx.Exec("INSERT INTO rounds (event, n, state, bye) VALUES (?, ?, ?, ?)", id, n, Paired, pg.Bye); err != nil {
			return fmt.Errorf("director: storing round %d: %w", n, err)
		}
		for i, b := range pg.Boards {
			var wr, br, src string
			if r, ok := auto[i]; ok {
				wr, br, src = resText(r[0]), resText(r[1]), "auto"
			}
			if _, err := tx.Exec("INSERT INTO boards (event, round, board, white, black, wres, bres, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
				id, n, i+1, b[0], b[1], wr, br, src); err != nil {
				return fmt.Errorf("director: storing round %d: %w", n, err)
			}
		}
		for pid, k := range absent {
			if _, err := tx.Exec("INSERT OR IGNORE INTO byes (event, round, player, kind, requested) VALUES (?, ?, ?, ?, 0)", id, n, pid, string(k)); err != nil {
				return fmt.Errorf("director: storing round %d: %w", n, err)
			}
		}
		return s.audit(tx, id, "pair", sn.describe("audit.pair", pg, "round", fmt.Sprint(n)).with("how", how))
	})
}

func resText(r tally.Result) string {
	if r == 0 {
		return ""
	}
	return string(r)
}

// callPair calls the pairer; a panic in it is an error, not a crash.
func (s *Store) callPair(ps []tally.Player, opt swiss.Options) (rd swiss.Round, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the pairing program failed: %v", p)
		}
	}()
	return s.pair(ps, opt)
}

// fromNumbers turns a pairing in pairing numbers into player ids.
func (sn *Snapshot) fromNumbers(rd swiss.Round) (Pairing, error) {
	id := func(n int) (int, error) {
		p := sn.ByNumber(n)
		if p == nil || n == 0 {
			return 0, fmt.Errorf("no player number %d", n)
		}
		return p.ID, nil
	}
	var pg Pairing
	for _, b := range rd.Boards {
		w, err := id(b.White)
		if err != nil {
			return pg, err
		}
		bl, err := id(b.Black)
		if err != nil {
			return pg, err
		}
		pg.Boards = append(pg.Boards, [2]int{w, bl})
	}
	if rd.Bye != 0 {
		b, err := id(rd.Bye)
		if err != nil {
			return pg, err
		}
		pg.Bye = b
	}
	return pg, nil
}

// berger pairs round n of a round-robin from the Berger tables over the
// players' numbers (bergerFIDE; an event whose round 1 was paired from
// the tables used before keeps them, legacyBerger). A board with an absent
// side (withdrawn, a bye asked for) is decided at once: + for the one
// present, the bye asked for (or - for a withdrawn player) for the other.
// The free round of an odd field is a zero-point bye.
func (sn *Snapshot) berger(n int) (Pairing, map[int][2]tally.Result, map[int]tally.Result, error) {
	count := len(sn.Players)
	per := count - 1
	if count%2 == 1 {
		per = count
	}
	cycles := (sn.Event.Rounds + per - 1) / per
	if n > per*cycles {
		return Pairing{}, nil, nil, refuse(message.Conflict, "director.all-rounds", "rounds", fmt.Sprint(per*cycles))
	}
	legacy, err := legacyBerger(count, cycles)
	if err != nil {
		return Pairing{}, nil, nil, badField("rounds", err.Error())
	}
	table, bye := bergerFIDE(count, n)
	if len(sn.Rounds) > 0 && n > 1 {
		if old, _ := legacy(1); sn.sameNumbers(&sn.Rounds[0], old) {
			if fide, _ := bergerFIDE(count, 1); !sn.sameNumbers(&sn.Rounds[0], fide) {
				table, bye = legacy(n)
			}
		}
	}
	byNum := func(i int) *Player { return sn.ByNumber(i + 1) }
	var pg Pairing
	auto := map[int][2]tally.Result{}
	absent := map[int]tally.Result{}
	code := func(p *Player) (tally.Result, bool) {
		if p.Withdrawn != 0 && p.Withdrawn <= n {
			return tally.ForfeitLoss, true
		}
		k, ok := sn.Requested[n][p.ID]
		return k, ok
	}
	for _, g := range table {
		w, b := byNum(g[0]), byNum(g[1])
		if w == nil || b == nil {
			return Pairing{}, nil, nil, fmt.Errorf("director: round-robin: no player number %d or %d", g[0]+1, g[1]+1)
		}
		i := len(pg.Boards)
		pg.Boards = append(pg.Boards, [2]int{w.ID, b.ID})
		wc, wa := code(w)
		bc, ba := code(b)
		switch {
		case wa && ba:
			auto[i] = [2]tally.Result{wc, bc}
		case wa:
			auto[i] = [2]tally.Result{wc, tally.ForfeitWin}
		case ba:
			auto[i] = [2]tally.Result{tally.ForfeitWin, bc}
		}
	}
	if bye >= 0 {
		if p := byNum(bye); p != nil {
			absent[p.ID] = tally.ZeroBye
		}
	}
	return pg, auto, absent, nil
}

// legacyBerger is the round-robin table the director paired from before
// the FIDE Berger tables (match/schedule's, the same players meeting in
// another order and colours): round n's boards as [White, Black] pairing
// numbers, 0-based, and the player without an opponent (-1 none).
func legacyBerger(count, cycles int) (func(n int) ([][2]int, int), error) {
	sch, err := schedule.New(schedule.Config{Kind: schedule.RoundRobin, Players: count, Cycles: cycles})
	if err != nil {
		return nil, err
	}
	return func(n int) ([][2]int, int) {
		var boards [][2]int
		for _, g := range sch.All() {
			if g.Round == n && g.PairGame == 0 {
				boards = append(boards, [2]int{g.White, g.Black})
			}
		}
		bye := -1
		for _, by := range sch.Byes() {
			if by.Round == n {
				bye = by.Player
			}
		}
		return boards, bye
	}, nil
}

// sameNumbers reports whether round r's boards are table's (0-based
// pairing numbers, White and Black), in the same order.
func (sn *Snapshot) sameNumbers(r *Round, table [][2]int) bool {
	if len(r.Boards) != len(table) {
		return false
	}
	for i, b := range r.Boards {
		w, k := sn.Player(b.White), sn.Player(b.Black)
		if w == nil || k == nil || w.Number-1 != table[i][0] || k.Number-1 != table[i][1] {
			return false
		}
	}
	return true
}

// describe is the audit line code with pairing pg, in pairing numbers,
// and the arguments kv: code+"-bye" for a pairing with a bye.
func (sn *Snapshot) describe(code string, pg Pairing, kv ...string) note {
	var boards []string
	for i, b := range pg.Boards {
		boards = append(boards, fmt.Sprintf("%d: %s-%s", i+1, sn.label(b[0]), sn.label(b[1])))
	}
	kv = append(kv, "boards", strings.Join(boards, ", "))
	if pg.Bye != 0 {
		return say(code+"-bye", append(kv, "bye", sn.label(pg.Bye))...)
	}
	return say(code, kv...)
}

// label names a player for the audit log: pairing number and name; "—"
// for none (a pairing without a bye).
func (sn *Snapshot) label(id int) string {
	if id == 0 {
		return "—"
	}
	if p := sn.player(id); p != nil {
		return fmt.Sprintf("#%d %s", p.Number, p.Name)
	}
	return fmt.Sprintf("player %d", id)
}

// changeable finds round n for a change of its pairing: the last round,
// not closed, no result in.
func (sn *Snapshot) changeable(n int) (*Round, error) {
	r, err := sn.rnd(n)
	if err != nil {
		return nil, err
	}
	if n != len(sn.Rounds) {
		return nil, refuse(message.Conflict, "director.not-last", "round", fmt.Sprint(n), "last", fmt.Sprint(len(sn.Rounds)))
	}
	for _, b := range r.Boards {
		if (b.WhiteResult != 0 || b.BlackResult != 0) && b.Source != "auto" {
			return nil, refuse(message.Conflict, "director.has-results", "round", fmt.Sprint(n))
		}
		if b.Game != "" {
			return nil, refuse(message.Conflict, "director.has-game", "round", fmt.Sprint(n), "board", fmt.Sprint(b.Board))
		}
	}
	return r, nil
}

// Fix replaces round n's pairing by the director's (the same players, on
// other boards or with other colours): allowed in the last round before
// any result is in. The audit log says what changed, board by board.
func (s *Store) Fix(ctx context.Context, id string, n int, pg Pairing) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		r, err := sn.changeable(n)
		if err != nil {
			return err
		}
		players := map[int]bool{}
		var old Pairing
		for _, b := range r.Boards {
			players[b.White], players[b.Black] = true, true
			old.Boards = append(old.Boards, [2]int{b.White, b.Black})
		}
		if r.Bye != 0 {
			players[r.Bye] = true
		}
		old.Bye = r.Bye
		if err := checkPairing(pg, players); err != nil {
			return refuse(message.Invalid, "director.bad-pairing", "detail", err.Error())
		}
		var changes []message.Message
		for i := 0; i < max(len(old.Boards), len(pg.Boards)); i++ {
			var was, is [2]int
			if i < len(old.Boards) {
				was = old.Boards[i]
			}
			if i < len(pg.Boards) {
				is = pg.Boards[i]
			}
			if was != is {
				changes = append(changes, part("audit.fix.board", "board", fmt.Sprint(i+1), "was", sn.label(was[0])+"-"+sn.label(was[1]), "is", sn.label(is[0])+"-"+sn.label(is[1])))
			}
		}
		if old.Bye != pg.Bye {
			changes = append(changes, part("audit.fix.bye", "was", sn.label(old.Bye), "is", sn.label(pg.Bye)))
		}
		if len(changes) == 0 {
			return nil
		}
		if _, err := tx.Exec("DELETE FROM boards WHERE event = ? AND round = ?", id, n); err != nil {
			return fmt.Errorf("director: fixing round %d: %w", n, err)
		}
		for i, b := range pg.Boards {
			if _, err := tx.Exec("INSERT INTO boards (event, round, board, white, black) VALUES (?, ?, ?, ?, ?)", id, n, i+1, b[0], b[1]); err != nil {
				return fmt.Errorf("director: fixing round %d: %w", n, err)
			}
		}
		if _, err := tx.Exec("UPDATE rounds SET bye = ? WHERE event = ? AND n = ?", pg.Bye, id, n); err != nil {
			return fmt.Errorf("director: fixing round %d: %w", n, err)
		}
		return s.audit(tx, id, "fix", say("audit.fix", "round", fmt.Sprint(n)).with("changes", changes...))
	})
}

// pairingOf is round r's pairing.
func pairingOf(r *Round) Pairing {
	pg := Pairing{Bye: r.Bye}
	for _, b := range r.Boards {
		pg.Boards = append(pg.Boards, [2]int{b.White, b.Black})
	}
	return pg
}

// SwapColors swaps the colours of a board of round n (see Fix).
func (s *Store) SwapColors(ctx context.Context, id string, n, board int) error {
	sn, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	r, err := sn.rnd(n)
	if err != nil {
		return err
	}
	if board < 1 || board > len(r.Boards) {
		return refuse(message.NotFound, "director.unknown-board", "round", fmt.Sprint(n), "board", fmt.Sprint(board))
	}
	pg := pairingOf(r)
	b := &pg.Boards[board-1]
	b[0], b[1] = b[1], b[0]
	return s.Fix(ctx, id, n, pg)
}

// Exchange swaps two players' places in round n's pairing (a board's seat
// or the bye; see Fix).
func (s *Store) Exchange(ctx context.Context, id string, n, a, b int) error {
	sn, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	r, err := sn.rnd(n)
	if err != nil {
		return err
	}
	if a == b {
		return refuse(message.Invalid, "director.bad-pairing", "detail", fmt.Sprintf("player %d exchanged with themself", a))
	}
	pg := pairingOf(r)
	var pa, pb *int
	for i := range pg.Boards {
		for j := range pg.Boards[i] {
			switch pg.Boards[i][j] {
			case a:
				pa = &pg.Boards[i][j]
			case b:
				pb = &pg.Boards[i][j]
			}
		}
	}
	switch pg.Bye {
	case a:
		pa = &pg.Bye
	case b:
		pb = &pg.Bye
	}
	for _, x := range []struct {
		p  *int
		id int
	}{{pa, a}, {pb, b}} {
		if x.p == nil {
			return refuse(message.Invalid, "director.bad-pairing", "detail", fmt.Sprintf("player %d is not in round %d", x.id, n))
		}
	}
	*pa, *pb = b, a
	return s.Fix(ctx, id, n, pg)
}

// Publish makes round n's pairing public; results may be recorded then.
func (s *Store) Publish(ctx context.Context, id string, n int) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		r, err := sn.rnd(n)
		if err != nil {
			return err
		}
		if r.State != Paired {
			return refuse(message.Conflict, "director.already", "round", fmt.Sprint(n), "state", r.State)
		}
		if _, err := tx.Exec("UPDATE rounds SET state = ? WHERE event = ? AND n = ?", Published, id, n); err != nil {
			return fmt.Errorf("director: publishing round %d: %w", n, err)
		}
		return s.audit(tx, id, "publish", say("audit.publish", "round", fmt.Sprint(n)))
	})
}

// Record records a board's result (White's and Black's TRF codes, from
// ParseOutcome). source is "director" or "online": an online game's result
// does not replace one the director entered (the director's word stands;
// the audit log notes it). The director may also correct a result of a
// closed round (a result entered wrongly, found out when the standings
// are posted): the rounds paired since keep their pairings, and the
// standings, ratings and exports follow the correction; the audit log
// says it came after the round was closed. It returns whether the board
// changed.
func (s *Store) Record(ctx context.Context, id string, n, board int, res [2]tally.Result, source string) (bool, error) {
	changed := false
	if source != "online" {
		source = "director"
	}
	valid := false
	for _, o := range outcomes {
		valid = valid || o == res
	}
	if !valid {
		return false, refuse(message.Invalid, "director.bad-result", "result", fmt.Sprintf("%q", string(res[0])+":"+string(res[1])))
	}
	err := s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		r, err := sn.rnd(n)
		if err != nil {
			return err
		}
		switch r.State {
		case Paired:
			return refuse(message.Conflict, "director.not-published", "round", fmt.Sprint(n))
		case Closed:
			if source != "director" {
				return refuse(message.Conflict, "director.closed", "round", fmt.Sprint(n))
			}
		}
		if board < 1 || board > len(r.Boards) {
			return refuse(message.NotFound, "director.unknown-board", "round", fmt.Sprint(n), "board", fmt.Sprint(board))
		}
		b := r.Boards[board-1]
		nb := Board{WhiteResult: res[0], BlackResult: res[1]}
		// The log writes the results as the event does; the codes decide
		// whether anything changed.
		was, is := sn.Event.labelPart(b), sn.Event.labelPart(nb)
		line := func(code string) note {
			l := say(code, "round", fmt.Sprint(n), "board", fmt.Sprint(board)).with("result", is).with("source", part("audit.source."+source))
			if b.Done() {
				l = l.with("was", was)
			}
			return l
		}
		if source == "online" && b.Done() && b.Source == "director" {
			return s.audit(tx, id, "result", line("audit.result-stands"))
		}
		if b.Score() == nb.Score() && b.Source == source {
			return nil
		}
		if _, err := tx.Exec("UPDATE boards SET wres = ?, bres = ?, source = ? WHERE event = ? AND round = ? AND board = ?",
			string(res[0]), string(res[1]), source, id, n, board); err != nil {
			return fmt.Errorf("director: recording round %d board %d: %w", n, board, err)
		}
		changed = true
		switch {
		case r.State == Closed:
			return s.audit(tx, id, "result", line("audit.result-corrected"))
		case b.Done():
			return s.audit(tx, id, "result", line("audit.result-changed"))
		}
		return s.audit(tx, id, "result", line("audit.result"))
	})
	return changed, err
}

// CloseRound closes round n once every board has its result.
func (s *Store) CloseRound(ctx context.Context, id string, n int) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		r, err := sn.rnd(n)
		if err != nil {
			return err
		}
		switch r.State {
		case Paired:
			return refuse(message.Conflict, "director.not-published", "round", fmt.Sprint(n))
		case Closed:
			return refuse(message.Conflict, "director.already", "round", fmt.Sprint(n), "state", r.State)
		}
		for _, b := range r.Boards {
			if !b.Done() {
				return refuse(message.Conflict, "director.results-missing", "round", fmt.Sprint(n), "board", fmt.Sprint(b.Board))
			}
		}
		if _, err := tx.Exec("UPDATE rounds SET state = ? WHERE event = ? AND n = ?", Closed, id, n); err != nil {
			return fmt.Errorf("director: closing round %d: %w", n, err)
		}
		return s.audit(tx, id, "close", say("audit.close", "round", fmt.Sprint(n)))
	})
}

// Undo removes the last round's pairing, before any result is in and
// before any online game is made for it; the byes asked for it stay.
func (s *Store) Undo(ctx context.Context, id string, n int) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		if _, err := sn.changeable(n); err != nil {
			return err
		}
		for _, q := range []string{
			"DELETE FROM boards WHERE event = ? AND round = ?",
			"DELETE FROM byes WHERE event = ? AND round = ? AND requested = 0",
			"DELETE FROM rounds WHERE event = ? AND n = ?",
		} {
			if _, err := tx.Exec(q, id, n); err != nil {
				return fmt.Errorf("director: undoing round %d: %w", n, err)
			}
		}
		return s.audit(tx, id, "undo", sn.describe("audit.undo", pairingOf(&sn.Rounds[n-1]), "round", fmt.Sprint(n)))
	})
}

// SetGame links board of round n to an online game; links are the
// game's player links sealed with SealLinks.
func (s *Store) SetGame(ctx context.Context, id string, n, board int, game string, links []byte) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		r, err := sn.rnd(n)
		if err != nil {
			return err
		}
		if r.State == Closed {
			return refuse(message.Conflict, "director.closed", "round", fmt.Sprint(n))
		}
		if board < 1 || board > len(r.Boards) {
			return refuse(message.NotFound, "director.unknown-board", "round", fmt.Sprint(n), "board", fmt.Sprint(board))
		}
		if r.Boards[board-1].Game != "" {
			return refuse(message.Conflict, "director.has-game", "round", fmt.Sprint(n), "board", fmt.Sprint(board))
		}
		if _, err := tx.Exec("UPDATE boards SET game = ?, links = ? WHERE event = ? AND round = ? AND board = ?", game, links, id, n, board); err != nil {
			return fmt.Errorf("director: linking the game: %w", err)
		}
		return s.audit(tx, id, "game", say("audit.game", "round", fmt.Sprint(n), "board", fmt.Sprint(board), "game", game))
	})
}

// Links returns the sealed links of board's game of round n (nil: none).
func (s *Store) Links(ctx context.Context, id string, n, board int) ([]byte, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, "SELECT links FROM boards WHERE event = ? AND round = ? AND board = ?", id, n, board).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, refuse(message.NotFound, "director.unknown-board", "round", fmt.Sprint(n), "board", fmt.Sprint(board))
	}
	if err != nil {
		return nil, fmt.Errorf("director: %w", err)
	}
	return b, nil
}

// GameBoard is a board linked to an online game.
type GameBoard struct {
	Event string
	Round int
	Board int
	Game  string
	Done  bool // the result is in
}

// Games lists the boards of open rounds linked to online games (for the
// server to follow their results after a restart).
func (s *Store) Games(ctx context.Context) ([]GameBoard, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT b.event, b.round, b.board, b.game, b.wres <> '' AND b.bres <> ''
		FROM boards b JOIN rounds r ON r.event = b.event AND r.n = b.round
		WHERE b.game <> '' AND r.state <> 'closed' ORDER BY b.event, b.round, b.board`)
	if err != nil {
		return nil, fmt.Errorf("director: %w", err)
	}
	defer rows.Close()
	var out []GameBoard
	for rows.Next() {
		var g GameBoard
		if err := rows.Scan(&g.Event, &g.Round, &g.Board, &g.Game, &g.Done); err != nil {
			return nil, fmt.Errorf("director: %w", err)
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// AllLinks returns the sealed links of every board with an online game:
// round -> board -> sealed.
func (s *Store) AllLinks(ctx context.Context, id string) (map[int]map[int][]byte, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT round, board, links FROM boards WHERE event = ? AND game <> ''", id)
	if err != nil {
		return nil, fmt.Errorf("director: %w", err)
	}
	defer rows.Close()
	out := map[int]map[int][]byte{}
	for rows.Next() {
		var n, b int
		var l []byte
		if err := rows.Scan(&n, &b, &l); err != nil {
			return nil, fmt.Errorf("director: %w", err)
		}
		if out[n] == nil {
			out[n] = map[int][]byte{}
		}
		out[n][b] = l
	}
	return out, rows.Err()
}
