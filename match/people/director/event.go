package director

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Snapshot is an event as stored: the event, its players (by entry id),
// its rounds (in order) and the byes asked for rounds not yet paired.
type Snapshot struct {
	Event   Event    `json:"event"`
	Players []Player `json:"players"`
	Rounds  []Round  `json:"rounds"`
	// Requested are the byes asked for rounds not yet paired: round ->
	// player id -> H, Z or F.
	Requested map[int]map[int]tally.Result `json:"requested,omitempty"`
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// checkText checks a text field: at most max runes, valid UTF-8, no
// control characters; required says whether it may be empty.
func checkText(field, v string, max int, required bool) (string, error) {
	v = strings.TrimSpace(v)
	switch {
	case !utf8.ValidString(v):
		return "", badField(field, "not valid UTF-8")
	case required && v == "":
		return "", badField(field, "empty")
	case utf8.RuneCountInString(v) > max:
		return "", badField(field, fmt.Sprintf("longer than %d characters", max))
	case strings.IndexFunc(v, unicode.IsControl) >= 0:
		return "", badField(field, "has a control character")
	}
	return v, nil
}

// checkEvent validates and completes an event's settings.
func checkEvent(e Event) (Event, error) {
	d, err := checkDetails(e.Details())
	if err != nil {
		return e, err
	}
	e.setDetails(d)
	if e.Variant == "" {
		e.Variant = "international"
	}
	if !slices.Contains(rules.Presets(), e.Variant) {
		return e, badField("variant", fmt.Sprintf("%q is not a variant (%s)", e.Variant, strings.Join(rules.Presets(), ", ")))
	}
	switch e.System {
	case "":
		e.System = Swiss
	case Swiss, RoundRobin:
	default:
		return e, badField("system", fmt.Sprintf("%q is neither swiss nor round-robin", e.System))
	}
	sys, ok := swiss.ParseSystem(e.Pairing)
	if !ok {
		return e, badField("pairing", fmt.Sprintf("%q is neither dutch nor burstein", e.Pairing))
	}
	e.Pairing = ""
	if sys == swiss.Burstein && e.System == Swiss {
		e.Pairing = sys.String()
	}
	if e.Rounds < 1 || e.Rounds > MaxRounds {
		return e, badField("rounds", fmt.Sprintf("%d is not from 1 to %d", e.Rounds, MaxRounds))
	}
	if e.FirstColor < tally.NoColor || e.FirstColor > tally.Black {
		return e, badField("first_color", fmt.Sprintf("%d is not 0 (by lot), 1 (White) or 2 (Black)", e.FirstColor))
	}
	if e.Scoring == (tally.Scoring{}) {
		e.Scoring = tally.DefaultScoring
	}
	sc := e.Scoring
	for _, v := range []int{sc.Win, sc.Draw, sc.Loss, sc.ForfeitWin, sc.PairingBye, sc.FullBye, sc.HalfBye, sc.ZeroBye} {
		if v < 0 || v > 100 {
			return e, badField("scoring", fmt.Sprintf("%d is not from 0 to 100", v))
		}
	}
	if !(sc.Win > sc.Draw && sc.Draw >= sc.Loss) {
		return e, badField("scoring", "a win must score more than a draw, a draw at least a loss")
	}
	if e.TieBreaks == nil {
		// FMJD's Swiss: truncated Solkoff (Buchholz cut-1) first.
		e.TieBreaks = []string{"buchholz-cut1", "buchholz", "sonneborn-berger"}
		if e.System == RoundRobin {
			e.TieBreaks = []string{"sonneborn-berger", "direct-encounter", "wins"}
		}
	}
	order, err := tiebreak.Parse(strings.Join(e.TieBreaks, ","))
	if err != nil {
		return e, badField("tie_breaks", err.Error())
	}
	e.TieBreaks = nil
	if s := order.String(); s != "" {
		e.TieBreaks = strings.Split(s, ",")
	}
	return e, nil
}

// checkDetails validates the event's details: a name (required), site
// and time control of at most MaxText runes, dates YYYY-MM-DD, the end not
// before the start, a time control in PDN syntax.
func checkDetails(d Details) (Details, error) {
	var err error
	if d.Name, err = checkText("name", d.Name, MaxText, true); err != nil {
		return d, err
	}
	if d.Site, err = checkText("site", d.Site, MaxText, false); err != nil {
		return d, err
	}
	for _, f := range []struct {
		field string
		v     *string
	}{{"start", &d.Start}, {"end", &d.End}} {
		*f.v = strings.TrimSpace(*f.v)
		if *f.v == "" {
			continue
		}
		if _, err := time.Parse("2006-01-02", *f.v); err != nil {
			return d, badField(f.field, "not a date YYYY-MM-DD")
		}
	}
	if d.Start != "" && d.End != "" && d.End < d.Start {
		return d, badField("end", "before the start")
	}
	if d.TimeControl, err = checkText("time_control", d.TimeControl, MaxText, false); err != nil {
		return d, err
	}
	if d.TimeControl != "" {
		if _, err := arbiter.ParseTimeControl(d.TimeControl); err != nil {
			return d, badField("time_control", err.Error())
		}
	}
	return d, nil
}

// EditDetails changes the event's details (name, site, dates, time
// control), checked as when it was created; the audit log says what
// changed. A board's online game made before keeps the time control it was
// made with.
func (s *Store) EditDetails(ctx context.Context, id string, d Details) error {
	d, err := checkDetails(d)
	if err != nil {
		return err
	}
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		was := sn.Event.Details()
		var changes []message.Message
		for _, f := range []struct{ field, was, is string }{
			{"name", was.Name, d.Name}, {"site", was.Site, d.Site}, {"start", was.Start, d.Start},
			{"end", was.End, d.End}, {"time_control", was.TimeControl, d.TimeControl},
		} {
			if f.was != f.is {
				changes = append(changes, change(f.field, f.was, f.is))
			}
		}
		if len(changes) == 0 {
			return nil
		}
		e := sn.Event
		e.setDetails(d)
		body, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if _, err := tx.Exec("UPDATE events SET body = ? WHERE id = ?", string(body), id); err != nil {
			return fmt.Errorf("director: editing the event: %w", err)
		}
		return s.audit(tx, id, "edit", say("audit.edit").with("changes", changes...))
	})
}

