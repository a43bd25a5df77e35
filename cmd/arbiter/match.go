package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/configs"
)

func init() { subcommands = append(subcommands, newMatchCmd) }

// specKeys maps the keys of an --engine SPEC to the keys of a config file's
// engine entry: the spec's own short names (configs.EngineShortKeys; README
// documents them) and the config's names alike. cmd= is read apart: it
// takes the rest of the text.
var specKeys = func() map[string]string {
	m := map[string]string{"name": "name", "dir": "dir", "listen": "listen"}
	for short, long := range configs.EngineShortKeys {
		m[short], m[long] = long, long
	}
	delete(m, "cmd")
	delete(m, "command")
	return m
}()

// parseEngineSpec reads "name=A dir=D proto=hub|hub1|cb|dxp addr=H:P listen=true
// init=90s option.X=Y cmd=PROGRAM ARGS..." into the engine entry a config
// file would hold (keys as in configs.Engine). Values may be quoted with '
// or ". cmd= takes the rest of the text as written (the config splits it
// like a shell and resolves "self"), so it comes last. The values are
// checked by configs, as a config file's are; this reads only the grammar.
//
// A spec without cmd= whose first word is not a key=value pair is all
// command: "--engine ./scan hub" is "--engine 'cmd=./scan hub'", which is
// what a newcomer types first ("name A cmd=x" stays a mistake).
func parseEngineSpec(s string) (map[string]any, error) {
	e := map[string]any{}
	rest := strings.TrimSpace(s)
	if rest != "" && !strings.Contains(firstWord(rest), "=") && !hasCmdKey(rest) {
		rest = "cmd=" + rest
	}
	for rest != "" {
		key, after, ok := strings.Cut(rest, "=")
		if !ok || key == "" || strings.ContainsAny(key, " \t") {
			return nil, fmt.Errorf("engine spec %q: want key=value pairs with cmd=PROGRAM ARGS last (or the command alone), found %q", s, firstWord(rest))
		}
		if key == "cmd" || key == "command" {
			if strings.TrimSpace(after) == "" {
				return nil, fmt.Errorf("engine spec %q: empty cmd=", s)
			}
			// Checked here too, for a message that quotes the spec.
			if _, err := configs.SplitCommand(after); err != nil {
				return nil, fmt.Errorf("engine spec %q: cmd: %w", s, err)
			}
			e["command"] = strings.TrimSpace(after)
			break
		}
		val, tail, err := readValue(after)
		if err != nil {
			return nil, fmt.Errorf("engine spec %q: %s: %w", s, key, err)
		}
		rest = strings.TrimSpace(tail)
		if name, ok := strings.CutPrefix(key, "option."); ok && name != "" {
			opts, _ := e["options"].(map[string]any)
			if opts == nil {
				opts = map[string]any{}
				e["options"] = opts
			}
			opts[name] = val
			continue
		}
		ck, ok := specKeys[key]
		if !ok {
			return nil, fmt.Errorf("engine spec %q: unknown key %q (want name, cmd, dir, proto, addr, listen, init, tc, option.X)", s, key)
		}
		switch ck {
		case "listen":
			e[ck] = val == "true" || val == "yes" || val == "1"
		case "protocol":
			e[ck] = strings.ToLower(val)
		default:
			e[ck] = val
		}
	}
	if _, ok := e["command"]; !ok && !(e["protocol"] == "dxp" && e["address"] != nil) {
		return nil, fmt.Errorf("engine spec %q: no cmd= (only a DXP engine with addr= can do without)", s)
	}
	if e["name"] == nil {
		if c, ok := e["command"].(string); ok {
			words, _ := configs.SplitCommand(c)
			name := filepath.Base(words[0])
			if name == "self" && len(words) > 1 {
				name = strings.Join(words[1:], " ")
			}
			e["name"] = name
		} else {
			e["name"] = e["address"]
		}
	}
	return e, nil
}

