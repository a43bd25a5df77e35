package tournament

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/reports"
	"github.com/draughts-arbiter/arbiter/reports/stats"
	"github.com/draughts-arbiter/arbiter/rules"
)

// ReportEvent reads the finished games of a store as the reports package's
// Event, in plan order.
func ReportEvent(ctx context.Context, st *store.Store) (reports.Event, error) {
	sev, err := st.Event(ctx)
	if err != nil {
		return reports.Event{}, err
	}
	ev := reports.Event{Name: sev.Name, Variant: sev.Variant, TimeControl: sev.TimeControl,
		ConfigHash: sev.ConfigHash, Stopped: sev.Stopped}
	// The effective configuration, read once for the report's details, its
	// Swiss view and the engines' options.
	conf, confErr := configs.ReadStored(sev.Config)
	if confErr == nil {
		ev.Swiss = reportSwiss(conf)
	}
	ids, err := st.Identities(ctx)
	if err != nil {
		return ev, err
	}
	names := make(map[int]string, len(sev.Engines))
	var options map[string]map[string]string
	if confErr == nil {
		options = engineOptions(conf)
	}
	for _, e := range sev.Engines {
		ev.Engines = append(ev.Engines, e.Name)
		names[e.ID] = e.Name
		id := ids[e.ID]
		proto := e.Protocol
		if proto == "" {
			proto = "hub"
		}
		ev.Participants = append(ev.Participants, reports.EngineInfo{Name: e.Name, Command: e.Command, Protocol: proto,
			Options: options[e.Name], ID: id.Name, Version: id.Version, Checksum: id.Checksum})
	}
	if sev.SPRT != "" {
		var c stats.SPRTConfig
		if err := json.Unmarshal([]byte(sev.SPRT), &c); err != nil {
			return ev, fmt.Errorf("tournament: %s: SPRT settings %q: %w", st.Path(), sev.SPRT, err)
		}
		ev.SPRT = &c
	}
	// One row per game: the runner kept each game's replay record and
	// latencies in it (schema version 5). The games of an older file, or
	// with a record in another format, are read again with their moves after
	// the games, their records made on every core.
	pos := map[int]int{} // game ID -> index in ev.Games, of the games read again
	fens := map[int]string{}
	var missing []int
	err = st.Games(ctx, store.ReadOptions{Parallel: true}, func(g store.Game) error {
		w, ok1 := names[g.White]
		b, ok2 := names[g.Black]
		if !ok1 || !ok2 {
			return fmt.Errorf("tournament: %s: game %d refers to an unknown engine", st.Path(), g.ID+1)
		}
		rec, ok := strings.CutPrefix(g.Record, recordTag)
		if !ok {
			rec = "" // none, or in another format: made again below
		}
		if !ok || g.MoveLatency == nil {
			pos[g.ID] = len(ev.Games)
			fens[g.ID] = g.OpeningFEN
			missing = append(missing, g.ID)
		}
		ev.Games = append(ev.Games, reports.Game{
			Round: g.Round, Board: g.Board, Pair: g.Pair + 1, White: w, Black: b,
			Result: g.Result, Termination: g.Termination, Reason: g.Reason, Plies: len(g.MoveTimes), Opening: g.Opening,
			MoveTimes: g.MoveTimes, Latency: g.MoveLatency, FirstMover: g.FirstMover, PDN: g.PDN, Started: g.Started, Finished: g.Finished,
			Worker: g.Worker, Record: rec, HostGuard: reportGuard(g.HostGuard),
		})
		return nil
	})
	ev.Site, ev.Settings = reportSettings(sev, conf, confErr, fromBook(ev.Games))
	if err != nil || len(missing) == 0 {
		return ev, err
	}
	pool := reports.NewRecordPool(sev.Variant)
	err = st.GameMovesOf(ctx, missing, func(id int, ms []store.MoveText) error {
		g := &ev.Games[pos[id]]
		if g.Latency == nil {
			g.Latency = make([]time.Duration, len(ms))
			for k, m := range ms {
				g.Latency[k] = m.Latency
			}
		}
		if g.Record != "" {
			return nil
		}
		moves := make([]reports.Move, len(ms))
		for k, m := range ms {
			moves[k] = reports.Move{Text: m.Text, Score: m.Score, HasScore: m.HasScore, Depth: m.Depth}
		}
		pool.Add(pos[id], fens[id], moves)
		return nil
	})
	for i, rec := range pool.Wait() {
		ev.Games[i].Record = rec
	}
	return ev, err
}