// Create stores a new event and returns it (with its public id) and the
// director's secret token: the only time the token is seen.
func (s *Store) Create(ctx context.Context, e Event) (Event, string, error) {
	e, err := checkEvent(e)
	if err != nil {
		return Event{}, "", err
	}
	e.ID = newSecret(9)
	e.Created = s.now().UTC()
	e.Seeding, e.LastID = "", 0 // by the initial ranking until the director orders it; no player removed
	token := newSecret(32)
	h := hashSecret(token)
	body, err := json.Marshal(e)
	if err != nil {
		return Event{}, "", err
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if err := roomForEvent(tx); err != nil {
			return err
		}
		if _, err := tx.Exec("INSERT INTO events (id, token_hash, created, body) VALUES (?, ?, ?, ?)", e.ID, h[:], e.Created.UnixNano(), string(body)); err != nil {
			return fmt.Errorf("director: storing the event: %w", err)
		}
		return s.audit(tx, e.ID, "create", say("audit.create", "name", e.Name, "rounds", fmt.Sprint(e.Rounds), "variant", e.Variant).with("system", part("audit.system."+string(e.System))))
	})
	if err != nil {
		return Event{}, "", err
	}
	return e, token, nil
}

// Resolve finds the event whose director's secret is token.
func (s *Store) Resolve(ctx context.Context, token string) (string, bool) {
	if token == "" || len(token) > 128 {
		return "", false
	}
	h := hashSecret(token)
	var id string
	var stored []byte
	err := s.db.QueryRowContext(ctx, "SELECT id, token_hash FROM events WHERE token_hash = ?", h[:]).Scan(&id, &stored)
	if err != nil || !equalHash(stored, h[:]) {
		return "", false
	}
	return id, true
}

// Get reads an event whole.
func (s *Store) Get(ctx context.Context, id string) (*Snapshot, error) {
	return load(ctx, s.db, id)
}

var errUnknown = refuse(message.NotFound, "director.unknown-event")

