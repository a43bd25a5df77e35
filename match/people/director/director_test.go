package director

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

func TestCreateChecks(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	ok := Event{Name: "Open", Rounds: 5}
	tests := []struct {
		name  string
		edit  func(*Event)
		field string // "" = accepted
	}{
		{"defaults", func(e *Event) {}, ""},
		{"no name", func(e *Event) { e.Name = "  " }, "name"},
		{"long name", func(e *Event) { e.Name = strings.Repeat("x", MaxText+1) }, "name"},
		{"control char", func(e *Event) { e.Site = "a\x07b" }, "site"},
		{"bad date", func(e *Event) { e.Start = "2026-13-01" }, "start"},
		{"end before start", func(e *Event) { e.Start, e.End = "2026-05-02", "2026-05-01" }, "end"},
		{"unknown variant", func(e *Event) { e.Variant = "chess" }, "variant"},
		{"bad time control", func(e *Event) { e.TimeControl = "soon" }, "time_control"},
		{"good time control", func(e *Event) { e.TimeControl = "5400+30" }, ""},
		{"bad system", func(e *Event) { e.System = "knockout" }, "system"},
		{"no rounds", func(e *Event) { e.Rounds = 0 }, "rounds"},
		{"too many rounds", func(e *Event) { e.Rounds = MaxRounds + 1 }, "rounds"},
		{"scoring draw above win", func(e *Event) { e.Scoring = tally.Scoring{Win: 1, Draw: 2} }, "scoring"},
		{"negative scoring", func(e *Event) { e.Scoring = tally.Scoring{Win: 2, Draw: 1, Loss: -1} }, "scoring"},
		{"english 1-½-0", func(e *Event) { e.Variant, e.HalfPoints = "english", true }, ""},
		{"unknown tie-break", func(e *Event) { e.TieBreaks = []string{"coin-toss"} }, "tie_breaks"},
		{"tie-break twice", func(e *Event) { e.TieBreaks = []string{"wins", "wins"} }, "tie_breaks"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := ok
			tc.edit(&e)
			got, tok, err := s.Create(ctx, e)
			if tc.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if got.ID == "" || len(tok) < 40 || got.Scoring != tally.DefaultScoring || got.Variant == "" || len(got.TieBreaks) == 0 {
					t.Fatalf("created %+v, token %q", got, tok)
				}
				return
			}
			var de *Error
			if !errors.As(err, &de) || de.Code != "director.bad-field" || de.Args["field"] != tc.field {
				t.Fatalf("got %v, want a bad-field error for %s", err, tc.field)
			}
		})
	}
}

