package online

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Limits on what a caller may send.
const (
	MaxName       = 64      // runes in a player's name
	MaxAnnotation = 2 << 10 // bytes of an annotation or a reason
	MaxRules      = 8 << 10 // bytes of a custom rule set
	MaxFEN        = 512     // bytes of a FEN
	MaxOpening    = 4 << 10 // bytes of an opening's moves
	MaxMoveText   = 256     // bytes of a move
	MaxAddSeconds = 24 * 3600
)

// spec is a checked Setup, in the referee's terms.
type spec struct {
	setup      Setup
	variant    *rules.Variant
	start      rules.Position
	tc         arbiter.TimeControl
	policy     arbiter.Policy
	autoClaim  bool
	engine     string // "" = none
	friendly   bool   // illegal moves are refused, not judged
	engineSide rules.Color
}

func setupErr(field, format string, a ...any) error {
	return &SetupError{Field: field, Err: fmt.Errorf(format, a...)}
}

// check validates s against the operator's engines.
func check(s Setup, engines map[string]EngineSpec) (*spec, error) {
	sp := &spec{setup: s}
	var err error
	switch {
	case s.Variant != "" && s.Rules != "":
		return nil, setupErr("rules", "give a preset variant or custom rules, not both")
	case s.Rules != "":
		if sp.variant, err = customRules(s.Rules); err != nil {
			return nil, &SetupError{Field: "rules", Err: err}
		}
	default:
		name := s.Variant
		if name == "" {
			name = "english"
		}
		if len(name) > 64 {
			return nil, setupErr("variant", "too long")
		}
		if sp.variant, err = rules.Lookup(name); err != nil {
			return nil, setupErr("variant", "unknown variant %q (want one of %s)", name, strings.Join(rules.Presets(), ", "))
		}
	}
	switch s.Draws {
	case "":
	case "claim":
		if sp.variant.Draws().ThreefoldAutomatic {
			p := sp.variant.Params()
			p.Draws.ThreefoldAutomatic = false
			p.GameType = 0 // not the federation's rules any more
			p.Name += "-claim"
			if sp.variant, err = rules.NewVariant(p); err != nil {
				return nil, setupErr("draws", "%v", err)
			}
		}
	case "auto":
		// The referee claims every draw as soon as it is valid: automatic
		// draws without changing the rules' claim semantics.
		sp.autoClaim = !sp.variant.Draws().ThreefoldAutomatic
	default:
		return nil, setupErr("draws", "%q: want claim or auto", s.Draws)
	}
	if len(s.TimeControl) > 256 {
		return nil, setupErr("time_control", "too long")
	}
	if s.Clock != "" {
		if strings.TrimSpace(s.TimeControl) != "" {
			return nil, setupErr("clock", "give the clock as players write it (clock) or in PDN seconds (time_control), not both")
		}
		r, err := ReadClock(s.Clock)
		if err != nil {
			return nil, &SetupError{Field: "clock", Err: err}
		}
		sp.tc = r.TimeControl()
	} else if strings.TrimSpace(s.TimeControl) != "" && s.TimeControl != "-" {
		if sp.tc, err = arbiter.ParseTimeControl(s.TimeControl); err != nil {
			return nil, &SetupError{Field: "time_control", Err: err}
		}
		if sp.tc.Depth > 0 || sp.tc.Nodes > 0 {
			return nil, setupErr("time_control", "depth and nodes limit engines' searches; a game between people needs a clock")
		}
	}
	switch s.Mode {
	case "", "tournament":
	case "friendly":
		if s.Policy != "" {
			return nil, setupErr("policy", "a friendly game refuses illegal moves without a penalty; a policy is for tournament rules")
		}
		sp.friendly = true
	default:
		return nil, setupErr("mode", "%q: want tournament or friendly", clip(s.Mode, 32))
	}
	switch s.Policy {
	case "":
		sp.policy = DefaultPolicy(sp.variant)
	default:
		if sp.policy, err = arbiter.ParsePolicy(s.Policy); err != nil {
			return nil, setupErr("policy", "%q: want wcdf, opponent-decides or strict", s.Policy)
		}
	}
	sp.start = rules.NewPosition(sp.variant)
	if s.FEN != "" {
		if len(s.FEN) > MaxFEN {
			return nil, setupErr("fen", "longer than %d bytes", MaxFEN)
		}
		if sp.start, err = rules.ParseFEN(sp.variant, s.FEN); err != nil {
			return nil, &SetupError{Field: "fen", Err: err}
		}
	}
	if s.Opening != "" {
		if len(s.Opening) > MaxOpening {
			return nil, setupErr("opening", "longer than %d bytes", MaxOpening)
		}
		if sp.start, err = opening(s.Opening, sp.variant, sp.start, s.FEN != ""); err != nil {
			return nil, &SetupError{Field: "opening", Err: err}
		}
	}
	if !sp.start.HasMoves() {
		field := "fen"
		if s.Opening != "" {
			field = "opening"
		}
		return nil, setupErr(field, "%s to move has no legal move: the game would be over before it starts", sp.start.Turn().Name())
	}
	switch {
	case s.Engine == "" && s.EngineSide != "":
		return nil, setupErr("engine_side", "no engine is chosen")
	case s.Engine != "":
		if _, ok := engines[s.Engine]; !ok {
			return nil, setupErr("engine", "%q is not one of this server's engines (%s)", clip(s.Engine, 64), strings.Join(engineNames(engines), ", "))
		}
		sp.engine = s.Engine
		switch s.EngineSide {
		case "white":
			sp.engineSide = rules.White
		case "black":
			sp.engineSide = rules.Black
		default:
			return nil, setupErr("engine_side", "%q: want white or black", clip(s.EngineSide, 64))
		}
	}
	for _, f := range []struct{ field, name string }{{"white", s.White}, {"black", s.Black}} {
		if err := checkName(f.name); err != nil {
			return nil, &SetupError{Field: f.field, Err: err}
		}
	}
	return sp, nil
}

