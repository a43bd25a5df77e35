package director

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// Check-in (see passes.go): before a round is paired its players confirm
// they are present, each by their own link (a PassCheckIn, good for every
// round of the event) or by tapping their name on the event's tablet page
// (a PassTablet), or the director checks them in. The check-in is for the
// next round to pair. AbsentByes then gives every player expected in that
// round who has not checked in a zero-point bye (TRF Z), in one action,
// before the round is paired: they are not paired. A player who checks in
// after that, still before the pairing, has that bye lifted (not a bye the
// player asked for: the byes table marks absence byes requested = 2).

// byAbsence is the byes table's requested mark of a bye AbsentByes gave.
const byAbsence = 2

func init() {
	codeText["director.no-checkins"] = "Nobody has checked in for round {round}: giving every player a zero-point bye is refused. Check players in first."
	codeText["director.no-round"] = "Every round of the event is paired; there is no round to check in for."
}

// Present are the ways a player is checked in.
const (
	ByLink     = "link"
	ByTablet   = "tablet"
	ByDirector = "director"
)

// CheckInLinks are the check-in links of an event: each player's
// (player id -> secret; the withdrawn have none) and the tablet's.
type CheckInLinks struct {
	Players map[int]string `json:"players"`
	Tablet  string         `json:"tablet"`
}

