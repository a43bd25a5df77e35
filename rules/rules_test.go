package rules

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ruleCase is one row of testdata/rule-cases.md.
type ruleCase struct {
	variant string
	line    int
	fen     string
	moves   string // the expected legal moves, as written
	rule    string
}

var presetRe = regexp.MustCompile("preset `([a-z]+)`")

// readRuleCases parses the markdown tables of rule-cases.md: a "## ..." heading
// names the preset, each table row holds a FEN, the legal moves and the rule.
func readRuleCases(t *testing.T) []ruleCase {
	t.Helper()
	f, err := os.Open("testdata/rule-cases.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []ruleCase
	variant := ""
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(text, "## ") {
			m := presetRe.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("rule-cases.md:%d: heading names no preset: %q", line, text)
			}
			variant = m[1]
			continue
		}
		if !strings.HasPrefix(text, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(text, "|"), "|")
		if len(cells) != 3 {
			t.Fatalf("rule-cases.md:%d: want 3 cells, got %d", line, len(cells))
		}
		if variant == "" {
			t.Fatalf("rule-cases.md:%d: table row before any preset heading", line)
		}
		cases = append(cases, ruleCase{
			variant: variant, line: line,
			fen:   strings.Trim(strings.TrimSpace(cells[0]), "`"),
			moves: strings.TrimSpace(cells[1]),
			rule:  strings.TrimSpace(cells[2]),
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// moveSpec is one expected move: its squares as written (from, [landings...,] to).
type moveSpec struct {
	text string
	sqs  []Square
}

// matches reports whether m is the move the spec describes: same from and
// to, and, for a long form, exactly the landing squares written.
func (s moveSpec) matches(m Move) bool {
	if m.From != s.sqs[0] || m.To != s.sqs[len(s.sqs)-1] {
		return false
	}
	sep := strings.ContainsAny(s.text, "x:")
	if sep != m.IsCapture() {
		return false
	}
	if len(s.sqs) > 2 {
		return slices.Equal(m.Path, s.sqs[1:])
	}
	return true
}

func parseSpecs(v *Variant, list string) ([]moveSpec, error) {
	list = strings.TrimSuffix(strings.TrimSpace(list), " only")
	var specs []moveSpec
	for _, text := range strings.Split(list, ",") {
		text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), " only"))
		parts := strings.FieldsFunc(text, func(r rune) bool { return r == '-' || r == 'x' || r == ':' })
		if len(parts) < 2 {
			return nil, fmt.Errorf("move %q: want at least two squares", text)
		}
		spec := moveSpec{text: text}
		for _, p := range parts {
			sq, err := v.ParseSquare(p)
			if err != nil {
				return nil, fmt.Errorf("move %q: %w", text, err)
			}
			spec.sqs = append(spec.sqs, sq)
		}
		specs = append(specs, spec)
	}
	return specs, nil
}

var countedRe = regexp.MustCompile(`^(\d+) moves: ending on (.*)$`)

// TestRuleCases checks every position of rule-cases.md: the legal moves of
// both generators are exactly the listed ones (one legal move per listed move,
// and nothing else).
func TestRuleCases(t *testing.T) {
	cases := readRuleCases(t)
	if len(cases) < 20 {
		t.Fatalf("only %d rule cases parsed", len(cases))
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/line%d", c.variant, c.line), func(t *testing.T) {
			v := MustLookup(c.variant)
			p, err := ParseFEN(v, c.fen)
			if err != nil {
				t.Fatalf("%s: %v", c.rule, err)
			}
			fast, ref := p.LegalMoves(), p.referenceMoves(false)
			if !sameMoves(fast, ref) {
				t.Errorf("%s: bitboard %s, reference %s", c.fen, movesString(&p, fast), movesString(&p, ref))
			}
			if m := countedRe.FindStringSubmatch(c.moves); m != nil {
				checkCounted(t, &p, c, m[1], m[2])
				return
			}
			specs, err := parseSpecs(v, c.moves)
			if err != nil {
				t.Fatalf("line %d: %v", c.line, err)
			}
			for name, moves := range map[string][]Move{"bitboard": fast, "reference": ref} {
				if len(moves) != len(specs) {
					t.Errorf("%s (%s): %s gives %d moves %s, want %d: %s", c.fen, c.rule, name, len(moves), movesString(&p, moves), len(specs), c.moves)
					continue
				}
				used := make([]bool, len(moves))
				for _, s := range specs {
					found := -1
					for i, m := range moves {
						if !used[i] && s.matches(m) {
							found = i
							break
						}
					}
					if found < 0 {
						t.Errorf("%s (%s): %s has no move %s among %s", c.fen, c.rule, name, s.text, movesString(&p, moves))
						continue
					}
					used[found] = true
					if r := strings.ToLower(c.rule); (strings.Contains(r, "promot") || strings.Contains(r, "crown")) && !moves[found].Promotes {
						t.Errorf("%s (%s): %s: move %s does not promote", c.fen, c.rule, name, s.text)
					}
				}
			}
		})
	}
}

