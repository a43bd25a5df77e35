// Command refgen simulates Swiss events and has every round paired by an
// external reference pairing program (bbpPairings, `--dutch FILE -p OUT`),
// writing each round's state and the program's pairing as a reference case
// for match/schedule/swiss (testdata/reference/generated). It is a tool, not a
// test: it needs the program, which is not part of this repository, and
// only its output is committed.
//
//	go run ./match/schedule/swiss/trf/internal/refgen -bbp /path/to/bbpPairings -out match/schedule/swiss/testdata/reference/generated
//
// A command: nothing imports it; it imports the pairing and the TRF.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

func main() {
	bbp := flag.String("bbp", "bbpPairings", "the bbpPairings executable")
	out := flag.String("out", "match/schedule/swiss/testdata/reference/generated", "directory for the cases")
	events := flag.Int("events", 40, "number of events to simulate")
	seed := flag.Uint64("seed", 1, "random seed")
	maxPlayers := flag.Int("max", 120, "largest field")
	prefix := flag.String("prefix", "e", "case name prefix (cases are PREFIXnnn-rNN)")
	small := flag.Int("small", 40, "fields up to this size keep every round as a case; larger ones keep one round (they pair slowly)")
	split := flag.String("split", "", "instead of simulating, split this finished event's TRF into one case per round, each paired by bbpPairings and checked against the round the file records")
	name := flag.String("name", "event", "case name prefix for -split")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	if *split != "" {
		n, err := splitEvent(*bbp, *split, *out, *name)
		if err != nil {
			fail(err)
		}
		fmt.Printf("%d cases in %s\n", n, *out)
		return
	}
	rng := rand.New(rand.NewPCG(*seed, 2026))
	tmp, err := os.MkdirTemp("", "refgen")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	cases := 0
	for e := 1; e <= *events; e++ {
		n := 8 + rng.IntN(*maxPlayers-7)
		if rng.IntN(5) > 0 { // most events small: they are where the rules bite
			n = 8 + rng.IntN(min(*small, *maxPlayers)-7)
		}
		rounds := 5 + rng.IntN(7)
		rounds = min(rounds, n-1)
		// White for the top player in round 1 (XXC white1): swiss.Options
		// has no initial colour to ask for black1.
		opts := simOptions{baku: n >= 12 && rng.IntN(4) == 0, first: tally.White, keep: 0}
		if n > *small {
			opts.keep = 2 + rng.IntN(rounds-1)
		}
		opts.prefix = *prefix
		c, err := simulate(rng, *bbp, tmp, *out, e, n, rounds, opts)
		if err != nil {
			fail(fmt.Errorf("event %d: %w", e, err))
		}
		cases += c
	}
	fmt.Printf("%d cases in %s\n", cases, *out)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "refgen:", err)
	os.Exit(1)
}

type simOptions struct {
	baku  bool
	first tally.Color
	keep  int // the one round to keep as a case; 0 keeps every round
	// prefix starts the case names.
	prefix string
}

// simulate plays one event of n players and the given rounds, pairing each
// round with bbpPairings, and writes one case per round paired.
func simulate(rng *rand.Rand, bbp, tmp, out string, id, n, rounds int, o simOptions) (int, error) {
	ratings := make([]int, n)
	for i := range ratings {
		ratings[i] = 1200 + rng.IntN(1500)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ratings)))
	ev := &trf.Event{
		Name:       fmt.Sprintf("refgen event %d", id),
		NumPlayers: n,
		Rounds:     rounds,
		FirstColor: o.first,
		Type:       "Individual: Swiss-System Dutch",
	}
	for i := 0; i < n; i++ {
		p := trf.Player{Name: fmt.Sprintf("Player %03d", i+1), Federation: "FID"}
		p.Number = i + 1
		p.Rating = ratings[i]
		ev.Players = append(ev.Players, p)
	}
	if o.baku {
		setBaku(ev, rounds)
	}
	withdrawn := map[int]bool{}
	cases := 0
	for r := 1; r <= rounds; r++ {
		// Requested byes and withdrawals for this round, written ahead as
		// pairing programs read them.
		ahead := map[int]tally.Result{}
		for _, p := range ev.Players {
			switch {
			case withdrawn[p.Number]:
				ahead[p.Number] = tally.ZeroBye
			case r > 1 && r < rounds && rng.IntN(200) == 0:
				withdrawn[p.Number] = true
				ahead[p.Number] = tally.ZeroBye
			case r < rounds && rng.IntN(40) == 0:
				ahead[p.Number] = []tally.Result{tally.HalfBye, tally.HalfBye, tally.ZeroBye, tally.FullBye}[rng.IntN(4)]
			}
		}
		if n-len(ahead) < 2 {
			break
		}
		state := copyEvent(ev)
		for i := range state.Players {
			if res, ok := ahead[state.Players[i].Number]; ok {
				state.Players[i].History = append(state.Players[i].History, tally.Entry{Result: res})
			}
		}
		setPoints(state, r-1)
		var buf bytes.Buffer
		if err := trf.Write(&buf, state); err != nil {
			return cases, err
		}
		in := filepath.Join(tmp, "in.trf")
		outFile := filepath.Join(tmp, "out.txt")
		if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
			return cases, err
		}
		os.Remove(outFile)
		cmd := exec.Command(bbp, "--dutch", in, "-p", outFile)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
				// No pairing satisfies the absolute criteria: the event
				// ends here (a director would pair by hand).
				break
			}
			return cases, fmt.Errorf("round %d: %v: %s", r, err, stderr.String())
		}
		pairing, err := os.ReadFile(outFile)
		if err != nil {
			return cases, err
		}
		boards, bye, err := parsePairing(pairing)
		if err != nil {
			return cases, fmt.Errorf("round %d: %w", r, err)
		}
		if o.keep == 0 || o.keep == r {
			name := fmt.Sprintf("%s%03d-r%02d", o.prefix, id, r)
			if err := os.WriteFile(filepath.Join(out, name+".trf"), buf.Bytes(), 0o644); err != nil {
				return cases, err
			}
			if err := os.WriteFile(filepath.Join(out, name+".pairs"), pairing, 0o644); err != nil {
				return cases, err
			}
			cases++
		}
		play(rng, ev, r, boards, bye, ahead)
	}
	return cases, nil
}

