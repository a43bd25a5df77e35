// Package configs reads the YAML file that describes an event (engines,
// variant, time control, format, openings, concurrency, policies,
// adjudication, SPRT, output directory), applies command-line overrides and
// checks everything, so that a mistake is reported with the key and the file
// before any engine starts.
//
// The shipped configurations (demo.yaml, english-wcdf.yaml,
// international-fmjd.yaml) and the opening books under openings/ are
// embedded in the binary: see FS and LoadEmbedded.
//
// # File format
//
//	name: Demo                      # event name (default: the file's base name)
//	site: localhost
//	variant: english                # a preset name, or a map (see VariantSpec)
//	time_control: "10+0.1"          # arbiter.ParseTimeControl syntax
//	engines:                        # at least two
//	  - name: level-1
//	    command: self engine --level 1   # "self" is this arbiter binary
//	    protocol: hub               # hub (default) or dxp
//	    dir: ""                     # working directory (relative to the config file)
//	    address: ""                 # dxp: host:port of the engine
//	    listen: false               # dxp: the arbiter listens on address instead
//	    options: {hash: 64}         # engine parameters (names as written)
//	    env: ["KEY=value"]
//	    time_control: ""            # this engine's own control (default: the event's)
//	    init_timeout: 60s           # start-up: Hub handshake, DXP connection
//	    version: ""                 # the build, for cluster workers (see LoadEngines)
//	tournament: round-robin         # or gauntlet (the first engine against the others), or swiss
//	rounds: 1                       # cycles: a number, or single / double; swiss: the number of rounds (required)
//	swiss:                          # tournament: swiss only
//	  system: dutch                 # or burstein (FIDE C.04.3 / C.04.4.2)
//	  acceleration: none            # or baku (FIDE C.04.5.1)
//	  tie_breaks: [buchholz-cut1, buchholz, sonneborn-berger, wins]   # the order after the score
//	games_per_encounter: 2          # even: each opening twice, colours reversed
//	openings:
//	  file: openings/3move_english.json   # ballot JSON, a FEN list (.fen/.txt) or PDN (.pdn)
//	  group: all                    # JSON ballots: all / standard / ...
//	  order: sequential             # or random
//	  seed: 1                       # for random
//	  plies: 0                      # PDN books: play only the first N plies of each game (0 = all)
//	  start: 1                      # the first opening to use
//	  policy: round                 # round (a round's boards share its openings) or encounter
//	  noswap: false                 # true: both games of an opening with the same colours
//	concurrency: 1                  # games played at once
//	illegal_move_policy: wcdf       # wcdf / strict (default wcdf for English, strict otherwise)
//	auto_claim: true                # the arbiter claims draws for the engines
//	adjudication:
//	  max_moves: 0                  # draw after this many moves each (0 = never)
//	  resign: {movecount: 3, score: 5, twosided: false}   # by engine scores (men); off when absent
//	  draw: {movenumber: 40, movecount: 8, score: 0.1}
//	margin: 100ms                   # flag-fall tolerance for scheduling noise
//	sprt: {elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05, model: pentanomial, elo_model: normalized}
//	out: out/demo                   # output directory (relative to the working directory)
//	pdn: {annotations: full}        # none, clock or full (engine score/depth, time, nodes, pv, clock)
//
// Unknown keys and bad values are errors naming the key and the file (or the
// command-line option that set them).
//
// configs is the top of the flow: cmd/arbiter, the engines' runner, the engine
// players (match/engines) and the online games import it; it imports the
// rules, the referee, the schedule, the adjudication and the statistics,
// never the reports or the wings' events.
package configs

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/draughts-arbiter/arbiter/match/schedule"
)