// customRules reads a rule set in the configs' variant syntax: the map
// under `variant:` (the key itself may be given or left out).
func customRules(text string) (*rules.Variant, error) {
	if len(text) > MaxRules {
		return nil, fmt.Errorf("longer than %d bytes", MaxRules)
	}
	return configs.ReadVariant(text)
}

// opening applies a ballot ("3move:17": the 17th opening of the shipped
// book 3move for the variant) or PDN moves ("1. 11-15 23-19 2. 8-11") to start.
func opening(text string, v *rules.Variant, start rules.Position, haveFEN bool) (rules.Position, error) {
	text = strings.TrimSpace(text)
	if book, num, ok := strings.Cut(text, ":"); ok && !strings.ContainsAny(book, " .") && book != "" {
		if haveFEN {
			return start, errors.New("a ballot opening has its own start position: leave the FEN empty")
		}
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if err != nil || n < 1 {
			return start, fmt.Errorf("%q: want book:number, e.g. 3move:17", clip(text, 64))
		}
		file, err := bookFile(book, v)
		if err != nil {
			return start, err
		}
		ops, err := configs.LoadOpenings(file, "", "", v)
		if err != nil {
			return start, err
		}
		if n > len(ops) {
			return start, fmt.Errorf("book %s has %d openings, not %d", book, len(ops), n)
		}
		return ops[n-1].Position, nil
	}
	p := start
	for _, tok := range strings.Fields(text) {
		if strings.HasSuffix(tok, ".") || tok == "*" {
			continue // a move number
		}
		if i := strings.LastIndexByte(tok, '.'); i >= 0 {
			tok = tok[i+1:] // "1.11-15"
		}
		m, err := p.ParseMove(tok)
		if err != nil {
			return start, fmt.Errorf("move %q: %w", clip(tok, 32), err)
		}
		p = p.Play(m)
	}
	return p, nil
}

// bookFile finds a shipped book by its short name for v: "3move" is
// openings/3move_english.json for english.
func bookFile(book string, v *rules.Variant) (string, error) {
	if strings.ContainsAny(book, "/\\") || len(book) > 64 {
		return "", fmt.Errorf("book %q: a name from the shipped books", clip(book, 64))
	}
	for _, c := range []string{book + "_" + v.Name() + ".json", book + ".json", v.Name() + "-" + book + ".fen", book + ".fen", book + ".pdn"} {
		if _, err := fs.Stat(configs.FS, "openings/"+c); err == nil {
			return "openings/" + c, nil
		}
	}
	return "", fmt.Errorf("no book %q for %s (see configs/openings)", book, v.Name())
}

func checkName(s string) error {
	if !utf8.ValidString(s) {
		return errors.New("not UTF-8")
	}
	if n := utf8.RuneCountInString(s); n > MaxName {
		return fmt.Errorf("%d characters; at most %d", n, MaxName)
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return errors.New("holds a control character")
		}
	}
	return nil
}

func checkText(field, s string) *Refusal {
	if len(s) > MaxAnnotation {
		return badInput(field, fmt.Sprintf("longer than %d bytes", MaxAnnotation))
	}
	if !utf8.ValidString(s) {
		return badInput(field, "not UTF-8")
	}
	return nil
}

func engineNames(m map[string]EngineSpec) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return []string{"none configured"}
	}
	return names
}

// clip shortens what a caller sent before it goes into a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// config is the referee configuration of the game.
func (sp *spec) config(clock arbiter.Clock) arbiter.Config {
	start := sp.start
	return arbiter.Config{Variant: sp.variant, Start: &start, TimeControl: [2]arbiter.TimeControl{sp.tc, sp.tc},
		Policy: sp.policy, AutoClaim: sp.autoClaim, Margin: margin, Clock: clock}
}

// margin absorbs the server's own latency between a request's arrival and
// the referee's reading of the clock; a person's flag falls on time.
const margin = 50 * time.Millisecond

// DefaultPolicy is the illegal-move policy of a game between people under
// tournament rules when its creator leaves it to the variant: WCDF warns
// first; elsewhere the opponent decides (FMJD, KNDB).
func DefaultPolicy(v *rules.Variant) arbiter.Policy {
	if v.IllegalMoves() == rules.IllegalWarnsFirst {
		return arbiter.PolicyWCDF
	}
	return arbiter.PolicyOpponentDecides
}
