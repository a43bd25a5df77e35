package pairfile

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

// Difference is a recorded round the engine pairs otherwise.
type Difference struct {
	Round    int
	Recorded swiss.Round // as the file has it (board order as read)
	Engine   swiss.Round // the engine's pairing; zero when it found none
	// Breaches are the rules the recorded pairing breaks (swiss.Breaches);
	// none when it is legal and the engine's pairing ranks better by the
	// quality criteria (C.04.3 C.4-C.21) or the pairing order's tie-breaks.
	Breaches []string
	// NoPairing: the engine found no pairing satisfying the absolute
	// criteria for this round.
	NoPairing bool
	// System is the event's pairing system: Reason cites its articles
	// (Burstein's seeding rounds too, which its article 1.6 pairs by the
	// Dutch rules).
	System swiss.System
}

// articles are the rules Reason cites, per system.
type articles struct{ absolute, colours, quality string }

func (d Difference) articles() articles {
	if d.System == swiss.Burstein {
		return articles{"C.04.4.2 [C1]-[C3]", "C.04.4.2 5.2", "C.04.4.2's quality criteria [C5]-[C8] and the order of its article 4"}
	}
	return articles{"C.04.3 C.1-C.3", "C.04.3 5.2-5.5", "C.04.3's quality criteria and pairing order"}
}

// Reason says in one paragraph why the round differs.
func (d Difference) Reason() string {
	var b strings.Builder
	art := d.articles()
	switch {
	case d.NoPairing:
		b.WriteString("the engine finds no pairing that satisfies the absolute criteria (" + art.absolute + ")")
	case len(d.Breaches) > 0:
		b.WriteString("the recorded pairing breaks: " + strings.Join(d.Breaches, "; "))
	case colourOnly(d.Recorded, d.Engine):
		b.WriteString("the same pairs, but the engine allocates the colours otherwise (" + art.colours + ", or the initial colour)")
	default:
		b.WriteString("the recorded pairing is legal, but the engine's ranks better by " + art.quality)
	}
	if !d.NoPairing {
		only, mine := diffBoards(d.Recorded, d.Engine)
		if len(only) > 0 {
			fmt.Fprintf(&b, "; recorded only: %s", strings.Join(only, " "))
		}
		if len(mine) > 0 {
			fmt.Fprintf(&b, "; engine only: %s", strings.Join(mine, " "))
		}
	}
	return b.String()
}

// boardKeys names a round's boards ("12-7") and its bye ("3-bye"), boards
// ordered by White then Black, the bye last.
func boardKeys(r swiss.Round) []string {
	var keys []string
	for _, bd := range append(sortBoards(r.Boards), swiss.Board{White: r.Bye}) {
		switch {
		case bd.Black != 0:
			keys = append(keys, fmt.Sprintf("%d-%d", bd.White, bd.Black))
		case bd.White != 0:
			keys = append(keys, fmt.Sprintf("%d-bye", bd.White))
		}
	}
	return keys
}

// diffBoards lists the boards (and bye) of one round that the other lacks.
func diffBoards(rec, eng swiss.Round) (recOnly, engOnly []string) {
	a, b := boardKeys(rec), boardKeys(eng)
	return missing(a, b), missing(b, a)
}

// missing is the keys of from that are not in in.
func missing(from, in []string) []string {
	var out []string
	for _, k := range from {
		if !slices.Contains(in, k) {
			out = append(out, k)
		}
	}
	return out
}

// same reports whether the engine's round is the recorded one: the same
// boards with the same colours (either way where the file gives none) and
// the same PAB, board order aside.
func same(rec swiss.Round, unknown map[swiss.Board]bool, eng swiss.Round) bool {
	if rec.Bye != eng.Bye || len(rec.Boards) != len(eng.Boards) {
		return false
	}
	want := map[swiss.Board]bool{}
	for _, b := range rec.Boards {
		want[b] = true
	}
	for _, b := range eng.Boards {
		flip := swiss.Board{White: b.Black, Black: b.White}
		if !want[b] && !(unknown[flip] && want[flip]) {
			return false
		}
	}
	return true
}

// Check replays every round the file records: pairs it again from the
// rounds before it (with the players paired in it present, the others
// absent) and lists each round whose recorded pairing differs from the
// engine's, with the reason. No differences: the file is what the engine
// would have paired. Without a number of rounds in the file, the rounds
// recorded are the event's (as bbpPairings' checker assumes).
func Check(ev *trf.Event) ([]Difference, error) {
	all, err := ev.PairingState()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInput, err)
	}
	if len(all) == 0 {
		return nil, nil
	}
	played := len(all[0].History)
	var out []Difference
	for r := 1; r <= played; r++ {
		opt, _, err := Options(ev, r)
		if err != nil {
			return nil, err
		}
		if opt.Rounds == 0 {
			opt.Rounds = played
		}
		state := stateBefore(all, r)
		rec, unknown := recorded(all, r)
		eng, err := swiss.Pair(state, opt)
		d := Difference{Round: r, Recorded: rec, Engine: eng, System: opt.System}
		switch {
		case errors.Is(err, swiss.ErrNoPairing):
			d.NoPairing = true
		case err != nil:
			return nil, fmt.Errorf("round %d: %w", r, err)
		case same(rec, unknown, eng):
			continue
		}
		if d.Breaches, err = swiss.Breaches(state, opt, rec); err != nil {
			return nil, fmt.Errorf("round %d: %w", r, err)
		}
		for b := range unknown { // no colours recorded: no colour rule to break
			d.Breaches = dropColour(d.Breaches, b)
		}
		out = append(out, d)
	}
	return out, nil
}

func dropColour(bs []string, b swiss.Board) []string {
	prefix := fmt.Sprintf("%d-%d: the colours", b.White, b.Black)
	var out []string
	for _, s := range bs {
		if !strings.HasPrefix(s, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// colourOnly: the two rounds pair the same players, some with the colours
// the other way round.
func colourOnly(a, b swiss.Round) bool {
	if a.Bye != b.Bye || len(a.Boards) != len(b.Boards) {
		return false
	}
	pairs := map[[2]int]bool{}
	for _, x := range a.Boards {
		pairs[[2]int{min(x.White, x.Black), max(x.White, x.Black)}] = true
	}
	for _, x := range b.Boards {
		if !pairs[[2]int{min(x.White, x.Black), max(x.White, x.Black)}] {
			return false
		}
	}
	return true
}
