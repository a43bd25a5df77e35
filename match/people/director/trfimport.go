package director

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

// MaxTRF bounds a TRF16 file to import.
const MaxTRF = 1 << 20

// ParseTRF reads a TRF16 file for ImportTRF; a problem is an *Error with
// the file's line and column.
func ParseTRF(data []byte) (*trf.Event, error) {
	if len(data) > MaxTRF {
		return nil, placed(message.TooLarge, "director.trf", 0, 0, fmt.Sprintf("larger than %d bytes", MaxTRF))
	}
	ev, err := trf.Read(strings.NewReader(string(data)))
	if err != nil {
		var te *trf.Error
		if errors.As(err, &te) {
			return nil, placed(message.Invalid, "director.trf", te.Line, te.Column, te.Msg)
		}
		return nil, placed(message.Invalid, "director.trf", 0, 0, err.Error())
	}
	return ev, nil
}

// Rated maps TRF's codes of a game played but not rated (W D L) to the
// rated ones (1 = 0) and leaves the others. A board keeps the codes it was
// given (an imported W-L stays W-L, scored as 1-0, and is exported as W-L);
// Rated is for reading a board's outcome whatever its rating status.
func Rated(r tally.Result) tally.Result {
	switch r {
	case tally.UnratedWin:
		return tally.Win
	case tally.UnratedDraw:
		return tally.Draw
	case tally.UnratedLoss:
		return tally.Loss
	}
	return r
}

// ImportTRF creates an event from a TRF16 file: its players (the file's
// start numbers become the pairing numbers) and every round of their
// histories as a closed round. settings gives what the file does not say
// (variant, time control if absent, system and rounds if absent); the
// file's name, site, dates and point system are taken when present. The
// histories must agree (each game seen from both sides, opposite colours,
// results that make a board): a problem names the player and the round
// and, for a file read by ParseTRF, the line and column (code
// director.trf), as does a setting taken from a header line (012, 042,
// 122, XXR, XXS...) that the event refuses.
func (s *Store) ImportTRF(ctx context.Context, settings Event, tev *trf.Event) (Event, string, error) {
	e, token, err := s.importTRF(ctx, settings, tev)
	if err != nil {
		return Event{}, "", atLine(err, tev)
	}
	return e, token, nil
}

func (s *Store) importTRF(ctx context.Context, settings Event, tev *trf.Event) (Event, string, error) {
	e := importHeader(settings, tev)
	if len(tev.Players) > MaxPlayers {
		return Event{}, "", refuse(message.Conflict, "director.too-many-players", "limit", fmt.Sprint(MaxPlayers))
	}
	played, longest, requested, err := playedRounds(tev)
	if err != nil {
		return Event{}, "", err
	}
	if e, err = importSettings(e, tev, longest); err != nil {
		return Event{}, "", err
	}
	players, byNum, err := importPlayers(tev)
	if err != nil {
		return Event{}, "", err
	}
	// XXP and 260: the file's start numbers are the entry ids.
	for _, f := range tev.Forbidden {
		for _, n := range f.Players {
			if byNum[n] == nil {
				return Event{}, "", trfProblem(n, 0, "a prohibited pairing (XXP or 260) names this player, who has no 001 line")
			}
		}
		if e.System != Swiss {
			break
		}
		e.Forbidden = append(e.Forbidden, Group{Players: slices.Clone(f.Players), From: f.First, To: f.Last})
	}
	rounds, err := importRounds(tev, players, byNum, played)
	if err != nil {
		return Event{}, "", err
	}
	token, err := s.storeImport(ctx, &e, players, rounds, requested, played)
	if err != nil {
		return Event{}, "", err
	}
	return e, token, nil
}

// importHeader takes the event's name, site, dates, time control and
// system from the file's header where it gives them.
func importHeader(settings Event, tev *trf.Event) Event {
	e := settings
	if tev.Name != "" {
		e.Name = tev.Name
	}
	if tev.City != "" {
		e.Site = tev.City
	}
	if d := strings.ReplaceAll(strings.TrimSpace(tev.StartDate), "/", "-"); len(d) == 10 {
		e.Start = d
	}
	if d := strings.ReplaceAll(strings.TrimSpace(tev.EndDate), "/", "-"); len(d) == 10 {
		e.End = d
	}
	if tev.TimeControl != "" && e.TimeControl == "" {
		e.TimeControl = tev.TimeControl
	}
	if strings.Contains(strings.ToLower(tev.Type), "round") {
		e.System = RoundRobin
	}
	if strings.HasPrefix(tev.System, "FIDE_BURSTEIN") || strings.Contains(strings.ToLower(tev.Type), "burstein") {
		e.Pairing = swiss.Burstein.String()
	}
	return e
}

