package configs

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match/engines/adjudicate"
	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/reports/stats"
	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
)

// validate is the stage after decoding: it checks every value of cfg and
// turns it into the types of the Event, and fills the defaults that depend
// on other values (the event's name and output directory on the file's
// name, the illegal-move policy on the variant). It is a function of its
// arguments only: it neither touches the filesystem nor changes cfg (the
// Event gets a copy with the defaults filled in). What depends on the world
// outside the text (engine directories, opening files, the program "self"
// stands for) is left to resolve: engine commands keep "self", directories
// are as written and the openings are not loaded.
func validate(cfg *Config, file string, source func(string) string) (*Event, error) {
	v := &validation{source: source}
	filled := *cfg
	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	if filled.Name == "" {
		filled.Name = base
	}
	if filled.Out == "" {
		filled.Out = filepath.Join("out", slug(base))
	}
	ev := &Event{Config: &filled, File: file, Name: filled.Name, Site: filled.Site, AutoClaim: filled.AutoClaim,
		Concurrency: filled.Concurrency, Out: filled.Out, Margin: time.Duration(filled.Margin), MaxMoves: filled.Adjudication.MaxMoves}

	variant, err := filled.Variant.Build()
	if err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			v.fail("variant."+fe.key, fe.err)
		} else {
			v.fail("variant", err)
		}
		// Without a variant nothing else that depends on it can be checked.
		return nil, v.err()
	}
	ev.Variant = variant
	if ev.TimeControl, err = arbiter.ParseTimeControl(filled.TimeControl); err != nil {
		v.fail("time_control", err)
	}
	if w := cutechessReading("time_control", filled.TimeControl); w != "" {
		ev.Warnings = append(ev.Warnings, w)
	}
	for i, e := range filled.Engines {
		if w := cutechessReading(fmt.Sprintf("engines.%d.time_control", i), e.TimeControl); w != "" {
			ev.Warnings = append(ev.Warnings, w)
		}
	}
	ev.Engines = v.engines(filled.Engines, ev.TimeControl)
	ev.Schedule = v.schedule(&filled)
	if ev.Schedule.Kind == schedule.Swiss {
		ev.Swiss = v.swiss(filled.Swiss)
	}
	if filled.IllegalMovePolicy == "" {
		// RULES.md section 6: the variant's federation rule.
		filled.IllegalMovePolicy = string(arbiter.DefaultPolicy(variant))
	}
	ev.Policy = v.policy(filled.IllegalMovePolicy)
	if filled.Concurrency < 1 || filled.Concurrency > 1024 {
		v.fail("concurrency", fmt.Errorf("%d; want 1 to 1024 games at once", filled.Concurrency))
	}
	if ev.MaxMoves < 0 {
		v.fail("adjudication.max_moves", fmt.Errorf("%d; want 0 (never) or more", ev.MaxMoves))
	}
	if r := filled.Adjudication.Resign; r != nil {
		ev.Adjudicate.Resign = &adjudicate.Resign{MoveCount: r.MoveCount, Score: r.Score, TwoSided: r.TwoSided}
	}
	if d := filled.Adjudication.Draw; d != nil {
		ev.Adjudicate.Draw = &adjudicate.Draw{MoveNumber: d.MoveNumber, MoveCount: d.MoveCount, Score: d.Score}
	}
	if e := filled.Adjudication.EGDB; e != nil {
		ev.Adjudicate.EGDB = v.egdb(e)
	}
	if err := ev.Adjudicate.Check(); err != nil {
		for _, e := range unjoin(err) {
			key, why, _ := strings.Cut(e.Error(), ": ")
			v.fail("adjudication."+key, errors.New(why))
		}
	}
	if ev.Margin < 0 || ev.Margin > time.Minute {
		v.fail("margin", fmt.Errorf("%v; want 0 to 1m", ev.Margin))
	}
	if filled.SPRT != nil {
		if ev.Schedule.Kind == schedule.Swiss {
			// The SPRT tests one engine against another; a Swiss ranks a
			// field, and stopping it early would leave its rounds unplayed.
			v.fail("sprt", errors.New("an SPRT is for a two-engine match, not a Swiss event (remove sprt, or use tournament: round-robin)"))
		} else {
			ev.SPRT = v.sprt(*filled.SPRT, len(filled.Engines))
		}
	}
	switch ev.Annotations = strings.ToLower(filled.PDN.Annotations); ev.Annotations {
	case "none", "clock", "full":
	default:
		v.fail("pdn.annotations", fmt.Errorf("%q is not none, clock or full", filled.PDN.Annotations))
	}
	if strings.TrimSpace(filled.Out) == "" {
		v.fail("out", errors.New("empty output directory"))
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	return ev, nil
}

