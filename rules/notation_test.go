package rules

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// ntAmbiguous is a position from a real game (Tricks, traps and shots, game
// 57) where 10x26 can take 14 and 22 (via 17) or 15 and 23 (via 19).
const ntAmbiguous = "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13"

func ntFEN(t testing.TB, variant, fen string) Position {
	t.Helper()
	p, err := ParseFEN(MustLookup(variant), fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseMove(t *testing.T) {
	tests := []struct {
		variant, fen, text string
		from, to           Square
		captured           []Square
		err                error
	}{
		{"english", "", "11-15", 11, 15, nil, nil},
		{"english", "", " 11-15!? ", 11, 15, nil, nil},
		{"english", "", "11-17", 0, 0, nil, ErrIllegal},
		{"english", "", "22-18", 0, 0, nil, ErrIllegal}, // white piece, black to move
		{"english", "", "11", 0, 0, nil, ErrSyntax},
		{"english", "", "11-", 0, 0, nil, ErrSyntax},
		{"english", "", "", 0, 0, nil, ErrSyntax},
		{"english", "", "33-29", 0, 0, nil, ErrSyntax}, // off the 32-square board
		{"english", "", "0-4", 0, 0, nil, ErrSyntax},
		{"english", "", "a-b", 0, 0, nil, ErrSyntax},
		{"english", ntAmbiguous, "10x26", 0, 0, nil, ErrAmbiguous},
		{"english", ntAmbiguous, "10x17x26", 10, 26, []Square{14, 22}, nil},
		{"english", ntAmbiguous, "10×17×26", 10, 26, []Square{14, 22}, nil},       // × (UTF-8) as in the PDN reader
		{"english", ntAmbiguous, "10\xd719\xd726", 10, 26, []Square{15, 23}, nil}, // × in Latin-1
		{"english", ntAmbiguous, "10×26", 0, 0, nil, ErrAmbiguous},
		{"english", ntAmbiguous, "10:19:26", 10, 26, []Square{15, 23}, nil},
		{"english", ntAmbiguous, "10x17", 0, 0, nil, ErrIllegal}, // 17 is a landing square, not the end
		{"english", ntAmbiguous, "10x18x26", 0, 0, nil, ErrIllegal},
		{"russian", "", "c3-d4", 22, 18, nil, nil},
		{"russian", "", "C3-D4", 22, 18, nil, nil},
		{"russian", "", "22-18", 22, 18, nil, nil},     // numbers are read in every variant
		{"russian", "", "c3-c4", 0, 0, nil, ErrSyntax}, // a light square
		{"russian", "", "c9-d8", 0, 0, nil, ErrSyntax},
		{"russian", "W:Wc3:Bd4,f6", "c3:e5", 0, 0, nil, ErrIllegal},        // must go on to g7
		{"russian", "W:Wc3:Bd4,f6", "c3:g7", 22, 8, []Square{18, 11}, nil}, // c3=22 d4=18 f6=11 g7=8
		{"russian", "W:Wc3:Bd4,f6", "c3:e5:g7", 22, 8, []Square{18, 11}, nil},
		// PDN 3.0 grammar: "In alpha-numeric moves the separator may be omitted, so a3b4 is allowed."
		{"russian", "", "c3d4", 22, 18, nil, nil},
		{"russian", "", "C3D4", 22, 18, nil, nil},
		{"russian", "W:Wc3:Bd4,f6", "c3g7", 22, 8, []Square{18, 11}, nil},
		{"russian", "W:Wc3:Bd4,f6", "c3e5g7", 22, 8, []Square{18, 11}, nil},
		{"russian", "", "c3", 0, 0, nil, ErrSyntax},
		{"russian", "", "c3d", 0, 0, nil, ErrSyntax},
		{"english", "", "1115", 0, 0, nil, ErrSyntax}, // numbers need their separator: 1115 could be 1-115 or 11-15
		{"international", "", "32-28", 32, 28, nil, nil},
		{"international", "W:W47:B42,33,23,13", "47x49", 0, 0, nil, ErrIllegal},
	}
	for _, tc := range tests {
		t.Run(tc.variant+" "+tc.fen+" "+tc.text, func(t *testing.T) {
			p := NewPosition(MustLookup(tc.variant))
			if tc.fen != "" {
				p = ntFEN(t, tc.variant, tc.fen)
			}
			m, err := p.ParseMove(tc.text)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %+v, %v; want %v", m, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.From != tc.from || m.To != tc.to || m.Captured != SetOf(tc.captured...) {
				t.Errorf("got %d-%d capturing %v", m.From, m.To, m.Captured.Squares())
			}
			if !slices.ContainsFunc(p.LegalMoves(), m.Same) {
				t.Errorf("%+v is not a legal move", m)
			}
		})
	}
}

func TestMoveTextForms(t *testing.T) {
	p := ntFEN(t, "english", ntAmbiguous)
	var texts, longs, hubs []string
	for _, m := range p.LegalMoves() {
		texts = append(texts, p.MoveText(m))
		longs = append(longs, p.LongMoveText(m))
		hubs = append(hubs, HubMove(m))
	}
	slices.Sort(texts)
	slices.Sort(longs)
	slices.Sort(hubs)
	if got := strings.Join(texts, " "); got != "10x17x26 10x19x26" {
		t.Errorf("MoveText: %s (ambiguous captures need the long form)", got)
	}
	if got := strings.Join(longs, " "); got != "10x17x26 10x19x26" {
		t.Errorf("LongMoveText: %s", got)
	}
	if got := strings.Join(hubs, " "); got != "10x26x14x22 10x26x15x23" {
		t.Errorf("HubMove: %s", got)
	}
	// An unambiguous capture is written short, a plain move with '-'.
	q := ntFEN(t, "international", "W:W47:B42,33,23,13")
	ms := q.LegalMoves()
	if len(ms) != 1 || q.MoveText(ms[0]) != "47x9" || q.LongMoveText(ms[0]) != "47x38x29x18x9" {
		t.Errorf("international capture: %d moves, %q / %q", len(ms), q.MoveText(ms[0]), q.LongMoveText(ms[0]))
	}
	r := NewPosition(MustLookup("russian"))
	if m, _ := r.ParseMove("c3-d4"); r.MoveText(m) != "c3-d4" || HubMove(m) != "22-18" {
		t.Errorf("russian text %q hub %q", r.MoveText(m), HubMove(m))
	}
	rc := ntFEN(t, "russian", "W:Wc3:Bd4,f6")
	if m, _ := rc.ParseMove("c3:g7"); rc.MoveText(m) != "c3:g7" || rc.LongMoveText(m) != "c3:e5:g7" {
		t.Errorf("russian capture %q / %q", rc.MoveText(m), rc.LongMoveText(m))
	}
}

func TestParseHubMove(t *testing.T) {
	p := ntFEN(t, "english", ntAmbiguous)
	tests := []struct {
		text     string
		captured []Square
		err      error
	}{
		{"10x26x14x22", []Square{14, 22}, nil},
		{"10x26x22x14", []Square{14, 22}, nil}, // any order
		{"10×26×22×14", []Square{14, 22}, nil},
		{"10x26x23x15", []Square{15, 23}, nil},
		{"10x26x14x23", nil, ErrIllegal},
		{"10x26x14x14", nil, ErrSyntax},
		{"10x26", nil, ErrAmbiguous}, // without its captured squares: two captures fit
		{"10x19", nil, ErrIllegal},
		{"10-26x14", nil, ErrIllegal},
		{"10-14-18", nil, ErrSyntax},
		{"10x33x14", nil, ErrSyntax},
		{"c3-d4", nil, ErrSyntax}, // Hub squares are numbers
		{"", nil, ErrSyntax},
	}
	for _, tc := range tests {
		m, err := p.ParseHubMove(tc.text)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%q: got %+v, %v; want %v", tc.text, m, err, tc.err)
			}
			continue
		}
		if err != nil || m.Captured != SetOf(tc.captured...) {
			t.Errorf("%q: got %v, %v", tc.text, m.Captured.Squares(), err)
		}
	}
}