// TestRoundFlow walks a Swiss through its rounds, trying every operation
// where it must be refused and where it must pass.
func TestRoundFlow(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 6)
	win := [2]tally.Result{tally.Win, tally.Loss}
	steps := []struct {
		name string
		do   func() error
		want string
	}{
		{"pair 2 first", func() error { return s.PairRound(ctx, id, 2, nil) }, "director.round-order"},
		{"publish unpaired", func() error { return s.Publish(ctx, id, 1) }, "director.unknown-round"},
		{"pair 1", func() error { return s.PairRound(ctx, id, 1, nil) }, ""},
		{"pair 1 again", func() error { return s.PairRound(ctx, id, 1, nil) }, "director.round-order"},
		{"pair 2 with 1 open", func() error { return s.PairRound(ctx, id, 2, nil) }, "director.round-open"},
		{"pair 3 with 1 open", func() error { return s.PairRound(ctx, id, 3, nil) }, "director.round-order"},
		{"result before publish", func() error { _, err := s.Record(ctx, id, 1, 1, win, "director"); return err }, "director.not-published"},
		{"close before publish", func() error { return s.CloseRound(ctx, id, 1) }, "director.not-published"},
		{"publish", func() error { return s.Publish(ctx, id, 1) }, ""},
		{"publish twice", func() error { return s.Publish(ctx, id, 1) }, "director.already"},
		{"close with no results", func() error { return s.CloseRound(ctx, id, 1) }, "director.results-missing"},
		{"no board 4", func() error { _, err := s.Record(ctx, id, 1, 4, win, "director"); return err }, "director.unknown-board"},
		{"not a result", func() error {
			_, err := s.Record(ctx, id, 1, 1, [2]tally.Result{tally.Win, tally.Win}, "director")
			return err
		}, "director.bad-result"},
		{"board 1", func() error { _, err := s.Record(ctx, id, 1, 1, win, "director"); return err }, ""},
		{"undo with a result", func() error { return s.Undo(ctx, id, 1) }, "director.has-results"},
		{"swap with a result", func() error { return s.SwapColors(ctx, id, 1, 2) }, "director.has-results"},
		{"board 2 forfeit", func() error {
			_, err := s.Record(ctx, id, 1, 2, [2]tally.Result{tally.ForfeitWin, tally.ForfeitLoss}, "director")
			return err
		}, ""},
		{"close, board 3 missing", func() error { return s.CloseRound(ctx, id, 1) }, "director.results-missing"},
		{"board 3 draw", func() error {
			_, err := s.Record(ctx, id, 1, 3, [2]tally.Result{tally.Draw, tally.Draw}, "director")
			return err
		}, ""},
		{"close", func() error { return s.CloseRound(ctx, id, 1) }, ""},
		{"close twice", func() error { return s.CloseRound(ctx, id, 1) }, "director.already"},
		{"online result after close", func() error { _, err := s.Record(ctx, id, 1, 1, win, "online"); return err }, "director.closed"},
		{"director's correction after close", func() error {
			_, err := s.Record(ctx, id, 1, 3, [2]tally.Result{tally.Win, tally.Loss}, "director")
			return err
		}, ""},
		{"undo a closed round", func() error { return s.Undo(ctx, id, 1) }, "director.has-results"},
		{"bye for round 1", func() error { return s.RequestBye(ctx, id, 1, 1, tally.HalfBye) }, "director.bye-paired"},
		{"pair 2", func() error { return s.PairRound(ctx, id, 2, nil) }, ""},
		{"undo round 1 after 2", func() error { return s.Undo(ctx, id, 1) }, "director.not-last"},
		{"undo 2", func() error { return s.Undo(ctx, id, 2) }, ""},
		{"undo 2 again", func() error { return s.Undo(ctx, id, 2) }, "director.unknown-round"},
		{"pair 2 again", func() error { return s.PairRound(ctx, id, 2, nil) }, ""},
		{"play 2", func() error { playRound(t, s, id, 2); return nil }, ""},
		{"pair 3", func() error { return s.PairRound(ctx, id, 3, nil) }, ""},
		{"play 3", func() error { playRound(t, s, id, 3); return nil }, ""},
		{"pair 4 of 3", func() error { return s.PairRound(ctx, id, 4, nil) }, "director.all-rounds"},
	}
	for _, st := range steps {
		if got := code(st.do()); got != st.want {
			t.Fatalf("%s: got %q, want %q", st.name, got, st.want)
		}
	}
	sn := get(t, s, id)
	state := sn.State()
	if len(state) != 6 {
		t.Fatalf("state has %d players", len(state))
	}
	total := 0
	for _, p := range state {
		if len(p.History) != 3 {
			t.Fatalf("player %d has %d rounds", p.Number, len(p.History))
		}
		total += p.Score(tally.DefaultScoring)
		// The opponent's entry mirrors this one.
		for r, e := range p.History {
			o := state[e.Opponent-1]
			oe := o.History[r]
			if oe.Opponent != p.Number || oe.Color == e.Color {
				t.Fatalf("round %d: %d has %+v, opponent %d has %+v", r+1, p.Number, e, o.Number, oe)
			}
		}
	}
	// 9 boards, each 2 points (win, forfeit, draw alike).
	if total != 18 {
		t.Fatalf("total score %d, want 18", total)
	}
	round1 := sn.Rounds[0].Boards
	if round1[1].WhiteResult != tally.ForfeitWin || state[0].History[0].Played() != (round1[0].White == sn.ByNumber(1).ID || round1[0].Black == sn.ByNumber(1).ID) {
		t.Fatalf("round 1 boards %+v", round1)
	}
	log, err := s.AuditLog(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, a := range log {
		actions = append(actions, a.Action)
	}
	all := strings.Join(actions, " ")
	for _, want := range []string{"create", "add-player", "pair", "publish", "result", "close", "undo"} {
		if !strings.Contains(all, want) {
			t.Fatalf("audit log lacks %s: %s", want, all)
		}
	}
}