// playedRounds: the rounds played are those up to the last one in which
// someone was paired (a game, a forfeit, the pairing-allocated bye), as
// bbpPairings reads a file; the columns after it can only hold requested
// byes (0000 - H, F or Z), which become the requests of those rounds
// (round -> player -> H F Z). longest is the longest history.
func playedRounds(tev *trf.Event) (played, longest int, requested map[int]map[int]tally.Result, err error) {
	for _, p := range tev.Players {
		longest = max(longest, len(p.History))
		for r, x := range p.History {
			if x.Opponent != 0 || x.Result == tally.PairingBye || x.Result == tally.ForfeitWin {
				played = max(played, r+1)
			}
		}
	}
	requested = map[int]map[int]tally.Result{}
	for _, p := range tev.Players {
		for r := played; r < len(p.History); r++ {
			switch k := p.History[r].Result; k {
			case tally.HalfBye, tally.FullBye, tally.ZeroBye:
				if requested[r+1] == nil {
					requested[r+1] = map[int]tally.Result{}
				}
				requested[r+1][p.Number] = k
			default:
				return 0, 0, nil, trfProblem(p.Number, r+1, fmt.Sprintf("round %d comes after the last round played (%d) and can only hold a requested bye (H, F or Z), not %q", r+1, played, string(k)))
			}
		}
	}
	return played, longest, requested, nil
}

// importSettings takes the number of rounds, the first colour and the
// point system from the file, and checks the event.
func importSettings(e Event, tev *trf.Event, longest int) (Event, error) {
	e.Rounds = max(e.Rounds, tev.Rounds, longest)
	// XXC or 152: the colour drawn for the top player, which the Dutch
	// system keeps using when colour preferences are equal (C.04.3 E.5);
	// without one, the pairing infers it from round 1 (swiss.InferFirstColor).
	if tev.FirstColor != tally.NoColor {
		e.FirstColor = tev.FirstColor
	}
	if tev.PointSystem != nil {
		e.Scoring = tev.PointSystem.Scoring()
		e.HalfPoints = tev.PointSystem.Win == 10
	} else {
		e.Scoring, e.HalfPoints = tally.DefaultScoring, true // FIDE's 1 - ½ - 0
	}
	return checkEvent(e)
}

// importPlayers makes the event's players from the 001 lines, by start
// number.
func importPlayers(tev *trf.Event) ([]Player, map[int]*trf.Player, error) {
	byNum := map[int]*trf.Player{}
	var players []Player
	for i := range tev.Players {
		tp := &tev.Players[i]
		if tp.Number < 1 || byNum[tp.Number] != nil {
			return nil, nil, trfProblem(tp.Number, 0, "start number missing or given twice")
		}
		byNum[tp.Number] = tp
		name := tp.Name
		if name == "" {
			name = fmt.Sprintf("Player %d", tp.Number)
		}
		p, err := checkPlayer(Player{ID: tp.Number, Number: tp.Number, Name: name, Federation: tp.Federation, FedID: tp.FIDEID, Rating: tp.Rating, Entered: 1})
		if err != nil {
			var de *Error
			if errors.As(err, &de) {
				return nil, nil, trfProblem(tp.Number, 0, de.Args["field"]+": "+de.Args["detail"])
			}
			return nil, nil, err
		}
		p.ID, p.Number, p.Entered = tp.Number, tp.Number, 1
		players = append(players, p)
	}
	return players, byNum, nil
}

// importedRound is one played round of the file: its boards, the
// pairing-allocated bye and the requested byes.
type importedRound struct {
	boards []Board
	bye    int
	byes   map[int]tally.Result
}