// A Hub capture written without its captured squares is accepted when only
// one legal capture goes from there to there.
func TestParseHubMoveShortCapture(t *testing.T) {
	p := ntFEN(t, "english", "B:W14,15,22:B6,10")
	for text, want := range map[string]Set{"10x19": SetOf(15), "10x26": SetOf(14, 22)} {
		m, err := p.ParseHubMove(text)
		if err != nil || m.Captured != want {
			t.Errorf("%s: got %v, %v; want %v", text, m.Captured.Squares(), err, want.Squares())
		}
	}
	if _, err := p.ParseHubMove("6x15"); !errors.Is(err, ErrIllegal) {
		t.Errorf("6x15 (no such capture): %v, want ErrIllegal", err)
	}
}

func TestFindDXPMove(t *testing.T) {
	p := ntFEN(t, "english", ntAmbiguous)
	if m, err := p.FindDXPMove(10, 26, []int{22, 14}); err != nil || m.Captured != SetOf(14, 22) {
		t.Errorf("got %v, %v", m.Captured.Squares(), err)
	}
	for _, tc := range []struct {
		from, to int
		captured []int
		err      error
	}{
		{10, 26, []int{14}, ErrIllegal},
		{10, 26, []int{14, 14}, ErrSyntax},
		{0, 26, nil, ErrSyntax},
		{10, 33, nil, ErrSyntax},
		{10, 26, []int{-1}, ErrSyntax},
	} {
		if _, err := p.FindDXPMove(tc.from, tc.to, tc.captured); !errors.Is(err, tc.err) {
			t.Errorf("%d-%d %v: %v, want %v", tc.from, tc.to, tc.captured, err, tc.err)
		}
	}
	from, to, captured := DXPMove(p.LegalMoves()[0])
	if from != 10 || to != 26 || len(captured) != 2 {
		t.Errorf("DXPMove: %d %d %v", from, to, captured)
	}
}

