package configs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match/engines/adjudicate"
	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/reports/stats"
	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
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
	Openings []Opening
	Schedule schedule.Config
	// Swiss holds a Swiss event's settings (nil for the other formats).
	Swiss     *SwissSettings
	Policy    arbiter.Policy
	AutoClaim bool
	MaxMoves  int
	// Adjudicate are the rules that end a game by the engines' scores
	// (zero: off).
	Adjudicate  adjudicate.Rules
	Margin      time.Duration
	SPRT        *stats.SPRTConfig // nil: no SPRT
	Concurrency int
	Out         string
	// Annotations is what the PDN records say of each move: "none",
	// "clock" or "full" (see PDNOptions).
	Annotations string
	// DefaultBook is the variant's shipped book the event took because its
	// configuration names none (Options.DefaultBook), with its group:
	// "3move_english.json group standard"; "" when it took none. The
	// commands say so on their first line.
	DefaultBook string
	// Warnings are what the configuration allows but probably did not
	// mean (the same start position for every game pair); the commands
	// print them before the first game.
	Warnings []string
}

// SwissSettings are a checked Swiss event's settings.
type SwissSettings struct {
	System swiss.System // the pairing system (swiss.system)
	Baku   bool         // the Baku acceleration (swiss.acceleration: baku)
	// TieBreaks are the tie-breaks after the score, in order (the
	// canonical names of reports/tiebreak).
	TieBreaks []string
}

// Protocols.
const (
	Hub  = "hub"
	Hub1 = "hub1" // Hub version 1 (Scan 2.0)
	CB   = "cb"   // a CheckerBoard engine library, run by "self cb-host LIB"
	DXP  = "dxp"
)

