package online

import (
	"context"

	"github.com/draughts-arbiter/arbiter/internal/message"
)

// EvRematch is the event that says a rematch was started.
const EvRematch = "rematch"

// Rematch starts, once a game is over, a new game of the same setup with
// the colours swapped, for the same two people: each player of game id
// gets the new game's link for the side they now play (Snapshot.Rematch),
// and every viewer sees a rematch event. A second call returns the same
// new game. The pairing of the two games is kept in memory only: after a
// restart the finished game offers a new rematch.
func (h *Hall) Rematch(ctx context.Context, id string, role Role) (string, error) {
	c, ok := role.player()
	if !ok {
		return "", refuse(message.Forbidden, "refused.role", "role", role.String(), "kind", "rematch")
	}
	h.rematchMu.Lock() // one new game per finished game, even for two clicks at once
	defer h.rematchMu.Unlock()
	g, err := h.lockGame(ctx, id)
	if err != nil {
		return "", err
	}
	switch {
	case g.broken != nil:
		g.mu.Unlock()
		return "", refuse(message.Conflict, "refused.broken", "reason", g.broken.Error())
	case !g.ref.Done():
		g.mu.Unlock()
		return "", refuse(message.Conflict, "refused.not-over")
	case g.sp.engine != "" && c == g.sp.engineSide:
		g.mu.Unlock()
		return "", refuse(message.Forbidden, "refused.engine-side", "color", colorName(c))
	case g.rematch != nil:
		tok := g.rematch[role]
		g.mu.Unlock()
		return tok, nil
	}
	s := g.sp.setup
	g.mu.Unlock()
	s.White, s.Black = s.Black, s.White
	switch s.EngineSide {
	case "white":
		s.EngineSide = "black"
	case "black":
		s.EngineSide = "white"
	}
	created, err := h.Create(ctx, s)
	if err != nil {
		return "", err
	}
	g, err = h.lockGame(ctx, id)
	if err != nil {
		return "", err
	}
	defer g.mu.Unlock()
	// The person who played White plays Black in the new game.
	g.rematch = map[Role]string{}
	if t, ok := created.Tokens[RoleBlack]; ok {
		g.rematch[RoleWhite] = t
	}
	if t, ok := created.Tokens[RoleWhite]; ok {
		g.rematch[RoleBlack] = t
	}
	g.clk.t = g.lastAt
	g.pending = append(g.pending[:0], Event{Type: EvRematch, At: h.now(), Msg: newMsg("rematch.started", kv("color", colorName(c)))})
	if _, err := h.commit(g, nil, true, nil); err != nil {
		h.log.Warn().Str("game", id).Err(err).Msg("rematch event not stored")
	}
	return g.rematch[role], nil
}
