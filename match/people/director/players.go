package director

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// SeedManual is Event.Seeding once the director has ordered the starting
// numbers by hand.
const SeedManual = "manual"

// titleOrder ranks the titles for seeding, strongest first. FIDE C.04.1
// A.2 orders IGM, WGM, IM, WIM, FM, WFM, then no title; FMJD's titles
// (Annex 10 of its rules: GMI, MI, MF and the women's GMIF, MIF, MFF) take
// the same places, and a candidate master (CM, WCM; FMJD's CMF) comes after
// the masters. Anything else counts as no title.
var titleOrder = map[string]int{
	"GM": 1, "IGM": 1, "GMI": 1,
	"WGM": 2, "GMIF": 2,
	"IM": 3, "MI": 3,
	"WIM": 4, "MIF": 4,
	"FM": 5, "MF": 5,
	"WFM": 6, "MFF": 6,
	"CM": 7, "CMF": 7,
	"WCM": 8,
}

// TitleRank is a title's place in the seeding: 1 for a grandmaster, ...,
// 99 for no title (or one the table does not know).
func TitleRank(title string) int {
	if r, ok := titleOrder[strings.ToUpper(strings.TrimSpace(title))]; ok {
		return r
	}
	return 99
}

// Seeded is the players in the order of their starting numbers (the
// initial ranking before round 1, or the director's order), those without
// a number yet last in entry order.
func (sn *Snapshot) Seeded() []Player {
	out := make([]Player, len(sn.Players))
	copy(out, sn.Players)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Number, out[j].Number
		if a == 0 || b == 0 {
			return a != 0 && b == 0
		}
		return a < b
	})
	return out
}

// foldName is a name as two entries are compared: case, accents' case and
// runs of spaces aside.
func foldName(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " ")
}

// sameAs says how b looks like a: "fed_id" (the same name and federation
// id), "club" (the same name and club, no two different federation ids),
// or "" (another person).
func sameAs(a, b Player) string {
	if foldName(a.Name) != foldName(b.Name) {
		return ""
	}
	ia, ib := strings.TrimSpace(a.FedID), strings.TrimSpace(b.FedID)
	switch {
	case ia != "" && ia == ib:
		return "fed_id"
	case ia != "" && ib != "":
		return "" // two federation ids: two people of one name
	case foldName(a.Club) == foldName(b.Club):
		return "club"
	}
	return ""
}

// describePlayer writes a player as a refusal names them: "Ingrid Hansen
// (Bergen SK, NOR 1234)".
func describePlayer(p Player) string {
	var parts []string
	for _, s := range []string{p.Club, strings.TrimSpace(p.Federation + " " + p.FedID)} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return p.Name
	}
	return p.Name + " (" + strings.Join(parts, ", ") + ")"
}

// duplicates refuses players that look like one already entered or like
// another of ps (sameAs). With lines (the CSV lines of ps) every problem
// is a CSVError naming its line; otherwise the first is an *Error.
func (sn *Snapshot) duplicates(ps []Player, lines []int) error {
	// By folded name: a large import is compared with the field once.
	byName := map[string][]Player{}
	for _, q := range sn.Players {
		k := foldName(q.Name)
		byName[k] = append(byName[k], q)
	}
	seen := map[string][]int{} // folded name -> indexes into ps
	var problems []*Error
	for i, p := range ps {
		var e *Error
		k := foldName(p.Name)
		for _, q := range byName[k] {
			if how := sameAs(q, p); how != "" {
				e = refuse(message.Conflict, "director.duplicate-"+how, "name", p.Name, "number", fmt.Sprint(q.Number), "other", describePlayer(q))
				if len(lines) == len(ps) {
					e = refuse(message.Invalid, "director.csv-duplicate-"+how, "line", fmt.Sprint(lines[i]), "name", p.Name, "other", describePlayer(q))
				}
				break
			}
		}
		for _, j := range seen[k] {
			if e != nil {
				break
			}
			if sameAs(ps[j], p) != "" {
				if len(lines) == len(ps) {
					e = refuse(message.Invalid, "director.csv-twice", "line", fmt.Sprint(lines[i]), "name", p.Name, "other", fmt.Sprint(lines[j]))
				} else {
					e = refuse(message.Invalid, "director.twice", "name", p.Name)
				}
			}
		}
		seen[k] = append(seen[k], i)
		if e == nil {
			continue
		}
		if len(lines) != len(ps) {
			return e
		}
		if len(problems) < maxCSVProblems {
			problems = append(problems, e)
		}
	}
	if len(problems) > 0 {
		return &CSVError{problems}
	}
	return nil
}

// confirmedLike is what the audit log notes of a player entered or
// corrected although they look like one already entered (the director
// confirmed it): nothing for none.
func (sn *Snapshot) confirmedLike(p Player) []message.Message {
	for _, q := range sn.Players {
		if q.ID != p.ID && sameAs(q, p) != "" {
			return []message.Message{part("audit.note.like", "other_id", fmt.Sprint(q.ID), "other", describePlayer(q))}
		}
	}
	return nil
}

