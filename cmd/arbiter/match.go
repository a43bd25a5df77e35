package main

import (
	"fmt"
	"github.com/draughts-arbiter/arbiter/configs"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/dxp"
	"github.com/draughts-arbiter/arbiter/match/hub"
	"github.com/draughts-arbiter/arbiter/rules"
)

func init() { subcommands = append(subcommands, newMatchCmd) }

// engineSpec is one --engine value.
type engineSpec struct {
	Name    string
	Command []string
	Dir     string
	Proto   string // hub or dxp
	Addr    string
	Listen  bool
	Options []hub.Param
	Init    time.Duration // start-up timeout, 0 = the protocol's default
}

// parseEngineSpec reads "name=A dir=D proto=hub|dxp addr=H:P listen=true
// init=90s option.X=Y cmd=PROGRAM ARGS...". Values may be quoted with ' or ". cmd=
// takes the rest of the text, split into words like a shell does (quotes,
// backslash escapes; no variables or globs), so it comes last. A command
// whose first word is "self" runs this arbiter binary.
func parseEngineSpec(s string) (engineSpec, error) {
	spec := engineSpec{Proto: "hub"}
	rest := strings.TrimSpace(s)
	for rest != "" {
		key, after, ok := strings.Cut(rest, "=")
		if !ok || key == "" || strings.ContainsAny(key, " \t") {
			return spec, fmt.Errorf("engine spec %q: want key=value pairs, found %q", s, firstWord(rest))
		}
		if key == "cmd" {
			// Split as the command of a config file is: one rule for both.
			words, err := configs.SplitCommand(after)
			if err != nil {
				return spec, fmt.Errorf("engine spec %q: cmd: %w", s, err)
			}
			spec.Command = words
			break
		}
		val, tail, err := readValue(after)
		if err != nil {
			return spec, fmt.Errorf("engine spec %q: %s: %w", s, key, err)
		}
		rest = strings.TrimSpace(tail)
		switch {
		case key == "name":
			spec.Name = val
		case key == "dir":
			spec.Dir = val
		case key == "proto":
			if val != "hub" && val != "hub1" && val != "cb" && val != "dxp" {
				return spec, fmt.Errorf("engine spec %q: proto %q (want hub, hub1, cb or dxp)", s, val)
			}
			spec.Proto = val
		case key == "addr":
			spec.Addr = val
		case key == "listen":
			spec.Listen = val == "true" || val == "yes" || val == "1"
		case key == "init":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				return spec, fmt.Errorf("engine spec %q: init %q: want a duration such as 90s", s, val)
			}
			spec.Init = d
		case strings.HasPrefix(key, "option.") && len(key) > len("option."):
			spec.Options = append(spec.Options, hub.Param{Name: key[len("option."):], Value: val})
		default:
			return spec, fmt.Errorf("engine spec %q: unknown key %q (want name, cmd, dir, proto, addr, listen, init, option.X)", s, key)
		}
	}
	if len(spec.Command) == 0 && !(spec.Proto == "dxp" && spec.Addr != "") {
		return spec, fmt.Errorf("engine spec %q: no cmd= (only a DXP engine with addr= can do without)", s)
	}
	if spec.Proto == "dxp" && spec.Addr == "" {
		return spec, fmt.Errorf("engine spec %q: a DXP engine needs addr=HOST:PORT", s)
	}
	if spec.Proto == "cb" && len(spec.Command) > 0 {
		// cmd= names the library; this arbiter hosts it (cb-host).
		spec.Command = append([]string{"self", "cb-host"}, spec.Command...)
	}
	if len(spec.Command) > 0 && spec.Command[0] == "self" {
		exe, err := os.Executable()
		if err != nil {
			return spec, fmt.Errorf("engine spec %q: self: %w", s, err)
		}
		spec.Command[0] = exe
	}
	if spec.Name == "" {
		if spec.Proto == "cb" && len(spec.Command) > 2 {
			spec.Name = filepath.Base(spec.Command[2])
		} else if len(spec.Command) > 0 {
			spec.Name = filepath.Base(spec.Command[0])
		} else {
			spec.Name = spec.Addr
		}
	}
	return spec, nil
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