// Config is the configuration file as written: strings and numbers, before
// they are checked and turned into the typed Event (see parse).
type Config struct {
	Name              string      `mapstructure:"name" json:"name"`
	Site              string      `mapstructure:"site" json:"site"`
	Variant           VariantSpec `mapstructure:"variant" json:"variant"`
	TimeControl       string      `mapstructure:"time_control" json:"time_control"`
	Engines           []Engine    `mapstructure:"engines" json:"engines"`
	Tournament        string      `mapstructure:"tournament" json:"tournament"`
	Rounds            Rounds      `mapstructure:"rounds" json:"rounds"`
	GamesPerEncounter int         `mapstructure:"games_per_encounter" json:"games_per_encounter"`
	Openings          Openings    `mapstructure:"openings" json:"openings"`
	// Swiss are the settings of a Swiss event (tournament: swiss); a
	// pointer left out of the hash when absent, so that the events made
	// before the key resume.
	Swiss *Swiss `mapstructure:"swiss" json:"swiss,omitempty"`
	// Concurrency and Out do not change the games, so they are left out of
	// the configuration hash: a run may be resumed with other values.
	Concurrency       int          `mapstructure:"concurrency" json:"-"`
	IllegalMovePolicy string       `mapstructure:"illegal_move_policy" json:"illegal_move_policy"`
	AutoClaim         bool         `mapstructure:"auto_claim" json:"auto_claim"`
	Adjudication      Adjudication `mapstructure:"adjudication" json:"adjudication"`
	Margin            Duration     `mapstructure:"margin" json:"margin"`
	SPRT              *SPRT        `mapstructure:"sprt" json:"sprt,omitempty"`
	Out               string       `mapstructure:"out" json:"-"`
	// PDN chooses what the records say beyond the moves; it does not
	// change the games, so it is not hashed either.
	PDN PDNOptions `mapstructure:"pdn" json:"-"`
}

// PDNOptions: annotations is none (the moves and the arbiter's notes),
// clock (and each side's clock after its moves) or full (and what the
// engine said: score, depth, time used, nodes, principal variation).
type PDNOptions struct {
	Annotations string `mapstructure:"annotations" json:"annotations"`
}

// EngineShortKeys are the short names an --engine SPEC gives some keys of
// an engine entry (cmd=, proto=, ...), each with the entry's own key. A
// config file takes the entry's keys; a short one there is met with the
// long one's name.
var EngineShortKeys = map[string]string{
	"cmd": "command", "proto": "protocol", "addr": "address",
	"init": "init_timeout", "tc": "time_control",
}

// Engine is one participant as configured.
type Engine struct {
	Name string `mapstructure:"name" json:"name"`
	// Command is the command line, split like a shell would (quotes
	// allowed, no expansions). A first word "self" means this arbiter
	// binary, so "self engine --level 2" runs the built-in sparring engine.
	Command  string `mapstructure:"command" json:"command"`
	Dir      string `mapstructure:"dir" json:"dir"`
	Protocol string `mapstructure:"protocol" json:"protocol"`
	Address  string `mapstructure:"address" json:"address"`
	// Listen: for dxp, the arbiter listens on Address and the engine
	// connects (default: the arbiter connects to the engine).
	Listen      bool              `mapstructure:"listen" json:"listen"`
	Options     map[string]string `mapstructure:"options" json:"options"`
	Env         []string          `mapstructure:"env" json:"env"`
	TimeControl string            `mapstructure:"time_control" json:"time_control"`
	// InitTimeout bounds the engine's start: the Hub handshake up to
	// "ready", or a DXP connection and GAMEREQ/GAMEACC (default 60s; an
	// engine loading large endgame databases may need more).
	InitTimeout Duration `mapstructure:"init_timeout" json:"init_timeout,omitempty"`
	// Version declares the engine's build. A cluster worker plays an
	// event's engine only with a definition that declares the same version
	// (without one, only with a program file of the same checksum).
	Version string `mapstructure:"version" json:"version,omitempty"`
}

// Openings chooses the opening positions.
type Openings struct {
	File  string `mapstructure:"file" json:"file"`
	Group string `mapstructure:"group" json:"group"`
	Order string `mapstructure:"order" json:"order"`
	Seed  uint64 `mapstructure:"seed" json:"seed"`
	// Plies: of a PDN file, play only the first N plies of each game (0:
	// all). Start: the first opening to use (1-based; 0 = 1). Policy:
	// round (default: every board of a round shares its openings) or
	// encounter (each encounter has its own). NoSwap: the two games of an
	// opening keep the same colours. Left out of the hash when unset, so
	// that events made before these keys resume.
	Plies  int    `mapstructure:"plies" json:"plies,omitempty"`
	Start  int    `mapstructure:"start" json:"start,omitempty"`
	Policy string `mapstructure:"policy" json:"policy,omitempty"`
	NoSwap bool   `mapstructure:"noswap" json:"noswap,omitempty"`
}

