package swiss

import (
	"errors"
	"fmt"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// TestFloats: C.04.3 (2025) 1.4.2 gives floats only to two players who
// played each other; 1.4.3 a downfloat to who scored more than a loss
// without playing. A forfeit's loser gets no float; its winner a downfloat,
// whatever the two scores were.
func TestFloats(t *testing.T) {
	w := func(opp int, c tally.Color, r tally.Result) tally.Entry {
		return tally.Entry{Opponent: opp, Color: c, Result: r}
	}
	// Round 1: 1 beats 3, 2 beats 4 (1 and 2 lead with 1 point).
	// Round 2: 1 (1 pt) meets 4 (0 pts) with the result of the case.
	tests := []struct {
		name     string
		r2for1   tally.Entry
		r2for4   tally.Entry
		want1    floatDir
		want4    floatDir
		wantBack floatDir // player 1, two rounds back (round 1: equal scores)
	}{
		{"played win", w(4, tally.White, tally.Win), w(1, tally.Black, tally.Loss), floatDown, floatUp, floatNone},
		{"played loss", w(4, tally.White, tally.Loss), w(1, tally.Black, tally.Win), floatDown, floatUp, floatNone},
		{"forfeit win for the higher", w(4, tally.White, tally.ForfeitWin), w(1, tally.Black, tally.ForfeitLoss), floatDown, floatNone, floatNone},
		{"forfeit win for the lower", w(4, tally.White, tally.ForfeitLoss), w(1, tally.Black, tally.ForfeitWin), floatNone, floatDown, floatNone},
		{"double forfeit", w(4, tally.White, tally.ForfeitLoss), w(1, tally.Black, tally.ForfeitLoss), floatNone, floatNone, floatNone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := newField(4)
			ps[0].History = []tally.Entry{w(3, tally.White, tally.Win), tc.r2for1}
			ps[1].History = []tally.Entry{w(4, tally.Black, tally.Win), w(3, tally.Black, tally.Draw)}
			ps[2].History = []tally.Entry{w(1, tally.Black, tally.Loss), w(2, tally.White, tally.Draw)}
			ps[3].History = []tally.Entry{w(2, tally.White, tally.Loss), tc.r2for4}
			ev, err := newEvent(ps, Options{Rounds: 5})
			if err != nil {
				t.Fatal(err)
			}
			s1, s4 := ev.byNumber[1], ev.byNumber[4]
			if s1.float[1] != tc.want1 || s4.float[1] != tc.want4 {
				t.Errorf("last round: player 1 float %d, player 4 float %d; want %d and %d (0 none, 1 down, 2 up)", s1.float[1], s4.float[1], tc.want1, tc.want4)
			}
			if s1.float[2] != tc.wantBack {
				t.Errorf("two rounds back: player 1 float %d, want %d", s1.float[2], tc.wantBack)
			}
		})
	}
	// A requested bye scoring a half point is a downfloat (1.4.3), a zero
	// bye none.
	for _, tc := range []struct {
		res  tally.Result
		want floatDir
	}{{tally.HalfBye, floatDown}, {tally.FullBye, floatDown}, {tally.PairingBye, floatDown}, {tally.ZeroBye, floatNone}} {
		ps := newField(2)
		ps[0].History = []tally.Entry{{Result: tc.res}}
		ps[1].History = []tally.Entry{{Result: tally.ZeroBye}}
		ev, err := newEvent(ps, Options{Rounds: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got := ev.byNumber[1].float[1]; got != tc.want {
			t.Errorf("bye %q: float %d, want %d", tc.res, got, tc.want)
		}
	}
}

// TestInferFirstColor: without a stated first colour, it is read from the
// first round with a colour, as bbpPairings reads it.
func TestInferFirstColor(t *testing.T) {
	g := func(opp int, c tally.Color) tally.Entry {
		return tally.Entry{Opponent: opp, Color: c, Result: tally.Draw}
	}
	bye := tally.Entry{Result: tally.ZeroBye}
	pab := tally.Entry{Result: tally.PairingBye}
	tests := []struct {
		name string
		hist [][]tally.Entry // per player, by pairing number
		want tally.Color
	}{
		{"no history", [][]tally.Entry{nil, nil}, tally.NoColor},
		{"only byes", [][]tally.Entry{{pab}, {bye}}, tally.NoColor},
		{"top seed white", [][]tally.Entry{{g(2, tally.White)}, {g(1, tally.Black)}}, tally.White},
		{"top seed black", [][]tally.Entry{{g(2, tally.Black)}, {g(1, tally.White)}}, tally.Black},
		// The top seed had the PAB: the second participant's colour, reversed.
		{"top seed had the PAB", [][]tally.Entry{{pab}, {g(3, tally.White)}, {g(2, tally.Black)}}, tally.Black},
		// The top seed was absent (did not take part): the next one counts as first.
		{"top seed absent", [][]tally.Entry{{bye}, {g(3, tally.Black)}, {g(2, tally.White)}}, tally.Black},
		// No colour in round 1 (all forfeits without colour): round 2 decides.
		{"first colours in round 2", [][]tally.Entry{
			{{Opponent: 2, Result: tally.ForfeitWin}, g(3, tally.Black)},
			{{Opponent: 1, Result: tally.ForfeitLoss}, g(4, tally.White)},
			{{Opponent: 4, Result: tally.ForfeitWin}, g(1, tally.White)},
			{{Opponent: 3, Result: tally.ForfeitLoss}, g(2, tally.Black)},
		}, tally.Black},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ps []*tally.Player
			for i, h := range tc.hist {
				ps = append(ps, &tally.Player{Number: i + 1, History: h})
			}
			if got := InferFirstColor(ps); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPairInfersFirstColor: two players with no colour history (their only
// rounds were forfeits) get the colours the file's round 1 implies.
func TestPairInfersFirstColor(t *testing.T) {
	ff := func(opp int, c tally.Color, r tally.Result) tally.Entry {
		return tally.Entry{Opponent: opp, Color: c, Result: r}
	}
	for _, first := range []tally.Color{tally.White, tally.Black} {
		// Round 1 as the first colour `first` pairs it: 1 has `first`
		// against 3, 2 has the other against 4; all four games forfeited,
		// so nobody has a colour preference in round 2.
		ps := newField(4)
		ps[0].History = []tally.Entry{ff(3, first, tally.ForfeitLoss)}
		ps[1].History = []tally.Entry{ff(4, other(first), tally.ForfeitLoss)}
		ps[2].History = []tally.Entry{ff(1, other(first), tally.ForfeitLoss)}
		ps[3].History = []tally.Entry{ff(2, first, tally.ForfeitLoss)}
		r, err := Pair(ps, Options{Rounds: 3})
		if err != nil {
			t.Fatal(err)
		}
		// All on 0 points: 1-3 and 2-4 met only by forfeit, so the
		// natural pairing 1-3, 2-4 again; the top board's higher player
		// (1) gets the initial colour.
		top := r.Boards[0]
		got := tally.Black
		if top.White == 1 {
			got = tally.White
		}
		if got != first {
			t.Errorf("round 1 had %v for player 1: round 2 gives player 1 %v (%v), want %v", first, got, r.Boards, first)
		}
	}
}

// TestByeWithoutEligiblePlayer: C.04.1 (2025) art. 4 bars from the
// pairing-allocated bye a player who had it or who scored a win's points
// in one round without playing, and C.04.3 (2025) C.2 makes that an
// absolute criterion. When the number to pair is odd and nobody eligible
// can be left over, no pairing satisfies the absolute criteria: Pair
// returns ErrNoPairing (bbpPairings 6 exits 1, "no valid pairing", on the
// same state) and the director pairs the round by hand.
func TestByeWithoutEligiblePlayer(t *testing.T) {
	fw := tally.Entry{Opponent: 2, Result: tally.ForfeitWin}
	fl := tally.Entry{Opponent: 1, Result: tally.ForfeitLoss}
	dff := func(opp int) tally.Entry { return tally.Entry{Opponent: opp, Result: tally.ForfeitLoss} }
	pab := tally.Entry{Result: tally.PairingBye}
	tests := []struct {
		name    string
		round2  tally.Result // player 2's requested bye in round 2
		wantBye int          // 0: ErrNoPairing
	}{
		// 1 won by forfeit, 2 had a full-point bye, 3 the PAB.
		{"nobody eligible", tally.FullBye, 0},
		// 2's half-point bye leaves it eligible: 2 gets the PAB and 1-3,
		// who met only by a double forfeit, may be paired.
		{"one eligible", tally.HalfBye, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := newField(3)
			ps[0].History = []tally.Entry{fw, dff(3)}
			ps[1].History = []tally.Entry{fl, {Result: tc.round2}}
			ps[2].History = []tally.Entry{pab, dff(1)}
			r, err := Pair(ps, Options{Rounds: 4})
			if tc.wantBye == 0 {
				if !errors.Is(err, ErrNoPairing) {
					t.Fatalf("got %v, %v; want ErrNoPairing", r, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Bye != tc.wantBye || len(r.Boards) != 1 {
				t.Fatalf("got %v; want one board and the bye to %d", r, tc.wantBye)
			}
		})
	}
}

// TestForbidden: a forbidden pair (TRF XXP/260) is never paired, and the
// rest of the round pairs as the rules ask around it.
func TestForbidden(t *testing.T) {
	tests := []struct {
		forbidden [][]int
		want      []Board
	}{
		{nil, []Board{{1, 3}, {4, 2}}},
		{[][]int{{1, 3}}, []Board{{1, 4}, {3, 2}}},
		{[][]int{{1, 3}, {2, 4}}, []Board{{1, 4}, {3, 2}}},
		{[][]int{{1, 3, 4}, {2, 4}}, nil}, // 1 may meet only 2, and 3-4 is forbidden
	}
	for _, tc := range tests {
		r, err := Pair(newField(4), Options{Rounds: 3, FirstColor: tally.White, Forbidden: tc.forbidden})
		if tc.want == nil {
			if !errors.Is(err, ErrNoPairing) {
				t.Errorf("forbidden %v: got %v, %v; want ErrNoPairing", tc.forbidden, r, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(r.Boards) != fmt.Sprint(tc.want) {
			t.Errorf("forbidden %v: got %v, want %v", tc.forbidden, r.Boards, tc.want)
		}
	}
	if _, err := Pair(newField(2), Options{Forbidden: [][]int{{1, 2}}}); !errors.Is(err, ErrNoPairing) {
		t.Errorf("the only pair forbidden: got %v, want ErrNoPairing", err)
	}
}

// TestAcceleration: given accelerations replace Baku; a player with
// virtual points pairs in the higher group.
func TestAcceleration(t *testing.T) {
	// Without acceleration round 1 pairs 1-3, 2-4. With one virtual point
	// for 3 and 4 in round 1, they are the top group: 3-4, and 1-2 below
	// (printed first: boards go by the score without acceleration, C.04.2).
	r, err := Pair(newField(4), Options{Rounds: 3, FirstColor: tally.White, Acceleration: map[int][]int{3: {2}, 4: {2}}})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.Boards) != fmt.Sprint([]Board{{1, 2}, {3, 4}}) {
		t.Errorf("got %v, want [{1 2} {3 4}]", r.Boards)
	}
}
