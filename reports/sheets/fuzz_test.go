package sheets

import (
	"bytes"
	"io"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

// eventFromBytes builds an event from fuzz input: the first byte is the
// number of players, then each round is a count and that many boards of
// (white, black, result) bytes and a bye of (player, kind) bytes. Numbers
// and results may be out of range on purpose: the sheets must answer with
// an error, never a panic.
func eventFromBytes(b []byte) *Event {
	next := func() int {
		if len(b) == 0 {
			return 0
		}
		x := int(b[0])
		b = b[1:]
		return x
	}
	ev := &Event{Name: "fuzz", Halves: len(b)%2 == 0, RoundRobin: len(b)%3 == 0,
		TieBreaks: tiebreak.Order{tiebreak.BuchholzCut1, tiebreak.DirectEncounter, tiebreak.SonnebornBerger, tiebreak.AverageRating}}
	n := next() % 12
	for i := 1; i <= n; i++ {
		ev.Players = append(ev.Players, Player{Number: i, Name: string(rune('A'+i)) + " <&\"'>", Rating: 1500 + 50*i})
	}
	kinds := []tally.Result{tally.PairingBye, tally.FullBye, tally.HalfBye, tally.ZeroBye, tally.Win}
	for len(b) > 0 && len(ev.Played) < 8 {
		var rd Round
		for range next() % 6 {
			rd.Boards = append(rd.Boards, Board{White: next() % 14, Black: next() % 14, Result: Result(next() % 8)})
		}
		if p := next(); p%2 == 0 {
			rd.Byes = append(rd.Byes, Bye{Player: p % 14, Kind: kinds[next()%len(kinds)]})
		}
		ev.Played = append(ev.Played, rd)
	}
	return ev
}

func FuzzSheets(f *testing.F) {
	f.Add([]byte{4, 2, 1, 2, 1, 3, 4, 2, 1})
	f.Add([]byte{6, 3, 1, 4, 1, 2, 5, 2, 3, 6, 3, 0, 1, 3})
	f.Add([]byte{2, 1, 1, 2, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		ev := eventFromBytes(b)
		for r := range len(ev.Played) + 2 {
			_ = Pairings(io.Discard, ev, r)
			_ = Standings(io.Discard, ev, r)
		}
		// What renders must parse, whatever the names and results.
		var buf bytes.Buffer
		if err := Crosstable(&buf, ev); err == nil {
			parse(t, buf.Bytes())
		}
		buf.Reset()
		if err := Cards(&buf, ev); err == nil {
			parse(t, buf.Bytes())
		}
		for p := range len(ev.Players) + 2 {
			_ = Card(io.Discard, ev, p)
		}
	})
}