// Adjudication settings.
type Adjudication struct {
	// MaxMoves: a game still going after this many moves by each side is
	// adjudicated a draw (0 = never).
	MaxMoves int `mapstructure:"max_moves" json:"max_moves"`
	// Resign and Draw adjudicate by the engines' evaluations, as
	// cutechess's -resign and -draw (see match/engines/adjudicate); off when
	// absent. Scores are in men.
	Resign *ResignAdjudication `mapstructure:"resign" json:"resign,omitempty"`
	Draw   *DrawAdjudication   `mapstructure:"draw" json:"draw,omitempty"`
	// EGDB ends a game that reaches a position of an endgame database
	// (built by `arbiter egdb build`) with the database's value; off when
	// absent.
	EGDB *EGDBAdjudication `mapstructure:"egdb" json:"egdb,omitempty"`
}

// EGDBAdjudication: the database in dir (relative to the config file's
// directory; a directory per variant under it, as `arbiter egdb build
// --dir` makes), for positions of at most pieces pieces (0: all it holds),
// ending games with results all (wins and draws, the default), wins or
// draws.
type EGDBAdjudication struct {
	Dir     string `mapstructure:"dir" json:"dir" yaml:"dir"`
	Pieces  int    `mapstructure:"pieces" json:"pieces" yaml:"pieces"`
	Results string `mapstructure:"results" json:"results" yaml:"results"`
}

// ResignAdjudication: a side whose own score was at most -score over its
// last movecount moves loses (twosided: and its opponent's at least
// +score over its own).
type ResignAdjudication struct {
	MoveCount int     `mapstructure:"movecount" json:"movecount" yaml:"movecount"`
	Score     float64 `mapstructure:"score" json:"score" yaml:"score"`
	TwoSided  bool    `mapstructure:"twosided" json:"twosided" yaml:"twosided"`
}

// DrawAdjudication: from full move movenumber on, a game in which both
// sides' scores were within score of zero over their last movecount moves
// is a draw.
type DrawAdjudication struct {
	MoveNumber int     `mapstructure:"movenumber" json:"movenumber" yaml:"movenumber"`
	MoveCount  int     `mapstructure:"movecount" json:"movecount" yaml:"movecount"`
	Score      float64 `mapstructure:"score" json:"score" yaml:"score"`
}

// SPRT configures a sequential probability ratio test for a two-engine
// match; the match stops as soon as a bound is crossed.
type SPRT struct {
	Elo0  float64 `mapstructure:"elo0" json:"elo0"`
	Elo1  float64 `mapstructure:"elo1" json:"elo1"`
	Alpha float64 `mapstructure:"alpha" json:"alpha"`
	Beta  float64 `mapstructure:"beta" json:"beta"`
	// Model is pentanomial (game pairs, the default) or trinomial (games).
	Model string `mapstructure:"model" json:"model"`
	// EloModel is the scale of elo0/elo1: normalized (default) or logistic.
	EloModel string `mapstructure:"elo_model" json:"elo_model"`
}

// Swiss configures a Swiss event: the pairing system and its
// acceleration, and the tie-breaks that order equal scores.
type Swiss struct {
	// System is "dutch" (the default: FIDE C.04.3) or "burstein" (FIDE
	// C.04.4.2: Dutch seeding rounds, then each score group ranked by
	// Buchholz and Sonneborn-Berger and paired top against bottom).
	System string `mapstructure:"system" json:"system,omitempty"`
	// Acceleration is "none" (the default) or "baku" (FIDE C.04.5.1: the
	// first rounds pair the top half with virtual points).
	Acceleration string `mapstructure:"acceleration" json:"acceleration,omitempty"`
	// TieBreaks are the tie-breaks after the score, in order (default
	// DefaultTieBreaks); a list, or one text with commas (a flag).
	TieBreaks TieBreaks `mapstructure:"tie_breaks" json:"tie_breaks,omitempty"`
}

// TieBreaks is a list of tie-break names: those of FIDE C.07 that
// reports/tiebreak computes, by their names, acronyms or draughts names
// (buchholz, bh-c1, truncated-solkoff, sonneborn-berger, wins, ...).
type TieBreaks []string

// DefaultTieBreaks are a Swiss event's tie-breaks when it names none.
var DefaultTieBreaks = []string{"buchholz-cut1", "buchholz", "sonneborn-berger", "wins"}

// Rounds is the number of cycles; the file may say "single" or "double".
type Rounds int

// Duration is a time.Duration written as "100ms", "2s" (or a number of seconds).
type Duration time.Duration