// readValue reads one (possibly quoted) value and returns the text after it.
func readValue(s string) (val, rest string, err error) {
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", "", fmt.Errorf("unterminated %c quote", s[0])
		}
		return s[1 : 1+end], s[2+end:], nil
	}
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], s[i:], nil
	}
	return s, "", nil
}

// logFileName makes an engine name safe as a file name.
func logFileName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' || r < 0x20 || r == ':' {
			return '_'
		}
		return r
	}, name) + ".log"
}

// newPlayer builds the player of a spec, logging to w.
func newPlayer(spec engineSpec, w io.Writer) match.Player {
	// Millisecond timestamps without touching zerolog's global time format.
	stamp := zerolog.HookFunc(func(e *zerolog.Event, _ zerolog.Level, _ string) {
		e.Str("t", time.Now().Format("2006-01-02T15:04:05.000Z07:00"))
	})
	log := zerolog.New(w).Hook(stamp).With().Str("engine", spec.Name).Logger()
	if spec.Proto == "dxp" {
		return dxp.New(dxp.Options{Name: spec.Name, Addr: spec.Addr, Listen: spec.Listen, Command: spec.Command, Dir: spec.Dir, Log: log, ConnectTimeout: spec.Init})
	}
	version := 2
	if spec.Proto == "hub1" {
		version = 1
	}
	return hub.New(hub.Options{Name: spec.Name, Command: spec.Command, Dir: spec.Dir, Params: spec.Options, Log: log, InitTimeout: spec.Init, Version: version})
}