func TestByesAndWithdrawals(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 7) // odd: a pairing-allocated bye each round
	sn := get(t, s, id)
	p := func(n int) int { return sn.ByNumber(n).ID }
	refusals := []struct {
		name string
		err  error
		want string
	}{
		{"unknown player", s.RequestBye(ctx, id, 99, 2, tally.HalfBye), "director.unknown-player"},
		{"not a bye", s.RequestBye(ctx, id, p(1), 2, tally.Win), "director.bad-bye"},
		{"round 9 of 3", s.RequestBye(ctx, id, p(1), 9, tally.HalfBye), "director.bad-field"},
		{"withdraw unknown", s.Withdraw(ctx, id, 99), "director.unknown-player"},
	}
	for _, r := range refusals {
		if got := code(r.err); got != r.want {
			t.Errorf("%s: got %q, want %q", r.name, got, r.want)
		}
	}
	must(t, s.RequestBye(ctx, id, p(2), 1, tally.HalfBye))
	must(t, s.RequestBye(ctx, id, p(3), 1, tally.FullBye))
	must(t, s.RequestBye(ctx, id, p(3), 1, 0)) // cancelled
	must(t, s.RequestBye(ctx, id, p(4), 2, tally.ZeroBye))
	must(t, s.PairRound(ctx, id, 1, nil))
	sn = get(t, s, id)
	r1 := sn.Rounds[0]
	if len(r1.Boards) != 3 || r1.Bye != 0 || r1.Absent[p(2)] != tally.HalfBye {
		t.Fatalf("round 1 (6 present, 2 asked a half point): %+v", r1)
	}
	must(t, s.Withdraw(ctx, id, p(7)))
	if code(s.Withdraw(ctx, id, p(7))) != "director.withdrawn" {
		t.Fatal("withdrawn twice")
	}
	if code(s.RequestBye(ctx, id, p(7), 3, tally.HalfBye)) != "director.withdrawn" {
		t.Fatal("a bye for a withdrawn player")
	}
	playRound(t, s, id, 1)
	must(t, s.PairRound(ctx, id, 2, nil))
	sn = get(t, s, id)
	r2 := sn.Rounds[1]
	// Present: 1, 2, 3, 5, 6 (4 asked Z, 7 withdrew): a bye among five.
	if len(r2.Boards) != 2 || r2.Bye == 0 || r2.Absent[p(4)] != tally.ZeroBye || r2.Absent[p(7)] != tally.ZeroBye {
		t.Fatalf("round 2: %+v", r2)
	}
	playRound(t, s, id, 2)
	sn = get(t, s, id)
	st := sn.State()
	byeNum := sn.Player(r2.Bye).Number
	checks := []struct {
		num   int
		round int
		want  tally.Result
	}{
		{2, 0, tally.HalfBye},
		{4, 1, tally.ZeroBye},
		{7, 1, tally.ZeroBye},
		{byeNum, 1, tally.PairingBye},
	}
	for _, c := range checks {
		if got := st[c.num-1].History[c.round]; got.Result != c.want || got.Opponent != 0 {
			t.Errorf("player %d round %d: %+v, want %c", c.num, c.round+1, got, c.want)
		}
	}
	if !st[6].Absent || st[0].Absent {
		t.Fatalf("absent for round 3: %+v", st)
	}
	// Scores under 2-1-0: the half-point bye is 1, the PAB 2.
	if got := tally.DefaultScoring.Points(st[1].History[0].Result); got != 1 {
		t.Fatalf("half-point bye scores %d", got)
	}
	stand, err := sn.Standings()
	must(t, err)
	if len(stand) != 7 || stand[0].Score < stand[6].Score || stand[0].Rank != 1 || len(stand[0].Values) != 3 {
		t.Fatalf("standings %+v", stand)
	}
}