// importRounds makes the played rounds: boards from the games seen by
// White (or by the lower number when the file gives no colours), byes
// from the rest.
func importRounds(tev *trf.Event, players []Player, byNum map[int]*trf.Player, played int) ([]importedRound, error) {
	entry := func(n, r int) tally.Entry {
		if h := byNum[n].History; r < len(h) && r < played {
			return h[r]
		}
		return tally.Entry{Result: tally.ZeroBye}
	}
	rounds := make([]importedRound, played)
	for r := 0; r < played; r++ {
		rd := &rounds[r]
		rd.byes = map[int]tally.Result{}
		for _, p := range players {
			me := entry(p.Number, r)
			if me.Opponent == 0 {
				if err := rd.unpaired(p, me, r); err != nil {
					return nil, err
				}
				continue
			}
			if byNum[me.Opponent] == nil || me.Opponent == p.Number {
				return nil, trfProblem(p.Number, r+1, fmt.Sprintf("opponent %d is not in the file", me.Opponent))
			}
			them := entry(me.Opponent, r)
			if them.Opponent != p.Number {
				return nil, trfProblem(p.Number, r+1, fmt.Sprintf("plays %d, who has %d that round", me.Opponent, them.Opponent))
			}
			first := me.Color == tally.White || me.Color == tally.NoColor && them.Color != tally.White && p.Number < me.Opponent
			if !first {
				continue
			}
			b, err := importBoard(p, me, them, r)
			if err != nil {
				return nil, err
			}
			b.Board = len(rd.boards) + 1
			rd.boards = append(rd.boards, b)
		}
	}
	return rounds, nil
}

// unpaired records a player without an opponent in round r (0-based):
// the pairing-allocated bye, a requested bye, or an absence.
func (rd *importedRound) unpaired(p Player, me tally.Entry, r int) error {
	switch me.Result {
	case tally.PairingBye, tally.ForfeitWin:
		// "0000 - +" is how older files write the pairing-allocated
		// bye: a win without an opponent, given by the pairing
		// (bbpPairings reads it so too).
		if rd.bye != 0 {
			return trfProblem(p.Number, r+1, fmt.Sprintf("a second pairing-allocated bye (player %d has one)", rd.bye))
		}
		rd.bye = p.ID
	case tally.HalfBye, tally.FullBye, tally.ZeroBye:
		rd.byes[p.ID] = me.Result
	case tally.ForfeitLoss:
		rd.byes[p.ID] = tally.ZeroBye
	default:
		return trfProblem(p.Number, r+1, fmt.Sprintf("result %q without an opponent", string(me.Result)))
	}
	return nil
}

// importBoard is the board of p (White, or the lower number when the
// file gives no colours) against me.Opponent in round r (0-based). The
// board keeps the file's codes: W D L (played, not rated) stay so, to be
// exported as read.
func importBoard(p Player, me, them tally.Entry, r int) (Board, error) {
	if me.Color != tally.NoColor && them.Color != tally.Black {
		return Board{}, trfProblem(p.Number, r+1, fmt.Sprintf("both players of the game with %d have White", me.Opponent))
	}
	res := [2]tally.Result{me.Result, them.Result}
	rated := [2]tally.Result{Rated(res[0]), Rated(res[1])}
	valid := (res[0] == rated[0]) == (res[1] == rated[1])
	ok := false
	for _, o := range outcomes {
		ok = ok || o == rated
	}
	if !valid || !ok {
		return Board{}, trfProblem(p.Number, r+1, fmt.Sprintf("results %q and %q of the game with %d do not make a board", string(me.Result), string(them.Result), me.Opponent))
	}
	return Board{White: p.ID, Black: me.Opponent, WhiteResult: res[0], BlackResult: res[1], Source: "director"}, nil
}