// ntPlayout plays a random game of up to plies moves from the start of v
// and calls visit on every position reached, the start included.
func ntPlayout(v *Variant, seed uint64, plies int, visit func(p Position)) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	p := NewPosition(v)
	for i := 0; ; i++ {
		visit(p)
		ms := p.LegalMoves()
		if len(ms) == 0 || i == plies {
			return
		}
		p = p.Play(ms[rng.IntN(len(ms))])
	}
}

// ntRandomPosition scatters men and kings of both sides over the board,
// for positions a playout rarely reaches (many kings, long captures).
func ntRandomPosition(v *Variant, rng *rand.Rand) Position {
	var white, black, kings Set
	for sq := Square(1); int(sq) <= v.Squares(); sq++ {
		switch x := rng.IntN(10); {
		case x < 2:
			white = white.With(sq)
		case x < 4:
			black = black.With(sq)
		default:
			continue
		}
		// a man on its own king row is no position (ParseFEN refuses it)
		if rng.IntN(3) == 0 || white.Has(sq) && v.promotes(White, sq) || black.Has(sq) && v.promotes(Black, sq) {
			kings = kings.With(sq)
		}
	}
	return Setup(v, Color(rng.IntN(2)), white, black, kings)
}

// ntCheckNotation checks every notation round trip in p.
func ntCheckNotation(t *testing.T, p Position) {
	t.Helper()
	v := p.Variant()
	back, err := ParseFEN(v, p.FEN())
	if err != nil || back != p {
		t.Fatalf("%s: FEN round trip gives %v, %v", p.FEN(), back, err)
	}
	if back, err := ParseFEN(v, p.NumericFEN()); err != nil || back != p {
		t.Fatalf("%s: numeric FEN round trip gives %v, %v", p.NumericFEN(), back, err)
	}
	moves := p.LegalMoves()
	for _, m := range moves {
		text := p.MoveText(m)
		got, err := p.ParseMove(text)
		if err != nil || !got.Same(m) {
			t.Fatalf("%s: MoveText %q reads back as %+v, %v; want %+v", p.FEN(), text, got, err, m)
		}
		short := 0
		for _, o := range moves {
			if o.From == m.From && o.To == m.To {
				short++
			}
		}
		if parts := len(strings.FieldsFunc(text, func(r rune) bool { return r == '-' || r == 'x' || r == ':' })); short == 1 && parts != 2 {
			t.Fatalf("%s: %q is long though no other move shares its squares", p.FEN(), text)
		}
		hub := HubMove(m)
		if got, err := p.ParseHubMove(hub); err != nil || !got.Same(m) {
			t.Fatalf("%s: HubMove %q reads back as %+v, %v", p.FEN(), hub, got, err)
		}
		from, to, captured := DXPMove(m)
		rng := rand.New(rand.NewPCG(uint64(from), uint64(to)))
		rng.Shuffle(len(captured), func(i, j int) { captured[i], captured[j] = captured[j], captured[i] })
		if got, err := p.FindDXPMove(from, to, captured); err != nil || !got.Same(m) {
			t.Fatalf("%s: DXP %d %d %v reads back as %+v, %v", p.FEN(), from, to, captured, got, err)
		}
	}
	for _, m := range p.LegalPaths() {
		long := p.LongMoveText(m)
		got, err := p.ParseMove(long)
		if err != nil || !got.Same(m) || !slices.Equal(got.Path, m.Path) {
			t.Fatalf("%s: LongMoveText %q reads back as %+v, %v; want %+v", p.FEN(), long, got, err, m)
		}
	}
}