// checkCounted handles a row written "N moves: ending on A (...), B, C": N
// moves by identity, ending on exactly those squares, more paths than moves.
func checkCounted(t *testing.T, p *Position, c ruleCase, n, ends string) {
	want, _ := strconv.Atoi(n)
	var wantTo []Square
	for _, f := range strings.Split(regexp.MustCompile(`\(.*?\)`).ReplaceAllString(ends, ""), ",") {
		sq, err := p.Variant().ParseSquare(strings.TrimSpace(f))
		if err != nil {
			t.Fatalf("line %d: %v", c.line, err)
		}
		wantTo = append(wantTo, sq)
	}
	slices.Sort(wantTo)
	for name, moves := range map[string][]Move{"bitboard": p.LegalMoves(), "reference": p.referenceMoves(false)} {
		var to []Square
		for _, m := range moves {
			to = append(to, m.To)
		}
		slices.Sort(to)
		if len(moves) != want || !slices.Equal(to, wantTo) {
			t.Errorf("%s (%s): %s gives %s, want %d moves ending on %v", c.fen, c.rule, name, movesString(p, moves), want, wantTo)
		}
	}
	if paths := p.LegalPaths(); len(paths) <= want {
		t.Errorf("%s: %d paths, want more than the %d moves (two paths share an identity)", c.fen, len(paths), want)
	}
}

// moveKey is a comparable form of a move with its path and promotion.
func moveKey(m Move) string {
	return fmt.Sprintf("%d-%d%v%v%v", m.From, m.To, m.Captured.Squares(), m.Path, m.Promotes)
}

// sameMoves reports whether a and b hold the same moves (identity, path and
// promotion), in any order.
func sameMoves(a, b []Move) bool {
	if len(a) != len(b) {
		return false
	}
	ka, kb := make([]string, len(a)), make([]string, len(b))
	for i := range a {
		ka[i], kb[i] = moveKey(a[i]), moveKey(b[i])
	}
	slices.Sort(ka)
	slices.Sort(kb)
	return slices.Equal(ka, kb)
}

func movesString(p *Position, ms []Move) string {
	var s []string
	for _, m := range ms {
		s = append(s, p.LongMoveText(m))
	}
	slices.Sort(s)
	return "[" + strings.Join(s, " ") + "]"
}