// Override is one command-line setting: a dotted key ("concurrency",
// "openings.seed", "engines.0.time_control" or "engines.alpha.command") and
// its value. Source names where it came from for error messages.
type Override struct {
	Key    string
	Value  any
	Source string
	// text is the value as written on the command line (set by ParseSet),
	// for error messages.
	text *yaml.Node
}

// recordText replaces what written holds for key (and below it) by the
// override's value as written.
func (o Override) recordText(key string, written map[string]string) {
	for k := range written {
		if k == key || strings.HasPrefix(k, key+".") {
			delete(written, k)
		}
	}
	switch {
	case o.text != nil:
		recordText(o.text, key, written)
	case o.Value != nil:
		written[key] = fmt.Sprint(o.Value)
	}
}

// ParseSet reads a "--set key=value" argument. The value is read as a YAML
// scalar or flow value, so "3" is a number, "true" a bool, "[a, b]" a list
// and "{name: x}" a map.
func ParseSet(kv string) (Override, error) {
	k, v, ok := strings.Cut(kv, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return Override{}, fmt.Errorf("--set %q: want key=value", kv)
	}
	var val any
	var n yaml.Node
	text := &n
	if err := yaml.Unmarshal([]byte(v), &n); err != nil || (len(n.Content) > 0 && n.Content[0].Decode(&val) != nil) {
		val, text = v, nil // not YAML: take the text as it is
	} else if len(n.Content) > 0 {
		text = n.Content[0]
	}
	if val == nil && strings.TrimSpace(v) == "" {
		val, text = "", nil
	}
	return Override{Key: k, Value: val, Source: "--set " + kv, text: text}, nil
}

// Error is a configuration error: the file (or command-line option), the key
// and what is wrong with it.
type Error struct {
	File string // the config file, or the command-line option that set the key
	Key  string // dotted key, "" for the file as a whole
	Err  error
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", e.File, e.Key, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// defaults are the values of keys the file leaves out.
func defaults() map[string]any {
	return map[string]any{
		"variant":             "english",
		"tournament":          "round-robin",
		"rounds":              1,
		"games_per_encounter": 2,
		"concurrency":         1,
		"auto_claim":          true,
		"margin":              "100ms",
		"openings":            map[string]any{"group": "all", "order": "sequential"},
		"pdn":                 map[string]any{"annotations": "full"},
	}
}

// Options tune Load and Parse.
type Options struct {
	// Overrides are applied on top of the file, in order.
	Overrides []Override
	// Self is the program that a command's first word "self" stands for;
	// empty means os.Executable().
	Self string
	// DefaultBook: without openings.file, take the variant's default book
	// (see DefaultBook) instead of its start position (arbiter match and
	// tournament: deterministic engines would replay the same pair).
	DefaultBook bool
}

// Load reads the config file at path, applies the overrides and resolves it.
func Load(path string, opt Options) (*Event, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	dir := filepath.Dir(path)
	return parse(data, path, dir, opt)
}

// LoadEmbedded reads one of the shipped configs ("demo.yaml", ...) from the
// binary; its openings come from the embedded books.
func LoadEmbedded(name string, opt Options) (*Event, error) {
	data, err := FS.ReadFile(name)
	if err != nil {
		return nil, &Error{File: name, Err: fmt.Errorf("no such built-in config (have %s)", strings.Join(Shipped(), ", "))}
	}
	return parse(data, "configs/"+name, "", opt)
}

// Parse reads config text; file names it in errors and dir is where
// relative paths (openings, engine directories) start ("" = only the
// embedded books).
func Parse(data []byte, file, dir string, opt Options) (*Event, error) {
	return parse(data, file, dir, opt)
}

// parse is the pipeline, one stage after the other: read the file (viper),
// lay the defaults under it and the overrides on top, check the keys and
// numbers, decode into a Config, validate it into the typed Event, and
// resolve what depends on the world outside the text. Each stage stops the
// pipeline with every error it found, each naming its key and file (or
// command-line option).
func parse(data []byte, file, dir string, opt Options) (*Event, error) {
	doc, err := readYAML(data, file)
	if err != nil {
		return nil, err
	}
	s, err := layer(doc, file, opt.Overrides)
	if err != nil {
		return nil, err
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	cfg, err := decode(s.values, s.source)
	if err != nil {
		return nil, err
	}
	ev, err := validate(cfg, file, s.source)
	if err != nil {
		return nil, err
	}
	if ev.Schedule.Kind == schedule.Swiss && !s.given("rounds") {
		// rounds defaults to one cycle; a Swiss has no natural length.
		return nil, &Error{File: file, Key: "rounds", Err: fmt.Errorf("a Swiss event needs its number of rounds (rounds: N, 1 to %d for %d engines)",
			schedule.MaxSwissRounds(len(ev.Engines)), len(ev.Engines))}
	}
	if ev.Effective, err = s.effective(); err != nil {
		return nil, err
	}
	return resolve(ev, dir, opt, s.source)
}

// slug keeps letters, digits, '-' and '_' of s.
func slug(s string) string {
	b := []byte(strings.ToLower(s))
	out := b[:0]
	for _, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			out = append(out, c)
		case c == ' ' || c == '.':
			out = append(out, '-')
		}
	}
	if len(out) == 0 {
		return "event"
	}
	return string(out)
}