// reportGuard is a game's host guard as the report takes it.
func reportGuard(h [2]store.HostGuard) [2]reports.HostGuard {
	var out [2]reports.HostGuard
	for i, s := range h {
		out[i] = reports.HostGuard{Stopped: s.Stopped, Moves: s.Moves, Overshoot: s.Overshoot}
	}
	return out
}

// recordTag starts every replay record the runner keeps in the store
// (store.Game.Record), naming its format: a report takes a record in the
// format it replays as it is, and makes any other again from the moves.
var recordTag = fmt.Sprintf("v%d;", reports.RecordFormat)

// storedRecord is rec as the store keeps it.
func storedRecord(rec string) string { return recordTag + rec }

// WriteReport writes report.html, results.json and games.pdn into dir from
// the store's games.
func WriteReport(ctx context.Context, st *store.Store, dir string) error {
	ev, err := ReportEvent(ctx, st)
	if err != nil {
		return err
	}
	if err := reports.WriteAll(dir, ev); err != nil {
		return err
	}
	return nil
}

// ReportPath is where WriteReport puts the HTML report.
func ReportPath(dir string) string { return filepath.Join(dir, reports.HTMLFile) }

// fromBook reports whether games started from a book's openings (a
// named opening) rather than the start position.
func fromBook(games []reports.Game) bool {
	for _, g := range games {
		if g.Opening != "" {
			return true
		}
	}
	return false
}

// engineOptions are each engine's options as the stored configuration c
// gives them, by engine name.
func engineOptions(c configs.Stored) map[string]map[string]string {
	out := make(map[string]map[string]string, len(c.Engines))
	for _, e := range c.Engines {
		if len(e.Options) == 0 {
			continue
		}
		o := make(map[string]string, len(e.Options))
		for k, v := range e.Options {
			o[k] = fmt.Sprint(v)
		}
		out[e.Name] = o
	}
	return out
}