// CheckInLinks returns the event's check-in links, made the first time
// they are asked for (token is the director's secret, whose key seals
// them).
func (s *Store) CheckInLinks(ctx context.Context, id, token string) (*CheckInLinks, error) {
	if err := s.checkToken(ctx, id, token); err != nil {
		return nil, err
	}
	out := &CheckInLinks{Players: map[int]string{}}
	err := s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		var had int
		if err := tx.QueryRow("SELECT count(*) FROM passes WHERE event = ? AND kind IN (?, ?)", id, PassCheckIn, PassTablet).Scan(&had); err != nil {
			return fmt.Errorf("director: reading passes: %w", err)
		}
		var err error
		if out.Tablet, err = s.issue(tx, token, Pass{Event: id, Kind: PassTablet}); err != nil {
			return err
		}
		for _, p := range sn.Players {
			if p.Withdrawn != 0 {
				continue
			}
			if out.Players[p.ID], err = s.issue(tx, token, Pass{Event: id, Kind: PassCheckIn, Player: p.ID}); err != nil {
				return err
			}
		}
		if had == 0 {
			return s.audit(tx, id, "links", say("audit.links-check-in"))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Arrival is one player as a check-in page lists them.
type Arrival struct {
	ID        int    `json:"id"`
	Number    int    `json:"number"`
	Name      string `json:"name"`
	Club      string `json:"club,omitempty"`
	CheckedIn bool   `json:"checked_in"`
}

// CheckInView is a check-in page: a player's own (Players holds them
// alone) or the tablet's (every player expected in the round).
type CheckInView struct {
	Event  string `json:"event"` // the event's name
	Tablet bool   `json:"tablet"`
	// Round is the round checked in for (the next to pair); 0 when every
	// round is paired (Open false).
	Round   int       `json:"round"`
	Open    bool      `json:"open"`
	Players []Arrival `json:"players"`
}

// expected lists the players round n expects (entered by then, not
// withdrawn, no bye asked for), by pairing number then entry.
func (sn *Snapshot) expected(n int) []*Player {
	var out []*Player
	for i := range sn.Players {
		p := &sn.Players[i]
		if p.Entered <= n && !sn.absentFrom(p, n) {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Number != out[j].Number {
			return out[i].Number < out[j].Number
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// absenceByes is who has AbsentByes's zero-point bye in round n.
func absenceByes(ctx context.Context, q querier, id string, n int) (map[int]bool, error) {
	rows, err := q.QueryContext(ctx, "SELECT player FROM byes WHERE event = ? AND round = ? AND requested = ?", id, n, byAbsence)
	if err != nil {
		return nil, fmt.Errorf("director: reading byes: %w", err)
	}
	defer rows.Close()
	out := map[int]bool{}
	for rows.Next() {
		var p int
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("director: reading byes: %w", err)
		}
		out[p] = true
	}
	return out, rows.Err()
}

// expectedOrLate is expected(n) with the players of late (absence byes)
// back in their places: they may still check in.
func (sn *Snapshot) expectedOrLate(n int, late map[int]bool) []*Player {
	var out []*Player
	for i := range sn.Players {
		p := &sn.Players[i]
		if p.Entered <= n && (!sn.absentFrom(p, n) || (late[p.ID] && (p.Withdrawn == 0 || p.Withdrawn > n))) {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Number != out[j].Number {
			return out[i].Number < out[j].Number
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// arrived is who checked in for round n, and how.
func arrived(ctx context.Context, q querier, id string, n int) (map[int]string, error) {
	rows, err := q.QueryContext(ctx, "SELECT player, how FROM checkins WHERE event = ? AND round = ?", id, n)
	if err != nil {
		return nil, fmt.Errorf("director: reading check-ins: %w", err)
	}
	defer rows.Close()
	out := map[int]string{}
	for rows.Next() {
		var p int
		var how string
		if err := rows.Scan(&p, &how); err != nil {
			return nil, fmt.Errorf("director: reading check-ins: %w", err)
		}
		out[p] = how
	}
	return out, rows.Err()
}

func checkInView(ctx context.Context, q querier, sn *Snapshot, p Pass) (*CheckInView, error) {
	v := &CheckInView{Event: sn.Event.Name, Tablet: p.Kind == PassTablet, Players: []Arrival{}}
	n := sn.Next()
	if n <= sn.Event.Rounds {
		v.Round, v.Open = n, true
	}
	in, err := arrived(ctx, q, sn.Event.ID, n)
	if err != nil {
		return nil, err
	}
	add := func(pl *Player) {
		_, here := in[pl.ID]
		v.Players = append(v.Players, Arrival{ID: pl.ID, Number: pl.Number, Name: pl.Name, Club: pl.Club, CheckedIn: here})
	}
	if p.Kind == PassTablet {
		late, err := absenceByes(ctx, q, sn.Event.ID, n)
		if err != nil {
			return nil, err
		}
		for _, pl := range sn.expectedOrLate(n, late) {
			add(pl)
		}
		return v, nil
	}
	pl := sn.player(p.Player)
	if pl == nil || pl.Withdrawn != 0 {
		return nil, ErrUnknownPass
	}
	add(pl)
	return v, nil
}

// checkInPass resolves a check-in or tablet pass.
func (s *Store) checkInPass(ctx context.Context, secret string) (Pass, error) {
	p, err := s.ResolvePass(ctx, secret)
	if err != nil {
		return Pass{}, err
	}
	if p.Kind != PassCheckIn && p.Kind != PassTablet {
		return Pass{}, ErrUnknownPass
	}
	return p, nil
}

// CheckInOf is the page of a check-in or tablet link.
func (s *Store) CheckInOf(ctx context.Context, secret string) (*CheckInView, error) {
	p, err := s.checkInPass(ctx, secret)
	if err != nil {
		return nil, err
	}
	sn, err := s.Get(ctx, p.Event)
	if err != nil {
		return nil, err
	}
	return checkInView(ctx, s.db, sn, p)
}

// CheckIn checks a player in for the next round to pair by a check-in
// link (player is the link's own; 0 or the same id) or the tablet's
// (player is the one tapped, who must be expected in the round).
func (s *Store) CheckIn(ctx context.Context, secret string, player int) (*CheckInView, error) {
	p, err := s.checkInPass(ctx, secret)
	if err != nil {
		return nil, err
	}
	how := ByTablet
	if p.Kind == PassCheckIn {
		if player != 0 && player != p.Player {
			return nil, refuse(message.NotFound, "director.unknown-player", "player", fmt.Sprint(player))
		}
		player, how = p.Player, ByLink
	}
	var out *CheckInView
	err = s.update(ctx, p.Event, func(tx *sql.Tx, sn *Snapshot) error {
		if err := s.markPresent(tx, sn, player, true, how); err != nil {
			return err
		}
		out, err = checkInView(ctx, tx, sn, p)
		return err
	})
	return out, err
}

// SetPresent checks a player in (or out again) for the next round to
// pair, as the director.
func (s *Store) SetPresent(ctx context.Context, id string, player int, present bool) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		return s.markPresent(tx, sn, player, present, ByDirector)
	})
}

// markPresent checks player in or out for the next round.
func (s *Store) markPresent(tx *sql.Tx, sn *Snapshot, player int, in bool, how string) error {
	n := sn.Next()
	if n > sn.Event.Rounds {
		return refuse(message.Conflict, "director.no-round")
	}
	pl := sn.player(player)
	if pl == nil {
		return refuse(message.NotFound, "director.unknown-player", "player", fmt.Sprint(player))
	}
	if pl.Withdrawn != 0 && pl.Withdrawn <= n {
		return refuse(message.Conflict, "director.withdrawn", "player", pl.Name)
	}
	was, err := arrived(context.Background(), tx, sn.Event.ID, n)
	if err != nil {
		return err
	}
	if _, here := was[player]; here == in {
		return nil
	}
	if !in {
		if _, err := tx.Exec("DELETE FROM checkins WHERE event = ? AND round = ? AND player = ?", sn.Event.ID, n, player); err != nil {
			return fmt.Errorf("director: check-in: %w", err)
		}
		return s.audit(tx, sn.Event.ID, "check-in", say("audit.check-out", "player", sn.label(player), "round", fmt.Sprint(n)).with("how", part("audit.how."+how)))
	}
	if _, err := tx.Exec("INSERT INTO checkins (event, round, player, at, how) VALUES (?, ?, ?, ?, ?)",
		sn.Event.ID, n, player, s.now().UnixNano(), how); err != nil {
		return fmt.Errorf("director: check-in: %w", err)
	}
	if err := s.audit(tx, sn.Event.ID, "check-in", say("audit.check-in", "player", sn.label(player), "round", fmt.Sprint(n)).with("how", part("audit.how."+how))); err != nil {
		return err
	}
	res, err := tx.Exec("DELETE FROM byes WHERE event = ? AND round = ? AND player = ? AND requested = ?", sn.Event.ID, n, player, byAbsence)
	if err != nil {
		return fmt.Errorf("director: check-in: %w", err)
	}
	if k, _ := res.RowsAffected(); k > 0 {
		delete(sn.Requested[n], player)
		return s.audit(tx, sn.Event.ID, "bye", say("audit.bye-lifted", "player", sn.label(player), "round", fmt.Sprint(n)))
	}
	return nil
}

// Arrivals is the check-in of the next round to pair as the director
// sees it: the round (0: every round paired), the players it expects
// (ids, by pairing number; with those given a bye for absence, Late), and
// who checked in, how.
type Arrivals struct {
	Round    int            `json:"round"`
	Expected []int          `json:"expected"`
	Late     []int          `json:"late"`
	In       map[int]string `json:"in"`
}

// Arrivals reads the check-in of the next round to pair.
func (s *Store) Arrivals(ctx context.Context, id string) (*Arrivals, error) {
	sn, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	n := sn.Next()
	if n > sn.Event.Rounds {
		return &Arrivals{Expected: []int{}, Late: []int{}, In: map[int]string{}}, nil
	}
	in, err := arrived(ctx, s.db, id, n)
	if err != nil {
		return nil, err
	}
	late, err := absenceByes(ctx, s.db, id, n)
	if err != nil {
		return nil, err
	}
	out := &Arrivals{Round: n, Expected: []int{}, Late: []int{}, In: in}
	for _, p := range sn.expectedOrLate(n, late) {
		out.Expected = append(out.Expected, p.ID)
		if late[p.ID] {
			out.Late = append(out.Late, p.ID)
		}
	}
	return out, nil
}

// AbsentByes gives every player the next round expects who has not
// checked in a zero-point bye (Z, as asked for: RequestBye), in one
// action before the round is paired; it returns their ids. With nobody
// checked in it refuses (that would leave the round without players).
func (s *Store) AbsentByes(ctx context.Context, id string) ([]int, error) {
	var out []int
	err := s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		n := sn.Next()
		if n > sn.Event.Rounds {
			return refuse(message.Conflict, "director.no-round")
		}
		in, err := arrived(ctx, tx, id, n)
		if err != nil {
			return err
		}
		var names []string
		anyIn := false
		for _, p := range sn.expected(n) {
			if _, here := in[p.ID]; here {
				anyIn = true
				continue
			}
			out = append(out, p.ID)
			names = append(names, sn.label(p.ID))
		}
		if !anyIn {
			out = nil
			return refuse(message.Conflict, "director.no-checkins", "round", fmt.Sprint(n))
		}
		for _, pid := range out {
			if _, err := tx.Exec("INSERT INTO byes (event, round, player, kind, requested) VALUES (?, ?, ?, ?, ?)", id, n, pid, string(tally.ZeroBye), byAbsence); err != nil {
				return fmt.Errorf("director: bye: %w", err)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return s.audit(tx, id, "bye", say("audit.bye-absent", "round", fmt.Sprint(n), "players", strings.Join(names, ", ")))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
