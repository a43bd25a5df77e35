package online

import (
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/configs"
)

// EngineStrength is a named strength of the built-in sparring engine
// (match/engines/sparring): its level, as `arbiter engine --level` reads it.
type EngineStrength struct {
	Name  string // beginner, casual, club, strong
	Level string // random, greedy or a search depth
}

// BuiltInStrengths are the strengths a plain `arbiter serve` offers, weakest
// first: random moves, the best immediate capture, then alpha-beta searches
// of the material balance 3 and 6 plies deep.
var BuiltInStrengths = []EngineStrength{
	{"beginner", "random"},
	{"casual", "greedy"},
	{"club", "3"},
	{"strong", "6"},
}

// BuiltInPrefix starts the name of each built-in engine ("sparring-club").
const BuiltInPrefix = "sparring-"

// BuiltInEngines are the built-in engine at each strength, run as
// program's `engine` subcommand over Hub (program is the arbiter binary;
// the Hub handshake gives it the game's variant). An operator's engine
// (serve --engines) of the same name replaces one.
func BuiltInEngines(program string) map[string]EngineSpec {
	out := make(map[string]EngineSpec, len(BuiltInStrengths))
	for i, s := range BuiltInStrengths {
		name := BuiltInPrefix + s.Name
		out[name] = EngineSpec{Name: name, Command: "self engine --level " + s.Level,
			Argv: []string{program, "engine", "--name", name, "--level", s.Level, "--seed", strconv.Itoa(i + 1)}, Protocol: configs.Hub}
	}
	return out
}

// Engines lists the names of the Hall's engines: the built-in ones first,
// weakest first, then the operator's in name order.
func (h *Hall) Engines() []string {
	var out []string
	for _, s := range BuiltInStrengths {
		if _, ok := h.cfg.Engines[BuiltInPrefix+s.Name]; ok {
			out = append(out, BuiltInPrefix+s.Name)
		}
	}
	for _, n := range engineNames(h.cfg.Engines) {
		if _, ok := h.cfg.Engines[n]; ok && !isBuiltIn(n) {
			out = append(out, n)
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}

func isBuiltIn(name string) bool {
	if !strings.HasPrefix(name, BuiltInPrefix) {
		return false
	}
	for _, s := range BuiltInStrengths {
		if name == BuiltInPrefix+s.Name {
			return true
		}
	}
	return false
}
