package match

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// Opening is a start position for a pair of games.
type Opening struct {
	Name  string
	Start rules.Position
}

// LoadOpenings reads start positions for variant v from file, in one of
// three forms, recognised by content:
//
//   - a ballot as JSON: an object mapping names to FENs, or to groups of
//     such objects ({"all": {...}, "standard": {...}}); group picks one
//     ("" = "all" when present, otherwise every group);
//   - PDN: the FEN tag of every game (games without one start from the
//     initial position);
//   - text: one FEN per line; blank lines and lines starting with # are skipped.
//
// Errors name the file and the line or opening.
func LoadOpenings(file string, v *rules.Variant, group string) ([]Opening, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	trimmed := bytes.TrimSpace(data)
	var out []Opening
	switch {
	case len(trimmed) > 0 && trimmed[0] == '{':
		out, err = jsonOpenings(file, trimmed, v, group)
	case len(trimmed) > 0 && (trimmed[0] == '[' || bytes.Contains(trimmed, []byte("[FEN "))):
		out, err = pdnOpenings(file, data, v)
	default:
		out, err = textOpenings(file, data, v)
	}
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("openings: %s: no opening found", file)
	}
	return out, nil
}

func jsonOpenings(file string, data []byte, v *rules.Variant, group string) ([]Opening, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("openings: %s: %w", file, err)
	}
	flat := map[string]string{}
	var groups []string
	for name, raw := range top {
		var fen string
		if err := json.Unmarshal(raw, &fen); err == nil {
			flat[name] = fen
			continue
		}
		groups = append(groups, name)
	}
	sort.Strings(groups)
	if group == "" && len(groups) > 0 {
		for _, g := range groups {
			if g == "all" {
				group = "all"
			}
		}
	}
	if group != "" && len(groups) > 0 && !containsString(groups, group) {
		return nil, fmt.Errorf("openings: %s: no group %q (groups: %s)", file, group, strings.Join(groups, ", "))
	}
	for _, g := range groups {
		if group != "" && g != group {
			continue
		}
		var m map[string]string
		if err := json.Unmarshal(top[g], &m); err != nil {
			return nil, fmt.Errorf("openings: %s: group %q: %w", file, g, err)
		}
		for name, fen := range m {
			flat[name] = fen
		}
	}
	names := make([]string, 0, len(flat))
	for n := range flat {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]Opening, 0, len(names))
	for _, n := range names {
		p, err := rules.ParseFEN(v, flat[n])
		if err != nil {
			return nil, fmt.Errorf("openings: %s: opening %q: %w", file, n, err)
		}
		out = append(out, Opening{Name: n, Start: p})
	}
	return out, nil
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func pdnOpenings(file string, data []byte, v *rules.Variant) ([]Opening, error) {
	r := pdn.NewReader(bytes.NewReader(data), file)
	var out []Opening
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("openings: %w", err)
		}
		start := rules.NewPosition(v)
		if fen := g.Tag("FEN"); fen != "" {
			if start, err = rules.ParseFEN(v, fen); err != nil {
				return nil, fmt.Errorf("openings: %s: game %d (line %d): %w", file, g.Number, g.Line, err)
			}
		}
		name := g.Tag("Event")
		if name == "" || name == "?" {
			name = fmt.Sprintf("game %d", g.Number)
		}
		out = append(out, Opening{Name: name, Start: start})
	}
}

func textOpenings(file string, data []byte, v *rules.Variant) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := rules.ParseFEN(v, line)
		if err != nil {
			return nil, fmt.Errorf("openings: %s:%d: %w", file, n, err)
		}
		out = append(out, Opening{Name: fmt.Sprintf("%s:%d", file, n), Start: p})
	}
	return out, sc.Err()
}
