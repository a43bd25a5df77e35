package configs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// Opening is a start position with its name.
type Opening struct {
	Name     string // "" for the variant's start position
	FEN      string
	Position rules.Position
}

// maxOpenings bounds an opening list (a list is held in memory).
const maxOpenings = 1_000_000

// readOpeningFile finds name relative to dir, then among the embedded books.
func readOpeningFile(name, dir string) ([]byte, string, error) {
	if name == "" {
		return nil, "", errors.New("empty file name")
	}
	var tried []string
	if dir != "" || filepath.IsAbs(name) {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, name)
		}
		data, err := os.ReadFile(p)
		if err == nil {
			return data, p, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, p, err
		}
		tried = append(tried, p)
	}
	// The shipped books: "openings/3move_english.json" or just "3move_english.json".
	clean := path.Clean(filepath.ToSlash(name))
	for _, p := range []string{clean, path.Join("openings", path.Base(clean))} {
		if !fs.ValidPath(p) {
			continue
		}
		if data, err := FS.ReadFile(p); err == nil {
			return data, "(built-in) configs/" + p, nil
		}
	}
	tried = append(tried, "the built-in books ("+strings.Join(builtinBooks(), ", ")+")")
	return nil, name, fmt.Errorf("no such file (looked in %s)", strings.Join(tried, " and "))
}

func builtinBooks() []string {
	ents, _ := FS.ReadDir("openings")
	var names []string
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".fen") || strings.HasSuffix(n, ".pdn") {
			names = append(names, "openings/"+n)
		}
	}
	return names
}

// LoadOpenings reads an opening list for variant v: a ballot JSON (group
// selects the set: "all", "standard", ...), a FEN list (.fen, .txt, .epd:
// one "FEN ; name" per line, '#' comments) or a PDN file (.pdn: each game's
// final position, named by its Opening or Event tag). Every position is
// checked against the variant; errors name the file and the line or entry.
func LoadOpenings(name, group, dir string, v *rules.Variant) ([]Opening, error) {
	return LoadOpeningsPlies(name, group, dir, v, 0)
}

// LoadOpeningsPlies is LoadOpenings taking from a PDN file only the first
// plies moves of each game (0: all; cutechess -openings plies=N): the
// opening is the position after them.
func LoadOpeningsPlies(name, group, dir string, v *rules.Variant, plies int) ([]Opening, error) {
	data, where, err := readOpeningFile(name, dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	var ops []Opening
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		ops, err = ballotJSON(data, where, group, v)
	case ".pdn":
		ops, err = pdnOpenings(data, where, v, plies)
	default:
		ops, err = fenList(data, where, v)
	}
	if err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("%s: no openings in the file", where)
	}
	return ops, nil
}

