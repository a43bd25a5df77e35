package online

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines"
	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/rules"
)

// engineRun is the engine opponent of one game: a goroutine that asks the
// engine for a move whenever it is the engine's turn, and hands the answer
// to the game as an input, as a person's move would be.
type engineRun struct {
	wake   chan struct{}
	cancel context.CancelFunc
	retry  bool // the engine's last answer was refused with a warning
}

// slack is how long past the deadline an engine's answer may come (its
// answer to "stop"); the referee judges the time of whatever arrives.
const slack = 2 * time.Second

// wakeEngine tells the engine that the game changed. Holds g.mu.
func (g *game) wakeEngine() {
	if g.eng == nil {
		return
	}
	select {
	case g.eng.wake <- struct{}{}:
	default:
	}
}

// startEngine starts the engine goroutine of g. Holds g.mu.
func (h *Hall) startEngine(g *game) {
	ctx, cancel := context.WithCancel(h.ctx)
	e := &engineRun{wake: make(chan struct{}, 1), cancel: cancel}
	g.eng = e
	spec, ok := h.cfg.Engines[g.sp.engine]
	newPlayer := h.cfg.NewPlayer
	if newPlayer == nil {
		newPlayer = func(spec configs.EngineSpec, log zerolog.Logger) match.Player { return engines.Player(spec, log, nil) }
	}
	var p match.Player
	if ok {
		p = newPlayer(spec, h.log.With().Str("game", g.id).Logger())
	}
	side := g.sp.engineSide
	v, start, tc := g.sp.variant, g.ref.History()[0], g.sp.tc
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		defer cancel()
		if p == nil {
			h.engineInput(g, -1, input{Internal: "engine-fault", Fault: string(arbiter.EngineCrashed),
				Why: fmt.Sprintf("%s's engine %q is not configured on this server any more", side.Name(), g.sp.engine)})
			return
		}
		defer p.Close()
		sctx, scancel := context.WithTimeout(ctx, 2*time.Minute)
		err := match.StartGame(sctx, p, v, start, tc, side)
		scancel()
		if err != nil {
			if ctx.Err() == nil {
				h.engineInput(g, -1, input{Internal: "engine-fault", Fault: string(arbiter.EngineCrashed),
					Why: fmt.Sprintf("%s's engine could not start: %v", side.Name(), err)})
			}
			return
		}
		select {
		case e.wake <- struct{}{}:
		default:
		}
		for {
			select {
			case <-ctx.Done():
				return
			case <-e.wake:
			}
			g.mu.Lock()
			ref := g.ref
			if ref.Done() || g.closed {
				res := ref.Result()
				g.mu.Unlock()
				if ge, ok := p.(match.GameEnder); ok && ctx.Err() == nil {
					ectx, c := context.WithTimeout(ctx, 5*time.Second)
					ge.EndGame(ectx, res, side)
					c()
				}
				return
			}
			if ref.Paused() || ref.Pending() || ref.Turn() != side {
				g.mu.Unlock()
				continue
			}
			ply := ref.Ply()
			req := match.Request{Start: start, Moves: ref.Moves(), Position: ref.Position(),
				Level: match.LevelFor(ref, start, side, tc), Deadline: ref.Deadline(), Retry: e.retry}
			g.mu.Unlock()
			pctx, pcancel := ctx, context.CancelFunc(func() {})
			if !req.Deadline.IsZero() {
				pctx, pcancel = context.WithDeadline(ctx, req.Deadline.Add(slack))
			}
			reply, err := p.Play(pctx, req)
			pcancel()
			if ctx.Err() != nil {
				return
			}
			in := engineAnswer(side, reply, err)
			e.retry = in.Internal == "engine-illegal"
			if reply.ClaimDraw && err == nil {
				// Try the rules a draw could be claimed under; an engine that
				// stops playing without one has left the game.
				kinds := []string{"threefold"}
				if n := v.Draws().MoveRule; n > 0 {
					kinds = append(kinds, fmt.Sprintf("%d-move", n))
				}
				for _, k := range kinds {
					h.engineInput(g, ply, input{Role: Role(side), Engine: true, Intent: Intent{Kind: "claim", Claim: k}})
				}
				in = input{Internal: "engine-fault", Fault: string(arbiter.Resignation),
					Why: side.Name() + " left the game claiming a draw that the rules do not give"}
			}
			h.engineInput(g, ply, in)
		}
	}()
}

// engineAnswer is the input an engine's answer makes.
func engineAnswer(side rules.Color, reply match.Reply, err error) input {
	if err != nil {
		f, ok := match.AsFault(err)
		if !ok {
			f = &match.Fault{Kind: match.Crash, Reason: err.Error(), Err: err}
		}
		reason := f.Reason
		if f.Err != nil && !errors.Is(f.Err, context.DeadlineExceeded) && !errors.Is(f.Err, io.EOF) {
			reason += ": " + f.Err.Error()
		}
		t := arbiter.EngineCrashed
		switch f.Kind {
		case match.Illegal:
			text := f.Text
			if text == "" {
				text = "(nothing)"
			}
			return input{Internal: "engine-illegal", Text: clip(text, 64), Why: reason}
		case match.Stall:
			t = arbiter.EngineStalled
		case match.Timeout:
			t = arbiter.TimeForfeit
		case match.Limit:
			t = arbiter.EngineFault
		}
		return input{Internal: "engine-fault", Fault: string(t), Why: fmt.Sprintf("%s engine: %s", side, reason)}
	}
	switch {
	case reply.Resign:
		return input{Role: Role(side), Engine: true, Intent: Intent{Kind: "resign"}}
	case reply.ClaimWin:
		return input{Internal: "engine-fault", Fault: string(arbiter.Resignation),
			Why: side.String() + " left the game claiming a win that the rules do not give"}
	}
	return input{Role: Role(side), Engine: true, Intent: Intent{Kind: "move"}, Mv: toWire(reply.Move)}
}

// engineInput applies an engine's input if the game is still where the
// engine was asked (ply; -1 = anywhere).
func (h *Hall) engineInput(g *game, ply int, in input) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || g.broken != nil || g.ref.Done() {
		return
	}
	if ply >= 0 && (g.ref.Ply() != ply || g.ref.Paused() || g.ref.Pending() || g.ref.Turn() != g.sp.engineSide) {
		// The game moved on (a pause, the arbiter): ask again.
		g.wakeEngine()
		return
	}
	now := h.now()
	if _, _, err := h.run(g, now, input{Internal: "flag"}, nil); err != nil {
		return
	}
	if g.ref.Done() {
		return
	}
	_, r, err := h.run(g, now, in, nil)
	if r != nil && in.Internal == "" && in.Intent.Kind == "move" {
		// What the engine sent cannot be played at all: an illegal answer.
		h.run(g, now, input{Internal: "engine-illegal", Text: "(unplayable move)", Why: r.Error()}, nil)
	} else if err != nil || r != nil {
		h.log.Warn().Str("game", g.id).Interface("refusal", r).Err(err).Msg("engine input not applied")
	}
}
