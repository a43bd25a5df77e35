package rules

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
)

// Seeds for the notation fuzzers, taken from real records (the PDN files of
// rules/pdn/testdata and the perft table).
var (
	fuzzFENs = []string{
		"W:W31-50:B1-20",
		"B:W21-32:B1-12",
		"W:W32,27,24,22:B20,15,10,7",
		"W:W29,25,21,18,15:B13,8,6,5,4.",
		"W:W31,24,K14:BK29,22,16.",
		"W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4.",
		ntAmbiguous,
		"W:Wc3,Ka1:Bd4,f6",
		"W:W47:B42,33,23,13",
		"B:W18,K24:BK3,12.",
		// RULES.md section 8: all 64 squares, Alquerque's 5x5 grid, state
		// beyond the board, lidraughts' H and F fields
		"W:W41-56:B9-24",
		"W:Wa2,b3,Kh1:Bc7,Kd8,e6",
		"W:W14-25:B1-12",
		"W:Wd3:Be4:RWd3/c3:RBe4/e5",
		"W:WK46,15:B1:KW46/3",
		"W:W31-50:B1-20:H0:F1",
		"W:W43-46,50-55,57-64:B1-8,10-15,19-22",
		"W:W21-28,P1,P2,P3,P4:B5-12,P29,P30,P31,P32",
		"W:WPd8,c1:Bc7,e7,h4",
		"W:Wa1,c1:Ba2,a4,b1",
	}
	fuzzMoves = []string{"32-28", "28x19", "47x38x24x13x36", "26x17x10x1", "c3-d4", "d4:b6", "c3:e5:g7",
		"10x26", "10x17x26", "11-15!?", "h4:f6", "7x16x23x32", "a3-a4", "c5xc1xa1xa3xf3", "c1-c3", "e5xe3", "64-56"}
	fuzzHub = []string{"10x26x14x22", "10x26x22x14", "32-28", "28x19x23", "47x36x42x33x23x13"}
)

// fuzzVariant picks a preset from a fuzzed number.
func fuzzVariant(n uint8) *Variant {
	names := Presets()
	return MustLookup(names[int(n)%len(names)])
}

// addPerftFENs seeds f with the FENs of the perft tables, when present.
func addPerftFENs(add func(fen string, variant uint8)) {
	for _, name := range []string{"testdata/perft.tsv", "testdata/perft-variants.tsv"} {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		names := Presets()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			cols := strings.Split(sc.Text(), "\t")
			if len(cols) < 3 || strings.HasPrefix(cols[0], "#") {
				continue
			}
			if i := slices.Index(names, cols[0]); i >= 0 {
				add(cols[2], uint8(i))
			}
		}
		f.Close()
	}
}

// FuzzParseFEN: no FEN may panic the reader, and every FEN it accepts must
// survive a write and read round trip and give moves that can be written.
func FuzzParseFEN(f *testing.F) {
	for i, fen := range fuzzFENs {
		f.Add(fen, uint8(i))
	}
	addPerftFENs(func(fen string, v uint8) { f.Add(fen, v) })
	f.Fuzz(func(t *testing.T, fen string, vn uint8) {
		v := fuzzVariant(vn)
		p, err := ParseFEN(v, fen)
		if err != nil {
			return
		}
		back, err := ParseFEN(v, p.FEN())
		if err != nil || back != p {
			t.Fatalf("%q -> %s -> %v, %v", fen, p.FEN(), back, err)
		}
		if back, err := ParseFEN(v, p.NumericFEN()); err != nil || back != p {
			t.Fatalf("%q -> %s -> %v, %v", fen, p.NumericFEN(), back, err)
		}
		for _, m := range p.LegalMoves() {
			if got, err := p.ParseMove(p.MoveText(m)); err != nil || !got.Same(m) {
				t.Fatalf("%s: %q reads back as %+v, %v", p.FEN(), p.MoveText(m), got, err)
			}
		}
	})
}

// FuzzParseFENGeneric is FuzzParseFEN on the generic generator's games
// only (algebraic names on all 64 squares, Alquerque's grid, the state
// fields), with a move played to check the state's round trip too.
func FuzzParseFENGeneric(f *testing.F) {
	var generic []*Variant
	for _, name := range Presets() {
		if v := MustLookup(name); v.grid {
			generic = append(generic, v)
		}
	}
	for i, fen := range fuzzFENs {
		f.Add(fen, uint8(i))
	}
	f.Fuzz(func(t *testing.T, fen string, vn uint8) {
		v := generic[int(vn)%len(generic)]
		p, err := ParseFEN(v, fen)
		if err != nil {
			return
		}
		qs := []Position{p}
		if ms := p.LegalMoves(); len(ms) > 0 {
			qs = append(qs, p.Play(ms[0]))
		}
		for _, q := range qs {
			back, err := ParseFEN(v, q.FEN())
			if err != nil || back != q {
				t.Fatalf("%s %q -> %s -> %v, %v", v.Name(), fen, q.FEN(), back.FEN(), err)
			}
			if back, err := ParseFEN(v, q.NumericFEN()); err != nil || back != q {
				t.Fatalf("%s %q -> %s -> %v, %v", v.Name(), fen, q.NumericFEN(), back.FEN(), err)
			}
			for _, m := range q.LegalMoves() {
				if got, err := q.ParseMove(q.MoveText(m)); err != nil || !got.Same(m) {
					t.Fatalf("%s %s: %q reads back as %+v, %v", v.Name(), q.FEN(), q.MoveText(m), got, err)
				}
			}
		}
	})
}

// fuzzMoveReader fuzzes a move-text reader on any text in any position read
// from a FEN: an accepted move must be legal, and the writer must give text
// that reads back to the same move.
func fuzzMoveReader(f *testing.F, seeds []string, read func(Position, string) (Move, error), write func(Position, Move) string) {
	for i, fen := range fuzzFENs {
		for _, m := range seeds {
			f.Add(fen, m, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, fen, text string, vn uint8) {
		v := fuzzVariant(vn)
		p, err := ParseFEN(v, fen)
		if err != nil {
			p = NewPosition(v)
		}
		m, err := read(p, text)
		if err != nil {
			return
		}
		if !slices.ContainsFunc(p.LegalMoves(), m.Same) {
			t.Fatalf("%s: %q gave %+v, not a legal move", p.FEN(), text, m)
		}
		back := write(p, m)
		if got, err := read(p, back); err != nil || !got.Same(m) {
			t.Fatalf("%s: %q -> %q -> %+v, %v", p.FEN(), text, back, got, err)
		}
		_ = p.Play(m).FEN()
	})
}

// FuzzParseMove: PDN move text (ParseMove / MoveText).
func FuzzParseMove(f *testing.F) {
	fuzzMoveReader(f, fuzzMoves, Position.ParseMove, Position.MoveText)
}

// FuzzParseHubMove: Hub move text (ParseHubMove / HubMove).
func FuzzParseHubMove(f *testing.F) {
	fuzzMoveReader(f, fuzzHub, Position.ParseHubMove, func(_ Position, m Move) string { return HubMove(m) })
}
