package configs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/reports/stats"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Event is a checked configuration, in the types the rest of the program
// uses.
type Event struct {
	Config *Config // as decoded (defaults filled in)
	File   string  // the config file (for messages and the store)
	// Effective is the configuration after defaults and overrides, as YAML;
	// Hash identifies it (see Config: concurrency and out are left out).
	Effective string
	Hash      string

	Name        string
	Site        string
	Variant     *rules.Variant
	TimeControl arbiter.TimeControl // the event's; engines may have their own
	Engines     []EngineSpec
	// Openings is never empty: without an opening file it holds the
	// variant's start position.
	Openings    []Opening
	Schedule    schedule.Config
	Policy      arbiter.Policy
	AutoClaim   bool
	MaxMoves    int
	Margin      time.Duration
	SPRT        *stats.SPRTConfig // nil: no SPRT
	Concurrency int
	Out         string
}

// Protocols.
const (
	Hub = "hub"
	DXP = "dxp"
)

// EngineSpec is a checked engine entry.
type EngineSpec struct {
	Name     string
	Command  string   // as written
	Argv     []string // Command split into words, "self" resolved
	Dir      string   // working directory, "" = the arbiter's
	Protocol string   // Hub or DXP
	Address  string   // DXP host:port
	Listen   bool     // DXP: the arbiter listens on Address
	Options  []Option // sorted by name
	Env      []string
	// TimeControl is the engine's clock: its own time_control, else the
	// event's.
	TimeControl arbiter.TimeControl
	// InitTimeout bounds the engine's start (0 = the protocol's default).
	InitTimeout time.Duration
}

// Option is an engine parameter.
type Option struct{ Name, Value string }

// ArbiterConfig is the referee configuration for a game starting from
// opening with white and black (engine indices).
func (e *Event) ArbiterConfig(white, black int, opening int) arbiter.Config {
	start := e.Openings[opening].Position
	return arbiter.Config{
		Variant:     e.Variant,
		Start:       &start,
		TimeControl: [2]arbiter.TimeControl{e.Engines[white].TimeControl, e.Engines[black].TimeControl},
		Policy:      e.Policy,
		AutoClaim:   e.AutoClaim,
		MaxMoves:    e.MaxMoves,
		Margin:      e.Margin,
	}
}