// cutechessTC is a first period that reads like cutechess's
// moves/minutes:seconds: "40/1:30".
var cutechessTC = regexp.MustCompile(`^\s*(\d+)/(\d+):(\d+)(\D|$)`)

// cutechessReading warns about a time control that PDN and cutechess read
// differently: "40/1:30" is, in PDN, 40 moves in 1 s and then 30 s for
// the rest of the game, and in cutechess 40 moves in 1 min 30 s. A first
// period under a minute followed by a second one under a minute is taken
// for the latter.
func cutechessReading(key, tc string) string {
	m := cutechessTC.FindStringSubmatch(tc)
	if m == nil {
		return ""
	}
	moves, _ := strconv.Atoi(m[1])
	a, _ := strconv.Atoi(m[2])
	b, _ := strconv.Atoi(m[3])
	if a >= 60 || b >= 60 {
		return ""
	}
	return fmt.Sprintf("%s %q is read as PDN reads it: %d moves in %d s, then %d s for the rest of the game; "+
		"cutechess would read %d moves in %d min %d s (write %d/%d for that)", key, tc, moves, a, b, moves, a, b, moves, a*60+b)
}

// validation collects the errors of validate, each with its key and where
// the key's value came from.
type validation struct {
	source func(string) string
	errs   []error
}

func (v *validation) fail(key string, err error) {
	v.errs = append(v.errs, &Error{File: v.source(key), Key: key, Err: err})
}

func (v *validation) err() error { return errors.Join(v.errs...) }

// unjoin lists the errors errors.Join joined.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// engines checks the engine entries; tc is the event's time control, the
// default of each engine's.
func (v *validation) engines(list []Engine, tc arbiter.TimeControl) []EngineSpec {
	if len(list) < 2 {
		v.fail("engines", fmt.Errorf("%d engines configured; an event needs at least 2", len(list)))
	}
	return v.engineList(list, tc)
}

// engineList checks engine entries, however many.
func (v *validation) engineList(list []Engine, tc arbiter.TimeControl) []EngineSpec {
	names := map[string]int{}
	var out []EngineSpec
	for i, e := range list {
		key := fmt.Sprintf("engines.%d", i)
		es := EngineSpec{Name: strings.TrimSpace(e.Name), Command: e.Command, Dir: e.Dir, Address: e.Address, Listen: e.Listen,
			Env: e.Env, Protocol: strings.ToLower(e.Protocol), TimeControl: tc, InitTimeout: time.Duration(e.InitTimeout),
			Version: strings.TrimSpace(e.Version)}
		if es.InitTimeout < 0 || es.InitTimeout > time.Hour {
			v.fail(key+".init_timeout", fmt.Errorf("%v; want 0 (the default, 60s) to 1h", es.InitTimeout))
		}
		if es.Name == "" {
			v.fail(key+".name", errors.New("every engine needs a name"))
		} else if j, dup := names[es.Name]; dup {
			v.fail(key+".name", fmt.Errorf("%q is already the name of engines.%d", es.Name, j))
		}
		names[es.Name] = i
		if es.Protocol == "" {
			es.Protocol = Hub
		}
		switch es.Protocol {
		case Hub, Hub1, CB:
			if strings.TrimSpace(e.Command) == "" {
				v.fail(key+".command", fmt.Errorf("a %s engine needs a command", es.Protocol))
			}
		case DXP:
			if e.Address == "" {
				v.fail(key+".address", errors.New("a dxp engine needs an address (host:port)"))
			}
		default:
			v.fail(key+".protocol", fmt.Errorf("%q is not hub, hub1, cb or dxp", e.Protocol))
		}
		if strings.TrimSpace(e.Command) != "" {
			argv, err := SplitCommand(e.Command)
			if err != nil {
				v.fail(key+".command", err)
			}
			es.Argv = argv
			if es.Protocol == CB {
				// The library is loaded by this arbiter in a child process
				// that speaks Hub for it (package match/engines/cb).
				es.Argv = append([]string{"self", "cb-host"}, argv...)
			}
		}
		for k, val := range e.Options {
			es.Options = append(es.Options, Option{Name: k, Value: val})
		}
		sort.Slice(es.Options, func(a, b int) bool { return es.Options[a].Name < es.Options[b].Name })
		if e.TimeControl != "" {
			var err error
			if es.TimeControl, err = arbiter.ParseTimeControl(e.TimeControl); err != nil {
				v.fail(key+".time_control", err)
			}
		}
		out = append(out, es)
	}
	return out
}

