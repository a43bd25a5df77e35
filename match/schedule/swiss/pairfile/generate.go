package pairfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// Config is the random tournament generator's settings, read from lines
// KEY=VALUE (JaVaFo's and bbpPairings' keys; '#' starts a comment):
//
//	PlayersNumber     players (2 to swiss.MaxPlayers)
//	RoundsNumber      rounds (1 to 99, fewer than the players)
//	DrawPercentage    percentage of played games drawn (0 to 100)
//	ForfeitRate       one game in N is forfeited (N >= 1; 0: none)
//	RetiredRate       one player in N withdraws during the event (N >= 2; 0: none)
//	HalfPointByeRate  one player-round in N is a requested half-point bye (N >= 1; 0: none)
//	HighestRating     highest rating (at most 9999)
//	LowestRating      lowest rating
//	PointsForWin, PointsForDraw, PointsForLoss, PointsForZPB,
//	PointsForForfeitLoss, PointsForPAB   the point system, as 1.0 (a forfeit
//	                  loss must score as a loss; the PAB as a win by default)
//
// A key not given is drawn from the seed, as bbpPairings does: 10 to 80
// players, 5 to 11 rounds (at most half the players; the event ends early
// when a round cannot be paired), 15 to 45 % draws, forfeits 1 in 6 to 30,
// withdrawals 1 in 20 to 60, half-point byes 1 in 30 to 90, ratings 1400 to
// 2700, FIDE's points. Only ReadConfig marks keys as given: a Config
// built in code has every key drawn (the zero Config is all random).
type Config struct {
	Players, Rounds                       int
	DrawPercent                           int
	ForfeitRate, RetiredRate, HalfByeRate int
	HighestRating, LowestRating           int
	Points                                trf.PointSystem
	// System pairs the rounds (the command line's --dutch or --burstein,
	// not a key of the file); the zero value is Dutch.
	System swiss.System
	set    map[string]bool
}

var configKeys = []string{"PlayersNumber", "RoundsNumber", "DrawPercentage", "ForfeitRate", "RetiredRate",
	"HalfPointByeRate", "HighestRating", "LowestRating", "PointsForWin", "PointsForDraw", "PointsForLoss",
	"PointsForZPB", "PointsForForfeitLoss", "PointsForPAB"}