// ballotJSON reads a pydraughts ballot: {"all": {name: FEN, ...},
// "standard": [name, ...], ...}. A group is either an object of its own
// (sorted by name in natural order, which keeps the ballot's numbering) or a
// list of names defined in "all" (kept in list order).
func ballotJSON(data []byte, file, group string, v *rules.Variant) ([]Opening, error) {
	var groups map[string]json.RawMessage
	if err := json.Unmarshal(data, &groups); err != nil {
		return nil, fmt.Errorf("%s: not a ballot file (a JSON object of groups): %w", file, err)
	}
	if group == "" {
		group = "all"
	}
	raw, ok := groups[group]
	if !ok {
		var names []string
		for g := range groups {
			names = append(names, g)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("%s: no group %q (groups: %s)", file, group, strings.Join(names, ", "))
	}
	type entry struct{ name, fen string }
	var entries []entry
	var set map[string]string
	if err := json.Unmarshal(raw, &set); err == nil {
		for n, f := range set {
			entries = append(entries, entry{n, f})
		}
		sort.Slice(entries, func(i, j int) bool { return naturalLess(entries[i].name, entries[j].name) })
	} else {
		var names []string
		if err := json.Unmarshal(raw, &names); err != nil {
			return nil, fmt.Errorf("%s: group %q is neither an object of name: FEN nor a list of names", file, group)
		}
		var all map[string]string
		if err := json.Unmarshal(groups["all"], &all); err != nil {
			return nil, fmt.Errorf("%s: group %q lists names, but there is no \"all\" object of name: FEN to look them up in", file, group)
		}
		for _, n := range names {
			f, ok := all[n]
			if !ok {
				return nil, fmt.Errorf("%s: group %q: opening %q is not in group \"all\"", file, group, n)
			}
			entries = append(entries, entry{n, f})
		}
	}
	if len(entries) > maxOpenings {
		return nil, fmt.Errorf("%s: group %q has more than %d openings", file, group, maxOpenings)
	}
	ops := make([]Opening, 0, len(entries))
	where := func(name string) string {
		if n := lineOf(data, name); n > 0 {
			return fmt.Sprintf("%s:%d", file, n)
		}
		return file
	}
	for _, e := range entries {
		p, err := rules.ParseFEN(v, e.fen)
		if err != nil {
			return nil, fmt.Errorf("%s: group %q, opening %q: %w", where(e.name), group, e.name, err)
		}
		if err := playable(p); err != nil {
			return nil, fmt.Errorf("%s: group %q, opening %q: %w", where(e.name), group, e.name, err)
		}
		ops = append(ops, Opening{Name: e.name, FEN: p.FEN(), Position: p})
	}
	return ops, nil
}

// playable refuses start positions in which the game is already over, and
// those of a smaller board: an 8x8 position (every square numbered 1 to 32)
// reads as a valid but absurd position on a 10x10 board, so a position of
// at least 16 pieces none of which stands above square 32 is taken for a
// book of another variant. (On a 10x10 board White's men start on 31-50;
// a real opening always has men there.)
func playable(p rules.Position) error {
	v := p.Variant()
	if occ := p.Occupied(); v.Squares() > 32 && occ.Len() >= 16 {
		top := rules.Square(0)
		for sq := range occ.All() {
			top = max(top, sq)
		}
		if top <= 32 {
			return fmt.Errorf("no piece stands above square 32 of the %d: a position of an 8x8 board (a book of another variant?), not one of %s",
				v.Squares(), v.Name())
		}
	}
	if !p.HasMoves() {
		return fmt.Errorf("%s to move has no legal move: the game would be over before it starts", p.Turn().Name())
	}
	return nil
}

// lineOf is the line of data on which the JSON string s first appears
// (0 if it does not), for errors about a ballot's entries.
func lineOf(data []byte, s string) int {
	q, _ := json.Marshal(s)
	i := bytes.Index(data, q)
	if i < 0 {
		return 0
	}
	return 1 + bytes.Count(data[:i], []byte("\n"))
}

func fenList(data []byte, file string, v *rules.Variant) ([]Opening, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var ops []Opening
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "%") {
			continue
		}
		fen, name, _ := strings.Cut(text, ";")
		fen, name = strings.TrimSpace(fen), strings.TrimSpace(name)
		p, err := rules.ParseFEN(v, fen)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if err := playable(p); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if name == "" {
			name = fmt.Sprintf("line %d", line)
		}
		if len(ops) >= maxOpenings {
			return nil, fmt.Errorf("%s:%d: more than %d openings", file, line, maxOpenings)
		}
		ops = append(ops, Opening{Name: name, FEN: p.FEN(), Position: p})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", file, line+1, err)
	}
	return ops, nil
}

func pdnOpenings(data []byte, file string, v *rules.Variant, plies int) ([]Opening, error) {
	r := pdn.NewReader(bytes.NewReader(data), file)
	var ops []Opening
	for n := 1; ; n++ {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err // a *pdn.ParseError names file, line and game
		}
		rp, err := pdn.Replay(g, v)
		if err != nil {
			return nil, fmt.Errorf("%s: game %d (line %d): %w", file, n, g.Line, err)
		}
		p := rp.Final()
		if plies > 0 && plies < len(rp.Positions)-1 {
			p = rp.Positions[plies]
		}
		if err := playable(p); err != nil {
			return nil, fmt.Errorf("%s: game %d (line %d): %w", file, n, g.Line, err)
		}
		name := g.Tag("Opening")
		if name == "" {
			name = g.Tag("Event")
		}
		if name == "" || name == "?" {
			var mv []string
			for i, m := range g.Moves {
				if plies > 0 && i >= plies {
					break
				}
				mv = append(mv, m.Text)
			}
			name = fmt.Sprintf("game %d", n)
			if len(mv) > 0 {
				name += ": " + strings.Join(mv, " ")
			}
		}
		if len(ops) >= maxOpenings {
			return nil, fmt.Errorf("%s: game %d: more than %d openings", file, n, maxOpenings)
		}
		ops = append(ops, Opening{Name: name, FEN: p.FEN(), Position: p})
	}
	return ops, nil
}

// naturalLess orders strings with embedded numbers by value: "I-2" < "I-10".
// Strings that differ only in leading zeros fall back to byte order, so the
// order is total.
func naturalLess(a, b string) bool {
	if c := naturalCmp(a, b); c != 0 {
		return c < 0
	}
	return a < b
}

func naturalCmp(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) - len(nb)
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