// hashOf is the configuration hash: everything that changes the games
// (Concurrency and Out excluded), plus the openings actually loaded.
func hashOf(cfg *Config, openings []Opening) string {
	h := sha256.New()
	b, _ := json.Marshal(cfg)
	h.Write(b)
	for _, o := range openings {
		fmt.Fprintf(h, "\n%s\t%s", o.Name, o.FEN)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// HashWithCommands is the configuration hash the event would have if its
// engines' commands were cmds (as written, one per engine; "" keeps the
// engine's own): a resumed event whose hash differs from the one on record
// but matches this with the recorded commands changed only where its
// engines are found.
func (e *Event) HashWithCommands(cmds []string) string {
	c := *e.Config
	c.Engines = append([]Engine(nil), c.Engines...)
	for i := range c.Engines {
		if i < len(cmds) && cmds[i] != "" {
			c.Engines[i].Command = cmds[i]
		}
	}
	return hashOf(&c, e.Openings)
}

// FlagKeys lists the keys that have a command-line flag of their own (every
// scalar key except those inside engines and a custom variant), with the
// flag name ("openings.seed" -> "openings-seed") and the kind of value.
// The caller may change its copy.
func FlagKeys() []FlagKey { return slices.Clone(flagKeys()) }

// flagKeys walks Config's type once per process: three commands register
// these flags at every start of the program, an engine's included, and the
// walks (reflection, the defaults flattened) were about 1 % of a
// two-game match's CPU (issue 23).
var flagKeys = sync.OnceValue(walkFlagKeys)

// walkFlagKeys is FlagKeys's walk.
func walkFlagKeys() []FlagKey {
	var out []FlagKey
	var walk func(t reflect.Type, path string)
	walk = func(t reflect.Type, path string) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := strings.Split(f.Tag.Get("mapstructure"), ",")[0]
			if tag == "" || tag == "-" {
				continue
			}
			key := join(path, tag)
			ft := f.Type
			switch {
			case key == "engines":
				continue
			case ft == typVariant:
				out = append(out, FlagKey{Key: key, Flag: flagName(key), Kind: reflect.String})
				continue
			case ft == typRounds || ft == typDuration || ft == typTieBreak:
				out = append(out, FlagKey{Key: key, Flag: flagName(key), Kind: reflect.String})
				continue
			}
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				walk(ft, key)
				continue
			}
			out = append(out, FlagKey{Key: key, Flag: flagName(key), Kind: ft.Kind()})
		}
	}
	walk(reflect.TypeOf(Config{}), "")
	def := map[string]string{}
	flattenDefaults(defaults(), "", def)
	for i := range out {
		out[i].Default = def[out[i].Key]
	}
	return out
}

// flattenDefaults writes the leaves of a defaults map by dotted key.
func flattenDefaults(m map[string]any, path string, into map[string]string) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			flattenDefaults(sub, join(path, k), into)
			continue
		}
		into[join(path, k)] = fmt.Sprint(v)
	}
}

// FlagKey is a key with a flag of its own.
type FlagKey struct {
	Key     string
	Flag    string
	Kind    reflect.Kind
	Default string // the value when neither the file nor a flag gives one ("": none)
}

func flagName(key string) string {
	return strings.NewReplacer(".", "-", "_", "-").Replace(key)
}

// Shipped lists the built-in config files.
func Shipped() []string {
	ents, _ := FS.ReadDir(".")
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".yaml") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}