// ReadConfig reads a generator configuration; errors name the line.
func ReadConfig(r io.Reader) (Config, error) {
	c := Config{Points: trf.FIDEPoints, set: map[string]bool{}}
	sc := bufio.NewScanner(io.LimitReader(r, 1<<20))
	n := 0
	pabSet := false
	for sc.Scan() {
		n++
		line := strings.TrimSpace(strings.TrimSuffix(sc.Text(), "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok {
			return c, inputf("config line %d: %q is not KEY=VALUE", n, line)
		}
		bad := func(what string) error {
			return inputf("config line %d: %s=%q: %s", n, k, v, what)
		}
		num := func(lo, hi int) (int, error) {
			x, err := strconv.Atoi(v)
			if err != nil || x < lo || x > hi {
				return 0, bad(fmt.Sprintf("not a whole number from %d to %d", lo, hi))
			}
			return x, nil
		}
		pts := func() (int, error) {
			f, err := strconv.ParseFloat(v, 64)
			t := int(math.Round(f * 10))
			if err != nil || t < 0 || t > 999 || math.Abs(f*10-float64(t)) > 1e-9 {
				return 0, bad("not points such as 1.0 or 0.5 (0 to 99.9)")
			}
			return t, nil
		}
		var err error
		switch k {
		case "PlayersNumber":
			c.Players, err = num(2, swiss.MaxPlayers)
		case "RoundsNumber":
			c.Rounds, err = num(1, 99)
		case "DrawPercentage":
			c.DrawPercent, err = num(0, 100)
		case "ForfeitRate":
			c.ForfeitRate, err = num(0, 1<<30)
		case "RetiredRate":
			c.RetiredRate, err = num(0, 1<<30)
			if err == nil && c.RetiredRate == 1 {
				err = bad("one in 1 would withdraw everyone: 0 (none) or 2 and more")
			}
		case "HalfPointByeRate":
			c.HalfByeRate, err = num(0, 1<<30)
		case "HighestRating":
			c.HighestRating, err = num(0, 9999)
		case "LowestRating":
			c.LowestRating, err = num(0, 9999)
		case "PointsForWin":
			c.Points.Win, err = pts()
			c.Points.ForfeitWin, c.Points.FullBye = c.Points.Win, c.Points.Win
			if !pabSet {
				c.Points.PairingBye = c.Points.Win
			}
		case "PointsForDraw":
			c.Points.Draw, err = pts()
			c.Points.HalfBye = c.Points.Draw
		case "PointsForLoss":
			c.Points.Loss, err = pts()
		case "PointsForZPB":
			c.Points.ZeroBye, err = pts()
		case "PointsForForfeitLoss":
			c.Points.ForfeitLoss, err = pts()
		case "PointsForPAB":
			c.Points.PairingBye, err = pts()
			pabSet = true
		default:
			return c, inputf("config line %d: unknown key %q (the keys: %s)", n, k, strings.Join(configKeys, ", "))
		}
		if err != nil {
			return c, err
		}
		c.set[k] = true
	}
	if err := sc.Err(); err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	return c, nil
}

// fill draws the keys not set from rng and checks the whole.
func (c *Config) fill(rng *rand.Rand) error {
	if c.set == nil {
		c.set = map[string]bool{}
	}
	if c.Points == (trf.PointSystem{}) {
		c.Points = trf.FIDEPoints
	}
	draw := func(key string, dst *int, lo, hi int) {
		if !c.set[key] {
			*dst = lo + rng.IntN(hi-lo+1)
		}
	}
	draw("PlayersNumber", &c.Players, 10, 80)
	draw("RoundsNumber", &c.Rounds, 5, 11)
	draw("DrawPercentage", &c.DrawPercent, 15, 45)
	draw("ForfeitRate", &c.ForfeitRate, 6, 30)
	draw("RetiredRate", &c.RetiredRate, 20, 60)
	draw("HalfPointByeRate", &c.HalfByeRate, 30, 90)
	draw("HighestRating", &c.HighestRating, 2700, 2700)
	draw("LowestRating", &c.LowestRating, 1400, 1400)
	if !c.set["RoundsNumber"] && c.Rounds > c.Players/2 {
		c.Rounds = max(1, c.Players/2)
	}
	switch {
	case c.Rounds >= c.Players:
		return inputf("config: %d rounds need more than %d players", c.Rounds, c.Players)
	case c.LowestRating > c.HighestRating:
		return inputf("config: LowestRating %d is above HighestRating %d", c.LowestRating, c.HighestRating)
	case c.Points.ForfeitLoss != c.Points.Loss:
		return inputf("config: PointsForForfeitLoss must equal PointsForLoss (the engine scores them alike)")
	}
	return nil
}

// Generate makes a random event from c and the seed: ratings drawn in
// the range and sorted (pairing numbers follow them), each round paired
// by the engine, requested half-point byes and withdrawals (zero-point
// byes to the end) drawn before the pairing, and each game's result
// drawn from the ratings (Elo's expectation, then the draw percentage)
// or forfeited. The same config and seed give the same file. The event
// is returned as TRF-2026 (Version), with the generator's settings in
// comment lines.
func Generate(c Config, seed uint64) (*trf.Event, error) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	if err := c.fill(rng); err != nil {
		return nil, err
	}
	ps := c.Points
	ev := &trf.Event{
		Name: fmt.Sprintf("arbiter pair -g seed %d", seed), Type: "Individual: Swiss-System Dutch",
		NumPlayers: c.Players, Rounds: c.Rounds, FirstColor: tally.White, Version: trf.TRF26,
	}
	SetSystem(ev, c.System)
	if c.System == swiss.Burstein {
		ev.Type = "Individual: Swiss-System Burstein"
	}
	if ps != trf.FIDEPoints {
		ev.PointSystem = &ps
	}
	ev.Extra = []string{fmt.Sprintf("### generated by arbiter pair -g -s %d: %d players, %d rounds, %d%% draws, forfeits 1 in %d, withdrawals 1 in %d, half-point byes 1 in %d",
		seed, c.Players, c.Rounds, c.DrawPercent, c.ForfeitRate, c.RetiredRate, c.HalfByeRate)}
	ratings := make([]int, c.Players)
	for i := range ratings {
		ratings[i] = c.LowestRating + rng.IntN(c.HighestRating-c.LowestRating+1)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ratings)))
	for i, r := range ratings {
		p := trf.Player{Name: fmt.Sprintf("Player %04d", i+1), Federation: "FID"}
		p.Number, p.Rating = i+1, r
		ev.Players = append(ev.Players, p)
	}
	opt, _, err := Options(ev, 1)
	if err != nil {
		return nil, err
	}
	withdrawn := map[int]bool{}
	for r := 1; r <= c.Rounds; r++ {
		players := make([]tally.Player, len(ev.Players))
		ahead := map[int]tally.Result{}
		for i, p := range ev.Players {
			players[i] = p.Player
			switch {
			case withdrawn[p.Number]:
				ahead[p.Number] = tally.ZeroBye
			case r > 1 && c.RetiredRate > 0 && rng.IntN(c.RetiredRate*c.Rounds) == 0:
				withdrawn[p.Number] = true
				ahead[p.Number] = tally.ZeroBye
			case r < c.Rounds && c.HalfByeRate > 0 && rng.IntN(c.HalfByeRate) == 0:
				ahead[p.Number] = tally.HalfBye
			}
			players[i].Absent = ahead[p.Number] != 0
		}
		rd, err := swiss.Pair(players, opt)
		if errors.Is(err, swiss.ErrNoPairing) && !c.set["RoundsNumber"] && r > 1 {
			ev.Rounds = r - 1 // a drawn number of rounds: the event ends here
			break
		}
		if errors.Is(err, swiss.ErrNoPairing) {
			return nil, fmt.Errorf("round %d of seed %d: %w (fewer rounds, or more players, in the config)", r, seed, err)
		}
		if err != nil {
			return nil, err
		}
		record(ev, rd, ahead, c, rng)
	}
	setPoints(ev, ps)
	return ev, nil
}