// load reads event id whole through q.
func load(ctx context.Context, q querier, id string) (*Snapshot, error) {
	if id == "" || len(id) > 64 {
		return nil, errUnknown
	}
	var body string
	var created int64
	err := q.QueryRowContext(ctx, "SELECT body, created FROM events WHERE id = ?", id).Scan(&body, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errUnknown
	}
	if err != nil {
		return nil, fmt.Errorf("director: reading event %s: %w", id, err)
	}
	// An event without players or rounds yet lists none: [] in JSON, as a
	// page's or a client's loop expects (they were null).
	sn := &Snapshot{Players: []Player{}, Rounds: []Round{}, Requested: map[int]map[int]tally.Result{}}
	if err := json.Unmarshal([]byte(body), &sn.Event); err != nil {
		return nil, fmt.Errorf("director: event %s: stored settings unreadable: %w", id, err)
	}
	sn.Event.ID, sn.Event.Created = id, time.Unix(0, created).UTC()

	rows, err := q.QueryContext(ctx, "SELECT id, number, name, club, federation, fed_id, rating, title, entered, withdrawn, born, games, k FROM players WHERE event = ? ORDER BY id", id)
	if err != nil {
		return nil, fmt.Errorf("director: reading players: %w", err)
	}
	for rows.Next() {
		var p Player
		if err := rows.Scan(&p.ID, &p.Number, &p.Name, &p.Club, &p.Federation, &p.FedID, &p.Rating, &p.Title, &p.Entered, &p.Withdrawn, &p.Born, &p.Games, &p.K); err != nil {
			rows.Close()
			return nil, fmt.Errorf("director: reading players: %w", err)
		}
		sn.Players = append(sn.Players, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("director: reading players: %w", err)
	}

	rows, err = q.QueryContext(ctx, "SELECT n, state, bye FROM rounds WHERE event = ? ORDER BY n", id)
	if err != nil {
		return nil, fmt.Errorf("director: reading rounds: %w", err)
	}
	for rows.Next() {
		var r Round
		if err := rows.Scan(&r.N, &r.State, &r.Bye); err != nil {
			rows.Close()
			return nil, fmt.Errorf("director: reading rounds: %w", err)
		}
		if r.N != len(sn.Rounds)+1 {
			rows.Close()
			return nil, fmt.Errorf("director: event %s: round %d stored after round %d (a damaged file?)", id, r.N, len(sn.Rounds))
		}
		sn.Rounds = append(sn.Rounds, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("director: reading rounds: %w", err)
	}

	rows, err = q.QueryContext(ctx, "SELECT round, board, white, black, wres, bres, source, game FROM boards WHERE event = ? ORDER BY round, board", id)
	if err != nil {
		return nil, fmt.Errorf("director: reading boards: %w", err)
	}
	for rows.Next() {
		var b Board
		var n int
		var wr, br string
		if err := rows.Scan(&n, &b.Board, &b.White, &b.Black, &wr, &br, &b.Source, &b.Game); err != nil {
			rows.Close()
			return nil, fmt.Errorf("director: reading boards: %w", err)
		}
		if n < 1 || n > len(sn.Rounds) || len(wr) > 1 || len(br) > 1 {
			rows.Close()
			return nil, fmt.Errorf("director: event %s: a board of round %d is damaged", id, n)
		}
		if wr != "" {
			b.WhiteResult = tally.Result(wr[0])
		}
		if br != "" {
			b.BlackResult = tally.Result(br[0])
		}
		sn.Rounds[n-1].Boards = append(sn.Rounds[n-1].Boards, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("director: reading boards: %w", err)
	}

	rows, err = q.QueryContext(ctx, "SELECT round, player, kind FROM byes WHERE event = ? ORDER BY round, player", id)
	if err != nil {
		return nil, fmt.Errorf("director: reading byes: %w", err)
	}
	for rows.Next() {
		var n, p int
		var kind string
		if err := rows.Scan(&n, &p, &kind); err != nil {
			rows.Close()
			return nil, fmt.Errorf("director: reading byes: %w", err)
		}
		if len(kind) != 1 || n < 1 {
			rows.Close()
			return nil, fmt.Errorf("director: event %s: a bye of round %d is damaged", id, n)
		}
		if n <= len(sn.Rounds) {
			r := &sn.Rounds[n-1]
			if r.Absent == nil {
				r.Absent = map[int]tally.Result{}
			}
			r.Absent[p] = tally.Result(kind[0])
			continue
		}
		if sn.Requested[n] == nil {
			sn.Requested[n] = map[int]tally.Result{}
		}
		sn.Requested[n][p] = tally.Result(kind[0])
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("director: reading byes: %w", err)
	}
	return sn, nil
}

// update loads event id in a transaction, runs f on it, and commits when
// f returns nil.
func (s *Store) update(ctx context.Context, id string, f func(tx *sql.Tx, sn *Snapshot) error) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		sn, err := load(ctx, tx, id)
		if err != nil {
			return err
		}
		return f(tx, sn)
	})
}