func newMatchCmd() *cobra.Command {
	var (
		variant, tcText, openings, group, policy, pdnFile, logDir string
		engines                                                   []string
		games, maxMoves                                           int
		margin                                                    time.Duration
		autoClaim                                                 bool
	)
	cmd := &cobra.Command{
		Use:   "match --variant V --engine SPEC --engine SPEC [--tc TC] [--games N] [--openings FILE] [--policy wcdf|strict] [--pdn FILE]",
		Short: "Play a refereed match between two engines (Hub or DXP)",
		Long: `match plays games between two engines under the referee, in colour-reversed
pairs: game 1 A has white, game 2 B has white, and so on. With --openings each
opening is played once with each colour (--games defaults to two per opening).
It prints a line per game and the final score; --pdn writes every game as PDN
(tags Event, Site, Date, Round, White, Black, Result, GameType, FEN, TimeControl,
Termination, PlyCount), which "arbiter check" accepts.

An engine SPEC is key=value pairs:
  name=A            name in results and PDN
  proto=hub|dxp     protocol (default hub)
  dir=PATH          working directory of the engine
  option.X=Y        Hub: set-param name=X value=Y before init
  init=DURATION     how long the engine may take to start (Hub handshake up to
                    "ready", DXP connection and GAMEACC; default 60s)
  addr=HOST:PORT    DXP: where the engine listens (the arbiter connects), or,
  listen=true       with listen=true, where the arbiter listens for the engine;
                    "{addr}" in cmd= is replaced by that address (port 0 = any)
  cmd=PROGRAM ARGS  the command; it takes the REST of the spec, so write it last.
                    Its words are split like a shell does: quote with '...' or
                    "..." (inside the outer quotes of your shell, e.g.
                    --engine "name=A cmd=./scan hub" or
                    --engine 'name=B cmd=/opt/my\ engine/run --opt "a b"').
                    A first word "self" runs this arbiter binary, e.g.
                    --engine 'name=R cmd=self engine --level random'.
Values of the other keys may be quoted with ' or ".

--tc takes the PDN TimeControl syntax plus extras (see the arbiter package):
"300+2", "40/7200:3600+60", "move=1", "depth=8". The referee keeps the clocks;
--margin absorbs scheduling noise: one allowance per engine and game for the
sum of its moves' time past their limits (a flag falls when it runs out).

Openings (--openings FILE, or a built-in book such as 3move_english.json): a FEN per
line ("FEN ; name"), a PDN file (the position after each game's moves),
or a ballot JSON mapping names to FENs (groups such as "all"/"standard" are chosen
with --opening-group; default "all").

Each engine's protocol exchange and stderr go to LOGDIR/NAME.log (zerolog JSON).
Exit status: 0 when the match was played, 2 for a usage error, 3 when it could
not be played (an engine that cannot be run, or that failed to start its first
two games, e.g. a crash at init, nobody at its DXP address or no GAMEACC: the match
stops there), I/O, or when SIGINT, SIGTERM or SIGHUP stopped it: the game in
progress is dropped and the score of the finished games is printed, marked partial.`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{annotContext: "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := rules.Lookup(variant)
			if err != nil {
				return usagef("match: --variant: %v", err)
			}
			if len(engines) != 2 {
				return usagef("match: give exactly two --engine specs (got %d)", len(engines))
			}
			var specs [2]engineSpec
			for i, e := range engines {
				if specs[i], err = parseEngineSpec(e); err != nil {
					return usagef("match: --engine: %v", err)
				}
			}
			if specs[0].Name == specs[1].Name {
				specs[1].Name += " (2)"
			}
			tc, err := arbiter.ParseTimeControl(tcText)
			if err != nil {
				return usagef("match: --tc: %v", err)
			}
			pol, err := arbiter.ParsePolicy(policy)
			if err != nil {
				return usagef("match: --policy: %v", err)
			}
			if pol == arbiter.PolicyOpponentDecides {
				return usagef("match: --policy: %q is for games between people; engines play under wcdf or strict", policy)
			}
			var ops []configs.Opening
			if openings != "" {
				if ops, err = configs.LoadOpenings(openings, group, ".", v); err != nil {
					return usagef("match: --openings: %v", err)
				}
				if !cmd.Flags().Changed("games") {
					games = 2 * len(ops)
				}
			}
			if games < 1 {
				return usagef("match: --games must be at least 1")
			}
			base := arbiter.Config{Variant: v, TimeControl: [2]arbiter.TimeControl{tc, tc}, Policy: pol,
				AutoClaim: autoClaim, MaxMoves: maxMoves, Margin: margin}
			// The referee checks the flags' values (a negative --margin or
			// --max-moves) before any engine starts: a usage error, not a
			// failure of game 1.
			if _, err := arbiter.NewReferee(base); err != nil {
				return usagef("match: %v", err)
			}
			if err := os.MkdirAll(logDir, 0o755); err != nil {
				return fmt.Errorf("match: log directory: %w", err)
			}
			var players [2]match.Player
			for i, s := range specs {
				f, err := os.OpenFile(filepath.Join(logDir, logFileName(s.Name)), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
				if err != nil {
					return fmt.Errorf("match: engine log: %w", err)
				}
				defer f.Close()
				players[i] = newPlayer(s, f)
			}
			defer func() {
				for _, p := range players {
					p.Close()
				}
			}()
			var pdnOut *os.File
			if pdnFile != "" {
				if pdnOut, err = os.Create(pdnFile); err != nil {
					return fmt.Errorf("match: --pdn: %w", err)
				}
				defer pdnOut.Close()
			}
			for _, s := range specs {
				if s.Proto == "dxp" {
					if note := dxp.TimeNote(tc); note != "" {
						fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s (DXP, --tc %s): %s\n", s.Name, tc, note)
					}
				}
			}
			ctx := cmd.Context() // cancelled by SIGINT, SIGTERM or SIGHUP (see runWith)
			out := cmd.OutOrStdout()
			// An engine that never gets going (a crash at init, nobody at its
			// DXP address) ends the match after two tries, with exit status
			// 3, not a string of losses.
			starts := match.NewStarts([]string{specs[0].Name, specs[1].Name})
			mlog := zerolog.New(io.Discard)
			var score [2]float64
			var wins, draws, losses int // from A's point of view
			played := 0
			for i := 0; i < games; i++ {
				if starts.Hopeless(0, 2) || starts.Hopeless(1, 2) {
					break // the rest would only repeat the failure
				}
				a := i % 2 // A plays white in even games
				cfg := base
				opening := ""
				if len(ops) > 0 {
					op := ops[(i/2)%len(ops)]
					start := op.Position
					cfg.Start, opening = &start, op.Name
				}
				watch := [2]*match.Watch{{Player: players[0]}, {Player: players[1]}}
				rec, err := match.PlayGame(ctx, cfg, watch[a], watch[1-a], mlog)
				if err != nil && ctx.Err() != nil {
					fmt.Fprintf(out, "score (partial, interrupted in game %d): %s %g - %s %g (games %d: +%d =%d -%d)\n",
						i+1, specs[0].Name, score[0], specs[1].Name, score[1], played, wins, draws, losses)
					by := interruption(ctx)
					if by == "" {
						by = "cancellation"
					}
					return fmt.Errorf("match interrupted by %s in game %d of %d; %d games finished (game %d dropped)", by, i+1, games, played, i+1)
				}
				if err != nil {
					return fmt.Errorf("match: game %d: %w", i+1, err)
				}
				starts.Note(0, watch[0])
				starts.Note(1, watch[1])
				rec.Game.SetTag("Event", "arbiter match")
				rec.Game.SetTag("Site", "arbiter")
				rec.Game.SetTag("Round", fmt.Sprint(i+1))
				if opening != "" {
					rec.Game.SetTag("Opening", opening)
				}
				res := rec.Result
				colA := rules.White
				if a == 1 {
					colA = rules.Black
				}
				score[0] += res.Outcome.Points(colA)
				score[1] += res.Outcome.Points(colA.Opponent())
				switch res.Outcome {
				case rules.WinFor(colA):
					wins++
				case rules.Draw:
					draws++
				case rules.WinFor(colA.Opponent()):
					losses++
				}
				played++
				fmt.Fprintf(out, "game %d: %s - %s %s (%s: %s) plies=%d\n", i+1, rec.White, rec.Black,
					res.PDN(v), res.Termination, res.Reason, len(rec.Moves))
				if pdnOut != nil {
					text, err := rec.PDN()
					if err != nil {
						return err
					}
					if _, err := io.WriteString(pdnOut, text); err != nil {
						return fmt.Errorf("match: --pdn: %w", err)
					}
				}
			}
			fmt.Fprintf(out, "score: %s %g - %s %g (games %d: +%d =%d -%d)\n", specs[0].Name, score[0], specs[1].Name, score[1], played, wins, draws, losses)
			return neverStarted("match: stopped; no game got going with: ", starts.Never())
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", "english", "rules of the match ("+strings.Join(rules.Presets(), ", ")+")")
	f.StringArrayVar(&engines, "engine", nil, "engine `SPEC` (twice): 'name=A cmd=PROGRAM ARGS' (see above)")
	f.StringVar(&tcText, "tc", "60+1", "time control, e.g. 300+2, 40/7200:3600+60, move=1, depth=8")
	f.IntVar(&games, "games", 2, "number of games (played in colour-reversed pairs)")
	f.StringVar(&openings, "openings", "", "start positions: FEN lines, PDN, or ballot JSON")
	f.StringVar(&group, "opening-group", "", "group of a ballot JSON (default all)")
	f.StringVar(&policy, "policy", "wcdf", "illegal-move policy: wcdf or strict")
	f.StringVar(&pdnFile, "pdn", "", "write the games to this PDN file")
	f.StringVar(&logDir, "log-dir", filepath.Join("out", "logs"), "directory of the per-engine protocol logs")
	f.IntVar(&maxMoves, "max-moves", 250, "adjudicate a draw after this many moves each (0 = never)")
	f.DurationVar(&margin, "margin", 100*time.Millisecond, "scheduling noise forgiven per engine and game: the sum of the moves' time past their limits")
	f.BoolVar(&autoClaim, "auto-claim", true, "claim draws on the engines' behalf as soon as valid")
	return cmd
}