func TestFixSwapExchange(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 5)
	must(t, s.PairRound(ctx, id, 1, nil))
	before := get(t, s, id).Rounds[0]
	b1 := before.Boards[0]
	must(t, s.SwapColors(ctx, id, 1, 1))
	after := get(t, s, id).Rounds[0]
	if after.Boards[0].White != b1.Black || after.Boards[0].Black != b1.White {
		t.Fatalf("swap: %+v -> %+v", b1, after.Boards[0])
	}
	// Exchange a board's player with the bye.
	must(t, s.Exchange(ctx, id, 1, after.Boards[1].White, after.Bye))
	ex := get(t, s, id).Rounds[0]
	if ex.Bye != after.Boards[1].White || ex.Boards[1].White != after.Bye {
		t.Fatalf("exchange: %+v -> %+v", after, ex)
	}
	bad := []struct {
		name string
		pg   Pairing
	}{
		{"a player twice", Pairing{Boards: [][2]int{{1, 2}, {1, 3}}, Bye: 4}},
		{"self", Pairing{Boards: [][2]int{{1, 1}, {2, 3}}, Bye: 4}},
		{"someone left out", Pairing{Boards: [][2]int{{1, 2}, {3, 4}}}},
		{"a stranger", Pairing{Boards: [][2]int{{1, 2}, {3, 4}}, Bye: 9}},
	}
	for _, b := range bad {
		if got := code(s.Fix(ctx, id, 1, b.pg)); got != "director.bad-pairing" {
			t.Errorf("%s: %q", b.name, got)
		}
	}
	if got := code(s.Exchange(ctx, id, 1, 1, 1)); got != "director.bad-pairing" {
		t.Errorf("exchange with themself: %q", got)
	}
	if got := code(s.Exchange(ctx, id, 1, 1, 77)); got != "director.bad-pairing" {
		t.Errorf("exchange with a stranger: %q", got)
	}
	if got := code(s.SwapColors(ctx, id, 1, 9)); got != "director.unknown-board" {
		t.Errorf("swap board 9: %q", got)
	}
	log, _ := s.AuditLog(ctx, id)
	fixes := 0
	for _, a := range log {
		if a.Action == "fix" {
			fixes++
			if !strings.Contains(a.Detail, "->") || a.At.IsZero() {
				t.Errorf("fix logged as %+v", a)
			}
		}
	}
	if fixes != 2 {
		t.Fatalf("%d fixes logged, want 2", fixes)
	}
}

func TestLateEntry(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 4)
	must(t, s.PairRound(ctx, id, 1, nil))
	late, err := s.AddPlayers(ctx, id, []Player{{Name: "Late", Rating: 2500}})
	must(t, err)
	if late[0].Number != 5 || late[0].Entered != 2 {
		t.Fatalf("late entry %+v", late[0])
	}
	playRound(t, s, id, 1)
	must(t, s.PairRound(ctx, id, 2, nil))
	sn := get(t, s, id)
	st := sn.State()
	if h := st[4].History; len(h) != 1 || h[0].Result != tally.ZeroBye {
		t.Fatalf("late entry's round 1: %+v", h)
	}
	if sn.Rounds[1].Bye == 0 && len(sn.Rounds[1].Boards) != 3 {
		t.Fatalf("round 2 with five: %+v", sn.Rounds[1])
	}
	// Before round 1 the numbers follow the rating.
	id2, _ := newEvent(t, s, Swiss, 3, 2)
	_, err = s.AddPlayers(ctx, id2, []Player{{Name: "Strong", Rating: 2700}})
	must(t, err)
	if p := get(t, s, id2).ByNumber(1); p.Name != "Strong" {
		t.Fatalf("number 1 is %+v", p)
	}
	// Round-robins take no late entry.
	id3, _ := newEvent(t, s, RoundRobin, 3, 4)
	must(t, s.PairRound(ctx, id3, 1, nil))
	if _, err := s.AddPlayers(ctx, id3, []Player{{Name: "Late"}}); code(err) != "director.rr-late" {
		t.Fatalf("round-robin late entry: %v", err)
	}
	if _, err := s.AddPlayers(ctx, id2, []Player{{Name: ""}}); code(err) != "director.bad-field" {
		t.Fatalf("nameless player: %v", err)
	}
}