// resolve checks the decoded config and builds the Event.
func resolve(cfg *Config, file, dir, effective string, source func(string) string, opt Options) (*Event, error) {
	var errs []error
	fail := func(key string, err error) {
		errs = append(errs, &Error{File: source(key), Key: key, Err: err})
	}
	ev := &Event{Config: cfg, File: file, Effective: effective, Name: cfg.Name, Site: cfg.Site,
		AutoClaim: cfg.AutoClaim, Concurrency: cfg.Concurrency, Out: cfg.Out, Margin: time.Duration(cfg.Margin)}

	v, err := cfg.Variant.Build()
	if err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			fail("variant."+fe.key, fe.err)
		} else {
			fail("variant", err)
		}
		// Without a variant nothing else that depends on it can be checked.
		return nil, errors.Join(errs...)
	}
	ev.Variant = v

	if ev.TimeControl, err = arbiter.ParseTimeControl(cfg.TimeControl); err != nil {
		fail("time_control", err)
	}
	self := opt.Self
	names := map[string]int{}
	if len(cfg.Engines) < 2 {
		fail("engines", fmt.Errorf("%d engines configured; an event needs at least 2", len(cfg.Engines)))
	}
	for i, e := range cfg.Engines {
		key := fmt.Sprintf("engines.%d", i)
		es := EngineSpec{Name: strings.TrimSpace(e.Name), Command: e.Command, Address: e.Address, Listen: e.Listen, Env: e.Env,
			Protocol: strings.ToLower(e.Protocol), TimeControl: ev.TimeControl, InitTimeout: time.Duration(e.InitTimeout)}
		if es.InitTimeout < 0 || es.InitTimeout > time.Hour {
			fail(key+".init_timeout", fmt.Errorf("%v; want 0 (the default, 60s) to 1h", es.InitTimeout))
		}
		if es.Name == "" {
			fail(key+".name", errors.New("every engine needs a name"))
		} else if j, dup := names[es.Name]; dup {
			fail(key+".name", fmt.Errorf("%q is already the name of engines.%d", es.Name, j))
		}
		names[es.Name] = i
		if es.Protocol == "" {
			es.Protocol = Hub
		}
		switch es.Protocol {
		case Hub:
			if strings.TrimSpace(e.Command) == "" {
				fail(key+".command", errors.New("a hub engine needs a command"))
			}
		case DXP:
			if e.Address == "" {
				fail(key+".address", errors.New("a dxp engine needs an address (host:port)"))
			}
		default:
			fail(key+".protocol", fmt.Errorf("%q is not hub or dxp", e.Protocol))
		}
		if strings.TrimSpace(e.Command) != "" {
			argv, err := SplitCommand(e.Command)
			if err != nil {
				fail(key+".command", err)
			} else {
				if argv[0] == "self" {
					if self == "" {
						if self, err = os.Executable(); err != nil {
							fail(key+".command", fmt.Errorf("cannot find this program for \"self\": %w", err))
						}
					}
					argv[0] = self
				}
				es.Argv = argv
			}
		}
		if e.Dir != "" {
			es.Dir = e.Dir
			if !filepath.IsAbs(es.Dir) && dir != "" {
				es.Dir = filepath.Join(dir, es.Dir)
			}
			if st, err := os.Stat(es.Dir); err != nil || !st.IsDir() {
				fail(key+".dir", fmt.Errorf("%q is not a directory", es.Dir))
			}
		}
		for k, val := range e.Options {
			es.Options = append(es.Options, Option{Name: k, Value: val})
		}
		sort.Slice(es.Options, func(a, b int) bool { return es.Options[a].Name < es.Options[b].Name })
		if e.TimeControl != "" {
			if es.TimeControl, err = arbiter.ParseTimeControl(e.TimeControl); err != nil {
				fail(key+".time_control", err)
			}
		}
		ev.Engines = append(ev.Engines, es)
	}

	kind := schedule.Kind(strings.ToLower(cfg.Tournament))
	if kind != schedule.RoundRobin && kind != schedule.Gauntlet {
		fail("tournament", fmt.Errorf("%q is not round-robin or gauntlet", cfg.Tournament))
	}
	if cfg.Rounds < 1 || cfg.Rounds > 10000 {
		fail("rounds", fmt.Errorf("%d cycles; want 1 to 10000 (or single / double)", cfg.Rounds))
	}
	if g := cfg.GamesPerEncounter; g < 2 || g%2 != 0 || g > 1_000_000 {
		fail("games_per_encounter", fmt.Errorf("%d; want an even number from 2 (each opening is played twice, colours reversed)", g))
	}
	order := schedule.Order(strings.ToLower(cfg.Openings.Order))
	if order != schedule.Sequential && order != schedule.Random {
		fail("openings.order", fmt.Errorf("%q is not sequential or random", cfg.Openings.Order))
	}
	if cfg.Openings.File != "" {
		ops, err := LoadOpenings(cfg.Openings.File, cfg.Openings.Group, dir, v)
		if err != nil {
			fail("openings.file", err)
		}
		ev.Openings = ops
	} else {
		p := rules.NewPosition(v)
		ev.Openings = []Opening{{Name: "", FEN: p.FEN(), Position: p}}
	}
	if cfg.Concurrency < 1 || cfg.Concurrency > 1024 {
		fail("concurrency", fmt.Errorf("%d; want 1 to 1024 games at once", cfg.Concurrency))
	}
	pol := cfg.IllegalMovePolicy
	if pol == "" {
		// RULES.md section 6: the variant's federation rule.
		pol = string(arbiter.DefaultPolicy(v))
		cfg.IllegalMovePolicy = pol
	}
	if ev.Policy, err = arbiter.ParsePolicy(pol); err != nil {
		fail("illegal_move_policy", err)
	} else if ev.Policy == arbiter.PolicyOpponentDecides {
		// The opponent chooses "correct" or "let stand": a person's choice.
		// An engine cannot make it, and an engine corrected without penalty
		// could repeat its illegal move for ever.
		fail("illegal_move_policy", fmt.Errorf("%q is for games between people; an engine event uses wcdf or strict", pol))
	}
	if cfg.Adjudication.MaxMoves < 0 {
		fail("adjudication.max_moves", fmt.Errorf("%d; want 0 (never) or more", cfg.Adjudication.MaxMoves))
	}
	ev.MaxMoves = cfg.Adjudication.MaxMoves
	if ev.Margin < 0 || ev.Margin > time.Minute {
		fail("margin", fmt.Errorf("%v; want 0 to 1m", ev.Margin))
	}
	if s := cfg.SPRT; s != nil {
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
			fail("sprt.model", fmt.Errorf("%q is not pentanomial or trinomial", s.Model))
		}
		switch m := stats.SPRTModel(strings.ToLower(s.EloModel)); m {
		case "", stats.Normalized, stats.Logistic:
			sc.Model = m
		default:
			fail("sprt.elo_model", fmt.Errorf("%q is not normalized or logistic", s.EloModel))
		}
		if err := sc.Validate(); err != nil {
			fail("sprt", err)
		}
		if len(cfg.Engines) != 2 {
			fail("sprt", fmt.Errorf("an SPRT needs exactly 2 engines, not %d", len(cfg.Engines)))
		}
		ev.SPRT = &sc
	}
	if strings.TrimSpace(cfg.Out) == "" {
		fail("out", errors.New("empty output directory"))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	ev.Schedule = schedule.Config{Kind: kind, Players: len(ev.Engines), Cycles: int(cfg.Rounds),
		GamesPerEncounter: cfg.GamesPerEncounter, Openings: len(ev.Openings), Order: order, Seed: cfg.Openings.Seed}
	if _, err := schedule.New(ev.Schedule); err != nil {
		return nil, &Error{File: file, Key: "tournament", Err: err}
	}
	ev.Hash = hashOf(cfg, ev.Openings)
	return ev, nil
}

// SplitCommand splits a command line into words like a POSIX shell would,
// without expansions: single quotes keep everything, double quotes allow
// \" and \\, a backslash outside quotes escapes the next character.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("command %q: unclosed single quote", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("command %q: unclosed double quote", s)
			}
			inWord = true
		case c == '\\':
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
}