// setBaku writes the acceleration of C.04.5.1 as swiss.Pair computes it
// (match/schedule/swiss bakuPoints): group A is the first 2*ceil(n/4) players; the
// first ceil(rounds/2) rounds are accelerated, the first ceil of half of
// them by one point, the rest by half a point.
func setBaku(ev *trf.Event, rounds int) {
	n := len(ev.Players)
	ga := 2 * ((n + 3) / 4)
	acc := (rounds + 1) / 2
	full := (acc + 1) / 2
	for i := 0; i < ga && i < n; i++ {
		a := make([]int, acc)
		for r := range a {
			a[r] = 5
			if r < full {
				a[r] = 10
			}
		}
		ev.Players[i].Acceleration = a
	}
}

func copyEvent(ev *trf.Event) *trf.Event {
	c := *ev
	c.Players = make([]trf.Player, len(ev.Players))
	for i, p := range ev.Players {
		p.History = append([]tally.Entry(nil), p.History...)
		c.Players[i] = p
	}
	return &c
}

// setPoints writes each player's score (1 - 1/2 - 0) over the first
// rounds rounds.
func setPoints(ev *trf.Event, rounds int) {
	s := trf.FIDEPoints
	for i := range ev.Players {
		t := 0
		for r, e := range ev.Players[i].History {
			if r >= rounds {
				break
			}
			switch e.Result {
			case tally.Win, tally.UnratedWin, tally.ForfeitWin:
				t += s.Win
			case tally.Draw, tally.UnratedDraw:
				t += s.Draw
			case tally.PairingBye:
				t += s.PairingBye
			case tally.FullBye:
				t += s.FullBye
			case tally.HalfBye:
				t += s.HalfBye
			}
		}
		ev.Players[i].Points = t
	}
}

func parsePairing(b []byte) ([]swiss.Board, int, error) {
	lines := strings.Fields(string(b))
	if len(lines) == 0 {
		return nil, 0, fmt.Errorf("empty pairing")
	}
	count, err := strconv.Atoi(lines[0])
	if err != nil || len(lines) != 1+2*count {
		return nil, 0, fmt.Errorf("pairing %q is not a count and that many pairs", b)
	}
	var boards []swiss.Board
	bye := 0
	for i := 0; i < count; i++ {
		w, err1 := strconv.Atoi(lines[1+2*i])
		bl, err2 := strconv.Atoi(lines[2+2*i])
		if err1 != nil || err2 != nil {
			return nil, 0, fmt.Errorf("pair %d of %q", i+1, b)
		}
		if bl == 0 {
			bye = w
			continue
		}
		boards = append(boards, swiss.Board{White: w, Black: bl})
	}
	return boards, bye, nil
}