func TestRoundRobin(t *testing.T) {
	s := newStore(t, nil) // no Swiss pairer needed
	ctx := context.Background()
	id, _ := newEvent(t, s, RoundRobin, 5, 5)
	sn := get(t, s, id)
	must(t, s.RequestBye(ctx, id, sn.ByNumber(1).ID, 2, tally.HalfBye))
	met := map[[2]int]int{}
	for n := 1; n <= 5; n++ {
		if n == 3 {
			must(t, s.Withdraw(ctx, id, sn.ByNumber(5).ID))
		}
		must(t, s.PairRound(ctx, id, n, nil))
		r := get(t, s, id).Rounds[n-1]
		off := 0
		for pid := range r.Absent {
			on := false
			for _, b := range r.Boards {
				on = on || b.White == pid || b.Black == pid
			}
			if !on {
				off++
			}
		}
		if len(r.Boards) != 2 || off != 1 {
			t.Fatalf("round %d of five: %+v", n, r)
		}
		for _, b := range r.Boards {
			k := [2]int{min(b.White, b.Black), max(b.White, b.Black)}
			met[k]++
		}
		playRound(t, s, id, n)
	}
	if len(met) != 10 {
		t.Fatalf("%d encounters, want 10", len(met))
	}
	for k, c := range met {
		if c != 1 {
			t.Fatalf("%v met %d times", k, c)
		}
	}
	sn = get(t, s, id)
	st := sn.State()
	// Player 1's half-point bye of round 2: H for them, + for the opponent.
	e := st[0].History[1]
	if e.Result != tally.HalfBye && e.Result != tally.ZeroBye {
		t.Fatalf("player 1 round 2: %+v", e)
	}
	if e.Result == tally.HalfBye {
		found := false
		for _, p := range st {
			if h := p.History[1]; h.Opponent == 1 && h.Result == tally.ForfeitWin {
				found = true
			}
		}
		if !found {
			t.Fatalf("no forfeit win against player 1's bye: %+v", st)
		}
	}
	// Player 5 withdrew before round 3: rounds 3-5 are forfeits or the free round.
	for r := 2; r < 5; r++ {
		if h := st[4].History[r]; h.Result != tally.ForfeitLoss && h.Result != tally.ZeroBye {
			t.Fatalf("withdrawn player round %d: %+v", r+1, h)
		}
	}
	if code(s.PairRound(ctx, id, 6, nil)) != "director.all-rounds" {
		t.Fatal("a sixth round of five")
	}
}

func TestPairerFailures(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		pair swiss.Pairer
		want string
	}{
		{"the Dutch system (nil)", nil, ""},
		{"no pairing", func([]tally.Player, swiss.Options) (swiss.Round, error) { return swiss.Round{}, swiss.ErrNoPairing }, "director.no-pairing"},
		{"error", func([]tally.Player, swiss.Options) (swiss.Round, error) { return swiss.Round{}, errors.New("boom") }, "director.pairing-failed"},
		{"panic", func([]tally.Player, swiss.Options) (swiss.Round, error) { panic("bug") }, "director.pairing-failed"},
		{"half a pairing", func([]tally.Player, swiss.Options) (swiss.Round, error) {
			return swiss.Round{Boards: []swiss.Board{{White: 1, Black: 2}}}, nil
		}, "director.pairing-failed"},
		{"unknown number", func([]tally.Player, swiss.Options) (swiss.Round, error) {
			return swiss.Round{Boards: []swiss.Board{{White: 1, Black: 2}, {White: 3, Black: 9}}}, nil
		}, "director.pairing-failed"},
		{"good", testPair, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, tc.pair)
			id, _ := newEvent(t, s, Swiss, 3, 4)
			if got := code(s.PairRound(ctx, id, 1, nil)); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if tc.want == "" {
				return
			}
			// Nothing was written; the director pairs it by hand.
			if n := len(get(t, s, id).Rounds); n != 0 {
				t.Fatalf("%d rounds after a refusal", n)
			}
			must(t, s.PairRound(ctx, id, 1, &Pairing{Boards: [][2]int{{1, 2}, {3, 4}}}))
			if got := code(s.PairRound(ctx, id, 2, &Pairing{Boards: [][2]int{{1, 2}}})); got != "director.round-open" {
				t.Fatalf("manual round 2: %q", got)
			}
		})
	}
}

func TestOnlineResultDoesNotOverride(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, tok := newEvent(t, s, Swiss, 1, 2)
	must(t, s.PairRound(ctx, id, 1, nil))
	must(t, s.Publish(ctx, id, 1))
	sealed, err := SealLinks(tok, map[string]string{"white": "http://x/g/w"})
	must(t, err)
	must(t, s.SetGame(ctx, id, 1, 1, "game1", sealed))
	if code(s.SetGame(ctx, id, 1, 1, "game2", sealed)) != "director.has-game" {
		t.Fatal("a second game on a board")
	}
	if code(s.Undo(ctx, id, 1)) != "director.has-game" {
		t.Fatal("undo with a game")
	}
	games, err := s.Games(ctx)
	must(t, err)
	if len(games) != 1 || games[0].Game != "game1" || games[0].Done {
		t.Fatalf("games %+v", games)
	}
	changed, err := s.Record(ctx, id, 1, 1, [2]tally.Result{tally.Draw, tally.Draw}, "director")
	must(t, err)
	if !changed {
		t.Fatal("director's result not recorded")
	}
	changed, err = s.Record(ctx, id, 1, 1, [2]tally.Result{tally.Win, tally.Loss}, "online")
	must(t, err)
	if changed || get(t, s, id).Rounds[0].Boards[0].Score() != "=-=" {
		t.Fatal("the online result replaced the director's")
	}
	blob, err := s.Links(ctx, id, 1, 1)
	must(t, err)
	links, err := OpenLinks(tok, blob)
	if err != nil || links["white"] != "http://x/g/w" {
		t.Fatalf("links %v %v", links, err)
	}
	if _, err := OpenLinks(tok+"x", blob); err == nil {
		t.Fatal("links opened with another token")
	}
}