// TestValidateErrors: a custom variant with parameters out of range gets an
// error from Validate, never a variant that panics or hangs later.
func TestValidateErrors(t *testing.T) {
	ok := Params{Name: "house", Board: Board{8, 8, false}, RowsOfMen: 3}
	tests := []struct {
		name string
		edit func(v *Params)
		msg  string
	}{
		{"odd width", func(v *Params) { v.Board.Width = 7 }, "unsupported board 7x8"},
		{"too many squares", func(v *Params) { v.Board = Board{18, 16, false} }, "unsupported board 18x16"},
		// 4 * 2^62 overflows to 0 squares
		{"huge height", func(v *Params) { v.Board.Width, v.Board.Height = 4, 1<<62 }, "unsupported board"},
		{"huge both", func(v *Params) { v.Board.Width, v.Board.Height = 1<<32, 1<<32 }, "unsupported board"},
		{"no rows", func(v *Params) { v.RowsOfMen = 0 }, "0 rows of men"},
		{"rows meet", func(v *Params) { v.RowsOfMen = 4 }, "4 rows of men"},
		// 2 * 2^62 overflows negative
		{"huge rows", func(v *Params) { v.RowsOfMen = 1 << 62 }, "rows of men do not fit"},
		{"kings", func(v *Params) { v.Kings = 9 }, "parameter out of range"},
		{"notation", func(v *Params) { v.Notation = 2 }, "notation out of range"},
		{"algebraic too wide", func(v *Params) { v.Board = Board{24, 4, false}; v.RowsOfMen = 1; v.Notation = Algebraic }, "at most 22 wide"},
		{"negative move rule", func(v *Params) { v.Draws.MoveRule = -40 }, "negative move rule -40"},
		// RULES.md section 8's parameters
		{"heading", func(v *Params) { v.Forward[Black] = 7 }, "heading out of range"},
		{"promotion square off the board", func(v *Params) { v.PromotionSquares[White] = SetOf(40) }, "promotion square 40 is off the board"},
		{"layout", func(v *Params) { v.Layout = 9 }, "layout 9 out of range"},
		{"grid of 100 squares", func(v *Params) { v.Layout, v.Board = AllSquares, Board{10, 10, false} }, "at most 64 squares"},
		{"generic board of 100 dark squares", func(v *Params) {
			v.Board, v.RowsOfMen, v.Board.Width = Board{20, 10, false}, 4, 20
			v.RemoveAtOnce = true
		}, "at most 64 squares"},
		{"italian order on the generic generator", func(v *Params) { v.RemoveAtOnce, v.Precedence = true, ItalianOrder }, "Italian precedence"},
		{"precedence", func(v *Params) { v.Precedence = 9 }, "parameter out of range"},
		{"bad start", func(v *Params) { v.Start = "W:W99" }, "start position"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := ok
			tc.edit(&v)
			err := v.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("Validate = %v, want an error with %q", err, tc.msg)
			}
		})
	}
	if _, err := NewVariant(ok); err != nil {
		t.Fatal(err)
	}
	wide, err := NewVariant(Params{Name: "wide", Board: Board{22, 10, false}, RowsOfMen: 4, Notation: Algebraic})
	if err != nil {
		t.Fatal(err)
	}
	// Every square of the widest algebraic board is written and read back.
	for sq := Square(1); int(sq) <= wide.Squares(); sq++ {
		if back, err := wide.ParseSquare(wide.SquareName(sq)); err != nil || back != sq {
			t.Fatalf("%d -> %s -> %d, %v", sq, wide.SquareName(sq), back, err)
		}
	}
}

// TestVariantImmutable: what Lookup hands out cannot be changed under
// another caller. Params returns a copy; building a variant from a changed
// copy gives a new variant and leaves the preset alone. Equal parameters give
// the same variant (identity by parameters, not by who built it).
func TestVariantImmutable(t *testing.T) {
	a := MustLookup("english")
	p := a.Params()
	p.Kings, p.Board.Width, p.Draws.MoveRule, p.Losing = FlyingKings, 10, 3, true
	if _, err := NewVariant(p); err != nil {
		t.Fatal(err)
	}
	b := MustLookup("checkers")
	if b != a {
		t.Fatalf("Lookup(checkers) = %p, Lookup(english) = %p: one preset, two variants", b, a)
	}
	if b.Kings() != ShortKings || b.Board().Width != 8 || b.Draws().MoveRule != 40 || b.Losing() {
		t.Fatalf("english after another caller changed its copy: kings %d, width %d, move rule %d, losing %v",
			b.Kings(), b.Board().Width, b.Draws().MoveRule, b.Losing())
	}
	if got := NewPosition(b).FEN(); got != NewPosition(MustLookup("english")).FEN() {
		t.Fatalf("start position changed: %s", got)
	}

	// Rebuilt from its own parameters, a preset is the preset.
	same, err := NewVariant(a.Params())
	if err != nil {
		t.Fatal(err)
	}
	if same != a || !same.Equal(a) {
		t.Errorf("NewVariant(english's params) is another variant")
	}
	renamed := a.Params()
	renamed.Name = "house"
	h, err := NewVariant(renamed)
	if err != nil {
		t.Fatal(err)
	}
	if h == a || h.Equal(a) || h.Name() != "house" || a.Name() != "english" {
		t.Errorf("a renamed copy: %q equal=%v, english now %q", h.Name(), h.Equal(a), a.Name())
	}
	if NewPosition(h) == NewPosition(a) {
		t.Errorf("positions of two variants compare equal")
	}
	if _, err := NewVariant(Params{Name: "bad", Board: Board{7, 8, false}, RowsOfMen: 3}); err == nil {
		t.Errorf("NewVariant accepted a 7x8 board")
	}
}
