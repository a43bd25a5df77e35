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
//	tournament: round-robin         # or gauntlet (the first engine against the others)
//	rounds: 1                       # cycles: a number, or single / double
//	games_per_encounter: 2          # even: each opening twice, colours reversed
//	openings:
//	  file: openings/3move_english.json   # ballot JSON, a FEN list (.fen/.txt) or PDN (.pdn)
//	  group: all                    # JSON ballots: all / standard / ...
//	  order: sequential             # or random
//	  seed: 1                       # for random
//	concurrency: 1                  # games played at once
//	illegal_move_policy: wcdf       # wcdf / strict (default wcdf for English, strict otherwise)
//	auto_claim: true                # the arbiter claims draws for the engines
//	adjudication: {max_moves: 0}    # draw after this many moves each (0 = never)
//	margin: 100ms                   # flag-fall tolerance for scheduling noise
//	sprt: {elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05, model: pentanomial, elo_model: normalized}
//	out: out/demo                   # output directory (relative to the working directory)
//
// Unknown keys and bad values are errors naming the key and the file (or the
// command-line option that set them).
package configs

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"go.yaml.in/yaml/v3"
)

// Config is the configuration file as written: strings and numbers, before
// they are checked and turned into the typed Event by Resolve.
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
	// Concurrency and Out do not change the games, so they are left out of
	// the configuration hash: a run may be resumed with other values.
	Concurrency       int          `mapstructure:"concurrency" json:"-"`
	IllegalMovePolicy string       `mapstructure:"illegal_move_policy" json:"illegal_move_policy"`
	AutoClaim         bool         `mapstructure:"auto_claim" json:"auto_claim"`
	Adjudication      Adjudication `mapstructure:"adjudication" json:"adjudication"`
	Margin            Duration     `mapstructure:"margin" json:"margin"`
	SPRT              *SPRT        `mapstructure:"sprt" json:"sprt,omitempty"`
	Out               string       `mapstructure:"out" json:"-"`
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
}

// Openings chooses the opening positions.
type Openings struct {
	File  string `mapstructure:"file" json:"file"`
	Group string `mapstructure:"group" json:"group"`
	Order string `mapstructure:"order" json:"order"`
	Seed  uint64 `mapstructure:"seed" json:"seed"`
}

// Adjudication settings.
type Adjudication struct {
	// MaxMoves: a game still going after this many moves by each side is
	// adjudicated a draw (0 = never).
	MaxMoves int `mapstructure:"max_moves" json:"max_moves"`
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
	}
}

// merge returns base with over's keys laid on top (maps merged, anything else replaced).
func merge(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		if bm, ok := out[k].(map[string]any); ok {
			if om, ok := v.(map[string]any); ok {
				out[k] = merge(bm, om)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// apply sets one override in the settings map. Lists are indexed by number
// or, for lists of maps with a "name", by that name. It returns the key with
// list indices as numbers ("engines.b.dir" -> "engines.1.dir").
func apply(m map[string]any, o Override) (string, error) {
	parts := strings.Split(o.Key, ".")
	for i := range parts {
		// An engine parameter's name keeps its case (see readYAML).
		if i == 0 || !strings.EqualFold(parts[i-1], "options") {
			parts[i] = strings.ToLower(parts[i])
		}
	}
	var cur any = m
	for i, p := range parts {
		last := i == len(parts)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[p] = o.Value
				return strings.Join(parts, "."), nil
			}
			next, ok := c[p]
			if !ok || next == nil {
				if _, err := strconv.Atoi(parts[i+1]); err == nil {
					return "", fmt.Errorf("%s has no list to index", strings.Join(parts[:i+1], "."))
				}
				next = map[string]any{}
				c[p] = next
			}
			if s, ok := next.(string); ok && p == "variant" {
				// Refining a preset given by name: make it a map.
				next = map[string]any{"preset": s}
				c[p] = next
			}
			cur = next
		case []any:
			idx, aerr := strconv.Atoi(p)
			if aerr != nil {
				idx = -1
				for j, el := range c {
					if em, ok := el.(map[string]any); ok && strings.EqualFold(fmt.Sprint(em["name"]), p) {
						idx = j
					}
				}
				if idx < 0 {
					return "", fmt.Errorf("%s has no element named %q", strings.Join(parts[:i], "."), p)
				}
				parts[i] = strconv.Itoa(idx)
			}
			if idx < 0 || idx >= len(c) {
				return "", fmt.Errorf("%s has %d elements, no index %d", strings.Join(parts[:i], "."), len(c), idx)
			}
			if last {
				c[idx] = o.Value
				return strings.Join(parts, "."), nil
			}
			cur = c[idx]
		default:
			return "", fmt.Errorf("%s is a value, not a map or list", strings.Join(parts[:i], "."))
		}
	}
	return strings.Join(parts, "."), nil
}

// deepCopy copies maps and lists so that overrides never touch shared data.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}

// decode turns the settings map into a Config: unknown keys are reported
// with their full path, and values of the wrong type by mapstructure (in
// strict mode, ErrorUnused) with the key it names.
func decode(m map[string]any, written map[string]string, source func(key string) string) (*Config, error) {
	c := checker{written: written, source: source}
	c.walk(m, reflect.TypeOf(Config{}), "")
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	var errs []error
	var cfg Config
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		Result:      &cfg,
		ErrorUnused: true,
		DecodeHook:  decodeHook,
	})
	if err != nil {
		return nil, err
	}
	if err := dec.Decode(m); err != nil {
		for _, e := range flatten(err) {
			var de *mapstructure.DecodeError
			if errors.As(e, &de) {
				key := mapstructureKey(de.Name())
				errs = append(errs, &Error{File: source(key), Key: key, Err: friendly(de.Unwrap())})
			} else {
				errs = append(errs, &Error{File: source(""), Err: e})
			}
		}
		return nil, errors.Join(errs...)
	}
	return &cfg, nil
}