// reportSettings turns the event's effective configuration into the
// report's event details (c, or err when it could not be read); book: the
// games came from an opening book. A configuration that cannot be read
// gives no details rather than no report.
func reportSettings(sev store.Event, c configs.Stored, err error, book bool) (site string, out []reports.Setting) {
	if err != nil {
		return "", []reports.Setting{{Label: "Configuration", Value: "not readable: " + err.Error()}}
	}
	add := func(label, value string) {
		if value != "" {
			out = append(out, reports.Setting{Label: label, Value: value})
		}
	}
	format := c.Tournament
	if format == "" {
		format = "round-robin"
	}
	if c.Rounds != nil {
		format += fmt.Sprintf(", rounds: %v", c.Rounds)
	}
	if c.GamesPerEncounter > 0 {
		format += fmt.Sprintf(", %d games per encounter", c.GamesPerEncounter)
	}
	if strings.EqualFold(strings.TrimSpace(c.Swiss.System), "burstein") {
		format += ", Burstein system (FIDE C.04.4.2)"
	}
	if a := c.Swiss.Acceleration; a != "" && !strings.EqualFold(a, "none") {
		format += ", " + a + " acceleration"
	}
	add("Format", format)
	policy := c.IllegalMovePolicy
	if policy == "" {
		// The configuration's default: the variant's federation rule.
		policy = "strict"
		if v, err := rules.Lookup(sev.Variant); err == nil && v.IllegalMoves() == rules.IllegalWarnsFirst {
			policy = "wcdf"
		}
	}
	switch policy {
	case "wcdf":
		policy = "wcdf: the first illegal move is retracted with a warning, the second loses"
	case "strict":
		policy = "strict: an illegal move loses"
	}
	out = append(out, reports.Setting{Label: "Illegal moves", Value: policy,
		Link: "https://github.com/draughts-arbiter/arbiter/blob/main/rules/RULES.md#6-illegal-move-and-fault-policies-configurable-per-event"})
	if c.AutoClaim != nil {
		if *c.AutoClaim {
			add("Draw claims", "the arbiter claims repetition and move-rule draws for the engines")
		} else {
			add("Draw claims", "only the engines claim draws")
		}
	}
	var adj []string
	if c.Adjudication.MaxMoves > 0 {
		adj = append(adj, fmt.Sprintf("draw after %d moves each", c.Adjudication.MaxMoves))
	}
	if r := c.Adjudication.Resign; r != nil {
		two := ""
		if r.TwoSided {
			two = ", both sides agreeing"
		}
		adj = append(adj, fmt.Sprintf("resign at score ≤ −%g men for %d moves%s", r.Score, r.MoveCount, two))
	}
	if d := c.Adjudication.Draw; d != nil {
		adj = append(adj, fmt.Sprintf("draw from move %d when both scores stay within ±%g men for %d moves", d.MoveNumber, d.Score, d.MoveCount))
	}
	if e := c.Adjudication.EGDB; e != nil {
		results := e.Results
		if results == "" {
			results = "all"
		}
		pieces := "as many pieces as it holds"
		if e.Pieces > 0 {
			pieces = fmt.Sprintf("up to %d pieces", e.Pieces)
		}
		adj = append(adj, fmt.Sprintf("endgame database (%s, %s; results: %s)", e.Dir, pieces, results))
	}
	if len(adj) == 0 {
		adj = append(adj, "none")
	}
	add("Adjudication", strings.Join(adj, "; "))
	add("Opening book", bookLine(c, book))
	add("Flag tolerance", c.Margin)
	return c.Site, out
}

// bookLine is the report's "Opening book" of the stored configuration
// c: the file with its group, order and seed, the variant's default book
// (a match stored before the effective configuration named the default
// book it took, and so names neither it nor the group played), or none;
// book: the games came from a book.
func bookLine(c configs.Stored, book bool) string {
	o := c.Openings
	switch {
	case o.File == "" && !book:
		return "none: every game starts from the variant's start position"
	case o.File == "":
		o.File, o.Group = "the variant's default book", ""
	}
	var bits []string
	if o.Group != "" {
		bits = append(bits, "group "+o.Group)
	}
	if o.Order != "" {
		bits = append(bits, o.Order)
	}
	if o.Seed != nil {
		bits = append(bits, fmt.Sprintf("seed %v", o.Seed))
	}
	if len(bits) == 0 {
		return o.File
	}
	return o.File + " (" + strings.Join(bits, ", ") + ")"
}

// reportSwiss is the report's view of a Swiss event (nil for the other
// formats), from its effective configuration c: rounds, games per
// encounter, tie-breaks (configs.DefaultTieBreaks when it names none).
func reportSwiss(c configs.Stored) *reports.SwissEvent {
	if !strings.EqualFold(c.Tournament, "swiss") {
		return nil
	}
	se := &reports.SwissEvent{GamesPerEncounter: c.GamesPerEncounter, TieBreaks: configs.DefaultTieBreaks}
	if se.GamesPerEncounter <= 0 {
		se.GamesPerEncounter = 2
	}
	se.Rounds, _ = strconv.Atoi(fmt.Sprint(c.Rounds))
	if names := c.TieBreakNames(); len(names) > 0 {
		se.TieBreaks = names
	}
	return se
}