// player finds a player by entry id.
func (sn *Snapshot) player(id int) *Player {
	for i := range sn.Players {
		if sn.Players[i].ID == id {
			return &sn.Players[i]
		}
	}
	return nil
}

// Player finds a player by entry id (nil if none).
func (sn *Snapshot) Player(id int) *Player { return sn.player(id) }

// ByNumber finds a player by pairing number (nil if none).
func (sn *Snapshot) ByNumber(n int) *Player {
	for i := range sn.Players {
		if sn.Players[i].Number == n {
			return &sn.Players[i]
		}
	}
	return nil
}

// Next is the next round to pair (len(Rounds)+1).
func (sn *Snapshot) Next() int { return len(sn.Rounds) + 1 }

// checkPlayer validates a player's fields.
func checkPlayer(p Player) (Player, error) {
	var err error
	if p.Name, err = checkText("name", p.Name, MaxName, true); err != nil {
		return p, err
	}
	if p.Club, err = checkText("club", p.Club, MaxName, false); err != nil {
		return p, err
	}
	if p.Federation, err = checkText("federation", p.Federation, 8, false); err != nil {
		return p, err
	}
	p.Federation = strings.ToUpper(p.Federation)
	if p.FedID, err = checkText("fed_id", p.FedID, MaxName, false); err != nil {
		return p, err
	}
	if p.Rating < 0 || p.Rating > 9999 {
		return p, badField("rating", fmt.Sprintf("%d is not from 0 to 9999", p.Rating))
	}
	if p.Title, err = checkText("title", p.Title, 8, false); err != nil {
		return p, err
	}
	p.Title = strings.ToUpper(p.Title)
	if p.Born != 0 && (p.Born < 1900 || p.Born > 2100) {
		return p, badField("born", fmt.Sprintf("%d is not a year of birth from 1900 to 2100 (0: not known)", p.Born))
	}
	if p.Games < 0 || p.Games > 100000 {
		return p, badField("games", fmt.Sprintf("%d is not a number of games from 0 to 100000", p.Games))
	}
	if p.K < 0 || p.K > MaxK {
		return p, badField("k", fmt.Sprintf("%d is not a development coefficient from 1 to %d (0: from FIDE B.02 art. 8.3.3)", p.K, MaxK))
	}
	return p, nil
}

// MaxK bounds the K a director sets: art. 8.3.3's largest is 40; a
// federation's own may be larger, not a hundred.
const MaxK = 100

// AddPlayers enters players (checked first, all or none): before round 1
// is paired the pairing numbers follow the initial ranking; later each is
// a late entry with the next number, paired from the next round on. A
// player who looks like one already entered (Duplicate) is refused.
func (s *Store) AddPlayers(ctx context.Context, id string, ps []Player) ([]Player, error) {
	return s.AddPlayersWith(ctx, id, ps, AddOptions{})
}