// schedule checks the pairing keys; the number of openings is left for
// resolve, which loads them.
func (v *validation) schedule(cfg *Config) schedule.Config {
	kind := schedule.Kind(strings.ToLower(cfg.Tournament))
	switch kind {
	case schedule.RoundRobin, schedule.Gauntlet:
		if cfg.Rounds < 1 || cfg.Rounds > 10000 {
			v.fail("rounds", fmt.Errorf("%d cycles; want 1 to 10000 (or single / double)", cfg.Rounds))
		}
		if cfg.Swiss != nil {
			v.fail("swiss", fmt.Errorf("the settings of a Swiss event, but tournament is %s", kind))
		}
	case schedule.Swiss:
		// The players meet at most once: a round-robin plays more.
		if n := len(cfg.Engines); n >= 2 && (cfg.Rounds < 1 || int(cfg.Rounds) > schedule.MaxSwissRounds(n)) {
			v.fail("rounds", fmt.Errorf("%d rounds; a Swiss of %d engines has 1 to %d (no two engines meet twice)", cfg.Rounds, n, schedule.MaxSwissRounds(n)))
		}
	default:
		v.fail("tournament", fmt.Errorf("%q is not round-robin, gauntlet or swiss", cfg.Tournament))
	}
	if g := cfg.GamesPerEncounter; g < 2 || g%2 != 0 || g > 1_000_000 {
		v.fail("games_per_encounter", fmt.Errorf("%d; want an even number from 2 (each opening is played twice, colours reversed)", g))
	}
	order := schedule.Order(strings.ToLower(cfg.Openings.Order))
	if order != schedule.Sequential && order != schedule.Random {
		v.fail("openings.order", fmt.Errorf("%q is not sequential or random", cfg.Openings.Order))
	}
	op := cfg.Openings
	perEncounter := false
	switch strings.ToLower(op.Policy) {
	case "", "round":
	case "encounter":
		perEncounter = true
	default:
		v.fail("openings.policy", fmt.Errorf("%q is not round or encounter", op.Policy))
	}
	if op.Plies < 0 {
		v.fail("openings.plies", fmt.Errorf("%d; want 0 (every ply of the book's games) or more", op.Plies))
	}
	if op.Start < 0 {
		v.fail("openings.start", fmt.Errorf("%d; want 1 (the first opening) or more", op.Start))
	}
	sc := schedule.Config{Kind: kind, Players: len(cfg.Engines), Cycles: int(cfg.Rounds),
		GamesPerEncounter: cfg.GamesPerEncounter, Order: order, Seed: cfg.Openings.Seed,
		Start: max(0, op.Start-1), PerEncounter: perEncounter, NoSwap: op.NoSwap}
	if kind == schedule.Swiss {
		sc.Cycles, sc.Rounds = 1, int(cfg.Rounds)
	}
	return sc
}