// AddOptions are AddPlayersWith's options.
type AddOptions struct {
	// Confirm enters players that look like one already entered (the
	// same name and federation id, or the same name and club).
	Confirm bool
	// Lines are the CSV lines of the players (one each), for the
	// refusals to name; nil for players entered by hand.
	Lines []int
}

// EditPlayer corrects a player's name, club, federation, federation id,
// rating and title, and what the rating's K reads (year of birth, games
// before, the director's K), checked as when entered, at any time; the audit log
// says what changed. Before round 1 is paired the starting numbers follow
// the new initial ranking (unless the director ordered them by hand);
// after, they stay: FIDE C.04 fixes them when round 1 is paired. A change
// that makes the player look like another (sameAs) needs confirm.
func (s *Store) EditPlayer(ctx context.Context, id string, player int, np Player, confirm bool) error {
	np, err := checkPlayer(np)
	if err != nil {
		return err
	}
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		p := sn.player(player)
		if p == nil {
			return refuse(message.NotFound, "director.unknown-player", "player", fmt.Sprint(player))
		}
		if !confirm {
			for _, q := range sn.Players {
				if how := sameAs(q, np); q.ID != p.ID && how != "" {
					return refuse(message.Conflict, "director.duplicate-"+how, "name", np.Name, "number", fmt.Sprint(q.Number), "other", describePlayer(q))
				}
			}
		}
		var changes []message.Message
		for _, f := range []struct{ field, was, is string }{
			{"name", p.Name, np.Name}, {"club", p.Club, np.Club}, {"federation", p.Federation, np.Federation},
			{"fed_id", p.FedID, np.FedID}, {"rating", fmt.Sprint(p.Rating), fmt.Sprint(np.Rating)}, {"title", p.Title, np.Title},
			{"born", fmt.Sprint(p.Born), fmt.Sprint(np.Born)}, {"games", fmt.Sprint(p.Games), fmt.Sprint(np.Games)}, {"k", fmt.Sprint(p.K), fmt.Sprint(np.K)},
		} {
			if f.was != f.is {
				changes = append(changes, change(f.field, f.was, f.is))
			}
		}
		if len(changes) == 0 {
			return nil
		}
		if _, err := tx.Exec("UPDATE players SET name = ?, club = ?, federation = ?, fed_id = ?, rating = ?, title = ?, born = ?, games = ?, k = ? WHERE event = ? AND id = ?",
			np.Name, np.Club, np.Federation, np.FedID, np.Rating, np.Title, np.Born, np.Games, np.K, id, player); err != nil {
			return fmt.Errorf("director: editing player %d: %w", player, err)
		}
		p.Name, p.Club, p.Federation, p.FedID, p.Rating, p.Title = np.Name, np.Club, np.Federation, np.FedID, np.Rating, np.Title
		p.Born, p.Games, p.K = np.Born, np.Games, np.K
		when := part("audit.when.before")
		if len(sn.Rounds) > 0 {
			when = part("audit.when.paired", "round", fmt.Sprint(len(sn.Rounds)))
		} else if sn.Event.Seeding != SeedManual {
			if err := renumber(tx, sn); err != nil {
				return err
			}
		}
		line := say("audit.edit-player", "id", fmt.Sprint(p.ID), "name", p.Name).with("when", when).with("changes", changes...)
		if like := sn.confirmedLike(*p); like != nil && confirm {
			line.code = "audit.edit-player-notes"
			line = line.with("notes", like...)
		}
		return s.audit(tx, id, "edit-player", line)
	})
}

// played reports the first round in which p is on a board, has the
// pairing-allocated bye or a bye worth points (0: none): a player who has
// played is withdrawn, never removed.
func (sn *Snapshot) played(p *Player) int {
	for _, r := range sn.Rounds {
		if r.Bye == p.ID {
			return r.N
		}
		for _, b := range r.Boards {
			if b.White == p.ID || b.Black == p.ID {
				return r.N
			}
		}
		if k, ok := r.Absent[p.ID]; ok && k != tally.ZeroBye {
			return r.N
		}
	}
	return 0
}