func TestSecrets(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, tok := newEvent(t, s, Swiss, 3, 2)
	if got, ok := s.Resolve(ctx, tok); !ok || got != id {
		t.Fatalf("resolve: %q %v", got, ok)
	}
	for _, bad := range []string{"", tok[:len(tok)-1], tok + "A", strings.Repeat("a", 200), id} {
		if _, ok := s.Resolve(ctx, bad); ok {
			t.Fatalf("resolved %q", bad)
		}
	}
	s.Close()
	raw, err := os.ReadFile(s.path)
	must(t, err)
	wal, _ := os.ReadFile(s.path + "-wal")
	if bytes.Contains(append(raw, wal...), []byte(tok)) {
		t.Fatal("the token is in the database file")
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		must(t, os.WriteFile(p, data, 0o644))
		return p
	}
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	must(t, err)
	_, err = db.Exec("CREATE TABLE t (x); PRAGMA application_id = 42")
	must(t, err)
	db.Close()
	// A good file, then made newer, then made version-less.
	good := filepath.Join(dir, "good.db")
	s, err := Open(Config{Path: good})
	must(t, err)
	s.Close()
	raw, err := os.ReadFile(good)
	must(t, err)
	newer := filepath.Join(dir, "newer.db")
	must(t, os.WriteFile(newer, raw, 0o644))
	db, _ = sql.Open("sqlite", newer)
	_, err = db.Exec("PRAGMA user_version = 99")
	must(t, err)
	db.Close()
	none := filepath.Join(dir, "none.db")
	must(t, os.WriteFile(none, raw, 0o644))
	db, _ = sql.Open("sqlite", none)
	_, err = db.Exec("PRAGMA user_version = 0")
	must(t, err)
	db.Close()
	tests := []struct {
		name, path, want string
	}{
		{"text file", write("text.db", []byte("name,club\nA,B\n")), "not an SQLite database"},
		{"half a header", write("half.db", []byte("SQLite for")), "not an SQLite database"},
		{"truncated", write("trunc.db", raw[:len(raw)/3]), "damaged"},
		{"another program", other, "another program"},
		{"newer schema", newer, "newer"},
		{"no version", none, "no schema version"},
		{"no path", "", "no database file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(Config{Path: tc.path})
			if err == nil {
				s.Close()
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q lacks %q", err, tc.want)
			}
		})
	}
	// The good one opens again, its data intact.
	s, err = Open(Config{Path: good})
	must(t, err)
	s.Close()
}

func TestUnknownEvent(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	for _, err := range []error{
		s.PairRound(ctx, "nope", 1, nil),
		s.Withdraw(ctx, "nope", 1),
		func() error { _, err := s.Get(ctx, "nope"); return err }(),
		func() error { _, err := s.AddPlayers(ctx, "nope", []Player{{Name: "A"}}); return err }(),
	} {
		if code(err) != "director.unknown-event" {
			t.Fatalf("got %v", err)
		}
	}
}

func TestParseOutcome(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"1-0", "1-0", true}, {"2-0", "1-0", true}, {"0-1", "0-1", true}, {"0 - 2", "0-1", true},
		{"½-½", "=-=", true}, {"1/2-1/2", "=-=", true}, {"1-1", "=-=", true}, {"=", "=-=", true},
		{"+-", "+--", true}, {"-+", "--+", true}, {"--", "---", true},
		{"3-0", "", false}, {"", "", false}, {"1-0-1", "", false},
	}
	for _, tc := range tests {
		r, ok := ParseOutcome(tc.in)
		if ok != tc.ok {
			t.Errorf("%q: ok %v", tc.in, ok)
			continue
		}
		if ok && (Board{WhiteResult: r[0], BlackResult: r[1]}).Score() != tc.want {
			t.Errorf("%q: %c%c, want %s", tc.in, r[0], r[1], tc.want)
		}
	}
}