// swiss checks a Swiss event's settings (nil: the defaults).
func (v *validation) swiss(s *Swiss) *SwissSettings {
	out := &SwissSettings{TieBreaks: DefaultTieBreaks}
	if s == nil {
		return out
	}
	if sys, ok := swiss.ParseSystem(strings.ToLower(strings.TrimSpace(s.System))); ok {
		out.System = sys
	} else {
		v.fail("swiss.system", fmt.Errorf("%q is not dutch or burstein", s.System))
	}
	switch strings.ToLower(strings.TrimSpace(s.Acceleration)) {
	case "", "none":
	case "baku":
		out.Baku = true
	default:
		v.fail("swiss.acceleration", fmt.Errorf("%q is not none or baku", s.Acceleration))
	}
	if s.TieBreaks != nil {
		out.TieBreaks = nil
		seen := map[string]bool{}
		if len(s.TieBreaks) > tiebreak.MaxOrder {
			v.fail("swiss.tie_breaks", fmt.Errorf("%d tie-breaks; at most %d", len(s.TieBreaks), tiebreak.MaxOrder))
		}
		for i, tb := range s.TieBreaks {
			key := fmt.Sprintf("swiss.tie_breaks.%d", i)
			o, err := tiebreak.Parse(tb)
			switch {
			case err != nil || len(o) != 1:
				v.fail(key, fmt.Errorf("%q is not a tie-break (%s)", tb, strings.Join(tiebreak.Names(), ", ")))
				continue
			case seen[o[0].String()]:
				v.fail(key, fmt.Errorf("%q is already in the list (as %s)", tb, o[0]))
			}
			seen[o[0].String()] = true
			out.TieBreaks = append(out.TieBreaks, o[0].String())
		}
	}
	return out
}

func (v *validation) policy(name string) arbiter.Policy {
	p, err := arbiter.ParsePolicy(name)
	if err != nil {
		v.fail("illegal_move_policy", err)
	} else if p == arbiter.PolicyOpponentDecides {
		// The opponent chooses "correct" or "let stand": a person's choice.
		// An engine cannot make it, and an engine corrected without penalty
		// could repeat its illegal move for ever.
		v.fail("illegal_move_policy", fmt.Errorf("%q is for games between people; an engine event uses wcdf or strict", name))
	}
	return p
}

func (v *validation) sprt(s SPRT, engines int) *stats.SPRTConfig {
	sc := stats.SPRTConfig{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta}
	if sc.Alpha == 0 {
		sc.Alpha = 0.05
	}
	if sc.Beta == 0 {
		sc.Beta = 0.05
	}
	switch strings.ToLower(s.Model) {
	case "", "pentanomial":
	case "trinomial":
		sc.Trinomial = true
	default:
		v.fail("sprt.model", fmt.Errorf("%q is not pentanomial or trinomial", s.Model))
	}
	switch m := stats.SPRTModel(strings.ToLower(s.EloModel)); m {
	case "", stats.Normalized, stats.Logistic:
		sc.Model = m
	default:
		v.fail("sprt.elo_model", fmt.Errorf("%q is not normalized or logistic", s.EloModel))
	}
	if err := sc.Validate(); err != nil {
		v.fail("sprt", err)
	}
	if engines != 2 {
		v.fail("sprt", fmt.Errorf("an SPRT needs exactly 2 engines, not %d", engines))
	}
	return &sc
}

// egdb checks adjudication.egdb's values; resolve opens the database.
func (v *validation) egdb(e *EGDBAdjudication) *adjudicate.EGDB {
	if e.Dir == "" {
		v.fail("adjudication.egdb.dir", errors.New("missing: the directory `arbiter egdb build --dir DIR` wrote (default egdb)"))
	}
	if e.Pieces < 0 || e.Pieces == 1 || e.Pieces > egdb.MaxPieces {
		v.fail("adjudication.egdb.pieces", fmt.Errorf("%d; want 0 (all the database holds) or 2 to %d", e.Pieces, egdb.MaxPieces))
	}
	r := adjudicate.EGDBResults(e.Results)
	if r == "" {
		r = adjudicate.EGDBAll
	}
	return &adjudicate.EGDB{Results: r}
}