// EngineSpec is a checked engine entry.
type EngineSpec struct {
	Name     string
	Command  string   // as written
	Argv     []string // Command split into words, "self" resolved
	Dir      string   // working directory, "" = the arbiter's
	Protocol string   // Hub, Hub1, CB or DXP
	Address  string   // DXP host:port
	Listen   bool     // DXP: the arbiter listens on Address
	Options  []Option // sorted by name
	Env      []string
	// TimeControl is the engine's clock: its own time_control, else the
	// event's.
	TimeControl arbiter.TimeControl
	// InitTimeout bounds the engine's start (0 = the protocol's default).
	InitTimeout time.Duration
	// Version is the declared build ("" = none).
	Version string
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

// resolve is the last stage: it relates a validated event to the world
// outside the config text. It finds the program "self" stands for, joins
// engine directories to the config file's directory dir and checks them,
// loads the openings (relative to dir; "" = only the embedded books),
// checks the schedule they make and computes the configuration hash. Errors
// name the key whose value failed, and where it came from.
func resolve(ev *Event, dir string, opt Options, source func(string) string) (*Event, error) {
	v := &validation{source: source}
	resolveEngines(v, ev.Engines, dir, opt.Self)
	resolveEGDB(v, ev, dir)
	op := ev.Config.Openings
	if op.File == "" && opt.DefaultBook {
		if book, group := DefaultBook(ev.Variant); book != "" {
			op.File = book
			if op.Group == "all" { // the default: the playable ones
				op.Group = group
			}
			ev.Config.Openings.File, ev.Config.Openings.Group = op.File, op.Group
			ev.DefaultBook = op.File
			if op.Group != "" && op.Group != "all" {
				ev.DefaultBook += " group " + op.Group
			}
			// The effective configuration names the book it plays: a
			// cluster's workers resolve it again without Options (they
			// would play the start position), and the report reads it.
			if err := setEffectiveBook(ev, op.File, op.Group); err != nil {
				return nil, err
			}
		}
	}
	if op.File == "" && (ev.Schedule.GamesPerEncounter > 2 || ev.Schedule.Cycles > 1 || ev.Schedule.Rounds > 1) {
		ev.Warnings = append(ev.Warnings, fmt.Sprintf("no opening book (openings.file): every game pair starts from the %s start position, "+
			"so deterministic engines replay the same %d games in every encounter", ev.Variant.Name(), 2))
	}
	if op.File != "" {
		ops, err := LoadOpeningsPlies(op.File, op.Group, dir, ev.Variant, op.Plies)
		if err != nil {
			v.fail("openings.file", err)
		}
		ev.Openings = ops
	} else {
		p := rules.NewPosition(ev.Variant)
		ev.Openings = []Opening{{Name: "", FEN: p.FEN(), Position: p}}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	ev.Schedule.Openings = len(ev.Openings)
	if ev.Schedule.Start >= len(ev.Openings) {
		return nil, &Error{File: source("openings.start"), Key: "openings.start",
			Err: fmt.Errorf("%d, but there are %d openings", ev.Schedule.Start+1, len(ev.Openings))}
	}
	check := func(c schedule.Config) error { _, err := schedule.New(c); return err }
	if ev.Schedule.Kind == schedule.Swiss {
		check = func(c schedule.Config) error { _, err := schedule.NewSwiss(c); return err }
	}
	if err := check(ev.Schedule); err != nil {
		return nil, &Error{File: ev.File, Key: "tournament", Err: err}
	}
	ev.Hash = hashOf(ev.Config, ev.Openings)
	return ev, nil
}

// resolveEngines finds the program "self" stands for (self: "" =
// os.Executable()) and joins engine directories to dir, the config file's,
// checking them.
func resolveEngines(v *validation, engines []EngineSpec, dir, self string) {
	for i := range engines {
		es := &engines[i]
		key := fmt.Sprintf("engines.%d", i)
		if len(es.Argv) > 0 && es.Argv[0] == "self" {
			if self == "" {
				var err error
				if self, err = os.Executable(); err != nil {
					v.fail(key+".command", fmt.Errorf("cannot find this program for \"self\": %w", err))
				}
			}
			// Argv is the event's own slice (validate split it).
			es.Argv[0] = self
		}
		if es.Dir != "" {
			if !filepath.IsAbs(es.Dir) && dir != "" {
				es.Dir = filepath.Join(dir, es.Dir)
			}
			if st, err := os.Stat(es.Dir); err != nil || !st.IsDir() {
				v.fail(key+".dir", fmt.Errorf("%q is not a directory", es.Dir))
			}
		}
	}
}

// resolveEGDB opens adjudication.egdb's database (its directory relative
// to dir) and reads every table of it now, so that a missing or damaged
// table stops the event before its first game, named.
func resolveEGDB(v *validation, ev *Event, dir string) {
	e := ev.Config.Adjudication.EGDB
	if e == nil || ev.Adjudicate.EGDB == nil {
		return
	}
	path := e.Dir
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	db, err := egdb.Open(ev.Variant, path, e.Pieces)
	if err == nil {
		err = db.Load()
	}
	if err != nil {
		if h := egdb.Survey(ev.Variant, path); h.Pieces > 0 && e.Pieces > h.Pieces {
			// The database is there, only smaller than asked: using what it
			// holds is the other way on.
			v.fail("adjudication.egdb.pieces", fmt.Errorf("%w; or set adjudication.egdb.pieces to %d (0: all it holds)", err, h.Pieces))
			return
		}
		v.fail("adjudication.egdb.dir", err)
		return
	}
	ev.Adjudicate.EGDB.DB = db
}

// setEffectiveBook writes openings.file and openings.group into the
// event's effective configuration (YAML).
func setEffectiveBook(ev *Event, file, group string) error {
	var m map[string]any
	if err := yaml.Unmarshal([]byte(ev.Effective), &m); err != nil {
		return &Error{File: ev.File, Key: "openings.file", Err: err}
	}
	if m == nil {
		m = map[string]any{}
	}
	op, _ := m["openings"].(map[string]any)
	if op == nil {
		op = map[string]any{}
	}
	op["file"], op["group"] = file, group
	m["openings"] = op
	b, err := yaml.Marshal(m)
	if err != nil {
		return &Error{File: ev.File, Key: "openings.file", Err: err}
	}
	ev.Effective = string(b)
	return nil
}

// defaultBooks are the shipped books a variant's event takes when it names
// none (Options.DefaultBook), with the ballot group meant for play.
var defaultBooks = map[string][2]string{
	"english":       {"3move_english.json", "standard"},
	"international": {"international-2move.fen", ""},
	"russian":       {"russian.json", "standard"},
	"brazilian":     {"brazilian.json", "standard"},
}

// DefaultBook is the shipped opening book of variant v and its group ("",
// "" for a variant without one, such as a custom rule set).
func DefaultBook(v *rules.Variant) (file, group string) {
	b := defaultBooks[v.Name()]
	return b[0], b[1]
}

// SplitCommand splits a command line into words like a POSIX shell would,
// without expansions: single quotes keep everything, double quotes allow
// \" and \\, a backslash outside quotes escapes a space, a quote or a
// backslash. Before any other character it is kept, so a Windows path
// (C:\Engines\scan.exe) is one word as written, not C:Enginesscan.exe.
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
			if i+1 < len(s) && strings.IndexByte(" \t\n\r'\"\\", s[i+1]) >= 0 {
				i++
			}
			cur.WriteByte(s[i])
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