// hasCmdKey reports whether a word of s starts with cmd= or command=.
func hasCmdKey(s string) bool {
	for _, w := range strings.Fields(s) {
		if strings.HasPrefix(w, "cmd=") || strings.HasPrefix(w, "command=") {
			return true
		}
	}
	return false
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

// matchEvent is the event of `arbiter match`: the document a two-engine
// YAML file would hold, the engines from the --engine specs, the defaults
// of every config, and the flags laid on top as `tournament` lays them.
// Without an opening book it takes the variant's default book (see
// configs.DefaultBook), as the engines would otherwise replay one game.
func matchEvent(specs []string, over []configs.Override, now time.Time) (*configs.Event, error) {
	if len(specs) != 2 {
		return nil, usagef("match: give exactly two --engine specs (got %d)", len(specs))
	}
	var engines []any
	for _, s := range specs {
		e, err := parseEngineSpec(s)
		if err != nil {
			return nil, usagef("match: --engine: %v", err)
		}
		engines = append(engines, e)
	}
	a, b := engines[0].(map[string]any), engines[1].(map[string]any)
	if a["name"] == b["name"] {
		b["name"] = fmt.Sprint(b["name"]) + " (2)"
	}
	// The event's name is part of its configuration hash: the same two
	// engines give the same event, which a second run resumes.
	doc, err := yaml.Marshal(map[string]any{"name": fmt.Sprintf("%v vs %v", a["name"], b["name"])})
	if err != nil {
		return nil, err
	}
	base := []configs.Override{
		{Key: "engines", Value: engines, Source: "--engine"},
		{Key: "out", Value: freshDir(filepath.Join("out", "match-"+now.Format("20060102-150405"))), Source: "match (default --out)"},
	}
	ev, err := configs.Parse(doc, "match", ".", configs.Options{Overrides: append(base, over...), DefaultBook: true})
	if err != nil {
		return nil, usageError{err}
	}
	if w := noClockWarning(ev); w != "" {
		// First among the warnings: it is the first line of the run.
		ev.Warnings = append([]string{w}, ev.Warnings...)
	}
	return ev, nil
}

// noClockWarning says that an engine of the event plays without a clock
// ("" when both have one). The event's default time control is none: a
// match without --time-control gives the engines no clock, and an engine
// told "level infinite" that thinks until it is stopped never moves.
func noClockWarning(ev *configs.Event) string {
	var untimed []string
	for _, e := range ev.Engines {
		if !e.TimeControl.Timed() {
			untimed = append(untimed, e.Name)
		}
	}
	if len(untimed) == 0 {
		return ""
	}
	who := "the engines play"
	if len(untimed) < len(ev.Engines) {
		who = untimed[0] + " plays"
	}
	limit := `each move is asked with Hub "level infinite": an engine that thinks until it is stopped never moves`
	if tc := ev.Engines[0].TimeControl; tc.Depth > 0 || tc.Nodes > 0 {
		limit = "each move is limited by " + tc.String() + " alone"
	}
	return fmt.Sprintf("no time control (the default): %s without a clock, and %s; "+
		"give one with --time-control, e.g. 60+0.5 (60 s each, 0.5 s added per move) or move=1 (1 s a move)", who, limit)
}

// tcLabel is a time control as the run's first line shows it: "none (no
// clock)" rather than "-".
func tcLabel(tc arbiter.TimeControl) string {
	if s := tc.String(); s != "" && s != "-" {
		return s
	}
	return "none (no clock)"
}

// timeControlUsage is the --help line of --time-control for match, which
// states the default.
const timeControlUsage = "the time control, in seconds (default: none, no clock: engines are asked with \"level infinite\"): " +
	"60+0.5 = 60 s each and 0.5 s added per move, 40/120+30 = 40 moves in 120 s then 30 s, move=1 = 1 s a move, depth=8"

func newMatchCmd() *cobra.Command {
	var (
		tf          tournamentFlags
		engines     []string
		pdnFile     string
		logDir      string
		aliasTC     string
		aliasGames  int
		aliasOpen   string
		aliasGroup  string
		aliasPolicy string
		aliasMax    int
	)
	cmd := &cobra.Command{
		Use:   "match --engine SPEC --engine SPEC [--variant V] [--time-control TC] [--games-per-encounter N] [--key value ...]",
		Short: "Play a refereed match between two engines (Hub or DXP)",
		Long: `match plays a two-engine event, the one a config with these two engines would describe,
run as "tournament" runs it (same keys and flags). Games come in colour-reversed pairs, one
opening per pair; it prints a line per game, the standings and the summary (Score of A vs
B, Elo, LOS, DrawRatio, Ptnml(0-2)) and writes a report to --out (default
out/match-DATE-TIME); the same command with that --out resumes it.
Without --time-control there is no clock: give one in seconds, 60+0.5, 40/120+30, move=1.
An engine SPEC is key=value pairs with cmd= last: name=A proto=hub|hub1|cb|dxp option.X=Y
init=60s tc=TC dir=PATH addr=HOST:PORT listen=true cmd=PROGRAM ARGS ("self": this binary),
or the command alone ('./scan hub' is 'cmd=./scan hub', named scan).
Exit status: 0 done, 2 bad flags or configuration, 3 runtime failure or interrupted.

Guide: docs/engine-testing.md (engine specs and protocols: docs/engines.md)`,
		Example: `  arbiter match --engine 'name=club cmd=self engine --level 3' --engine 'name=casual cmd=self engine --level greedy' --variant english --time-control 10+0.1
  arbiter match --engine 'name=new cmd=./scan hub' --engine 'name=old proto=hub1 cmd=./scan-2.0' --variant international --time-control 60+0.5 --sprt-elo1 5 --out out/new-vs-old`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{annotContext: "yes", annotDrain: "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			fs := cmd.Flags()
			// The old names of match's flags, kept for scripts: each is
			// the config key's flag under another name.
			for _, a := range []struct {
				flag, key string
				val       any
			}{
				{"tc", "time_control", aliasTC}, {"games", "games_per_encounter", aliasGames},
				{"openings", "openings.file", aliasOpen}, {"opening-group", "openings.group", aliasGroup},
				{"policy", "illegal_move_policy", aliasPolicy}, {"max-moves", "adjudication.max_moves", aliasMax},
			} {
				if fs.Changed(a.flag) {
					tf.aliases = append(tf.aliases, configs.Override{Key: a.key, Value: a.val, Source: "--" + a.flag})
				}
			}
			over, err := tf.overrides(fs)
			if err != nil {
				return usagef("match: %v", err)
			}
			ev, err := matchEvent(engines, over, time.Now())
			if err != nil {
				return err
			}
			if logDir != "" {
				tf.engineLogPath = filepath.Join(logDir, "engines.log")
			}
			tf.pdnCopy = pdnFile
			tf.command = "match"
			return runTournament(cmd, ev, tf)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&engines, "engine", nil, "engine `SPEC` (twice): 'name=A cmd=PROGRAM ARGS' (see above)")
	tf.register(f)
	if fl := f.Lookup("time-control"); fl != nil {
		fl.Usage = timeControlUsage
	}
	f.StringVar(&pdnFile, "pdn", "", "also write the games to this PDN file (games.pdn in the output directory has them too)")
	f.StringVar(&logDir, "log-dir", "", "write the engines' protocol log to DIR/engines.log (as --engine-log does in the output directory)")
	f.StringVar(&aliasTC, "tc", "", "")
	f.IntVar(&aliasGames, "games", 0, "")
	f.StringVar(&aliasOpen, "openings", "", "")
	f.StringVar(&aliasGroup, "opening-group", "", "")
	f.StringVar(&aliasPolicy, "policy", "", "")
	f.IntVar(&aliasMax, "max-moves", 0, "")
	for old, now := range map[string]string{"tc": "time-control", "games": "games-per-encounter", "openings": "openings-file",
		"opening-group": "openings-group", "policy": "illegal-move-policy", "max-moves": "adjudication-max-moves"} {
		_ = f.MarkHidden(old)
		_ = f.MarkDeprecated(old, "use --"+now)
	}
	return cmd
}

// freshDir is dir, or dir-2, dir-3, ... if it exists: the default output
// directory of a match is a new event (two matches started in the same
// second must not share one); --out names the one to resume.
func freshDir(base string) string {
	dir := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(dir); err != nil {
			return dir
		}
		dir = fmt.Sprintf("%s-%d", base, i)
	}
}

// copyFile copies src to dst (the --pdn copy of games.pdn).
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