// record writes round rd's results into the players' histories.
func record(ev *trf.Event, rd swiss.Round, ahead map[int]tally.Result, c Config, rng *rand.Rand) {
	idx := map[int]*trf.Player{}
	for i := range ev.Players {
		idx[ev.Players[i].Number] = &ev.Players[i]
	}
	add := func(n int, e tally.Entry) { idx[n].History = append(idx[n].History, e) }
	for _, b := range rd.Boards {
		w, bl := idx[b.White], idx[b.Black]
		var rw, rb tally.Result
		exp := 1 / (1 + math.Pow(10, float64(bl.Rating-w.Rating)/400))
		switch x := rng.Float64(); {
		case c.ForfeitRate > 0 && rng.IntN(c.ForfeitRate) == 0:
			rw, rb = tally.ForfeitWin, tally.ForfeitLoss
			if rng.IntN(2) == 0 {
				rw, rb = rb, rw
			}
		case x < float64(c.DrawPercent)/100:
			rw, rb = tally.Draw, tally.Draw
		case rng.Float64() < exp:
			rw, rb = tally.Win, tally.Loss
		default:
			rw, rb = tally.Loss, tally.Win
		}
		add(b.White, tally.Entry{Opponent: b.Black, Color: tally.White, Result: rw})
		add(b.Black, tally.Entry{Opponent: b.White, Color: tally.Black, Result: rb})
	}
	if rd.Bye != 0 {
		add(rd.Bye, tally.Entry{Result: tally.PairingBye})
	}
	for n, res := range ahead {
		add(n, tally.Entry{Result: res})
	}
}

// setPoints writes each player's points (tenths) and rank (by points,
// then pairing number).
func setPoints(ev *trf.Event, ps trf.PointSystem) {
	for i := range ev.Players {
		t := 0
		for _, e := range ev.Players[i].History {
			t += pointsOf(ps, e.Result)
		}
		ev.Players[i].Points = t
	}
	order := make([]*trf.Player, len(ev.Players))
	for i := range ev.Players {
		order[i] = &ev.Players[i]
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].Points != order[j].Points {
			return order[i].Points > order[j].Points
		}
		return order[i].Number < order[j].Number
	})
	for i, p := range order {
		p.Rank = i + 1
	}
}

func pointsOf(ps trf.PointSystem, r tally.Result) int {
	switch r {
	case tally.Win, tally.UnratedWin:
		return ps.Win
	case tally.Draw, tally.UnratedDraw:
		return ps.Draw
	case tally.Loss, tally.UnratedLoss:
		return ps.Loss
	case tally.ForfeitWin:
		return ps.ForfeitWin
	case tally.ForfeitLoss:
		return ps.ForfeitLoss
	case tally.PairingBye:
		return ps.PairingBye
	case tally.FullBye:
		return ps.FullBye
	case tally.HalfBye:
		return ps.HalfBye
	}
	return ps.ZeroBye
}