// TestNotationRoundTripPlayouts: in random games of every preset, every
// position survives FEN and every legal move survives each notation.
func TestNotationRoundTripPlayouts(t *testing.T) {
	for _, name := range Presets() {
		v := MustLookup(name)
		t.Run(name, func(t *testing.T) {
			positions := 0
			for seed := uint64(1); seed <= 6; seed++ {
				ntPlayout(v, seed, 40, func(p Position) {
					positions++
					ntCheckNotation(t, p)
				})
			}
			if positions < 60 {
				t.Errorf("only %d positions visited", positions)
			}
		})
	}
}

// TestNotationRoundTripRandomPositions does the same on scattered positions
// with many kings, where captures are long and often ambiguous.
func TestNotationRoundTripRandomPositions(t *testing.T) {
	for _, name := range Presets() {
		v := MustLookup(name)
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			for i := 0; i < 60; i++ {
				ntCheckNotation(t, ntRandomPosition(v, rng))
			}
		})
	}
}

// TestMatchMoves: every legal move a text could mean, read as ParseMove
// reads it (the PDN replay settles ambiguous short forms with it).
func TestMatchMoves(t *testing.T) {
	p := ntFEN(t, "english", ntAmbiguous)
	for _, tc := range []struct {
		text string
		n    int
	}{{"10x26", 2}, {"10×26", 2}, {"10x17x26", 1}, {"10:19:26!", 1}, {"10x17", 0}, {"10-14", 0}} {
		ms, err := p.MatchMoves(tc.text)
		if err != nil || len(ms) != tc.n {
			t.Errorf("%q: %d moves, %v; want %d", tc.text, len(ms), err, tc.n)
		}
		for _, m := range ms {
			if !slices.ContainsFunc(p.LegalMoves(), m.Same) {
				t.Errorf("%q: %+v is not legal", tc.text, m)
			}
		}
	}
	if _, err := p.MatchMoves("10x"); !errors.Is(err, ErrSyntax) {
		t.Errorf("10x: %v, want a syntax error", err)
	}
}

// A long form listing a move's whole path reads as that move, though its
// squares also lie in order on a longer capture's path.
func TestLongFormWholePath(t *testing.T) {
	p := ntFEN(t, "czech", "W:WKe3:Bb6,d4,d6,f6,f4")
	a7, _ := p.Variant().ParseSquare("a7")
	toA7 := 0
	for _, m := range p.LegalMoves() {
		if m.To == a7 {
			toA7++
		}
		if m.From == m.To {
			continue
		}
		text := p.MoveText(m)
		got, err := p.ParseMove(text)
		if err != nil || !got.Same(m) {
			t.Errorf("%s reads back as %v, %v", text, got, err)
		}
	}
	if toA7 != 2 {
		t.Errorf("%d captures end on a7, want 2 (e3:c5:a7 and e3:g5:e7:c5:a7)", toA7)
	}
	if _, err := p.ParseMove("e3:c5:a7"); err != nil {
		t.Errorf("e3:c5:a7: %v", err)
	}
}