// RemovePlayer takes a player out of the event as if never entered:
// before round 1 anyone; after, only a player who never played (played: a
// late entry made by mistake, a no-show absent from every round) and never
// in a round-robin, whose tables count the players. Their byes go with
// them; the players numbered after them move up one, so that the numbers
// stay 1..n (the boards hold entry ids: every round keeps its games).
func (s *Store) RemovePlayer(ctx context.Context, id string, player int) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		p := sn.player(player)
		if p == nil {
			return refuse(message.NotFound, "director.unknown-player", "player", fmt.Sprint(player))
		}
		if len(sn.Rounds) > 0 {
			if sn.Event.System == RoundRobin {
				return refuse(message.Conflict, "director.rr-remove", "player", p.Name)
			}
			if n := sn.played(p); n != 0 {
				return refuse(message.Conflict, "director.has-played", "player", p.Name, "round", fmt.Sprint(n))
			}
		}
		// Their byes, check-ins and links go with them (they have no board).
		for _, q := range []string{
			"DELETE FROM byes WHERE event = ? AND player = ?", "DELETE FROM checkins WHERE event = ? AND player = ?",
			"DELETE FROM passes WHERE event = ? AND player = ?", "DELETE FROM players WHERE event = ? AND id = ?",
		} {
			if _, err := tx.Exec(q, id, player); err != nil {
				return fmt.Errorf("director: removing player %d: %w", player, err)
			}
		}
		if was := len(sn.Event.Forbidden); player > sn.Event.LastID || was > 0 {
			// The id is not given again; the forbidden pairings lose it.
			e := sn.Event
			e.LastID = max(e.LastID, player)
			e.Forbidden = withoutPlayer(e.Forbidden, player)
			body, err := json.Marshal(e)
			if err != nil {
				return err
			}
			if _, err := tx.Exec("UPDATE events SET body = ? WHERE id = ?", string(body), id); err != nil {
				return fmt.Errorf("director: removing player %d: %w", player, err)
			}
			sn.Event = e
		}
		gone := *p
		kept := sn.Players[:0]
		for _, q := range sn.Players {
			if q.ID != player {
				kept = append(kept, q)
			}
		}
		sn.Players = kept
		if len(sn.Rounds) == 0 && sn.Event.Seeding != SeedManual {
			if err := renumber(tx, sn); err != nil {
				return err
			}
		} else if gone.Number != 0 {
			if _, err := tx.Exec("UPDATE players SET number = number - 1 WHERE event = ? AND number > ?", id, gone.Number); err != nil {
				return fmt.Errorf("director: removing player %d: %w", player, err)
			}
		}
		line := say("audit.remove-player", "id", fmt.Sprint(gone.ID), "player", describePlayer(gone), "number", fmt.Sprint(gone.Number))
		if len(sn.Rounds) > 0 {
			line = say("audit.remove-player-unplayed", "id", fmt.Sprint(gone.ID), "player", describePlayer(gone), "number", fmt.Sprint(gone.Number),
				"round", fmt.Sprint(len(sn.Rounds)))
		}
		return s.audit(tx, id, "remove-player", line)
	})
}

// SetSeeding gives the starting numbers in the director's order (player
// entry ids, every player once) before round 1 is paired: a player the
// ranking cannot place (an unknown rating, a title from another list)
// where the director knows they belong. An empty order goes back to the
// initial ranking. Players entered afterwards get the next number.
func (s *Store) SetSeeding(ctx context.Context, id string, order []int) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		if len(sn.Rounds) > 0 {
			return refuse(message.Conflict, "director.seeding-fixed")
		}
		e := sn.Event
		if len(order) == 0 {
			e.Seeding = ""
		} else {
			if len(order) != len(sn.Players) {
				return refuse(message.Invalid, "director.bad-seeding", "detail", fmt.Sprintf("%d players listed; the event has %d", len(order), len(sn.Players)))
			}
			seen := map[int]bool{}
			for _, pid := range order {
				if sn.player(pid) == nil {
					return refuse(message.Invalid, "director.bad-seeding", "detail", fmt.Sprintf("there is no player %d", pid))
				}
				if seen[pid] {
					return refuse(message.Invalid, "director.bad-seeding", "detail", fmt.Sprintf("player %d is listed twice", pid))
				}
				seen[pid] = true
			}
			e.Seeding = SeedManual
		}
		body, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if _, err := tx.Exec("UPDATE events SET body = ? WHERE id = ?", string(body), id); err != nil {
			return fmt.Errorf("director: seeding: %w", err)
		}
		sn.Event = e
		if e.Seeding == "" {
			if err := renumber(tx, sn); err != nil {
				return err
			}
			return s.audit(tx, id, "seeding", say("audit.seeding-ranking"))
		}
		var moved []string
		for i, pid := range order {
			p := sn.player(pid)
			if p.Number != i+1 {
				moved = append(moved, fmt.Sprintf("%s %d -> %d", p.Name, p.Number, i+1))
			}
			if _, err := tx.Exec("UPDATE players SET number = ? WHERE event = ? AND id = ?", i+1, id, pid); err != nil {
				return fmt.Errorf("director: seeding: %w", err)
			}
			p.Number = i + 1
		}
		if len(moved) == 0 {
			return s.audit(tx, id, "seeding", say("audit.seeding-same"))
		}
		return s.audit(tx, id, "seeding", say("audit.seeding-hand", "moved", strings.Join(moved, "; ")))
	})
}

// Removable lists the players (entry ids) RemovePlayer would take out now:
// everyone before round 1; after, in a Swiss, those who never played.
func (sn *Snapshot) Removable() []int {
	out := []int{}
	if len(sn.Rounds) > 0 && sn.Event.System == RoundRobin {
		return out
	}
	for i := range sn.Players {
		if p := &sn.Players[i]; len(sn.Rounds) == 0 || sn.played(p) == 0 {
			out = append(out, p.ID)
		}
	}
	return out
}