// flatten lists the errors joined in err.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	var de *mapstructure.DecodeError
	if errors.As(err, &de) {
		return []error{de}
	}
	return []error{err}
}

// mapstructureKey turns "engines[1].time_control" into "engines.1.time_control".
func mapstructureKey(name string) string {
	r := strings.NewReplacer("[", ".", "]", "")
	return r.Replace(name)
}

// friendly rewrites mapstructure's type errors in the file's terms.
func friendly(err error) error {
	var ut *mapstructure.UnconvertibleTypeError
	if errors.As(err, &ut) {
		return fmt.Errorf("%s is not %s", describe(ut.Value), kindName(ut.Expected.Type()))
	}
	var pe *mapstructure.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s is not %s", describe(pe.Value), kindName(pe.Expected.Type()))
	}
	if msg := err.Error(); strings.HasPrefix(msg, "source data must be an array or slice") {
		return fmt.Errorf("expected a list, %s", strings.TrimPrefix(msg, "source data must be an array or slice, "))
	}
	return err
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case map[string]any:
		return "a map"
	case []any:
		return "a list"
	case nil:
		return "an empty value"
	}
	return fmt.Sprintf("%v", v)
}

func kindName(t reflect.Type) string {
	switch t {
	case reflect.TypeOf(Rounds(0)):
		return "a number of cycles (or single / double)"
	case reflect.TypeOf(Duration(0)):
		return "a duration (like 100ms or 2s)"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint64, reflect.Uint, reflect.Uint32:
		return "a whole number"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "text"
	case reflect.Slice:
		return "a list"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "a map of settings"
	}
	return t.String()
}

var (
	typString   = reflect.TypeOf("")
	typVariant  = reflect.TypeOf(VariantSpec{})
	typRounds   = reflect.TypeOf(Rounds(0))
	typDuration = reflect.TypeOf(Duration(0))
)

// decodeHook converts the shorthand forms the file may use.
func decodeHook(from, to reflect.Type, data any) (any, error) {
	switch to {
	case typString:
		// time_control: 300 and options {threads: 2} are numbers in YAML.
		switch x := data.(type) {
		case int, int64, uint64, float64, bool:
			return fmt.Sprint(x), nil
		}
	case typVariant:
		if s, ok := data.(string); ok {
			return map[string]any{"preset": s}, nil
		}
	case typRounds:
		if s, ok := data.(string); ok {
			switch strings.ToLower(strings.TrimSpace(s)) {
			case "single":
				return 1, nil
			case "double":
				return 2, nil
			}
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return nil, fmt.Errorf("%q is not a number of cycles (or single / double)", s)
			}
			return n, nil
		}
	case typDuration:
		switch x := data.(type) {
		case string:
			d, err := time.ParseDuration(strings.TrimSpace(x))
			if err != nil {
				return nil, fmt.Errorf("%q is not a duration (like 100ms or 2s)", x)
			}
			return int64(d), nil
		case int:
			return int64(time.Duration(x) * time.Second), nil
		case float64:
			return int64(x * float64(time.Second)), nil
		}
	}
	return data, nil
}

// Options tune Load and Parse.
type Options struct {
	// Overrides are applied on top of the file, in order.
	Overrides []Override
	// Self is the program that a command's first word "self" stands for;
	// empty means os.Executable().
	Self string
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

func parse(data []byte, file, dir string, opt Options) (*Event, error) {
	doc, err := readYAML(data, file)
	if err != nil {
		return nil, err
	}
	settings := merge(defaults(), doc.settings)
	written := doc.written
	overridden := map[string]string{}
	for _, o := range opt.Overrides {
		key, err := apply(settings, Override{Key: o.Key, Value: deepCopy(o.Value), Source: o.Source})
		if err != nil {
			return nil, &Error{File: o.Source, Key: o.Key, Err: err}
		}
		key = strings.ToLower(key)
		overridden[key] = o.Source
		o.recordText(key, written)
	}
	// source names where a key's value came from: the command-line option
	// that set it (or a parent of it), else the file.
	source := func(key string) string {
		key = strings.ToLower(key)
		for k := key; k != ""; {
			if s, ok := overridden[k]; ok {
				return s
			}
			i := strings.LastIndexByte(k, '.')
			if i < 0 {
				break
			}
			k = k[:i]
		}
		// An override of a child (engines.0.command) is also the source
		// of errors found in it.
		for k, s := range overridden {
			if strings.HasPrefix(k, key+".") && key != "" {
				return s
			}
		}
		return file
	}
	cfg, err := decode(settings, written, source)
	if err != nil {
		return nil, err
	}
	if cfg.Name == "" {
		cfg.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	if cfg.Out == "" {
		cfg.Out = filepath.Join("out", slug(strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))))
	}
	effective, err := yaml.Marshal(settings)
	if err != nil {
		return nil, &Error{File: file, Err: err}
	}
	return resolve(cfg, file, dir, string(effective), source, opt)
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

// FlagKeys lists the keys that have a command-line flag of their own (every
// scalar key except those inside engines and a custom variant), with the
// flag name ("openings.seed" -> "openings-seed") and the kind of value.
func FlagKeys() []FlagKey {
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
			case ft == typRounds || ft == typDuration:
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
	return out
}

// FlagKey is a key with a flag of its own.
type FlagKey struct {
	Key  string
	Flag string
	Kind reflect.Kind
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
