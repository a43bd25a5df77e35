// Package engines is the engines' wing of match: everything that runs events
// between programs. Its sub-packages read as a list of features:
//
//   - the engine protocols and players: hub (Hub 1 and 2, over pipes), dxp
//     (DXP over TCP), cb (CheckerBoard libraries hosted as Hub engines),
//     sparring (the built-in engine), enginelog (each engine's
//     conversation), check (engine-check, a protocol conformance test);
//   - the events: tournament (the runner), store (the event's SQLite
//     file), cluster (many machines over NATS), adjudicate (ending games
//     the engines would play out).
//
// This package itself holds Player, the one place an engine's configuration
// becomes a player of its protocol; the runner, the web referee's engine
// opponent and engine-check all start engines through it.
//
// Who may import: the runner and the commands (cmd/arbiter); the people's
// wing (match/people) only for an engine opponent, through this package.
// The engines' wing never imports the people's.
package engines

import (
	"sync"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/dxp"
	"github.com/draughts-arbiter/arbiter/match/engines/enginelog"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/match/internal/proc"
)

// Player makes the Hub or DXP player for an engine spec. budget is the
// event's cap on the engine's log, shared by all its processes; nil gives
// the player a cap of its own.
func Player(spec configs.EngineSpec, log zerolog.Logger, budget *enginelog.Budget) match.Player {
	l := log.With().Str("engine", spec.Name).Logger()
	if spec.Protocol == configs.DXP {
		return dxp.New(dxp.Options{Name: spec.Name, Addr: spec.Address, Listen: spec.Listen, Command: spec.Argv, Dir: spec.Dir, Env: spec.Env, Log: l,
			LogBudget: budget, ConnectTimeout: spec.InitTimeout})
	}
	params := make([]hub.Param, 0, len(spec.Options))
	for _, o := range spec.Options {
		params = append(params, hub.Param{Name: o.Name, Value: o.Value})
	}
	version := 2
	if spec.Protocol == configs.Hub1 {
		version = 1
	}
	return hub.New(hub.Options{Name: spec.Name, Command: spec.Argv, Dir: spec.Dir, Env: spec.Env, Params: params, Log: l,
		LogBudget: budget, InitTimeout: spec.InitTimeout, Version: version})
}

// CloseAll closes players at once and waits for them all. Each engine may
// take its quit grace (a second) to exit: one after the other, an event of
// ten engines that ignore "quit" would end ten seconds late. The search
// for what the engines left behind (children that left their process
// group) is one pass over the machine's processes for them all, not one
// each (proc.HoldScans).
func CloseAll(players []match.Player) {
	release := proc.HoldScans()
	defer release()
	var wg sync.WaitGroup
	for _, pl := range players {
		wg.Go(func() { pl.Close() })
	}
	wg.Wait()
}