// play records round r: each board's result drawn by rating (some draws,
// a few forfeits), the bye, and the requested byes and withdrawals.
func play(rng *rand.Rand, ev *trf.Event, r int, boards []swiss.Board, bye int, ahead map[int]tally.Result) {
	idx := map[int]int{}
	for i, p := range ev.Players {
		idx[p.Number] = i
	}
	set := func(n int, e tally.Entry) {
		p := &ev.Players[idx[n]]
		for len(p.History) < r-1 {
			p.History = append(p.History, tally.Entry{Result: tally.ZeroBye})
		}
		p.History = append(p.History, e)
	}
	for _, b := range boards {
		w, bl := ev.Players[idx[b.White]], ev.Players[idx[b.Black]]
		expect := 1 / (1 + math.Pow(10, float64(bl.Rating-w.Rating)/400))
		x := rng.Float64()
		var rw, rb tally.Result
		switch {
		case x < 0.015:
			rw, rb = tally.ForfeitWin, tally.ForfeitLoss
		case x < 0.03:
			rw, rb = tally.ForfeitLoss, tally.ForfeitWin
		default:
			y := rng.Float64()
			draw := 0.22
			switch {
			case y < expect-draw/2:
				rw, rb = tally.Win, tally.Loss
			case y < expect+draw/2:
				rw, rb = tally.Draw, tally.Draw
			default:
				rw, rb = tally.Loss, tally.Win
			}
		}
		set(b.White, tally.Entry{Opponent: b.Black, Color: tally.White, Result: rw})
		set(b.Black, tally.Entry{Opponent: b.White, Color: tally.Black, Result: rb})
	}
	if bye != 0 {
		set(bye, tally.Entry{Result: tally.PairingBye})
	}
	for n, res := range ahead {
		set(n, tally.Entry{Result: res})
	}
}

// splitEvent writes, for each round r of a finished event, the state before
// r and the pairing bbpPairings makes of it, after checking that pairing
// (pairs and colours) is the one the file records for round r.
func splitEvent(bbp, file, out, name string) (int, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, err
	}
	ev, err := trf.Read(f)
	f.Close()
	if err != nil {
		return 0, err
	}
	rounds := 0
	for _, p := range ev.Players {
		rounds = max(rounds, len(p.History))
	}
	if ev.Rounds == 0 {
		ev.Rounds = rounds
	}
	if ev.FirstColor == tally.NoColor {
		// As bbpPairings infers it: the colour of the top player in round 1.
		for _, p := range ev.Players {
			if p.Number == 1 && len(p.History) > 0 {
				ev.FirstColor = p.History[0].Color
			}
		}
	}
	tmp, err := os.MkdirTemp("", "refgen")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	cases := 0
	for r := 1; r <= rounds; r++ {
		state := copyEvent(ev)
		recorded := map[int]tally.Entry{}
		for i := range state.Players {
			p := &state.Players[i]
			if len(p.History) >= r {
				recorded[p.Number] = p.History[r-1]
				e := p.History[r-1]
				keep := p.History[:r-1]
				if !e.Played() && e.Opponent == 0 && e.Result != tally.PairingBye {
					keep = append(keep, e) // a requested bye or absence, written ahead
				}
				p.History = keep
			}
		}
		setPoints(state, r-1)
		var buf bytes.Buffer
		if err := trf.Write(&buf, state); err != nil {
			return cases, err
		}
		in := filepath.Join(tmp, "in.trf")
		outFile := filepath.Join(tmp, "out.txt")
		if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
			return cases, err
		}
		var stderr bytes.Buffer
		cmd := exec.Command(bbp, "--dutch", in, "-p", outFile)
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return cases, fmt.Errorf("round %d: %v: %s", r, err, stderr.String())
		}
		pairing, err := os.ReadFile(outFile)
		if err != nil {
			return cases, err
		}
		boards, bye, err := parsePairing(pairing)
		if err != nil {
			return cases, err
		}
		for _, b := range boards {
			w, bl := recorded[b.White], recorded[b.Black]
			if w.Opponent != b.Black || w.Color != tally.White || bl.Opponent != b.White || bl.Color != tally.Black {
				return cases, fmt.Errorf("round %d: bbpPairings pairs %d-%d, the file records %d: %+v and %d: %+v", r, b.White, b.Black, b.White, w, b.Black, bl)
			}
		}
		if bye != 0 && recorded[bye].Result != tally.PairingBye {
			return cases, fmt.Errorf("round %d: bbpPairings gives the bye to %d, the file records %+v", r, bye, recorded[bye])
		}
		base := fmt.Sprintf("%s-r%02d", name, r)
		if err := os.WriteFile(filepath.Join(out, base+".trf"), buf.Bytes(), 0o644); err != nil {
			return cases, err
		}
		if err := os.WriteFile(filepath.Join(out, base+".pairs"), pairing, 0o644); err != nil {
			return cases, err
		}
		cases++
	}
	return cases, nil
}