// storeImport stores the imported event, its players, rounds and
// requested byes in one transaction, and returns the director's token.
func (s *Store) storeImport(ctx context.Context, e *Event, players []Player, rounds []importedRound, requested map[int]map[int]tally.Result, played int) (string, error) {
	e.ID = newSecret(9)
	e.Created = s.now().UTC()
	token := newSecret(32)
	h := hashSecret(token)
	body, err := json.Marshal(e)
	if err != nil {
		return "", err
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if err := roomForEvent(tx); err != nil {
			return err
		}
		if _, err := tx.Exec("INSERT INTO events (id, token_hash, created, body) VALUES (?, ?, ?, ?)", e.ID, h[:], e.Created.UnixNano(), string(body)); err != nil {
			return fmt.Errorf("director: storing the event: %w", err)
		}
		for _, p := range players {
			if _, err := tx.Exec("INSERT INTO players (event, id, number, name, club, federation, fed_id, rating, entered) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)",
				e.ID, p.ID, p.Number, p.Name, p.Club, p.Federation, p.FedID, p.Rating); err != nil {
				return fmt.Errorf("director: storing player %d: %w", p.Number, err)
			}
		}
		for i, rd := range rounds {
			if err := storeImportedRound(tx, e.ID, i+1, rd); err != nil {
				return err
			}
		}
		for n, ps := range requested {
			for pid, k := range ps {
				if _, err := tx.Exec("INSERT INTO byes (event, round, player, kind, requested) VALUES (?, ?, ?, ?, 1)", e.ID, n, pid, string(k)); err != nil {
					return fmt.Errorf("director: storing the bye asked for round %d: %w", n, err)
				}
			}
		}
		return s.audit(tx, e.ID, "import", say("audit.import", "name", e.Name, "players", fmt.Sprint(len(players)), "played", fmt.Sprint(played), "rounds", fmt.Sprint(e.Rounds)))
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// storeImportedRound stores round n, closed, with its boards and byes.
func storeImportedRound(tx *sql.Tx, event string, n int, rd importedRound) error {
	if _, err := tx.Exec("INSERT INTO rounds (event, n, state, bye) VALUES (?, ?, ?, ?)", event, n, Closed, rd.bye); err != nil {
		return fmt.Errorf("director: storing round %d: %w", n, err)
	}
	for _, b := range rd.boards {
		if _, err := tx.Exec("INSERT INTO boards (event, round, board, white, black, wres, bres, source) VALUES (?, ?, ?, ?, ?, ?, ?, 'director')",
			event, n, b.Board, b.White, b.Black, string(b.WhiteResult), string(b.BlackResult)); err != nil {
			return fmt.Errorf("director: storing round %d: %w", n, err)
		}
	}
	for pid, k := range rd.byes {
		if _, err := tx.Exec("INSERT INTO byes (event, round, player, kind, requested) VALUES (?, ?, ?, ?, 1)", event, n, pid, string(k)); err != nil {
			return fmt.Errorf("director: storing round %d: %w", n, err)
		}
	}
	return nil
}

// trfProblem is a problem in the history of a player; when the player was
// read from a file it names the line and column (that of the round) too.
func trfProblem(player, round int, detail string) *Error {
	return refuse(message.Invalid, "director.trf-history", "player", fmt.Sprint(player), "round", fmt.Sprint(round), "detail", detail)
}

// atLine turns err (an *Error of ImportTRF) into one naming the file's
// line: the history problems at their player's line, the settings taken
// from a header line at that line.
func atLine(err error, tev *trf.Event) error {
	var de *Error
	if !errors.As(err, &de) || de.Args["line"] != "" {
		return err
	}
	line, col := 0, 0
	detail := de.Error()
	switch de.Code {
	case "director.trf-history":
		for _, p := range tev.Players {
			if fmt.Sprint(p.Number) == de.Args["player"] {
				line = p.Line
				if r, e := strconv.Atoi(de.Args["round"]); e == nil && r > 0 {
					col = trf.RoundColumn(r)
				}
			}
		}
		detail = fmt.Sprintf("player %s, round %s: %s", de.Args["player"], de.Args["round"], de.Args["detail"])
	case "director.bad-field":
		code := map[string]string{"name": "012", "site": "022", "start": "042", "end": "052", "time_control": "122", "rounds": "XXR", "scoring": "XXS"}[de.Args["field"]]
		line = tev.HeaderLines[code]
		if line == 0 && de.Args["field"] == "name" && tev.Name == "" {
			// Nothing to point at: the file has no 012 line.
			line, detail = 1, "the file has no 012 line (the event's name) and the settings give no name"
		}
		if line == 0 && de.Args["field"] == "rounds" && tev.Rounds == 0 && longestHistory(tev) == 0 {
			line, detail = 1, "the file has no XXR line (number of rounds) nor a round played, and the settings give no number of rounds"
		}
		if line == 0 && de.Args["field"] == "rounds" {
			for _, p := range tev.Players {
				if len(p.History) > MaxRounds {
					line, col = p.Line, trf.RoundColumn(MaxRounds+1)
				}
			}
		}
	case "director.too-many-players":
		if len(tev.Players) > MaxPlayers {
			line = tev.Players[MaxPlayers].Line
		}
	}
	if line == 0 {
		return err
	}
	out := placed(de.Kind, "director.trf", line, col, detail)
	for k, v := range de.Args {
		if _, ok := out.Args[k]; !ok {
			out.Args[k] = v
		}
	}
	return out
}

func longestHistory(tev *trf.Event) int {
	n := 0
	for _, p := range tev.Players {
		n = max(n, len(p.History))
	}
	return n
}