// AddPlayersWith is AddPlayers with options: the CSV lines the players
// come from (a refusal then names them), or the director's confirmation
// that a look-alike is another person.
func (s *Store) AddPlayersWith(ctx context.Context, id string, ps []Player, opt AddOptions) ([]Player, error) {
	for i := range ps {
		p, err := checkPlayer(ps[i])
		if err != nil {
			return nil, err
		}
		ps[i] = p
	}
	var out []Player
	err := s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		if len(sn.Players)+len(ps) > MaxPlayers {
			return refuse(message.Conflict, "director.too-many-players", "limit", fmt.Sprint(MaxPlayers))
		}
		if sn.Event.System == RoundRobin && len(sn.Rounds) > 0 {
			return refuse(message.Conflict, "director.rr-late")
		}
		if !opt.Confirm {
			if err := sn.duplicates(ps, opt.Lines); err != nil {
				return err
			}
		}
		manual := sn.Event.Seeding == SeedManual
		maxID, maxNum := sn.Event.LastID, 0
		for _, p := range sn.Players {
			maxID, maxNum = max(maxID, p.ID), max(maxNum, p.Number)
		}
		for i := range ps {
			p := &ps[i]
			maxID++
			p.ID, p.Entered, p.Withdrawn = maxID, sn.Next(), 0
			if len(sn.Rounds) > 0 || manual {
				maxNum++
				p.Number = maxNum
			}
			if _, err := tx.Exec("INSERT INTO players (event, id, number, name, club, federation, fed_id, rating, title, entered, born, games, k) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				id, p.ID, p.Number, p.Name, p.Club, p.Federation, p.FedID, p.Rating, p.Title, p.Entered, p.Born, p.Games, p.K); err != nil {
				return fmt.Errorf("director: storing player: %w", err)
			}
			var notes []message.Message
			if opt.Confirm {
				notes = sn.confirmedLike(*p)
			}
			sn.Players = append(sn.Players, *p)
			if p.Entered > 1 {
				notes = append(notes, part("audit.note.late", "round", fmt.Sprint(p.Entered)))
			}
			line := addPlayerLine(*p)
			if len(notes) > 0 {
				line.code += "-notes"
				line = line.with("notes", notes...)
			}
			if err := s.audit(tx, id, "add-player", line); err != nil {
				return err
			}
		}
		if len(sn.Rounds) == 0 && !manual {
			if err := renumber(tx, sn); err != nil {
				return err
			}
		}
		for _, p := range ps {
			out = append(out, *sn.player(p.ID))
		}
		return nil
	})
	return out, err
}

// ranking orders players by the initial ranking: rating (highest first),
// then title (TitleRank), then name, then entry: FIDE C.04.1 A.2 (the
// 1998 Swiss rules: "rating, FIDE-title (IGM-WGM-IM-WIM-FM-WFM-no
// title), alphabetically"), which FMJD's Swiss on rating follows, with
// FMJD's titles in the same places.
func ranking(ps []Player) []Player {
	out := slices.Clone(ps)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Rating != b.Rating {
			return a.Rating > b.Rating
		}
		if ta, tb := TitleRank(a.Title), TitleRank(b.Title); ta != tb {
			return ta < tb
		}
		if la, lb := strings.ToLower(a.Name), strings.ToLower(b.Name); la != lb {
			return la < lb
		}
		return a.ID < b.ID
	})
	return out
}

// renumber gives the pairing numbers of the initial ranking (before round 1).
func renumber(tx *sql.Tx, sn *Snapshot) error {
	for i, p := range ranking(sn.Players) {
		if _, err := tx.Exec("UPDATE players SET number = ? WHERE event = ? AND id = ?", i+1, sn.Event.ID, p.ID); err != nil {
			return fmt.Errorf("director: numbering: %w", err)
		}
		sn.player(p.ID).Number = i + 1
	}
	return nil
}

// Withdraw withdraws a player from the next round to pair on. A board of
// a round already paired keeps them: the director records a forfeit there.
func (s *Store) Withdraw(ctx context.Context, id string, player int) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		p := sn.player(player)
		if p == nil {
			return refuse(message.NotFound, "director.unknown-player", "player", fmt.Sprint(player))
		}
		if p.Withdrawn != 0 {
			return refuse(message.Conflict, "director.withdrawn", "player", p.Name)
		}
		if _, err := tx.Exec("UPDATE players SET withdrawn = ? WHERE event = ? AND id = ?", sn.Next(), id, player); err != nil {
			return fmt.Errorf("director: withdrawing: %w", err)
		}
		return s.audit(tx, id, "withdraw", say("audit.withdraw", "id", fmt.Sprint(p.ID), "name", p.Name, "round", fmt.Sprint(sn.Next())))
	})
}