func TestFormatScore(t *testing.T) {
	e := Event{HalfPoints: true}
	f := Event{}
	for _, tc := range []struct {
		units      int
		half, full string
	}{{0, "0", "0"}, {1, "½", "1"}, {2, "1", "2"}, {7, "3½", "7"}} {
		if got := e.FormatScore(tc.units); got != tc.half {
			t.Errorf("%d halved: %q", tc.units, got)
		}
		if got := f.FormatScore(tc.units); got != tc.full {
			t.Errorf("%d: %q", tc.units, got)
		}
	}
}

func TestCodes(t *testing.T) {
	for _, c := range Codes() {
		if !strings.HasPrefix(c.Code, "director.") || c.Text == "" {
			t.Errorf("code %+v", c)
		}
	}
	if len(Codes()) < 20 {
		t.Fatal("too few codes")
	}
}

// TestDutchEventAndTRF runs a seven-player Swiss of four rounds with the
// Dutch pairing, then writes the TRF and reads it back: the same histories.
func TestDutchEventAndTRF(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 4, 7)
	sn := get(t, s, id)
	must(t, s.RequestBye(ctx, id, sn.ByNumber(3).ID, 2, tally.HalfBye))
	results := [][2]tally.Result{{tally.Win, tally.Loss}, {tally.Draw, tally.Draw}, {tally.Loss, tally.Win}, {tally.ForfeitWin, tally.ForfeitLoss}}
	for n := 1; n <= 4; n++ {
		must(t, s.PairRound(ctx, id, n, nil))
		must(t, s.Publish(ctx, id, n))
		for i, b := range get(t, s, id).Rounds[n-1].Boards {
			_, err := s.Record(ctx, id, n, b.Board, results[(i+n)%len(results)], "director")
			must(t, err)
		}
		must(t, s.CloseRound(ctx, id, n))
	}
	sn = get(t, s, id)
	var buf bytes.Buffer
	must(t, sn.WriteTRF(&buf))
	back, err := trf.Read(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	state := sn.State()
	if len(back.Players) != len(state) || back.Rounds != 4 || back.Name != "Test open" {
		t.Fatalf("TRF read back: %+v", back)
	}
	byes := 0
	for i, p := range back.Players {
		want := state[i]
		if p.Number != want.Number || len(p.History) != len(want.History) || p.Rank < 1 {
			t.Fatalf("player %d: %+v, want %+v", i+1, p, want)
		}
		for r, e := range p.History {
			if e != want.History[r] {
				t.Fatalf("player %d round %d: TRF %+v, event %+v", p.Number, r+1, e, want.History[r])
			}
			if e.Result == tally.PairingBye {
				byes++
			}
		}
	}
	if byes != 3 { // rounds 1, 3, 4 (round 2 has six present)
		t.Fatalf("%d pairing-allocated byes, want 3", byes)
	}
	if h := state[2].History[1]; h.Result != tally.HalfBye {
		t.Fatalf("number 3's round 2: %+v", h)
	}
}

