package director

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

// Group is a set of players (entry ids) of whom no two may be paired in
// rounds From to To (1-based, inclusive); From 0 means every round (a
// TRF's XXP line; a 260 record gives the rounds).
type Group struct {
	Players []int `json:"players"`
	From    int   `json:"from,omitempty"`
	To      int   `json:"to,omitempty"`
}

// In reports whether g applies to round r.
func (g Group) In(r int) bool { return g.From == 0 || (r >= g.From && r <= g.To) }

// Groups are an event's forbidden pairings; empty is written [] (the
// clients read a list, never null).
type Groups []Group

// MarshalJSON writes nil as [].
func (g Groups) MarshalJSON() ([]byte, error) {
	if g == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]Group(g))
}

// checkGroups checks and normalises groups against the players of sn:
// each names at least two distinct players of the event, its rounds (if
// any) from 1 to the event's rounds; the ids sorted; no group twice.
func checkGroups(sn *Snapshot, gs []Group) (Groups, error) {
	if len(gs) > MaxPlayers {
		return nil, refuse(message.Invalid, "director.bad-forbidden", "detail", fmt.Sprintf("%d groups; at most %d", len(gs), MaxPlayers))
	}
	var out Groups
	seen := map[string]bool{}
	for i, g := range gs {
		bad := func(f string, a ...any) error {
			return refuse(message.Invalid, "director.bad-forbidden", "detail", fmt.Sprintf("group %d: ", i+1)+fmt.Sprintf(f, a...))
		}
		ids := slices.Clone(g.Players)
		slices.Sort(ids)
		ids = slices.Compact(ids)
		if len(ids) != len(g.Players) {
			return nil, bad("a player is listed twice")
		}
		if len(ids) < 2 {
			return nil, bad("at least two players are needed")
		}
		for _, pid := range ids {
			if sn.player(pid) == nil {
				return nil, bad("there is no player %d", pid)
			}
		}
		if g.From != 0 || g.To != 0 {
			if g.From < 1 || g.To < g.From || g.To > sn.Event.Rounds {
				return nil, bad("rounds %d to %d are not within 1 to %d", g.From, g.To, sn.Event.Rounds)
			}
		}
		key := fmt.Sprint(ids, g.From, g.To)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, Group{Players: ids, From: g.From, To: g.To})
	}
	return out, nil
}

// SetForbidden replaces the event's forbidden pairings (players of one
// family or club who must not meet) with gs; nil clears them. Rounds
// paired already keep their boards; the next pairing honours the new
// list. Only a Swiss has them; the audit log names the players.
func (s *Store) SetForbidden(ctx context.Context, id string, gs []Group) error {
	return s.update(ctx, id, func(tx *sql.Tx, sn *Snapshot) error {
		if sn.Event.System != Swiss {
			return refuse(message.Conflict, "director.forbidden-swiss")
		}
		groups, err := checkGroups(sn, gs)
		if err != nil {
			return err
		}
		e := sn.Event
		e.Forbidden = groups
		body, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if _, err := tx.Exec("UPDATE events SET body = ? WHERE id = ?", string(body), id); err != nil {
			return fmt.Errorf("director: forbidden pairings: %w", err)
		}
		sn.Event = e
		return s.audit(tx, id, "forbidden", sn.describeGroups())
	})
}

// describeGroups writes the forbidden pairings for the audit log.
func (sn *Snapshot) describeGroups() note {
	if len(sn.Event.Forbidden) == 0 {
		return say("audit.forbidden-none")
	}
	var groups []message.Message
	for _, g := range sn.Event.Forbidden {
		var names []string
		for _, pid := range g.Players {
			if p := sn.player(pid); p != nil {
				names = append(names, fmt.Sprintf("%s (%d)", p.Name, p.ID))
			}
		}
		players := strings.Join(names, ", ")
		if g.From != 0 {
			groups = append(groups, part("audit.group-rounds", "players", players, "from", fmt.Sprint(g.From), "to", fmt.Sprint(g.To)))
		} else {
			groups = append(groups, part("audit.group", "players", players))
		}
	}
	return say("audit.forbidden").with("groups", groups...)
}

// forbiddenIn is the forbidden pairings of round n by pairing number, as
// the Swiss pairing reads them; players no longer in the event are left
// out.
func (sn *Snapshot) forbiddenIn(n int) [][]int {
	var out [][]int
	for _, g := range sn.Event.Forbidden {
		if !g.In(n) {
			continue
		}
		if nums := sn.numbers(g.Players); len(nums) >= 2 {
			out = append(out, nums)
		}
	}
	return out
}

// numbers maps entry ids to pairing numbers, skipping unknown ids.
func (sn *Snapshot) numbers(ids []int) []int {
	var out []int
	for _, pid := range ids {
		if p := sn.player(pid); p != nil && p.Number != 0 {
			out = append(out, p.Number)
		}
	}
	return out
}

// trfForbidden is the forbidden pairings as a TRF writes them (XXP for
// every round, 260 with rounds), by pairing number.
func (sn *Snapshot) trfForbidden() []trf.Forbidden {
	var out []trf.Forbidden
	for _, g := range sn.Event.Forbidden {
		if nums := sn.numbers(g.Players); len(nums) >= 2 {
			out = append(out, trf.Forbidden{First: g.From, Last: g.To, Players: nums})
		}
	}
	return out
}

// withoutPlayer is gs with player pid taken out (RemovePlayer), and a
// group left with fewer than two players dropped.
func withoutPlayer(gs Groups, pid int) Groups {
	var out Groups
	for _, g := range gs {
		ids := slices.DeleteFunc(slices.Clone(g.Players), func(x int) bool { return x == pid })
		if len(ids) >= 2 {
			g.Players = ids
			out = append(out, g)
		}
	}
	return out
}