// Reinstate takes a withdrawn player back: paired again from the next
// round to pair on. The rounds paired while they were withdrawn keep what
// they gave them (absent, or a round-robin's forfeit), as do their results
// before.
func (s *Store) Reinstate(ctx context.Context, id string, player int) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		p := sn.player(player)
		if p == nil {
			return refuse(message.NotFound, "director.unknown-player", "player", fmt.Sprint(player))
		}
		if p.Withdrawn == 0 {
			return refuse(message.Conflict, "director.not-withdrawn", "player", p.Name)
		}
		if _, err := tx.Exec("UPDATE players SET withdrawn = 0 WHERE event = ? AND id = ?", id, player); err != nil {
			return fmt.Errorf("director: reinstating: %w", err)
		}
		return s.audit(tx, id, "reinstate", say("audit.reinstate", "id", fmt.Sprint(p.ID), "name", p.Name, "withdrawn", fmt.Sprint(p.Withdrawn), "round", fmt.Sprint(sn.Next())))
	})
}

// RequestBye records a player's requested bye for a round not yet paired:
// kind H (half point), Z (zero) or F (full point); 0 cancels the request.
func (s *Store) RequestBye(ctx context.Context, id string, player, round int, kind tally.Result) error {
	switch kind {
	case 0, tally.HalfBye, tally.ZeroBye, tally.FullBye:
	default:
		return refuse(message.Invalid, "director.bad-bye", "kind", fmt.Sprintf("%q", string(kind)))
	}
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		p := sn.player(player)
		if p == nil {
			return refuse(message.NotFound, "director.unknown-player", "player", fmt.Sprint(player))
		}
		if round < 1 || round > sn.Event.Rounds {
			return badField("round", fmt.Sprintf("%d is not from 1 to %d", round, sn.Event.Rounds))
		}
		if round < sn.Next() {
			return refuse(message.Conflict, "director.bye-paired", "round", fmt.Sprint(round))
		}
		if p.Withdrawn != 0 {
			return refuse(message.Conflict, "director.withdrawn", "player", p.Name)
		}
		if _, err := tx.Exec("DELETE FROM byes WHERE event = ? AND round = ? AND player = ?", id, round, player); err != nil {
			return fmt.Errorf("director: bye: %w", err)
		}
		if kind == 0 {
			return s.audit(tx, id, "bye", say("audit.bye-cancel", "id", fmt.Sprint(p.ID), "name", p.Name, "round", fmt.Sprint(round)))
		}
		if _, err := tx.Exec("INSERT INTO byes (event, round, player, kind, requested) VALUES (?, ?, ?, ?, 1)", id, round, player, string(kind)); err != nil {
			return fmt.Errorf("director: bye: %w", err)
		}
		return s.audit(tx, id, "bye", say("audit.bye-ask-"+string(kind), "id", fmt.Sprint(p.ID), "name", p.Name, "round", fmt.Sprint(round)))
	})
}

// roomForEvent refuses a new event when the store holds MaxEvents.
func roomForEvent(tx *sql.Tx) error {
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM events").Scan(&n); err != nil {
		return fmt.Errorf("director: counting events: %w", err)
	}
	if n >= maxEvents {
		return refuse(message.Unavailable, "director.too-many-events", "limit", fmt.Sprint(maxEvents))
	}
	return nil
}

// maxEvents is MaxEvents (a test lowers it).
var maxEvents = MaxEvents

// addPlayerLine is the audit line of a player entered: the club and the
// federation given, none when neither is (an empty one left ", ," in the
// line).
func addPlayerLine(p Player) note {
	var from []string
	for _, f := range []string{p.Club, p.Federation} {
		if f = strings.TrimSpace(f); f != "" {
			from = append(from, f)
		}
	}
	if len(from) == 0 {
		return say("audit.add-player.bare", "id", fmt.Sprint(p.ID), "name", p.Name, "rating", fmt.Sprint(p.Rating))
	}
	return say("audit.add-player.from", "id", fmt.Sprint(p.ID), "name", p.Name, "from", strings.Join(from, " "), "rating", fmt.Sprint(p.Rating))
}