// TestImportTRF writes an event's TRF and imports it as a new event: the
// same state, the next round pairable; broken histories are refused with
// the player and the round.
func TestImportTRF(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 4, 7)
	sn := get(t, s, id)
	must(t, s.RequestBye(ctx, id, sn.ByNumber(2).ID, 2, tally.HalfBye))
	for n := 1; n <= 2; n++ {
		must(t, s.PairRound(ctx, id, n, nil))
		must(t, s.Publish(ctx, id, n))
		for i, b := range get(t, s, id).Rounds[n-1].Boards {
			res := [][2]tally.Result{{tally.Win, tally.Loss}, {tally.Draw, tally.Draw}, {tally.ForfeitLoss, tally.ForfeitWin}}[(i+n)%3]
			_, err := s.Record(ctx, id, n, b.Board, res, "director")
			must(t, err)
		}
		must(t, s.CloseRound(ctx, id, n))
	}
	sn = get(t, s, id)
	var buf bytes.Buffer
	must(t, sn.WriteTRF(&buf))
	text := buf.String()
	tev, err := ParseTRF([]byte(text))
	must(t, err)
	ev, tok, err := s.ImportTRF(ctx, Event{Variant: "international"}, tev)
	must(t, err)
	if ev.Name != "Test open" || ev.Rounds != 4 || ev.Scoring != sn.Event.Scoring || tok == "" {
		t.Fatalf("imported %+v", ev)
	}
	in := get(t, s, ev.ID)
	a, b := sn.State(), in.State()
	if len(a) != len(b) {
		t.Fatalf("%d players, imported %d", len(a), len(b))
	}
	for i := range a {
		if len(a[i].History) != len(b[i].History) {
			t.Fatalf("player %d: %d rounds, imported %d", a[i].Number, len(a[i].History), len(b[i].History))
		}
		for r := range a[i].History {
			if a[i].History[r] != b[i].History[r] {
				t.Fatalf("player %d round %d: %+v, imported %+v", a[i].Number, r+1, a[i].History[r], b[i].History[r])
			}
		}
	}
	must(t, s.PairRound(ctx, ev.ID, 3, nil))

	// Broken files: the problem's player and round, or line and column.
	lines := strings.Split(text, "\n")
	var p1 int
	for i, l := range lines {
		if strings.HasPrefix(l, "001    1") {
			p1 = i
		}
	}
	breakIt := func(from, to string) []byte {
		l := slices.Clone(lines)
		l[p1] = strings.Replace(l[p1], from, to, 1)
		return []byte(strings.Join(l, "\n"))
	}
	first := a[0].History[0]
	own := fmt.Sprintf("%4d %c %c", first.Opponent, "-wb"[first.Color], first.Result)
	other := 1 + (first.Opponent % 7)
	if other == 1 {
		other = 2
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"not a TRF", []byte("001 garbage"), "director.trf"},
		{"an opponent who does not agree", breakIt(own, fmt.Sprintf("%4d %c %c", other, "-wb"[first.Color], first.Result)), "director.trf"},
	} {
		tev, err := ParseTRF(tc.data)
		if err == nil {
			_, _, err = s.ImportTRF(ctx, Event{}, tev)
		}
		if code(err) != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
}

func TestImportTRFHistories(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	two := func(a, b tally.Entry) *trf.Event {
		return &trf.Event{Name: "Hand-made", Players: []trf.Player{
			{Player: tally.Player{Number: 1, History: []tally.Entry{a}}, Name: "A"},
			{Player: tally.Player{Number: 2, History: []tally.Entry{b}}, Name: "B"},
		}}
	}
	tests := []struct {
		name string
		ev   *trf.Event
		want string
	}{
		{"a game", two(tally.Entry{Opponent: 2, Color: tally.White, Result: tally.Win}, tally.Entry{Opponent: 1, Color: tally.Black, Result: tally.Loss}), ""},
		{"unrated draw", two(tally.Entry{Opponent: 2, Color: tally.Black, Result: tally.UnratedDraw}, tally.Entry{Opponent: 1, Color: tally.White, Result: tally.UnratedDraw}), ""},
		{"two byes", two(tally.Entry{Result: tally.PairingBye}, tally.Entry{Result: tally.PairingBye}), "director.trf-history"},
		{"a win with nobody", two(tally.Entry{Result: tally.Win}, tally.Entry{Result: tally.HalfBye}), "director.trf-history"},
		{"both won", two(tally.Entry{Opponent: 2, Color: tally.White, Result: tally.Win}, tally.Entry{Opponent: 1, Color: tally.Black, Result: tally.Win}), "director.trf-history"},
		{"both white", two(tally.Entry{Opponent: 2, Color: tally.White, Result: tally.Win}, tally.Entry{Opponent: 1, Color: tally.White, Result: tally.Loss}), "director.trf-history"},
		{"one-sided", two(tally.Entry{Opponent: 2, Color: tally.White, Result: tally.Win}, tally.Entry{Result: tally.ZeroBye}), "director.trf-history"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev, _, err := s.ImportTRF(ctx, Event{}, tc.ev)
			if got := code(err); got != tc.want {
				t.Fatalf("got %q (%v), want %q", got, err, tc.want)
			}
			if tc.want != "" {
				return
			}
			st := get(t, s, ev.ID).State()
			if len(st) != 2 || st[0].History[0].Opponent != 2 || st[1].History[0].Opponent != 1 || st[0].History[0].Color == st[1].History[0].Color {
				t.Fatalf("imported %+v", st)
			}
		})
	}
}

func TestTooManyEvents(t *testing.T) {
	s := newStore(t, nil)
	old := maxEvents
	maxEvents = 2
	defer func() { maxEvents = old }()
	ctx := context.Background()
	for i, want := range []string{"", "", "director.too-many-events"} {
		if _, _, err := s.Create(ctx, Event{Name: "E", Rounds: 1}); code(err) != want {
			t.Fatalf("event %d: %v, want %q", i+1, err, want)
		}
	}
}
