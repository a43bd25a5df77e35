package configs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"go.yaml.in/yaml/v3"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Stored is what the reports read of an event's effective configuration as
// the store keeps it (Event.Effective: the file's keys, the defaults under
// them and the overrides on top, as YAML). It is read leniently, so that an
// event stored by an older arbiter still gets its report: a key left out
// stays zero (nil for the pointers), and the values the report shows as
// written (rounds, a book's seed, tie-breaks) keep their written form.
type Stored struct {
	Site string `yaml:"site"`
	// Engines are the engines' names and options (what tells two engines
	// with one command apart, such as Scan with and without its book).
	Engines []struct {
		Name    string         `yaml:"name"`
		Options map[string]any `yaml:"options"`
	} `yaml:"engines"`
	Tournament        string `yaml:"tournament"`
	Rounds            any    `yaml:"rounds"`
	GamesPerEncounter int    `yaml:"games_per_encounter"`
	Swiss             struct {
		System       string `yaml:"system"`
		Acceleration string `yaml:"acceleration"`
		TieBreaks    any    `yaml:"tie_breaks"` // a list, or a text with commas
	} `yaml:"swiss"`
	IllegalMovePolicy string `yaml:"illegal_move_policy"`
	AutoClaim         *bool  `yaml:"auto_claim"`
	Margin            string `yaml:"margin"`
	Openings          struct {
		File  string `yaml:"file"`
		Group string `yaml:"group"`
		Order string `yaml:"order"`
		Seed  any    `yaml:"seed"`
	} `yaml:"openings"`
	Adjudication struct {
		MaxMoves int                 `yaml:"max_moves"`
		Resign   *ResignAdjudication `yaml:"resign"`
		Draw     *DrawAdjudication   `yaml:"draw"`
		EGDB     *EGDBAdjudication   `yaml:"egdb"`
	} `yaml:"adjudication"`
}

// ReadStored reads an effective configuration kept in a store.
func ReadStored(text string) (Stored, error) {
	var c Stored
	err := yaml.Unmarshal([]byte(text), &c)
	return c, err
}

// TieBreakNames are the stored swiss.tie_breaks, lower case, in order; nil
// when it names none.
func (c Stored) TieBreakNames() []string {
	var names []string
	switch tb := c.Swiss.TieBreaks.(type) {
	case string:
		names = splitList(tb)
	case []any:
		for _, n := range tb {
			if n := strings.TrimSpace(fmt.Sprint(n)); n != "" {
				names = append(names, n)
			}
		}
	}
	for i, n := range names {
		names[i] = strings.ToLower(n)
	}
	return names
}

// splitList reads a list written as one text with commas (a flag's value:
// "buchholz, wins"), dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// ReadVariant reads a rule set written in the configs' variant syntax, as
// a person types it into a form: the map under `variant:` (the key itself
// may be given or left out), or a preset's name alone. Unknown keys are
// refused.
func ReadVariant(text string) (*rules.Variant, error) {
	var doc any
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("not YAML: %w", err)
	}
	m, ok := doc.(map[string]any)
	if !ok {
		if s, isStr := doc.(string); isStr {
			m = map[string]any{"preset": s}
		} else {
			return nil, errors.New("want a map of rules (preset, board, rows_of_men, ...)")
		}
	}
	if inner, ok := m["variant"]; ok && len(m) == 1 {
		switch x := inner.(type) {
		case map[string]any:
			m = x
		case string:
			m = map[string]any{"preset": x}
		default:
			return nil, errors.New("variant: want a map of rules")
		}
	}
	var vs VariantSpec
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{Result: &vs, ErrorUnused: true, TagName: "mapstructure"})
	if err != nil {
		return nil, err
	}
	if err := dec.Decode(m); err != nil {
		return nil, err
	}
	return vs.Build()
}
